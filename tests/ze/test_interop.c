/*
 * test_interop.c — Check tests of the Level Zero interop API (zesort_ze.h)
 * on whatever Level Zero driver is present (in `meson test`: the test driver
 * tests/ze_cl_driver over PoCL, with the loader's validation layer on).
 *
 * A small pipeline is built around the sort: a producer kernel writes keys
 * (and a count) into device memory, the sort is appended to the same command
 * list, and a consumer kernel reads the sorted keys; events chain them.
 * The producer/consumer SPIR-V is made by ocloc at build time
 * (pipeline_kernels.cl); its path is argv[1].
 *
 * Exit status 77 (skip) when no Level Zero driver is present.
 * Tests run without fork (CK_NOFORK): a driver with worker threads does not
 * survive fork().
 */
#include <check.h>
#include <dlfcn.h>
#include <level_zero/ze_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline_hash.h"
#include "zesort_ze.h"

static const char *spv_path;
static int contains(const char *msg, const char *part);
static void chain_teardown(void);

static struct {
    ze_driver_handle_t driver;
    ze_device_handle_t device;
    ze_context_handle_t ctx;
    uint32_t ordinal;
    ze_command_list_handle_t imm;
    ze_module_handle_t module;
    ze_kernel_handle_t produce, consume;
    ze_event_pool_handle_t pool;
    ze_event_handle_t ev[8];
    void *host;       /* host USM staging for readback */
    size_t host_bytes;
    zesort_ze_sorter *sorter;
} g;

#define ZE_OK(call) ck_assert_msg((call) == ZE_RESULT_SUCCESS, "%s failed", #call)

/* ---- set-up ---------------------------------------------------------- */

static int find_device(void)
{
    uint32_t nd = 0;
    if (zeDriverGet(&nd, NULL) != ZE_RESULT_SUCCESS || nd == 0)
        return -1;
    ze_driver_handle_t drivers[8];
    nd = nd > 8 ? 8 : nd;
    if (zeDriverGet(&nd, drivers) != ZE_RESULT_SUCCESS)
        return -1;
    int best = 0;
    for (uint32_t d = 0; d < nd; d++) {
        uint32_t n = 8;
        ze_device_handle_t devs[8];
        if (zeDeviceGet(drivers[d], &n, devs) != ZE_RESULT_SUCCESS)
            continue;
        for (uint32_t i = 0; i < n; i++) {
            ze_device_properties_t p = {.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
            if (zeDeviceGetProperties(devs[i], &p) != ZE_RESULT_SUCCESS)
                continue;
            int rank = p.type == ZE_DEVICE_TYPE_GPU ? 2 : 1;
            if (rank > best) {
                best = rank;
                g.driver = drivers[d];
                g.device = devs[i];
            }
        }
    }
    return best ? 0 : -1;
}

static void *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *data = len > 0 ? malloc((size_t)len) : NULL;
    if (data && fread(data, 1, (size_t)len, f) != (size_t)len) {
        free(data);
        data = NULL;
    }
    fclose(f);
    *size = (size_t)len;
    return data;
}

static void fatal(const char *what, ze_result_t r)
{
    fprintf(stderr, "test_interop: set-up failed: %s (0x%x)\n", what, (unsigned)r);
    exit(1);
}

static void setup_ze(void)
{
    ze_result_t r;
    uint32_t n = 0;
    zeDeviceGetCommandQueueGroupProperties(g.device, &n, NULL);
    ze_command_queue_group_properties_t qg[16];
    n = n > 16 ? 16 : n;
    for (uint32_t i = 0; i < n; i++)
        qg[i] = (ze_command_queue_group_properties_t){.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES};
    zeDeviceGetCommandQueueGroupProperties(g.device, &n, qg);
    for (uint32_t i = 0; i < n; i++)
        if (qg[i].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE) {
            g.ordinal = i;
            break;
        }
    ze_context_desc_t cd = {.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    if ((r = zeContextCreate(g.driver, &cd, &g.ctx)) != ZE_RESULT_SUCCESS)
        fatal("zeContextCreate", r);
    ze_command_queue_desc_t qd = {.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                  .ordinal = g.ordinal,
                                  .mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS};
    if ((r = zeCommandListCreateImmediate(g.ctx, g.device, &qd, &g.imm)) != ZE_RESULT_SUCCESS)
        fatal("zeCommandListCreateImmediate", r);

    size_t size = 0;
    void *spv = read_file(spv_path, &size);
    if (!spv) {
        fprintf(stderr, "test_interop: cannot read %s\n", spv_path);
        exit(1);
    }
    ze_module_desc_t md = {.stype = ZE_STRUCTURE_TYPE_MODULE_DESC,
                           .format = ZE_MODULE_FORMAT_IL_SPIRV,
                           .inputSize = size,
                           .pInputModule = spv,
                           .pBuildFlags = ""};
    if ((r = zeModuleCreate(g.ctx, g.device, &md, &g.module, NULL)) != ZE_RESULT_SUCCESS)
        fatal("zeModuleCreate(pipeline_kernels.spv)", r);
    free(spv);
    ze_kernel_desc_t kd = {.stype = ZE_STRUCTURE_TYPE_KERNEL_DESC, .pKernelName = "produce"};
    if ((r = zeKernelCreate(g.module, &kd, &g.produce)) != ZE_RESULT_SUCCESS)
        fatal("zeKernelCreate(produce)", r);
    kd.pKernelName = "consume";
    if ((r = zeKernelCreate(g.module, &kd, &g.consume)) != ZE_RESULT_SUCCESS)
        fatal("zeKernelCreate(consume)", r);
    zeKernelSetGroupSize(g.produce, 64, 1, 1);
    zeKernelSetGroupSize(g.consume, 64, 1, 1);

    ze_event_pool_desc_t pd = {.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC,
                               .flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE,
                               .count = 8};
    if ((r = zeEventPoolCreate(g.ctx, &pd, 1, &g.device, &g.pool)) != ZE_RESULT_SUCCESS)
        fatal("zeEventPoolCreate", r);
    for (uint32_t i = 0; i < 8; i++) {
        ze_event_desc_t ed = {.stype = ZE_STRUCTURE_TYPE_EVENT_DESC,
                              .index = i,
                              .signal = ZE_EVENT_SCOPE_FLAG_HOST,
                              .wait = ZE_EVENT_SCOPE_FLAG_HOST};
        if ((r = zeEventCreate(g.pool, &ed, &g.ev[i])) != ZE_RESULT_SUCCESS)
            fatal("zeEventCreate", r);
    }
    zesort_status st = zesort_ze_create(g.ctx, g.device, &g.sorter);
    if (st != ZESORT_OK) {
        fprintf(stderr, "test_interop: zesort_ze_create: %s\n", zesort_ze_last_error(NULL));
        exit(1);
    }
}

static void teardown_ze(void)
{
    zesort_ze_destroy(g.sorter);
    chain_teardown();
    if (g.host)
        zeMemFree(g.ctx, g.host);
    for (int i = 0; i < 8; i++)
        zeEventDestroy(g.ev[i]);
    zeEventPoolDestroy(g.pool);
    zeKernelDestroy(g.produce);
    zeKernelDestroy(g.consume);
    zeModuleDestroy(g.module);
    zeCommandListDestroy(g.imm);
    zeContextDestroy(g.ctx);
}

/* Events are reset between tests (each test signals some of them). */
static void reset_events(void)
{
    for (int i = 0; i < 8; i++)
        zeEventHostReset(g.ev[i]);
}

/* ---- helpers --------------------------------------------------------- */

static void *dev_alloc(size_t bytes)
{
    ze_device_mem_alloc_desc_t d = {.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    void *p = NULL;
    ZE_OK(zeMemAllocDevice(g.ctx, &d, bytes ? bytes : 4, 0, g.device, &p));
    return p;
}

/* Copies device memory into dst after everything in the immediate list. */
static void read_back(void *dst, const void *src, size_t bytes)
{
    if (bytes > g.host_bytes) {
        if (g.host)
            zeMemFree(g.ctx, g.host);
        ze_host_mem_alloc_desc_t d = {.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
        ZE_OK(zeMemAllocHost(g.ctx, &d, bytes, 64, &g.host));
        g.host_bytes = bytes;
    }
    ze_event_handle_t e = g.ev[7];
    ZE_OK(zeCommandListAppendBarrier(g.imm, NULL, 0, NULL));
    ZE_OK(zeCommandListAppendMemoryCopy(g.imm, g.host, src, bytes, e, 0, NULL));
    ZE_OK(zeEventHostSynchronize(e, UINT64_MAX));
    ZE_OK(zeEventHostReset(e));
    memcpy(dst, g.host, bytes);
}

static uint32_t hash_key(uint32_t i, uint32_t seed) /* = produce() */
{
    return pipeline_hash(i, seed);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static uint32_t *expected_sorted(uint32_t n, uint32_t seed)
{
    uint32_t *e = malloc((n ? n : 1) * sizeof *e);
    ck_assert_ptr_nonnull(e);
    for (uint32_t i = 0; i < n; i++)
        e[i] = hash_key(i, seed);
    qsort(e, n, sizeof *e, cmp_u32);
    return e;
}

static void append_produce(ze_command_list_handle_t list, void *keys, void *count, uint32_t n,
                           uint32_t seed, ze_event_handle_t signal, uint32_t nwait,
                           ze_event_handle_t *wait)
{
    ZE_OK(zeKernelSetArgumentValue(g.produce, 0, sizeof keys, &keys));
    ZE_OK(zeKernelSetArgumentValue(g.produce, 1, sizeof count, &count));
    ZE_OK(zeKernelSetArgumentValue(g.produce, 2, sizeof n, &n));
    ZE_OK(zeKernelSetArgumentValue(g.produce, 3, sizeof seed, &seed));
    ze_group_count_t gc = {(n + 63) / 64 ? (n + 63) / 64 : 1, 1, 1};
    ZE_OK(zeCommandListAppendLaunchKernel(list, g.produce, &gc, signal, nwait, wait));
}

static void append_consume(ze_command_list_handle_t list, void *keys, void *out, void *count,
                           uint32_t max_n, ze_event_handle_t signal, uint32_t nwait,
                           ze_event_handle_t *wait)
{
    ZE_OK(zeKernelSetArgumentValue(g.consume, 0, sizeof keys, &keys));
    ZE_OK(zeKernelSetArgumentValue(g.consume, 1, sizeof out, &out));
    ZE_OK(zeKernelSetArgumentValue(g.consume, 2, sizeof count, &count));
    ze_group_count_t gc = {(max_n + 63) / 64 ? (max_n + 63) / 64 : 1, 1, 1};
    ZE_OK(zeCommandListAppendLaunchKernel(list, g.consume, &gc, signal, nwait, wait));
}

/* A regular command list and a queue that executes it. */
static void regular_list_create(ze_command_queue_handle_t *q, ze_command_list_handle_t *list)
{
    ze_command_queue_desc_t qd = {.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                  .ordinal = g.ordinal,
                                  .mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS};
    ZE_OK(zeCommandQueueCreate(g.ctx, g.device, &qd, q));
    ze_command_list_desc_t ld = {.stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC,
                                 .commandQueueGroupOrdinal = g.ordinal};
    ZE_OK(zeCommandListCreate(g.ctx, g.device, &ld, list));
}

static void regular_list_destroy(ze_command_queue_handle_t q, ze_command_list_handle_t list)
{
    ZE_OK(zeCommandListDestroy(list));
    ZE_OK(zeCommandQueueDestroy(q));
}

static void *temp_for(uint64_t n, const zesort_options *o, uint64_t *bytes)
{
    ck_assert_int_eq(zesort_ze_temp_bytes(g.sorter, n, 0, o, bytes), ZESORT_OK);
    return dev_alloc((size_t)*bytes);
}

/* ---- chained appends: the caller's events instead of barriers -------- */

#define CHAIN_MAX 512
static struct {
    ze_event_pool_handle_t pool;
    ze_event_handle_t ev[CHAIN_MAX];
    /* the test driver's call counter (zeCommandListAppendBarrier calls) */
    void (*arm)(int mode, uint64_t k, int32_t result);
    uint64_t (*count)(int mode);
    uint32_t used; /* chain events of the newest chained append */
} chain;

/* The chain events (device-scoped, as zesort_ze.h asks) and the driver's
 * barrier counter, made on first use. */
static void chain_setup(void)
{
    if (chain.pool)
        return;
    ze_event_pool_desc_t pd = {.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC,
                               .flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE, .count = CHAIN_MAX};
    ZE_OK(zeEventPoolCreate(g.ctx, &pd, 1, &g.device, &chain.pool));
    for (uint32_t i = 0; i < CHAIN_MAX; i++) {
        ze_event_desc_t ed = {.stype = ZE_STRUCTURE_TYPE_EVENT_DESC, .index = i,
                              .signal = ZE_EVENT_SCOPE_FLAG_DEVICE,
                              .wait = ZE_EVENT_SCOPE_FLAG_DEVICE};
        ZE_OK(zeEventCreate(chain.pool, &ed, &chain.ev[i]));
    }
    const char *path = getenv("ZE_ENABLE_ALT_DRIVERS");
    void *h = path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;
    ck_assert_msg(h, "the test driver is not loaded (ZE_ENABLE_ALT_DRIVERS=%s)", path ? path : "");
    *(void **)&chain.arm = dlsym(h, "zecl_test_fault_arm");
    *(void **)&chain.count = dlsym(h, "zecl_test_fault_count");
    dlclose(h); /* the loader keeps it loaded */
    ck_assert(chain.arm && chain.count);
}

static void chain_teardown(void)
{
    if (!chain.pool)
        return;
    for (uint32_t i = 0; i < CHAIN_MAX; i++)
        zeEventDestroy(chain.ev[i]);
    zeEventPoolDestroy(chain.pool);
}

/* Chain events a sort needs, reset so that they can be used (again). */
static uint32_t chain_ready(uint64_t n, int pairs, int indirect, const zesort_options *o)
{
    chain_setup();
    uint32_t need = UINT32_MAX;
    ck_assert_msg(zesort_ze_chain_events(g.sorter, n, pairs, indirect, o, &need) == ZESORT_OK, "%s",
                  zesort_ze_last_error(g.sorter));
    ck_assert_uint_le(need, CHAIN_MAX);
    for (uint32_t i = 0; i < need; i++)
        ZE_OK(zeEventHostReset(chain.ev[i]));
    return need;
}

/* Counting zeCommandListAppendBarrier calls from now (mode 3 of the driver's
 * counter: the injector stays off). */
static void barriers_count_from_now(void) { chain.arm(0, 0, 0); }
static uint64_t barriers_appended(void) { return chain.count(3); }

/* Appends a sort, barrier ordered or (chained) ordered by the caller's events
 * only; for a chained sort, checks that it appended no barrier. */
static zesort_status append_either(int chained, ze_command_list_handle_t list, void *keys,
                                   uint32_t *values, uint64_t n, const uint32_t *n_devptr,
                                   void *temp, uint64_t tb, const zesort_options *o,
                                   ze_event_handle_t signal, uint32_t nwait,
                                   ze_event_handle_t *wait)
{
    if (!chained)
        return n_devptr ? zesort_ze_append_sort_indirect(g.sorter, list, keys, values, n_devptr, n,
                                                         temp, tb, o, signal, nwait, wait)
                        : zesort_ze_append_sort(g.sorter, list, keys, values, n, temp, tb, o,
                                                signal, nwait, wait);
    uint32_t need = chain_ready(n, values != NULL, n_devptr != NULL, o);
    barriers_count_from_now();
    zesort_status st = zesort_ze_append_sort_chained(g.sorter, list, keys, values, n, n_devptr,
                                                     temp, tb, o, signal, nwait, wait, need,
                                                     chain.ev);
    if (st == ZESORT_OK && n > 0)
        ck_assert_msg(barriers_appended() == 0, "a chained sort appended %llu barriers",
                      (unsigned long long)barriers_appended());
    chain.used = need;
    return st;
}

/* After a chained sort completed: every chain event it was given was
 * signalled (each of its commands signalled its own event). */
static void check_chain_signalled(int chained)
{
    for (uint32_t i = 0; chained && i < chain.used; i++)
        ck_assert_msg(zeEventQueryStatus(chain.ev[i]) == ZE_RESULT_SUCCESS,
                      "chain event %u of %u was not signalled", i, chain.used);
}

/* producer -> sort -> consumer on `list`, chained by events; checks out. */
static void pipeline(ze_command_list_handle_t list, ze_command_queue_handle_t queue, uint32_t n,
                     zesort_algo algo, int chained)
{
    reset_events();
    zesort_options o;
    zesort_options_default(&o);
    o.algo = algo;
    uint64_t tb;
    void *temp = temp_for(n, &o, &tb);
    void *keys = dev_alloc(n * 4u), *out = dev_alloc(n * 4u), *count = dev_alloc(4);

    append_produce(list, keys, count, n, 12345u, g.ev[0], 0, NULL);
    zesort_status st = append_either(chained, list, keys, NULL, n, NULL, temp, tb, &o, g.ev[1], 1,
                                     &g.ev[0]);
    ck_assert_msg(st == ZESORT_OK, "append_sort: %s", zesort_ze_last_error(g.sorter));
    append_consume(list, keys, out, count, n, g.ev[2], 1, &g.ev[1]);
    if (queue) {
        ZE_OK(zeCommandListClose(list));
        ZE_OK(zeCommandQueueExecuteCommandLists(queue, 1, &list, NULL));
        ZE_OK(zeCommandQueueSynchronize(queue, UINT64_MAX));
    }
    ZE_OK(zeEventHostSynchronize(g.ev[2], UINT64_MAX));
    check_chain_signalled(chained);

    uint32_t *got = malloc(n * 4u + 4), *want = expected_sorted(n, 12345u);
    read_back(got, out, n * 4u);
    for (uint32_t i = 0; i < n; i++)
        ck_assert_msg(got[i] == want[i] + 1u, "n=%u: out[%u] = %08x, want %08x", n, i, got[i],
                      want[i] + 1u);
    free(got);
    free(want);
    zeMemFree(g.ctx, keys);
    zeMemFree(g.ctx, out);
    zeMemFree(g.ctx, count);
    zeMemFree(g.ctx, temp);
}

/* ---- tests: pipelines ------------------------------------------------ */

START_TEST(pipeline_immediate_cm4)
{
    pipeline(g.imm, NULL, 100003, ZESORT_ALGO_CM4, 0);
}
END_TEST

START_TEST(pipeline_immediate_cm2)
{
    pipeline(g.imm, NULL, 4097, ZESORT_ALGO_CM2, 0);
}
END_TEST

START_TEST(pipeline_immediate_onesweep)
{
    pipeline(g.imm, NULL, 100003, ZESORT_ALGO_ONESWEEP, 0);
}
END_TEST

START_TEST(pipeline_small_sizes)
{
    static const uint32_t sizes[] = {1, 31, 32, 255, 256, 257};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        pipeline(g.imm, NULL, sizes[i], ZESORT_ALGO_AUTO, 0);
}
END_TEST

START_TEST(pipeline_regular_list)
{
    ze_command_queue_handle_t q;
    ze_command_list_handle_t list;
    regular_list_create(&q, &list);
    pipeline(list, q, 65537, ZESORT_ALGO_CM4, 0);
    regular_list_destroy(q, list);
}
END_TEST

/* The count comes from the producer kernel; grids are sized for max_n; keys
 * beyond the count are not touched. */
START_TEST(indirect_count)
{
    reset_events();
    const uint32_t max_n = 70000, n = 54321;
    uint64_t tb;
    void *temp = temp_for(max_n, NULL, &tb);
    void *keys = dev_alloc(max_n * 4u), *out = dev_alloc(max_n * 4u), *count = dev_alloc(4);
    uint32_t sentinel = 0x5A5A5A5Au;
    ZE_OK(zeCommandListAppendMemoryFill(g.imm, keys, &sentinel, 4, max_n * 4u, NULL, 0, NULL));
    ZE_OK(zeCommandListAppendBarrier(g.imm, NULL, 0, NULL));
    append_produce(g.imm, keys, count, n, 777u, g.ev[0], 0, NULL);
    zesort_status st = zesort_ze_append_sort_indirect(g.sorter, g.imm, keys, NULL, count, max_n, temp, tb,
                                                      NULL, g.ev[1], 1, &g.ev[0]);
    ck_assert_msg(st == ZESORT_OK, "append_sort_indirect: %s", zesort_ze_last_error(g.sorter));
    append_consume(g.imm, keys, out, count, max_n, g.ev[2], 1, &g.ev[1]);
    ZE_OK(zeEventHostSynchronize(g.ev[2], UINT64_MAX));

    uint32_t *got = malloc(max_n * 4u), *want = expected_sorted(n, 777u);
    read_back(got, out, n * 4u);
    for (uint32_t i = 0; i < n; i++)
        ck_assert_msg(got[i] == want[i] + 1u, "out[%u] = %08x, want %08x", i, got[i], want[i] + 1u);
    read_back(got, keys, max_n * 4u);
    for (uint32_t i = 0; i < n; i++)
        ck_assert_msg(got[i] == want[i], "keys[%u] = %08x, want %08x", i, got[i], want[i]);
    for (uint32_t i = n; i < max_n; i++)
        ck_assert_msg(got[i] == sentinel, "keys[%u] beyond the count changed: %08x", i, got[i]);
    free(got);
    free(want);
    zeMemFree(g.ctx, keys);
    zeMemFree(g.ctx, out);
    zeMemFree(g.ctx, count);
    zeMemFree(g.ctx, temp);
}
END_TEST

/* A regular list holding only an indirect sort, executed twice: each
 * execution reads the count produced just before it. Chained, the caller
 * resets the chain events (and the signal event) between executions. */
static void reexecute_indirect(int chained)
{
    reset_events();
    const uint32_t max_n = 20000, n1 = 19999, n2 = 777;
    ze_command_queue_handle_t q;
    ze_command_list_handle_t list;
    regular_list_create(&q, &list);
    uint64_t tb;
    void *temp = temp_for(max_n, NULL, &tb);
    void *keys = dev_alloc(max_n * 4u), *count = dev_alloc(4);
    ze_event_handle_t done = chained ? g.ev[4] : NULL;
    zesort_status st = append_either(chained, list, keys, NULL, max_n, count, temp, tb, NULL, done,
                                     0, NULL);
    ck_assert_msg(st == ZESORT_OK, "%s", zesort_ze_last_error(g.sorter));
    ZE_OK(zeCommandListClose(list));

    uint32_t *got = malloc(max_n * 4u);
    const uint32_t counts[2] = {n1, n2}, seeds[2] = {11u, 22u};
    for (int round = 0; round < 2; round++) {
        uint32_t n = counts[round];
        append_produce(g.imm, keys, count, n, seeds[round], g.ev[round], 0, NULL);
        ZE_OK(zeEventHostSynchronize(g.ev[round], UINT64_MAX));
        ZE_OK(zeCommandQueueExecuteCommandLists(q, 1, &list, NULL));
        ZE_OK(zeCommandQueueSynchronize(q, UINT64_MAX));
        if (chained) {
            ZE_OK(zeEventQueryStatus(done));
            check_chain_signalled(1);
            chain_ready(max_n, 0, 1, NULL);
            ZE_OK(zeEventHostReset(done));
        }
        uint32_t *want = expected_sorted(n, seeds[round]);
        read_back(got, keys, n * 4u);
        ck_assert_msg(memcmp(got, want, n * 4u) == 0, "execution %d (n=%u%s) not sorted",
                      round + 1, n, chained ? ", chained" : "");
        free(want);
    }
    free(got);
    regular_list_destroy(q, list);
    zeMemFree(g.ctx, keys);
    zeMemFree(g.ctx, count);
    zeMemFree(g.ctx, temp);
}

START_TEST(regular_list_reexecuted_indirect)
{
    reexecute_indirect(0);
}
END_TEST

/* ---- tests: chained appends ------------------------------------------ */

START_TEST(chained_pipelines)
{
    pipeline(g.imm, NULL, 100003, ZESORT_ALGO_CM4, 1);
    pipeline(g.imm, NULL, 4097, ZESORT_ALGO_CM2, 1);
    pipeline(g.imm, NULL, 100003, ZESORT_ALGO_ONESWEEP, 1);
    static const uint32_t sizes[] = {1, 2, 31, 257};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        pipeline(g.imm, NULL, sizes[i], ZESORT_ALGO_AUTO, 1);
}
END_TEST

START_TEST(chained_regular_lists)
{
    ze_command_queue_handle_t q;
    ze_command_list_handle_t list;
    regular_list_create(&q, &list);
    pipeline(list, q, 65537, ZESORT_ALGO_ONESWEEP, 1);
    regular_list_destroy(q, list);
    reexecute_indirect(1);
}
END_TEST

/* Refusals of the chained append leave the list untouched; n = 0 signals. */
START_TEST(chained_errors)
{
    reset_events();
    const uint64_t n = 5000; /* above the one launch of a small sort */
    uint64_t tb;
    void *temp = temp_for(n, NULL, &tb);
    void *keys = dev_alloc(n * 4);
    uint32_t pattern = 0x01020304u;
    ZE_OK(zeCommandListAppendMemoryFill(g.imm, keys, &pattern, 4, n * 4, NULL, 0, NULL));
    zesort_ze_sorter *s = g.sorter;
    uint32_t need = chain_ready(n, 0, 0, NULL);
    ck_assert_uint_ge(need, 3); /* at least the fill, a count and a scatter kernel */

    barriers_count_from_now();
    uint64_t calls = chain.count(1);
    ck_assert_int_eq(zesort_ze_append_sort_chained(s, g.imm, keys, NULL, n, NULL, temp, tb, NULL,
                                                   g.ev[1], 0, NULL, need - 1, chain.ev),
                     ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_msg(contains(zesort_ze_last_error(s), "chain events"), "%s", zesort_ze_last_error(s));
    ck_assert_int_eq(zesort_ze_append_sort_chained(s, g.imm, keys, NULL, n, NULL, temp, tb, NULL,
                                                   g.ev[1], 0, NULL, need, NULL),
                     ZESORT_ERROR_INVALID_ARGUMENT);
    ze_event_handle_t bad[CHAIN_MAX];
    memcpy(bad, chain.ev, need * sizeof bad[0]);
    bad[need / 2] = NULL;
    ck_assert_int_eq(zesort_ze_append_sort_chained(s, g.imm, keys, NULL, n, NULL, temp, tb, NULL,
                                                   g.ev[1], 0, NULL, need, bad),
                     ZESORT_ERROR_INVALID_ARGUMENT);
    bad[need / 2] = g.ev[1];
    ck_assert_int_eq(zesort_ze_append_sort_chained(s, g.imm, keys, NULL, n, NULL, temp, tb, NULL,
                                                   g.ev[1], 0, NULL, need, bad),
                     ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_msg(contains(zesort_ze_last_error(s), "signal event"), "%s", zesort_ze_last_error(s));
    /* also the checks the plain appends make (here: temp too small) */
    ck_assert_int_eq(zesort_ze_append_sort_chained(s, g.imm, keys, NULL, n, NULL, temp, tb - 1,
                                                   NULL, g.ev[1], 0, NULL, need, chain.ev),
                     ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_uint_eq(chain.count(1), calls); /* no driver call: nothing appended */

    uint32_t c;
    ck_assert_int_eq(zesort_ze_chain_events(NULL, n, 0, 0, NULL, &c), ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(zesort_ze_chain_events(s, n, 0, 0, NULL, NULL), ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(zesort_ze_chain_events(s, ZESORT_MAX_KEYS + 1, 0, 0, NULL, &c),
                     ZESORT_ERROR_TOO_LARGE);
    ck_assert_int_eq(zesort_ze_chain_events(s, 0, 1, 1, NULL, &c), ZESORT_OK);
    ck_assert_uint_eq(c, 0);

    /* n = 0: no command, but the signal event follows the wait events */
    ZE_OK(zeEventHostSignal(g.ev[2]));
    ck_assert_int_eq(zesort_ze_append_sort_chained(s, g.imm, NULL, NULL, 0, NULL, NULL, 0, NULL,
                                                   g.ev[3], 1, &g.ev[2], 0, NULL),
                     ZESORT_OK);
    ZE_OK(zeEventHostSynchronize(g.ev[3], UINT64_MAX));

    /* and after the refusals, a chained sort of the same keys works */
    ck_assert_int_eq(append_either(1, g.imm, keys, NULL, n, NULL, temp, tb, NULL, g.ev[1], 0, NULL),
                     ZESORT_OK);
    ZE_OK(zeEventHostSynchronize(g.ev[1], UINT64_MAX));
    zeMemFree(g.ctx, keys);
    zeMemFree(g.ctx, temp);
}
END_TEST

/* Two sorts (cm2 then cm4) appended to one list, sharing one temp buffer,
 * with no events in between: the sort's barriers order them. */
START_TEST(two_sorts_one_list)
{
    reset_events();
    const uint32_t n1 = 30000, n2 = 9999;
    zesort_options o2, o4;
    zesort_options_default(&o2);
    zesort_options_default(&o4);
    o2.algo = ZESORT_ALGO_CM2;
    o4.algo = ZESORT_ALGO_CM4;
    uint64_t t1, t2;
    ck_assert_int_eq(zesort_ze_temp_bytes(g.sorter, n1, 0, &o2, &t1), ZESORT_OK);
    ck_assert_int_eq(zesort_ze_temp_bytes(g.sorter, n2, 0, &o4, &t2), ZESORT_OK);
    uint64_t tb = t1 > t2 ? t1 : t2;
    void *temp = dev_alloc((size_t)tb);
    void *a = dev_alloc(n1 * 4u), *b = dev_alloc(n2 * 4u), *count = dev_alloc(4);
    append_produce(g.imm, a, count, n1, 1u, NULL, 0, NULL);
    append_produce(g.imm, b, count, n2, 2u, g.ev[0], 0, NULL);
    /* ev[0] covers both producers only through the sort's leading barrier. */
    ck_assert_int_eq(zesort_ze_append_sort(g.sorter, g.imm, a, NULL, n1, temp, tb, &o2, NULL, 1, &g.ev[0]),
                     ZESORT_OK);
    ck_assert_int_eq(zesort_ze_append_sort(g.sorter, g.imm, b, NULL, n2, temp, tb, &o4, g.ev[1], 0, NULL),
                     ZESORT_OK);
    ZE_OK(zeEventHostSynchronize(g.ev[1], UINT64_MAX));
    uint32_t *got = malloc(n1 * 4u);
    uint32_t *w1 = expected_sorted(n1, 1u), *w2 = expected_sorted(n2, 2u);
    read_back(got, a, n1 * 4u);
    ck_assert_msg(memcmp(got, w1, n1 * 4u) == 0, "first sort (cm2) wrong");
    read_back(got, b, n2 * 4u);
    ck_assert_msg(memcmp(got, w2, n2 * 4u) == 0, "second sort (cm4) wrong");
    free(got);
    free(w1);
    free(w2);
    zeMemFree(g.ctx, a);
    zeMemFree(g.ctx, b);
    zeMemFree(g.ctx, count);
    zeMemFree(g.ctx, temp);
}
END_TEST

/* n = 0: no temp memory needed, nothing sorted, the event is still signalled. */
START_TEST(empty_sort_signals)
{
    reset_events();
    uint64_t tb = 1;
    ck_assert_int_eq(zesort_ze_temp_bytes(g.sorter, 0, 0, NULL, &tb), ZESORT_OK);
    ck_assert_uint_eq(tb, 0);
    ZE_OK(zeEventHostSignal(g.ev[0]));
    ck_assert_int_eq(zesort_ze_append_sort(g.sorter, g.imm, NULL, NULL, 0, NULL, 0, NULL, g.ev[1], 1, &g.ev[0]),
                     ZESORT_OK);
    ZE_OK(zeEventHostSynchronize(g.ev[1], UINT64_MAX));
    ck_assert_int_eq(zesort_ze_append_sort_indirect(g.sorter, g.imm, NULL, NULL, NULL, 0, NULL, 0, NULL,
                                                    g.ev[2], 0, NULL),
                     ZESORT_OK);
    ZE_OK(zeEventHostSynchronize(g.ev[2], UINT64_MAX));
}
END_TEST

/* ---- tests: key types, values, order, bit ranges --------------------- */

static void upload(void *dst, const void *src, size_t bytes)
{
    if (bytes > g.host_bytes) {
        if (g.host)
            zeMemFree(g.ctx, g.host);
        ze_host_mem_alloc_desc_t d = {.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
        ZE_OK(zeMemAllocHost(g.ctx, &d, bytes, 64, &g.host));
        g.host_bytes = bytes;
    }
    memcpy(g.host, src, bytes);
    ze_event_handle_t e = g.ev[7];
    ZE_OK(zeCommandListAppendBarrier(g.imm, NULL, 0, NULL));
    ZE_OK(zeCommandListAppendMemoryCopy(g.imm, dst, g.host, bytes, e, 0, NULL));
    ZE_OK(zeEventHostSynchronize(e, UINT64_MAX));
    ZE_OK(zeEventHostReset(e));
}

/* Key bits in the unsigned order the sort uses (IEEE totalOrder for floats). */
static uint64_t ordered_key(const void *keys, uint64_t i, zesort_key_type t)
{
    if (t == ZESORT_KEY_U64 || t == ZESORT_KEY_I64 || t == ZESORT_KEY_F64) {
        uint64_t k;
        memcpy(&k, (const char *)keys + 8 * i, 8);
        const uint64_t sign = UINT64_C(1) << 63;
        return t == ZESORT_KEY_U64 ? k : t == ZESORT_KEY_I64 ? k ^ sign : (k & sign) ? ~k : k | sign;
    }
    uint32_t k;
    memcpy(&k, (const char *)keys + 4 * i, 4);
    const uint32_t sign = 0x80000000u;
    return t == ZESORT_KEY_U32 ? k : t == ZESORT_KEY_I32 ? k ^ sign : (k & sign) ? ~k : k | sign;
}

typedef struct ref_item {
    uint64_t digit; /* bits [lo, hi) of the ordered key */
    uint32_t index;
} ref_item;

static int ref_descending;
static int cmp_ref(const void *x, const void *y)
{
    const ref_item *a = x, *b = y;
    if (a->digit != b->digit)
        return (a->digit < b->digit) == !ref_descending ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index); /* stable */
}

typedef struct sort_case {
    zesort_key_type type;
    zesort_algo algo;
    int descending, pairs, indirect;
    unsigned lo, hi; /* 0, 0: all bits */
} sort_case;

static void run_case(const sort_case *c, uint32_t n, uint32_t max_n, int chained)
{
    reset_events();
    const unsigned kbytes = c->type >= ZESORT_KEY_U64 ? 8 : 4;
    zesort_options o;
    zesort_options_default(&o);
    o.key_type = c->type;
    o.algo = c->algo;
    o.descending = c->descending;
    o.bit_lo = c->lo;
    o.bit_hi = c->hi; /* 0:0 = all bits */
    uint64_t tb;
    ck_assert_int_eq(zesort_ze_temp_bytes(g.sorter, max_n, c->pairs, &o, &tb), ZESORT_OK);

    /* keys: half from a pool of 40 values (many duplicates, to see stability),
     * half random bits (for floats: NaNs, infinities, zeros and subnormals). */
    unsigned char *keys = malloc((size_t)max_n * kbytes), *got = malloc((size_t)max_n * kbytes);
    uint32_t *values = malloc(max_n * 4u), *got_values = malloc(max_n * 4u);
    uint64_t pool[40];
    for (int i = 0; i < 40; i++)
        pool[i] = (uint64_t)hash_key((uint32_t)i, 99u) << 32 | hash_key((uint32_t)i, 98u);
    pool[0] = 0;
    pool[1] = UINT64_C(0x8000000080000000); /* -0.0 as f32 (low half) and f64 */
    pool[2] = UINT64_C(0x7ff000007f800000); /* +inf */
    pool[3] = UINT64_C(0xfff00000ff800000); /* -inf */
    for (uint32_t i = 0; i < max_n; i++) {
        uint32_t h = hash_key(i, 5u);
        uint64_t k = (h & 1) ? pool[h % 40] : (uint64_t)hash_key(i, 6u) << 32 | hash_key(i, 7u);
        if (kbytes == 4) {
            uint32_t k32 = (uint32_t)k;
            memcpy(keys + 4 * i, &k32, 4);
        } else {
            memcpy(keys + 8 * i, &k, 8);
        }
        values[i] = i;
    }
    void *dkeys = dev_alloc((size_t)max_n * kbytes), *dvalues = dev_alloc(max_n * 4u);
    void *temp = dev_alloc((size_t)tb), *count = dev_alloc(4);
    upload(dkeys, keys, (size_t)max_n * kbytes);
    upload(dvalues, values, max_n * 4u);
    upload(count, &n, 4);

    zesort_status st = append_either(chained, g.imm, dkeys, c->pairs ? dvalues : NULL,
                                     c->indirect ? max_n : n, c->indirect ? count : NULL, temp,
                                     tb, &o, g.ev[0], 0, NULL);
    ck_assert_msg(st == ZESORT_OK, "%s", zesort_ze_last_error(g.sorter));
    ZE_OK(zeEventHostSynchronize(g.ev[0], UINT64_MAX));
    check_chain_signalled(chained);
    read_back(got, dkeys, (size_t)max_n * kbytes);
    read_back(got_values, dvalues, max_n * 4u);

    /* an indirect count above max_n sorts the first max_n keys (the clamp) */
    if (n > max_n)
        n = max_n;
    ref_item *ref = malloc((n ? n : 1) * sizeof *ref);
    unsigned width = (o.bit_hi ? o.bit_hi : 8 * kbytes) - o.bit_lo;
    uint64_t mask = width >= 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
    for (uint32_t i = 0; i < n; i++) {
        ref[i].digit = (ordered_key(keys, i, c->type) >> o.bit_lo) & mask;
        ref[i].index = i;
    }
    ref_descending = c->descending;
    qsort(ref, n, sizeof *ref, cmp_ref);
    for (uint32_t j = 0; j < n; j++) {
        ck_assert_msg(memcmp(got + (size_t)j * kbytes, keys + (size_t)ref[j].index * kbytes, kbytes) == 0,
                      "type %d algo %d desc %d bits %u:%u n=%u: key %u differs", c->type, c->algo,
                      c->descending, o.bit_lo, o.bit_hi, n, j);
        if (c->pairs)
            ck_assert_msg(got_values[j] == ref[j].index,
                          "type %d algo %d desc %d bits %u:%u n=%u: value %u is %u, want %u (stability)",
                          c->type, c->algo, c->descending, o.bit_lo, o.bit_hi, n, j, got_values[j],
                          ref[j].index);
    }
    /* beyond the count (indirect) and the values of keys-only sorts: untouched */
    for (uint32_t j = n; j < max_n; j++)
        ck_assert_msg(memcmp(got + (size_t)j * kbytes, keys + (size_t)j * kbytes, kbytes) == 0,
                      "type %d algo %d desc %d n=%u max_n=%u: key %u beyond the count changed",
                      c->type, c->algo, c->descending, n, max_n, j);
    if (!c->pairs)
        ck_assert(memcmp(got_values, values, max_n * 4u) == 0);
    free(ref);
    free(keys);
    free(got);
    free(values);
    free(got_values);
    zeMemFree(g.ctx, dkeys);
    zeMemFree(g.ctx, dvalues);
    zeMemFree(g.ctx, temp);
    zeMemFree(g.ctx, count);
}

START_TEST(key_types_values_order_bits)
{
    static const sort_case cases[] = {
        {ZESORT_KEY_U32, ZESORT_ALGO_CM4, 0, 1, 0, 0, 0},
        {ZESORT_KEY_U32, ZESORT_ALGO_CM2, 1, 1, 0, 0, 0},
        {ZESORT_KEY_I32, ZESORT_ALGO_CM4, 0, 0, 0, 0, 0},
        {ZESORT_KEY_I32, ZESORT_ALGO_CM2, 1, 1, 0, 0, 0},
        {ZESORT_KEY_F32, ZESORT_ALGO_CM4, 0, 1, 0, 0, 0},
        {ZESORT_KEY_F32, ZESORT_ALGO_CM4, 1, 1, 1, 0, 0},
        {ZESORT_KEY_U64, ZESORT_ALGO_CM4, 1, 1, 0, 0, 0},
        {ZESORT_KEY_I64, ZESORT_ALGO_CM2, 0, 0, 0, 0, 0},
        {ZESORT_KEY_F64, ZESORT_ALGO_CM4, 0, 1, 1, 0, 0},
        {ZESORT_KEY_U32, ZESORT_ALGO_CM4, 0, 1, 0, 4, 19},   /* partial last digit */
        {ZESORT_KEY_U32, ZESORT_ALGO_CM2, 1, 1, 1, 7, 8},    /* one bit */
        {ZESORT_KEY_U64, ZESORT_ALGO_CM4, 1, 1, 0, 20, 50},
        {ZESORT_KEY_F64, ZESORT_ALGO_CM2, 0, 1, 0, 32, 64},
        {ZESORT_KEY_U32, ZESORT_ALGO_ONESWEEP, 0, 1, 1, 0, 0},
        {ZESORT_KEY_I32, ZESORT_ALGO_ONESWEEP, 1, 0, 0, 0, 0},
        {ZESORT_KEY_F32, ZESORT_ALGO_ONESWEEP, 1, 1, 0, 0, 0},
        {ZESORT_KEY_U64, ZESORT_ALGO_ONESWEEP, 0, 1, 1, 0, 0},
        {ZESORT_KEY_F64, ZESORT_ALGO_ONESWEEP, 1, 1, 0, 0, 0},
        {ZESORT_KEY_U32, ZESORT_ALGO_ONESWEEP, 0, 1, 1, 5, 13}, /* one narrow pass + copy */
        {ZESORT_KEY_I64, ZESORT_ALGO_AUTO, 0, 1, 1, 3, 61},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_case(&cases[i], 5003, cases[i].indirect ? 6000 : 5003, 0);
        run_case(&cases[i], 1, cases[i].indirect ? 300 : 1, 0);
        /* the same through a chained append (an indirect count above max_n too) */
        run_case(&cases[i], cases[i].indirect ? 7000 : 5003, cases[i].indirect ? 6000 : 5003, 1);
    }
}
END_TEST

/* ---- tests: errors --------------------------------------------------- */

static int contains(const char *msg, const char *part)
{
    return msg && strstr(msg, part) != NULL;
}

START_TEST(create_null_handles)
{
    zesort_ze_sorter *s = (zesort_ze_sorter *)&s;
    ck_assert_int_eq(zesort_ze_create(NULL, g.device, &s), ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_ptr_null(s);
    ck_assert_msg(contains(zesort_ze_last_error(NULL), "context"), "%s", zesort_ze_last_error(NULL));
    ck_assert_int_eq(zesort_ze_create(g.ctx, NULL, &s), ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_msg(contains(zesort_ze_last_error(NULL), "device"), "%s", zesort_ze_last_error(NULL));
    ck_assert_int_eq(zesort_ze_create(g.ctx, g.device, NULL), ZESORT_ERROR_INVALID_ARGUMENT);
    zesort_ze_destroy(NULL); /* no-op */
}
END_TEST

START_TEST(append_invalid_arguments)
{
    uint64_t tb;
    const uint64_t n = 1000;
    void *temp = temp_for(n, NULL, &tb);
    void *keys = dev_alloc(n * 4);
    uint32_t pattern = 0x01020304u; /* the final sort must not read garbage */
    ZE_OK(zeCommandListAppendMemoryFill(g.imm, keys, &pattern, 4, n * 4, NULL, 0, NULL));
    zesort_ze_sorter *s = g.sorter;
    zesort_status st;

    st = zesort_ze_append_sort(NULL, g.imm, keys, NULL, n, temp, tb, NULL, NULL, 0, NULL);
    ck_assert_int_eq(st, ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_msg(contains(zesort_ze_last_error(NULL), "sorter"), "%s", zesort_ze_last_error(NULL));

    st = zesort_ze_append_sort(s, NULL, keys, NULL, n, temp, tb, NULL, NULL, 0, NULL);
    ck_assert_int_eq(st, ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_msg(contains(zesort_ze_last_error(s), "command list"), "%s", zesort_ze_last_error(s));

    st = zesort_ze_append_sort(s, g.imm, NULL, NULL, n, temp, tb, NULL, NULL, 0, NULL);
    ck_assert_int_eq(st, ZESORT_ERROR_INVALID_ARGUMENT);

    st = zesort_ze_append_sort(s, g.imm, keys, NULL, n, NULL, tb, NULL, NULL, 0, NULL);
    ck_assert_int_eq(st, ZESORT_ERROR_INVALID_ARGUMENT);

    /* n too large for the temp memory given */
    st = zesort_ze_append_sort(s, g.imm, keys, NULL, n, temp, tb / 2, NULL, NULL, 0, NULL);
    ck_assert_int_eq(st, ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_msg(contains(zesort_ze_last_error(s), "too small"), "%s", zesort_ze_last_error(s));
    st = zesort_ze_append_sort(s, g.imm, keys, NULL, 4 * n, temp, tb, NULL, NULL, 0, NULL);
    ck_assert_int_eq(st, ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_msg(contains(zesort_ze_last_error(s), "too small"), "%s", zesort_ze_last_error(s));
    st = zesort_ze_append_sort_indirect(s, g.imm, keys, NULL, temp, 4 * n, temp, tb, NULL, NULL, 0, NULL);
    ck_assert_int_eq(st, ZESORT_ERROR_INVALID_ARGUMENT);

    st = zesort_ze_append_sort(s, g.imm, keys, NULL, n, temp, tb, NULL, NULL, 2, NULL);
    ck_assert_int_eq(st, ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_msg(contains(zesort_ze_last_error(s), "wait"), "%s", zesort_ze_last_error(s));

    st = zesort_ze_append_sort_indirect(s, g.imm, keys, NULL, NULL, n, temp, tb, NULL, NULL, 0, NULL);
    ck_assert_int_eq(st, ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_msg(contains(zesort_ze_last_error(s), "n_devptr"), "%s", zesort_ze_last_error(s));

    st = zesort_ze_append_sort(s, g.imm, (char *)keys + 2, NULL, n - 1, temp, tb, NULL, NULL, 0, NULL);
    ck_assert_int_eq(st, ZESORT_ERROR_INVALID_ARGUMENT);

    uint64_t big;
    ck_assert_int_eq(zesort_ze_temp_bytes(s, ZESORT_MAX_KEYS + 1, 0, NULL, &big), ZESORT_ERROR_TOO_LARGE);
    ck_assert_int_eq(zesort_ze_temp_bytes(NULL, n, 0, NULL, &big), ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(zesort_ze_temp_bytes(s, n, 0, NULL, NULL), ZESORT_ERROR_INVALID_ARGUMENT);

    /* The list is still usable after all those refusals. */
    reset_events();
    ck_assert_int_eq(zesort_ze_append_sort(s, g.imm, keys, NULL, n, temp, tb, NULL, g.ev[3], 0, NULL), ZESORT_OK);
    ZE_OK(zeEventHostSynchronize(g.ev[3], UINT64_MAX));
    zeMemFree(g.ctx, keys);
    zeMemFree(g.ctx, temp);
}
END_TEST

START_TEST(unsupported_options)
{
    zesort_options o;
    uint64_t tb, tb_pairs;
    zesort_options_default(&o);
    o.scan = ZESORT_SCAN_HOST;
    o.algo = ZESORT_ALGO_CM4;
    ck_assert_int_eq(zesort_ze_temp_bytes(g.sorter, 100, 0, &o, &tb), ZESORT_ERROR_UNSUPPORTED);
    ck_assert_msg(contains(zesort_ze_last_error(g.sorter), "host"), "%s", zesort_ze_last_error(g.sorter));
    o.algo = ZESORT_ALGO_CM2;
    ck_assert_int_eq(zesort_ze_temp_bytes(g.sorter, 100, 0, &o, &tb), ZESORT_ERROR_UNSUPPORTED);
    o.algo = ZESORT_ALGO_ONESWEEP; /* no prefix step: the scan mode does not apply */
    ck_assert_int_eq(zesort_ze_temp_bytes(g.sorter, 100, 0, &o, &tb), ZESORT_OK);
    zesort_options_default(&o);
    o.algo = ZESORT_ALGO_ONESWEEP;
    /* ZESORT_MAX_KEYS is onesweep's limit too (issue 12) */
    ck_assert_int_eq(zesort_ze_temp_bytes(g.sorter, ZESORT_MAX_KEYS, 0, &o, &tb), ZESORT_OK);
    ck_assert_int_eq(zesort_ze_temp_bytes(g.sorter, ZESORT_MAX_KEYS + 1, 0, &o, &tb), ZESORT_ERROR_TOO_LARGE);
    zesort_options_default(&o);
    o.bit_lo = 40;
    ck_assert_int_eq(zesort_ze_temp_bytes(g.sorter, 100, 0, &o, &tb), ZESORT_ERROR_INVALID_ARGUMENT);
    o.bit_lo = 8;
    o.bit_hi = 8;
    ck_assert_int_eq(zesort_ze_temp_bytes(g.sorter, 100, 0, &o, &tb), ZESORT_ERROR_INVALID_ARGUMENT);
    o.bit_hi = 33;
    ck_assert_int_eq(zesort_ze_temp_bytes(g.sorter, 100, 0, &o, &tb), ZESORT_ERROR_INVALID_ARGUMENT);
    zesort_options_default(&o);
    o.algo = (zesort_algo)99;
    ck_assert_int_eq(zesort_ze_temp_bytes(g.sorter, 100, 0, &o, &tb), ZESORT_ERROR_INVALID_ARGUMENT);
    o.algo = ZESORT_ALGO_AUTO;
    o.key_type = (zesort_key_type)17;
    ck_assert_int_eq(zesort_ze_temp_bytes(g.sorter, 100, 0, &o, &tb), ZESORT_ERROR_INVALID_ARGUMENT);
    /* values need room for their ping-pong partner */
    ck_assert_int_eq(zesort_ze_temp_bytes(g.sorter, 100000, 0, NULL, &tb), ZESORT_OK);
    ck_assert_int_eq(zesort_ze_temp_bytes(g.sorter, 100000, 1, NULL, &tb_pairs), ZESORT_OK);
    ck_assert_uint_ge(tb_pairs, tb + 100000 * 4);
}
END_TEST

/* A failure inside the driver while appending comes back as a clear error:
 * appending to a closed regular command list is refused by the driver. */
START_TEST(driver_refusal_is_reported)
{
    ze_command_list_desc_t ld = {.stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC,
                                 .commandQueueGroupOrdinal = g.ordinal};
    ze_command_list_handle_t list;
    ZE_OK(zeCommandListCreate(g.ctx, g.device, &ld, &list));
    ZE_OK(zeCommandListClose(list));
    uint64_t tb;
    void *temp = temp_for(1000, NULL, &tb);
    void *keys = dev_alloc(4000);
    zesort_status st = zesort_ze_append_sort(g.sorter, list, keys, NULL, 1000, temp, tb, NULL, NULL, 0, NULL);
    ck_assert_msg(st == ZESORT_ERROR_BACKEND || st == ZESORT_ERROR_UNSUPPORTED,
                  "append to a closed list gave %s", zesort_status_name(st));
    ck_assert_msg(contains(zesort_ze_last_error(g.sorter), "zeCommandList"), "%s",
                  zesort_ze_last_error(g.sorter));
    printf("append to a closed list: %s: %s\n", zesort_status_name(st), zesort_ze_last_error(g.sorter));
    zeCommandListDestroy(list);
    zeMemFree(g.ctx, keys);
    zeMemFree(g.ctx, temp);
}
END_TEST

static Suite *interop_suite(void)
{
    Suite *s = suite_create("ze-interop");
    TCase *tc = tcase_create("pipeline");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, pipeline_immediate_cm4);
    tcase_add_test(tc, pipeline_immediate_cm2);
    tcase_add_test(tc, pipeline_immediate_onesweep);
    tcase_add_test(tc, pipeline_small_sizes);
    tcase_add_test(tc, pipeline_regular_list);
    tcase_add_test(tc, indirect_count);
    tcase_add_test(tc, regular_list_reexecuted_indirect);
    tcase_add_test(tc, chained_pipelines);
    tcase_add_test(tc, chained_regular_lists);
    tcase_add_test(tc, two_sorts_one_list);
    tcase_add_test(tc, empty_sort_signals);
    tcase_add_test(tc, key_types_values_order_bits);
    suite_add_tcase(s, tc);
    TCase *te = tcase_create("errors");
    tcase_set_timeout(te, 600);
    tcase_add_test(te, create_null_handles);
    tcase_add_test(te, append_invalid_arguments);
    tcase_add_test(te, unsupported_options);
    tcase_add_test(te, driver_refusal_is_reported);
    tcase_add_test(te, chained_errors);
    suite_add_tcase(s, te);
    return s;
}

/* Which kernels the sorts run: the flavor the library picks for the default
 * Level Zero device (the interop API does not say; it picks the same way). */
static void print_flavor(void)
{
    zesort_context *ctx = NULL;
    if (zesort_create(ZESORT_BACKEND_LEVEL_ZERO, &ctx) != ZESORT_OK) {
        printf("flavor: unknown (%s)\n", zesort_last_error(NULL));
        return;
    }
    printf("device: %s, flavor %s\n", zesort_context_device(ctx), zesort_context_flavor(ctx));
    fflush(stdout);
    zesort_destroy(ctx);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_interop PIPELINE_KERNELS.spv\n");
        return 2;
    }
    spv_path = argv[1];
    ze_result_t r = zeInit(0);
    if (r != ZE_RESULT_SUCCESS) {
        /* Stop here: the Debian loader crashes on zeDriverGet after a failed zeInit. */
        printf("SKIP: no Level Zero driver (zeInit: 0x%x)\n", (unsigned)r);
        return 77;
    }
    if (find_device() != 0) {
        printf("SKIP: no Level Zero device\n");
        return 77;
    }
    setup_ze();
    print_flavor();
    SRunner *sr = srunner_create(interop_suite());
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    teardown_ze();
    return failed ? 1 : 0;
}
