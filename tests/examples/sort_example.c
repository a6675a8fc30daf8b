/* sort_example.c — sort an array on the best device present (GPU, else the
 * C fallback). Build: cc sort_example.c $(pkg-config --cflags --libs zesort) */
#include <stdio.h>
#include <stdlib.h>
#include <zesort.h>

int main(void)
{
    uint32_t keys[] = {42, 7, 19, 7, 3000000000u, 0, 19};
    uint64_t n = sizeof keys / sizeof keys[0];

    zesort_context *ctx;
    if (zesort_create(ZESORT_BACKEND_AUTO, &ctx) != ZESORT_OK) {
        fprintf(stderr, "zesort_create: %s\n", zesort_last_error(NULL));
        return 1;
    }
    /* One descriptor says what to sort, zesort_run sorts it. The defaults:
     * ascending u32 keys, all bits, keys only, and the algorithm the library
     * picks for the device and n; d.algo = ZESORT_ALGO_CM2, _CM4, _ONESWEEP
     * or _SMALL chooses one (a GPU runs all four; the C fallback one sort). */
    zesort_desc d;
    zesort_desc_init(&d, ZESORT_SORT);
    d.keys = keys;
    d.n = n;

    zesort_status st = zesort_run(ctx, &d);
    if (st != ZESORT_OK) {
        fprintf(stderr, "zesort_run: %s: %s\n", zesort_status_name(st), zesort_last_error(ctx));
        zesort_destroy(ctx);
        return 1;
    }
    zesort_context_info info = {.size = sizeof info};
    zesort_context_query(ctx, &info);
    printf("sorted on %s:", info.device);
    for (uint64_t i = 0; i < n; ++i)
        printf(" %u", keys[i]);
    printf("\n");
    zesort_destroy(ctx);
    return 0;
}
