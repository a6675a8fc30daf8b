/*
 * device_list.c — the rules every backend's device list follows (see
 * device_list.h).
 */
#include <stdio.h>

#include "backends/device_list.h"

int64_t zs_default_device(const zs_device_kind *kinds, uint32_t n, int want_gpu)
{
    int64_t other = -1;
    for (uint32_t i = 0; i < n; i++) {
        if (kinds[i].sub || (want_gpu == 1 && !kinds[i].gpu) || (want_gpu == 0 && kinds[i].gpu))
            continue;
        if (kinds[i].gpu)
            return i; /* a GPU is the first choice whatever want_gpu allows */
        if (other < 0)
            other = i;
    }
    return other;
}

zesort_status zs_check_device_index(const char *api, uint32_t index, uint32_t count, char *msg,
                                    size_t msg_len)
{
    if (index < count)
        return ZESORT_OK;
    if (count == 0)
        snprintf(msg, msg_len, "no %s device %u: there are none", api, index);
    else
        snprintf(msg, msg_len, "no %s device %u: there %s %u (0..%u; 'zesort info' lists them)",
                 api, index, count == 1 ? "is" : "are", count, count - 1);
    return ZESORT_ERROR_NO_DEVICE;
}
