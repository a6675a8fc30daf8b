/*
 * test_topk_alloc.c — every host allocation zesort_topk and
 * zesort_topk_segments make fails, one at a time (-Wl,--wrap, as
 * test_host_alloc.c): the call either succeeds with the right result (the
 * C fallback's select does without a list, a team or its tables when it
 * must) or fails cleanly (a status, a message); the inputs never change,
 * and the next call on the context is right.
 *
 *   test_topk_alloc cpu|opencl
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zesort.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t size);

static atomic_int armed;
static atomic_ullong allocations, fail_at;

static int fail_now(void)
{
    if (!atomic_load(&armed))
        return 0;
    return atomic_fetch_add(&allocations, 1) + 1 == atomic_load(&fail_at);
}

void *__wrap_malloc(size_t size) { return fail_now() ? NULL : __real_malloc(size); }
void *__wrap_calloc(size_t count, size_t size) { return fail_now() ? NULL : __real_calloc(count, size); }
void *__wrap_realloc(void *p, size_t size) { return fail_now() ? NULL : __real_realloc(p, size); }

enum { N = 600000 }; /* the select's threads, its sample and its lists all run */
static uint32_t keys[N], copy[N], want_k[N], want_i[N], got_k[N], got_i[N];
static uint64_t offsets[] = {0, 1000, 1000, 250000, N};
static int failures;

static zesort_status call(zesort_context *ctx, uint64_t k, int segmented)
{
    memset(got_k, 0, sizeof got_k), memset(got_i, 0, sizeof got_i);
    return segmented ? zesort_topk_segments(ctx, keys, NULL, got_k, NULL, got_i, N, offsets, 4,
                                            k, NULL)
                     : zesort_topk(ctx, keys, NULL, got_k, NULL, got_i, N, k, NULL);
}

static void run(zesort_context *ctx, uint64_t k, int segmented)
{
    const size_t out = (segmented ? 4 : 1) * k * 4;
    if (call(ctx, k, segmented) != ZESORT_OK) {
        printf("FAIL k=%llu: clean call: %s\n", (unsigned long long)k, zesort_last_error(ctx));
        failures++;
        return;
    }
    memcpy(want_k, got_k, out), memcpy(want_i, got_i, out);
    /* how many a clean call makes (counted, none failed) */
    atomic_store(&allocations, 0), atomic_store(&fail_at, 0), atomic_store(&armed, 1);
    call(ctx, k, segmented);
    atomic_store(&armed, 0);
    const unsigned long long total = atomic_load(&allocations);
    unsigned long long oom = 0;
    for (unsigned long long at = 1; at <= total; at++) {
        atomic_store(&allocations, 0), atomic_store(&fail_at, at), atomic_store(&armed, 1);
        zesort_status st = call(ctx, k, segmented);
        atomic_store(&armed, 0);
        const int right = st == ZESORT_OK ? !memcmp(got_k, want_k, out) &&
                                                !memcmp(got_i, want_i, out)
                                          : zesort_last_error(ctx)[0] != 0;
        oom += st != ZESORT_OK;
        if (!right || memcmp(keys, copy, sizeof keys)) {
            printf("FAIL k=%llu seg=%d allocation %llu: %s\n", (unsigned long long)k, segmented,
                   at, zesort_status_name(st));
            failures++;
        }
    }
    const int again = call(ctx, k, segmented) == ZESORT_OK && !memcmp(got_k, want_k, out);
    printf("%s k=%llu seg=%d: %llu allocations failed one at a time (%llu refused)\n",
           again ? "ok  " : "FAIL", (unsigned long long)k, segmented, total, oom);
    failures += !again;
}

int main(int argc, char **argv)
{
    const int opencl = argc > 1 && !strcmp(argv[1], "opencl");
    zesort_context *ctx;
    if (zesort_create(opencl ? ZESORT_BACKEND_OPENCL : ZESORT_BACKEND_CPU, &ctx) != ZESORT_OK) {
        printf("SKIP: %s\n", zesort_last_error(NULL));
        return 77;
    }
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        keys[i] = (uint32_t)(x % 100000); /* ties */
    }
    memcpy(copy, keys, sizeof keys);
    const uint64_t ks[] = {100, 120000, 400000};
    for (int i = 0; i < 3; i++)
        run(ctx, ks[i], 0);
    run(ctx, 500, 1);
    /* keys the sample misleads (it sees only the large ones at its stride):
     * its bound fails, and the radix passes list the keys in play instead */
    for (int i = 0; i < N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        keys[i] = (uint32_t)(x >> 40);
    }
    for (uint64_t j = 0; j < 4096; j++) /* where the select samples (cpu_topk.c) */
        keys[j * N / 4096] = 0xF0000000u;
    memcpy(copy, keys, sizeof keys);
    run(ctx, 100, 0);
    run(ctx, 120000, 0);
    zesort_destroy(ctx);
    return failures != 0;
}
