/*
 * test_desc_matrix.c — zesort_ze_requirements + zesort_ze_append over every
 * combination the descriptor expresses (tests/common/desc_matrix.h), on the
 * Level Zero test driver (its command order: ZE_CL_DRIVER_SEED), barrier
 * ordered or chained by events of a pool of ours.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ze_api.h>
#include <zesort.h>
#include <zesort_ze.h>

static int failures;

#include "desc_matrix.h"
#include "zecl_hooks.h"

#define CHAIN_MAX 512

static struct {
    ze_driver_handle_t driver;
    ze_device_handle_t device;
    ze_context_handle_t ctx;
    ze_command_list_handle_t imm;
    ze_event_pool_handle_t pool, chain_pool;
    ze_event_handle_t done, chain[CHAIN_MAX];
    zesort_ze_sorter *sorter;
    zecl_hooks hooks; /* the test driver's launch counter */
} g;

#define ZE_OK(call)                                                                     \
    do {                                                                                \
        ze_result_t r_ = (call);                                                        \
        if (r_ != ZE_RESULT_SUCCESS) {                                                  \
            fprintf(stderr, "%s:%d: %s: 0x%x\n", __FILE__, __LINE__, #call, (unsigned)r_); \
            exit(1);                                                                    \
        }                                                                               \
    } while (0)

static ze_event_pool_handle_t pool_of(uint32_t count, ze_event_handle_t *ev,
                                      ze_event_scope_flags_t scope)
{
    ze_event_pool_handle_t pool;
    ze_event_pool_desc_t pd = {.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC,
                               .flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE, .count = count};
    ZE_OK(zeEventPoolCreate(g.ctx, &pd, 1, &g.device, &pool));
    for (uint32_t i = 0; i < count; i++) {
        ze_event_desc_t ed = {.stype = ZE_STRUCTURE_TYPE_EVENT_DESC, .index = i,
                              .signal = scope, .wait = scope};
        ZE_OK(zeEventCreate(pool, &ed, &ev[i]));
    }
    return pool;
}

static int setup(void)
{
    uint32_t n = 1;
    if (zeInit(0) != ZE_RESULT_SUCCESS || zeDriverGet(&n, &g.driver) != ZE_RESULT_SUCCESS ||
        n == 0 || zeDeviceGet(g.driver, &n, &g.device) != ZE_RESULT_SUCCESS || n == 0)
        return -1;
    ze_context_desc_t cd = {.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    ZE_OK(zeContextCreate(g.driver, &cd, &g.ctx));
    ze_command_queue_desc_t qd = {.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                  .mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS};
    ZE_OK(zeCommandListCreateImmediate(g.ctx, g.device, &qd, &g.imm));
    g.pool = pool_of(1, &g.done, ZE_EVENT_SCOPE_FLAG_HOST);
    g.chain_pool = pool_of(CHAIN_MAX, g.chain, ZE_EVENT_SCOPE_FLAG_DEVICE);
    if (zecl_hooks_find(&g.hooks) != 0) {
        fprintf(stderr, "the test driver's hooks are not loaded (ZE_ENABLE_ALT_DRIVERS)\n");
        exit(1);
    }
    g.hooks.arm(0, 0, 0); /* count only */
    if (zesort_ze_create(g.ctx, g.device, &g.sorter) != ZESORT_OK) {
        fprintf(stderr, "zesort_ze_create: %s\n", zesort_ze_last_error(NULL));
        exit(1);
    }
    return 0;
}

static void *alloc(size_t bytes)
{
    ze_device_mem_alloc_desc_t dd = {.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    ze_host_mem_alloc_desc_t hd = {.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    void *p = NULL;
    ZE_OK(zeMemAllocShared(g.ctx, &dd, &hd, bytes, 64, g.device, &p));
    memset(p, 0xA5, bytes);
    return p;
}

static void release(void *p) { zeMemFree(g.ctx, p); }
static void upload(void *buf, const void *src, size_t bytes) { memcpy(buf, src, bytes); }
static void download(void *dst, void *buf, size_t bytes) { memcpy(dst, buf, bytes); }
static const char *error(void) { return zesort_ze_last_error(g.sorter); }
static uint64_t launches(void) { return g.hooks.count(ZECL_COUNT_LAUNCHES); }

static zesort_status requirements(const zesort_desc *d, zesort_requirements *req)
{
    return zesort_ze_requirements(g.sorter, d, req);
}

static zesort_status run(const zesort_desc *d, int chained, uint32_t chain)
{
    if (chain > CHAIN_MAX) {
        fprintf(stderr, "%u chain events needed, %u in the pool\n", chain, CHAIN_MAX);
        exit(1);
    }
    for (uint32_t i = 0; chained && i < chain; i++)
        ZE_OK(zeEventHostReset(g.chain[i]));
    const zesort_ze_sync sync = {.signal_event = g.done, .chained = chained,
                                 .num_chain_events = chain, .chain_events = g.chain};
    zesort_status st = zesort_ze_append(g.sorter, g.imm, d, &sync);
    if (st == ZESORT_OK)
        ZE_OK(zeEventHostSynchronize(g.done, UINT64_MAX));
    ZE_OK(zeEventHostReset(g.done));
    return st;
}

int main(int argc, char **argv)
{
    if (setup() != 0) {
        printf("SKIP: no Level Zero driver or device\n");
        return 77;
    }
    const desc_api api = {"level-zero", 1, alloc, release, upload, download, requirements, run,
                          error, launches};
    const int rc = matrix_run(&api, argc > 1 && strcmp(argv[1], "subset") == 0);
    zesort_ze_destroy(g.sorter);
    for (uint32_t i = 0; i < CHAIN_MAX; i++)
        zeEventDestroy(g.chain[i]);
    zeEventDestroy(g.done);
    zeEventPoolDestroy(g.chain_pool);
    zeEventPoolDestroy(g.pool);
    zeCommandListDestroy(g.imm);
    zeContextDestroy(g.ctx);
    return rc;
}
