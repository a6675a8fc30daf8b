/*
 * test_order.c — proves that the test driver's random command order
 * (tests/ze_cl_driver/README.md, "Execution order") is not a no-op: a
 * producer -> chained zesort sort -> consumer pipeline with one dependency
 * missing must give a wrong result for some seed, while the complete
 * pipeline is right for every seed and in order.
 *
 * The order is chosen once per process (ZE_CL_DRIVER_SEED, ZE_CL_DRIVER_ORDER
 * are read when the driver starts), so the test runs itself as a child per
 * setting: `test_order <pipeline_kernels.spv>` spawns
 * `test_order <spv> child` with each environment and reads one line per
 * variant ("<variant> ok" / "<variant> wrong"). Exit 77 (skip) when no Level
 * Zero driver is present.
 *
 * The sort is chained (zesort_ze_append_sort_chained): no barriers, so only
 * its events order it, as on a GPU. (A barrier-ordered sort orders the
 * commands after it by its barriers, whatever their wait events.)
 */
#include <level_zero/ze_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline_hash.h"
#include "zesort_ze.h"

enum { N = 4096, SEEDS = 8, CHAIN_MAX = 256 };

/* Which dependency of the pipeline is left out. */
static const char *const variants[] = {"complete", "consumer-skips-sort", "sort-skips-producer"};
enum { COMPLETE, CONSUMER_SKIPS_SORT, SORT_SKIPS_PRODUCER, NVARIANTS };

static struct {
    ze_device_handle_t device;
    ze_context_handle_t ctx;
    ze_module_handle_t module;
    ze_kernel_handle_t produce, consume;
    ze_event_pool_handle_t pool;
    ze_event_handle_t ev[3], chain[CHAIN_MAX];
    zesort_ze_sorter *sorter;
} z;

#define CHECK(call)                                                                   \
    do {                                                                              \
        ze_result_t r_ = (call);                                                      \
        if (r_ != ZE_RESULT_SUCCESS) {                                                \
            fprintf(stderr, "test_order: %s failed (0x%x)\n", #call, (unsigned)r_); \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

/* ---- child: one process, one order setting --------------------------- */

static int open_device(void)
{
    uint32_t n = 1;
    ze_driver_handle_t driver;
    if (zeInit(0) != ZE_RESULT_SUCCESS || zeDriverGet(&n, &driver) != ZE_RESULT_SUCCESS || n == 0)
        return -1;
    n = 1;
    if (zeDeviceGet(driver, &n, &z.device) != ZE_RESULT_SUCCESS || n == 0)
        return -1;
    ze_context_desc_t cd = {.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    CHECK(zeContextCreate(driver, &cd, &z.ctx));
    return 0;
}

static void load_kernels(const char *spv_path)
{
    FILE *f = fopen(spv_path, "rb");
    static unsigned char spv[1 << 20];
    size_t size = f ? fread(spv, 1, sizeof spv, f) : 0;
    if (f)
        fclose(f);
    if (size == 0) {
        fprintf(stderr, "test_order: cannot read %s\n", spv_path);
        exit(1);
    }
    ze_module_desc_t md = {.stype = ZE_STRUCTURE_TYPE_MODULE_DESC, .format = ZE_MODULE_FORMAT_IL_SPIRV,
                           .inputSize = size, .pInputModule = spv, .pBuildFlags = ""};
    CHECK(zeModuleCreate(z.ctx, z.device, &md, &z.module, NULL));
    ze_kernel_desc_t kd = {.stype = ZE_STRUCTURE_TYPE_KERNEL_DESC, .pKernelName = "produce"};
    CHECK(zeKernelCreate(z.module, &kd, &z.produce));
    kd.pKernelName = "consume";
    CHECK(zeKernelCreate(z.module, &kd, &z.consume));
    CHECK(zeKernelSetGroupSize(z.produce, 64, 1, 1));
    CHECK(zeKernelSetGroupSize(z.consume, 64, 1, 1));
}

static void make_events(void)
{
    ze_event_pool_desc_t pd = {.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC,
                               .flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE, .count = 3 + CHAIN_MAX};
    CHECK(zeEventPoolCreate(z.ctx, &pd, 1, &z.device, &z.pool));
    for (uint32_t i = 0; i < 3 + CHAIN_MAX; i++) {
        ze_event_desc_t ed = {.stype = ZE_STRUCTURE_TYPE_EVENT_DESC, .index = i,
                              .signal = ZE_EVENT_SCOPE_FLAG_DEVICE, .wait = ZE_EVENT_SCOPE_FLAG_DEVICE};
        CHECK(zeEventCreate(z.pool, &ed, i < 3 ? &z.ev[i] : &z.chain[i - 3]));
    }
}

static void *alloc(size_t bytes, int shared)
{
    ze_device_mem_alloc_desc_t dd = {.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    ze_host_mem_alloc_desc_t hd = {.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    void *p = NULL;
    if (shared)
        CHECK(zeMemAllocShared(z.ctx, &dd, &hd, bytes, 64, z.device, &p));
    else
        CHECK(zeMemAllocDevice(z.ctx, &dd, bytes, 64, z.device, &p));
    return p;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The keys produce() writes (pipeline_kernels.cl), sorted, plus one. */
static void expected(uint32_t *want, uint32_t seed)
{
    for (uint32_t i = 0; i < N; i++)
        want[i] = pipeline_hash(i, seed);
    qsort(want, N, sizeof *want, cmp_u32);
    for (uint32_t i = 0; i < N; i++)
        want[i] += 1;
}

/* producer -> chained sort -> consumer on a regular list, one dependency
 * possibly missing; 1 when the consumer's output is right. */
static int run_pipeline(int variant, uint32_t seed)
{
    uint32_t *keys = alloc(N * 4, 0), *count = alloc(4, 0), *out = alloc(N * 4, 1);
    uint32_t n = N, need = 0;
    uint64_t temp_bytes = 0;
    if (zesort_ze_temp_bytes(z.sorter, N, 0, NULL, &temp_bytes) != ZESORT_OK ||
        zesort_ze_chain_events(z.sorter, N, 0, 0, NULL, &need) != ZESORT_OK || need > CHAIN_MAX) {
        fprintf(stderr, "test_order: %s\n", zesort_ze_last_error(z.sorter));
        exit(1);
    }
    void *temp = alloc((size_t)temp_bytes, 0);
    memset(out, 0, N * 4);
    for (int i = 0; i < 3; i++)
        CHECK(zeEventHostReset(z.ev[i]));
    for (uint32_t i = 0; i < need; i++)
        CHECK(zeEventHostReset(z.chain[i]));

    ze_command_queue_desc_t qd = {.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                  .mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS};
    ze_command_queue_handle_t q;
    CHECK(zeCommandQueueCreate(z.ctx, z.device, &qd, &q));
    ze_command_list_desc_t ld = {.stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
    ze_command_list_handle_t l;
    CHECK(zeCommandListCreate(z.ctx, z.device, &ld, &l));

    ze_group_count_t groups = {N / 64, 1, 1};
    CHECK(zeKernelSetArgumentValue(z.produce, 0, sizeof keys, &keys));
    CHECK(zeKernelSetArgumentValue(z.produce, 1, sizeof count, &count));
    CHECK(zeKernelSetArgumentValue(z.produce, 2, sizeof n, &n));
    CHECK(zeKernelSetArgumentValue(z.produce, 3, sizeof seed, &seed));
    CHECK(zeCommandListAppendLaunchKernel(l, z.produce, &groups, z.ev[0], 0, NULL));
    uint32_t nwait = variant == SORT_SKIPS_PRODUCER ? 0 : 1;
    if (zesort_ze_append_sort_chained(z.sorter, l, keys, NULL, N, NULL, temp, temp_bytes, NULL, z.ev[1],
                                      nwait, &z.ev[0], need, z.chain) != ZESORT_OK) {
        fprintf(stderr, "test_order: append: %s\n", zesort_ze_last_error(z.sorter));
        exit(1);
    }
    CHECK(zeKernelSetArgumentValue(z.consume, 0, sizeof keys, &keys));
    CHECK(zeKernelSetArgumentValue(z.consume, 1, sizeof out, &out));
    CHECK(zeKernelSetArgumentValue(z.consume, 2, sizeof count, &count));
    CHECK(zeCommandListAppendLaunchKernel(l, z.consume, &groups, z.ev[2],
                                          variant == CONSUMER_SKIPS_SORT ? 0 : 1, &z.ev[1]));
    CHECK(zeCommandListClose(l));
    CHECK(zeCommandQueueExecuteCommandLists(q, 1, &l, NULL));
    CHECK(zeCommandQueueSynchronize(q, UINT64_MAX)); /* everything, whatever the order */

    static uint32_t want[N];
    expected(want, seed);
    int right = memcmp(out, want, sizeof want) == 0;
    CHECK(zeCommandListDestroy(l));
    CHECK(zeCommandQueueDestroy(q));
    void *mem[] = {keys, count, out, temp};
    for (int i = 0; i < 4; i++)
        CHECK(zeMemFree(z.ctx, mem[i]));
    return right;
}

static int child(const char *spv_path)
{
    if (open_device() != 0) {
        printf("skip\n");
        return 0;
    }
    load_kernels(spv_path);
    make_events();
    if (zesort_ze_create(z.ctx, z.device, &z.sorter) != ZESORT_OK) {
        fprintf(stderr, "test_order: zesort_ze_create: %s\n", zesort_ze_last_error(NULL));
        return 1;
    }
    for (int v = 0; v < NVARIANTS; v++)
        printf("%s %s\n", variants[v], run_pipeline(v, 777u + (uint32_t)v) ? "ok" : "wrong");
    zesort_ze_destroy(z.sorter);
    return 0;
}

/* ---- parent: one child per setting ------------------------------------ */

/* Runs the child with the given order settings; right[v] = 1 when variant
 * v was right. Returns 0, 77 (no driver) or 1 (the child failed). */
static int run_child(const char *self, const char *spv, const char *order, const char *seed, int *right)
{
    setenv("ZE_CL_DRIVER_ORDER", order, 1);
    setenv("ZE_CL_DRIVER_SEED", seed, 1);
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' '%s' child", self, spv);
    FILE *p = popen(cmd, "r");
    if (!p)
        return 1;
    char line[256];
    int got = 0, skip = 0;
    while (fgets(line, sizeof line, p)) {
        skip |= strcmp(line, "skip\n") == 0;
        for (int v = 0; v < NVARIANTS; v++) {
            size_t len = strlen(variants[v]);
            if (strncmp(line, variants[v], len) == 0 && line[len] == ' ') {
                right[v] = strcmp(line + len + 1, "ok\n") == 0;
                got++;
            }
        }
    }
    int status = pclose(p);
    if (skip)
        return 77;
    return status == 0 && got == NVARIANTS ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[2], "child") == 0)
        return child(argv[1]);
    if (argc != 2) {
        fprintf(stderr, "usage: test_order <pipeline_kernels.spv>\n");
        return 2;
    }
    int failed = 0, caught[NVARIANTS] = {0};
    for (int s = 0; s <= SEEDS; s++) {
        char seed[16];
        snprintf(seed, sizeof seed, "%d", s ? s : 1);
        const char *order = s ? "random" : "in-order";
        int right[NVARIANTS] = {0};
        int r = run_child(argv[0], argv[1], order, seed, right);
        if (r == 77) {
            printf("no Level Zero driver: skipped\n");
            return 77;
        }
        if (r != 0) {
            printf("ZE_CL_DRIVER_ORDER=%s ZE_CL_DRIVER_SEED=%s: the child failed\n", order, seed);
            return 1;
        }
        printf("ZE_CL_DRIVER_ORDER=%-8s ZE_CL_DRIVER_SEED=%s:", order, seed);
        for (int v = 0; v < NVARIANTS; v++) {
            printf(" %s %s", variants[v], right[v] ? "ok" : "WRONG");
            /* In order every variant happens to work; the complete
               pipeline must work in every order. */
            if (!right[v] && (s == 0 || v == COMPLETE))
                failed = 1;
            caught[v] |= s > 0 && !right[v];
        }
        printf("\n");
    }
    for (int v = 1; v < NVARIANTS; v++)
        if (!caught[v]) {
            printf("%s: right for all %d seeds: the random order did not catch it\n", variants[v], SEEDS);
            failed = 1;
        }
    return failed;
}
