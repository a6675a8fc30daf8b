/*
 * opencl_common.h — OpenCL pieces shared by the device backend
 * (backend_opencl.c, which defines them) and the OpenCL interop API
 * (interop_cl.c): the kernel flavor of a device and the build of one
 * embedded program, so both build the same kernels the same way.
 * Internal to the library; not installed.
 */
#ifndef ZESORT_OPENCL_COMMON_H
#define ZESORT_OPENCL_COMMON_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stddef.h>

#include "error.h"
#include "kernel_blobs.h"
#include "plan.h"

/* The flavor a device runs (kernel_select.c decides; ZESORT_FLAVOR
 * overrides). Returns 0, or -1 with a message in msg. */
typedef struct zs_device zs_device;

/* The context and device of an OpenCL backend device (backend_opencl.c):
 * zesort_cl_context_handles. */
void zs_opencl_handles(zs_device *dev, cl_context *context, cl_device_id *device);

int zs_cl_device_flavor(cl_device_id dev, zs_flavor *out, char *msg, size_t msg_len);

/* Builds program prog into *slot unless it is built already: the embedded
 * native binaries for the device first, then the embedded source in
 * `flavor`. On failure a message in e and, when cl_err is not NULL, the
 * OpenCL error in *cl_err. */
zesort_status zs_cl_build_program(cl_context context, cl_device_id device, zs_flavor flavor,
                                  zs_program prog, cl_program *slot, zs_error *e, cl_int *cl_err);

#endif
