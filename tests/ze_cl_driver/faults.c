/* faults.c — fault injection of the test driver: makes the K-th call of the
 * Level Zero API (or the K-th allocation) fail, so tests can prove that the
 * library survives any driver failure (clean error, caller's data intact, no
 * leak, the next sort works).
 *
 * Two ways to arm it:
 *   environment, read once at the first call:
 *     ZE_CL_DRIVER_FAIL_AT=K[:RESULT]        the K-th injectable call fails
 *     ZE_CL_DRIVER_FAIL_ALLOC_AT=K[:RESULT]  the K-th zeMemAlloc* call fails
 *     ZE_CL_DRIVER_FAIL_DEVICE=D             only calls on root device D (of
 *       zeDeviceGet's list; its sub-devices count as D) count and fail: a
 *       call that names a device, command list or queue (the first such
 *       parameter); the others are neither counted nor failed
 *     (RESULT: a ze_result_t value, decimal or 0x hex; default DEVICE_LOST,
 *     OUT_OF_DEVICE_MEMORY for allocations)
 *   from a test program in the same process, which finds these functions with
 *   dlsym (the driver is already loaded by the loader; dlopen of its path
 *   returns the same copy): zecl_test_fault_arm / _count / _injected /
 *   _device.
 * Calls are counted from the moment of arming; exactly one call fails.
 * Injectable: every API call except zeInit/zeDriverGet* (the loader makes
 * them itself) and the destroy/free calls of cleanup paths (a real driver
 * does not fail them, and a failed free would only leak).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zecl_internal.h"

#define ZECL_EXPORT __attribute__((visibility("default")))

enum { FAULT_OFF = 0, FAULT_ANY = 1, FAULT_ALLOC = 2, COUNT_BARRIERS = 3, COUNT_LAUNCHES = 4 };

static struct {
    pthread_mutex_t lock;
    int mode;
    uint64_t fail_at;       /* 1-based; 0: count only */
    ze_result_t result;
    uint64_t calls, allocs; /* since arming */
    uint64_t barriers;      /* zeCommandListAppendBarrier calls since arming */
    uint64_t launches;      /* zeCommandListAppendLaunchKernel(Indirect) calls since arming */
    const char *injected;   /* api of the failure injected last, or NULL */
    int device;             /* only calls on this root device (-1: every call) */
} f = {.lock = PTHREAD_MUTEX_INITIALIZER, .device = -1};

static pthread_once_t env_once = PTHREAD_ONCE_INIT;

static void arm_locked(int mode, uint64_t k, ze_result_t result)
{
    f.mode = mode;
    f.fail_at = k;
    f.result = result;
    f.calls = f.allocs = f.barriers = f.launches = 0;
    f.injected = NULL;
}

/* "K" or "K:RESULT" -> 1 and the fields; anything else -> 0. */
static int parse_spec(const char *spec, uint64_t *k, ze_result_t *result)
{
    char *end;
    unsigned long long v = strtoull(spec, &end, 10);
    if (end == spec || v == 0)
        return 0;
    *k = v;
    if (*end == ':') {
        const char *r = end + 1;
        long long code = strtoll(r, &end, 0);
        if (end == r || *end)
            return 0;
        *result = (ze_result_t)code;
    } else if (*end) {
        return 0;
    }
    return 1;
}

static void read_env(void)
{
    const char *any = getenv("ZE_CL_DRIVER_FAIL_AT"), *alloc = getenv("ZE_CL_DRIVER_FAIL_ALLOC_AT");
    uint64_t k;
    ze_result_t r = ZE_RESULT_ERROR_DEVICE_LOST;
    if (any && parse_spec(any, &k, &r)) {
        arm_locked(FAULT_ANY, k, r);
        return;
    }
    const char *dev = getenv("ZE_CL_DRIVER_FAIL_DEVICE");
    if (dev && *dev)
        f.device = atoi(dev);
    r = ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    if (alloc && parse_spec(alloc, &k, &r))
        arm_locked(FAULT_ALLOC, k, r);
    else if (any || alloc)
        fprintf(stderr, "ze_cl_driver: ignoring malformed ZE_CL_DRIVER_FAIL_%sAT\n",
                any ? "" : "ALLOC_");
}

static int injectable(const char *api)
{
    size_t len = strlen(api);
    int is_destroy = len > 7 && strcmp(api + len - 7, "Destroy") == 0;
    return !(is_destroy || strcmp(api, "zeMemFree") == 0 || strcmp(api, "zeInit") == 0 ||
             strncmp(api, "zeDriverGet", 11) == 0);
}

/* The root device index of a call's handle (kind as zecl_fault_hit_on), or
 * -1 when it names none. */
static int device_of(int kind, const void *handle)
{
    ze_device_handle_t d = NULL;
    if (handle && kind == 1)
        d = (ze_device_handle_t)handle;
    else if (handle && kind == 2)
        d = ((ze_command_list_handle_t)handle)->device;
    else if (handle && kind == 3)
        d = ((ze_command_queue_handle_t)handle)->device;
    if (d && d->parent)
        d = d->parent;
    for (uint32_t i = 0; d && i < g.num_devices; i++)
        if (d == &g.devices[i])
            return (int)i;
    return -1;
}

int zecl_fault_hit(const char *api, ze_result_t *result)
{
    return zecl_fault_hit_on(api, 0, NULL, result);
}

int zecl_fault_hit_on(const char *api, int kind, const void *handle, ze_result_t *result)
{
    pthread_once(&env_once, read_env);
    if (!injectable(api))
        return 0;
    /* the handle is read only when a device filter is set: other tests pass
       handles that are not the driver's to check its refusals */
    pthread_mutex_lock(&f.lock);
    const int want = f.device;
    pthread_mutex_unlock(&f.lock);
    if (want >= 0 && device_of(kind, handle) != want)
        return 0;
    int is_alloc = strncmp(api, "zeMemAlloc", 10) == 0;
    int hit = 0;
    pthread_mutex_lock(&f.lock);
    f.calls++;
    f.allocs += is_alloc;
    f.barriers += strcmp(api, "zeCommandListAppendBarrier") == 0;
    f.launches += strncmp(api, "zeCommandListAppendLaunchKernel", 31) == 0;
    if (f.fail_at && ((f.mode == FAULT_ANY && f.calls == f.fail_at) ||
                      (f.mode == FAULT_ALLOC && is_alloc && f.allocs == f.fail_at))) {
        hit = 1;
        *result = f.result;
        f.injected = api;
    }
    pthread_mutex_unlock(&f.lock);
    return hit;
}

/* Arms the injector: mode 1 fails the k-th injectable call from now, mode 2
   the k-th allocation, with `result`; k = 0 (or mode 0) only counts. */
ZECL_EXPORT void zecl_test_fault_arm(int mode, uint64_t k, int32_t result)
{
    pthread_once(&env_once, read_env);
    pthread_mutex_lock(&f.lock);
    arm_locked(mode, k, (ze_result_t)result);
    pthread_mutex_unlock(&f.lock);
}

/* From now on only calls on root device `device` count and fail (-1: every
   call), as ZE_CL_DRIVER_FAIL_DEVICE says. */
ZECL_EXPORT void zecl_test_fault_device(int32_t device)
{
    pthread_once(&env_once, read_env);
    pthread_mutex_lock(&f.lock);
    f.device = device;
    pthread_mutex_unlock(&f.lock);
}

/* Injectable calls (mode 1), allocations (mode 2), zeCommandListAppendBarrier
   calls (mode 3: tests that a sort appends no barrier) or kernel launches
   appended (mode 4: zeCommandListAppendLaunchKernel and its Indirect form)
   since arming. */
ZECL_EXPORT uint64_t zecl_test_fault_count(int mode)
{
    pthread_mutex_lock(&f.lock);
    uint64_t n = mode == FAULT_ALLOC      ? f.allocs
                 : mode == COUNT_BARRIERS ? f.barriers
                 : mode == COUNT_LAUNCHES ? f.launches
                                          : f.calls;
    pthread_mutex_unlock(&f.lock);
    return n;
}

/* The API whose call was made to fail since arming, or NULL. */
ZECL_EXPORT const char *zecl_test_fault_injected(void)
{
    pthread_mutex_lock(&f.lock);
    const char *api = f.injected;
    pthread_mutex_unlock(&f.lock);
    return api;
}
