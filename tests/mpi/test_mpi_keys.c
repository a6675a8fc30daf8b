/*
 * test_mpi_keys.c — the splitters' view of device keys (zm_keys,
 * src/mpi/mpi_keys.c) against the keys themselves: every key of a sorted
 * array in Level Zero device memory read through the host block cache in a
 * random order (so blocks evict each other: more blocks than slots, and the
 * last, partial block), and bisection counts for many digits, compared with
 * the same reads of the host copy. The distributed sort tolerates some
 * wrong probes far from its splitters, so its own tests would not see a
 * stale or short block; this does. No MPI call is made (no mpirun).
 */
#include <level_zero/ze_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

static uint64_t mix(uint64_t x)
{
    x += UINT64_C(0x9E3779B97F4A7C15);
    x = (x ^ (x >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94D049BB133111EB);
    return x ^ (x >> 31);
}

int main(void)
{
    uint32_t count = 1;
    ze_driver_handle_t driver = NULL;
    ze_device_handle_t dev = NULL;
    ze_context_handle_t zc = NULL;
    ze_context_desc_t cd = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    if (zeInit(0) != ZE_RESULT_SUCCESS || zeDriverGet(&count, &driver) != ZE_RESULT_SUCCESS ||
        zeDeviceGet(driver, &count, &dev) != ZE_RESULT_SUCCESS ||
        zeContextCreate(driver, &cd, &zc) != ZE_RESULT_SUCCESS) {
        fprintf(stderr, "no Level Zero driver, device or context\n");
        return 1;
    }
    /* more blocks than the cache's slots, the last one partial */
    const uint64_t n = (uint64_t)ZM_CACHE_KEYS * (ZM_CACHE_SLOTS * 2 + 3) + 77;
    uint64_t *host = malloc(n * sizeof *host);
    for (uint64_t i = 0; i < n; i++) /* sorted, with runs of equal keys */
        host[i] = (i / 3) * 5;
    zm_mem mem;
    int failed = zm_mem_device(&mem, NULL, zc, dev) != ZESORT_OK;
    void *keys = failed ? NULL : zm_alloc(&mem, n, sizeof *host);
    failed |= !keys || zm_copy(&mem, keys, host, n * sizeof *host) != ZESORT_OK;
    zesort_options so;
    zesort_options_default(&so);
    so.key_type = ZESORT_KEY_U64;
    zm_order o = zm_order_of(&so);
    zm_keys dk, hk;
    memset(&dk, 0, sizeof dk);
    memset(&hk, 0, sizeof hk);
    failed |= !failed && (zm_keys_open(&dk, &o, keys, n, &mem) != ZESORT_OK ||
                          zm_keys_open(&hk, &o, host, n, NULL) != ZESORT_OK || !dk.mem);
    uint64_t bad = 0;
    for (uint64_t r = 0; r < 4 * n && !failed; r++) {
        uint64_t i = mix(r) % n;
        bad += zm_digit_at(&dk, i) != zm_digit_at(&hk, i);
    }
    for (uint64_t r = 0; r < 2000 && !failed; r++) {
        uint64_t d = mix(r + n) % (host[n - 1] + 7);
        bad += zm_count_upto(&dk, d) != zm_count_upto(&hk, d);
        bad += zm_count_below(&dk, d) != zm_count_below(&hk, d);
    }
    failed |= bad != 0 || dk.st != ZESORT_OK;
    printf("mpi keys: %llu device keys read through the cache: %llu wrong, %llu bytes copied "
           "to the host: %s\n", (unsigned long long)n, (unsigned long long)bad,
           (unsigned long long)dk.bytes_copied, failed ? "FAIL" : "ok");
    if (keys) {
        zm_keys_close(&dk);
        zm_keys_close(&hk);
        zm_free(&mem, keys);
    }
    zm_mem_close(&mem);
    zeContextDestroy(zc);
    free(host);
    return failed;
}
