/*
 * cpu_config.c — the C fallback's knobs (backend_cpu.h: zs_cpu_config): their
 * defaults, the test hooks that override two of them, and the most keys one
 * sort takes. Below both the sort (backend_cpu.c) and its calibration
 * (cpu_calibrate.c), which need the same defaults.
 */
#include "backends/cpu/backend_cpu.h"

#include "backends/cpu/cpu_hwy_vqsort.h"
#include "backends/cpu/cpu_threads.h"
#include "common/test_hooks.h"

/* Below this many keys LSD passes over the whole input win: it fits in the
 * cache anyway, and the top-digit split leaves buckets too small for their
 * per-bucket tables. Measured on this 2-core VM, ms per zesort_sort of random
 * u32 keys on the fallback (a loop of 100-500 sorts; LSD only / top digit
 * first): 128K 0.50 / 1.44, 256K 1.66 / 1.87, 512K 3.2 / 2.95, 1M 6.3 / 5.9;
 * bench/cpu_vs_std measured the split 1.3-1.7x faster at 16M. */
#define ZS_CPU_MSD_MIN_KEYS (UINT64_C(1) << 19)


/* zs_test_cpu_vqsort's choice (test_hooks.h): -1, measured */
static _Atomic int g_test_vqsort = -1;

void zs_test_cpu_vqsort(int mode) { g_test_vqsort = mode < 0 ? -1 : mode > 0; }

/* zs_test_cpu_radix_max's limit (test_hooks.h): 0, UINT32_MAX */
static _Atomic uint64_t g_test_radix_max;

void zs_test_cpu_radix_max(uint64_t keys) { g_test_radix_max = keys; }

void zs_cpu_config_default(zs_cpu_config *cfg)
{
    cfg->threads = zs_cpu_thread_count();
    cfg->create_limit = ZS_CPU_MAX_THREADS;
    cfg->min_keys_per_thread = ZS_CPU_MIN_KEYS_PER_THREAD;
    cfg->digit_bits = ZS_CPU_DIGIT_BITS;
    cfg->small_keys = ZS_CPU_SMALL_KEYS;
    cfg->msd_min_keys = ZS_CPU_MSD_MIN_KEYS;
    cfg->vqsort = g_test_vqsort;
}

uint64_t zs_cpu_max_keys(int with_values, unsigned key_bytes, unsigned bit_lo, unsigned bit_hi)
{
    /* the vqsort path counts in size_t, the radix passes in uint32_t */
    if (!with_values && key_bytes >= 4 && bit_lo == 0 && bit_hi == key_bytes * 8u &&
        zs_vq_target())
        return SIZE_MAX;
    const uint64_t test_max = g_test_radix_max;
    return test_max && test_max < UINT32_MAX ? test_max : UINT32_MAX;
}
