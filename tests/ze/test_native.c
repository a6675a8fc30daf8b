/*
 * test_native.c — the Level Zero backend picks the embedded native binary of
 * the GPU it runs on (issue 19). The test driver plays a GPU of one IP version
 * (ZE_CL_DRIVER_IP_VERSION, tests/ze_cl_driver/native.c): it accepts only
 * native binaries of that IP version and runs the SPIR-V they carry, so the
 * sorts below go through the native binary the library chose, or through the
 * SPIR-V when none of its binaries matches.
 *
 *   test_native native   expect every module built from a native binary
 *   test_native spirv    expect none (a device no binary is built for)
 *
 * Each sort (u32 keys, u64 keys with values, every algorithm) is checked
 * against qsort. Needs the sg flavor's sub-groups: runs in the Debian 13 root
 * (suite debian13). Exit 77 without a Level Zero driver.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zecl_hooks.h"
#include "zesort.h"

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    return x ^ (x >> 29);
}

/* One sort of n keys (key64: u64 with u32 values) on ctx; 0 when correct. */
static int sort_once(zesort_context *ctx, zesort_algo algo, int key64, uint64_t n)
{
    uint64_t *want = malloc(n * 8), *k64 = malloc(n * 8);
    uint32_t *k32 = malloc(n * 4), *vals = malloc(n * 4);
    for (uint64_t i = 0; i < n; i++) {
        want[i] = key64 ? mix(i + 1) : (uint32_t)mix(i + 1);
        k64[i] = want[i];
        k32[i] = (uint32_t)want[i];
        vals[i] = (uint32_t)i;
    }
    qsort(want, n, 8, cmp_u64);
    zesort_options o;
    zesort_options_default(&o);
    o.algo = algo;
    o.key_type = key64 ? ZESORT_KEY_U64 : ZESORT_KEY_U32;
    zesort_status st = zesort_sort(ctx, key64 ? (void *)k64 : (void *)k32, key64 ? vals : NULL,
                                   n, &o);
    int bad = st != ZESORT_OK;
    if (bad)
        fprintf(stderr, "FAIL: %s: %s\n", zesort_algo_name(algo), zesort_last_error(ctx));
    for (uint64_t i = 0; !bad && i < n; i++)
        bad = (key64 ? k64[i] : k32[i]) != want[i] ||
              (key64 && (uint64_t)mix(vals[i] + 1) != k64[i]);
    if (bad && st == ZESORT_OK)
        fprintf(stderr, "FAIL: %s %s: wrong order\n", zesort_algo_name(algo),
                key64 ? "u64 pairs" : "u32");
    free(want), free(k64), free(k32), free(vals);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc != 2 || (strcmp(argv[1], "native") && strcmp(argv[1], "spirv"))) {
        fprintf(stderr, "usage: test_native native|spirv\n");
        return 2;
    }
    int want_native = strcmp(argv[1], "native") == 0;
    zesort_context *ctx;
    if (zesort_create(ZESORT_BACKEND_LEVEL_ZERO, &ctx) != ZESORT_OK) {
        printf("SKIP: %s\n", zesort_last_error(NULL));
        return 77;
    }
    zecl_hooks hooks;
    if (zecl_hooks_find(&hooks) != 0 || !hooks.native_modules) {
        fprintf(stderr, "FAIL: the test driver's hooks are not loaded\n");
        return 1;
    }
    const char *ip = getenv("ZE_CL_DRIVER_IP_VERSION");
    printf("device: %s, flavor %s, driver plays IP version %s\n", zesort_context_device(ctx),
           zesort_context_flavor(ctx), ip ? ip : "(none)");
    int failures = 0;
    const zesort_algo algos[] = {ZESORT_ALGO_CM2, ZESORT_ALGO_CM4, ZESORT_ALGO_ONESWEEP};
    for (int a = 0; a < 3; a++)
        for (int key64 = 0; key64 < 2; key64++)
            failures += sort_once(ctx, algos[a], key64, 100003);
    uint64_t native = hooks.native_modules();
    printf("modules built from a native binary: %llu\n", (unsigned long long)native);
    if (want_native ? native == 0 : native != 0) {
        fprintf(stderr, "FAIL: expected %s modules, %llu native\n", want_native ? "native" : "SPIR-V",
                (unsigned long long)native);
        failures++;
    }
    zesort_destroy(ctx);
    printf("%d failures\n", failures);
    return failures ? 1 : 0;
}
