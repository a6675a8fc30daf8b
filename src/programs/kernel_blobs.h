/*
 * kernel_blobs.h — kernels embedded at build time (generated kernel_blobs.c,
 * made by kernels/embed_kernels.py with ocloc). No kernel file is read at run
 * time. Which of them a device uses is decided in kernel_select.c.
 *
 * The binaries and the sources are stored zstd-compressed in frames: one per
 * native Intel target, one per SPIR-V flavor, one for the OpenCL C sources,
 * so that a device decompresses only what it may run, plus the frames its
 * frame was compressed against (the sg SPIR-V, which every native binary
 * holds; a related target's binaries, at most 3 frames). A frame is
 * decompressed on the first request for one of its blobs, checked (size and
 * CRC-32) and kept for the rest of the process (kernel_frames.c).
 */
#ifndef ZESORT_KERNEL_BLOBS_H
#define ZESORT_KERNEL_BLOBS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "plan/plan.h" /* zs_program, zs_flavor */

typedef struct zs_blob {
    zs_program program;
    zs_flavor flavor;
    const char *target;         /* "spirv" or an ocloc target name ("skl", "dg2", ...) */
    unsigned frame;             /* index into zs_frames */
    size_t offset;              /* where the blob starts in its decompressed frame */
    size_t size;
    uint32_t ip_version;        /* a native binary's IP version (its compatibility note;
                                   ocloc 26 writes one), 0: none noted, or SPIR-V */
} zs_blob;

extern const zs_blob zs_blobs[];
extern const size_t zs_blob_count;

typedef struct zs_frame {
    const char *name;            /* "skl", "skl/kbl" (identical frames), "spirv-sg", "source" */
    const unsigned char *zdata;  /* one zstd frame */
    size_t zsize;
    size_t size;                 /* decompressed bytes */
    uint32_t crc32;              /* CRC-32 (zlib's) of the decompressed bytes */
    int dict;                    /* the frame whose decompressed bytes are this one's
                                    raw-content dictionary, or -1 */
} zs_frame;

extern const zs_frame zs_frames[];
extern const size_t zs_frame_count;
/* The decompressed frames, NULL until first used (kernel_frames.c). */
extern _Atomic(const unsigned char *) zs_frame_cache[];

/* The decompressed bytes of frame `index` into *out, valid for the life of
 * the process. ZESORT_OK; else *out is NULL and e says why:
 * ZESORT_ERROR_OUT_OF_HOST_MEMORY, or ZESORT_ERROR_BACKEND when the frame is
 * corrupt. A failure is not remembered: the next request tries again.
 * Thread-safe. */
zesort_status zs_frame_data(unsigned index, const unsigned char **out, zs_error *e);

/* The bytes of blob b (b->size of them), as zs_frame_data. */
zesort_status zs_blob_data(const zs_blob *b, const unsigned char **out, zs_error *e);

/* The OpenCL C source of a program (headers inlined, NUL-terminated) into
 * *out, as zs_frame_data; the build options (-D defines) of a program+flavor,
 * for devices that build from source. */
zesort_status zs_program_source(zs_program program, const char **out, zs_error *e);

/* The frame of the OpenCL C sources, and where each program's starts in it
 * (generated; zs_program_source reads them). */
extern const unsigned zs_source_frame;
extern const size_t zs_source_offset[];
const char *zs_program_options(zs_program program, zs_flavor flavor);

/* Blob for (program, flavor, target) or NULL. */
const zs_blob *zs_find_blob(zs_program program, zs_flavor flavor, const char *target);

/* Comma separated list of native targets embedded (e.g. "skl,kbl,...,pvc"). */
extern const char zs_aot_target_list[];

#endif
