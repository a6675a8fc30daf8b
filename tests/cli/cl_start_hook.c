/*
 * cl_start_hook.c — an LD_PRELOAD library for test_hostile.sh: raises a
 * signal right after the process's first clGetDeviceIDs returns, the moment
 * when PoCL (which starts its devices there, on the first call) has just put
 * LLVM's signal handlers in place of zesort's and the backend is still
 * starting (issue 33, defect 7: a SIGQUIT there
 * was lost and the run replaced OUTPUT). No timing, no hook in zesort.
 *
 *   ZESORT_TEST_CL_START_SIGNAL=S   the signal number (unset or 0: none)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>

/* OpenCL's types spelled out, so that no OpenCL header is needed. */
typedef int32_t (*get_devices_fn)(void *, uint64_t, uint32_t, void *, uint32_t *);

int32_t clGetDeviceIDs(void *platform, uint64_t type, uint32_t num_entries, void *devices,
                       uint32_t *num_devices)
{
    static int calls;
    get_devices_fn real = (get_devices_fn)dlsym(RTLD_NEXT, "clGetDeviceIDs");
    if (!real)
        return -1; /* CL_DEVICE_NOT_FOUND */
    int32_t rc = real(platform, type, num_entries, devices, num_devices);
    const char *sig = getenv("ZESORT_TEST_CL_START_SIGNAL");
    if (++calls == 1 && sig && atoi(sig) > 0)
        raise(atoi(sig));
    return rc;
}
