/*
 * test_topk_ze.c — zesort_ze_append_topk on the Level Zero test driver:
 * keys only, values, indices, both orders, f32 and u64 keys, k from 0 past
 * n, a device-side count; results against the first k of a stable qsort
 * permutation (tests/common/sort_oracle.h), the inputs unchanged, and the
 * signal event set only once everything is written (the driver may run
 * unordered commands in any order: a missing barrier shows). A device-side
 * count is two thirds of n (the top k of the first count keys), and every
 * append whose candidates' room is below n must have run the select.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ze_api.h>
#include <zesort.h>
#include <zesort_ze.h>

#include "common/test_hooks.h"
#include "plan/plan_topk.h"
#include "sort_oracle.h"

static struct {
    ze_driver_handle_t driver;
    ze_device_handle_t device;
    ze_context_handle_t ctx;
    ze_command_list_handle_t imm;
    ze_event_pool_handle_t pool;
    ze_event_handle_t ev;
    zesort_ze_sorter *sorter;
} g;

static int failures;

#define ZE_OK(call)                                                                     \
    do {                                                                                \
        ze_result_t r_ = (call);                                                        \
        if (r_ != ZE_RESULT_SUCCESS) {                                                  \
            fprintf(stderr, "%s:%d: %s: 0x%x\n", __FILE__, __LINE__, #call, (unsigned)r_); \
            exit(1);                                                                    \
        }                                                                               \
    } while (0)

static int find_device(void)
{
    uint32_t nd = 1;
    if (zeDriverGet(&nd, &g.driver) != ZE_RESULT_SUCCESS || nd == 0)
        return -1;
    uint32_t n = 1;
    return zeDeviceGet(g.driver, &n, &g.device) == ZE_RESULT_SUCCESS && n ? 0 : -1;
}

static void setup(void)
{
    ze_context_desc_t cd = {.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    ZE_OK(zeContextCreate(g.driver, &cd, &g.ctx));
    ze_command_queue_desc_t qd = {.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                  .mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS};
    ZE_OK(zeCommandListCreateImmediate(g.ctx, g.device, &qd, &g.imm));
    ze_event_pool_desc_t pd = {.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC,
                               .flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE, .count = 1};
    ZE_OK(zeEventPoolCreate(g.ctx, &pd, 1, &g.device, &g.pool));
    ze_event_desc_t ed = {.stype = ZE_STRUCTURE_TYPE_EVENT_DESC, .index = 0,
                          .signal = ZE_EVENT_SCOPE_FLAG_HOST, .wait = ZE_EVENT_SCOPE_FLAG_HOST};
    ZE_OK(zeEventCreate(g.pool, &ed, &g.ev));
    if (zesort_ze_create(g.ctx, g.device, &g.sorter) != ZESORT_OK) {
        fprintf(stderr, "zesort_ze_create: %s\n", zesort_ze_last_error(NULL));
        exit(1);
    }
}

static void *shared(size_t bytes)
{
    ze_device_mem_alloc_desc_t dd = {.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    ze_host_mem_alloc_desc_t hd = {.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    void *p = NULL;
    ZE_OK(zeMemAllocShared(g.ctx, &dd, &hd, bytes ? bytes : 8, 64, g.device, &p));
    return p;
}

/* One top-k: out 0 keys, 1 keys + values, 2 indices only, 3 keys + indices. */
static void run_case(uint64_t n, uint64_t k, zesort_key_type t, int desc, int out, int count)
{
    const unsigned kb = oracle_key_bytes(t), vb = out == 1 ? 8 : 4;
    zesort_options o;
    zesort_options_default(&o);
    o.key_type = t, o.descending = desc;
    o.value_type = vb == 8 ? ZESORT_VALUE_U64 : ZESORT_VALUE_U32;
    const int second = out != 0;
    uint64_t tb = 0;
    if (zesort_ze_topk_temp_bytes(g.sorter, n, second, &o, &tb) != ZESORT_OK) {
        printf("FAIL temp bytes: %s\n", zesort_ze_last_error(g.sorter));
        failures++;
        return;
    }
    char *keys = shared(n * kb), *vals = shared(n * vb), *orig = malloc(n * kb + 1);
    char *ko = shared(n * kb + 64), *vo = shared(n * 8 + 64), *temp = shared(tb);
    uint32_t *cnt = shared(4);
    /* the top k of the first two thirds when the count is on the device */
    const uint64_t c = count ? n - n / 3 : n;
    *cnt = (uint32_t)c;
    oracle_make_keys(orig, n, t, (int)(k % 2), n + k);
    memcpy(keys, orig, n * kb);
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t v = oracle_value(i, vb);
        memcpy(vals + i * vb, &v, vb);
    }
    const int wk = out != 2, wv = out == 1, wi = out >= 2;
    const unsigned long selects = zs_test_selects();
    zesort_status st = zesort_ze_append_topk(
        g.sorter, g.imm, keys, wv ? vals : NULL, wk ? ko : NULL, wv ? vo : NULL,
        wi ? vo : NULL, n, count ? cnt : NULL, k, temp, tb, &o, g.ev, 0, NULL);
    char what[160];
    snprintf(what, sizeof what, "n=%llu k=%llu type=%d desc=%d out=%d count=%d",
             (unsigned long long)n, (unsigned long long)k, (int)t, desc, out, count);
    if (st != ZESORT_OK) {
        printf("FAIL %s: %s\n", what, zesort_ze_last_error(g.sorter));
        failures++;
    } else {
        ZE_OK(zeEventHostSynchronize(g.ev, UINT64_MAX));
        uint64_t *perm = oracle_permutation(orig, c, &o);
        const uint64_t m = k < c ? k : c;
        const uint64_t bad = oracle_check(orig, perm, wk ? ko : NULL, wv || wi ? vo : NULL, wi,
                                          m, kb, vb);
        const int inputs = memcmp(keys, orig, n * kb) == 0;
        const int select = n > 0 && k > 0 && zs_topk_room(n, k) < n;
        const int path = zs_test_selects() - selects == (unsigned long)select;
        printf("%s %s%s\n", bad || !inputs || !path ? "FAIL" : "ok  ", what,
               path ? "" : select ? ": no select" : ": a select");
        failures += bad || !inputs || !path;
        free(perm);
    }
    ZE_OK(zeEventHostReset(g.ev));
    zeMemFree(g.ctx, keys), zeMemFree(g.ctx, vals), zeMemFree(g.ctx, ko);
    zeMemFree(g.ctx, vo), zeMemFree(g.ctx, temp), zeMemFree(g.ctx, cnt);
    free(orig);
}

int main(void)
{
    if (zeInit(0) != ZE_RESULT_SUCCESS || find_device() != 0) {
        printf("SKIP: no Level Zero driver or device\n");
        return 77;
    }
    setup();
    static const uint64_t sizes[] = {0, 1, 1000, 70001};
    for (unsigned si = 0; si < 4; si++) {
        const uint64_t n = sizes[si];
        const uint64_t ks[] = {0, 1, 33, n / 2, n, n + 5};
        for (unsigned ki = 0; ki < 6; ki++)
            for (int out = 0; out < 4; out++)
                run_case(n, ks[ki], (ki + out) % 2 ? ZESORT_KEY_F32 : ZESORT_KEY_U64,
                         (int)(ki % 2), out, ki == 2 || ki == 3);
    }
    /* argument errors: values with indices, no output, temp too small */
    uint64_t x[4] = {0};
    const int e1 = zesort_ze_append_topk(g.sorter, g.imm, x, x, x + 1, x + 2, x + 3, 1, NULL, 1,
                                         x, 8, NULL, NULL, 0, NULL) ==
                   ZESORT_ERROR_INVALID_ARGUMENT;
    const int e2 = zesort_ze_append_topk(g.sorter, g.imm, x, NULL, NULL, NULL, NULL, 1, NULL, 1,
                                         x, 8, NULL, NULL, 0, NULL) ==
                   ZESORT_ERROR_INVALID_ARGUMENT;
    const int e3 = zesort_ze_append_topk(NULL, g.imm, x, NULL, x, NULL, NULL, 1, NULL, 1, x, 8,
                                         NULL, NULL, 0, NULL) == ZESORT_ERROR_INVALID_ARGUMENT;
    printf("%s errors\n", e1 && e2 && e3 ? "ok  " : "FAIL");
    failures += !(e1 && e2 && e3);
    zesort_ze_destroy(g.sorter);
    zeEventDestroy(g.ev);
    zeEventPoolDestroy(g.pool);
    zeCommandListDestroy(g.imm);
    zeContextDestroy(g.ctx);
    printf("%d failed\n", failures);
    return failures != 0;
}
