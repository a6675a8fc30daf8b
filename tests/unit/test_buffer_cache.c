/*
 * test_buffer_cache.c — a device context keeps the buffers of its last host
 * sort for the next one (src/run/buffer_cache.h, issue 22): the next sort that
 * fits them allocates nothing; a failure in a sort running on kept buffers
 * leaves the caller's data as it was, releases what the context kept (the
 * sort after it allocates afresh) and the context sorts right afterwards.
 *
 *   test_buffer_cache opencl|level-zero
 *
 * Device allocations are counted by the library's test hook
 * (zs_test_device_allocations). Failures: the K-th host allocation of a warm
 * sort fails, for every K (this program is linked with --wrap=malloc, as
 * tests/faults/test_host_alloc.c is); the CM host scan allocates its table
 * after the run has taken its buffers, so some K fail a sort on kept
 * buffers. With the Level Zero test driver (tests/ze_cl_driver) also every
 * driver call of a warm sort fails in turn (DEVICE_LOST); with OpenCL every
 * map and unmap of the results' download (zs_test_fail_view), and each
 * borrow of a sort's input, plain or segmented (zs_test_fail_borrow: the
 * sort uploads it instead).
 * Exit 0 pass, 1 failure, 77 backend not available (skip).
 */
#include <level_zero/ze_api.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/test_hooks.h"
#include "zecl_hooks.h"
#include "zesort.h"

void *__real_malloc(size_t size);

static atomic_ullong mallocs, fail_at; /* fail_at: 1-based, 0 never */
static atomic_int malloc_failed;

void *__wrap_malloc(size_t size)
{
    const unsigned long long k = atomic_fetch_add(&mallocs, 1) + 1;
    if (k == atomic_load(&fail_at)) {
        atomic_store(&malloc_failed, 1);
        return NULL;
    }
    return __real_malloc(size);
}

enum { N = 200000 };
static uint32_t input[2 * N], keys[2 * N], values[2 * N];
static int failures;

#define CHECK(cond, ...)                                                                       \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            failures++;                                                                        \
            printf("FAIL (line %d): ", __LINE__);                                              \
            printf(__VA_ARGS__);                                                               \
            printf("\n");                                                                      \
        }                                                                                      \
    } while (0)

static void reset(void)
{
    memcpy(keys, input, sizeof keys);
    for (uint32_t i = 0; i < 2 * N; i++)
        values[i] = i;
}

static int sorted(uint64_t n, int pairs)
{
    for (uint64_t i = 1; i < n; i++)
        if (keys[i - 1] > keys[i] || (pairs && keys[i - 1] == keys[i] && values[i - 1] > values[i]))
            return 0;
    for (uint64_t i = 0; pairs && i < n; i++)
        if (input[values[i]] != keys[i])
            return 0;
    return 1;
}

static int unchanged(void)
{
    if (memcmp(keys, input, sizeof keys) != 0)
        return 0;
    for (uint32_t i = 0; i < 2 * N; i++)
        if (values[i] != i)
            return 0;
    return 1;
}

/* A sort of the first n keys (pairs: with values); *allocs its device
 * allocations. cm4 with the host scan: its table is a host allocation made
 * while the run holds its buffers. */
static zesort_status sort(zesort_context *ctx, uint64_t n, int pairs, uint64_t *allocs)
{
    zesort_options o;
    zesort_options_default(&o);
    o.algo = ZESORT_ALGO_CM4;
    o.scan = ZESORT_SCAN_HOST;
    const uint64_t before = zs_test_device_allocations();
    zesort_status st = zesort_sort(ctx, keys, pairs ? values : NULL, n, &o);
    *allocs = zs_test_device_allocations() - before;
    return st;
}

/* A clean sort of n keys: right, and allocating as `fresh` says (1: some, 0: none). */
static void expect_sort(zesort_context *ctx, uint64_t n, int pairs, int fresh, const char *what)
{
    uint64_t allocs = 0;
    reset();
    zesort_status st = sort(ctx, n, pairs, &allocs);
    CHECK(st == ZESORT_OK && sorted(n, pairs), "%s: %s, %s", what, zesort_status_name(st),
          st == ZESORT_OK ? "wrong output" : zesort_last_error(ctx));
    CHECK(fresh ? allocs > 0 : allocs == 0, "%s: %llu device allocations, expected %s", what,
          (unsigned long long)allocs, fresh ? "some" : "none");
}

static void reuse(zesort_context *ctx)
{
    expect_sort(ctx, N, 0, 1, "first sort");
    expect_sort(ctx, N, 0, 0, "the same sort again");
    expect_sort(ctx, N / 2, 0, 0, "a smaller sort");
    /* the kept buffers are still the big ones (their size, not the last need) */
    expect_sort(ctx, N, 0, 0, "the first size after a smaller sort");
    expect_sort(ctx, N, 1, 1, "pairs (value buffers are new)");
    expect_sort(ctx, N, 1, 0, "pairs again");
    expect_sort(ctx, 2 * N, 1, 1, "a bigger sort");
    /* a segmented sort: its plan's buffers are kept as well */
    const uint64_t off[] = {0, 1000, 5000, 5001, N};
    for (int round = 0; round < 2; round++) {
        reset();
        const uint64_t before = zs_test_device_allocations();
        zesort_status st = zesort_sort_segments(ctx, keys, NULL, N, off, 4, NULL);
        const uint64_t allocs = zs_test_device_allocations() - before;
        int ok = st == ZESORT_OK;
        for (int s = 0; ok && s < 4; s++)
            for (uint64_t i = off[s] + 1; i < off[s + 1]; i++)
                ok &= keys[i - 1] <= keys[i];
        CHECK(ok, "segmented sort %d: %s", round, zesort_status_name(st));
        CHECK(round == 0 || allocs == 0, "segmented sort %d: %llu allocations", round,
              (unsigned long long)allocs);
    }
}

/* After a sort that failed on kept buffers: the next allocates afresh and is
 * right, the one after it allocates nothing. Returns whether the run failed
 * while it held kept buffers (the next sort allocated). */
static int after_failure(zesort_context *ctx, zesort_status st, int pairs, const char *what)
{
    CHECK(st != ZESORT_OK, "%s: OK returned", what);
    CHECK(unchanged(), "%s: the caller's data changed", what);
    CHECK(zesort_last_error(ctx)[0], "%s: no message", what);
    uint64_t allocs = 0;
    reset();
    st = sort(ctx, N, pairs, &allocs);
    CHECK(st == ZESORT_OK && sorted(N, pairs), "%s: the next sort: %s", what,
          zesort_status_name(st));
    expect_sort(ctx, N, pairs, 0, what);
    return allocs > 0;
}

/* The K-th host allocation of a warm sort fails, for every K. */
static void host_faults(zesort_context *ctx, int pairs)
{
    uint64_t allocs = 0;
    reset();
    sort(ctx, N, pairs, &allocs); /* warm: programs built, buffers kept */
    atomic_store(&mallocs, 0);
    reset();
    sort(ctx, N, pairs, &allocs);
    const unsigned long long count = atomic_load(&mallocs);
    int held = 0;
    for (unsigned long long k = 1; k <= count; k++) {
        reset();
        atomic_store(&malloc_failed, 0);
        atomic_store(&mallocs, 0);
        atomic_store(&fail_at, k);
        zesort_status st = sort(ctx, N, pairs, &allocs);
        atomic_store(&fail_at, 0);
        if (!atomic_load(&malloc_failed))
            continue;
        char what[96];
        snprintf(what, sizeof what, "%s: host allocation %llu of %llu failed",
                 pairs ? "pairs" : "keys", k, count);
        if (st == ZESORT_OK) {
            CHECK(sorted(N, pairs), "%s: OK returned, output wrong", what);
            continue;
        }
        held += after_failure(ctx, st, pairs, what);
    }
    CHECK(held > 0, "%s: no host allocation failed a sort while it held kept buffers "
                    "(%llu allocations swept)", pairs ? "pairs" : "keys", count);
}

/* OpenCL on a device sharing the host's memory (PoCL): the results of N
 * pairs (1.6 MB, over the 1 MB from which maps pay) come through maps
 * (device_backend.h: view). A failed map of the keys or the
 * values (calls 1, 2) fails the sort with the caller's data as it was; a
 * failed unmap (3, 4) leaves the results whole but the buffers not kept. A
 * fault that never fires (no maps) fails the test. */
static void view_faults(zesort_context *ctx)
{
    uint64_t allocs = 0;
    reset();
    sort(ctx, N, 1, &allocs); /* warm */
    for (unsigned k = 1; k <= 4; k++) {
        char what[64];
        snprintf(what, sizeof what, "view call %u of 4 failed", k);
        reset();
        zs_test_fail_view(k);
        zesort_status st = sort(ctx, N, 1, &allocs);
        zs_test_fail_view(0);
        if (k <= 2) {
            after_failure(ctx, st, 1, what);
            continue;
        }
        CHECK(st == ZESORT_OK && sorted(N, 1), "%s: %s", what, zesort_status_name(st));
        expect_sort(ctx, N, 1, 1, what); /* nothing was kept */
        expect_sort(ctx, N, 1, 0, what);
    }
}

/* keys[0, N) in segments of SEG keys (the last shorter), each sorted and
 * stable against the input; keys[N, 2N) untouched. */
enum { SEG = 1000 };

static int segments_sorted(void)
{
    for (uint64_t i = 1; i < N; i++)
        if (i % SEG && (keys[i - 1] > keys[i] ||
                        (keys[i - 1] == keys[i] && values[i - 1] > values[i])))
            return 0;
    for (uint64_t i = 0; i < N; i++)
        if (values[i] / SEG != i / SEG || input[values[i]] != keys[i])
            return 0;
    return memcmp(keys + N, input + N, N * sizeof *keys) == 0;
}

/* A segmented pairs sort of keys[0, N); *allocs its device allocations. */
static zesort_status sort_segments(zesort_context *ctx, uint64_t *allocs)
{
    static uint64_t offsets[N / SEG + 2];
    uint64_t s = 0;
    for (uint64_t o = 0; o < N; o += SEG)
        offsets[s++] = o;
    offsets[s] = N;
    zesort_options o;
    zesort_options_default(&o);
    const uint64_t before = zs_test_device_allocations();
    zesort_status st = zesort_sort_segments(ctx, keys, values, N, offsets, s, &o);
    *allocs = zs_test_device_allocations() - before;
    return st;
}

/* The cm4 pairs sort of keys[0, N) (sort), as sort_segments is called. */
static zesort_status sort_pairs(zesort_context *ctx, uint64_t *allocs)
{
    return sort(ctx, N, 1, allocs);
}

static int pairs_sorted(void)
{
    return sorted(N, 1) && memcmp(keys + N, input + N, N * sizeof *keys) == 0;
}

/* OpenCL on a device sharing the host's memory (PoCL): a host sort reads
 * the caller's keys and values in place (run_plan.c borrow_inputs). A
 * segmented sort no longer does (its device-side plan sorts in place, so it
 * uploads): it must stay right under the faults all the same. When
 * borrowing the keys (k = 1) or the values (k = 2) fails, the sort uploads
 * them into a buffer of its own: right all the same, and that allocation
 * shows the fault fired and the input was borrowed otherwise. A context of its own for each kind: an
 * upload buffer kept from the other kind's faults would hide the next. */
static void borrow_faults(void)
{
    static const struct {
        const char *name;
        zesort_status (*sort)(zesort_context *, uint64_t *);
        int (*sorted)(void);
        int borrows; /* reads its input in place: a failed borrow allocates */
    } kinds[] = {{"segmented sort", sort_segments, segments_sorted, 0},
                 {"pairs sort", sort_pairs, pairs_sorted, 1}};
    for (unsigned s = 0; s < sizeof kinds / sizeof *kinds; s++) {
        zesort_context *ctx = NULL;
        zesort_status made = zesort_create(ZESORT_BACKEND_OPENCL, &ctx);
        CHECK(made == ZESORT_OK, "%s: no context: %s", kinds[s].name, zesort_last_error(NULL));
        if (made != ZESORT_OK)
            continue;
        uint64_t allocs = 0;
        for (unsigned round = 0; round < 2; round++) { /* warm: every other buffer kept */
            reset();
            zesort_status st = kinds[s].sort(ctx, &allocs);
            CHECK(st == ZESORT_OK && kinds[s].sorted(), "%s %u: %s", kinds[s].name, round,
                  zesort_status_name(st));
        }
        for (unsigned k = 1; k <= 2; k++) {
            reset();
            zs_test_fail_borrow(k);
            zesort_status st = kinds[s].sort(ctx, &allocs);
            zs_test_fail_borrow(0);
            CHECK(st == ZESORT_OK && kinds[s].sorted(), "%s, borrow %u of 2 failed: %s",
                  kinds[s].name, k, zesort_status_name(st));
            CHECK(!kinds[s].borrows || allocs > 0,
                  "%s, borrow %u of 2 failed: no buffer for the upload instead "
                  "(was the input borrowed at all?)", kinds[s].name, k);
        }
        zesort_destroy(ctx);
    }
}

/* The Level Zero test driver: every driver call of a warm sort fails in turn. */
static void driver_faults(zesort_context *ctx, const zecl_hooks *h)
{
    uint64_t allocs = 0;
    reset();
    sort(ctx, N, 0, &allocs);
    h->arm(0, 0, 0);
    reset();
    sort(ctx, N, 0, &allocs);
    const uint64_t count = h->count(ZECL_COUNT_CALLS);
    int held = 0;
    for (uint64_t k = 1; k <= count; k++) {
        reset();
        h->arm(1, k, ZE_RESULT_ERROR_DEVICE_LOST);
        zesort_status st = sort(ctx, N, 0, &allocs);
        const char *api = h->injected();
        h->arm(0, 0, 0);
        if (!api || st == ZESORT_OK) { /* some faults the library rides out (timestamps) */
            CHECK(st == ZESORT_OK && sorted(N, 0), "driver call %llu (%s): %s",
                  (unsigned long long)k, api ? api : "no fault", zesort_status_name(st));
            continue;
        }
        char what[96];
        snprintf(what, sizeof what, "driver call %llu of %llu (%s) failed", (unsigned long long)k,
                 (unsigned long long)count, api);
        held += after_failure(ctx, st, 0, what);
    }
    CHECK(held > 0, "no driver call failed a sort while it held kept buffers (%llu swept)",
          (unsigned long long)count);
}

int main(int argc, char **argv)
{
    zesort_backend backend;
    if (argc < 2 || zesort_parse_backend(argv[1], &backend) != 0 ||
        backend == ZESORT_BACKEND_CPU || backend == ZESORT_BACKEND_AUTO) {
        fprintf(stderr, "usage: test_buffer_cache opencl|level-zero\n");
        return 2;
    }
    uint64_t x = 88172645463325252u;
    for (uint32_t i = 0; i < 2 * N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        input[i] = (uint32_t)x % 5000u; /* equal keys: stability shows */
    }
    zesort_context *ctx = NULL;
    if (zesort_create(backend, &ctx) != ZESORT_OK) {
        printf("SKIP: no %s context: %s\n", argv[1], zesort_last_error(NULL));
        return 77;
    }
    reuse(ctx);
    host_faults(ctx, 0);
    host_faults(ctx, 1);
    if (backend == ZESORT_BACKEND_OPENCL) {
        view_faults(ctx);
        borrow_faults();
    }
    zecl_hooks h;
    if (backend == ZESORT_BACKEND_LEVEL_ZERO && zecl_hooks_find(&h) == 0)
        driver_faults(ctx, &h);
    zesort_destroy(ctx);
    printf("%s: %s\n", argv[1], failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}
