/*
 * ze_common.c — Level Zero helpers shared by the device backend and the
 * interop API: result names, status mapping, lazy module/kernel creation from
 * the embedded blobs (in the order kernel_select.c gives: native binary for the
 * device if one is accepted, else SPIR-V), and preparation of one kernel step
 * of a plan.
 */
#include "backends/level_zero/ze_common.h"

#include "common/test_hooks.h"
#include "programs/kernel_select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *zs_ze_result_name(ze_result_t r)
{
    switch (r) {
#define ZS_NAME(x) case x: return #x;
    ZS_NAME(ZE_RESULT_SUCCESS)
    ZS_NAME(ZE_RESULT_NOT_READY)
    ZS_NAME(ZE_RESULT_ERROR_DEVICE_LOST)
    ZS_NAME(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY)
    ZS_NAME(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)
    ZS_NAME(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE)
    ZS_NAME(ZE_RESULT_ERROR_MODULE_LINK_FAILURE)
    ZS_NAME(ZE_RESULT_ERROR_DEVICE_REQUIRES_RESET)
    ZS_NAME(ZE_RESULT_ERROR_DEVICE_IN_LOW_POWER_STATE)
    ZS_NAME(ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS)
    ZS_NAME(ZE_RESULT_ERROR_NOT_AVAILABLE)
    ZS_NAME(ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE)
    ZS_NAME(ZE_RESULT_ERROR_UNINITIALIZED)
    ZS_NAME(ZE_RESULT_ERROR_UNSUPPORTED_VERSION)
    ZS_NAME(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE)
    ZS_NAME(ZE_RESULT_ERROR_INVALID_ARGUMENT)
    ZS_NAME(ZE_RESULT_ERROR_INVALID_NULL_HANDLE)
    ZS_NAME(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE)
    ZS_NAME(ZE_RESULT_ERROR_INVALID_NULL_POINTER)
    ZS_NAME(ZE_RESULT_ERROR_INVALID_SIZE)
    ZS_NAME(ZE_RESULT_ERROR_UNSUPPORTED_SIZE)
    ZS_NAME(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT)
    ZS_NAME(ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT)
    ZS_NAME(ZE_RESULT_ERROR_INVALID_ENUMERATION)
    ZS_NAME(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION)
    ZS_NAME(ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT)
    ZS_NAME(ZE_RESULT_ERROR_INVALID_NATIVE_BINARY)
    ZS_NAME(ZE_RESULT_ERROR_INVALID_GLOBAL_NAME)
    ZS_NAME(ZE_RESULT_ERROR_INVALID_KERNEL_NAME)
    ZS_NAME(ZE_RESULT_ERROR_INVALID_FUNCTION_NAME)
    ZS_NAME(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION)
    ZS_NAME(ZE_RESULT_ERROR_INVALID_GLOBAL_WIDTH_DIMENSION)
    ZS_NAME(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX)
    ZS_NAME(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE)
    ZS_NAME(ZE_RESULT_ERROR_INVALID_KERNEL_ATTRIBUTE_VALUE)
    ZS_NAME(ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED)
    ZS_NAME(ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE)
    ZS_NAME(ZE_RESULT_ERROR_OVERLAPPING_REGIONS)
    ZS_NAME(ZE_RESULT_ERROR_UNKNOWN)
#undef ZS_NAME
    default: return "ZE_RESULT_(unknown value)";
    }
}

zesort_status zs_ze_status(ze_result_t r)
{
    switch (r) {
    case ZE_RESULT_SUCCESS: return ZESORT_OK;
    case ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY: return ZESORT_ERROR_OUT_OF_HOST_MEMORY;
    case ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY: return ZESORT_ERROR_OUT_OF_DEVICE_MEMORY;
    case ZE_RESULT_ERROR_UNSUPPORTED_FEATURE:
    case ZE_RESULT_ERROR_UNSUPPORTED_VERSION:
    case ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION:
        return ZESORT_ERROR_UNSUPPORTED;
    default: return ZESORT_ERROR_BACKEND;
    }
}

static _Thread_local ze_result_t last_failure = ZE_RESULT_SUCCESS;

void zs_ze_note_failure(ze_result_t r)
{
    last_failure = r;
}

ze_result_t zs_ze_take_failure(void)
{
    ze_result_t r = last_failure;
    last_failure = ZE_RESULT_SUCCESS;
    return r;
}

zesort_status zs_ze_fail(zs_error *e, const char *what, ze_result_t r)
{
    zs_ze_note_failure(r);
    return zs_error_set(e, zs_ze_status(r), "%s failed: %s (0x%x)", what, zs_ze_result_name(r),
                        (unsigned)r);
}

/* The device's IP version (ze_device_ip_version_ext_t, Level Zero 1.9: not
 * in Debian 12's headers, so declared here as the specification has it), or
 * 0 when the driver does not report one. It lets a context skip the native
 * binaries of other GPUs without decompressing them (kernel_frames.c). */
#define ZS_ZE_STRUCTURE_TYPE_DEVICE_IP_VERSION_EXT ((ze_structure_type_t)0x1000f)
typedef struct zs_ze_ip_version_ext {
    ze_structure_type_t stype;
    void *pNext;
    uint32_t ipVersion;
} zs_ze_ip_version_ext;

static uint32_t device_ip_version(ze_device_handle_t device)
{
    zs_ze_ip_version_ext ip = {.stype = ZS_ZE_STRUCTURE_TYPE_DEVICE_IP_VERSION_EXT};
    ze_device_properties_t p = {.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES, .pNext = &ip};
    return zeDeviceGetProperties(device, &p) == ZE_RESULT_SUCCESS ? ip.ipVersion : 0;
}

zesort_status zs_ze_kernels_init(zs_ze_kernels *k, ze_context_handle_t context,
                                 ze_device_handle_t device, zs_error *err)
{
    memset(k, 0, sizeof *k);
    k->context = context;
    k->device = device;
    k->compute.stype = ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES;
    ze_result_t r = zeDeviceGetComputeProperties(device, &k->compute);
    if (r != ZE_RESULT_SUCCESS)
        return zs_ze_fail(err, "zeDeviceGetComputeProperties", r);
    for (uint32_t i = 0; i < k->compute.numSubGroupSizes && i < ZE_SUBGROUPSIZE_COUNT; i++)
        if (k->compute.subGroupSizes[i] == ZS_LANES)
            k->has_sg32 = 1;
    k->ip_version = device_ip_version(device);
    return ZESORT_OK;
}

void zs_ze_kernels_release(zs_ze_kernels *k)
{
    if (!k)
        return;
    for (int i = 0; i < ZS_K_COUNT; i++) {
        if (k->kernel[i])
            zeKernelDestroy(k->kernel[i]);
        k->kernel[i] = NULL;
        k->group_size[i] = 0;
    }
    for (int p = 0; p < ZS_PROG_COUNT; p++) {
        if (k->module[p])
            zeModuleDestroy(k->module[p]);
        k->module[p] = NULL;
        k->module_origin[p] = NULL;
    }
}

/* Sets "<prefix>: <result>; build log: <log>" on err (the log when there is one). */
static void log_into(ze_module_build_log_handle_t log, const char *prefix, ze_result_t r,
                     zs_error *err)
{
    size_t size = 0;
    char *text = NULL;
    if (log && zeModuleBuildLogGetString(log, &size, NULL) == ZE_RESULT_SUCCESS && size > 1 &&
        (text = malloc(size)) != NULL &&
        zeModuleBuildLogGetString(log, &size, text) == ZE_RESULT_SUCCESS) {
        text[size - 1] = '\0';
        zs_error_set(err, ZESORT_ERROR_BACKEND, "%s: %s; build log: %s", prefix,
                     zs_ze_result_name(r), text);
    } else {
        zs_error_set(err, ZESORT_ERROR_BACKEND, "%s: %s", prefix, zs_ze_result_name(r));
    }
    free(text);
}

/* One zeModuleCreate attempt. On failure, a description (with the build log)
 * goes into err when err is non-NULL. */
static ze_result_t try_module(zs_ze_kernels *k, const zs_blob *b, const unsigned char *data,
                              ze_module_format_t format, ze_module_handle_t *out, zs_error *err)
{
    ze_module_desc_t desc = {
        .stype = ZE_STRUCTURE_TYPE_MODULE_DESC,
        .pNext = NULL,
        .format = format,
        .inputSize = b->size,
        .pInputModule = data,
        .pBuildFlags = "",
        .pConstants = NULL,
    };
    ze_module_build_log_handle_t log = NULL;
    ze_module_handle_t module = NULL;
    zs_test_count_build();
    ze_result_t r = zeModuleCreate(k->context, k->device, &desc, &module, err ? &log : NULL);
    if (r == ZE_RESULT_SUCCESS) {
        *out = module;
    } else if (err) {
        char prefix[96];
        snprintf(prefix, sizeof prefix, "zeModuleCreate (program %s, %s, %s flavor)",
                 zs_program_name(b->program), b->target,
                 zs_flavor_name(b->flavor));
        log_into(log, prefix, r, err);
    }
    if (log)
        zeModuleBuildLogDestroy(log);
    return r;
}

/* Creates the module of program p from the first embedded binary the device
 * accepts, in the order kernel_select.c gives: the native binaries (the one
 * built for this device is accepted, the others are rejected), then SPIR-V of
 * the device's flavor (sg, falling back to portable). */
static zesort_status load_module(zs_ze_kernels *k, zs_program p, zs_error *err)
{
    ze_result_t last = ZE_RESULT_ERROR_UNKNOWN;
    int tried_spirv = 0;
    size_t cursor = 0;
    for (const zs_blob *b;
         (b = zs_next_candidate(p, zs_ze_flavor(k), ZS_API_LEVEL_ZERO, &cursor));) {
        const int native = zs_blob_is_native(b);
        /* another GPU's binary, known without decompressing its frame */
        if (native && b->ip_version && k->ip_version && b->ip_version != k->ip_version)
            continue;
        const unsigned char *data;
        zesort_status st = zs_blob_data(b, &data, err);
        if (st != ZESORT_OK)
            return st; /* a damaged library, not a device that refuses the binary */
        ze_result_t r = native
            ? try_module(k, b, data, ZE_MODULE_FORMAT_NATIVE, &k->module[p], NULL)
            : try_module(k, b, data, ZE_MODULE_FORMAT_IL_SPIRV, &k->module[p], err);
        if (r == ZE_RESULT_SUCCESS) {
            k->module_origin[p] = native ? b->target
                                  : b->flavor == ZS_FLAVOR_SG ? "spirv sg" : "spirv portable";
            return ZESORT_OK;
        }
        if (!native) {
            tried_spirv = 1;
            last = r;
        }
    }
    if (!tried_spirv) {
        return zs_error_set(err, ZESORT_ERROR_UNSUPPORTED,
                            "no embedded SPIR-V for program %s: the build embedded no kernels",
                            zs_program_name(p));
    }
    /* err holds the last attempt's description and build log. */
    zs_ze_note_failure(last);
    zesort_status s = zs_ze_status(last);
    return s == ZESORT_ERROR_OUT_OF_HOST_MEMORY || s == ZESORT_ERROR_OUT_OF_DEVICE_MEMORY
               ? s : ZESORT_ERROR_BACKEND;
}

zs_flavor zs_ze_flavor(const zs_ze_kernels *k)
{
    const zs_device_facts facts = {.api = ZS_API_LEVEL_ZERO, .has_sg32 = k->has_sg32};
    zs_flavor flavor = ZS_FLAVOR_PORTABLE;
    zs_select_flavor(&facts, NULL, &flavor, NULL, 0); /* no override: cannot fail */
    return flavor;
}

static zesort_status get_kernel(zs_ze_kernels *k, zs_kernel id, zs_error *err)
{
    if (k->kernel[id])
        return ZESORT_OK;
    zs_program p = zs_kernel_program(id);
    if ((int)p < 0 || p >= ZS_PROG_COUNT) {
        return zs_error_set(err, ZESORT_ERROR_BACKEND, "kernel %d belongs to no program", (int)id);
    }
    if (!k->module[p]) {
        zesort_status s = load_module(k, p, err);
        if (s != ZESORT_OK)
            return s;
    }
    ze_kernel_desc_t desc = {
        .stype = ZE_STRUCTURE_TYPE_KERNEL_DESC,
        .pNext = NULL,
        .flags = 0,
        .pKernelName = zs_kernel_name(id),
    };
    ze_result_t r = zeKernelCreate(k->module[p], &desc, &k->kernel[id]);
    if (r != ZE_RESULT_SUCCESS) {
        k->kernel[id] = NULL;
        zs_ze_note_failure(r);
        return zs_error_set(err,
                            zs_ze_status(r) == ZESORT_ERROR_OUT_OF_HOST_MEMORY
                                ? ZESORT_ERROR_OUT_OF_HOST_MEMORY : ZESORT_ERROR_BACKEND,
                            "zeKernelCreate(%s) from %s module failed: %s", desc.pKernelName,
                            k->module_origin[p] ? k->module_origin[p] : "?",
                            zs_ze_result_name(r));
    }
    return ZESORT_OK;
}

zesort_status zs_ze_build_kernel(zs_ze_kernels *k, zs_kernel id, zs_error *err)
{
    if ((int)id < 0 || id >= ZS_K_COUNT)
        return zs_error_set(err, ZESORT_ERROR_BACKEND, "internal error: kernel %d", (int)id);
    return get_kernel(k, id, err);
}

zesort_status zs_ze_prepare_step(zs_ze_kernels *k, const zs_step *step, void *const *buffers,
                                 ze_kernel_handle_t *kernel, ze_group_count_t *groups,
                                 zs_error *err)
{
    if (step->kind != ZS_STEP_KERNEL || (int)step->kernel < 0 || step->kernel >= ZS_K_COUNT ||
        step->nargs < 0 || step->nargs > ZS_MAX_ARGS || step->local == 0) {
        return zs_error_set(err, ZESORT_ERROR_BACKEND, "internal error: malformed kernel step");
    }
    /* Grids are one-dimensional: the kernels use get_group_id(0) only. */
    uint64_t max_x = k->compute.maxGroupCountX ? k->compute.maxGroupCountX : UINT32_MAX;
    if (step->groups > max_x) {
        return zs_error_set(err, ZESORT_ERROR_UNSUPPORTED,
                            "%s needs %llu work-groups but the device launches at most %llu in X",
                            zs_kernel_name(step->kernel), (unsigned long long)step->groups,
                            (unsigned long long)max_x);
    }
    zesort_status s = get_kernel(k, step->kernel, err);
    if (s != ZESORT_OK)
        return s;
    ze_kernel_handle_t h = k->kernel[step->kernel];
    ze_result_t r;
    if (k->group_size[step->kernel] != step->local) {
        r = zeKernelSetGroupSize(h, step->local, 1, 1);
        if (r != ZE_RESULT_SUCCESS) {
            zs_ze_note_failure(r);
            return zs_error_set(err,
                                zs_ze_status(r) == ZESORT_ERROR_UNSUPPORTED
                                    ? ZESORT_ERROR_UNSUPPORTED : ZESORT_ERROR_BACKEND,
                                "zeKernelSetGroupSize(%s, %u) failed: %s",
                                zs_kernel_name(step->kernel), step->local, zs_ze_result_name(r));
        }
        k->group_size[step->kernel] = step->local;
    }
    for (int i = 0; i < step->nargs; i++) {
        const zs_arg *a = &step->args[i];
        if (a->is_buffer) {
            if (a->value >= ZS_BUF_COUNT || !buffers[a->value]) {
                return zs_error_set(err, ZESORT_ERROR_BACKEND,
                                    "internal error: %s argument %d names buffer %u, which has "
                                    "no memory", zs_kernel_name(step->kernel), i, a->value);
            }
            void *ptr = buffers[a->value];
            r = zeKernelSetArgumentValue(h, (uint32_t)i, sizeof ptr, &ptr);
        } else {
            uint32_t v = a->value;
            r = zeKernelSetArgumentValue(h, (uint32_t)i, sizeof v, &v);
        }
        if (r != ZE_RESULT_SUCCESS) {
            zs_ze_note_failure(r);
            return zs_error_set(err, ZESORT_ERROR_BACKEND,
                                "zeKernelSetArgumentValue(%s, %d) failed: %s",
                                zs_kernel_name(step->kernel), i, zs_ze_result_name(r));
        }
    }
    *kernel = h;
    groups->groupCountX = (uint32_t)step->groups;
    groups->groupCountY = 1;
    groups->groupCountZ = 1;
    return ZESORT_OK;
}
