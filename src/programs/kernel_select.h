/*
 * kernel_select.h — which embedded kernel program a device runs: the kernel
 * flavor for a device (and the ZESORT_FLAVOR override), the order in which
 * the embedded binaries of a program are tried, and flavor names. The one
 * place both device APIs ask: backend_opencl.c (OpenCL) and ze_common.c
 * (Level Zero: the device backend and the interop API).
 *
 * Flavors (kernel_blobs.h, kernels/zesort_subgroup.h):
 *   sg        Intel sub-groups of 32; embedded as native binaries for every
 *             Intel target and as SPIR-V
 *   sg (nv)   the sg kernels on an NVIDIA warp of 32: kernels/zesort_warp.h's
 *             operations in inline PTX; built from source (OpenCL C 1.2)
 *   portable  OpenCL C 1.2, a work-group of 32 emulates a sub-group through
 *             local memory; embedded as SPIR-V, and built from source
 *   serial    portable OpenCL C for CPU devices (PoCL): one work-item ranks a
 *             whole chunk or tile; built from source only
 *
 * Choice:
 *   OpenCL      CPU device: serial (measured fastest there, whatever it
 *               offers); a device with Intel sub-groups of 32
 *               (cl_intel_subgroups and 32 in CL_DEVICE_SUB_GROUP_SIZES_INTEL,
 *               whoever made it): sg (native binaries, else the source, built
 *               as OpenCL C 3.0 with sub-groups or 2.0); an NVIDIA GPU with
 *               warps of 32 (cl_nv_device_attribute_query): sg (nv); any
 *               other: portable. ZESORT_FLAVOR=sg|portable|serial ("cpu" is
 *               accepted as an old name of serial) overrides it; sg only
 *               where the device has sub-groups of 32 (PoCL 6 on the CPU
 *               has) or NVIDIA warps, and it means sg (nv) on the latter.
 *   Level Zero  sg when the device has sub-groups of 32, else portable:
 *               native binaries first, then the SPIR-V of that flavor, then
 *               (sg only) the portable SPIR-V. No serial flavor: the Level
 *               Zero path takes binaries, never source.
 */
#ifndef ZESORT_KERNEL_SELECT_H
#define ZESORT_KERNEL_SELECT_H

#include <stddef.h>

#include "programs/kernel_blobs.h"

/* "sg", "sg (nv)", "portable" or "serial". */
const char *zs_flavor_name(zs_flavor flavor);

/* ZESORT_FLAVOR's value `name` -> *out: 0, or -1 with a one-line message when
 * it names no flavor ("cpu" is accepted as another name for serial). */
int zs_flavor_parse(const char *name, zs_flavor *out, char *msg, size_t msg_len);

/* What the choice depends on. */
typedef enum zs_device_api { ZS_API_OPENCL, ZS_API_LEVEL_ZERO } zs_device_api;
typedef struct zs_device_facts {
    zs_device_api api;
    int has_sg32;  /* runs the sg flavor: OpenCL: cl_intel_subgroups with sub-group
                      size 32; Level Zero: sub-groups of 32 */
    int is_cpu;    /* a CPU device (OpenCL) */
    int nv_warp32; /* OpenCL: an NVIDIA GPU with warps of 32 (CL_DEVICE_WARP_SIZE_NV),
                      which runs the sg kernels through inline PTX */
} zs_device_facts;

/* The flavor a device runs. `forced` is ZESORT_FLAVOR's value (NULL or "" for
 * none; only the OpenCL backend passes it). Returns 0, or -1 with a one-line
 * message in msg when `forced` names no flavor or one the device cannot run. */
int zs_select_flavor(const zs_device_facts *facts, const char *forced, zs_flavor *out,
                     char *msg, size_t msg_len);

/* The embedded binaries to try for program p on a device running `flavor`, in
 * order: *cursor starts at 0; each call returns the next candidate, or NULL
 * when there is none left. OpenCL: the native binaries (sg flavor only); after
 * them the backend builds zs_program_source(p) with zs_program_options(p,
 * flavor). Level Zero: the native binaries, then SPIR-V as above. A caller
 * tells a native binary from SPIR-V by zs_blob_is_native(). */
const zs_blob *zs_next_candidate(zs_program p, zs_flavor flavor, zs_device_api api,
                                 size_t *cursor);

/* 1 for a native binary of one Intel target, 0 for SPIR-V. */
int zs_blob_is_native(const zs_blob *b);

#endif
