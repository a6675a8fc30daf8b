/*
 * test_frames_ze.c — a Level Zero context decompresses only the embedded
 * kernel frames its device can use: with the test driver playing a GPU of an
 * IP version no embedded target has (ZE_CL_DRIVER_IP_VERSION), a sort must
 * leave every frame of other GPUs' native binaries (those whose IP version
 * is noted) compressed, except where a used frame is compressed against it
 * (its dictionary).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "programs/kernel_blobs.h"
#include "programs/kernel_select.h"
#include "zesort.h"

/* 1 when every blob of frame f is a native binary with a noted IP version. */
static int foreign_frame(unsigned f)
{
    int any = 0;
    for (size_t i = 0; i < zs_blob_count; i++) {
        if (zs_blobs[i].frame != f)
            continue;
        if (!zs_blob_is_native(&zs_blobs[i]) || zs_blobs[i].ip_version == 0)
            return 0;
        any = 1;
    }
    return any;
}

static int decompressed(unsigned f) { return atomic_load(&zs_frame_cache[f]) != NULL; }

/* 1 when a decompressed frame is compressed against frame f. */
static int needed_as_dictionary(unsigned f)
{
    for (unsigned j = 0; j < zs_frame_count; j++)
        if (zs_frames[j].dict == (int)f && decompressed(j))
            return 1;
    return 0;
}

int main(void)
{
    zesort_context *ctx;
    if (zesort_create(ZESORT_BACKEND_LEVEL_ZERO, &ctx) != ZESORT_OK) {
        printf("SKIP: %s\n", zesort_last_error(NULL));
        return 77;
    }
    uint32_t keys[1000];
    for (uint32_t i = 0; i < 1000; i++)
        keys[i] = (i * 2654435761u) >> 7;
    zesort_desc d;
    zesort_desc_init(&d, ZESORT_SORT);
    d.keys = keys, d.n = 1000, d.algo = ZESORT_ALGO_ONESWEEP;
    if (zesort_run(ctx, &d) != ZESORT_OK) {
        printf("FAIL sort: %s\n", zesort_last_error(ctx));
        return 1;
    }
    int failures = 0, foreign = 0;
    for (unsigned f = 0; f < zs_frame_count; f++) {
        foreign += foreign_frame(f);
        if (foreign_frame(f) && decompressed(f) && !needed_as_dictionary(f)) {
            printf("FAIL frame %s decompressed: no native binary of it suits the device\n",
                   zs_frames[f].name);
            failures++;
        }
    }
    printf("%u frames, %d of other GPUs (IP version noted), %d decompressed wrongly\n",
           (unsigned)zs_frame_count, foreign, failures);
    zesort_destroy(ctx);
    return failures != 0;
}
