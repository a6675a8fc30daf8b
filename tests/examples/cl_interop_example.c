/* Sort a cl_mem inside your own OpenCL queue: write, sort, read back,
 * chained by your events; the host waits once, at the end.
 * Build: cc cl_interop_example.c $(pkg-config --cflags --libs zesort) */
#define CL_TARGET_OPENCL_VERSION 120 /* your OpenCL API: 1.2 here (clCreateCommandQueue) */
#include <stdio.h>
#include <zesort_cl.h>

#define CHECK(call) do { cl_int e_ = (call); if (e_ != CL_SUCCESS) { \
    fprintf(stderr, "%s failed: %d\n", #call, e_); return 1; } } while (0)

int main(void)
{
    uint32_t keys[] = {42, 7, 19, 7, 3000000000u, 0, 19};
    uint64_t n = sizeof keys / sizeof keys[0];

    /* Your objects: platform, device, context, queue, buffers. */
    cl_platform_id platform;
    cl_device_id device;
    cl_int err;
    CHECK(clGetPlatformIDs(1, &platform, NULL));
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
    CHECK(err);
    cl_mem dev_keys = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof keys, NULL, &err);
    CHECK(err);

    /* The sorter borrows your context and device; temp memory is yours. */
    zesort_cl_sorter *sorter;
    if (zesort_cl_create(context, device, &sorter) != ZESORT_OK) {
        fprintf(stderr, "zesort_cl_create: %s\n", zesort_cl_last_error(NULL));
        return 1;
    }
    /* One descriptor says what to sort (defaults: ascending u32 keys, keys
     * only; buffers are cl_mem handles); the requirements query says how
     * much temp it needs. */
    zesort_desc d;
    zesort_desc_init(&d, ZESORT_SORT);
    d.keys = dev_keys;
    d.n = n;
    zesort_requirements req;
    if (zesort_cl_requirements(sorter, &d, &req) != ZESORT_OK) {
        fprintf(stderr, "zesort_cl_requirements: %s\n", zesort_cl_last_error(sorter));
        return 1;
    }
    cl_mem temp = NULL;
    if (req.temp_bytes > 0) {
        temp = clCreateBuffer(context, CL_MEM_READ_WRITE, req.temp_bytes, NULL, &err);
        CHECK(err);
    }
    d.temp = temp;
    d.temp_bytes = req.temp_bytes;

    /* Enqueue: write -> sort (waits on `written`) -> read (waits on `sorted`). */
    cl_event written, sorted;
    CHECK(clEnqueueWriteBuffer(queue, dev_keys, CL_FALSE, 0, sizeof keys, keys, 0, NULL, &written));
    zesort_cl_sync sync = {.num_wait_events = 1, .wait_events = &written, .event = &sorted};
    zesort_status st = zesort_cl_enqueue(sorter, queue, &d, &sync);
    if (st != ZESORT_OK) {
        fprintf(stderr, "zesort_cl_enqueue: %s\n", zesort_cl_last_error(sorter));
        return 1;
    }
    CHECK(clEnqueueReadBuffer(queue, dev_keys, CL_TRUE, 0, sizeof keys, keys, 1, &sorted, NULL));

    printf("sorted on the device:");
    for (uint64_t i = 0; i < n; ++i)
        printf(" %u", keys[i]);
    printf("\n");

    clReleaseEvent(sorted);
    clReleaseEvent(written);
    zesort_cl_destroy(sorter);
    if (temp)
        clReleaseMemObject(temp);
    clReleaseMemObject(dev_keys);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return 0;
}
