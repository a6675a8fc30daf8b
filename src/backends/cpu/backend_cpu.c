/*
 * backend_cpu.c — the C fallback's sort (backend_cpu.h): checks its
 * arguments, picks the team size, and sorts by one of three strategies:
 * counts (cpu_counting.c) for keys-only sorts of narrow keys by all bits;
 * partitions then vqsorted ranges (cpu_vq_sort.c) for keys-only sorts by
 * all bits of 4- and 8-byte keys where that was measured faster
 * (cpu_calibrate.c); else the stable radix passes (cpu_radix.c). Its knobs' defaults: cpu_config.c.
 */
#include "backends/cpu/backend_cpu.h"

#include "backends/cpu/cpu_counting.h"
#include "backends/cpu/cpu_hwy_vqsort.h"
#include "backends/cpu/cpu_radix.h"
#include "backends/cpu/cpu_vq_sort.h"

zesort_status zs_cpu_sort(void *keys, void *values, uint64_t n, unsigned key_bytes,
                          unsigned value_bytes, uint32_t key_flags, unsigned bit_lo,
                          unsigned bit_hi)
{
    zs_cpu_config cfg;
    zs_cpu_config_default(&cfg);
    return zs_cpu_sort_with(keys, values, n, key_bytes, value_bytes, key_flags, bit_lo, bit_hi,
                            &cfg);
}

static int use_vqsort(const zs_cpu_config *cfg, unsigned key_bytes, uint64_t n)
{
    if (key_bytes < 4) /* the counting sort or the radix passes: a pass or two */
        return 0;
    if (n > UINT32_MAX) /* only it can (zs_cpu_max_keys) */
        return 1;
    if (cfg->vqsort > 0)
        return zs_vq_target() != NULL;
    return cfg->vqsort < 0 && zs_cpu_vq_faster(key_bytes);
}

/* The team for n keys: cfg's threads, at most one per min_keys_per_thread
 * keys, and never more than the keys. */
static unsigned team_size(const zs_cpu_config *cfg, uint64_t n)
{
    unsigned want = cfg->threads ? cfg->threads : 1;
    const uint64_t per = cfg->min_keys_per_thread;
    if (per > 1 && n / per < want)
        want = (unsigned)(n / per) ? (unsigned)(n / per) : 1;
    if (want > n)
        want = (unsigned)n;
    return want;
}

zesort_status zs_cpu_sort_with(void *keys, void *values, uint64_t n, unsigned key_bytes,
                               unsigned value_bytes, uint32_t key_flags, unsigned bit_lo,
                               unsigned bit_hi,
                               const zs_cpu_config *cfg)
{
    if (n < 2 || bit_lo >= bit_hi)
        return ZESORT_OK;
    if (n > zs_cpu_max_keys(values != NULL, key_bytes, bit_lo, bit_hi) ||
        (key_bytes != 1 && key_bytes != 2 && key_bytes != 4 && key_bytes != 8) ||
        bit_hi > key_bytes * 8u || (values && value_bytes != 4 && value_bytes != 8))
        return ZESORT_ERROR_INVALID_ARGUMENT;
    const unsigned threads = team_size(cfg, n);
    /* narrow keys-only sorts by all bits: equal keys are the same bits, so
     * their counts are the sorted array (cpu_counting.h) */
    if (!values && bit_lo == 0 && bit_hi == key_bytes * 8u &&
        (key_bytes == 1 || (key_bytes == 2 && n >= ZS_CPU_COUNT16_MIN_KEYS)))
        return zs_cpu_counting_sort(keys, n, key_bytes, key_flags, threads, cfg->create_limit);
    /* keys-only sorts by all bits: equal keys are the same bits, so vqsort
     * (not stable) may sort them, where it sorts faster than the passes */
    if (!values && bit_lo == 0 && bit_hi == key_bytes * 8u && use_vqsort(cfg, key_bytes, n))
        return zs_cpu_vq_sort(keys, (size_t)n, key_bytes, key_flags, threads, cfg->create_limit);
    return zs_cpu_radix_sort(keys, values, n, key_bytes, value_bytes, key_flags, bit_lo, bit_hi,
                             cfg, threads);
}
