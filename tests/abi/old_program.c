/*
 * A program written for and compiled against zesort 1.1.0's headers
 * (tests/abi/1.1.0, never include/), run against the library being built:
 * the ABI promise of a minor release. Uses the host API on the cpu backend
 * and checks every result against qsort.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zesort.h"

/* Built with exactly 1.1.0's headers: the copied, generated zesort_version.h. */
#if ZESORT_VERSION_MAJOR != 1 || ZESORT_VERSION_MINOR != 1 || ZESORT_VERSION_PATCH != 0
#error "old_program.c must be compiled with -I tests/abi/1.1.0 (zesort 1.1.0's headers)"
#endif

#define N 5000u
#define K 37u

/* (key, input position): ordered by key, then position = a stable sort */
typedef struct {
    uint32_t key, pos;
} pair;

static int cmp_pair(const void *a, const void *b)
{
    const pair *x = a, *y = b;
    if (x->key != y->key) {
        return x->key < y->key ? -1 : 1;
    }
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int failures;

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "old_program: FAIL: %s\n", what);
        failures++;
    }
}

static void check_status(zesort_status st, zesort_context *ctx, const char *what)
{
    if (st != ZESORT_OK) {
        fprintf(stderr, "old_program: FAIL: %s: %s: %s\n", what, zesort_status_name(st),
                zesort_last_error(ctx));
        failures++;
    }
}

int main(void)
{
    /* the library: 1.x, at least 1.1 (a newer minor release serves a 1.1 program) */
    const char *lib = zesort_version();
    unsigned major = 0, minor = 0, patch = 0;
    check(lib && sscanf(lib, "%u.%u.%u", &major, &minor, &patch) == 3, "zesort_version parses");
    check(major == 1 && minor >= 1, "library version is 1.x with x >= 1");
    printf("old_program: headers %s, library %s\n", ZESORT_VERSION_STRING, lib ? lib : "(null)");

    zesort_context *ctx = NULL;
    zesort_status st = zesort_create(ZESORT_BACKEND_CPU, &ctx);
    check_status(st, NULL, "zesort_create(CPU)");
    if (st != ZESORT_OK) {
        return 1;
    }
    check(zesort_context_backend(ctx) == ZESORT_BACKEND_CPU, "context backend is cpu");

    uint32_t *keys = malloc(N * sizeof *keys);
    uint32_t *vals = malloc(N * sizeof *vals);
    uint32_t *keys_out = malloc(N * sizeof *keys_out);
    uint32_t *vals_out = malloc(N * sizeof *vals_out);
    uint32_t *idx = malloc(N * sizeof *idx);
    uint32_t *orig = malloc(N * sizeof *orig);
    pair *ref = malloc(N * sizeof *ref);
    if (!keys || !vals || !keys_out || !vals_out || !idx || !orig || !ref) {
        fprintf(stderr, "old_program: out of memory\n");
        return 1;
    }
    uint64_t x = 88172645463325252ull; /* xorshift64; few distinct keys: ties */
    for (uint32_t i = 0; i < N; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        orig[i] = (uint32_t)(x % 1000u);
        ref[i] = (pair){orig[i], i};
    }
    qsort(ref, N, sizeof *ref, cmp_pair);

    zesort_options opts;
    zesort_options_default(&opts); /* 1.1.0's struct, filled by the library */
    check(opts.key_type == ZESORT_KEY_U32 && opts.value_type == ZESORT_VALUE_U32 &&
              opts.descending == 0,
          "zesort_options_default");

    /* zesort_sort with values: keys and the input positions, stably */
    memcpy(keys, orig, N * sizeof *keys);
    for (uint32_t i = 0; i < N; i++) {
        vals[i] = i;
    }
    check_status(zesort_sort(ctx, keys, vals, N, &opts), ctx, "zesort_sort");
    check(strcmp(zesort_last_error(ctx), "") == 0, "zesort_last_error is \"\" after a success");
    int ok = 1;
    for (uint32_t i = 0; i < N; i++) {
        ok &= keys[i] == ref[i].key && vals[i] == ref[i].pos;
    }
    check(ok, "zesort_sort keys and values match qsort");

    /* zesort_sort_copy: the input untouched */
    memcpy(keys, orig, N * sizeof *keys);
    for (uint32_t i = 0; i < N; i++) {
        vals[i] = i;
    }
    check_status(zesort_sort_copy(ctx, keys, vals, keys_out, vals_out, N, &opts), ctx,
                 "zesort_sort_copy");
    ok = memcmp(keys, orig, N * sizeof *keys) == 0;
    for (uint32_t i = 0; i < N; i++) {
        ok &= keys_out[i] == ref[i].key && vals_out[i] == ref[i].pos && vals[i] == i;
    }
    check(ok, "zesort_sort_copy matches qsort, input unchanged");

    /* zesort_argsort: the stable permutation, and the sorted keys */
    memset(keys_out, 0, N * sizeof *keys_out);
    check_status(zesort_argsort(ctx, orig, idx, keys_out, N, &opts), ctx, "zesort_argsort");
    ok = 1;
    for (uint32_t i = 0; i < N; i++) {
        ok &= idx[i] == ref[i].pos && keys_out[i] == ref[i].key;
    }
    check(ok, "zesort_argsort matches qsort");

    /* zesort_topk: the K smallest, with their values and positions */
    memset(keys_out, 0, N * sizeof *keys_out);
    memset(vals_out, 0, N * sizeof *vals_out);
    memset(idx, 0, N * sizeof *idx);
    for (uint32_t i = 0; i < N; i++) {
        vals[i] = 3u * i + 1u;
    }
    check_status(zesort_topk(ctx, orig, vals, keys_out, vals_out, idx, N, K, &opts), ctx,
                 "zesort_topk");
    ok = 1;
    for (uint32_t i = 0; i < K; i++) {
        ok &= keys_out[i] == ref[i].key && idx[i] == ref[i].pos && vals_out[i] == 3u * ref[i].pos + 1u;
    }
    check(ok, "zesort_topk matches the first k of qsort");

    /* descending, through the 1.1.0 layout of zesort_options */
    opts.descending = 1;
    memcpy(keys, orig, N * sizeof *keys);
    check_status(zesort_sort(ctx, keys, NULL, N, &opts), ctx, "zesort_sort descending");
    ok = 1;
    for (uint32_t i = 0; i < N; i++) {
        ok &= keys[i] == ref[N - 1 - i].key;
    }
    check(ok, "zesort_sort descending matches qsort");
    opts.descending = 0;

    /* an error, and its message */
    st = zesort_sort(ctx, NULL, NULL, N, &opts);
    check(st == ZESORT_ERROR_INVALID_ARGUMENT, "zesort_sort(keys NULL) is INVALID_ARGUMENT");
    check(strlen(zesort_last_error(ctx)) > 0, "zesort_last_error describes the failure");

    zesort_destroy(ctx);
    free(keys);
    free(vals);
    free(keys_out);
    free(vals_out);
    free(idx);
    free(orig);
    free(ref);
    if (failures) {
        fprintf(stderr, "old_program: %d check(s) failed\n", failures);
        return 1;
    }
    printf("old_program: all checks passed\n");
    return 0;
}
