/*
 * mpi_memory.c — where a distributed sort's arrays live: host memory (the
 * default: malloc, memcpy, zesort_sort_copy on the rank's zesort context)
 * or the caller's Level Zero device memory (device_buffers = 1:
 * zeMemAllocDevice, device copies, zesort_ze_append_sort_copy). mpi_sort.c,
 * the exchange and the splitters run the same code for both through this
 * small table of operations; only this file knows Level Zero.
 *
 * Device operations run on one command list of the caller's context and
 * device, executed on one synchronous queue and waited for at once: the
 * phases around them (collectives) need their results on return anyway.
 */
#include <level_zero/ze_api.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"
#include "zesort_ze.h"

struct zm_mem_ops {
    void *(*alloc)(zm_mem *m, uint64_t bytes);
    void (*release)(zm_mem *m, void *p);
    zesort_status (*copy)(zm_mem *m, void *dst, const void *src, uint64_t bytes);
    zesort_status (*copy_many)(zm_mem *m, const zm_copy_req *req, uint64_t n, size_t bytes);
    zesort_status (*sort_copy)(zm_mem *m, const void *ki, const void *vi, void *ko, void *vo,
                               uint64_t n, const zesort_options *o);
};

/* ---- host memory ------------------------------------------------------------ */

static void *host_alloc(zm_mem *m, uint64_t bytes)
{
    (void)m;
    if (bytes > SIZE_MAX)
        return NULL;
    /* the test hook: any array of keys or values in host memory fails, so a
     * test proves the device path never stages keys through the host */
    if (bytes && zm_test_no_host_staging())
        return NULL;
    return malloc(bytes ? (size_t)bytes : 1);
}

static void host_release(zm_mem *m, void *p)
{
    (void)m;
    free(p);
}

static zesort_status host_copy(zm_mem *m, void *dst, const void *src, uint64_t bytes)
{
    (void)m;
    memcpy(dst, src, (size_t)bytes);
    return ZESORT_OK;
}

static zesort_status host_copy_many(zm_mem *m, const zm_copy_req *req, uint64_t n,
                                    size_t bytes)
{
    (void)m;
    for (uint64_t i = 0; i < n; i++)
        memcpy(req[i].dst, req[i].src, bytes);
    return ZESORT_OK;
}

/* The SORT_COPY descriptor of a sort the options describe (temp left out). */
static zesort_desc copy_desc(const void *ki, const void *vi, void *ko, void *vo, uint64_t n,
                             const zesort_options *opts)
{
    zesort_options o;
    if (opts)
        o = *opts;
    else
        zesort_options_default(&o);
    zesort_desc d;
    zesort_desc_init(&d, ZESORT_SORT_COPY);
    d.key_type = o.key_type;
    d.algo = o.algo;
    d.scan = o.scan;
    d.descending = o.descending;
    d.bit_lo = o.bit_lo;
    d.bit_hi = o.bit_hi;
    const int wide = o.value_type == ZESORT_VALUE_U64;
    d.index_type = wide ? ZESORT_INT_U64 : ZESORT_INT_U32;
    d.value_type = !(vi || vo) ? ZESORT_VALUES_NONE : wide ? ZESORT_VALUES_U64
                                                           : ZESORT_VALUES_U32;
    d.keys_in = ki;
    d.values_in = vi;
    d.keys = ko;
    d.values = vo;
    d.n = n;
    return d;
}

static zesort_status host_sort_copy(zm_mem *m, const void *ki, const void *vi, void *ko,
                                    void *vo, uint64_t n, const zesort_options *o)
{
    const zesort_desc d = copy_desc(ki, vi, ko, vo, n, o);
    zesort_status st = zesort_run(m->ctx, &d);
    return st == ZESORT_OK ? st : zm_fail(st, "%s", zesort_last_error(m->ctx));
}

static const zm_mem_ops host_ops = {host_alloc, host_release, host_copy, host_copy_many,
                                    host_sort_copy};

/* ---- Level Zero device memory ---------------------------------------------- */

static zesort_status ze_fail(ze_result_t r, const char *what)
{
    return zm_fail(r == ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY ? ZESORT_ERROR_OUT_OF_DEVICE_MEMORY
                                                               : ZESORT_ERROR_BACKEND,
                   "%s failed (ze_result_t 0x%x)", what, (unsigned)r);
}

static void *dev_alloc(zm_mem *m, uint64_t bytes)
{
    ze_device_mem_alloc_desc_t desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    void *p = NULL;
    /* 256: the alignment the interop sorts like best for keys, values, temp */
    ze_result_t r = zeMemAllocDevice(m->zctx, &desc, bytes ? (size_t)bytes : 1, 256, m->zdev, &p);
    return r == ZE_RESULT_SUCCESS ? p : NULL;
}

static void dev_release(zm_mem *m, void *p)
{
    if (p)
        zeMemFree(m->zctx, p);
}

/* Closes the list holding what was appended, runs it, waits, resets it. */
static zesort_status dev_run(zm_mem *m, const char *what)
{
    ze_result_t r = zeCommandListClose(m->list);
    ze_command_list_handle_t list = m->list;
    if (r == ZE_RESULT_SUCCESS)
        r = zeCommandQueueExecuteCommandLists(m->queue, 1, &list, NULL);
    if (r == ZE_RESULT_SUCCESS)
        r = zeCommandQueueSynchronize(m->queue, UINT64_MAX);
    ze_result_t reset = zeCommandListReset(m->list);
    if (r == ZE_RESULT_SUCCESS)
        r = reset;
    return r == ZE_RESULT_SUCCESS ? ZESORT_OK : ze_fail(r, what);
}

/* The copies appended to one list, run at once: one round trip. */
static zesort_status dev_copy_many(zm_mem *m, const zm_copy_req *req, uint64_t n, size_t bytes)
{
    if (!n || !bytes)
        return ZESORT_OK;
    for (uint64_t i = 0; i < n; i++) {
        ze_result_t r = zeCommandListAppendMemoryCopy(m->list, req[i].dst, req[i].src, bytes,
                                                      NULL, 0, NULL);
        if (r != ZE_RESULT_SUCCESS) {
            zeCommandListReset(m->list);
            return ze_fail(r, "zeCommandListAppendMemoryCopy");
        }
    }
    return dev_run(m, "device copies");
}

static zesort_status dev_copy(zm_mem *m, void *dst, const void *src, uint64_t bytes)
{
    zm_copy_req req = {dst, src};
    return bytes > SIZE_MAX ? zm_fail(ZESORT_ERROR_OUT_OF_HOST_MEMORY, "copy too large")
                            : dev_copy_many(m, &req, 1, (size_t)bytes);
}

/* Temporary memory of the sorts, kept for the next one when large enough
 * (the merge usually needs about what the local sort did). */
static zesort_status dev_temp(zm_mem *m, const zesort_desc *d)
{
    zesort_requirements req = {0};
    zesort_status st = zesort_ze_requirements(m->sorter, d, &req);
    uint64_t bytes = req.temp_bytes;
    if (st != ZESORT_OK)
        return zm_fail(st, "%s", zesort_ze_last_error(m->sorter));
    if (bytes <= m->temp_bytes && m->temp)
        return ZESORT_OK;
    dev_release(m, m->temp);
    m->temp = dev_alloc(m, bytes);
    m->temp_bytes = m->temp ? bytes : 0;
    return m->temp ? ZESORT_OK
                   : zm_fail(ZESORT_ERROR_OUT_OF_DEVICE_MEMORY, "out of device memory for %llu "
                             "bytes of sort temp", (unsigned long long)bytes);
}

static zesort_status dev_sort_copy(zm_mem *m, const void *ki, const void *vi, void *ko, void *vo,
                                   uint64_t n, const zesort_options *o)
{
    zesort_desc d = copy_desc(ki, vi, ko, vo, n, o);
    zesort_status st = dev_temp(m, &d);
    if (st != ZESORT_OK)
        return st;
    d.temp = m->temp;
    d.temp_bytes = m->temp_bytes;
    st = zesort_ze_append(m->sorter, m->list, &d, NULL);
    if (st != ZESORT_OK) {
        zeCommandListReset(m->list);
        return zm_fail(st, "%s", zesort_ze_last_error(m->sorter));
    }
    return dev_run(m, "the device sort");
}

static const zm_mem_ops device_ops = {dev_alloc, dev_release, dev_copy, dev_copy_many,
                                      dev_sort_copy};

/* ---- the table's users ------------------------------------------------------- */

void zm_mem_host(zm_mem *m, zesort_context *ctx)
{
    memset(m, 0, sizeof *m);
    m->ops = &host_ops;
    m->ctx = ctx;
}

zesort_status zm_mem_device(zm_mem *m, zesort_context *ctx, void *ze_context, void *ze_device)
{
    zm_mem_host(m, ctx);
    m->zctx = ze_context;
    m->zdev = ze_device;
    ze_command_queue_desc_t qd = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0,
                                  ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
                                  ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_list_desc_t ld = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL, 0, 0};
    ze_command_queue_handle_t q = NULL;
    ze_command_list_handle_t l = NULL;
    ze_result_t r = zeCommandQueueCreate(m->zctx, m->zdev, &qd, &q);
    m->queue = q;
    if (r != ZE_RESULT_SUCCESS)
        return ze_fail(r, "zeCommandQueueCreate");
    r = zeCommandListCreate(m->zctx, m->zdev, &ld, &l);
    m->list = l;
    if (r != ZE_RESULT_SUCCESS)
        return ze_fail(r, "zeCommandListCreate");
    zesort_ze_sorter *sorter = NULL;
    zesort_status st = zesort_ze_create(m->zctx, m->zdev, &sorter);
    m->sorter = sorter;
    if (st != ZESORT_OK)
        return zm_fail(st, "zesort_ze_create: %s", zesort_ze_last_error(NULL));
    m->ops = &device_ops;
    return ZESORT_OK;
}

void zm_mem_close(zm_mem *m)
{
    if (m->temp)
        dev_release(m, m->temp);
    if (m->sorter)
        zesort_ze_destroy(m->sorter);
    if (m->list)
        zeCommandListDestroy(m->list);
    if (m->queue)
        zeCommandQueueDestroy(m->queue);
    memset(m, 0, sizeof *m);
}

int zm_mem_is_device(const zm_mem *m)
{
    return m->ops == &device_ops;
}

zesort_status zm_device_memory(void *ze_context, void *ze_device, const void *p, const char *what)
{
    ze_memory_allocation_properties_t props = {ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES,
                                               NULL, ZE_MEMORY_TYPE_UNKNOWN, 0, 0};
    ze_device_handle_t dev = NULL;
    ze_result_t r = zeMemGetAllocProperties(ze_context, p, &props, &dev);
    if (r != ZE_RESULT_SUCCESS)
        return ze_fail(r, "zeMemGetAllocProperties");
    if (props.type != ZE_MEMORY_TYPE_DEVICE && props.type != ZE_MEMORY_TYPE_SHARED)
        return zm_fail(ZESORT_ERROR_INVALID_ARGUMENT, "device_buffers: %s is not device or "
                       "shared memory of opts->ze_context (memory type %d)", what,
                       (int)props.type);
    if (props.type == ZE_MEMORY_TYPE_DEVICE && dev != (ze_device_handle_t)ze_device)
        return zm_fail(ZESORT_ERROR_INVALID_ARGUMENT, "device_buffers: %s is device memory of "
                       "another device than opts->ze_device", what);
    return ZESORT_OK;
}

/* zeMemFree(ze_context, p) for p not NULL: the device arrays of an output. */
static void device_free(void *ze_context, void *p)
{
    if (p)
        zeMemFree(ze_context, p);
}

void zm_output_free(zesort_mpi_output *out)
{
    if (out->allocated && out->device_context) { /* device_buffers: the caller's context */
        device_free(out->device_context, out->keys);
        device_free(out->device_context, out->values);
    } else if (out->allocated) {
        free(out->keys);
        free(out->values);
    }
    out->keys = out->values = NULL;
    out->device_context = NULL;
    out->count = 0;
    out->allocated = 0;
}

void *zm_alloc(zm_mem *m, uint64_t n, size_t size)
{
    if (size && n > UINT64_MAX / size)
        return NULL;
    return m->ops->alloc(m, n * size);
}

void zm_free(zm_mem *m, void *p)
{
    m->ops->release(m, p);
}

zesort_status zm_copy(zm_mem *m, void *dst, const void *src, uint64_t bytes)
{
    return m->ops->copy(m, dst, src, bytes);
}

zesort_status zm_copy_many(zm_mem *m, const zm_copy_req *req, uint64_t n, size_t bytes)
{
    return m->ops->copy_many(m, req, n, bytes);
}

zesort_status zm_sort_copy(zm_mem *m, const void *ki, const void *vi, void *ko, void *vo,
                           uint64_t n, const zesort_options *o)
{
    return m->ops->sort_copy(m, ki, vi, ko, vo, n, o);
}

/* ---- whether MPI takes device pointers ---------------------------------------- */

#if defined(OPEN_MPI) && OPEN_MPI && defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h> /* Open MPI's extensions: MPIX_Query_ze_support where built in */
#endif
#endif

int zm_mpi_ze_aware(void)
{
    int forced = zm_test_gpu_aware();
    if (forced >= 0)
        return forced;
#if defined(MPIX_GPU_SUPPORT_ZE)
    /* MPICH 4.x: whether this MPICH was built with, and runs with, Level Zero */
    int ok = 0;
    if (MPIX_GPU_query_support(MPIX_GPU_SUPPORT_ZE, &ok) != MPI_SUCCESS)
        return -1;
    return ok != 0;
#elif defined(OMPI_HAVE_MPI_EXT_ZE) && OMPI_HAVE_MPI_EXT_ZE
    return MPIX_Query_ze_support() != 0;
#else
    return -1; /* Open MPI 4.1 (Debian 12) and others: no way to ask */
#endif
}
