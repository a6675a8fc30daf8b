/*
 * test_corrupt_kernels.c — a damaged embedded kernel frame fails the sort
 * that needs it cleanly, and the same sort works once the frame is intact.
 *
 *   test_corrupt_kernels opencl|level-zero
 *
 * ZESORT_TEST_CORRUPT_KERNELS=1 (test_hooks.h) flips one byte of every
 * compressed kernel frame the library decompresses while it is set. The
 * first sort on a new context must then fail with ZESORT_ERROR_BACKEND and a
 * message that says the embedded kernels are corrupt, its keys unchanged,
 * and must not crash. With the variable unset, the next sort on the same
 * context (the failure is not remembered) and on a new one must sort.
 * Exit 0 pass, 1 failure, 77 backend not available (skip).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zesort.h"

enum { N_KEYS = 100000 }; /* past any host shortcut: the device's kernels run */
static uint32_t input_keys[N_KEYS], keys[N_KEYS];

static void make_keys(void)
{
    uint64_t x = 88172645463325252ull;
    for (uint32_t i = 0; i < N_KEYS; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        input_keys[i] = (uint32_t)x;
    }
}

static int sorted(void)
{
    for (uint32_t i = 1; i < N_KEYS; i++)
        if (keys[i - 1] > keys[i])
            return 0;
    return 1;
}

static zesort_status sort_keys(zesort_context *ctx)
{
    memcpy(keys, input_keys, sizeof keys);
    zesort_options opts;
    zesort_options_default(&opts);
    return zesort_sort(ctx, keys, NULL, N_KEYS, &opts);
}

/* A sort with the frames damaged: an error that names them, keys untouched. */
static int corrupt_sort_fails(zesort_context *ctx)
{
    setenv("ZESORT_TEST_CORRUPT_KERNELS", "1", 1);
    zesort_status st = sort_keys(ctx);
    unsetenv("ZESORT_TEST_CORRUPT_KERNELS");
    const char *msg = zesort_last_error(ctx);
    printf("damaged frame: %s: %s\n", zesort_status_name(st), msg ? msg : "(null)");
    if (st != ZESORT_ERROR_BACKEND || !msg || !strstr(msg, "embedded kernel binaries for") ||
        !strstr(msg, "are corrupt")) {
        fprintf(stderr, "FAIL: expected ZESORT_ERROR_BACKEND \"embedded kernel binaries for "
                        "... are corrupt\"\n");
        return 0;
    }
    if (memcmp(keys, input_keys, sizeof keys) != 0) {
        fprintf(stderr, "FAIL: the failed sort changed the keys\n");
        return 0;
    }
    return 1;
}

static int intact_sort_works(zesort_context *ctx, const char *what)
{
    zesort_status st = sort_keys(ctx);
    if (st != ZESORT_OK || !sorted()) {
        fprintf(stderr, "FAIL: %s: %s %s\n", what, zesort_status_name(st),
                zesort_last_error(ctx));
        return 0;
    }
    printf("%s: sorted\n", what);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 2 || (strcmp(argv[1], "opencl") && strcmp(argv[1], "level-zero"))) {
        fprintf(stderr, "usage: test_corrupt_kernels opencl|level-zero\n");
        return 1;
    }
    const zesort_backend backend =
        strcmp(argv[1], "opencl") == 0 ? ZESORT_BACKEND_OPENCL : ZESORT_BACKEND_LEVEL_ZERO;
    make_keys();
    zesort_context *ctx = NULL;
    zesort_status st = zesort_create(backend, &ctx);
    if (st == ZESORT_ERROR_NO_DEVICE) {
        printf("SKIP: no %s device\n", argv[1]);
        return 77;
    }
    if (st != ZESORT_OK) {
        fprintf(stderr, "FAIL: zesort_create: %s\n", zesort_last_error(NULL));
        return 1;
    }
    int ok = corrupt_sort_fails(ctx) && intact_sort_works(ctx, "same context, frame intact");
    zesort_destroy(ctx);
    if (ok && zesort_create(backend, &ctx) == ZESORT_OK) {
        ok = intact_sort_works(ctx, "new context");
        zesort_destroy(ctx);
    }
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
