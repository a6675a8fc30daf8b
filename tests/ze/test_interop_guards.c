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
 *   prepare     an append after zesort_ze_prepare builds no module; the
 *               algorithm AUTO chose is reported; the temp alignment
 *   alt         caller-supplied alternate buffers (issue 35, item 4):
 *               tests/common/interop_alt.h
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

static void test_copy_argsort(zesort_ze_sorter *s, lane *l)
{
    static const interop_api api = {"level-zero", ic_alloc, ic_release, ic_upload, ic_download,
                                    ic_temp_bytes, ic_sort, ic_copy, ic_argsort, ic_error};
    ic_sorter = s;
    ic_lane = l;
    interop_matrix(&api);
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

static void test_segments(zesort_ze_sorter *s, lane *l)
{
    static const interop_segments_api api = {"level-zero", ic_alloc, ic_release, ic_upload,
                                             ic_download, ic_temp_bytes, seg_sort, ic_error};
    ic_sorter = s;
    ic_lane = l;
    interop_segments(&api);
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

static void test_alt(zesort_ze_sorter *s, lane *l)
{
    static const interop_api base = {"level-zero", ic_alloc, ic_release, ic_upload, ic_download,
                                     ic_temp_bytes, ic_sort, ic_copy, ic_argsort, ic_error};
    static const interop_alt_api api = {&base, alt_temp, sort_alt, copy_alt, argsort_alt};
    ic_sorter = s;
    ic_lane = l;
    alt_matrix(&api);
    printf("alt: done\n");
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
    if (!only || !strcmp(only, "alt"))
        test_alt(s, &l);
    zesort_ze_destroy(s);
    lane_close(&l);
    zeContextDestroy(ctx);
    printf("%d failures\n", failures);
    return failures ? 1 : 0;
}
