/* ze_cl_driver: modules (SPIR-V -> OpenCL programs), kernels, arguments. */
#include "zecl_internal.h"

#include <CL/cl_ext.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ze_module_build_log_handle_t make_log(const char *text)
{
    ze_module_build_log_handle_t log = calloc(1, sizeof *log);
    if (log && !(log->text = zecl_strdup(text ? text : ""))) {
        free(log);
        log = NULL;
    }
    return log;
}

static void set_log(ze_module_build_log_handle_t *phBuildLog, const char *text)
{
    if (phBuildLog)
        *phBuildLog = make_log(text);
}

/* Build options: for bitcode, PoCL's SPIR options; OpenCL arg info (to know
   which arguments are pointers); then the caller's flags minus Intel-only
   tuning options (-ze-*, -cl-intel-*), which PoCL would refuse and which do
   not change results. An IL program needs no -cl-std: the OpenCL C version
   only matters when compiling source (ocloc took -cl-std when it made the
   SPIR-V); the SPIR-V's capabilities say what it uses. */
static char *build_options(const char *user, int il)
{
    size_t n = strlen(user ? user : "");
    char *opts = malloc(n + 64);
    if (!opts)
        return NULL;
    strcpy(opts, il ? "-cl-kernel-arg-info" : "-x spir -spir-std=1.2 -cl-kernel-arg-info");
    if (!user)
        return opts;
    char *copy = zecl_strdup(user);
    if (!copy) {
        free(opts);
        return NULL;
    }
    for (char *save = NULL, *tok = strtok_r(copy, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
        if (strncmp(tok, "-ze-", 4) == 0 || strncmp(tok, "-cl-intel-", 10) == 0)
            continue;
        strcat(opts, " ");
        strcat(opts, tok);
    }
    free(copy);
    return opts;
}

/* The OpenCL program (not built yet) of a SPIR-V module: the SPIR-V itself
   where the device takes SPIR-V IL (PoCL 6), else the SPIR 1.2 bitcode that
   llvm-spirv makes of it (PoCL 3.1). NULL with a message in *log on failure. */
static cl_program create_program(ze_device_handle_t dev, const void *spirv, size_t size, char **log)
{
    cl_int err, status = CL_SUCCESS;
    cl_program program;
    *log = NULL;
    if (dev->has_il_spirv) {
        program = clCreateProgramWithIL(g.context, spirv, size, &err);
        if (!program)
            *log = zecl_asprintf("ze_cl_driver: clCreateProgramWithIL failed (%d)", err);
        return program;
    }
    unsigned char *bc = NULL;
    size_t bc_size = 0;
    if (!zecl_spirv_to_bitcode(spirv, size, &bc, &bc_size, log))
        return NULL;
    const unsigned char *bin = bc;
    program = clCreateProgramWithBinary(g.context, 1, &dev->cl, &bc_size, &bin, &status, &err);
    free(bc);
    if (!program)
        *log = zecl_asprintf("ze_cl_driver: clCreateProgramWithBinary failed (%d, binary status %d)",
                             err, status);
    return program;
}

static ze_result_t load_kernel_names(ze_module_handle_t m)
{
    size_t size = 0;
    if (clGetProgramInfo(m->program, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &size) != CL_SUCCESS)
        return ZE_RESULT_ERROR_UNKNOWN;
    char *names = malloc(size + 1);
    if (!names)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    clGetProgramInfo(m->program, CL_PROGRAM_KERNEL_NAMES, size, names, NULL);
    names[size] = 0;
    uint32_t count = 0;
    m->kernel_names = calloc(size + 1, sizeof *m->kernel_names);
    if (!m->kernel_names) {
        free(names);
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    for (char *save = NULL, *tok = strtok_r(names, ";", &save); tok; tok = strtok_r(NULL, ";", &save))
        if (*tok)
            m->kernel_names[count++] = zecl_strdup(tok);
    m->num_kernels = count;
    free(names);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeModuleCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                           const ze_module_desc_t *desc, ze_module_handle_t *phModule,
                                           ze_module_build_log_handle_t *phBuildLog)
{
    (void)hContext;
    *phModule = NULL;
    if (phBuildLog)
        *phBuildLog = NULL;
    const void *input = desc->pInputModule;
    size_t input_size = desc->inputSize;
    if (desc->format == ZE_MODULE_FORMAT_NATIVE) { /* native.c: its SPIR-V, if it is ours */
        char *why = NULL;
        ze_result_t r = zecl_native_spirv(desc->pInputModule, desc->inputSize, &input,
                                          &input_size, &why);
        if (r != ZE_RESULT_SUCCESS) {
            set_log(phBuildLog, why);
            zecl_fail(r, "zeModuleCreate: %s", why ? why : "native binary refused");
            free(why);
            return r;
        }
    }
    if (desc->pNext) {
        set_log(phBuildLog, "ze_cl_driver: module descriptor extensions are not supported");
        return zecl_fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "zeModuleCreate: pNext chain");
    }
    if (desc->pConstants && desc->pConstants->numConstants > 0) {
        set_log(phBuildLog, "ze_cl_driver: specialization constants are not supported");
        return zecl_fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "zeModuleCreate: specialization constants");
    }

    char *log = NULL;
    cl_program program = create_program(hDevice, input, input_size, &log);
    if (!program) {
        set_log(phBuildLog, log);
        zecl_fail(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE, "zeModuleCreate: %s", log ? log : "");
        free(log);
        return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
    }

    ze_module_handle_t m = calloc(1, sizeof *m);
    char *opts = build_options(desc->pBuildFlags, hDevice->has_il_spirv);
    if (!m || !opts) {
        free(m);
        free(opts);
        clReleaseProgram(program);
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    m->device = hDevice;
    m->program = program;
    cl_int err = clBuildProgram(m->program, 1, &hDevice->cl, opts, NULL, NULL);
    size_t log_size = 0;
    clGetProgramBuildInfo(m->program, hDevice->cl, CL_PROGRAM_BUILD_LOG, 0, NULL, &log_size);
    char *cl_log = calloc(log_size + 1, 1);
    if (cl_log && log_size)
        clGetProgramBuildInfo(m->program, hDevice->cl, CL_PROGRAM_BUILD_LOG, log_size, cl_log, NULL);
    if (err != CL_SUCCESS) {
        char *msg = zecl_asprintf("ze_cl_driver: clBuildProgram(\"%s\") failed (%d):\n%s", opts, err,
                                  cl_log ? cl_log : "");
        set_log(phBuildLog, msg);
        zecl_fail(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE, "%s", msg ? msg : "");
        free(msg);
        free(cl_log);
        free(opts);
        clReleaseProgram(m->program);
        free(m);
        return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
    }
    set_log(phBuildLog, cl_log);
    free(cl_log);
    free(opts);
    ze_result_t r = load_kernel_names(m);
    if (r != ZE_RESULT_SUCCESS) {
        clReleaseProgram(m->program);
        free(m);
        return r;
    }
    *phModule = m;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeModuleDestroy(ze_module_handle_t m)
{
    for (uint32_t i = 0; i < m->num_kernels; i++)
        free(m->kernel_names[i]);
    free(m->kernel_names);
    clReleaseProgram(m->program);
    free(m);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeModuleBuildLogDestroy(ze_module_build_log_handle_t log)
{
    free(log->text);
    free(log);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeModuleBuildLogGetString(ze_module_build_log_handle_t log, size_t *pSize,
                                                      char *pBuildLog)
{
    size_t need = strlen(log->text) + 1;
    if (pBuildLog == NULL || *pSize == 0) {
        *pSize = need;
        return ZE_RESULT_SUCCESS;
    }
    size_t n = *pSize < need ? *pSize : need;
    memcpy(pBuildLog, log->text, n - 1);
    pBuildLog[n - 1] = 0;
    *pSize = n;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeModuleGetKernelNames(ze_module_handle_t m, uint32_t *pCount, const char **pNames)
{
    if (*pCount == 0 || pNames == NULL) {
        *pCount = m->num_kernels;
        return ZE_RESULT_SUCCESS;
    }
    if (*pCount > m->num_kernels)
        *pCount = m->num_kernels;
    for (uint32_t i = 0; i < *pCount; i++)
        pNames[i] = m->kernel_names[i];
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeModuleGetProperties(ze_module_handle_t m, ze_module_properties_t *p)
{
    (void)m;
    p->flags = 0; /* no imports: modules are fully linked */
    return ZE_RESULT_SUCCESS;
}

/* ---------------------------------------------------------------- kernels */

static enum zecl_arg_kind declared_kind(cl_kernel k, cl_uint i)
{
    cl_kernel_arg_address_qualifier aq;
    if (clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL) != CL_SUCCESS)
        return ZECL_ARG_UNKNOWN;
    switch (aq) {
    case CL_KERNEL_ARG_ADDRESS_GLOBAL:
    case CL_KERNEL_ARG_ADDRESS_CONSTANT:
        return ZECL_ARG_POINTER;
    case CL_KERNEL_ARG_ADDRESS_LOCAL:
        return ZECL_ARG_LOCAL;
    default:
        return ZECL_ARG_VALUE;
    }
}

ze_result_t ZE_APICALL zecl_zeKernelCreate(ze_module_handle_t m, const ze_kernel_desc_t *desc,
                                           ze_kernel_handle_t *phKernel)
{
    *phKernel = NULL;
    if (desc->pNext)
        return zecl_fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "zeKernelCreate: pNext chain");
    cl_int err;
    cl_kernel ck = clCreateKernel(m->program, desc->pKernelName, &err);
    if (!ck)
        return zecl_fail(ZE_RESULT_ERROR_INVALID_KERNEL_NAME, "zeKernelCreate: no kernel \"%s\" (%d)",
                         desc->pKernelName, err);
    ze_kernel_handle_t k = calloc(1, sizeof *k);
    cl_uint nargs = 0;
    clGetKernelInfo(ck, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL);
    if (k) {
        k->name = zecl_strdup(desc->pKernelName);
        k->declared = calloc(nargs + 1, sizeof *k->declared);
        k->args = calloc(nargs + 1, sizeof *k->args);
    }
    if (!k || !k->name || !k->declared || !k->args) {
        if (k) {
            free(k->name);
            free(k->declared);
            free(k->args);
        }
        free(k);
        clReleaseKernel(ck);
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    k->module = m;
    k->cl = ck;
    k->num_args = nargs;
    for (cl_uint i = 0; i < nargs; i++)
        k->declared[i] = declared_kind(ck, i);
    clGetKernelWorkGroupInfo(ck, m->device->cl, CL_KERNEL_WORK_GROUP_SIZE, sizeof k->max_group_size,
                             &k->max_group_size, NULL);
    if (k->max_group_size == 0 || k->max_group_size > m->device->max_group_size)
        k->max_group_size = m->device->max_group_size;
    clGetKernelWorkGroupInfo(ck, m->device->cl, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof k->required_size,
                             k->required_size, NULL);
    for (int d = 0; d < 3; d++)
        k->group_size[d] = k->required_size[0] ? (uint32_t)k->required_size[d] : 1;
    pthread_mutex_init(&k->cl_lock, NULL);
    *phKernel = k;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeKernelDestroy(ze_kernel_handle_t k)
{
    for (uint32_t i = 0; i < k->num_args; i++)
        free(k->args[i].bytes);
    free(k->args);
    free(k->declared);
    free(k->name);
    pthread_mutex_destroy(&k->cl_lock);
    clReleaseKernel(k->cl);
    free(k);
    return ZE_RESULT_SUCCESS;
}

/* Sets one argument on the OpenCL kernel (k->cl_lock held). */
static cl_int apply_arg(cl_kernel k, cl_uint i, const struct zecl_arg *a)
{
    switch (a->kind) {
    case ZECL_ARG_POINTER:
        if (a->pointer == NULL)
            return clSetKernelArg(k, i, sizeof(cl_mem), NULL); /* a null global pointer */
        return clSetKernelArgSVMPointer(k, i, a->pointer);
    case ZECL_ARG_LOCAL:
        return clSetKernelArg(k, i, a->size, NULL);
    default:
        return clSetKernelArg(k, i, a->size, a->bytes);
    }
}

cl_int zecl_apply_args(ze_kernel_handle_t k, const struct zecl_arg *args)
{
    for (uint32_t i = 0; i < k->num_args; i++) {
        cl_int err = apply_arg(k->cl, i, &args[i]);
        if (err != CL_SUCCESS)
            return err;
    }
    return CL_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeKernelSetArgumentValue(ze_kernel_handle_t k, uint32_t argIndex, size_t argSize,
                                                     const void *pArgValue)
{
    if (argIndex >= k->num_args)
        return zecl_fail(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX, "%s: argument %u of %u", k->name,
                         argIndex, k->num_args);
    struct zecl_arg a = {.set = 1, .kind = k->declared[argIndex], .size = argSize};
    if (a.kind == ZECL_ARG_UNKNOWN) {
        /* No OpenCL arg info: a null value is local memory, a value equal to
           a live allocation address is a pointer, the rest is by value. */
        a.kind = ZECL_ARG_VALUE;
        if (pArgValue == NULL) {
            a.kind = ZECL_ARG_LOCAL;
        } else if (argSize == sizeof(void *)) {
            void *p;
            memcpy(&p, pArgValue, sizeof p);
            pthread_mutex_lock(&g.lock);
            if (zecl_find_alloc_locked(p))
                a.kind = ZECL_ARG_POINTER;
            pthread_mutex_unlock(&g.lock);
        }
    }
    switch (a.kind) {
    case ZECL_ARG_POINTER:
        if (argSize != sizeof(void *))
            return zecl_fail(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE, "%s: pointer argument %u of %zu bytes",
                             k->name, argIndex, argSize);
        if (pArgValue)
            memcpy(&a.pointer, pArgValue, sizeof a.pointer);
        break;
    case ZECL_ARG_LOCAL:
        if (argSize == 0)
            return zecl_fail(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE, "%s: local argument %u of 0 bytes",
                             k->name, argIndex);
        break;
    default:
        if (pArgValue == NULL)
            return zecl_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, "%s: argument %u passed by value is NULL",
                             k->name, argIndex);
        a.bytes = malloc(argSize ? argSize : 1);
        if (!a.bytes)
            return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        memcpy(a.bytes, pArgValue, argSize);
        break;
    }
    /* Setting it on the OpenCL kernel now validates the size; launches set
       every argument again from their own snapshot. */
    pthread_mutex_lock(&k->cl_lock);
    cl_int err = apply_arg(k->cl, argIndex, &a);
    if (err == CL_SUCCESS) {
        free(k->args[argIndex].bytes);
        k->args[argIndex] = a;
    }
    pthread_mutex_unlock(&k->cl_lock);
    if (err != CL_SUCCESS) {
        free(a.bytes);
        return zecl_fail(err == CL_INVALID_ARG_SIZE ? ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE
                                                    : ZE_RESULT_ERROR_INVALID_ARGUMENT,
                         "%s: OpenCL refused argument %u (%zu bytes): %d", k->name, argIndex, argSize, err);
    }
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeKernelSetGroupSize(ze_kernel_handle_t k, uint32_t x, uint32_t y, uint32_t z)
{
    const size_t *max = k->module->device->max_item_sizes;
    uint64_t total = (uint64_t)x * y * z;
    if (x == 0 || y == 0 || z == 0 || x > max[0] || y > max[1] || z > max[2] || total > k->max_group_size)
        return zecl_fail(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION,
                         "%s: group size %ux%ux%u (limits %zux%zux%zu, %zu in all)", k->name, x, y, z,
                         max[0], max[1], max[2], k->max_group_size);
    if (k->required_size[0] &&
        (x != k->required_size[0] || y != k->required_size[1] || z != k->required_size[2]))
        return zecl_fail(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION,
                         "%s: group size %ux%ux%u differs from reqd_work_group_size %zux%zux%zu", k->name, x,
                         y, z, k->required_size[0], k->required_size[1], k->required_size[2]);
    pthread_mutex_lock(&k->cl_lock);
    k->group_size[0] = x;
    k->group_size[1] = y;
    k->group_size[2] = z;
    pthread_mutex_unlock(&k->cl_lock);
    return ZE_RESULT_SUCCESS;
}

/* The largest divisor of n not above limit (>= 1). */
static uint32_t largest_divisor(uint32_t n, uint64_t limit)
{
    if (limit >= n)
        return n;
    for (uint32_t d = (uint32_t)limit; d > 1; d--)
        if (n % d == 0)
            return d;
    return 1;
}

ze_result_t ZE_APICALL zecl_zeKernelSuggestGroupSize(ze_kernel_handle_t k, uint32_t gx, uint32_t gy, uint32_t gz,
                                                     uint32_t *x, uint32_t *y, uint32_t *z)
{
    if (gx == 0 || gy == 0 || gz == 0)
        return zecl_fail(ZE_RESULT_ERROR_INVALID_GLOBAL_WIDTH_DIMENSION, "%s: global size %ux%ux%u", k->name,
                         gx, gy, gz);
    if (k->required_size[0]) {
        *x = (uint32_t)k->required_size[0];
        *y = (uint32_t)k->required_size[1];
        *z = (uint32_t)k->required_size[2];
        return ZE_RESULT_SUCCESS;
    }
    const size_t *max = k->module->device->max_item_sizes;
    /* Groups dividing the global size exactly (Level Zero launches whole
       groups), at most 256 items: plenty for a CPU. */
    uint64_t budget = k->max_group_size < 256 ? k->max_group_size : 256;
    *x = largest_divisor(gx, budget < max[0] ? budget : max[0]);
    budget /= *x;
    *y = largest_divisor(gy, budget < max[1] ? budget : max[1]);
    budget /= *y;
    *z = largest_divisor(gz, budget < max[2] ? budget : max[2]);
    return ZE_RESULT_SUCCESS;
}

/* Sub-group facts of a kernel: none on a device without sub-groups; else
   the size it requires (intel_reqd_sub_group_size), which is also its
   largest, or the device's largest size. */
static void kernel_sub_groups(ze_kernel_handle_t k, ze_kernel_properties_t *p)
{
    const struct _ze_device_handle_t *d = k->module->device;
    size_t required = 0;
    p->requiredSubgroupSize = p->maxSubgroupSize = p->maxNumSubgroups = 0;
    if (d->num_sg_sizes == 0)
        return;
    if (clGetKernelSubGroupInfo(k->cl, d->cl, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 0, NULL,
                                sizeof required, &required, NULL) != CL_SUCCESS)
        required = 0;
    p->requiredSubgroupSize = (uint32_t)required;
    p->maxSubgroupSize = required ? (uint32_t)required : d->sg_sizes[d->num_sg_sizes - 1];
    p->maxNumSubgroups = (uint32_t)((k->max_group_size + p->maxSubgroupSize - 1) / p->maxSubgroupSize);
}

ze_result_t ZE_APICALL zecl_zeKernelGetProperties(ze_kernel_handle_t k, ze_kernel_properties_t *p)
{
    cl_device_id dev = k->module->device->cl;
    cl_ulong local = 0, priv = 0;
    clGetKernelWorkGroupInfo(k->cl, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local, &local, NULL);
    clGetKernelWorkGroupInfo(k->cl, dev, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof priv, &priv, NULL);
    p->numKernelArgs = k->num_args;
    p->requiredGroupSizeX = (uint32_t)k->required_size[0];
    p->requiredGroupSizeY = (uint32_t)k->required_size[1];
    p->requiredGroupSizeZ = (uint32_t)k->required_size[2];
    p->requiredNumSubGroups = 0;
    kernel_sub_groups(k, p);
    p->localMemSize = (uint32_t)local;
    p->privateMemSize = (uint32_t)priv;
    p->spillMemSize = 0;
    memset(&p->uuid, 0, sizeof p->uuid);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeKernelGetName(ze_kernel_handle_t k, size_t *pSize, char *pName)
{
    size_t need = strlen(k->name) + 1;
    if (pName == NULL || *pSize == 0) {
        *pSize = need;
        return ZE_RESULT_SUCCESS;
    }
    size_t n = *pSize < need ? *pSize : need;
    memcpy(pName, k->name, n - 1);
    pName[n - 1] = 0;
    *pSize = n;
    return ZE_RESULT_SUCCESS;
}

/* Indirect access: every allocation is fine-grained SVM in one OpenCL
   context, so kernels can always reach allocations they were not passed;
   the flags are only remembered. */
ze_result_t ZE_APICALL zecl_zeKernelSetIndirectAccess(ze_kernel_handle_t k, ze_kernel_indirect_access_flags_t f)
{
    k->indirect = f;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeKernelGetIndirectAccess(ze_kernel_handle_t k, ze_kernel_indirect_access_flags_t *f)
{
    *f = k->indirect;
    return ZE_RESULT_SUCCESS;
}
