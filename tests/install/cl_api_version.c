/* cl_api_version.c — a program that includes zesort_cl.h before <CL/cl.h>
 * and uses the OpenCL 2.0 API (cl_queue_properties,
 * clCreateCommandQueueWithProperties) must compile with -Werror: the header
 * must not choose the caller's OpenCL version (CL_TARGET_OPENCL_VERSION).
 * check_install.sh builds it against the installed headers. */
#include <zesort_cl.h>
#include <CL/cl.h>
#include <stdio.h>

int main(void)
{
    cl_platform_id platform;
    cl_device_id device;
    cl_int err = clGetPlatformIDs(1, &platform, NULL);
    if (err == CL_SUCCESS)
        err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    if (err != CL_SUCCESS)
        return 1;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return 1;
    const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, 0, 0};
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, props, &err);
    zesort_cl_sorter *sorter = NULL;
    zesort_status st = err == CL_SUCCESS ? zesort_cl_create(context, device, &sorter)
                                         : ZESORT_ERROR_BACKEND;
    printf("queue with properties: %d, sorter: %s\n", (int)err, zesort_status_name(st));
    zesort_cl_destroy(sorter);
    if (queue)
        clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return st == ZESORT_OK ? 0 : 1;
}
