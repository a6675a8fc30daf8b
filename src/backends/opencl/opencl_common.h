/*
 * opencl_common.h — OpenCL pieces shared by the device backend
 * (backend_opencl.c), the recorder that turns plan steps into commands
 * (cl_recorder.c) and the OpenCL interop API (interop_cl.c): the kernel
 * flavor of a device, the programs and kernels of one (context, device),
 * and the status of a failed call (opencl_common.c), so all build the same
 * kernels the same way. Internal to the library; not installed.
 */
#ifndef ZESORT_OPENCL_COMMON_H
#define ZESORT_OPENCL_COMMON_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stddef.h>

#include "common/error.h"
#include "plan/plan.h"
#include "programs/kernel_blobs.h"

typedef struct zs_device zs_device;

/* The context and device of an OpenCL backend device (backend_opencl.c):
 * zesort_cl_context_handles. */
void zs_opencl_handles(zs_device *dev, cl_context *context, cl_device_id *device);

/* Sets "OpenCL <what> failed (error N)" on e and returns the status for N:
 * out of device or host memory, else BACKEND. */
zesort_status zs_cl_fail(zs_error *e, const char *what, cl_int err);

/* The flavor a device runs (kernel_select.c decides; ZESORT_FLAVOR
 * overrides). Returns 0, or -1 with a message in msg. */
int zs_cl_device_flavor(cl_device_id dev, zs_flavor *out, char *msg, size_t msg_len);

/* 1 for a GPU device (CL_DEVICE_TYPE), and for every device under the
 * plain-GPU test hook (common/test_hooks.h): the device lists' kind. */
int zs_cl_device_is_gpu(cl_device_id dev);

/* Whether a launch of `kernel` with `local` work-items a work-group fits the
 * device: CL_SUCCESS, except under the plain-GPU test hook (test_hooks.h),
 * which holds every launch to the limits of that GPU (at most
 * ZS_PLAIN_GPU_MAX_WG work-items, ZS_PLAIN_GPU_LOCAL_BYTES of local memory)
 * and returns the error its driver would (CL_INVALID_WORK_GROUP_SIZE,
 * CL_OUT_OF_RESOURCES), with the limit passed in `why`. The recorder asks
 * before every kernel launch. */
cl_int zs_cl_launch_limits(cl_kernel kernel, cl_device_id device, size_t local, char *why,
                           size_t why_len);

/* Programs and kernels of one (context, device) in one flavor, built on
 * first use. The context and device are borrowed, never released here. */
typedef struct zs_cl_kernels {
    cl_context context;
    cl_device_id device;
    zs_flavor flavor;
    cl_program programs[ZS_PROG_COUNT];
    cl_kernel kernels[ZS_K_COUNT];
} zs_cl_kernels;

/* Kernel id of k in *out (out may be NULL), built with its program unless
 * it is built already: the embedded native binaries for the device first,
 * then the embedded source in k's flavor. On failure a message in e and,
 * when cl_err is not NULL, the OpenCL error in *cl_err. */
zesort_status zs_cl_kernel(zs_cl_kernels *k, zs_kernel id, cl_kernel *out, zs_error *e,
                           cl_int *cl_err);

/* Releases every kernel and program built; safe on a zeroed struct. */
void zs_cl_kernels_release(zs_cl_kernels *k);

#endif
