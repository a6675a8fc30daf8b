/* ze_cl_driver: unified shared memory on OpenCL fine-grained SVM.
 *
 * Host, device and shared allocations are all clSVMAlloc'd fine-grained SVM
 * buffers: the host can touch them, kernels get them with
 * clSetKernelArgSVMPointer, and copies are plain SVM copies. The kind is
 * only remembered for zeMemGetAllocProperties. */
#include "zecl_internal.h"

#include <stdlib.h>
#include <string.h>

/* PoCL refuses clSVMAlloc alignments above CL_DEVICE_MEM_BASE_ADDR_ALIGN
   (128 bytes): larger alignments are obtained by over-allocating. */
enum { NATIVE_ALIGN = 128 };

struct zecl_alloc *zecl_find_alloc_locked(const void *p)
{
    const char *c = p;
    size_t lo = 0, hi = g.num_allocs;
    while (lo < hi) { /* last allocation with ptr <= p */
        size_t mid = (lo + hi) / 2;
        if (g.allocs[mid].ptr <= c)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    struct zecl_alloc *a = &g.allocs[lo - 1];
    return c < a->ptr + a->size ? a : NULL;
}

/* Accepts the extension structures that make sense here; anything else in
   a descriptor's pNext chain is refused rather than ignored. */
static ze_result_t check_chain(const void *pNext, int *relaxed)
{
    for (const ze_base_desc_t *b = pNext; b; b = b->pNext) {
        if (b->stype == ZE_STRUCTURE_TYPE_RELAXED_ALLOCATION_LIMITS_EXP_DESC)
            *relaxed = 1;
        else
            return zecl_fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
                             "allocation descriptor extension 0x%x", (unsigned)b->stype);
    }
    return ZE_RESULT_SUCCESS;
}

static ze_result_t allocate(ze_context_handle_t context, ze_memory_type_t type,
                            ze_device_handle_t device, size_t size, size_t alignment, int relaxed,
                            void **pptr)
{
    ze_result_t oom = type == ZE_MEMORY_TYPE_HOST ? ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY
                                                  : ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    *pptr = NULL;
    if (size == 0)
        return zecl_fail(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, "allocation of 0 bytes");
    if (alignment & (alignment - 1))
        return zecl_fail(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT, "alignment %zu", alignment);
    cl_ulong max_alloc = device ? device->max_alloc : g.devices[0].max_alloc;
    if (!relaxed && size > max_alloc)
        return zecl_fail(oom, "allocation of %zu bytes exceeds the %llu-byte limit of one allocation",
                         size, (unsigned long long)max_alloc);
    size_t extra = alignment > NATIVE_ALIGN ? alignment - 1 : 0;
    if (size + extra < size)
        return zecl_fail(oom, "allocation size overflow");
    void *base = clSVMAlloc(g.context, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, size + extra,
                            alignment > NATIVE_ALIGN ? 0 : (cl_uint)alignment);
    if (!base)
        return zecl_fail(oom, "clSVMAlloc of %zu bytes failed", size + extra);
    char *ptr = base;
    if (extra)
        ptr = (char *)(((uintptr_t)base + extra) & ~(uintptr_t)(alignment - 1));

    pthread_mutex_lock(&g.lock);
    if (g.num_allocs == g.cap_allocs) {
        size_t cap = g.cap_allocs ? 2 * g.cap_allocs : 64;
        struct zecl_alloc *n = realloc(g.allocs, cap * sizeof *n);
        if (!n) {
            pthread_mutex_unlock(&g.lock);
            clSVMFree(g.context, base);
            return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        }
        g.allocs = n;
        g.cap_allocs = cap;
    }
    size_t pos = g.num_allocs;
    while (pos > 0 && g.allocs[pos - 1].ptr > ptr)
        pos--;
    memmove(&g.allocs[pos + 1], &g.allocs[pos], (g.num_allocs - pos) * sizeof *g.allocs);
    g.allocs[pos] = (struct zecl_alloc){ptr, base, size, type, device, context, g.next_alloc_id++};
    g.num_allocs++;
    pthread_mutex_unlock(&g.lock);
    *pptr = ptr;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeMemAllocDevice(ze_context_handle_t hContext,
                                             const ze_device_mem_alloc_desc_t *desc, size_t size,
                                             size_t alignment, ze_device_handle_t hDevice, void **pptr)
{
    int relaxed = 0;
    ze_result_t r = check_chain(desc->pNext, &relaxed);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    return allocate(hContext, ZE_MEMORY_TYPE_DEVICE, hDevice, size, alignment, relaxed, pptr);
}

ze_result_t ZE_APICALL zecl_zeMemAllocHost(ze_context_handle_t hContext,
                                           const ze_host_mem_alloc_desc_t *desc, size_t size,
                                           size_t alignment, void **pptr)
{
    int relaxed = 0;
    ze_result_t r = check_chain(desc->pNext, &relaxed);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    return allocate(hContext, ZE_MEMORY_TYPE_HOST, NULL, size, alignment, relaxed, pptr);
}

ze_result_t ZE_APICALL zecl_zeMemAllocShared(ze_context_handle_t hContext,
                                             const ze_device_mem_alloc_desc_t *device_desc,
                                             const ze_host_mem_alloc_desc_t *host_desc, size_t size,
                                             size_t alignment, ze_device_handle_t hDevice, void **pptr)
{
    int relaxed = 0;
    ze_result_t r = check_chain(device_desc->pNext, &relaxed);
    if (r == ZE_RESULT_SUCCESS)
        r = check_chain(host_desc->pNext, &relaxed);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    return allocate(hContext, ZE_MEMORY_TYPE_SHARED, hDevice, size, alignment, relaxed, pptr);
}

ze_result_t ZE_APICALL zecl_zeMemFree(ze_context_handle_t hContext, void *ptr)
{
    (void)hContext;
    pthread_mutex_lock(&g.lock);
    struct zecl_alloc *a = zecl_find_alloc_locked(ptr);
    if (!a || a->ptr != (char *)ptr) {
        pthread_mutex_unlock(&g.lock);
        return zecl_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, "zeMemFree: %p is not an allocation", ptr);
    }
    void *base = a->base;
    size_t pos = (size_t)(a - g.allocs);
    memmove(&g.allocs[pos], &g.allocs[pos + 1], (g.num_allocs - pos - 1) * sizeof *g.allocs);
    g.num_allocs--;
    pthread_mutex_unlock(&g.lock);
    clSVMFree(g.context, base);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeMemGetAllocProperties(ze_context_handle_t hContext, const void *ptr,
                                                    ze_memory_allocation_properties_t *props,
                                                    ze_device_handle_t *phDevice)
{
    pthread_mutex_lock(&g.lock);
    struct zecl_alloc *a = zecl_find_alloc_locked(ptr);
    if (a && a->context != hContext)
        a = NULL; /* another context's memory is unknown to this one */
    props->type = a ? a->type : ZE_MEMORY_TYPE_UNKNOWN;
    props->id = a ? a->id : 0;
    props->pageSize = a ? 4096 : 0;
    if (phDevice)
        *phDevice = a ? a->device : NULL;
    pthread_mutex_unlock(&g.lock);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeMemGetAddressRange(ze_context_handle_t hContext, const void *ptr,
                                                 void **pBase, size_t *pSize)
{
    pthread_mutex_lock(&g.lock);
    struct zecl_alloc *a = zecl_find_alloc_locked(ptr);
    if (a && a->context != hContext)
        a = NULL;
    if (a) {
        if (pBase)
            *pBase = a->ptr;
        if (pSize)
            *pSize = a->size;
    }
    pthread_mutex_unlock(&g.lock);
    return a ? ZE_RESULT_SUCCESS
             : zecl_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, "zeMemGetAddressRange: %p unknown", ptr);
}
