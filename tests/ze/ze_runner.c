/*
 * ze_runner.c — zesort-ze-runner: the correctness matrix through the Level
 * Zero backend, on whatever Level Zero driver is present (a real Intel GPU,
 * or the test driver tests/ze_cl_driver loaded with ZE_ENABLE_ALT_DRIVERS).
 *
 *   zesort-ze-runner [--algo cm2,cm4] [--scan host,device] [--sizes N,N,...]
 *                    [--dists uniform,equal,...]
 *
 * Every (algorithm, scan, distribution, size) is sorted by zesort and by
 * qsort and compared key for key. Prints one table row per
 * (algorithm, scan, distribution) with PASS/FAIL per size. Exit status:
 * 0 all passed, 1 a failure, 2 usage error, 77 no Level Zero device (skip).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zesort.h"

#define MAX_LIST 32

static const uint64_t default_sizes[] = {0, 1, 31, 32, 255, 256, 257, 4097, 65537, 1000003};
static const char *const dist_names[] = {"uniform", "equal", "sorted", "reversed",
                                         "few-unique", "high-bits", "low-bits"};
#define NDISTS (sizeof dist_names / sizeof dist_names[0])

static uint64_t rng_state;
static uint32_t rng(void)
{
    /* splitmix64: deterministic, good enough for test data */
    uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return (uint32_t)((z ^ (z >> 31)) >> 16);
}

static void fill(uint32_t *keys, uint64_t n, unsigned dist, uint64_t seed)
{
    rng_state = seed * 7919u + dist * 104729u + n;
    for (uint64_t i = 0; i < n; i++) {
        switch (dist) {
        case 0: keys[i] = rng(); break;
        case 1: keys[i] = 0xC0FFEEu; break;
        case 2: keys[i] = (uint32_t)(i * 3u); break;
        case 3: keys[i] = (uint32_t)((n - i) * 3u); break;
        case 4: keys[i] = (rng() % 5u) * 0x11111111u; break;
        case 5: keys[i] = rng() & 0xFF000000u; break; /* only the last passes matter */
        default: keys[i] = rng() & 0x0000000Fu; break; /* only the first pass matters */
        }
    }
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Parses a comma separated list of names (index in `names`) or numbers. */
static int parse_names(const char *arg, const char *const *names, size_t nnames, int *out, int *count)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", arg);
    *count = 0;
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        size_t i = 0;
        while (i < nnames && strcmp(tok, names[i]) != 0)
            i++;
        if (i == nnames || *count >= MAX_LIST)
            return -1;
        out[(*count)++] = (int)i;
    }
    return *count ? 0 : -1;
}

static int parse_sizes(const char *arg, uint64_t *out, int *count)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", arg);
    *count = 0;
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        char *end;
        unsigned long long v = strtoull(tok, &end, 10);
        if (*end || *count >= MAX_LIST)
            return -1;
        out[(*count)++] = v;
    }
    return *count ? 0 : -1;
}

static void usage(void)
{
    fprintf(stderr, "usage: zesort-ze-runner [--algo cm2,cm4] [--scan host,device] "
                    "[--sizes N,...] [--dists uniform,equal,sorted,reversed,few-unique,high-bits,low-bits]\n");
}

int main(int argc, char **argv)
{
    static const char *const algo_names[] = {"cm2", "cm4"};
    static const char *const scan_names[] = {"host", "device"};
    int algos[MAX_LIST] = {0, 1}, nalgos = 2;
    int scans[MAX_LIST] = {0, 1}, nscans = 2;
    int dists[MAX_LIST], ndists = (int)NDISTS;
    uint64_t sizes[MAX_LIST];
    int nsizes = (int)(sizeof default_sizes / sizeof default_sizes[0]);
    memcpy(sizes, default_sizes, sizeof default_sizes);
    for (int i = 0; i < ndists; i++)
        dists[i] = i;

    for (int i = 1; i < argc; i++) {
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = !val;
        if (!bad && strcmp(argv[i], "--algo") == 0)
            bad = parse_names(val, algo_names, 2, algos, &nalgos);
        else if (!bad && strcmp(argv[i], "--scan") == 0)
            bad = parse_names(val, scan_names, 2, scans, &nscans);
        else if (!bad && strcmp(argv[i], "--dists") == 0)
            bad = parse_names(val, dist_names, NDISTS, dists, &ndists);
        else if (!bad && strcmp(argv[i], "--sizes") == 0)
            bad = parse_sizes(val, sizes, &nsizes);
        else
            bad = 1;
        if (bad) {
            usage();
            return 2;
        }
        i++;
    }

    zesort_context *ctx = NULL;
    zesort_status st = zesort_create(ZESORT_BACKEND_LEVEL_ZERO, &ctx);
    if (st == ZESORT_ERROR_NO_DEVICE) {
        printf("SKIP: no Level Zero device: %s\n", zesort_last_error(NULL));
        return 77;
    }
    if (st != ZESORT_OK) {
        printf("FAIL: zesort_create(level-zero): %s: %s\n", zesort_status_name(st),
               zesort_last_error(NULL));
        return 1;
    }
    printf("device: %s\n", zesort_context_device(ctx));

    uint64_t max_n = 1;
    for (int i = 0; i < nsizes; i++)
        if (sizes[i] > max_n)
            max_n = sizes[i];
    uint32_t *keys = malloc(max_n * sizeof *keys);
    uint32_t *want = malloc(max_n * sizeof *want);
    if (!keys || !want) {
        printf("FAIL: out of host memory\n");
        return 1;
    }

    printf("%-4s %-6s %-10s", "algo", "scan", "dist");
    for (int s = 0; s < nsizes; s++)
        printf(" %8" PRIu64, sizes[s]);
    printf("\n");

    int failures = 0, runs = 0;
    char first_error[512] = "";
    for (int a = 0; a < nalgos; a++) {
        for (int c = 0; c < nscans; c++) {
            for (int d = 0; d < ndists; d++) {
                printf("%-4s %-6s %-10s", algo_names[algos[a]], scan_names[scans[c]],
                       dist_names[dists[d]]);
                fflush(stdout);
                for (int s = 0; s < nsizes; s++) {
                    uint64_t n = sizes[s];
                    fill(keys, n, (unsigned)dists[d], 1);
                    memcpy(want, keys, n * sizeof *keys);
                    qsort(want, n, sizeof *want, cmp_u32);
                    zesort_options o;
                    zesort_options_default(&o);
                    o.algo = algos[a] == 0 ? ZESORT_ALGO_CM2 : ZESORT_ALGO_CM4;
                    o.scan = scans[c] == 0 ? ZESORT_SCAN_HOST : ZESORT_SCAN_DEVICE;
                    st = zesort_sort(ctx, keys, NULL, n, &o);
                    const char *verdict = "PASS";
                    runs++;
                    if (st != ZESORT_OK) {
                        verdict = "ERROR";
                        if (!first_error[0])
                            snprintf(first_error, sizeof first_error, "%s n=%" PRIu64 ": %s: %s",
                                     dist_names[dists[d]], n, zesort_status_name(st),
                                     zesort_last_error(ctx));
                    } else if (memcmp(keys, want, n * sizeof *keys) != 0) {
                        verdict = "FAIL";
                        uint64_t i = 0;
                        while (keys[i] == want[i])
                            i++;
                        if (!first_error[0])
                            snprintf(first_error, sizeof first_error,
                                     "%s %s %s n=%" PRIu64 ": first difference at %" PRIu64
                                     ": got %08x, want %08x",
                                     algo_names[algos[a]], scan_names[scans[c]],
                                     dist_names[dists[d]], n, i, keys[i], want[i]);
                    }
                    if (strcmp(verdict, "PASS") != 0)
                        failures++;
                    printf(" %8s", verdict);
                    fflush(stdout);
                }
                printf("\n");
            }
        }
    }
    free(keys);
    free(want);
    zesort_destroy(ctx);
    printf("%d of %d sorts passed\n", runs - failures, runs);
    if (failures) {
        printf("first failure: %s\n", first_error);
        return 1;
    }
    return 0;
}
