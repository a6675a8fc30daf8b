/* ze_cl_driver: initialisation, driver, device and context queries. */
#include "zecl_internal.h"

#include <CL/cl_ext.h>

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct zecl_global g = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .next_alloc_id = 1,
};

static pthread_once_t once = PTHREAD_ONCE_INIT;

ze_result_t zecl_fail(ze_result_t r, const char *fmt, ...)
{
    if (g.debug) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "ze_cl_driver: error 0x%x: ", (unsigned)r);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
    }
    return r;
}

static uint64_t clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* PoCL's profiling timestamps are CLOCK_MONOTONIC_RAW: so is the device
   timer, so that every timestamp the driver reports is on one clock. */
uint64_t zecl_now_ns(void)
{
    return clock_ns(CLOCK_MONOTONIC_RAW);
}

/* Deadlines are on CLOCK_MONOTONIC, the clock of g.changed. */
uint64_t zecl_deadline(uint64_t timeout_ns)
{
    uint64_t now = clock_ns(CLOCK_MONOTONIC);
    if (timeout_ns == UINT64_MAX || now + timeout_ns < now)
        return UINT64_MAX;
    return now + timeout_ns;
}

int zecl_wait_until(uint64_t deadline_ns)
{
    if (deadline_ns == UINT64_MAX) {
        pthread_cond_wait(&g.changed, &g.lock);
        return 1;
    }
    if (clock_ns(CLOCK_MONOTONIC) >= deadline_ns)
        return 0;
    struct timespec ts = {
        .tv_sec = (time_t)(deadline_ns / 1000000000u),
        .tv_nsec = (long)(deadline_ns % 1000000000u),
    };
    return pthread_cond_timedwait(&g.changed, &g.lock, &ts) != ETIMEDOUT;
}

char *zecl_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

char *zecl_asprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return NULL;
    char *s = malloc((size_t)n + 1);
    if (!s)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

static int has_extension(const char *exts, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(exts, name); p; p = strstr(p + 1, name))
        if ((p == exts || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

/* FNV-1a, to derive a stable uuid from the OpenCL device name. */
static uint64_t fnv1a(const char *s, uint64_t h)
{
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

/* Whether the device takes SPIR-V through clCreateProgramWithIL: it names
   SPIR-V in CL_DEVICE_IL_VERSION (OpenCL 2.1+ or cl_khr_il_program; PoCL 6
   says "SPIR-V_1.2 SPIR-V_1.1 SPIR-V_1.0", PoCL 3.1 fails the query). */
static int takes_spirv_il(cl_device_id id)
{
    char il[512] = "";
    return clGetDeviceInfo(id, CL_DEVICE_IL_VERSION, sizeof il - 1, il, NULL) == CL_SUCCESS &&
           strstr(il, "SPIR-V") != NULL;
}

/* The Intel sub-group sizes of the device (cl_intel_subgroups), at most the
   ZE_SUBGROUPSIZE_COUNT first of CL_DEVICE_SUB_GROUP_SIZES_INTEL (PoCL 6
   lists 1, 2, 4, ..., 512 in ascending order: 32 is among the first 8).
   Without the extension there are none, so the library runs its portable
   kernels; with them it runs its sg kernels. */
static void describe_sub_groups(cl_device_id id, const char *exts, struct _ze_device_handle_t *d)
{
    size_t sizes[64], bytes = 0;
    d->num_sg_sizes = 0;
    if (!has_extension(exts, "cl_intel_subgroups") ||
        clGetDeviceInfo(id, CL_DEVICE_SUB_GROUP_SIZES_INTEL, sizeof sizes, sizes, &bytes) != CL_SUCCESS)
        return;
    for (size_t i = 0; i < bytes / sizeof sizes[0] && d->num_sg_sizes < ZE_SUBGROUPSIZE_COUNT; i++)
        d->sg_sizes[d->num_sg_sizes++] = (uint32_t)sizes[i];
}

/* A device is usable when it has fine-grained SVM buffers (all Level Zero
   memory is SVM here) and takes SPIR-V, either as IL (PoCL 6) or as SPIR 1.2
   bitcode that llvm-spirv makes from it (cl_khr_spir, PoCL 3.1). PoCL 6 has
   no cl_khr_spir any more: requiring it left the driver with no device. */
static int describe_device(cl_device_id id, struct _ze_device_handle_t *d)
{
    cl_device_svm_capabilities svm = 0;
    char exts[8192] = "", clname[200] = "";
    if (clGetDeviceInfo(id, CL_DEVICE_SVM_CAPABILITIES, sizeof svm, &svm, NULL) != CL_SUCCESS ||
        !(svm & CL_DEVICE_SVM_FINE_GRAIN_BUFFER))
        return 0;
    if (clGetDeviceInfo(id, CL_DEVICE_EXTENSIONS, sizeof exts - 1, exts, NULL) != CL_SUCCESS)
        return 0;
    int il = takes_spirv_il(id);
    if (!il && !has_extension(exts, "cl_khr_spir"))
        return 0;
    memset(d, 0, sizeof *d);
    d->cl = id;
    clGetDeviceInfo(id, CL_DEVICE_NAME, sizeof clname - 1, clname, NULL);
    snprintf(d->name, sizeof d->name, "ze_cl_driver: %s", clname);
    clGetDeviceInfo(id, CL_DEVICE_VENDOR_ID, sizeof d->vendor_id, &d->vendor_id, NULL);
    clGetDeviceInfo(id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof d->compute_units, &d->compute_units, NULL);
    clGetDeviceInfo(id, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof d->clock_mhz, &d->clock_mhz, NULL);
    clGetDeviceInfo(id, CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, sizeof d->simd_width, &d->simd_width, NULL);
    clGetDeviceInfo(id, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof d->max_alloc, &d->max_alloc, NULL);
    clGetDeviceInfo(id, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof d->global_mem, &d->global_mem, NULL);
    clGetDeviceInfo(id, CL_DEVICE_LOCAL_MEM_SIZE, sizeof d->local_mem, &d->local_mem, NULL);
    clGetDeviceInfo(id, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof d->max_group_size, &d->max_group_size, NULL);
    clGetDeviceInfo(id, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof d->max_item_sizes, d->max_item_sizes, NULL);
    clGetDeviceInfo(id, CL_DEVICE_MAX_PARAMETER_SIZE, sizeof d->max_param_size, &d->max_param_size, NULL);
    clGetDeviceInfo(id, CL_DEVICE_PRINTF_BUFFER_SIZE, sizeof d->printf_buffer_size, &d->printf_buffer_size, NULL);
    clGetDeviceInfo(id, CL_DEVICE_SINGLE_FP_CONFIG, sizeof d->fp32_config, &d->fp32_config, NULL);
    clGetDeviceInfo(id, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof d->fp64_config, &d->fp64_config, NULL);
    d->has_fp16 = has_extension(exts, "cl_khr_fp16");
    d->has_fp64 = has_extension(exts, "cl_khr_fp64");
    d->has_int64_atomics = has_extension(exts, "cl_khr_int64_base_atomics");
    d->has_il_spirv = il;
    describe_sub_groups(id, exts, d);
    if (d->simd_width == 0)
        d->simd_width = 1;
    uint64_t h1 = fnv1a(clname, 0xcbf29ce484222325ull), h2 = fnv1a("ze_cl_driver", h1);
    memcpy(d->uuid, &h1, 8);
    memcpy(d->uuid + 8, &h2, 8);
    return 1;
}

/* The count 1..max in the environment variable `name`; 0 when unset, and
   (with a note on stderr) when it is not such a count. */
static unsigned long env_count(const char *name, unsigned long max)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return 0;
    char *end;
    unsigned long n = strtoul(v, &end, 10);
    if (*end || n < 1 || n > max) {
        fprintf(stderr, "ze_cl_driver: %s=%s ignored (1..%lu)\n", name, v, max);
        return 0;
    }
    return n;
}

/* ZE_CL_DRIVER_DEVICES=N (1..ZECL_MAX_DEVICES): N Level Zero devices, all
   over the first usable OpenCL device, so that device choice can be tested
   on a machine with one OpenCL device. Each is a distinct handle with its
   own name (" #K" appended) and uuid; they share the OpenCL device, its
   context and its memory (every allocation is visible to all of them, as
   it is already for several OpenCL devices). Unset: one Level Zero device
   per usable OpenCL device. */
static void replicate_devices(void)
{
    unsigned long n = env_count("ZE_CL_DRIVER_DEVICES", ZECL_MAX_DEVICES);
    if (!n)
        return;
    struct _ze_device_handle_t first = g.devices[0];
    for (unsigned long k = 0; k < n; k++) {
        struct _ze_device_handle_t *d = &g.devices[k];
        *d = first;
        size_t len = strlen(first.name);
        if (len > sizeof d->name - 8)
            len = sizeof d->name - 8;
        snprintf(d->name + len, sizeof d->name - len, " #%lu", k);
        d->uuid[ZE_MAX_DEVICE_UUID_SIZE - 1] ^= (uint8_t)(k + 1);
    }
    g.num_devices = (uint32_t)n;
}

/* ZE_CL_DRIVER_SUB_DEVICES=K (1..ZECL_MAX_SUB_DEVICES): every root device
   gets K sub-devices (zeDeviceGetSubDevices), as a multi-stack card (a Max
   GPU's two stacks) has, so that the library's sub-device listing runs. A
   sub-device is its root device's OpenCL device again, with
   ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE, its subdeviceId and its own uuid. */
static void split_sub_devices(void)
{
    unsigned long k = env_count("ZE_CL_DRIVER_SUB_DEVICES", ZECL_MAX_SUB_DEVICES);
    if (!k)
        return;
    for (uint32_t d = 0; d < g.num_devices; d++) {
        struct _ze_device_handle_t *root = &g.devices[d];
        for (uint32_t s = 0; s < k; s++) {
            struct _ze_device_handle_t *sd = &g.sub_devices[d][s];
            *sd = *root;
            sd->parent = root;
            sd->sub_id = s;
            sd->num_subs = 0;
            sd->uuid[ZE_MAX_DEVICE_UUID_SIZE - 2] ^= (uint8_t)(s + 1);
            root->subs[s] = sd;
        }
        root->num_subs = (uint32_t)k;
    }
}

/* Picks the first OpenCL platform with usable devices; one OpenCL context
   holds them all, so every allocation is visible to every device. */
static void init_once(void)
{
    const char *dbg = getenv("ZE_CL_DRIVER_DEBUG");
    g.debug = dbg && *dbg && strcmp(dbg, "0") != 0;
    const char *ip = getenv("ZE_CL_DRIVER_IP_VERSION");
    g.native_ip_version = ip && *ip ? (uint32_t)strtoul(ip, NULL, 0) : 0;
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&g.changed, &attr);
    pthread_condattr_destroy(&attr);

    g.init_result = ZE_RESULT_ERROR_UNINITIALIZED;
    cl_platform_id platforms[16];
    cl_uint np = 0;
    if (clGetPlatformIDs(16, platforms, &np) != CL_SUCCESS || np == 0) {
        zecl_fail(g.init_result, "no OpenCL platform");
        return;
    }
    if (np > 16)
        np = 16;
    for (cl_uint p = 0; p < np && g.num_devices == 0; p++) {
        cl_device_id ids[ZECL_MAX_DEVICES];
        cl_uint nd = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, ZECL_MAX_DEVICES, ids, &nd) != CL_SUCCESS)
            continue;
        if (nd > ZECL_MAX_DEVICES)
            nd = ZECL_MAX_DEVICES;
        cl_device_id usable[ZECL_MAX_DEVICES];
        cl_uint nu = 0;
        for (cl_uint i = 0; i < nd; i++)
            if (describe_device(ids[i], &g.devices[nu]))
                usable[nu++] = ids[i];
        if (nu == 0)
            continue;
        cl_int err;
        cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platforms[p], 0};
        g.context = clCreateContext(props, nu, usable, NULL, NULL, &err);
        if (!g.context) {
            zecl_fail(g.init_result, "clCreateContext failed (%d)", err);
            continue;
        }
        g.platform = platforms[p];
        g.num_devices = nu;
    }
    if (g.num_devices == 0) {
        zecl_fail(g.init_result, "no OpenCL device with fine-grained SVM and SPIR-V IL or cl_khr_spir");
        return;
    }
    replicate_devices();
    split_sub_devices();
    g.init_result = ZE_RESULT_SUCCESS;
    g.initialized = 1;
}

ze_result_t ZE_APICALL zecl_zeInit(ze_init_flags_t flags)
{
    /* The device is a CPU: a caller asking for GPU (or VPU) drivers only
       must not get it. */
    if (flags & (ZE_INIT_FLAG_GPU_ONLY | ZE_INIT_FLAG_VPU_ONLY))
        return zecl_fail(ZE_RESULT_ERROR_UNINITIALIZED, "zeInit: flags 0x%x exclude CPU devices",
                         (unsigned)flags);
    pthread_once(&once, init_once);
    return g.init_result;
}

/* The Level Zero "count" idiom: *count==0 or no array -> report the total;
   else copy min(*count, total) and set *count to that. */
#define ZECL_RETURN_LIST(count, array, total, item_expr)          \
    do {                                                          \
        uint32_t total_ = (total);                                \
        if (*(count) == 0 || (array) == NULL) {                   \
            *(count) = total_;                                    \
            return ZE_RESULT_SUCCESS;                             \
        }                                                         \
        if (*(count) > total_)                                    \
            *(count) = total_;                                    \
        for (uint32_t i = 0; i < *(count); i++)                   \
            (array)[i] = (item_expr);                             \
        return ZE_RESULT_SUCCESS;                                 \
    } while (0)

ze_result_t ZE_APICALL zecl_zeDriverGet(uint32_t *pCount, ze_driver_handle_t *phDrivers)
{
    if (!g.initialized)
        return ZE_RESULT_ERROR_UNINITIALIZED;
    ZECL_RETURN_LIST(pCount, phDrivers, 1, &g.driver);
}

ze_result_t ZE_APICALL zecl_zeDriverGetApiVersion(ze_driver_handle_t hDriver, ze_api_version_t *version)
{
    (void)hDriver;
    *version = ZE_API_VERSION_CURRENT;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeDriverGetProperties(ze_driver_handle_t hDriver,
                                                  ze_driver_properties_t *props)
{
    (void)hDriver;
    static const uint8_t uuid[ZE_MAX_DRIVER_UUID_SIZE] = "ze_cl_driver-01";
    memcpy(props->uuid.id, uuid, sizeof props->uuid.id);
    props->driverVersion = 1;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeDriverGetIpcProperties(ze_driver_handle_t hDriver,
                                                     ze_driver_ipc_properties_t *props)
{
    (void)hDriver;
    props->flags = 0; /* no IPC of any kind */
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeDriverGetExtensionProperties(ze_driver_handle_t hDriver, uint32_t *pCount,
                                                           ze_driver_extension_properties_t *props)
{
    (void)hDriver;
    (void)props;
    *pCount = 0; /* no extensions */
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeDeviceGet(ze_driver_handle_t hDriver, uint32_t *pCount,
                                        ze_device_handle_t *phDevices)
{
    (void)hDriver;
    ZECL_RETURN_LIST(pCount, phDevices, g.num_devices, &g.devices[i]);
}

ze_result_t ZE_APICALL zecl_zeDeviceGetSubDevices(ze_device_handle_t hDevice, uint32_t *pCount,
                                                  ze_device_handle_t *phSubdevices)
{
    ZECL_RETURN_LIST(pCount, phSubdevices, hDevice->num_subs, hDevice->subs[i]);
}

ze_result_t ZE_APICALL zecl_zeDeviceGetProperties(ze_device_handle_t d, ze_device_properties_t *p)
{
    int v12 = p->stype == ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2;
    /* PoCL runs on the host CPU: say so, unless a test has the driver play a
     * GPU (what zesort's AUTO backend takes) */
    const char *type = getenv("ZE_CL_DRIVER_DEVICE_TYPE");
    p->type = type && strcmp(type, "gpu") == 0 ? ZE_DEVICE_TYPE_GPU : ZE_DEVICE_TYPE_CPU;
    p->vendorId = d->vendor_id;
    p->deviceId = 0;
    p->flags = ZE_DEVICE_PROPERTY_FLAG_INTEGRATED; /* device memory is host memory */
    if (d->parent)
        p->flags |= ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE;
    p->subdeviceId = d->parent ? d->sub_id : 0;
    p->coreClockRate = d->clock_mhz;
    p->maxMemAllocSize = d->max_alloc;
    p->maxHardwareContexts = 1;
    p->maxCommandQueuePriority = 0;
    p->numThreadsPerEU = 1;
    p->physicalEUSimdWidth = d->simd_width;
    p->numEUsPerSubslice = d->compute_units;
    p->numSubslicesPerSlice = 1;
    p->numSlices = 1;
    /* The timer ticks in ns: 1 ns per tick (1.0 meaning), 1e9 ticks/s (1.2). */
    p->timerResolution = v12 ? 1000000000u : 1u;
    p->timestampValidBits = 64;
    p->kernelTimestampValidBits = 64;
    memcpy(p->uuid.id, d->uuid, sizeof p->uuid.id);
    snprintf(p->name, sizeof p->name, "%s", d->name);
    /* ze_device_ip_version_ext_t (stype 0x1000f, Level Zero 1.9): the IP
     * version the driver plays (ZE_CL_DRIVER_IP_VERSION), 0 otherwise */
    for (ze_base_properties_t *x = p->pNext; x; x = x->pNext)
        if ((unsigned)x->stype == 0x1000fu)
            memcpy((char *)x + offsetof(ze_base_properties_t, pNext) + sizeof(void *),
                   &g.native_ip_version, sizeof g.native_ip_version);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeDeviceGetComputeProperties(ze_device_handle_t d,
                                                         ze_device_compute_properties_t *p)
{
    p->maxTotalGroupSize = (uint32_t)d->max_group_size;
    p->maxGroupSizeX = (uint32_t)d->max_item_sizes[0];
    p->maxGroupSizeY = (uint32_t)d->max_item_sizes[1];
    p->maxGroupSizeZ = (uint32_t)d->max_item_sizes[2];
    p->maxGroupCountX = UINT32_MAX;
    p->maxGroupCountY = UINT32_MAX;
    p->maxGroupCountZ = UINT32_MAX;
    p->maxSharedLocalMemory = (uint32_t)d->local_mem;
    /* The OpenCL device's Intel sub-group sizes (none on PoCL 3.1, so the
       library runs its portable kernels; 1..128 on PoCL 6: its sg kernels). */
    memset(p->subGroupSizes, 0, sizeof p->subGroupSizes);
    p->numSubGroupSizes = d->num_sg_sizes;
    memcpy(p->subGroupSizes, d->sg_sizes, d->num_sg_sizes * sizeof d->sg_sizes[0]);
    return ZE_RESULT_SUCCESS;
}

static ze_device_fp_flags_t fp_flags(cl_device_fp_config c)
{
    ze_device_fp_flags_t f = 0;
    if (c & CL_FP_DENORM) f |= ZE_DEVICE_FP_FLAG_DENORM;
    if (c & CL_FP_INF_NAN) f |= ZE_DEVICE_FP_FLAG_INF_NAN;
    if (c & CL_FP_ROUND_TO_NEAREST) f |= ZE_DEVICE_FP_FLAG_ROUND_TO_NEAREST;
    if (c & CL_FP_ROUND_TO_ZERO) f |= ZE_DEVICE_FP_FLAG_ROUND_TO_ZERO;
    if (c & CL_FP_ROUND_TO_INF) f |= ZE_DEVICE_FP_FLAG_ROUND_TO_INF;
    if (c & CL_FP_FMA) f |= ZE_DEVICE_FP_FLAG_FMA;
    if (c & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) f |= ZE_DEVICE_FP_FLAG_ROUNDED_DIVIDE_SQRT;
    if (c & CL_FP_SOFT_FLOAT) f |= ZE_DEVICE_FP_FLAG_SOFT_FLOAT;
    return f;
}

ze_result_t ZE_APICALL zecl_zeDeviceGetModuleProperties(ze_device_handle_t d,
                                                        ze_device_module_properties_t *p)
{
    /* SPIR-V 1.4 is what ocloc -spv_only emits: llvm-spirv-15 reads it, and
       PoCL 6 builds it through clCreateProgramWithIL although its
       CL_DEVICE_IL_VERSION names 1.0-1.2 only (checked with the library's
       and the tests' modules). */
    p->spirvVersionSupported = ZE_MAKE_VERSION(1, 4);
    p->flags = 0;
    if (d->has_fp16) p->flags |= ZE_DEVICE_MODULE_FLAG_FP16;
    if (d->has_fp64) p->flags |= ZE_DEVICE_MODULE_FLAG_FP64;
    if (d->has_int64_atomics) p->flags |= ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS;
    p->fp16flags = 0;
    p->fp32flags = fp_flags(d->fp32_config);
    p->fp64flags = d->has_fp64 ? fp_flags(d->fp64_config) : 0;
    p->maxArgumentsSize = (uint32_t)d->max_param_size;
    p->printfBufferSize = (uint32_t)d->printf_buffer_size;
    memset(&p->nativeKernelSupported, 0, sizeof p->nativeKernelSupported);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeDeviceGetCommandQueueGroupProperties(
    ze_device_handle_t d, uint32_t *pCount, ze_command_queue_group_properties_t *props)
{
    (void)d;
    if (*pCount == 0 || props == NULL) {
        *pCount = 1;
        return ZE_RESULT_SUCCESS;
    }
    *pCount = 1;
    props[0].flags = ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE |
                     ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY;
    props[0].maxMemoryFillPatternSize = 128;
    props[0].numQueues = 1;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeDeviceGetMemoryProperties(ze_device_handle_t d, uint32_t *pCount,
                                                        ze_device_memory_properties_t *props)
{
    if (*pCount == 0 || props == NULL) {
        *pCount = 1;
        return ZE_RESULT_SUCCESS;
    }
    *pCount = 1;
    props[0].flags = 0;
    props[0].maxClockRate = 0;
    props[0].maxBusWidth = 0;
    props[0].totalSize = d->global_mem;
    snprintf(props[0].name, sizeof props[0].name, "OpenCL global memory (host RAM)");
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeDeviceGetMemoryAccessProperties(ze_device_handle_t d,
                                                              ze_device_memory_access_properties_t *p)
{
    (void)d;
    /* Every allocation is fine-grained SVM in host RAM. */
    ze_memory_access_cap_flags_t all = ZE_MEMORY_ACCESS_CAP_FLAG_RW | ZE_MEMORY_ACCESS_CAP_FLAG_ATOMIC |
                                       ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT |
                                       ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT_ATOMIC;
    p->hostAllocCapabilities = all;
    p->deviceAllocCapabilities = all;
    p->sharedSingleDeviceAllocCapabilities = all;
    p->sharedCrossDeviceAllocCapabilities = all;
    p->sharedSystemAllocCapabilities = 0; /* malloc'd memory is not usable by kernels */
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeDeviceCanAccessPeer(ze_device_handle_t d, ze_device_handle_t peer,
                                                  ze_bool_t *value)
{
    *value = d == peer; /* one OpenCL context: but only claim the obvious */
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeDeviceGetStatus(ze_device_handle_t d)
{
    (void)d;
    return g.device_lost ? ZE_RESULT_ERROR_DEVICE_LOST : ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeDeviceGetGlobalTimestamps(ze_device_handle_t d, uint64_t *host,
                                                        uint64_t *device)
{
    (void)d;
    /* Device and host share CLOCK_MONOTONIC_RAW (PoCL's profiling clock). */
    *host = *device = zecl_now_ns();
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeContextCreate(ze_driver_handle_t hDriver, const ze_context_desc_t *desc,
                                            ze_context_handle_t *phContext)
{
    (void)hDriver;
    if (desc->pNext)
        return zecl_fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "zeContextCreate: pNext chain");
    ze_context_handle_t c = calloc(1, sizeof *c);
    if (!c)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    *phContext = c;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeContextCreateEx(ze_driver_handle_t hDriver, const ze_context_desc_t *desc,
                                              uint32_t numDevices, ze_device_handle_t *phDevices,
                                              ze_context_handle_t *phContext)
{
    (void)numDevices;
    (void)phDevices; /* every device shares the one OpenCL context */
    return zecl_zeContextCreate(hDriver, desc, phContext);
}

ze_result_t ZE_APICALL zecl_zeContextDestroy(ze_context_handle_t hContext)
{
    free(hContext);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeContextGetStatus(ze_context_handle_t hContext)
{
    (void)hContext;
    return g.device_lost ? ZE_RESULT_ERROR_DEVICE_LOST : ZE_RESULT_SUCCESS;
}

/* Residency: every allocation is host RAM and always resident, so making
   memory resident or evicting it are correctly no-ops. */
ze_result_t ZE_APICALL zecl_zeContextMakeMemoryResident(ze_context_handle_t c, ze_device_handle_t d,
                                                        void *ptr, size_t size)
{
    (void)c; (void)d; (void)ptr; (void)size;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeContextEvictMemory(ze_context_handle_t c, ze_device_handle_t d,
                                                 void *ptr, size_t size)
{
    (void)c; (void)d; (void)ptr; (void)size;
    return ZE_RESULT_SUCCESS;
}
