/*
 * opencl_common.c — the OpenCL pieces shared by the device backend
 * (backend_opencl.c), the recorder (cl_recorder.c) and the interop API
 * (interop_cl.c), see opencl_common.h: the flavor of a device, the programs
 * and kernels of one (context, device) built from the embedded blobs, and
 * the status of a failed call. One copy, so that all build the same
 * kernels the same way.
 */
#define CL_TARGET_OPENCL_VERSION 300 /* 3.0 queries (OpenCL C features); 1.2 calls only */
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include "backends/opencl/opencl_common.h"

#include <CL/cl_ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/test_hooks.h"
#include "programs/kernel_select.h"

zesort_status zs_cl_fail(zs_error *e, const char *what, cl_int err)
{
    const zesort_status st =
        err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES ||
                err == CL_INVALID_BUFFER_SIZE ? ZESORT_ERROR_OUT_OF_DEVICE_MEMORY
        : err == CL_OUT_OF_HOST_MEMORY ? ZESORT_ERROR_OUT_OF_HOST_MEMORY
                                       : ZESORT_ERROR_BACKEND;
    return zs_error_set(e, st, "OpenCL %s failed (error %d)", what, (int)err);
}

/* Intel sub-groups of 32, whoever made the device (every Intel GPU; PoCL 6 on
 * the CPU): cl_intel_subgroups, and 32 among CL_DEVICE_SUB_GROUP_SIZES_INTEL
 * (cl_intel_required_subgroup_size, which intel_reqd_sub_group_size(32) needs). */
static int has_intel_sg32(cl_device_id dev)
{
    if (zs_test_opencl_plain_gpu())
        return 0; /* test_hooks.h: a plain OpenCL 1.2 GPU has none */
    char ext[8192] = "";
    clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext - 1, ext, NULL);
    if (!strstr(ext, "cl_intel_subgroups"))
        return 0;
    size_t sizes[64];
    size_t bytes = 0;
    if (clGetDeviceInfo(dev, CL_DEVICE_SUB_GROUP_SIZES_INTEL, sizeof sizes, sizes, &bytes) !=
        CL_SUCCESS)
        return 0;
    for (size_t i = 0; i < bytes / sizeof sizes[0]; ++i)
        if (sizes[i] == 32)
            return 1;
    return 0;
}

/* An NVIDIA GPU with warps of 32 (cl_nv_device_attribute_query), the sg (nv)
 * flavor's device; under the test hook, the plain GPU that plays one. */
static int is_nv_warp32(cl_device_id dev)
{
    if (zs_test_opencl_plain_gpu())
        return zs_test_opencl_nv_gpu();
    cl_uint vendor = 0, warp = 0;
    char ext[8192] = "";
    clGetDeviceInfo(dev, CL_DEVICE_VENDOR_ID, sizeof vendor, &vendor, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext - 1, ext, NULL);
    if (vendor != 0x10DE || !strstr(ext, "cl_nv_device_attribute_query"))
        return 0;
    clGetDeviceInfo(dev, CL_DEVICE_WARP_SIZE_NV, sizeof warp, &warp, NULL);
    return warp == 32;
}

int zs_cl_device_is_gpu(cl_device_id dev)
{
    if (zs_test_opencl_plain_gpu())
        return 1; /* test_hooks.h: every device plays a GPU */
    cl_device_type type = 0;
    clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    return (type & CL_DEVICE_TYPE_GPU) != 0;
}

/* A CPU device (the serial flavor's): never under the plain-GPU test hook. */
static int is_cpu_device(cl_device_id dev)
{
    if (zs_test_opencl_plain_gpu())
        return 0;
    cl_device_type type = 0;
    clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    return (type & CL_DEVICE_TYPE_CPU) != 0;
}

int zs_cl_device_flavor(cl_device_id dev, zs_flavor *out, char *msg, size_t msg_len)
{
    const zs_device_facts facts = {.api = ZS_API_OPENCL,
                                   .has_sg32 = has_intel_sg32(dev),
                                   .is_cpu = is_cpu_device(dev),
                                   .nv_warp32 = is_nv_warp32(dev)};
    return zs_select_flavor(&facts, getenv("ZESORT_FLAVOR"), out, msg, msg_len);
}

/* The embedded native binaries kernel_select.c names for this device, in
 * order, until the device accepts one: 1 with the program in *out, 0 when
 * none did, -1 with e set when a binary could not be decompressed. Only
 * Intel's runtime takes them: any other device with Intel sub-groups (PoCL 6)
 * would refuse all 16 targets' binaries for every program, so it goes
 * straight to the source. */
static int try_native(cl_context context, cl_device_id device, zs_flavor flavor, zs_program prog,
                      cl_program *out, zs_error *e, zesort_status *st)
{
    cl_uint vendor = 0;
    if (!zs_test_opencl_plain_gpu()) /* test_hooks.h: another vendor's GPU */
        clGetDeviceInfo(device, CL_DEVICE_VENDOR_ID, sizeof vendor, &vendor, NULL);
    if (vendor != 0x8086)
        return 0;
    size_t cursor = 0;
    for (const zs_blob *b; (b = zs_next_candidate(prog, flavor, ZS_API_OPENCL, &cursor));) {
        size_t size = b->size;
        const unsigned char *data;
        if ((*st = zs_blob_data(b, &data, e)) != ZESORT_OK)
            return -1;
        cl_int status, err;
        zs_test_count_build();
        cl_program p = clCreateProgramWithBinary(context, 1, &device, &size, &data, &status,
                                                 &err);
        if (p && err == CL_SUCCESS && clBuildProgram(p, 1, &device, "", NULL, NULL) ==
                                          CL_SUCCESS) {
            *out = p;
            return 1;
        }
        if (p)
            clReleaseProgram(p);
    }
    return 0;
}

/* 1 when the device's OpenCL C has the 3.0 feature __opencl_c_subgroups (an
 * OpenCL 3.0 device: the query fails on older ones, which reads as 0; the
 * plain OpenCL 1.2 GPU of the test hook is not asked). */
static int has_cl3_subgroups(cl_device_id device)
{
    cl_name_version features[256];
    size_t bytes = 0;
    if (zs_test_opencl_plain_gpu() ||
        clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, sizeof features, features,
                        &bytes) != CL_SUCCESS)
        return 0;
    for (size_t i = 0; i < bytes / sizeof features[0]; ++i)
        if (strcmp(features[i].name, "__opencl_c_subgroups") == 0)
            return 1;
    return 0;
}

/* The OpenCL C version a program's source is built with: 1.2 for portable and
 * serial; for sg, whichever version gives sub-groups on this device: 3.0 with
 * __opencl_c_subgroups (PoCL 6 reports OpenCL C 1.2 plus that feature and
 * refuses CL2.0), else 2.0 (Intel's compilers, as ocloc builds it). */
static const char *source_language(cl_device_id device, zs_flavor flavor)
{
    if (flavor != ZS_FLAVOR_SG) /* NVIDIA's OpenCL C is 1.2: sg (nv) too */
        return "-cl-std=CL1.2";
    return has_cl3_subgroups(device) ? "-cl-std=CL3.0" : "-cl-std=CL2.0";
}

/* The device's local memory in bytes, as a kernel may size itself by it
 * (ZS_LOCAL_MEM_BYTES: onesweep's portable rank takes a second set of mask
 * words where they fit); under the plain-GPU hook, that GPU's. */
static unsigned long local_mem_bytes(cl_device_id device)
{
    cl_ulong bytes = 0;
    clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof bytes, &bytes, NULL);
    if (zs_test_opencl_plain_gpu() && bytes > ZS_PLAIN_GPU_LOCAL_BYTES)
        bytes = ZS_PLAIN_GPU_LOCAL_BYTES;
    return (unsigned long)bytes;
}

/* Builds program prog into *slot unless it is built already: the embedded
 * native binaries for the device first, then the embedded source in
 * `flavor`. On failure a message in e and, when cl_err is not NULL, the
 * OpenCL error in *cl_err. */
static zesort_status build_program(cl_context context, cl_device_id device, zs_flavor flavor,
                                   zs_program prog, cl_program *slot, zs_error *e,
                                   cl_int *cl_err)
{
    if (*slot)
        return ZESORT_OK;
    zesort_status st = ZESORT_OK;
    const int native = try_native(context, device, flavor, prog, slot, e, &st);
    if (native != 0)
        return st;
    const char *src;
    if ((st = zs_program_source(prog, &src, e)) != ZESORT_OK)
        return st;
    cl_int err;
    zs_test_count_build();
    cl_program p = clCreateProgramWithSource(context, 1, &src, NULL, &err);
    if (!p) {
        if (cl_err)
            *cl_err = err;
        return zs_error_set(e, err == CL_OUT_OF_HOST_MEMORY ? ZESORT_ERROR_OUT_OF_HOST_MEMORY
                                                            : ZESORT_ERROR_BACKEND,
                            "OpenCL clCreateProgramWithSource failed (error %d)", (int)err);
    }
    char options[1024];
    const char *test_defines = zs_test_opencl_defines();
    const char *emulate = flavor == ZS_FLAVOR_SG_NV && zs_test_opencl_nv_gpu()
                              ? "-DZS_SG_NV_EMULATE=1" : ""; /* test_hooks.h */
    const int len = snprintf(options, sizeof options, "%s %s -DZS_LOCAL_MEM_BYTES=%luu %s %s",
                             zs_program_options(prog, flavor), source_language(device, flavor),
                             local_mem_bytes(device), emulate, test_defines ? test_defines : "");
    if (len < 0 || (size_t)len >= sizeof options) {
        clReleaseProgram(p);
        return zs_error_set(e, ZESORT_ERROR_BACKEND, "OpenCL build options longer than %zu bytes",
                            sizeof options - 1);
    }
    err = clBuildProgram(p, 1, &device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[512] = "";
        clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
        clReleaseProgram(p);
        if (cl_err)
            *cl_err = err;
        return zs_error_set(e, ZESORT_ERROR_BACKEND, "OpenCL kernel build failed (error %d): %s",
                            (int)err, log);
    }
    *slot = p;
    return ZESORT_OK;
}

cl_int zs_cl_launch_limits(cl_kernel kernel, cl_device_id device, size_t local, char *why,
                           size_t why_len)
{
    if (!zs_test_opencl_plain_gpu())
        return CL_SUCCESS; /* a real device's driver checks its own limits */
    if (local > ZS_PLAIN_GPU_MAX_WG) {
        snprintf(why, why_len, "a work-group of %zu work-items, over the device's %u", local,
                 ZS_PLAIN_GPU_MAX_WG);
        return CL_INVALID_WORK_GROUP_SIZE;
    }
    cl_ulong bytes = 0;
    cl_int err = clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof bytes,
                                          &bytes, NULL);
    if (err != CL_SUCCESS) {
        snprintf(why, why_len, "clGetKernelWorkGroupInfo(CL_KERNEL_LOCAL_MEM_SIZE) failed");
        return err;
    }
    if (bytes <= ZS_PLAIN_GPU_LOCAL_BYTES)
        return CL_SUCCESS;
    snprintf(why, why_len, "%llu bytes of local memory, over the device's %u",
             (unsigned long long)bytes, ZS_PLAIN_GPU_LOCAL_BYTES);
    return CL_OUT_OF_RESOURCES;
}

zesort_status zs_cl_kernel(zs_cl_kernels *k, zs_kernel id, cl_kernel *out, zs_error *e,
                           cl_int *cl_err)
{
    if (!k->kernels[id]) {
        const zs_program p = zs_kernel_program(id);
        zesort_status st = build_program(k->context, k->device, k->flavor, p, &k->programs[p], e,
                                         cl_err);
        if (st != ZESORT_OK)
            return st;
        cl_int err;
        k->kernels[id] = clCreateKernel(k->programs[p], zs_kernel_name(id), &err);
        if (!k->kernels[id]) {
            if (cl_err)
                *cl_err = err;
            return zs_cl_fail(e, "clCreateKernel", err);
        }
    }
    if (out)
        *out = k->kernels[id];
    return ZESORT_OK;
}

void zs_cl_kernels_release(zs_cl_kernels *k)
{
    for (int i = 0; i < ZS_K_COUNT; i++)
        if (k->kernels[i])
            clReleaseKernel(k->kernels[i]);
    for (int i = 0; i < ZS_PROG_COUNT; i++)
        if (k->programs[i])
            clReleaseProgram(k->programs[i]);
    memset(k->kernels, 0, sizeof k->kernels);
    memset(k->programs, 0, sizeof k->programs);
}
