/*
 * test_interop_guards.c — the Level Zero interop API against caller
 * mistakes and concurrent use (issue 11), through the test driver with the
 * validation layer (tests/ze/meson.build: ze_test_env):
 *   clamp       indirect counts above max_n (max_n + 1, 1.5 max_n,
 *               UINT32_MAX) sort the first max_n keys; guard zones after
 *               keys, values and temp_bytes of temp stay untouched
 *   overlap     keys == temp, keys inside temp, values == keys, the count
 *               inside temp: INVALID_ARGUMENT, nothing appended
 *   memory      keys, values, temp or the count in malloc'd memory, in a
 *               Level Zero host allocation, in another context's memory, or
 *               running past the end of their allocation: INVALID_ARGUMENT
 *               naming the buffer, nothing appended, the caller's keys
 *               unchanged; device and shared allocations accepted
 *   threads     3 threads, one shared sorter, each its own list, many sorts
 *   create      zesort_create(OPENCL) from 4 threads at once all succeed;
 *               AUTO from 4 threads never falls back to the C backend when
 *               a single AUTO context did not
 *   prepare     an append after zesort_ze_prepare builds no module (a
 *               segmented one included); the algorithm AUTO chose is
 *               reported; the temp alignment
 *   segments    zesort_ze_append_sort_segments and _segments_indirect
 *   chained     issue 35: the chained forms of every variant (in place,
 *               copy, argsort: zesort_ze_append_*_chained) at n 0, 1, 33,
 *               257, primes, ~100k, pairs and keys only, direct and with a
 *               device-side count, in temp sized for the largest n; each
 *               after a producer barrier that signals its wait event, no
 *               barrier of its own, every chain event signalled, the host
 *               reading the results after waiting on the signal event only
 *               (HOST scope); ZESORT_ZE_CHAINED_REGULAR=1: on regular lists
 *   chained-segments  the same for zesort_ze_append_sort_segments_chained
 *               (interop_segments.h's matrix and refusals, and counts)
 *   rules       temp_bytes never decreases with n, for every option; the
 *               signal event's scope flags as docs/interop.md lists them
 *   alt         caller-supplied alternate buffers (issue 35, item 4):
 *               tests/common/interop_alt.h
 *   narrow      the narrow key types (issue 37): tests/common/interop_narrow.h
 * Exit 77 when no Level Zero driver is present.
 */
#include <level_zero/ze_api.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "zecl_hooks.h"
#include "common/test_hooks.h"
#include "zesort_ze.h"

static int failures;
#define ZE_OK(call)                                                                            \
    do {                                                                                       \
        ze_result_t r_ = (call);                                                               \
        if (r_ != ZE_RESULT_SUCCESS) {                                                         \
            fprintf(stderr, "%s:%d: %s failed: 0x%x\n", __FILE__, __LINE__, #call,            \
                    (unsigned)r_);                                                             \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

static ze_driver_handle_t driver;
static ze_device_handle_t device;
static ze_context_handle_t ctx;
static uint32_t ordinal;

static int find_device(void)
{
    uint32_t nd = 1;
    if (zeDriverGet(&nd, &driver) != ZE_RESULT_SUCCESS || nd == 0)
        return -1;
    uint32_t n = 1;
    if (zeDeviceGet(driver, &n, &device) != ZE_RESULT_SUCCESS || n == 0)
        return -1;
    uint32_t ng = 0;
    zeDeviceGetCommandQueueGroupProperties(device, &ng, NULL);
    ze_command_queue_group_properties_t qg[16];
    ng = ng > 16 ? 16 : ng;
    for (uint32_t i = 0; i < ng; i++)
        qg[i] = (ze_command_queue_group_properties_t){
            .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES};
    zeDeviceGetCommandQueueGroupProperties(device, &ng, qg);
    for (uint32_t i = 0; i < ng; i++)
        if (qg[i].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE) {
            ordinal = i;
            break;
        }
    ze_context_desc_t cd = {.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    return zeContextCreate(driver, &cd, &ctx) == ZE_RESULT_SUCCESS ? 0 : -1;
}

/* One immediate list with a host-visible event to wait for its end. */
typedef struct lane {
    ze_command_list_handle_t list;
    ze_event_pool_handle_t pool;
    ze_event_handle_t done;
} lane;

static void lane_open(lane *l)
{
    ze_command_queue_desc_t qd = {.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                  .ordinal = ordinal,
                                  .mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS};
    ZE_OK(zeCommandListCreateImmediate(ctx, device, &qd, &l->list));
    ze_event_pool_desc_t pd = {.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC,
                               .flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE, .count = 1};
    ZE_OK(zeEventPoolCreate(ctx, &pd, 1, &device, &l->pool));
    ze_event_desc_t ed = {.stype = ZE_STRUCTURE_TYPE_EVENT_DESC, .index = 0,
                          .signal = ZE_EVENT_SCOPE_FLAG_HOST, .wait = ZE_EVENT_SCOPE_FLAG_HOST};
    ZE_OK(zeEventCreate(l->pool, &ed, &l->done));
}

static void lane_close(lane *l)
{
    zeEventDestroy(l->done);
    zeEventPoolDestroy(l->pool);
    zeCommandListDestroy(l->list);
}

/* Waits for everything appended to the lane so far. */
static void lane_sync(lane *l)
{
    ZE_OK(zeCommandListAppendBarrier(l->list, l->done, 0, NULL));
    ZE_OK(zeEventHostSynchronize(l->done, UINT64_MAX));
    ZE_OK(zeEventHostReset(l->done));
}

static void *shared_alloc(size_t bytes)
{
    ze_device_mem_alloc_desc_t dd = {.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    ze_host_mem_alloc_desc_t hd = {.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    void *p = NULL;
    ZE_OK(zeMemAllocShared(ctx, &dd, &hd, bytes, 64, device, &p));
    return p;
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x *= UINT64_C(0xc4ceb9fe1a85ec53);
    x ^= x >> 33;
    return x;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

#define GUARD 4096u
#define GUARD_BYTE 0xA7

static int guard_intact(const unsigned char *p, size_t bytes)
{
    for (size_t i = 0; i < bytes; i++)
        if (p[i] != GUARD_BYTE)
            return 0;
    return 1;
}

/* An indirect sort whose count is `count` (> max_n possibly): the first
 * max_n keys come out sorted (pairs: each value still with its key), and no
 * byte past keys[max_n], values[max_n] or temp[temp_bytes] changes. */
static void clamp_case(zesort_ze_sorter *s, lane *l, zesort_algo algo, int key64, int pairs,
                       uint32_t max_n, uint32_t count)
{
    const size_t kb = key64 ? 8 : 4, keys_bytes = (size_t)max_n * kb, vals_bytes = max_n * 4u;
    zesort_options o;
    zesort_options_default(&o);
    o.algo = algo;
    o.key_type = key64 ? ZESORT_KEY_U64 : ZESORT_KEY_U32;
    uint64_t tb = 0;
    EXPECT(zesort_ze_temp_bytes(s, max_n, pairs, &o, &tb) == ZESORT_OK, "%s",
           zesort_ze_last_error(s));
    unsigned char *keys = shared_alloc(keys_bytes + GUARD);
    uint32_t *vals = pairs ? shared_alloc(vals_bytes + GUARD) : NULL;
    unsigned char *temp = shared_alloc(tb + GUARD);
    uint32_t *cnt = shared_alloc(4);
    memset(keys, GUARD_BYTE, keys_bytes + GUARD);
    memset(temp, GUARD_BYTE, tb + GUARD);
    uint64_t *want = malloc((size_t)max_n * 8);
    for (uint32_t i = 0; i < max_n; i++) {
        uint64_t k = mix(i + 1000u * count);
        if (!key64)
            k &= 0xffffffffu;
        want[i] = k;
        if (key64)
            ((uint64_t *)keys)[i] = k;
        else
            ((uint32_t *)keys)[i] = (uint32_t)k;
    }
    if (pairs) {
        memset(vals, GUARD_BYTE, vals_bytes + GUARD);
        for (uint32_t i = 0; i < max_n; i++)
            vals[i] = (uint32_t)want[i] ^ 0x55u;
    }
    const uint32_t m = count < max_n ? count : max_n; /* the rest stays as it was */
    qsort(want, m, 8, cmp_u64);
    *cnt = count;
    zesort_status st = zesort_ze_append_sort_indirect(s, l->list, keys, vals, cnt, max_n, temp,
                                                      tb, &o, NULL, 0, NULL);
    EXPECT(st == ZESORT_OK, "%s", zesort_ze_last_error(s));
    lane_sync(l);
    int bad = 0;
    for (uint32_t i = 0; i < max_n && !bad; i++) {
        uint64_t k = key64 ? ((uint64_t *)keys)[i] : ((uint32_t *)keys)[i];
        if (k != want[i] || (pairs && vals[i] != ((uint32_t)k ^ 0x55u)))
            bad = 1;
        EXPECT(!bad, "algo %s key64 %d pairs %d max_n %u count %u: keys[%u] = %llx, want %llx",
               zesort_algo_name(algo), key64, pairs, max_n, count, i, (unsigned long long)k,
               (unsigned long long)want[i]);
    }
    EXPECT(guard_intact(keys + keys_bytes, GUARD), "keys guard written (algo %s count %u)",
           zesort_algo_name(algo), count);
    EXPECT(!pairs || guard_intact((unsigned char *)vals + vals_bytes, GUARD),
           "values guard written (algo %s count %u)", zesort_algo_name(algo), count);
    EXPECT(guard_intact(temp + tb, GUARD), "temp guard written (algo %s count %u)",
           zesort_algo_name(algo), count);
    free(want);
    zeMemFree(ctx, keys);
    if (vals)
        zeMemFree(ctx, vals);
    zeMemFree(ctx, temp);
    zeMemFree(ctx, cnt);
}

static void test_clamp(zesort_ze_sorter *s, lane *l)
{
    const zesort_algo algos[] = {ZESORT_ALGO_CM2, ZESORT_ALGO_CM4, ZESORT_ALGO_ONESWEEP,
                                 ZESORT_ALGO_AUTO};
    const uint32_t max_n = 1000;
    const uint32_t counts[] = {1100, 1500, max_n + 1, UINT32_MAX, 999};
    for (size_t a = 0; a < 4; a++)
        for (size_t c = 0; c < 5; c++)
            clamp_case(s, l, algos[a], c & 1, (a + c) & 1, max_n, counts[c]);
    clamp_case(s, l, ZESORT_ALGO_ONESWEEP, 1, 1, 70001, UINT32_MAX); /* several tiles */
    clamp_case(s, l, ZESORT_ALGO_CM4, 0, 1, 70001, 80000);
    printf("clamp: done\n");
}

static void test_overlap(zesort_ze_sorter *s, lane *l)
{
    const uint32_t n = 4096;
    uint64_t tb;
    EXPECT(zesort_ze_temp_bytes(s, n, 1, NULL, &tb) == ZESORT_OK, "%s", zesort_ze_last_error(s));
    unsigned char *big = shared_alloc(tb + n * 8u + 64);
    unsigned char *other = shared_alloc(n * 8u);
    uint32_t *cnt = shared_alloc(4);
    struct {
        const char *what;
        void *keys;
        uint32_t *vals;
        void *temp;
        const uint32_t *count;
    } cases[] = {
        {"keys == temp", big, NULL, big, NULL},
        {"keys inside temp", big + 256, NULL, big, NULL},
        {"temp starts inside keys", big, NULL, big + 64, NULL},
        {"values == keys", other, (uint32_t *)other, big, NULL},
        {"values inside temp", other, (uint32_t *)(big + 512), big, NULL},
        {"count inside temp", other, NULL, big, (const uint32_t *)(big + 128)},
        {"count inside keys", other, NULL, big, (const uint32_t *)(other + 4)},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        zesort_status st =
            cases[i].count
                ? zesort_ze_append_sort_indirect(s, l->list, cases[i].keys, cases[i].vals,
                                                 cases[i].count, n, cases[i].temp, tb, NULL, NULL,
                                                 0, NULL)
                : zesort_ze_append_sort(s, l->list, cases[i].keys, cases[i].vals, n,
                                        cases[i].temp, tb, NULL, NULL, 0, NULL);
        EXPECT(st == ZESORT_ERROR_INVALID_ARGUMENT, "%s: %s", cases[i].what,
               zesort_status_name(st));
        EXPECT(strstr(zesort_ze_last_error(s), "overlap") != NULL, "%s: %s", cases[i].what,
               zesort_ze_last_error(s));
    }
    /* keys right after temp_bytes of temp: no overlap */
    memset(big, 0, tb + n * 4u);
    EXPECT(zesort_ze_append_sort(s, l->list, big + tb, NULL, n, big, tb, NULL, NULL, 0, NULL) ==
               ZESORT_OK, "adjacent: %s", zesort_ze_last_error(s));
    lane_sync(l);
    zeMemFree(ctx, big);
    zeMemFree(ctx, other);
    zeMemFree(ctx, cnt);
    printf("overlap: done\n");
}

/* ---- caller memory must be device or shared memory of the context ----- */

static void *device_alloc(ze_context_handle_t context, size_t bytes)
{
    ze_device_mem_alloc_desc_t dd = {.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    void *p = NULL;
    ZE_OK(zeMemAllocDevice(context, &dd, bytes, 64, device, &p));
    return p;
}

/* One refused append: status, the buffer named, the reason, no command. */
static void expect_refused(zesort_ze_sorter *s, lane *l, const char *what, void *keys,
                           uint32_t *vals, void *temp, uint64_t tb, const uint32_t *count,
                           uint32_t n, const char *name, const char *reason)
{
    zecl_hooks hooks;
    if (zecl_hooks_find(&hooks) != 0) {
        EXPECT(0, "%s", "the test driver's hooks are not loaded");
        return;
    }
    hooks.arm(0, 0, 0); /* count every driver call from here */
    zesort_status st =
        count ? zesort_ze_append_sort_indirect(s, l->list, keys, vals, count, n, temp, tb, NULL,
                                               NULL, 0, NULL)
              : zesort_ze_append_sort(s, l->list, keys, vals, n, temp, tb, NULL, NULL, 0, NULL);
    const char *msg = zesort_ze_last_error(s);
    EXPECT(st == ZESORT_ERROR_INVALID_ARGUMENT, "%s: %s", what, zesort_status_name(st));
    EXPECT(strstr(msg, name) && strstr(msg, reason), "%s: %s", what, msg);
    /* only the memory queries (two per buffer at most): nothing appended */
    EXPECT(hooks.count(ZECL_COUNT_CALLS) <= 8, "%s: %llu driver calls", what,
           (unsigned long long)hooks.count(ZECL_COUNT_CALLS));
}

static void test_memory(zesort_ze_sorter *s, lane *l)
{
    const uint32_t n = 1000;
    uint64_t tb;
    EXPECT(zesort_ze_temp_bytes(s, n, 1, NULL, &tb) == ZESORT_OK, "%s", zesort_ze_last_error(s));
    void *keys = device_alloc(ctx, n * 4u), *temp = device_alloc(ctx, tb);
    uint32_t *vals = shared_alloc(n * 4u), *count = shared_alloc(4);
    uint32_t *heap = malloc(tb > n * 4u ? tb : n * 4u);
    for (uint32_t i = 0; i < n; i++)
        heap[i] = n - i;
    void *host = NULL;
    ze_host_mem_alloc_desc_t hd = {.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    ZE_OK(zeMemAllocHost(ctx, &hd, tb, 64, &host));
    ze_context_handle_t other_ctx;
    ze_context_desc_t cd = {.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    ZE_OK(zeContextCreate(driver, &cd, &other_ctx));
    void *foreign = device_alloc(other_ctx, tb);
    const char *unknown = "not a Level Zero allocation", *hosted = "host allocation";

    expect_refused(s, l, "malloc keys", heap, NULL, temp, tb, NULL, n, "keys", unknown);
    for (uint32_t i = 0; i < n; i++)
        EXPECT(heap[i] == n - i, "malloc keys changed at %u", i);
    expect_refused(s, l, "host keys", host, NULL, temp, tb, NULL, n, "keys", hosted);
    expect_refused(s, l, "other context's keys", foreign, NULL, temp, tb, NULL, n, "keys",
                   unknown);
    expect_refused(s, l, "malloc values", keys, heap, temp, tb, NULL, n, "values", unknown);
    expect_refused(s, l, "malloc temp", keys, vals, heap, tb, NULL, n, "temp", unknown);
    expect_refused(s, l, "host temp", keys, NULL, host, tb, NULL, n, "temp", hosted);
    expect_refused(s, l, "malloc count", keys, NULL, temp, tb, heap + n - 1, n, "count", unknown);
    /* a device allocation, but the sort would run past its end */
    expect_refused(s, l, "keys too short", (char *)keys + 4, NULL, temp, tb, NULL, n, "keys",
                   "allocation ends");
    expect_refused(s, l, "temp too short", keys, NULL, (char *)temp + 8, tb, NULL, n, "temp",
                   "allocation ends");

    /* device keys and temp, shared values and count: accepted, and sorted */
    ZE_OK(zeCommandListAppendMemoryCopy(l->list, keys, heap, n * 4u, NULL, 0, NULL));
    *count = n;
    EXPECT(zesort_ze_append_sort_indirect(s, l->list, keys, vals, count, n, temp, tb, NULL, NULL,
                                          0, NULL) == ZESORT_OK, "%s", zesort_ze_last_error(s));
    uint32_t *out = malloc(n * 4u);
    ZE_OK(zeCommandListAppendMemoryCopy(l->list, out, keys, n * 4u, NULL, 0, NULL));
    lane_sync(l);
    for (uint32_t i = 0; i < n; i++)
        EXPECT(out[i] == i + 1, "sorted key %u is %u", i, out[i]);
    free(out);
    zeMemFree(other_ctx, foreign);
    zeContextDestroy(other_ctx);
    zeMemFree(ctx, host);
    zeMemFree(ctx, keys);
    zeMemFree(ctx, temp);
    zeMemFree(ctx, vals);
    zeMemFree(ctx, count);
    free(heap);
    printf("memory: done\n");
}

/* ---- one sorter, several threads ------------------------------------- */

typedef struct worker {
    zesort_ze_sorter *s;
    int id, sorts, wrong;
} worker;

static void *sort_thread(void *arg)
{
    worker *w = arg;
    lane l;
    lane_open(&l);
    const uint32_t n = 3000 + 517u * (uint32_t)w->id;
    zesort_options o;
    zesort_options_default(&o);
    uint64_t tb = 0;
    o.algo = w->id % 2 ? ZESORT_ALGO_CM4 : ZESORT_ALGO_ONESWEEP;
    if (zesort_ze_temp_bytes(w->s, n, 1, &o, &tb) != ZESORT_OK) {
        w->wrong = -1;
        return NULL;
    }
    uint32_t *keys = shared_alloc(n * 4u), *vals = shared_alloc(n * 4u);
    void *temp = shared_alloc(tb);
    for (int it = 0; it < w->sorts; it++) {
        for (uint32_t i = 0; i < n; i++) {
            keys[i] = (uint32_t)mix((uint64_t)w->id << 40 | (uint64_t)it << 20 | i);
            vals[i] = keys[i] ^ 0x1234u;
        }
        if (zesort_ze_append_sort(w->s, l.list, keys, vals, n, temp, tb, &o, NULL, 0, NULL) !=
            ZESORT_OK) {
            w->wrong++;
            continue;
        }
        lane_sync(&l);
        for (uint32_t i = 0; i < n; i++)
            if ((i && keys[i - 1] > keys[i]) || vals[i] != (keys[i] ^ 0x1234u)) {
                w->wrong++;
                break;
            }
    }
    zeMemFree(ctx, keys);
    zeMemFree(ctx, vals);
    zeMemFree(ctx, temp);
    lane_close(&l);
    return NULL;
}

/* Threads of the thread tests: 3, or ZESORT_TEST_THREADS (scripts/test runs
 * them with 8 under ThreadSanitizer). */
enum { MAX_THREADS = 16 };
static int test_threads_count(int dflt)
{
    const char *v = getenv("ZESORT_TEST_THREADS");
    int t = v ? atoi(v) : dflt;
    return t < 1 ? 1 : t > MAX_THREADS ? MAX_THREADS : t;
}

static void test_threads(void)
{
    zesort_ze_sorter *s;
    EXPECT(zesort_ze_create(ctx, device, &s) == ZESORT_OK, "%s", zesort_ze_last_error(NULL));
    const int T = test_threads_count(3);
    pthread_t th[MAX_THREADS];
    worker w[MAX_THREADS];
    for (int i = 0; i < T; i++) {
        w[i] = (worker){.s = s, .id = i, .sorts = 12};
        EXPECT(pthread_create(&th[i], NULL, sort_thread, &w[i]) == 0, "pthread_create");
    }
    for (int i = 0; i < T; i++) {
        pthread_join(th[i], NULL);
        EXPECT(w[i].wrong == 0, "thread %d: %d of %d sorts wrong", i, w[i].wrong, w[i].sorts);
    }
    zesort_ze_destroy(s);
    printf("threads: %d threads x %d sorts on one sorter: done\n", T, w[0].sorts);
}

/* ---- contexts created concurrently ------------------------------------ */

typedef struct creator {
    zesort_backend backend;
    zesort_status st;
    zesort_backend got;
    char msg[256];
} creator;

static pthread_barrier_t start_line;

static void *create_thread(void *arg)
{
    creator *c = arg;
    zesort_context *zc = NULL;
    pthread_barrier_wait(&start_line);
    c->st = zesort_create(c->backend, &zc);
    snprintf(c->msg, sizeof c->msg, "%s", zesort_last_error(zc));
    c->got = zc ? zesort_context_backend(zc) : ZESORT_BACKEND_AUTO;
    if (zc) {
        uint32_t k[257];
        for (uint32_t i = 0; i < 257; i++)
            k[i] = 257 - i;
        if (zesort_sort(zc, k, NULL, 257, NULL) != ZESORT_OK || k[0] != 1 || k[256] != 257)
            c->st = ZESORT_ERROR_BACKEND;
    }
    zesort_destroy(zc);
    return NULL;
}

static void create_round(zesort_backend backend, zesort_backend want)
{
    const int T = test_threads_count(4);
    pthread_t th[MAX_THREADS];
    creator c[MAX_THREADS];
    pthread_barrier_init(&start_line, NULL, T);
    for (int i = 0; i < T; i++) {
        c[i] = (creator){.backend = backend};
        pthread_create(&th[i], NULL, create_thread, &c[i]);
    }
    for (int i = 0; i < T; i++) {
        pthread_join(th[i], NULL);
        EXPECT(c[i].st == ZESORT_OK, "%s thread %d: %s: %s", zesort_backend_name(backend), i,
               zesort_status_name(c[i].st), c[i].msg);
        EXPECT(c[i].got == want, "%s thread %d: got backend %s", zesort_backend_name(backend), i,
               zesort_backend_name(c[i].got));
    }
    pthread_barrier_destroy(&start_line);
}

static void test_create(void)
{
    for (int round = 0; round < 3; round++)
        create_round(ZESORT_BACKEND_OPENCL, ZESORT_BACKEND_OPENCL);
    zesort_context *zc = NULL;
    EXPECT(zesort_create(ZESORT_BACKEND_AUTO, &zc) == ZESORT_OK, "AUTO");
    zesort_backend single = zc ? zesort_context_backend(zc) : ZESORT_BACKEND_CPU;
    zesort_destroy(zc);
    for (int round = 0; round < 2; round++)
        create_round(ZESORT_BACKEND_AUTO, single);
    printf("create: done (AUTO gives %s)\n", zesort_backend_name(single));
}

/* ---- prepare, alignment, last algorithm --------------------------------- */

static void test_prepare(lane *l)
{
    zesort_ze_sorter *s;
    EXPECT(zesort_ze_create(ctx, device, &s) == ZESORT_OK, "%s", zesort_ze_last_error(NULL));
    EXPECT(zesort_ze_last_algo(s) == ZESORT_ALGO_AUTO, "no append yet");
    EXPECT(zesort_ze_last_result(s) == ZE_RESULT_SUCCESS, "no failure yet");
    zesort_options o;
    zesort_options_default(&o);
    o.key_type = ZESORT_KEY_I64;
    o.descending = 1;
    unsigned long before = zs_test_builds();
    EXPECT(zesort_ze_prepare(s, &o, 1) == ZESORT_OK, "%s", zesort_ze_last_error(s));
    EXPECT(zs_test_builds() > before, "prepare built nothing");
    before = zs_test_builds();
    const uint32_t sizes[] = {1, 1000, 70000};
    for (size_t i = 0; i < 3; i++) {
        uint64_t tb = 0, align = 0;
        EXPECT(zesort_ze_temp_requirements(s, sizes[i], 1, &o, &tb, &align) == ZESORT_OK, "%s",
               zesort_ze_last_error(s));
        EXPECT(align == ZESORT_ZE_TEMP_ALIGNMENT, "alignment %llu", (unsigned long long)align);
        int64_t *keys = shared_alloc(sizes[i] * 8u);
        uint32_t *vals = shared_alloc(sizes[i] * 4u);
        void *temp = shared_alloc(tb);
        for (uint32_t j = 0; j < sizes[i]; j++) {
            keys[j] = (int64_t)mix(j);
            vals[j] = j;
        }
        EXPECT(zesort_ze_append_sort(s, l->list, keys, vals, sizes[i], temp, tb, &o, NULL, 0,
                                     NULL) == ZESORT_OK, "%s", zesort_ze_last_error(s));
        lane_sync(l);
        for (uint32_t j = 1; j < sizes[i]; j++)
            if (keys[j - 1] < keys[j]) {
                EXPECT(0, "prepared sort of %u not descending at %u", sizes[i], j);
                break;
            }
        EXPECT(zesort_ze_last_algo(s) != ZESORT_ALGO_AUTO, "last algo not reported");
        zeMemFree(ctx, keys);
        zeMemFree(ctx, vals);
        zeMemFree(ctx, temp);
    }
    /* the segmented sort of the same keys and values (issue 35, item 5) */
    {
        uint64_t tb = 0, *off = shared_alloc(3 * 8);
        int64_t *keys = shared_alloc(1000 * 8u);
        uint32_t *vals = shared_alloc(1000 * 4u);
        EXPECT(zesort_ze_temp_bytes(s, 1000, 1, &o, &tb) == ZESORT_OK, "temp");
        void *temp = shared_alloc(tb);
        off[0] = 0, off[1] = 400, off[2] = 1000;
        for (uint32_t j = 0; j < 1000; j++)
            keys[j] = (int64_t)mix(j), vals[j] = j;
        EXPECT(zesort_ze_append_sort_segments(s, l->list, keys, vals, 1000, off, 2, temp, tb, &o,
                                              NULL, 0, NULL) == ZESORT_OK,
               "%s", zesort_ze_last_error(s));
        lane_sync(l);
        for (uint32_t j = 1; j < 1000; j++)
            EXPECT(j == 400 || keys[j - 1] >= keys[j], "segment not descending at %u", j);
        zeMemFree(ctx, keys), zeMemFree(ctx, vals), zeMemFree(ctx, temp), zeMemFree(ctx, off);
    }
    /* the top-k of the same keys and values (issue 38): its select kernels too */
    {
        const uint32_t n = 70000, k = 100;
        uint64_t tb = 0;
        int64_t *keys = shared_alloc(n * 8u), *ko = shared_alloc(k * 8u);
        uint32_t *vals = shared_alloc(n * 4u), *vo = shared_alloc(k * 4u);
        EXPECT(zesort_ze_topk_temp_bytes(s, n, 1, &o, &tb) == ZESORT_OK, "temp");
        void *temp = shared_alloc(tb);
        for (uint32_t j = 0; j < n; j++)
            keys[j] = (int64_t)mix(j), vals[j] = j;
        const unsigned long selects = zs_test_selects();
        EXPECT(zesort_ze_append_topk(s, l->list, keys, vals, ko, vo, NULL, n, NULL, k, temp, tb,
                                     &o, NULL, 0, NULL) == ZESORT_OK,
               "%s", zesort_ze_last_error(s));
        lane_sync(l);
        EXPECT(zs_test_selects() == selects + 1, "the prepared top-k did not select");
        for (uint32_t j = 1; j < k; j++)
            EXPECT(ko[j - 1] >= ko[j] && keys[vo[j]] == ko[j], "top-k wrong at %u", j);
        zeMemFree(ctx, keys), zeMemFree(ctx, ko), zeMemFree(ctx, vals), zeMemFree(ctx, vo);
        zeMemFree(ctx, temp);
    }
    EXPECT(zs_test_builds() == before, "appends after prepare built %lu modules",
           zs_test_builds() - before);
    /* explicit algorithm: reported as such */
    o.algo = ZESORT_ALGO_CM2;
    EXPECT(zesort_ze_prepare(s, &o, 0) == ZESORT_OK, "%s", zesort_ze_last_error(s));
    before = zs_test_builds();
    uint64_t tb;
    EXPECT(zesort_ze_temp_bytes(s, 300, 0, &o, &tb) == ZESORT_OK, "temp");
    int64_t *keys = shared_alloc(300 * 8);
    void *temp = shared_alloc(tb);
    memset(keys, 0, 300 * 8);
    EXPECT(zesort_ze_append_sort(s, l->list, keys, NULL, 300, temp, tb, &o, NULL, 0, NULL) ==
               ZESORT_OK, "%s", zesort_ze_last_error(s));
    lane_sync(l);
    EXPECT(zesort_ze_last_algo(s) == ZESORT_ALGO_CM2, "last algo %d", zesort_ze_last_algo(s));
    EXPECT(zs_test_builds() == before, "cm2 append after prepare built a module");
    /* host scan: refused by prepare as by append */
    o.scan = ZESORT_SCAN_HOST;
    EXPECT(zesort_ze_prepare(s, &o, 0) == ZESORT_ERROR_UNSUPPORTED, "host scan prepare");
    EXPECT(zesort_ze_prepare(NULL, &o, 0) == ZESORT_ERROR_INVALID_ARGUMENT, "NULL sorter");
    zeMemFree(ctx, keys);
    zeMemFree(ctx, temp);
    zesort_ze_destroy(s);
    printf("prepare: done\n");
}

/* ---- issue 21: 8-byte values, out of place, argsort (interop_cases.h) -- */

#include "interop_cases.h" /* after `failures`: its checks count them */

static zesort_ze_sorter *ic_sorter;
static lane *ic_lane;

static void *ic_alloc(size_t bytes) { return device_alloc(ctx, bytes); }
static void ic_release(void *buf) { zeMemFree(ctx, buf); }

static void ic_upload(void *buf, const void *src, size_t bytes)
{
    ZE_OK(zeCommandListAppendMemoryCopy(ic_lane->list, buf, src, bytes, NULL, 0, NULL));
    lane_sync(ic_lane);
}

static void ic_download(void *dst, void *buf, size_t bytes)
{
    ZE_OK(zeCommandListAppendMemoryCopy(ic_lane->list, dst, buf, bytes, NULL, 0, NULL));
    lane_sync(ic_lane);
}

static zesort_status ic_temp_bytes(uint64_t n, int with_values, const zesort_options *o,
                                   uint64_t *bytes)
{
    return zesort_ze_temp_bytes(ic_sorter, n, with_values, o, bytes);
}

/* A successful append is waited for: the case reads the results next. */
static zesort_status ic_wait(zesort_status st)
{
    if (st == ZESORT_OK)
        lane_sync(ic_lane);
    return st;
}

static zesort_status ic_sort(void *keys, void *values, uint64_t n, void *temp, uint64_t tb,
                             const zesort_options *o)
{
    return ic_wait(zesort_ze_append_sort(ic_sorter, ic_lane->list, keys, values, n, temp, tb, o,
                                         NULL, 0, NULL));
}

static zesort_status ic_copy(void *keys_in, void *values_in, void *keys_out, void *values_out,
                             uint64_t n, void *count, void *temp, uint64_t tb,
                             const zesort_options *o)
{
    return ic_wait(zesort_ze_append_sort_copy(ic_sorter, ic_lane->list, keys_in, values_in,
                                              keys_out, values_out, n, count, temp, tb, o, NULL,
                                              0, NULL));
}

static zesort_status ic_argsort(void *keys, void *indices, void *keys_out, uint64_t n,
                                void *count, void *temp, uint64_t tb, const zesort_options *o)
{
    return ic_wait(zesort_ze_append_argsort(ic_sorter, ic_lane->list, keys, indices, keys_out, n,
                                            count, temp, tb, o, NULL, 0, NULL));
}

static const char *ic_error(void) { return zesort_ze_last_error(ic_sorter); }

static const interop_api ic_api = {"level-zero", ic_alloc, ic_release, ic_upload, ic_download,
                                   ic_temp_bytes, ic_sort, ic_copy, ic_argsort, ic_error};

static void test_copy_argsort(zesort_ze_sorter *s, lane *l)
{
    ic_sorter = s;
    ic_lane = l;
    interop_matrix(&ic_api);
    printf("copy-argsort: done\n");
}

/* ---- issue 22: the segmented sort, offsets on the device ------------- */

#include "interop_segments.h"

static zesort_status seg_sort(void *keys, void *values, uint64_t n, void *offsets,
                              uint64_t segments, void *temp, uint64_t tb, const zesort_options *o)
{
    return ic_wait(zesort_ze_append_sort_segments(ic_sorter, ic_lane->list, keys, values, n,
                                                  offsets, segments, temp, tb, o, NULL, 0, NULL));
}

static void test_segments_rerun(zesort_ze_sorter *s);

/* Issue 35: the copy and the sort on one regular list, executed once: the
 * copy has not run when the sort is appended. */
static zesort_status seg_sort_dev(void *keys, void *values, uint64_t n, const seg_dev *d,
                                  void *copy_dst, void *copy_src, size_t copy_bytes, void *temp,
                                  uint64_t tb, const zesort_options *o)
{
    ze_command_queue_desc_t qd = {.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                  .ordinal = ordinal,
                                  .mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS};
    ze_command_list_desc_t ld = {.stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC,
                                 .commandQueueGroupOrdinal = ordinal};
    ze_command_queue_handle_t q;
    ze_command_list_handle_t list;
    ZE_OK(zeCommandQueueCreate(ctx, device, &qd, &q));
    ZE_OK(zeCommandListCreate(ctx, device, &ld, &list));
    if (copy_bytes)
        ZE_OK(zeCommandListAppendMemoryCopy(list, copy_dst, copy_src, copy_bytes, NULL, 0, NULL));
    zesort_status st;
    if (d->old_api) {
        st = zesort_ze_append_sort_segments(ic_sorter, list, keys, values, n, d->offsets,
                                            d->num_segments, temp, tb, o, NULL, 0, NULL);
    } else {
        const zesort_ze_segments seg = {d->raw_type ? (zesort_offset_type)d->raw_type
                                        : d->u32    ? ZESORT_OFFSET_U32
                                                    : ZESORT_OFFSET_U64,
                                        d->offsets, d->begins, d->ends, d->num_segments,
                                        d->count, d->status};
        st = zesort_ze_append_sort_segmented(ic_sorter, list, keys, values, n,
                                             d->no_desc ? NULL : &seg, temp, tb, o, NULL, 0,
                                             NULL);
    }
    ZE_OK(zeCommandListClose(list));
    ZE_OK(zeCommandQueueExecuteCommandLists(q, 1, &list, NULL));
    ZE_OK(zeCommandQueueSynchronize(q, UINT64_MAX));
    zeCommandListDestroy(list);
    zeCommandQueueDestroy(q);
    return st;
}

static zesort_status seg_sort_indirect(void *keys, void *values, void *count, uint64_t max_n,
                                       void *offsets, uint64_t segments, void *temp, uint64_t tb,
                                       const zesort_options *o)
{
    return ic_wait(zesort_ze_append_sort_segments_indirect(ic_sorter, ic_lane->list, keys,
                                                           values, count, max_n, offsets,
                                                           segments, temp, tb, o, NULL, 0,
                                                           NULL));
}

#include "interop_rules.h"

static const interop_segments_api seg_api = {"level-zero", ic_alloc, ic_release, ic_upload,
                                            ic_download, ic_temp_bytes, seg_sort, ic_error,
                                            seg_sort_dev, seg_sort_indirect};

static void test_segments(zesort_ze_sorter *s, lane *l)
{
    ic_sorter = s;
    ic_lane = l;
    interop_segments(&seg_api);
    interop_segments_device(&seg_api);
    test_segments_rerun(s);
    seg_indirect_cases(&seg_api);
}

/* Issue 35, item 2: segments of every size, classified on the device. */
static void test_segment_classes(zesort_ze_sorter *s, lane *l)
{
    static const interop_segments_api api = {"level-zero", ic_alloc, ic_release, ic_upload,
                                             ic_download, ic_temp_bytes, seg_sort, ic_error,
                                             seg_sort_dev, seg_sort_indirect};
    ic_sorter = s;
    ic_lane = l;
    interop_segments_classes(&api);
    seg_indirect_classes(&api);
}

/* Issue 35: a regular list executed three times checks the segments each
 * time: valid offsets sort and write {0, 0}; offsets made decreasing
 * between executions leave the keys as they are and write {DECREASING, 1};
 * valid again, they sort again. */
static void test_segments_rerun(zesort_ze_sorter *s)
{
    enum { N = 64 };
    const uint64_t good[] = {0, 32, N}, bad[] = {0, 40, 32};
    uint32_t keys[N], got[N], status[2];
    uint64_t tb = 0;
    EXPECT(zesort_ze_temp_bytes(s, N, 0, NULL, &tb) == ZESORT_OK, "temp bytes");
    void *dk = ic_alloc(sizeof keys), *doff = ic_alloc(sizeof good), *dst = ic_alloc(8);
    void *temp = ic_alloc(tb);
    const zesort_ze_segments seg = {.offsets = doff, .num_segments = 2, .status = dst};
    ze_command_queue_desc_t qd = {.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                  .ordinal = ordinal,
                                  .mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS};
    ze_command_list_desc_t ld = {.stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC,
                                 .commandQueueGroupOrdinal = ordinal};
    ze_command_queue_handle_t q;
    ze_command_list_handle_t list;
    ZE_OK(zeCommandQueueCreate(ctx, device, &qd, &q));
    ZE_OK(zeCommandListCreate(ctx, device, &ld, &list));
    EXPECT(zesort_ze_append_sort_segmented(s, list, dk, NULL, N, &seg, temp, tb, NULL, NULL, 0,
                                           NULL) == ZESORT_OK, "rerun: %s",
           zesort_ze_last_error(s));
    ZE_OK(zeCommandListClose(list));
    for (int run = 0; run < 3; run++) {
        for (uint32_t i = 0; i < N; i++)
            keys[i] = N - i;
        ic_upload(dk, keys, sizeof keys);
        ic_upload(doff, run == 1 ? bad : good, sizeof good);
        ZE_OK(zeCommandQueueExecuteCommandLists(q, 1, &list, NULL));
        ZE_OK(zeCommandQueueSynchronize(q, UINT64_MAX));
        ic_download(got, dk, sizeof got);
        ic_download(status, dst, sizeof status);
        int sorted = 1;
        for (uint32_t i = 1; i < N; i++)
            sorted &= i == 32 || got[i - 1] <= got[i];
        if (run == 1)
            EXPECT(status[0] == ZESORT_SEGMENTS_DECREASING && status[1] == 1 &&
                       memcmp(got, keys, sizeof keys) == 0,
                   "rerun %d: status {%u, %u}, keys %s", run, status[0], status[1],
                   memcmp(got, keys, sizeof keys) ? "changed" : "kept");
        else
            EXPECT(status[0] == 0 && status[1] == 0 && sorted, "rerun %d: status {%u, %u}, %s",
                   run, status[0], status[1], sorted ? "sorted" : "not sorted");
    }
    zeCommandListDestroy(list);
    zeCommandQueueDestroy(q);
    ic_release(dk), ic_release(doff), ic_release(dst), ic_release(temp);
    printf("segments, a regular list executed three times: %d failures\n", failures);
}

/* Issue 35: only the offsets' old check, in the list (fails before it). */
static void test_segments_produced(zesort_ze_sorter *s, lane *l)
{
    static const interop_segments_api api = {"level-zero", ic_alloc, ic_release, ic_upload,
                                             ic_download, ic_temp_bytes, seg_sort, ic_error,
                                             seg_sort_dev, NULL};
    ic_sorter = s;
    ic_lane = l;
    seg_dev_produced_old(&api);
}

/* ---- issue 35: the chained form of every variant ---------------------- */

#define CH_MAX 512
static struct {
    ze_event_pool_handle_t pool;
    ze_event_handle_t ev[CH_MAX]; /* the chain: device scope, as zesort_ze.h asks */
    ze_event_handle_t wait;       /* the producer's: device scope */
    ze_event_handle_t done;       /* the sort's signal event: host scope (the host reads) */
    zecl_hooks hooks;
    int regular;                  /* 1: each sort on a regular list of its own */
    ze_command_queue_handle_t queue;
    ze_command_list_handle_t list; /* the list of the sort under way */
    uint32_t need;
} ch;

static void chain_open(void)
{
    ze_event_pool_desc_t pd = {.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC,
                               .flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE, .count = CH_MAX + 2};
    ZE_OK(zeEventPoolCreate(ctx, &pd, 1, &device, &ch.pool));
    for (uint32_t i = 0; i < CH_MAX + 2; i++) {
        const ze_event_scope_flags_t scope = i == CH_MAX + 1 ? ZE_EVENT_SCOPE_FLAG_HOST
                                                              : ZE_EVENT_SCOPE_FLAG_DEVICE;
        ze_event_desc_t ed = {.stype = ZE_STRUCTURE_TYPE_EVENT_DESC, .index = i,
                              .signal = scope, .wait = scope};
        ZE_OK(zeEventCreate(ch.pool, &ed,
                            i < CH_MAX ? &ch.ev[i] : i == CH_MAX ? &ch.wait : &ch.done));
    }
    if (zecl_hooks_find(&ch.hooks) != 0) {
        fprintf(stderr, "the test driver's hooks are missing\n");
        exit(1);
    }
    ch.regular = getenv("ZESORT_ZE_CHAINED_REGULAR") != NULL;
    ze_command_queue_desc_t qd = {.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                  .ordinal = ordinal, .mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS};
    if (ch.regular)
        ZE_OK(zeCommandQueueCreate(ctx, device, &qd, &ch.queue));
}

static void chain_close(void)
{
    for (uint32_t i = 0; i < CH_MAX; i++)
        zeEventDestroy(ch.ev[i]);
    zeEventDestroy(ch.wait);
    zeEventDestroy(ch.done);
    zeEventPoolDestroy(ch.pool);
    if (ch.queue)
        zeCommandQueueDestroy(ch.queue);
}

/* Before a chained append: the chain sized for it and reset, a producer (a
 * barrier after the uploads) that signals the sort's wait event, and the
 * driver's barrier counter started. Returns the list to append to. */
static ze_command_list_handle_t chain_begin(zesort_ze_variant v, uint64_t n, int with,
                                            int indirect, const zesort_options *o)
{
    ch.need = UINT32_MAX;
    EXPECT(zesort_ze_chain_events_for(ic_sorter, v, n, with, indirect, o, &ch.need) ==
               ZESORT_OK, "chain events: %s", zesort_ze_last_error(ic_sorter));
    if (ch.need > CH_MAX) {
        fprintf(stderr, "a sort of %llu keys needs %u chain events\n", (unsigned long long)n,
                ch.need);
        exit(1);
    }
    for (uint32_t i = 0; i < ch.need; i++)
        ZE_OK(zeEventHostReset(ch.ev[i]));
    ZE_OK(zeEventHostReset(ch.wait));
    ZE_OK(zeEventHostReset(ch.done));
    ch.list = ic_lane->list;
    if (ch.regular) {
        ze_command_list_desc_t ld = {.stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC,
                                     .commandQueueGroupOrdinal = ordinal};
        ZE_OK(zeCommandListCreate(ctx, device, &ld, &ch.list));
    }
    ZE_OK(zeCommandListAppendBarrier(ch.list, ch.wait, 0, NULL));
    ch.hooks.arm(0, 0, 0);
    return ch.list;
}

/* After a chained append: no barrier of its own (when it has commands),
 * the host waits on the signal event only, every chain event signalled. */
static zesort_status chain_end(zesort_status st)
{
    if (st == ZESORT_OK && ch.need > 0)
        EXPECT(ch.hooks.count(ZECL_COUNT_BARRIERS) == 0, "a chained sort appended %llu barriers",
               (unsigned long long)ch.hooks.count(ZECL_COUNT_BARRIERS));
    if (ch.regular) {
        ZE_OK(zeCommandListClose(ch.list));
        ZE_OK(zeCommandQueueExecuteCommandLists(ch.queue, 1, &ch.list, NULL));
    }
    if (st == ZESORT_OK) {
        ZE_OK(zeEventHostSynchronize(ch.done, UINT64_MAX));
        for (uint32_t i = 0; i < ch.need; i++)
            EXPECT(zeEventQueryStatus(ch.ev[i]) == ZE_RESULT_SUCCESS,
                   "chain event %u of %u not signalled", i, ch.need);
    }
    if (ch.regular) {
        ZE_OK(zeCommandQueueSynchronize(ch.queue, UINT64_MAX));
        ZE_OK(zeCommandListDestroy(ch.list));
    } else if (st != ZESORT_OK) {
        lane_sync(ic_lane); /* the producer barrier */
    }
    return st;
}

static zesort_status ch_sort(void *keys, void *values, uint64_t n, void *temp, uint64_t tb,
                             const zesort_options *o)
{
    ze_command_list_handle_t list = chain_begin(ZESORT_ZE_VARIANT_SORT, n, values != NULL, 0, o);
    return chain_end(zesort_ze_append_sort_chained(ic_sorter, list, keys, values, n, NULL, temp,
                                                   tb, o, ch.done, 1, &ch.wait, ch.need, ch.ev));
}

static zesort_status ch_copy(void *keys_in, void *values_in, void *keys_out, void *values_out,
                             uint64_t n, void *count, void *temp, uint64_t tb,
                             const zesort_options *o)
{
    ze_command_list_handle_t list =
        chain_begin(ZESORT_ZE_VARIANT_SORT_COPY, n, values_in != NULL, count != NULL, o);
    return chain_end(zesort_ze_append_sort_copy_chained(ic_sorter, list, keys_in, values_in,
                                                        keys_out, values_out, n, count, temp, tb,
                                                        o, ch.done, 1, &ch.wait, ch.need,
                                                        ch.ev));
}

static zesort_status ch_argsort(void *keys, void *indices, void *keys_out, uint64_t n,
                                void *count, void *temp, uint64_t tb, const zesort_options *o)
{
    ze_command_list_handle_t list =
        chain_begin(ZESORT_ZE_VARIANT_ARGSORT, n,
                    keys_out ? ZESORT_WITH_VALUES : ZESORT_ARGSORT_NO_KEYS_OUT, count != NULL, o);
    return chain_end(zesort_ze_append_argsort_chained(ic_sorter, list, keys, indices, keys_out, n,
                                                      count, temp, tb, o, ch.done, 1, &ch.wait,
                                                      ch.need, ch.ev));
}

static zesort_status ch_segments(void *keys, void *values, uint64_t n, void *offsets,
                                 uint64_t segments, void *temp, uint64_t tb,
                                 const zesort_options *o)
{
    ze_command_list_handle_t list =
        chain_begin(ZESORT_ZE_VARIANT_SEGMENTS, n, values != NULL, 0, o);
    if (segments == 0) /* no command: the chain events stay unused (zesort_ze.h) */
        ch.need = 0;
    return chain_end(zesort_ze_append_sort_segments_chained(ic_sorter, list, keys, values, n,
                                                            NULL, offsets, segments, temp, tb, o,
                                                            ch.done, 1, &ch.wait, ch.need,
                                                            ch.ev));
}

static zesort_status ch_segments_indirect(void *keys, void *values, void *count, uint64_t max_n,
                                          void *offsets, uint64_t segments, void *temp,
                                          uint64_t tb, const zesort_options *o)
{
    ze_command_list_handle_t list =
        chain_begin(ZESORT_ZE_VARIANT_SEGMENTS, max_n, values != NULL, 1, o);
    if (segments == 0)
        ch.need = 0;
    return chain_end(zesort_ze_append_sort_segments_chained(ic_sorter, list, keys, values, max_n,
                                                            count, offsets, segments, temp, tb,
                                                            o, ch.done, 1, &ch.wait, ch.need,
                                                            ch.ev));
}

/* The chain sizes: what each variant needs, refusals of the query. */
static void chain_counts(zesort_ze_sorter *s)
{
    uint32_t c = 0, in_place = 0;
    EXPECT(zesort_ze_chain_events(s, 5000, 1, 1, NULL, &in_place) == ZESORT_OK, "in place");
    EXPECT(zesort_ze_chain_events_for(s, ZESORT_ZE_VARIANT_SORT, 5000, 1, 1, NULL, &c) ==
               ZESORT_OK && c == in_place, "SORT: %u, zesort_ze_chain_events: %u", c, in_place);
    /* the segments are read on the device only: seg_check, then seg_sort_ranges;
     * indirect, the key count's fill and copy before them */
    EXPECT(zesort_ze_chain_events_for(s, ZESORT_ZE_VARIANT_SEGMENTS, 5000, 1, 0, NULL, &c) ==
               ZESORT_OK && c == 1, "segments: %u chain events, want 1 (seg_check, "
               "seg_sort_ranges)", c);
    EXPECT(zesort_ze_chain_events_for(s, ZESORT_ZE_VARIANT_SEGMENTS, 5000, 0, 1, NULL, &c) ==
               ZESORT_OK && c == 3, "segments indirect: %u, want 3 (+ the count's fill and "
               "copy)", c);
    EXPECT(zesort_ze_chain_events_for(s, ZESORT_ZE_VARIANT_ARGSORT, 5000, 0, 0, NULL, &c) ==
               ZESORT_ERROR_INVALID_ARGUMENT, "argsort with_values 0 accepted");
    EXPECT(zesort_ze_chain_events_for(s, ZESORT_ZE_VARIANT_SORT_COPY, 5000, 2, 0, NULL, &c) ==
               ZESORT_ERROR_INVALID_ARGUMENT, "copy with_values 2 accepted");
    EXPECT(zesort_ze_chain_events_for(s, (zesort_ze_variant)4, 5000, 0, 0, NULL, &c) ==
               ZESORT_ERROR_INVALID_ARGUMENT, "variant 4 accepted");
    EXPECT(zesort_ze_chain_events_for(s, ZESORT_ZE_VARIANT_SORT_COPY, 0, 1, 1, NULL, &c) ==
               ZESORT_OK && c == 0, "n 0: %u", c);
    EXPECT(zesort_ze_chain_events_for(NULL, ZESORT_ZE_VARIANT_SORT, 1, 0, 0, NULL, &c) ==
               ZESORT_ERROR_INVALID_ARGUMENT, "NULL sorter");
}

/* A chained variant given one chain event too few, or a NULL one: refused
 * with INVALID_ARGUMENT naming the chain, before any driver call. */
static void chain_refusals(zesort_ze_sorter *s)
{
    /* above the one launch of a small sort, which needs no chain event */
    const uint64_t n = 5000, off[] = {0, 400, n};
    uint64_t tb = 0;
    EXPECT(zesort_ze_temp_bytes(s, n, ZESORT_WITH_VALUES, NULL, &tb) == ZESORT_OK, "temp");
    void *a = ic_alloc(n * 4), *b = ic_alloc(n * 4), *c = ic_alloc(n * 4), *d = ic_alloc(n * 4);
    void *offs = ic_alloc(sizeof off), *temp = ic_alloc(tb);
    ic_upload(offs, off, sizeof off);
    for (int v = ZESORT_ZE_VARIANT_SORT_COPY; v <= ZESORT_ZE_VARIANT_SEGMENTS; v++)
        for (int bad = 0; bad < 2; bad++) { /* one too few; a NULL event */
            uint32_t need = 0;
            EXPECT(zesort_ze_chain_events_for(s, (zesort_ze_variant)v, n, ZESORT_WITH_VALUES, 0,
                                              NULL, &need) == ZESORT_OK && need >= 1,
                   "variant %d: %u chain events", v, need);
            ze_event_handle_t events[CH_MAX];
            memcpy(events, ch.ev, sizeof events);
            if (bad)
                events[need - 1] = NULL;
            const uint32_t given = bad ? need : need - 1;
            ch.hooks.arm(0, 0, 0);
            zesort_status st =
                v == ZESORT_ZE_VARIANT_SORT_COPY
                    ? zesort_ze_append_sort_copy_chained(s, ic_lane->list, a, b, c, d, n, NULL,
                                                         temp, tb, NULL, ch.done, 0, NULL, given,
                                                         events)
                : v == ZESORT_ZE_VARIANT_ARGSORT
                    ? zesort_ze_append_argsort_chained(s, ic_lane->list, a, b, c, n, NULL, temp,
                                                       tb, NULL, ch.done, 0, NULL, given, events)
                    : zesort_ze_append_sort_segments_chained(s, ic_lane->list, a, b, n, NULL,
                                                             offs, 2, temp, tb, NULL, ch.done, 0,
                                                             NULL, given, events);
            EXPECT(st == ZESORT_ERROR_INVALID_ARGUMENT &&
                       strstr(zesort_ze_last_error(s), "chain") != NULL,
                   "variant %d, %s: %s: %s", v, bad ? "a NULL chain event" : "too few",
                   zesort_status_name(st), zesort_ze_last_error(s));
            EXPECT(ch.hooks.count(ZECL_COUNT_CALLS) == 0, "variant %d: %llu driver calls", v,
                   (unsigned long long)ch.hooks.count(ZECL_COUNT_CALLS));
        }
    ic_release(a), ic_release(b), ic_release(c), ic_release(d), ic_release(offs);
    ic_release(temp);
}

static void test_chained(zesort_ze_sorter *s, lane *l)
{
    static const interop_api api = {"level-zero chained", ic_alloc, ic_release, ic_upload,
                                    ic_download, ic_temp_bytes, ch_sort, ch_copy, ch_argsort,
                                    ic_error};
    ic_sorter = s;
    ic_lane = l;
    chain_open();
    chain_counts(s);
    chain_refusals(s);
    rules_sizes(&api);
    /* every algorithm, kind, value width, order, key type, bit range */
    interop_matrix(&api);
    chain_close();
    printf("chained%s: %d failures\n", ch.regular ? " (regular lists)" : "", failures);
}

static void test_chained_segments(zesort_ze_sorter *s, lane *l)
{
    static const interop_segments_api api = {"level-zero chained", ic_alloc, ic_release,
                                             ic_upload, ic_download, ic_temp_bytes, ch_segments,
                                             ic_error, NULL, ch_segments_indirect};
    ic_sorter = s;
    ic_lane = l;
    chain_open();
    interop_segments(&api);
    seg_indirect_cases(&api);
    chain_close();
}

/* ---- issue 35, item 5: the rules a pipeline relies on ----------------- */

/* One waiter of the signal event per row of docs/interop.md's table (the
 * test driver keeps no caches, so what this checks is that the event, with
 * the scope the table names, is signalled after the sort's last write and
 * that each kind of waiter sees the sorted keys): scope 0 and a copy later
 * in the same list; DEVICE scope and a copy on another list; HOST scope and
 * the host. Barrier-ordered and chained. */
static void scope_case(zesort_ze_sorter *s, lane *l, int chained, int waiter)
{
    const uint64_t n = 5003;
    static const ze_event_scope_flags_t scopes[] = {0, ZE_EVENT_SCOPE_FLAG_DEVICE,
                                                    ZE_EVENT_SCOPE_FLAG_HOST};
    ze_event_pool_handle_t pool;
    ze_event_pool_desc_t pd = {.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC,
                               .flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE, .count = 1};
    ZE_OK(zeEventPoolCreate(ctx, &pd, 1, &device, &pool));
    ze_event_desc_t ed = {.stype = ZE_STRUCTURE_TYPE_EVENT_DESC, .index = 0,
                          .signal = scopes[waiter], .wait = scopes[waiter]};
    ze_event_handle_t sorted;
    ZE_OK(zeEventCreate(pool, &ed, &sorted));
    uint32_t *keys = shared_alloc(n * 4), *out = shared_alloc(n * 4), *copy = shared_alloc(n * 4);
    uint64_t tb = 0;
    EXPECT(zesort_ze_temp_bytes(s, n, 0, NULL, &tb) == ZESORT_OK, "temp");
    void *temp = shared_alloc(tb);
    uint64_t *want = malloc(n * 8);
    for (uint32_t i = 0; i < n; i++) {
        keys[i] = (uint32_t)mix(i);
        want[i] = keys[i];
        out[i] = copy[i] = ~0u - i; /* unsorted until the sort has written it */
    }
    qsort(want, n, 8, cmp_u64);
    lane other;
    lane_open(&other);
    ic_sorter = s;
    ic_lane = l;
    zesort_status st;
    if (chained) {
        ze_command_list_handle_t list = chain_begin(ZESORT_ZE_VARIANT_SORT_COPY, n, 0, 0, NULL);
        st = zesort_ze_append_sort_copy_chained(s, list, keys, NULL, out, NULL, n, NULL, temp, tb,
                                                NULL, sorted, 1, &ch.wait, ch.need, ch.ev);
    } else {
        st = zesort_ze_append_sort_copy(s, l->list, keys, NULL, out, NULL, n, NULL, temp, tb,
                                        NULL, sorted, 0, NULL);
    }
    EXPECT(st == ZESORT_OK, "%s", zesort_ze_last_error(s));
    if (waiter == 0) /* same list, scope 0: a copy that waits on it, then the lane's end */
        ZE_OK(zeCommandListAppendMemoryCopy(l->list, copy, out, n * 4, NULL, 1, &sorted));
    else if (waiter == 1) /* another list, device scope */
        ZE_OK(zeCommandListAppendMemoryCopy(other.list, copy, out, n * 4, NULL, 1, &sorted));
    else /* the host, host scope: nothing else waited for */
        ZE_OK(zeEventHostSynchronize(sorted, UINT64_MAX));
    if (waiter == 2)
        memcpy(copy, out, n * 4);
    else
        lane_sync(waiter == 0 ? l : &other);
    for (uint32_t i = 0; i < n; i++)
        if (copy[i] != want[i]) {
            EXPECT(0, "%s, signal scope 0x%x: the waiter saw %08x at %u, not %08llx",
                   chained ? "chained" : "barriers", (unsigned)scopes[waiter], copy[i], i,
                   (unsigned long long)want[i]);
            break;
        }
    free(want);
    lane_sync(l);
    lane_close(&other);
    zeEventDestroy(sorted);
    zeEventPoolDestroy(pool);
    zeMemFree(ctx, keys), zeMemFree(ctx, out), zeMemFree(ctx, copy), zeMemFree(ctx, temp);
}

static void test_rules(zesort_ze_sorter *s, lane *l)
{
    static const interop_api api = {"level-zero", ic_alloc, ic_release, ic_upload, ic_download,
                                    ic_temp_bytes, ic_sort, ic_copy, ic_argsort, ic_error};
    ic_sorter = s;
    ic_lane = l;
    rules_temp_monotonic(&api);
    chain_open();
    for (int chained = 0; chained < 2; chained++)
        for (int waiter = 0; waiter < 3; waiter++)
            scope_case(s, l, chained, waiter);
    chain_close();
    printf("rules: %d failures\n", failures);
}

/* ---- issue 35, item 4: caller-supplied alternate buffers (interop_alt.h) */

#include "interop_alt.h"

static zesort_status alt_temp(uint64_t n, int with_values, const zesort_options *o,
                              uint64_t *bytes, int *in_alt)
{
    return zesort_ze_alt_temp_requirements(ic_sorter, n, with_values, o, bytes, NULL, in_alt);
}

static zesort_status sort_alt(void *keys, void *values, void *keys_alt, void *values_alt,
                              uint64_t n, void *count, void *temp, uint64_t tb,
                              const zesort_options *o, int *in_alt)
{
    return ic_wait(zesort_ze_append_sort_alt(ic_sorter, ic_lane->list, keys, values, keys_alt,
                                             values_alt, n, count, temp, tb, o, NULL, 0, NULL,
                                             in_alt));
}

static zesort_status copy_alt(void *keys_in, void *values_in, void *keys_out, void *values_out,
                              void *keys_alt, void *values_alt, uint64_t n, void *count,
                              void *temp, uint64_t tb, const zesort_options *o)
{
    return ic_wait(zesort_ze_append_sort_copy_alt(ic_sorter, ic_lane->list, keys_in, values_in,
                                                  keys_out, values_out, keys_alt, values_alt, n,
                                                  count, temp, tb, o, NULL, 0, NULL));
}

static zesort_status argsort_alt(void *keys, void *indices, void *keys_out, void *keys_alt,
                                 void *indices_alt, uint64_t n, void *count, void *temp,
                                 uint64_t tb, const zesort_options *o)
{
    return ic_wait(zesort_ze_append_argsort_alt(ic_sorter, ic_lane->list, keys, indices,
                                                keys_out, keys_alt, indices_alt, n, count, temp,
                                                tb, o, NULL, 0, NULL));
}

static const interop_alt_api alt_api = {&ic_api, alt_temp, sort_alt, copy_alt, argsort_alt};

static void test_alt(zesort_ze_sorter *s, lane *l)
{
    ic_sorter = s;
    ic_lane = l;
    alt_matrix(&alt_api);
    printf("alt: done\n");
}

#include "interop_narrow.h"

/* The narrow key types (issue 37): every algorithm, sorts, copies,
 * argsorts, segments and alternate buffers (interop_narrow.h). */
static void test_narrow(zesort_ze_sorter *s, lane *l)
{
    ic_sorter = s;
    ic_lane = l;
    interop_narrow(&ic_api, &seg_api, &alt_api);
}

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL;
    if (zeInit(0) != ZE_RESULT_SUCCESS) {
        printf("SKIP: no Level Zero driver\n");
        return 77;
    }
    if (find_device() != 0) {
        printf("SKIP: no Level Zero device\n");
        return 77;
    }
    zesort_ze_sorter *s;
    if (zesort_ze_create(ctx, device, &s) != ZESORT_OK) {
        fprintf(stderr, "zesort_ze_create: %s\n", zesort_ze_last_error(NULL));
        return 1;
    }
    lane l;
    lane_open(&l);
    if (!only || !strcmp(only, "clamp"))
        test_clamp(s, &l);
    if (!only || !strcmp(only, "overlap"))
        test_overlap(s, &l);
    if (!only || !strcmp(only, "memory"))
        test_memory(s, &l);
    if (!only || !strcmp(only, "threads"))
        test_threads();
    if (!only || !strcmp(only, "create"))
        test_create();
    if (!only || !strcmp(only, "prepare"))
        test_prepare(&l);
    if (!only || !strcmp(only, "copy-argsort"))
        test_copy_argsort(s, &l);
    if (!only || !strcmp(only, "segments"))
        test_segments(s, &l);
    if (only && !strcmp(only, "segment-classes"))
        test_segment_classes(s, &l);
    if (only && !strcmp(only, "segments-produced"))
        test_segments_produced(s, &l);
    if (!only || !strcmp(only, "chained"))
        test_chained(s, &l);
    if (!only || !strcmp(only, "chained-segments"))
        test_chained_segments(s, &l);
    if (!only || !strcmp(only, "rules"))
        test_rules(s, &l);
    if (!only || !strcmp(only, "alt"))
        test_alt(s, &l);
    if (!only || !strcmp(only, "narrow"))
        test_narrow(s, &l);
    zesort_ze_destroy(s);
    lane_close(&l);
    zeContextDestroy(ctx);
    printf("%d failures\n", failures);
    return failures ? 1 : 0;
}
