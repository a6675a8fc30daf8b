/*
 * ze_buffers.c — `mpi-bench --device-buffers`: the rank's keys and values
 * copied to Level Zero device memory of its zesort context's own context
 * and device (zesort_ze_context_handles), so that zesort_mpi_sort runs with
 * device_buffers = 1 (the sorts on the device, device pointers to MPI).
 */
#include <stdlib.h>

#include "mpi_cli.h"
#include "zesort_ze.h"

int mc_ze_buffers_open(zesort_context *ctx, mc_ze_buffers *z)
{
    *z = (mc_ze_buffers){0};
    if (zesort_ze_context_handles(ctx, NULL, &z->context, &z->device) != ZESORT_OK)
        return mc_fail("--device-buffers needs --backend level-zero (this is %s)",
                       zesort_backend_name(cli_context_info(ctx).backend));
    ze_command_queue_desc_t qd = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0,
                                  ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
                                  ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    if (zeCommandListCreateImmediate(z->context, z->device, &qd, &z->list) != ZE_RESULT_SUCCESS)
        return mc_fail("--device-buffers: no Level Zero command list on device %u",
                       cli_context_info(ctx).device_index);
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
        zeCommandListDestroy(z->list); /* the context and device are the zesort context's */
    *z = (mc_ze_buffers){0};
}
