/*
 * kernel_select.c — the kernel flavor for a device and the embedded programs
 * to try for it, for the OpenCL and Level Zero backends alike (see
 * kernel_select.h for the rules).
 */
#include "programs/kernel_select.h"

#include <stdio.h>
#include <string.h>

const char *zs_flavor_name(zs_flavor flavor)
{
    return flavor == ZS_FLAVOR_SG        ? "sg"
           : flavor == ZS_FLAVOR_SG_NV   ? "sg (nv)"
           : flavor == ZS_FLAVOR_SERIAL  ? "serial"
                                         : "portable";
}

int zs_flavor_parse(const char *name, zs_flavor *out, char *msg, size_t msg_len)
{
    static const struct { const char *name; zs_flavor flavor; } names[] = {
        {"sg", ZS_FLAVOR_SG}, {"portable", ZS_FLAVOR_PORTABLE}, {"serial", ZS_FLAVOR_SERIAL},
        {"cpu", ZS_FLAVOR_SERIAL}, /* another name for serial */
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
        if (strcmp(name, names[i].name) == 0) {
            *out = names[i].flavor;
            return 0;
        }
    }
    snprintf(msg, msg_len, "ZESORT_FLAVOR=%.40s: expected sg, portable or serial", name);
    return -1;
}

/* The sg algorithm's flavor on this device, or the portable one without
 * sub-groups of 32: Intel's sub-groups first (an NVIDIA device has none). */
static zs_flavor sg_or_portable(const zs_device_facts *facts)
{
    return facts->has_sg32 ? ZS_FLAVOR_SG
           : facts->api == ZS_API_OPENCL && facts->nv_warp32 ? ZS_FLAVOR_SG_NV
                                                              : ZS_FLAVOR_PORTABLE;
}

int zs_select_flavor(const zs_device_facts *facts, const char *forced, zs_flavor *out,
                     char *msg, size_t msg_len)
{
    const zs_flavor sg = sg_or_portable(facts);
    if (facts->api == ZS_API_LEVEL_ZERO)
        *out = sg;
    else
        *out = facts->is_cpu ? ZS_FLAVOR_SERIAL /* measured fastest on CPUs, sg32 or not */ : sg;
    if (!forced || !*forced)
        return 0;
    zs_flavor named;
    if (zs_flavor_parse(forced, &named, msg, msg_len) != 0)
        return -1;
    if (named == ZS_FLAVOR_SG && sg == ZS_FLAVOR_PORTABLE) {
        snprintf(msg, msg_len, "ZESORT_FLAVOR=sg: this %s device has no Intel sub-groups%s",
                 facts->api == ZS_API_OPENCL ? "OpenCL" : "Level Zero",
                 facts->api == ZS_API_OPENCL
                     ? " (cl_intel_subgroups) and is no NVIDIA GPU with warps of 32"
                     : " of 32");
        return -1;
    }
    if (named == ZS_FLAVOR_SG)
        named = sg; /* Intel sub-groups or NVIDIA warps: the same kernels */
    if (named == ZS_FLAVOR_SERIAL && facts->api == ZS_API_LEVEL_ZERO) {
        snprintf(msg, msg_len, "ZESORT_FLAVOR=%s: the Level Zero path has no serial flavor",
                 forced);
        return -1;
    }
    *out = named;
    return 0;
}

int zs_blob_is_native(const zs_blob *b) { return strcmp(b->target, "spirv") != 0; }

const zs_blob *zs_next_candidate(zs_program p, zs_flavor flavor, zs_device_api api,
                                 size_t *cursor)
{
    /* 1. native binaries (compiled from the sg flavor), one per Intel target:
     *    the device accepts the one built for it. OpenCL tries them only for
     *    the sg flavor (the other flavors are built from source there). */
    const int natives = api == ZS_API_LEVEL_ZERO || flavor == ZS_FLAVOR_SG;
    while (natives && *cursor < zs_blob_count) {
        const zs_blob *b = &zs_blobs[(*cursor)++];
        if (b->program == p && b->flavor == ZS_FLAVOR_SG && zs_blob_is_native(b))
            return b;
    }
    if (api == ZS_API_OPENCL)
        return NULL;
    /* 2. Level Zero: SPIR-V of the flavor, then the portable one after sg. */
    if (*cursor < zs_blob_count)
        *cursor = zs_blob_count;
    const zs_flavor spirv[2] = {ZS_FLAVOR_SG, ZS_FLAVOR_PORTABLE};
    for (size_t i = *cursor - zs_blob_count; i < 2; ++i) {
        *cursor = zs_blob_count + i + 1;
        if (flavor != ZS_FLAVOR_SG && spirv[i] == ZS_FLAVOR_SG)
            continue;
        const zs_blob *b = zs_find_blob(p, spirv[i], "spirv");
        if (b)
            return b;
    }
    return NULL;
}
