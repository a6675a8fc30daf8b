/*
 * test_mpi_keys.c — the splitters' search of device keys (zm_keys,
 * src/mpi/mpi_keys.c: bisections in lockstep, each step copying the keys
 * they probe, each once, in one round trip) against the same search of
 * the host copy: single keys read in a random order, and counts below and
 * up to many digits at once (present, absent, beyond both ends, repeated:
 * shared probes), on keys with runs of equal values. The distributed sort
 * tolerates some wrong counts far from its splitters, so its own tests
 * might not see a search that is slightly off; this does. It also checks
 * the search copies far fewer keys than the array holds and takes about
 * log2(n) round trips. No MPI call is made (no mpirun).
 */
#include <level_zero/ze_api.h>
#include <stdio.h>
#include <stdlib.h>

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
    const uint64_t n = 100003;
    uint64_t *host = malloc(n * sizeof *host);
    for (uint64_t i = 0; i < n; i++) /* sorted, with runs of equal keys */
        host[i] = (i / 3) * 5 + 7;
    zm_mem mem;
    int failed = zm_mem_device(&mem, NULL, zc, dev) != ZESORT_OK;
    void *keys = failed ? NULL : zm_alloc(&mem, n, sizeof *host);
    failed |= !keys || zm_copy(&mem, keys, host, n * sizeof *host) != ZESORT_OK;
    zesort_options so;
    zesort_options_default(&so);
    so.key_type = ZESORT_KEY_U64;
    zm_order o = zm_order_of(&so);
    zm_keys dk, hk;
    zm_keys_init(&dk, &o, keys, n, &mem);
    zm_keys_init(&hk, &o, host, n, NULL);
    failed |= !dk.mem || hk.mem;
    uint64_t bad = 0;
    for (uint64_t r = 0; r < 64 && !failed; r++) { /* one round trip each */
        uint64_t i = mix(r) % n;
        bad += zm_digit_at(&dk, i) != zm_digit_at(&hk, i);
    }
    enum { NQ = 300 };
    static uint64_t digits[NQ], got[NQ], want[NQ];
    for (int q = 0; q < NQ; q++) /* every 4th one repeats an earlier digit */
        digits[q] = q % 4 == 3 ? digits[q / 2] : mix((uint64_t)q + n) % (host[n - 1] + 20);
    digits[0] = 0, digits[1] = host[0], digits[2] = host[n - 1], digits[4] = ~UINT64_C(0);
    uint64_t copied = dk.bytes_copied, trips = dk.trips;
    for (int upto = 0; upto < 2 && !failed; upto++) {
        zm_count_many(&dk, digits, NQ, upto, got);
        zm_count_many(&hk, digits, NQ, upto, want);
        for (int q = 0; q < NQ; q++)
            bad += got[q] != want[q];
    }
    copied = dk.bytes_copied - copied, trips = dk.trips - trips;
    /* 2 searches of NQ digits over 100003 keys: 2 x 17 steps, at most 2 x 17 NQ keys */
    failed |= trips > 2 * 18 || copied > 2 * 18 * NQ * sizeof *host;
    failed |= bad != 0 || dk.st != ZESORT_OK;
    printf("mpi keys: %llu device keys: %llu wrong answers; 2 x %d counts took %llu round "
           "trips and copied %llu bytes to the host (the keys: %llu): %s\n",
           (unsigned long long)n, (unsigned long long)bad, NQ, (unsigned long long)trips,
           (unsigned long long)copied, (unsigned long long)(n * sizeof *host),
           failed ? "FAIL" : "ok");
    if (keys)
        zm_free(&mem, keys);
    zm_mem_close(&mem);
    zeContextDestroy(zc);
    free(host);
    return failed;
}
