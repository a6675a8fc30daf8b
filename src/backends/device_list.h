/*
 * device_list.h — what the device backends share about their device lists
 * (zesort_device_count / _name / zesort_create_on_device): which device
 * zesort_create picks when none is named, and the message for an index
 * that names no device. Each backend enumerates its own API's devices;
 * these rules are the same for all of them.
 */
#ifndef ZESORT_DEVICE_LIST_H
#define ZESORT_DEVICE_LIST_H

#include <stddef.h>
#include <stdint.h>

#include "zesort.h"

/* One entry of a backend's device list, as the default choice sees it. */
typedef struct zs_device_kind {
    unsigned char gpu; /* a GPU */
    unsigned char sub; /* a Level Zero sub-device (never picked by default) */
} zs_device_kind;

/* The device zesort_create takes from a list of n: by want_gpu (1: GPUs only,
 * 0: non-GPU devices only, -1: any, a GPU first), the first acceptable root
 * device. Sub-devices are left out: their root device runs on all of them.
 * Returns its index, or -1 when none is acceptable. */
int64_t zs_default_device(const zs_device_kind *kinds, uint32_t n, int want_gpu);

/* NO_DEVICE unless index < count, with "no <api> device <index>: there are
 * <count> (0..count-1; `zesort info` lists them)" in msg. */
zesort_status zs_check_device_index(const char *api, uint32_t index, uint32_t count, char *msg,
                                    size_t msg_len);

#endif
