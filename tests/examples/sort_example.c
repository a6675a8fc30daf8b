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
    zesort_options opts;
    zesort_options_default(&opts);
    opts.algo = ZESORT_ALGO_CM4;   /* or CM2; AUTO picks */
    opts.scan = ZESORT_SCAN_DEVICE; /* or HOST, as in the CM tutorial */

    zesort_status st = zesort_sort(ctx, keys, NULL, n, &opts);
    if (st != ZESORT_OK) {
        fprintf(stderr, "zesort_sort: %s: %s\n", zesort_status_name(st), zesort_last_error(ctx));
        zesort_destroy(ctx);
        return 1;
    }
    printf("sorted on %s:", zesort_context_device(ctx));
    for (uint64_t i = 0; i < n; ++i)
        printf(" %u", keys[i]);
    printf("\n");
    zesort_destroy(ctx);
    return 0;
}
