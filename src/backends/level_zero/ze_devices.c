/*
 * ze_devices.c — the Level Zero devices: which there are, in the order
 * zesort_device_name indexes them (zs_level_zero_devices), the one a pick
 * names, and what the backend reads of a device and its driver when it
 * opens one (ze_devices.h). Only host memory is allocated here.
 */
#include "backends/level_zero/ze_devices.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/device_list.h"
#include "backends/level_zero/ze_common.h"

/* Every driver's devices in order, each followed by its sub-devices (one
 * level: that is all Level Zero's root devices have), the order
 * zesort_device_name indexes them. */
typedef struct ze_device_list {
    ze_driver_handle_t *drivers;  /* of each entry */
    ze_device_handle_t *devices;
    zs_device_kind *kinds;
    uint32_t n, cap;
} ze_device_list;

static void list_free(ze_device_list *l)
{
    free(l->drivers);
    free(l->devices);
    free(l->kinds);
    *l = (ze_device_list){0};
}

static zesort_status list_add(ze_device_list *l, ze_driver_handle_t driver,
                              ze_device_handle_t device, int sub)
{
    if (l->n == l->cap) {
        uint32_t cap = l->cap ? 2 * l->cap : 8;
        ze_driver_handle_t *dr = realloc(l->drivers, cap * sizeof *dr);
        if (dr)
            l->drivers = dr;
        ze_device_handle_t *dv = realloc(l->devices, cap * sizeof *dv);
        if (dv)
            l->devices = dv;
        zs_device_kind *k = realloc(l->kinds, cap * sizeof *k);
        if (k)
            l->kinds = k;
        if (!dr || !dv || !k)
            return ZESORT_ERROR_OUT_OF_HOST_MEMORY;
        l->cap = cap;
    }
    ze_device_properties_t p = {.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    int gpu = zeDeviceGetProperties(device, &p) == ZE_RESULT_SUCCESS && p.type == ZE_DEVICE_TYPE_GPU;
    l->drivers[l->n] = driver;
    l->devices[l->n] = device;
    l->kinds[l->n] = (zs_device_kind){.gpu = (unsigned char)gpu, .sub = (unsigned char)sub};
    l->n++;
    return ZESORT_OK;
}

/* The handles of one zeDeviceGet / zeDeviceGetSubDevices call (parent NULL:
 * the driver's root devices), in a new array (*n entries, free() it). */
static zesort_status get_devices(ze_driver_handle_t driver, ze_device_handle_t parent,
                                 ze_device_handle_t **out, uint32_t *n)
{
    *out = NULL;
    *n = 0;
    ze_result_t r = parent ? zeDeviceGetSubDevices(parent, n, NULL) : zeDeviceGet(driver, n, NULL);
    if (r != ZE_RESULT_SUCCESS || *n == 0) {
        *n = 0;
        return ZESORT_OK; /* nothing usable there: skipped */
    }
    *out = calloc(*n, sizeof **out);
    if (!*out)
        return ZESORT_ERROR_OUT_OF_HOST_MEMORY;
    r = parent ? zeDeviceGetSubDevices(parent, n, *out) : zeDeviceGet(driver, n, *out);
    if (r != ZE_RESULT_SUCCESS)
        *n = 0;
    return ZESORT_OK;
}

/* One driver's root devices, each followed by its sub-devices. */
static zesort_status list_driver(ze_device_list *l, ze_driver_handle_t driver)
{
    ze_device_handle_t *roots;
    uint32_t nroots;
    zesort_status s = get_devices(driver, NULL, &roots, &nroots);
    for (uint32_t i = 0; i < nroots && s == ZESORT_OK; i++) {
        ze_device_handle_t *subs = NULL;
        uint32_t nsubs = 0;
        s = list_add(l, driver, roots[i], 0);
        if (s == ZESORT_OK)
            s = get_devices(driver, roots[i], &subs, &nsubs);
        for (uint32_t j = 0; j < nsubs && s == ZESORT_OK; j++)
            s = list_add(l, driver, subs[j], 1);
        free(subs);
    }
    free(roots);
    return s;
}

/* Fills l (empty when there is no driver: msg says why). Only host memory
 * can fail. zeInit must have succeeded. */
static zesort_status list_devices(ze_device_list *l, char *msg, size_t msg_len)
{
    *l = (ze_device_list){0};
    uint32_t ndrivers = 0;
    ze_result_t r = zeDriverGet(&ndrivers, NULL);
    if (r != ZE_RESULT_SUCCESS || ndrivers == 0) {
        snprintf(msg, msg_len, "no Level Zero driver (zeDriverGet: %s, %u drivers)",
                 zs_ze_result_name(r), ndrivers);
        return ZESORT_OK;
    }
    ze_driver_handle_t *drivers = calloc(ndrivers, sizeof *drivers);
    if (!drivers)
        return ZESORT_ERROR_OUT_OF_HOST_MEMORY;
    zesort_status s = ZESORT_OK;
    if (zeDriverGet(&ndrivers, drivers) == ZE_RESULT_SUCCESS)
        for (uint32_t d = 0; d < ndrivers && s == ZESORT_OK; d++)
            s = list_driver(l, drivers[d]);
    free(drivers);
    if (s != ZESORT_OK)
        list_free(l);
    else if (l->n == 0)
        snprintf(msg, msg_len, "no Level Zero device (%u drivers)", ndrivers);
    return s;
}

void zs_ze_describe(ze_device_handle_t device, char *desc, size_t desc_len)
{
    ze_device_properties_t p = {.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    if (zeDeviceGetProperties(device, &p) != ZE_RESULT_SUCCESS) {
        snprintf(desc, desc_len, "Level Zero: (no properties)");
        return;
    }
    p.name[sizeof p.name - 1] = '\0';
    if (p.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE)
        snprintf(desc, desc_len, "Level Zero: %s (sub-device %u)", p.name, p.subdeviceId);
    else
        snprintf(desc, desc_len, "Level Zero: %s", p.name);
}

int zs_ze_init_driver(char *msg, size_t msg_len)
{
    ze_result_t r = zeInit(0);
    if (r == ZE_RESULT_SUCCESS)
        return 0;
    /* Stop here: the Debian 1.8 loader crashes in zeDriverGet after a failed zeInit. */
    snprintf(msg, msg_len, "no Level Zero driver: zeInit failed with %s", zs_ze_result_name(r));
    return -1;
}

zesort_status zs_level_zero_devices(uint32_t index, uint32_t *count, char *name, size_t name_len,
                                    char *msg, size_t msg_len, zs_device_kind *kinds,
                                    uint32_t max_kinds)
{
    *count = 0;
    if (zs_ze_init_driver(msg, msg_len) != 0)
        return ZESORT_OK;
    ze_device_list l;
    zesort_status s = list_devices(&l, msg, msg_len);
    if (s != ZESORT_OK) {
        snprintf(msg, msg_len, "out of host memory listing Level Zero devices");
        return s;
    }
    s = name ? zs_check_device_index("Level Zero", index, l.n, msg, msg_len) : ZESORT_OK;
    if (name && s == ZESORT_OK)
        zs_ze_describe(l.devices[index], name, name_len);
    for (uint32_t i = 0; i < l.n && i < max_kinds; i++)
        kinds[i] = l.kinds[i];
    *count = l.n;
    list_free(&l);
    return s;
}

zesort_status zs_ze_pick_device(zs_device_pick *pick, ze_driver_handle_t *driver,
                                ze_device_handle_t *device, char *msg, size_t msg_len)
{
    ze_device_list l;
    zesort_status s = list_devices(&l, msg, msg_len);
    if (s != ZESORT_OK) {
        snprintf(msg, msg_len, "out of host memory listing Level Zero devices");
        return s;
    }
    int64_t i = pick->index;
    if (i < 0 && (i = zs_default_device(l.kinds, l.n, pick->want_gpu)) < 0) {
        if (l.n) /* else list_devices said why */
            snprintf(msg, msg_len, "no %sLevel Zero device (%u devices)",
                     pick->want_gpu == 1 ? "GPU " : pick->want_gpu == 0 ? "non-GPU " : "", l.n);
        s = ZESORT_ERROR_NO_DEVICE;
    } else if (i > UINT32_MAX) {
        s = zs_check_device_index("Level Zero", UINT32_MAX, l.n, msg, msg_len);
    } else if ((s = zs_check_device_index("Level Zero", (uint32_t)i, l.n, msg, msg_len)) ==
               ZESORT_OK) {
        *driver = l.drivers[i];
        *device = l.devices[i];
        pick->opened = (uint32_t)i;
    }
    list_free(&l);
    return s;
}

uint64_t zs_ze_device_memory(ze_device_handle_t device)
{
    ze_device_memory_properties_t m[8];
    uint32_t count = 8;
    for (uint32_t i = 0; i < count; i++)
        m[i] = (ze_device_memory_properties_t){.stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES};
    uint64_t memory = 0;
    if (zeDeviceGetMemoryProperties(device, &count, m) != ZE_RESULT_SUCCESS)
        return 0;
    for (uint32_t i = 0; i < count && i < 8; i++)
        memory += m[i].totalSize;
    return memory;
}

int zs_ze_offers_relaxed_limits(ze_driver_handle_t driver)
{
    uint32_t count = 0;
    if (zeDriverGetExtensionProperties(driver, &count, NULL) != ZE_RESULT_SUCCESS || !count)
        return 0;
    ze_driver_extension_properties_t *e = calloc(count, sizeof *e);
    int found = 0;
    if (e && zeDriverGetExtensionProperties(driver, &count, e) == ZE_RESULT_SUCCESS)
        for (uint32_t i = 0; i < count && !found; i++)
            found = strncmp(e[i].name, ZE_RELAXED_ALLOCATION_LIMITS_EXP_NAME,
                            sizeof e[i].name) == 0;
    free(e);
    return found;
}

void zs_ze_read_timer(ze_device_handle_t device, const ze_device_properties_t *p10,
                      double *ns_per_tick, uint64_t *ts_mask)
{
    ze_device_properties_t p = {.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2};
    double ns = 0;
    if (zeDeviceGetProperties(device, &p) == ZE_RESULT_SUCCESS && p.timerResolution) {
        /* A 1.0-only driver may ignore the stype and answer in ns: a
         * resolution of at most 1000 cannot be a frequency of a real timer. */
        ns = p.timerResolution > 1000 ? 1e9 / (double)p.timerResolution : (double)p.timerResolution;
    } else if (p10->timerResolution) {
        ns = (double)p10->timerResolution;
    }
    *ns_per_tick = ns > 0 ? ns : 1.0;
    uint32_t bits = p10->kernelTimestampValidBits;
    *ts_mask = bits == 0 || bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}
