/*
 * ze_buffers.c — `mpi-bench --device-buffers`: the rank's keys and values
 * copied to Level Zero device memory of its zesort context's device, so
 * that zesort_mpi_sort runs with device_buffers = 1 (the sorts on the
 * device, device pointers to MPI). The device is found as zesort lists
 * Level Zero devices (every driver's root devices in zeDriverGet /
 * zeDeviceGet order, each followed by its sub-devices), at the context's
 * index; the memory lives in a Level Zero context of its own.
 */
#include <stdlib.h>

#include "mpi_cli.h"

/* The device at `index` in zesort's order, or NULL. */
static ze_device_handle_t device_at(uint32_t index, ze_driver_handle_t *driver)
{
    uint32_t nd = 0, seen = 0;
    ze_driver_handle_t drivers[16];
    if (zeDriverGet(&nd, NULL) != ZE_RESULT_SUCCESS)
        return NULL;
    nd = nd < 16 ? nd : 16;
    if (zeDriverGet(&nd, drivers) != ZE_RESULT_SUCCESS)
        return NULL;
    for (uint32_t d = 0; d < nd; d++) {
        uint32_t nr = 64;
        ze_device_handle_t roots[64], subs[64];
        if (zeDeviceGet(drivers[d], &nr, roots) != ZE_RESULT_SUCCESS)
            continue;
        for (uint32_t r = 0; r < nr; r++) {
            *driver = drivers[d];
            if (seen++ == index)
                return roots[r];
            uint32_t ns = 64;
            if (zeDeviceGetSubDevices(roots[r], &ns, subs) != ZE_RESULT_SUCCESS)
                continue;
            if (index - seen < ns)
                return subs[index - seen];
            seen += ns;
        }
    }
    return NULL;
}

int mc_ze_buffers_open(zesort_context *ctx, mc_ze_buffers *z)
{
    *z = (mc_ze_buffers){0};
    if (zesort_context_backend(ctx) != ZESORT_BACKEND_LEVEL_ZERO)
        return mc_fail("--device-buffers needs --backend level-zero (this is %s)",
                       zesort_backend_name(zesort_context_backend(ctx)));
    ze_driver_handle_t driver = NULL;
    ze_context_desc_t cd = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ze_command_queue_desc_t qd = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0,
                                  ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
                                  ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    z->device = device_at(zesort_context_device_index(ctx), &driver);
    if (!z->device || zeContextCreate(driver, &cd, &z->context) != ZE_RESULT_SUCCESS ||
        zeCommandListCreateImmediate(z->context, z->device, &qd, &z->list) != ZE_RESULT_SUCCESS)
        return mc_fail("--device-buffers: no Level Zero context or command list on device %u",
                       zesort_context_device_index(ctx));
    return 0;
}

void *mc_ze_upload(mc_ze_buffers *z, const void *host, uint64_t bytes)
{
    ze_device_mem_alloc_desc_t desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    void *p = NULL;
    if (zeMemAllocDevice(z->context, &desc, bytes ? bytes : 1, 256, z->device, &p) !=
        ZE_RESULT_SUCCESS)
        return NULL;
    if (bytes && zeCommandListAppendMemoryCopy(z->list, p, host, bytes, NULL, 0, NULL) !=
                     ZE_RESULT_SUCCESS) {
        zeMemFree(z->context, p);
        return NULL;
    }
    return p;
}

void mc_ze_free(mc_ze_buffers *z, void *p)
{
    if (p)
        zeMemFree(z->context, p);
}

void mc_ze_buffers_close(mc_ze_buffers *z)
{
    if (z->list)
        zeCommandListDestroy(z->list);
    if (z->context)
        zeContextDestroy(z->context);
    *z = (mc_ze_buffers){0};
}
