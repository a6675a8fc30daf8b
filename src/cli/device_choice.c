/* device_choice.c — the context `demo` and `bench` measure on. Their job is
 * to compare the kernel designs (2-bit vs 4-bit vs onesweep), so their
 * `auto` wants the best device that runs kernels: a Level Zero GPU, else an
 * OpenCL GPU, else an OpenCL CPU device (PoCL), else the C fallback
 * (docs/design.md §5.2, `demo`). The library's AUTO (what `sort` uses) skips
 * OpenCL CPU devices because the C fallback sorts faster there. */
#include "cli.h"

static zesort_status create_for_kernels(zesort_backend backend, zesort_context **out)
{
    zesort_status st = zesort_create(backend, out);
    if (st != ZESORT_OK || backend != ZESORT_BACKEND_AUTO ||
        zesort_context_backend(*out) != ZESORT_BACKEND_CPU)
        return st;
    zesort_context *opencl = NULL;
    if (zesort_create(ZESORT_BACKEND_OPENCL, &opencl) != ZESORT_OK)
        return ZESORT_OK; /* no OpenCL device: the C fallback it is */
    zesort_destroy(*out);
    *out = opencl;
    return ZESORT_OK;
}

zesort_status cli_create_for_kernels(zesort_backend backend, zesort_context **out)
{
    zesort_status st = create_for_kernels(backend, out);
    cli_signals_reclaim(); /* a driver's handlers would keep our temporary files */
    return st;
}
