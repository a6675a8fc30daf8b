/*
 * interop_ze_memory.c — the caller's memory of a Level Zero append, checked
 * before any command is appended (interop_ze_memory.h): first the arguments
 * alone, without a driver call, then each buffer against the driver's view
 * of its allocation.
 */
#include "interop/interop_ze_memory.h"

#include <stdint.h>

#include "backends/level_zero/ze_common.h"

/* Caller memory must be a Level Zero device or shared allocation of the
 * sorter's context that holds [p, p + bytes): a GPU faults on anything else
 * (malloc'd memory, a host allocation, another context's memory), long after
 * the append returned. Nothing to check for a NULL pointer or 0 bytes. */
static zesort_status check_device_memory(zs_error *err, ze_context_handle_t context,
                                         const char *name, const void *p, uint64_t bytes,
                                         const char *fn)
{
    if (!p || bytes == 0)
        return ZESORT_OK;
    ze_memory_allocation_properties_t props = {
        .stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
    ze_result_t r = zeMemGetAllocProperties(context, p, &props, NULL);
    if (r != ZE_RESULT_SUCCESS)
        return zs_ze_fail(err, "zeMemGetAllocProperties", r);
    if (props.type != ZE_MEMORY_TYPE_DEVICE && props.type != ZE_MEMORY_TYPE_SHARED)
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: %s (%p) is %s: it must be a Level Zero device or shared "
                            "allocation of the sorter's context", fn, name, p,
                            props.type == ZE_MEMORY_TYPE_HOST
                                ? "a Level Zero host allocation"
                                : "not a Level Zero allocation of the sorter's context");
    void *base = NULL;
    size_t size = 0;
    r = zeMemGetAddressRange(context, p, &base, &size);
    if (r != ZE_RESULT_SUCCESS)
        return zs_ze_fail(err, "zeMemGetAddressRange", r);
    const uint64_t room = (uint64_t)((const char *)base + size - (const char *)p);
    if (bytes > room)
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: %s (%p) needs %llu bytes but its allocation ends %llu bytes "
                            "after it", fn, name, p, (unsigned long long)bytes,
                            (unsigned long long)room);
    return ZESORT_OK;
}

zesort_status zs_ze_check_memory(zs_error *err, ze_context_handle_t context,
                                 const zs_buffer_table *t, void *const *caller, void *temp,
                                 uint64_t temp_bytes, const uint32_t *n_devptr, const char *fn)
{
    zesort_status st = ZESORT_OK;
    for (int b = 0; st == ZESORT_OK && b < ZS_BUF_COUNT; b++)
        if (t->buf[b].callers)
            st = check_device_memory(err, context, t->buf[b].name, caller[b], t->buf[b].bytes,
                                     fn);
    if (st == ZESORT_OK)
        st = check_device_memory(err, context, "temp", temp, temp_bytes, fn);
    if (st == ZESORT_OK)
        st = check_device_memory(err, context, "the count (n_devptr)", n_devptr,
                                 sizeof *n_devptr, fn);
    return st;
}

zesort_status zs_ze_check_arguments(zs_error *err, const zs_buffer_table *t,
                                    void *const *caller, uint64_t n, const uint32_t *n_devptr,
                                    void *temp, uint64_t temp_bytes, const char *fn)
{
    zs_named_range r[ZS_BUF_COUNT + 2];
    int ro[ZS_BUF_COUNT + 2] = {0};
    int count = 0;
    const uint64_t need = t->temp_bytes;
    for (int b = 0; b < ZS_BUF_COUNT; b++) {
        if (!t->buf[b].callers || t->buf[b].bytes == 0)
            continue;
        const char *name = t->buf[b].name;
        /* n elements, but a segmented sort's offsets, count and status */
        const uint64_t elem = t->buf[b].elem;
        if (!caller[b])
            return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                                "%s: %s is NULL for %llu keys", fn, name, (unsigned long long)n);
        if ((uintptr_t)caller[b] % elem)
            return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                                "%s: %s must be aligned to its element size (%llu bytes); "
                                "the count to 4 bytes, temp to 8", fn, name,
                                (unsigned long long)elem);
        ro[count] = t->buf[b].read_only;
        r[count++] = (zs_named_range){name, zs_address_range(caller[b], t->buf[b].bytes)};
    }
    if (((uintptr_t)temp & 7u) || ((uintptr_t)n_devptr & 3u))
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: keys must be aligned to the key size, values to theirs, the "
                            "count to 4 bytes, temp to 8 bytes", fn);
    if (need > 0 && !temp)
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: temp is NULL but a sort of %llu keys needs %llu bytes of temp "
                            "memory", fn, (unsigned long long)n, (unsigned long long)need);
    if (temp_bytes < need)
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: temp memory of %llu bytes is too small: a sort of %llu keys "
                            "needs %llu bytes (see zesort_ze_temp_bytes)", fn,
                            (unsigned long long)temp_bytes, (unsigned long long)n,
                            (unsigned long long)need);
    if (count == 0) /* n == 0, and no status word to write */
        return ZESORT_OK;
    /* device pointers share one address space */
    r[count++] = (zs_named_range){"temp", zs_address_range(temp, temp_bytes)};
    r[count++] = (zs_named_range){"the count", zs_address_range(n_devptr, 4)};
    const char *a, *b;
    if (zs_interop_ranges_overlap(r, ro, count, &a, &b))
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: %s and %s overlap: they must be separate memory", fn, a, b);
    return ZESORT_OK;
}
