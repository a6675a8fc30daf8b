/* Sort device memory inside your own Level Zero command list: copy in, sort,
 * copy out, chained by your events, one submission, one host wait.
 * Build: cc ze_interop_example.c $(pkg-config --cflags --libs zesort) */
#include <level_zero/ze_api.h>
#include <stdio.h>
#include <zesort_ze.h>

#define CHECK(call) do { if ((call) != ZE_RESULT_SUCCESS) { \
    fprintf(stderr, "%s failed\n", #call); return 1; } } while (0)

int main(void)
{
    uint32_t keys[] = {42, 7, 19, 7, 3000000000u, 0, 19};
    uint64_t n = sizeof keys / sizeof keys[0];

    /* Your objects: driver, device, context, queue, list, events, memory. */
    ze_driver_handle_t driver;
    ze_device_handle_t device;
    uint32_t count = 1;
    if (zeInit(0) != ZE_RESULT_SUCCESS) {   /* no driver: stop here */
        fprintf(stderr, "no Level Zero driver\n");
        return 77;
    }
    CHECK(zeDriverGet(&count, &driver));
    count = 1;
    CHECK(zeDeviceGet(driver, &count, &device));
    ze_context_desc_t context_desc = {.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    ze_context_handle_t context;
    CHECK(zeContextCreate(driver, &context_desc, &context));
    ze_command_queue_desc_t queue_desc = {.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
    ze_command_queue_handle_t queue;
    CHECK(zeCommandQueueCreate(context, device, &queue_desc, &queue));
    ze_command_list_desc_t list_desc = {.stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
    ze_command_list_handle_t list;
    CHECK(zeCommandListCreate(context, device, &list_desc, &list));
    ze_event_pool_desc_t pool_desc = {.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, .count = 2};
    ze_event_pool_handle_t pool;
    CHECK(zeEventPoolCreate(context, &pool_desc, 1, &device, &pool));
    ze_event_handle_t copied, sorted;
    ze_event_desc_t event_desc = {.stype = ZE_STRUCTURE_TYPE_EVENT_DESC, .index = 0};
    CHECK(zeEventCreate(pool, &event_desc, &copied));
    event_desc.index = 1;
    CHECK(zeEventCreate(pool, &event_desc, &sorted));
    ze_device_mem_alloc_desc_t mem_desc = {.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    void *dev_keys;
    CHECK(zeMemAllocDevice(context, &mem_desc, sizeof keys, 4, device, &dev_keys));

    /* The sorter borrows your context and device; temp memory is yours. */
    zesort_ze_sorter *sorter;
    if (zesort_ze_create(context, device, &sorter) != ZESORT_OK) {
        fprintf(stderr, "zesort_ze_create: %s\n", zesort_ze_last_error(NULL));
        return 1;
    }
    /* One descriptor says what to sort (defaults: ascending u32 keys, keys
     * only); the requirements query says how much temp it needs. */
    zesort_desc d;
    zesort_desc_init(&d, ZESORT_SORT);
    d.keys = dev_keys;
    d.n = n;
    zesort_requirements req;
    if (zesort_ze_requirements(sorter, &d, &req) != ZESORT_OK) {
        fprintf(stderr, "zesort_ze_requirements: %s\n", zesort_ze_last_error(sorter));
        return 1;
    }
    void *temp = NULL;
    if (req.temp_bytes > 0)
        CHECK(zeMemAllocDevice(context, &mem_desc, req.temp_bytes, req.temp_alignment, device,
                               &temp));
    d.temp = temp;
    d.temp_bytes = req.temp_bytes;

    /* Record: copy in -> sort (waits on `copied`, signals `sorted`) -> copy out. */
    CHECK(zeCommandListAppendMemoryCopy(list, dev_keys, keys, sizeof keys, copied, 0, NULL));
    zesort_ze_sync sync = {.signal_event = sorted, .num_wait_events = 1, .wait_events = &copied};
    zesort_status st = zesort_ze_append(sorter, list, &d, &sync);
    if (st != ZESORT_OK) {
        fprintf(stderr, "zesort_ze_append: %s\n", zesort_ze_last_error(sorter));
        return 1;
    }
    CHECK(zeCommandListAppendMemoryCopy(list, keys, dev_keys, sizeof keys, NULL, 1, &sorted));
    CHECK(zeCommandListClose(list));
    CHECK(zeCommandQueueExecuteCommandLists(queue, 1, &list, NULL));
    CHECK(zeCommandQueueSynchronize(queue, UINT64_MAX));

    printf("sorted on the device:");
    for (uint64_t i = 0; i < n; ++i)
        printf(" %u", keys[i]);
    printf("\n");

    /* The list referred to the sorter's kernels: destroy it first. */
    zeCommandListDestroy(list);
    zesort_ze_destroy(sorter);
    if (temp)
        zeMemFree(context, temp);
    zeMemFree(context, dev_keys);
    zeEventDestroy(sorted);
    zeEventDestroy(copied);
    zeEventPoolDestroy(pool);
    zeCommandQueueDestroy(queue);
    zeContextDestroy(context);
    return 0;
}
