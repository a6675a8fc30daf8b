/*
 * device_backend.h — what a device backend (OpenCL, Level Zero) offers the
 * generic plan executor: allocate, copy, launch, time. Nothing else.
 */
#ifndef ZESORT_DEVICE_BACKEND_H
#define ZESORT_DEVICE_BACKEND_H

#include "backends/device_list.h"
#include "plan/plan.h"
#include "programs/kernel_blobs.h"
#include "zesort.h"

typedef struct zs_device zs_device; /* backend private state */
typedef void *zs_devptr;            /* opaque device buffer handle */

typedef struct zs_device_ops {
    const char *name;
    /* Allocate `bytes` (>0) of device memory. OUT_OF_DEVICE_MEMORY on failure. */
    zesort_status (*alloc)(zs_device *dev, uint64_t bytes, zs_devptr *out);
    void (*release)(zs_device *dev, zs_devptr buf);
    zesort_status (*write)(zs_device *dev, zs_devptr dst, const void *src, uint64_t bytes);
    zesort_status (*read)(zs_device *dev, zs_devptr src, void *dst, uint64_t bytes);
    /* Optional (NULL: never): views returns non-zero when the device shares
     * the host's memory, so that view gives a host pointer to buf's first
     * `bytes` without a copy (valid until unview): a download is then one
     * copy, from the view to the caller's array, instead of a read into the
     * library's host memory and a copy from there. After a failed unview
     * the copies made from the view stand, but buf must not be used again. */
    int (*views)(zs_device *dev);
    zesort_status (*view)(zs_device *dev, zs_devptr buf, uint64_t bytes, const void **host);
    zesort_status (*unview)(zs_device *dev, zs_devptr buf, const void *host);
    /* Optional (NULL: never; asked only where views is true): a buffer
     * over the caller's host memory `host` (`bytes` > 0) that kernels only
     * read, made without a copy, so that an out-of-place plan's input needs
     * no upload (run_plan.c). release ends it; the caller's memory is not
     * written while it lasts. A failure costs the sort nothing: the runner
     * uploads the input instead. */
    zesort_status (*borrow)(zs_device *dev, const void *host, uint64_t bytes, zs_devptr *out);
    /* Record the start of a timed region, launch kernels / copies (asynchronous), end it. */
    zesort_status (*begin)(zs_device *dev);
    zesort_status (*launch)(zs_device *dev, const zs_step *step, zs_devptr const *buffers);
    zesort_status (*copy)(zs_device *dev, zs_devptr dst, zs_devptr src, uint64_t bytes);
    /* Wait for everything recorded since begin; add device time in ms of kernels/copies. */
    zesort_status (*finish)(zs_device *dev, double *device_ms);
    void (*destroy)(zs_device *dev);
    /* One-line description of the last failure of any op above (owned by dev). */
    const char *(*message)(zs_device *dev);
    /* The kernel flavor this device runs (plans depend on it: plan.h `serial`). */
    zs_flavor (*flavor)(zs_device *dev);
    /* The device's memory in bytes (0: unknown) and the largest buffer one
     * alloc may ask for (UINT64_MAX: no limit of its own), for zesort_check. */
    void (*memory)(zs_device *dev, uint64_t *total, uint64_t *largest);
} zs_device_ops;

/* Which device zs_*_open opens: `index` >= 0 the index-th device of the
 * backend's list (the order of zs_*_devices), or -1 the default one by
 * want_gpu (device_list.h: 1 GPU devices only, 0 non-GPU only, -1 any,
 * preferring GPUs; ignored when index >= 0). On success `opened` is the
 * index of the device opened. */
typedef struct zs_device_pick {
    int64_t index;
    int want_gpu;
    uint32_t opened;
} zs_device_pick;

/* Device opening functions. Return NO_DEVICE when the API has no usable
 * device, or none at pick->index (the message then gives the count); `msg`
 * (256 bytes) receives a reason. `desc` receives the device's description,
 * the same text zs_*_devices gives for its index. */
zesort_status zs_opencl_open(zs_device_pick *pick, zs_device **out, const zs_device_ops **ops,
                             char *desc, size_t desc_len, char *msg, size_t msg_len);
/* The process-wide lock zs_opencl_open holds around OpenCL device discovery
 * and context creation (not thread-safe in every implementation). */
void zs_opencl_discovery_lock(void);
void zs_opencl_discovery_unlock(void);
zesort_status zs_level_zero_open(zs_device_pick *pick, zs_device **out, const zs_device_ops **ops,
                                 char *desc, size_t desc_len, char *msg, size_t msg_len);

/* A backend's device list: *count devices (0 when the API has no driver or
 * platform: msg says why, and the status is still OK), and, when name is not
 * NULL, the description of device `index` in name (NO_DEVICE when index >=
 * *count; msg gives the count). OpenCL: every platform's devices, platforms
 * in the ICD loader's order. Level Zero: every driver's devices in order,
 * each followed by its sub-devices. Otherwise fails only when the host is
 * out of memory. kinds (may be NULL with max_kinds 0) receives the kinds of
 * the first max_kinds devices (zesort_create_on_devices' "all"). */
zesort_status zs_opencl_devices(uint32_t index, uint32_t *count, char *name, size_t name_len,
                                char *msg, size_t msg_len, zs_device_kind *kinds,
                                uint32_t max_kinds);
zesort_status zs_level_zero_devices(uint32_t index, uint32_t *count, char *name, size_t name_len,
                                    char *msg, size_t msg_len, zs_device_kind *kinds,
                                    uint32_t max_kinds);

#endif
