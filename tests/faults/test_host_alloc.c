/*
 * test_host_alloc.c — every host allocation the library makes during a sort
 * fails, one at a time, and the sort must fail cleanly: an error status
 * (OUT_OF_HOST_MEMORY where the library ran out, never a crash), a message,
 * the caller's arrays unchanged, and the next sort on the same context right.
 *
 *   test_host_alloc cpu|opencl|level-zero [multi]
 *
 * multi (issue 23 item 2): the context spans every device of the backend
 * (zesort_create_on_devices, two or more: POCL_DEVICES="pthread pthread"),
 * so the split, the partition and each device's thread allocate; cm4 only,
 * and a segmented sort (runs of segments on every device).
 *
 * How: this program is linked with -Wl,--wrap=malloc,--wrap=calloc,
 * --wrap=realloc, which reroutes those calls of every object linked in —
 * the library's own (libzesort.a) included, the drivers' shared libraries
 * not. While armed, the K-th of them returns NULL. K runs from 1 to the
 * number of allocations a clean sort makes, for keys and pairs, cm4 and
 * onesweep on one context; then over zesort_create and the first sort on a
 * new context each time (cold). No production code carries a hook for this.
 * Exit 0 pass, 1 failure, 77 backend not available (skip).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/test_hooks.h"
#include "zesort.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t size);

static atomic_int armed;          /* count (and maybe fail) allocations */
static atomic_ullong allocations; /* since arming */
static atomic_ullong fail_at;     /* 1-based; 0: never */
static atomic_int failed;         /* an allocation was made to fail */

static int fail_now(void)
{
    if (!atomic_load(&armed))
        return 0;
    unsigned long long k = atomic_fetch_add(&allocations, 1) + 1;
    if (k == atomic_load(&fail_at)) {
        atomic_store(&failed, 1);
        return 1;
    }
    return 0;
}

void *__wrap_malloc(size_t size) { return fail_now() ? NULL : __real_malloc(size); }
void *__wrap_calloc(size_t count, size_t size) { return fail_now() ? NULL : __real_calloc(count, size); }
void *__wrap_realloc(void *p, size_t size) { return fail_now() ? NULL : __real_realloc(p, size); }

static void arm(unsigned long long k)
{
    atomic_store(&allocations, 0);
    atomic_store(&fail_at, k);
    atomic_store(&failed, 0);
    atomic_store(&armed, 1);
}

enum { N_KEYS = 70000 }; /* above the cpu backend's multi-thread threshold, many chunks and tiles */
static uint32_t input_keys[N_KEYS], keys[N_KEYS], values[N_KEYS];
static int failures, runs;

/* The segments of the segmented round (NULL: every sort is a whole one):
 * ragged runs of 0 to 2000 keys over all N_KEYS. */
static uint64_t seg_offsets[N_KEYS + 1];
static const uint64_t *seg_off;
static uint64_t seg_count;

static void make_segments(void)
{
    uint64_t x = 77, p = 0;
    seg_offsets[seg_count++] = 0;
    while (p < N_KEYS) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        p += x % 2001;
        seg_offsets[seg_count++] = p < N_KEYS ? p : N_KEYS;
        p = p < N_KEYS ? p : N_KEYS;
    }
    seg_count--;
}

static void reset(void)
{
    memcpy(keys, input_keys, sizeof keys);
    for (uint32_t i = 0; i < N_KEYS; i++)
        values[i] = i;
}

static int unchanged_range(uint32_t b, uint32_t e)
{
    if (memcmp(keys + b, input_keys + b, (e - b) * sizeof *keys) != 0)
        return 0;
    for (uint32_t i = b; i < e; i++)
        if (values[i] != i)
            return 0;
    return 1;
}

/* Keys [b, e) in order, each pair's value the input position of its key
 * within [b, e), equal keys in input order. */
static int sorted_range(uint32_t b, uint32_t e, int pairs)
{
    for (uint32_t i = b + 1; i < e; i++)
        if (keys[i - 1] > keys[i] ||
            (pairs && (values[i] < b || values[i] >= e || input_keys[values[i]] != keys[i] ||
                       (keys[i - 1] == keys[i] && values[i - 1] >= values[i]))))
            return 0;
    return 1;
}

/* The segment g of the round (the whole array in a whole sort's). */
static void segment(uint64_t g, uint32_t *b, uint32_t *e)
{
    *b = seg_off ? (uint32_t)seg_off[g] : 0;
    *e = seg_off ? (uint32_t)seg_off[g + 1] : N_KEYS;
}

/* Every segment sorted, or (after a failure, may_be_unchanged) sorted or
 * as it was; the keys past the segments as they were. */
static int segments_ok(int pairs, int may_be_unchanged)
{
    for (uint64_t g = 0; g < (seg_off ? seg_count : 1); g++) {
        uint32_t b, e;
        segment(g, &b, &e);
        if (!sorted_range(b, e, pairs) && !(may_be_unchanged && unchanged_range(b, e)))
            return 0;
    }
    return 1;
}

/* After a failure: a whole sort's arrays as they were, a segmented sort's
 * segments each sorted or as they were. */
static int intact(int pairs)
{
    return seg_off ? segments_ok(pairs, 1) : unchanged_range(0, N_KEYS);
}

static int sorted(int pairs) { return segments_ok(pairs, 0); }

static zesort_status sort(zesort_context *ctx, zesort_algo algo, int pairs)
{
    zesort_options o;
    zesort_options_default(&o);
    o.algo = algo;
    reset();
    return seg_off ? zesort_sort_segments(ctx, keys, pairs ? values : NULL, N_KEYS, seg_off,
                                          seg_count, &o)
                   : zesort_sort(ctx, keys, pairs ? values : NULL, N_KEYS, &o);
}

/* A context on the backend's default device, or (multi) on all of them. */
static zesort_status create(zesort_backend backend, int multi, zesort_context **ctx)
{
    return multi ? zesort_create_on_devices(backend, NULL, 0, ctx) : zesort_create(backend, ctx);
}

int main(int argc, char **argv)
{
    zesort_backend backend;
    const int multi = argc == 3 && strcmp(argv[2], "multi") == 0;
    if ((argc != 2 && !multi) || zesort_parse_backend(argv[1], &backend) != 0) {
        fprintf(stderr, "usage: test_host_alloc cpu|opencl|level-zero [multi]\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    zesort_context *ctx;
    if (create(backend, multi, &ctx) != ZESORT_OK ||
        (multi && zesort_context_devices(ctx, NULL, 0) < 2)) {
        printf("SKIP: no %s context%s: %s\n", argv[1], multi ? " over two devices" : "",
               zesort_last_error(NULL));
        return 77;
    }
    uint64_t x = 0x2545F4914F6CDD1Du;
    for (int i = 0; i < N_KEYS; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        input_keys[i] = (uint32_t)x % 5000u;
    }
    static const struct {
        zesort_algo algo;
        const char *name;
    } algos[] = {{ZESORT_ALGO_CM4, "cm4"}, {ZESORT_ALGO_ONESWEEP, "onesweep"},
                 {ZESORT_ALGO_CM4, "split"}, {ZESORT_ALGO_CM4, "segments"}};
    const int cpu = backend == ZESORT_BACKEND_CPU;
    make_segments();
    /* the third round: a device budget of 64 KiB (test hook), so the sort is
     * split on the host into parts (issue 23): every host allocation of the
     * split and of each part's sort fails in turn. multi: the first round
     * and the fourth, a segmented sort whose runs of segments go to every
     * device (after a failure each segment is sorted or as it was). */
    for (size_t a = 0; a < 4; a++)
        for (int pairs = 0; pairs < 2 && (multi ? a == 0 || a == 3 : a < 3); pairs++) {
            seg_off = a == 3 ? seg_offsets : NULL;
            /* the fallback runs no algorithm: its keys-only strategies instead */
            if (cpu)
                zs_test_cpu_vqsort(a == 0 ? 0 : 1);
            zs_test_device_budget(a == 2 ? 64u << 10 : 0);
            sort(ctx, algos[a].algo, pairs); /* warm: programs built */
            arm(0);
            zesort_status st = sort(ctx, algos[a].algo, pairs);
            atomic_store(&armed, 0);
            unsigned long long total = atomic_load(&allocations);
            if (st != ZESORT_OK || !sorted(pairs)) {
                printf("FAIL: clean %s sort: %s\n", algos[a].name, zesort_last_error(ctx));
                failures++;
            }
            for (unsigned long long k = 1; k <= total; k++) {
                arm(k);
                st = sort(ctx, algos[a].algo, pairs);
                atomic_store(&armed, 0);
                int hit = atomic_load(&failed);
                runs += hit;
                const char *what = pairs ? "pairs" : "keys";
                if (hit && st == ZESORT_OK && !sorted(pairs)) {
                    printf("FAIL: %s %s allocation %llu failed: OK returned, output wrong\n",
                           algos[a].name, what, k);
                    failures++;
                } else if (hit && st != ZESORT_OK &&
                           (!intact(pairs) || !zesort_last_error(ctx)[0])) {
                    printf("FAIL: %s %s allocation %llu failed: %s, data %s, message '%s'\n",
                           algos[a].name, what, k, zesort_status_name(st),
                           intact(pairs) ? "intact" : "CHANGED", zesort_last_error(ctx));
                    failures++;
                }
                st = sort(ctx, algos[a].algo, pairs);
                if (st != ZESORT_OK || !sorted(pairs)) {
                    printf("FAIL: %s %s: the sort after allocation %llu failed: %s\n",
                           algos[a].name, what, k, zesort_last_error(ctx));
                    failures++;
                }
            }
            printf("%s %-8s %-5s host allocation faults: %llu injected\n", argv[1],
                   cpu && a < 2 ? (a == 0 ? "radix" : "vqsort") : algos[a].name,
                   pairs ? "pairs" : "keys", total);
        }
    seg_off = NULL;
    zs_test_device_budget(0);
    zs_test_cpu_vqsort(-1);
    zesort_destroy(ctx);

    /* Cold: zesort_create and the first sort (device discovery, program
       builds) on a new context for each K. */
    arm(0);
    if (create(backend, multi, &ctx) == ZESORT_OK) {
        sort(ctx, ZESORT_ALGO_CM4, 1);
        zesort_destroy(ctx);
    }
    atomic_store(&armed, 0);
    unsigned long long total = atomic_load(&allocations);
    for (unsigned long long k = 1; k <= total; k++) {
        arm(k);
        zesort_status st = create(backend, multi, &ctx);
        if (st == ZESORT_OK)
            st = sort(ctx, ZESORT_ALGO_CM4, 1);
        atomic_store(&armed, 0);
        int hit = atomic_load(&failed);
        runs += hit;
        if (hit && st != ZESORT_OK && !(ctx ? zesort_last_error(ctx) : zesort_last_error(NULL))[0]) {
            printf("FAIL: cold allocation %llu failed: %s without a message\n", k, zesort_status_name(st));
            failures++;
        }
        if (ctx && st == ZESORT_OK && !sorted(1)) {
            printf("FAIL: cold allocation %llu failed: OK returned, output wrong\n", k);
            failures++;
        }
        if (ctx && st != ZESORT_OK && !intact(1)) {
            printf("FAIL: cold allocation %llu failed: caller's data changed\n", k);
            failures++;
        }
        if (ctx && (sort(ctx, ZESORT_ALGO_CM4, 1) != ZESORT_OK || !sorted(1))) {
            printf("FAIL: cold: the sort after allocation %llu failed: %s\n", k, zesort_last_error(ctx));
            failures++;
        }
        zesort_destroy(ctx);
    }
    printf("%s cold (create + first sort) host allocation faults: %llu injected\n", argv[1], total);
    printf("%d faulty runs, %d failures\n", runs, failures);
    return failures ? 1 : 0;
}
