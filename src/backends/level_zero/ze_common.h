/*
 * ze_common.h — Level Zero pieces shared by the device backend
 * (backend_level_zero.c) and the interop API (interop_ze.c): result names,
 * mapping of ze_result_t to zesort_status, and the per-(context, device)
 * cache of modules and kernels built from the embedded blobs, plus the
 * preparation of one plan step (arguments, group size, group count).
 *
 * Internal to the library; not installed.
 */
#ifndef ZESORT_ZE_COMMON_H
#define ZESORT_ZE_COMMON_H

#include <level_zero/ze_api.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "plan/plan.h"
#include "programs/kernel_blobs.h"
#include "zesort.h"

/* Static name of a Level Zero result, e.g. "ZE_RESULT_ERROR_DEVICE_LOST". */
typedef struct zs_device zs_device;

/* The driver, context and device of a Level Zero backend device
 * (backend_level_zero.c): zesort_ze_context_handles. */
void zs_level_zero_handles(zs_device *dev, ze_driver_handle_t *driver,
                           ze_context_handle_t *context, ze_device_handle_t *device);

const char *zs_ze_result_name(ze_result_t r);

/* Maps a failed call's result to a zesort status: out-of-memory results keep
 * their meaning, unsupported features stay UNSUPPORTED, the rest is BACKEND. */
zesort_status zs_ze_status(ze_result_t r);

/* Sets "<what> failed: <result name> (0x...)" on e and returns zs_ze_status(r). */
zesort_status zs_ze_fail(zs_error *e, const char *what, ze_result_t r);

/* The result of the newest failed driver call made by this thread through the
 * functions below, the recorder or the interop (zs_ze_note_failure); taking it
 * resets it to ZE_RESULT_SUCCESS. */
void zs_ze_note_failure(ze_result_t r);
ze_result_t zs_ze_take_failure(void);

/* Modules and kernels of one (context, device), created lazily on first use.
 * The context and device are borrowed, never released here. */
typedef struct zs_ze_kernels {
    ze_context_handle_t context;
    ze_device_handle_t device;
    ze_device_compute_properties_t compute;
    int has_sg32;                           /* device offers sub-groups of 32 */
    uint32_t ip_version;                    /* the device's IP version, 0: not reported */
    ze_module_handle_t module[ZS_PROG_COUNT];
    const char *module_origin[ZS_PROG_COUNT]; /* "native skl", "spirv sg", ... */
    ze_kernel_handle_t kernel[ZS_K_COUNT];
    uint32_t group_size[ZS_K_COUNT];       /* last group size set, 0 = none */
} zs_ze_kernels;

/* Queries the device's compute properties. Creates nothing. */
zesort_status zs_ze_kernels_init(zs_ze_kernels *k, ze_context_handle_t context,
                                 ze_device_handle_t device, zs_error *err);

/* The flavor whose plans the device runs: sg with 32-wide sub-groups, else
 * portable (kernel_select.c decides; the Level Zero path has no serial flavor). */
zs_flavor zs_ze_flavor(const zs_ze_kernels *k);

/* Destroys every kernel and module created; safe on a zeroed or partly
 * initialised struct. */
void zs_ze_kernels_release(zs_ze_kernels *k);

/* Creates kernel id (and its module) unless it exists already. */
zesort_status zs_ze_build_kernel(zs_ze_kernels *k, zs_kernel id, zs_error *err);

/* Sets the arguments and group size of a ZS_STEP_KERNEL step on its kernel
 * (creating module and kernel on first use) and fills *kernel and *groups for
 * zeCommandListAppendLaunchKernel. `buffers` maps zs_buffer ids to device
 * pointers. Kernel arguments are captured by Level Zero when the launch is
 * appended, so the same kernel may be prepared again for the next step.
 * UNSUPPORTED when step->groups exceeds the device's maxGroupCountX. */
zesort_status zs_ze_prepare_step(zs_ze_kernels *k, const zs_step *step, void *const *buffers,
                                 ze_kernel_handle_t *kernel, ze_group_count_t *groups,
                                 zs_error *err);

#endif
