/*
 * device_backend.h — what a device backend (OpenCL, Level Zero) offers the
 * generic plan executor: allocate, copy, launch, time. Nothing else.
 */
#ifndef ZESORT_DEVICE_BACKEND_H
#define ZESORT_DEVICE_BACKEND_H

#include "kernel_blobs.h"
#include "plan.h"
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

/* Device opening functions (want_gpu: 1 GPU devices only, 0 non-GPU only, -1 any,
 * preferring GPUs). Return NO_DEVICE when the API has no usable device;
 * `msg` (256 bytes) receives a reason. want_gpu: 1 GPU only, 0 CPU only, -1 any. */
zesort_status zs_opencl_open(int want_gpu, zs_device **out, const zs_device_ops **ops,
                             char *desc, size_t desc_len, char *msg, size_t msg_len);
/* The process-wide lock zs_opencl_open holds around OpenCL device discovery
 * and context creation (not thread-safe in every implementation). */
void zs_opencl_discovery_lock(void);
void zs_opencl_discovery_unlock(void);
zesort_status zs_level_zero_open(int want_gpu, zs_device **out, const zs_device_ops **ops,
                                 char *desc, size_t desc_len, char *msg, size_t msg_len);

#endif
