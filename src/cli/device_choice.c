/* device_choice.c — the context `demo` and `bench` measure on. Their job is
 * to compare the kernel designs (2-bit vs 4-bit vs onesweep), so their
 * `auto` wants the best device that runs kernels: a Level Zero GPU, else an
 * OpenCL GPU, else an OpenCL CPU device (PoCL), else the C fallback
 * (docs/design.md §5.2, `demo`). The library's AUTO (what `sort` uses) skips
 * OpenCL CPU devices because the C fallback sorts faster there. `--device`
 * (sort, bench, demo) names a device of a given backend instead. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_parse_device(cli_args *a, const char *cmd, int64_t *device)
{
    const char *v;
    int rc = cli_args_value(a, cmd, &v);
    if (rc)
        return rc;
    /* decimal digits only: "1x", "-1", "+1" and "" are not device indices */
    char *end;
    unsigned long long i = strtoull(v, &end, 10);
    if (!*v || *end || strspn(v, "0123456789") != strlen(v) || i > UINT32_MAX)
        return cli_usage(cmd, "bad --device '%s': expected a device index 0, 1, ... "
                              "('zesort info' lists them)", v);
    *device = (int64_t)i;
    return 0;
}

/* --device indexes one backend's list (`zesort info`, devices-BACKEND):
 * `auto` has none of its own, and which list it would mean depends on the
 * machine, so the combination is refused rather than guessed. */
int cli_check_device_backend(const char *cmd, zesort_backend backend, int64_t device)
{
    if (device >= 0 && backend == ZESORT_BACKEND_AUTO)
        return cli_usage(cmd, "--device needs --backend level-zero, opencl or cpu");
    return 0;
}

zesort_status cli_create(zesort_backend backend, int64_t device, zesort_context **out)
{
    cli_signals_hold(); /* a driver's handlers would lose a signal sent meanwhile */
    const uint32_t index = (uint32_t)device;
    zesort_status st = device >= 0 ? zesort_create_on_devices(backend, &index, 1, out)
                                   : zesort_create(backend, out);
    cli_signals_release();
    return st;
}

static zesort_status create_for_kernels(zesort_backend backend, int64_t device,
                                        zesort_context **out)
{
    zesort_status st = cli_create(backend, device, out);
    if (st != ZESORT_OK || backend != ZESORT_BACKEND_AUTO ||
        cli_context_info(*out).backend != ZESORT_BACKEND_CPU)
        return st;
    zesort_context *opencl = NULL;
    if (zesort_create(ZESORT_BACKEND_OPENCL, &opencl) != ZESORT_OK)
        return ZESORT_OK; /* no OpenCL device: the C fallback it is */
    zesort_destroy(*out);
    *out = opencl;
    return ZESORT_OK;
}

zesort_status cli_create_for_kernels(zesort_backend backend, int64_t device, zesort_context **out)
{
    cli_signals_hold(); /* over both creations, as cli_create's */
    zesort_status st = create_for_kernels(backend, device, out);
    cli_signals_release();
    return st;
}
