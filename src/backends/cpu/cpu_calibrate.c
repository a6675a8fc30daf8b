/*
 * cpu_calibrate.c — which strategy sorts keys-only, all-bits sorts faster
 * on this CPU, vqsort or the radix passes: measured, not assumed. Highway's
 * vqsort is the fastest CPU sort Debian has where its AVX-512 partitioning
 * is fast, but Debian 12's Highway (1.0.3) has no Zen 4 target, and on the
 * AMD Zen 4 VM this was written on it sorted 16M random u32 keys at 22
 * Mkeys/s against the radix passes' 96 (one thread), while for u64 it won
 * 106 to 45. The same library on an Intel CPU may rank them the other way.
 *
 * 32768 keys (in L2, the size of a bucket): ~0.2-1 ms once per process and
 * key width. Measured on the VM: at 64K keys the ratios were radix/vqsort
 * 3.9x for u32 and 0.65x for u64; at 16M 4.3x and 0.42x: the same winner.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/cpu/cpu_hwy_vqsort.h"
#include "backends/cpu/cpu_radix.h"
#include "backends/cpu/cpu_vq_sort.h"

#define ZS_CAL_KEYS 32768u
#define ZS_CAL_ROUNDS 3

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* The best of ZS_CAL_ROUNDS sorts of a copy of in (vqsort or radix). */
static double best_ms(const void *in, void *work, unsigned kb, int vq)
{
    zs_cpu_config cfg;
    zs_cpu_config_default(&cfg);
    double best = 1e30;
    for (int r = 0; r < ZS_CAL_ROUNDS; ++r) {
        memcpy(work, in, (size_t)ZS_CAL_KEYS * kb);
        const double t0 = now_ms();
        const zesort_status st =
            vq ? zs_cpu_vq_sort(work, ZS_CAL_KEYS, kb, 0, 1, 0)
               : zs_cpu_radix_sort(work, NULL, ZS_CAL_KEYS, kb, 0, 0, 0, kb * 8u, &cfg, 1);
        const double t = now_ms() - t0;
        if (st != ZESORT_OK)
            return 1e30;
        best = t < best ? t : best;
    }
    return best;
}

static int measure(unsigned kb)
{
    if (!zs_vq_target())
        return 0;
    char *in = malloc((size_t)ZS_CAL_KEYS * kb), *work = malloc((size_t)ZS_CAL_KEYS * kb);
    int faster = 0;
    if (in && work) {
        uint64_t s = 0x9E3779B97F4A7C15u;
        for (size_t i = 0; i < (size_t)ZS_CAL_KEYS * kb; i += 8) { /* xorshift: random bits */
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            memcpy(in + i, &s, 8);
        }
        faster = best_ms(in, work, kb, 1) < best_ms(in, work, kb, 0);
    }
    free(in), free(work);
    return faster;
}

static int faster32, faster64;
static pthread_once_t once32 = PTHREAD_ONCE_INIT, once64 = PTHREAD_ONCE_INIT;
static void measure32(void) { faster32 = measure(4); }
static void measure64(void) { faster64 = measure(8); }

int zs_cpu_vq_faster(unsigned key_bytes)
{
    if (key_bytes == 8) {
        pthread_once(&once64, measure64);
        return faster64;
    }
    pthread_once(&once32, measure32);
    return faster32;
}
