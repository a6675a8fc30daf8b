/*
 * test_faults.c — every Level Zero call a sort makes is made to fail, one at
 * a time, through the test driver's fault injector (tests/ze_cl_driver/
 * faults.c), and the library must survive each: a clean error status with a
 * message, the caller's data intact, no crash (and no leak in the ASan
 * build), and the next sort on the same context / sorter correct.
 *
 *   test_faults host     zesort_sort on a Level Zero context (warm: modules built)
 *   test_faults cold     the same, each run on a new context: zesort_create and
 *                        the first sort (module builds) are swept too
 *   test_faults interop  zesort_ze_append_sort / _indirect / _chained on a
 *                        regular list
 *
 * Each sweeps two kinds of faults: the K-th driver call fails with
 * ZE_RESULT_ERROR_DEVICE_LOST, and the K-th allocation fails with
 * ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY, for K = 1 .. the number of such calls
 * a clean run makes; over keys and pairs, cm4 and onesweep. The interop sweep
 * injects DEVICE_LOST and OUT_OF_DEVICE_MEMORY in turn and checks that
 * zesort_ze_last_result reports the one injected.
 * Exit 0 all survived, 1 a failure, 77 no Level Zero driver (skip).
 */
#include <dlfcn.h>
#include <inttypes.h>
#include <level_zero/ze_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zesort.h"
#include "zecl_hooks.h"
#include "zesort_ze.h"

enum { FAULT_COUNT = 0, FAULT_ANY = 1, FAULT_ALLOC = 2 };
enum { N_KEYS = 5000 }; /* several CM chunks and onesweep tiles */

static void (*fault_arm)(int mode, uint64_t k, int32_t result);
static uint64_t (*fault_count)(int mode);
static const char *(*fault_injected)(void);

static uint32_t input_keys[N_KEYS], input_values[N_KEYS], keys[N_KEYS], values[N_KEYS];
static int failures, runs;

#define FAIL(...) (failures++, printf("FAIL: " __VA_ARGS__), printf("\n"))

/* The driver's injector, from the copy the loader loaded. */
static int find_injector(void)
{
    zecl_hooks h;
    if (zecl_hooks_find(&h) != 0)
        return -1;
    fault_arm = h.arm;
    fault_count = h.count;
    fault_injected = h.injected;
    return 0;
}

static void make_input(void)
{
    uint64_t x = 88172645463325252u;
    for (int i = 0; i < N_KEYS; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        input_keys[i] = (uint32_t)x % 1000u; /* many equal keys: stability shows */
        input_values[i] = (uint32_t)i;
    }
}

static void reset_data(void)
{
    memcpy(keys, input_keys, sizeof keys);
    memcpy(values, input_values, sizeof values);
}

static int data_unchanged(void)
{
    return memcmp(keys, input_keys, sizeof keys) == 0 && memcmp(values, input_values, sizeof values) == 0;
}

static int data_sorted(int pairs)
{
    for (int i = 1; i < N_KEYS; i++)
        if (keys[i - 1] > keys[i] ||
            (pairs && (input_keys[values[i]] != keys[i] ||
                       (keys[i - 1] == keys[i] && values[i - 1] >= values[i]))))
            return 0;
    return 1;
}

typedef struct config {
    const char *name;
    zesort_algo algo;
    int pairs;
} config;

static const config configs[] = {
    {"keys cm4", ZESORT_ALGO_CM4, 0},
    {"pairs cm4", ZESORT_ALGO_CM4, 1},
    {"keys onesweep", ZESORT_ALGO_ONESWEEP, 0},
    {"pairs onesweep", ZESORT_ALGO_ONESWEEP, 1},
};

static const struct {
    int mode;
    int32_t result;
    const char *name;
} kinds[] = {
    {FAULT_ANY, ZE_RESULT_ERROR_DEVICE_LOST, "call"},
    {FAULT_ALLOC, ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY, "allocation"},
};

/* ---- host API ------------------------------------------------------------ */

static zesort_status host_sort(zesort_context *ctx, const config *c)
{
    zesort_options o;
    zesort_options_default(&o);
    o.algo = c->algo;
    return zesort_sort(ctx, keys, c->pairs ? values : NULL, N_KEYS, &o);
}

/* One faulty run of the host API, then a clean one on the same context. */
static void host_run(zesort_context *ctx, const config *c, const char *kind, uint64_t k)
{
    reset_data();
    zesort_status st = host_sort(ctx, c);
    const char *api = fault_injected();
    fault_arm(FAULT_COUNT, 0, 0);
    runs++;
    if (api && st == ZESORT_OK && !data_sorted(c->pairs))
        FAIL("host %s: %s %" PRIu64 " (%s) failed: OK returned, output wrong", c->name, kind, k, api);
    if (api && st != ZESORT_OK) {
        if (!data_unchanged())
            FAIL("host %s: %s %" PRIu64 " (%s) failed: caller's data changed", c->name, kind, k, api);
        if (!zesort_last_error(ctx)[0])
            FAIL("host %s: %s %" PRIu64 " (%s) failed: no message", c->name, kind, k, api);
    }
    if (!api && (st != ZESORT_OK || !data_sorted(c->pairs)))
        FAIL("host %s: no fault injected, status %s", c->name, zesort_status_name(st));
    reset_data();
    st = host_sort(ctx, c);
    if (st != ZESORT_OK || !data_sorted(c->pairs))
        FAIL("host %s: the sort after %s %" PRIu64 " (%s) failed: %s: %s", c->name, kind, k,
             api ? api : "-", zesort_status_name(st), zesort_last_error(ctx));
}

static void sweep_host(void)
{
    zesort_context *ctx;
    if (zesort_create(ZESORT_BACKEND_LEVEL_ZERO, &ctx) != ZESORT_OK) {
        FAIL("zesort_create: %s", zesort_last_error(NULL));
        return;
    }
    for (size_t ci = 0; ci < sizeof configs / sizeof configs[0]; ci++) {
        const config *c = &configs[ci];
        reset_data();
        host_sort(ctx, c); /* warm: modules built */
        for (size_t ki = 0; ki < sizeof kinds / sizeof kinds[0]; ki++) {
            fault_arm(FAULT_COUNT, 0, 0);
            reset_data();
            host_sort(ctx, c);
            uint64_t total = fault_count(kinds[ki].mode);
            for (uint64_t k = 1; k <= total; k++) {
                fault_arm(kinds[ki].mode, k, kinds[ki].result);
                host_run(ctx, c, kinds[ki].name, k);
            }
            printf("host %-15s %-10s faults: %" PRIu64 " injected\n", c->name, kinds[ki].name, total);
        }
    }
    zesort_destroy(ctx);
}

/* Every call from zesort_create through the first sort, on a new context. */
static void sweep_cold(void)
{
    const config *c = &configs[1]; /* pairs cm4: every CM kernel and the value path */
    for (size_t ki = 0; ki < sizeof kinds / sizeof kinds[0]; ki++) {
        fault_arm(FAULT_COUNT, 0, 0);
        zesort_context *ctx;
        if (zesort_create(ZESORT_BACKEND_LEVEL_ZERO, &ctx) != ZESORT_OK) {
            FAIL("zesort_create: %s", zesort_last_error(NULL));
            return;
        }
        reset_data();
        host_sort(ctx, c);
        zesort_destroy(ctx);
        uint64_t total = fault_count(kinds[ki].mode);
        for (uint64_t k = 1; k <= total; k++) {
            fault_arm(kinds[ki].mode, k, kinds[ki].result);
            zesort_status st = zesort_create(ZESORT_BACKEND_LEVEL_ZERO, &ctx);
            if (st != ZESORT_OK) {
                const char *api = fault_injected();
                fault_arm(FAULT_COUNT, 0, 0);
                runs++;
                if (!api || ctx || !zesort_last_error(NULL)[0])
                    FAIL("cold: zesort_create failed without a clean error after %s %" PRIu64, kinds[ki].name, k);
                continue;
            }
            host_run(ctx, c, kinds[ki].name, k);
            zesort_destroy(ctx);
        }
        printf("cold %-15s %-10s faults: %" PRIu64 " injected\n", c->name, kinds[ki].name, total);
    }
}

/* ---- interop ---------------------------------------------------------------- */

#define CHAIN_EVENTS 128
enum { DIRECT, INDIRECT, CHAINED, VARIANTS }; /* chained: indirect, ordered by events */
static const char *const variant_names[VARIANTS] = {"direct", "indirect", "chained"};

static struct {
    ze_context_handle_t ctx;
    ze_device_handle_t dev;
    ze_command_queue_handle_t queue;
    ze_command_list_handle_t list;
    void *keys, *values, *count, *temp;
    uint64_t temp_bytes;
    ze_event_pool_handle_t pool; /* the chained variant's events: */
    ze_event_handle_t done, chain[CHAIN_EVENTS]; /* its signal event and chain */
} z;

#define ZE_CHECK(call) do { ze_result_t r_ = (call); if (r_ != ZE_RESULT_SUCCESS) { \
    FAIL("%s: 0x%x", #call, (unsigned)r_); return -1; } } while (0)

static int interop_setup(void)
{
    uint32_t one = 1;
    ze_driver_handle_t driver;
    ZE_CHECK(zeDriverGet(&one, &driver));
    one = 1;
    ZE_CHECK(zeDeviceGet(driver, &one, &z.dev));
    ze_context_desc_t cd = {.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    ZE_CHECK(zeContextCreate(driver, &cd, &z.ctx));
    ze_command_queue_desc_t qd = {.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
    ZE_CHECK(zeCommandQueueCreate(z.ctx, z.dev, &qd, &z.queue));
    ze_command_list_desc_t ld = {.stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
    ZE_CHECK(zeCommandListCreate(z.ctx, z.dev, &ld, &z.list));
    ze_device_mem_alloc_desc_t md = {.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    ZE_CHECK(zeMemAllocDevice(z.ctx, &md, sizeof keys, 64, z.dev, &z.keys));
    ZE_CHECK(zeMemAllocDevice(z.ctx, &md, sizeof values, 64, z.dev, &z.values));
    ZE_CHECK(zeMemAllocDevice(z.ctx, &md, 64, 64, z.dev, &z.count));
    ze_event_pool_desc_t pd = {.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC,
                               .flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE, .count = CHAIN_EVENTS + 1};
    ZE_CHECK(zeEventPoolCreate(z.ctx, &pd, 1, &z.dev, &z.pool));
    for (uint32_t i = 0; i <= CHAIN_EVENTS; i++) {
        ze_event_desc_t ed = {.stype = ZE_STRUCTURE_TYPE_EVENT_DESC, .index = i,
                              .signal = ZE_EVENT_SCOPE_FLAG_DEVICE,
                              .wait = ZE_EVENT_SCOPE_FLAG_DEVICE};
        ZE_CHECK(zeEventCreate(z.pool, &ed, i < CHAIN_EVENTS ? &z.chain[i] : &z.done));
    }
    return 0;
}

static void interop_teardown(void)
{
    for (uint32_t i = 0; i < CHAIN_EVENTS; i++)
        zeEventDestroy(z.chain[i]);
    zeEventDestroy(z.done);
    zeEventPoolDestroy(z.pool);
    zeMemFree(z.ctx, z.temp);
    zeMemFree(z.ctx, z.count);
    zeMemFree(z.ctx, z.values);
    zeMemFree(z.ctx, z.keys);
    zeCommandListDestroy(z.list);
    zeCommandQueueDestroy(z.queue);
    zeContextDestroy(z.ctx);
}

/* Appends the sort (a variant) to the reset list; the data is uploaded
   before and read back after, in the same list. */
static zesort_status interop_append(zesort_ze_sorter *s, const config *c, int variant)
{
    zesort_options o;
    zesort_options_default(&o);
    o.algo = c->algo;
    uint32_t *vals = c->pairs ? z.values : NULL;
    if (variant == INDIRECT)
        return zesort_ze_append_sort_indirect(s, z.list, z.keys, vals, z.count, N_KEYS, z.temp,
                                              z.temp_bytes, &o, NULL, 0, NULL);
    if (variant == CHAINED) {
        return zesort_ze_append_sort_chained(s, z.list, z.keys, vals, N_KEYS, z.count, z.temp,
                                             z.temp_bytes, &o, z.done, 0, NULL, CHAIN_EVENTS,
                                             z.chain);
    }
    return zesort_ze_append_sort(s, z.list, z.keys, vals, N_KEYS, z.temp, z.temp_bytes, &o, NULL, 0,
                                 NULL);
}

/* Records upload, sort and download on the list, executes it; returns the sort's status. */
static zesort_status interop_sort(zesort_ze_sorter *s, const config *c, int variant, int fault_mode,
                                  uint64_t k, int32_t result, const char **api)
{
    static const uint32_t n = N_KEYS;
    reset_data();
    *api = NULL;
    if (zeCommandListReset(z.list) != ZE_RESULT_SUCCESS ||
        zeCommandListAppendMemoryCopy(z.list, z.keys, keys, sizeof keys, NULL, 0, NULL) ||
        zeCommandListAppendMemoryCopy(z.list, z.values, values, sizeof values, NULL, 0, NULL) ||
        zeCommandListAppendMemoryCopy(z.list, z.count, &n, sizeof n, NULL, 0, NULL) ||
        zeCommandListAppendBarrier(z.list, NULL, 0, NULL))
        return ZESORT_ERROR_BACKEND;
    for (uint32_t i = 0; variant == CHAINED && i <= CHAIN_EVENTS; i++)
        if (zeEventHostReset(i < CHAIN_EVENTS ? z.chain[i] : z.done))
            return ZESORT_ERROR_BACKEND;
    fault_arm(fault_mode, k, result);
    zesort_status st = interop_append(s, c, variant);
    *api = fault_injected();
    fault_arm(FAULT_COUNT, 0, 0);
    if (st != ZESORT_OK)
        return st; /* documented: the caller resets the list; nothing ran */
    /* a chained sort orders later commands only through its signal event */
    if ((variant == CHAINED && zeCommandListAppendWaitOnEvents(z.list, 1, &z.done)) ||
        zeCommandListAppendMemoryCopy(z.list, keys, z.keys, sizeof keys, NULL, 0, NULL) ||
        zeCommandListAppendMemoryCopy(z.list, values, z.values, sizeof values, NULL, 0, NULL) ||
        zeCommandListClose(z.list) ||
        zeCommandQueueExecuteCommandLists(z.queue, 1, &z.list, NULL) ||
        zeCommandQueueSynchronize(z.queue, UINT64_MAX))
        return ZESORT_ERROR_BACKEND;
    return st;
}

static void sweep_interop(void)
{
    if (interop_setup() != 0)
        return;
    zesort_ze_sorter *s;
    if (zesort_ze_create(z.ctx, z.dev, &s) != ZESORT_OK) {
        FAIL("zesort_ze_create: %s", zesort_ze_last_error(NULL));
        interop_teardown();
        return;
    }
    for (size_t ci = 0; ci < sizeof configs / sizeof configs[0]; ci++) {
        const config *c = &configs[ci];
        zesort_options o;
        zesort_options_default(&o);
        o.algo = c->algo;
        uint64_t need;
        zesort_ze_temp_bytes(s, N_KEYS, c->pairs, &o, &need);
        if (need > z.temp_bytes) {
            zeMemFree(z.ctx, z.temp);
            ze_device_mem_alloc_desc_t md = {.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
            if (zeMemAllocDevice(z.ctx, &md, need, 256, z.dev, &z.temp) != ZE_RESULT_SUCCESS) {
                FAIL("temp allocation");
                break;
            }
            z.temp_bytes = need;
        }
        for (int variant = 0; variant < VARIANTS; variant++) {
            const char *api;
            interop_sort(s, c, variant, FAULT_COUNT, 0, 0, &api); /* warm: kernels built */
            /* the calls of one append, on a reset (open) list */
            if (zeCommandListReset(z.list) != ZE_RESULT_SUCCESS) {
                FAIL("zeCommandListReset");
                break;
            }
            fault_arm(FAULT_COUNT, 0, 0);
            zesort_status counted = interop_append(s, c, variant);
            uint64_t total = fault_count(FAULT_ANY);
            if (counted != ZESORT_OK) {
                FAIL("interop %s %s: the counting append failed: %s", c->name,
                     variant_names[variant], zesort_ze_last_error(s));
                break;
            }
            for (uint64_t k = 1; k <= total; k++) {
                /* two results in turn, so that the one the sorter keeps is seen
                 * to change: zesort_ze_last_result must give the injected one */
                ze_result_t injected = k % 2 ? ZE_RESULT_ERROR_DEVICE_LOST
                                             : ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
                zesort_status st = interop_sort(s, c, variant, FAULT_ANY, k, injected, &api);
                runs++;
                if (api && st != ZESORT_OK && zesort_ze_last_result(s) != injected)
                    FAIL("interop %s: call %" PRIu64 " (%s) failed with 0x%x but "
                         "zesort_ze_last_result is 0x%x", c->name, k, api, (unsigned)injected,
                         (unsigned)zesort_ze_last_result(s));
                if (api && st == ZESORT_ERROR_OUT_OF_DEVICE_MEMORY &&
                    injected != ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)
                    FAIL("interop %s: call %" PRIu64 " (%s): DEVICE_LOST became OUT_OF_DEVICE_MEMORY",
                         c->name, k, api);
                if (api && st == ZESORT_OK && !data_sorted(c->pairs))
                    FAIL("interop %s: call %" PRIu64 " (%s) failed: OK returned, output wrong",
                         c->name, k, api);
                if (api && st != ZESORT_OK && !zesort_ze_last_error(s)[0])
                    FAIL("interop %s: call %" PRIu64 " (%s) failed: no message", c->name, k, api);
                st = interop_sort(s, c, variant, FAULT_COUNT, 0, 0, &api);
                if (st != ZESORT_OK || !data_sorted(c->pairs))
                    FAIL("interop %s %s: the sort after call %" PRIu64 " failed: %s: %s", c->name,
                         variant_names[variant], k, zesort_status_name(st), zesort_ze_last_error(s));
            }
            printf("interop %-15s %-8s call faults: %" PRIu64 " injected\n", c->name,
                   variant_names[variant], total);
        }
    }
    zesort_ze_destroy(s);
    interop_teardown();
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "host";
    setvbuf(stdout, NULL, _IOLBF, 0);
    zesort_context *probe;
    if (zesort_create(ZESORT_BACKEND_LEVEL_ZERO, &probe) != ZESORT_OK) {
        printf("SKIP: no Level Zero device: %s\n", zesort_last_error(NULL));
        return 77;
    }
    zesort_destroy(probe);
    if (find_injector() != 0) {
        printf("SKIP: the Level Zero driver has no fault injector (not tests/ze_cl_driver)\n");
        return 77;
    }
    make_input();
    if (strcmp(what, "host") == 0)
        sweep_host();
    else if (strcmp(what, "cold") == 0)
        sweep_cold();
    else if (strcmp(what, "interop") == 0)
        sweep_interop();
    else {
        fprintf(stderr, "usage: test_faults host|cold|interop\n");
        return 2;
    }
    printf("%d faulty runs, %d failures\n", runs, failures);
    return failures ? 1 : 0;
}
