/*
 * auto_backend.c — the measurement behind the library's AUTO backend order on
 * a machine without a GPU (issue 13.1): the wall time of a whole zesort_run
 * call (transfers to and from the device included, what a caller waits for)
 * on the C fallback and on an OpenCL CPU device (PoCL), for the same random
 * u32 keys, AUTO algorithm on each. Median of --rounds after one warm-up.
 *
 *   build/bench/auto_backend [--rounds R] [N ...]     (default R 7; N: 32k .. 16m)
 *
 * Prints one line per n: fallback ms, OpenCL ms, and how much faster the
 * fallback is (OpenCL ms / fallback ms). Exit 77 when OpenCL has no device.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "zesort.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median wall time of `rounds` sorts of fresh copies of `input` (after one
 * warm-up); -1 when a sort fails. */
static double median_ms(zesort_context *ctx, const uint32_t *input, uint32_t *work, uint64_t n,
                        int rounds)
{
    double t[64];
    zesort_desc d;
    zesort_desc_init(&d, ZESORT_SORT);
    d.keys = work;
    d.n = n;
    for (int r = -1; r < rounds; r++) {
        memcpy(work, input, n * sizeof *work);
        double t0 = now_ms();
        if (zesort_run(ctx, &d) != ZESORT_OK) {
            fprintf(stderr, "auto_backend: %s\n", zesort_last_error(ctx));
            return -1;
        }
        if (r >= 0)
            t[r] = now_ms() - t0;
    }
    qsort(t, (size_t)rounds, sizeof t[0], cmp_double);
    return t[rounds / 2];
}

int main(int argc, char **argv)
{
    int rounds = 7;
    uint64_t sizes[32];
    int count = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) {
            rounds = atoi(argv[++i]);
        } else if (count < 32) {
            char *end;
            uint64_t v = strtoull(argv[i], &end, 10);
            v <<= *end == 'k' ? 10 : *end == 'm' ? 20 : 0;
            sizes[count++] = v;
        }
    }
    if (rounds < 1 || rounds > 64) {
        fprintf(stderr, "usage: auto_backend [--rounds 1..64] [N[k|m] ...]\n");
        return 2;
    }
    if (count == 0) {
        static const uint64_t dflt[] = {32 << 10, 128 << 10, 512 << 10, 1 << 20, 4 << 20, 16 << 20};
        memcpy(sizes, dflt, sizeof dflt);
        count = (int)(sizeof dflt / sizeof dflt[0]);
    }
    zesort_context *cpu, *ocl;
    if (zesort_create(ZESORT_BACKEND_CPU, &cpu) != ZESORT_OK)
        return 1;
    if (zesort_create(ZESORT_BACKEND_OPENCL, &ocl) != ZESORT_OK) {
        printf("auto_backend: no OpenCL device (%s)\n", zesort_last_error(NULL));
        zesort_destroy(cpu);
        return 77;
    }
    printf("wall ms of zesort_sort, u32 keys, AUTO algorithm, median of %d\n", rounds);
    printf("%10s  %12s  %12s  %s\n", "n", "fallback_ms", "opencl_ms", "fallback faster by");
    int rc = 0;
    for (int i = 0; i < count && rc == 0; i++) {
        uint64_t n = sizes[i];
        uint32_t *input = malloc(n * 4 + 4), *work = malloc(n * 4 + 4);
        if (!input || !work) {
            rc = 1;
        } else {
            uint64_t x = 88172645463325252u;
            for (uint64_t j = 0; j < n; j++) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                input[j] = (uint32_t)x;
            }
            double c = median_ms(cpu, input, work, n, rounds);
            double o = median_ms(ocl, input, work, n, rounds);
            if (c < 0 || o < 0)
                rc = 1;
            else
                printf("%10llu  %12.2f  %12.2f  %.2fx\n", (unsigned long long)n, c, o, o / c);
        }
        free(input);
        free(work);
    }
    zesort_context_info info = {.size = sizeof info};
    zesort_context_query(ocl, &info);
    printf("OpenCL device: %s\n", info.device);
    zesort_destroy(ocl);
    zesort_destroy(cpu);
    return rc;
}
