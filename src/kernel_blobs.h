/*
 * kernel_blobs.h — kernels embedded at build time (generated kernel_blobs.c,
 * made by kernels/embed_kernels.py with ocloc). No kernel file is read at run
 * time. Which of them a device uses is decided in kernel_select.c.
 */
#ifndef ZESORT_KERNEL_BLOBS_H
#define ZESORT_KERNEL_BLOBS_H

#include <stddef.h>
#include "plan.h"

/* sg: Intel sub-groups; portable: sub-groups emulated in local memory;
 * serial: portable with serial ranking (ZS_SERIAL, kernels/zesort_subgroup.h),
 * built from source only. Which one a device runs: kernel_select.h. */
typedef enum zs_flavor { ZS_FLAVOR_PORTABLE = 0, ZS_FLAVOR_SG = 1, ZS_FLAVOR_SERIAL = 2 } zs_flavor;

typedef struct zs_blob {
    zs_program program;
    zs_flavor flavor;
    const char *target;         /* "spirv" or an ocloc target name ("skl", "dg2", ...) */
    const unsigned char *data;
    size_t size;
} zs_blob;

extern const zs_blob zs_blobs[];
extern const size_t zs_blob_count;

/* The OpenCL C source of a program (headers inlined) and the build options
 * (-D defines) of a program+flavor, for devices that build from source. */
const char *zs_program_source(zs_program program);
const char *zs_program_options(zs_program program, zs_flavor flavor);

/* Blob for (program, flavor, target) or NULL. */
const zs_blob *zs_find_blob(zs_program program, zs_flavor flavor, const char *target);

/* Comma separated list of native targets embedded (e.g. "skl,kbl,...,pvc"). */
extern const char zs_aot_target_list[];

#endif
