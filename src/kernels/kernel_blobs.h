/*
 * kernel_blobs.h — kernels embedded at build time (generated kernel_blobs.c,
 * made by kernels/embed_kernels.py with ocloc). No kernel file is read at run
 * time. Which of them a device uses is decided in kernel_select.c.
 */
#ifndef ZESORT_KERNEL_BLOBS_H
#define ZESORT_KERNEL_BLOBS_H

#include <stddef.h>

#include "plan/plan.h" /* zs_program, zs_flavor */

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
