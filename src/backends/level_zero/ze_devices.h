/*
 * ze_devices.h — the Level Zero devices (ze_devices.c) for the backend
 * (backend_level_zero.c): the driver's start, the device a pick names, and
 * what the backend reads of that device and its driver when it opens it.
 * zs_level_zero_devices, the list itself, is device_backend.h's.
 *
 * Internal to the library; not installed.
 */
#ifndef ZESORT_ZE_DEVICES_H
#define ZESORT_ZE_DEVICES_H

#include <level_zero/ze_api.h>
#include <stddef.h>
#include <stdint.h>

#include "backends/device_backend.h"
#include "zesort.h"

/* zeInit(0), not GPU_ONLY: the test driver reports a CPU-type device.
 * Returns 0, or -1 with the reason in msg. */
int zs_ze_init_driver(char *msg, size_t msg_len);

/* Sets *driver and *device to the device pick names: the index given, or
 * the default by want_gpu (device_list.h); pick->opened to its index.
 * NO_DEVICE (msg says why), or OUT_OF_HOST_MEMORY; zeInit must have
 * succeeded. */
zesort_status zs_ze_pick_device(zs_device_pick *pick, ze_driver_handle_t *driver,
                                ze_device_handle_t *device, char *msg, size_t msg_len);

/* "Level Zero: <name>", plus " (sub-device K)" for a sub-device, whose name
 * is often its root device's: what zesort_context_device shows. */
void zs_ze_describe(ze_device_handle_t device, char *desc, size_t desc_len);

/* The device's memory for zesort_check (0 when it cannot be read: unknown). */
uint64_t zs_ze_device_memory(ze_device_handle_t device);

/* Whether the driver offers relaxed allocation limits (allocations above
 * maxMemAllocSize): listed among its extensions. */
int zs_ze_offers_relaxed_limits(ze_driver_handle_t driver);

/* The kernel timestamps' resolution and valid bits, from the 1.0 properties
 * p10 already read. With DEVICE_PROPERTIES_1_2 the resolution is in cycles
 * per second; drivers that only know the 1.0 structure give nanoseconds per
 * cycle. */
void zs_ze_read_timer(ze_device_handle_t device, const ze_device_properties_t *p10,
                      double *ns_per_tick, uint64_t *ts_mask);

#endif
