/*
 * ze_runner.c — zesort-ze-runner: the correctness matrix through the Level
 * Zero backend, on whatever Level Zero driver is present (a real Intel GPU,
 * or the test driver tests/ze_cl_driver loaded with ZE_ENABLE_ALT_DRIVERS).
 *
 *   zesort-ze-runner [--algo cm2,cm4,onesweep] [--scan host,device] [--sizes N,N,...]
 *                    [--dists uniform,equal,...] [--types u32,i32,f32,u64,i64,f64]
 *                    [--pairs] [--descending]
 *
 * Every (key type, algorithm, scan, distribution, size) is sorted by zesort
 * and by a stable host reference (qsort on (ordered key, index)) and compared
 * key for key (and value for value with --pairs: values are the input
 * indices, so stability is checked too). Prints one table row per
 * (type, algorithm, scan, distribution) with PASS/FAIL per size. Default:
 * every algorithm the build supports, u32 keys only, ascending, no values.
 * (For onesweep the scan column is irrelevant: it has no separate scan.)
 * Exit status:
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

static const char *const type_names[] = {"u32", "i32", "f32", "u64", "i64", "f64"};

static unsigned key_bytes(int type) { return type >= 3 ? 8u : 4u; }

/* Distribution `dist` of n keys of `type`: the 32-bit patterns below, widened
 * for 64-bit keys (high half random, or the same pattern for equal/sorted/...). */
static uint64_t pattern(uint64_t i, uint64_t n, unsigned dist, unsigned bits)
{
    uint64_t r = (uint64_t)rng() << 32 | rng();
    uint64_t top = bits == 64 ? ~UINT64_C(0) : 0xFFFFFFFFu;
    switch (dist) {
    case 0: return r & top;
    case 1: return UINT64_C(0xC0FFEE) * (bits == 64 ? UINT64_C(0x100000001) : 1);
    case 2: return i * 3u;
    case 3: return (n - i) * 3u;
    case 4: return (rng() % 5u) * (bits == 64 ? UINT64_C(0x1111111111111111) : 0x11111111u);
    case 5: return r & (top & ~(top >> 8)); /* only the last passes matter */
    default: return r & 0x0Fu;              /* only the first pass matters */
    }
}

static void fill(void *keys, uint64_t n, int type, unsigned dist, uint64_t seed)
{
    rng_state = seed * 7919u + dist * 104729u + n + (uint64_t)type * 15485863u;
    unsigned kb = key_bytes(type);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t k = pattern(i, n, dist, 8 * kb);
        if (kb == 4) {
            uint32_t k32 = (uint32_t)k;
            memcpy((char *)keys + 4 * i, &k32, 4);
        } else {
            memcpy((char *)keys + 8 * i, &k, 8);
        }
    }
}

/* The key's bits in the unsigned order of the sort (floats: IEEE totalOrder). */
static uint64_t ordered(const void *keys, uint64_t i, int type)
{
    if (key_bytes(type) == 8) {
        uint64_t k, sign = UINT64_C(1) << 63;
        memcpy(&k, (const char *)keys + 8 * i, 8);
        return type == 3 ? k : type == 4 ? k ^ sign : (k & sign) ? ~k : k | sign;
    }
    uint32_t k, sign = 0x80000000u;
    memcpy(&k, (const char *)keys + 4 * i, 4);
    return type == 0 ? k : type == 1 ? k ^ sign : (k & sign) ? ~k : k | sign;
}

typedef struct ref_item {
    uint64_t key;
    uint32_t index;
} ref_item;

static int ref_descending;
static int cmp_ref(const void *x, const void *y)
{
    const ref_item *a = x, *b = y;
    if (a->key != b->key)
        return (a->key < b->key) == !ref_descending ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
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
    fprintf(stderr, "usage: zesort-ze-runner [--algo cm2,cm4,onesweep] [--scan host,device] "
                    "[--sizes N,...] [--dists uniform,equal,sorted,reversed,few-unique,high-bits,low-bits] "
                    "[--types u32,i32,f32,u64,i64,f64] [--pairs] [--descending]\n");
}

int main(int argc, char **argv)
{
    static const char *const algo_names[] = {"cm2", "cm4", "onesweep"};
    static const zesort_algo algo_ids[] = {ZESORT_ALGO_CM2, ZESORT_ALGO_CM4, ZESORT_ALGO_ONESWEEP};
    static const char *const scan_names[] = {"host", "device"};
    int algos[MAX_LIST] = {0, 1, 2}, nalgos = 3, algos_given = 0;
    int scans[MAX_LIST] = {0, 1}, nscans = 2;
    int dists[MAX_LIST], ndists = (int)NDISTS;
    int types[MAX_LIST] = {0}, ntypes = 1;
    int pairs = 0, descending = 0;
    uint64_t sizes[MAX_LIST];
    int nsizes = (int)(sizeof default_sizes / sizeof default_sizes[0]);
    memcpy(sizes, default_sizes, sizeof default_sizes);
    for (int i = 0; i < ndists; i++)
        dists[i] = i;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--pairs") == 0) {
            pairs = 1;
            continue;
        }
        if (strcmp(argv[i], "--descending") == 0) {
            descending = 1;
            continue;
        }
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = !val;
        if (!bad && strcmp(argv[i], "--algo") == 0)
            bad = parse_names(val, algo_names, 3, algos, &nalgos), algos_given = 1;
        else if (!bad && strcmp(argv[i], "--scan") == 0)
            bad = parse_names(val, scan_names, 2, scans, &nscans);
        else if (!bad && strcmp(argv[i], "--dists") == 0)
            bad = parse_names(val, dist_names, NDISTS, dists, &ndists);
        else if (!bad && strcmp(argv[i], "--types") == 0)
            bad = parse_names(val, type_names, 6, types, &ntypes);
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
    if (!algos_given) {
        /* By default: every algorithm this build supports. */
        int kept = 0;
        for (int a = 0; a < nalgos; a++) {
            zesort_options o;
            zesort_options_default(&o);
            o.algo = algo_ids[algos[a]];
            uint32_t one = 1;
            if (zesort_sort(ctx, &one, NULL, 1, &o) == ZESORT_ERROR_UNSUPPORTED)
                printf("note: %s not run: %s\n", algo_names[algos[a]], zesort_last_error(ctx));
            else
                algos[kept++] = algos[a];
        }
        nalgos = kept;
    }

    uint64_t max_n = 1;
    for (int i = 0; i < nsizes; i++)
        if (sizes[i] > max_n)
            max_n = sizes[i];
    unsigned char *input = malloc(max_n * 8), *keys = malloc(max_n * 8);
    uint32_t *values = malloc(max_n * sizeof *values);
    ref_item *ref = malloc(max_n * sizeof *ref);
    if (!input || !keys || !values || !ref) {
        printf("FAIL: out of host memory\n");
        return 1;
    }
    printf("%s%s\n", pairs ? "key/value pairs" : "keys only", descending ? ", descending" : "");

    printf("%-4s %-8s %-6s %-10s", "type", "algo", "scan", "dist");
    for (int s = 0; s < nsizes; s++)
        printf(" %8" PRIu64, sizes[s]);
    printf("\n");

    int failures = 0, runs = 0;
    char first_error[512] = "";
    ref_descending = descending;
    for (int t = 0; t < ntypes; t++)
    for (int a = 0; a < nalgos; a++) {
        for (int c = 0; c < nscans; c++) {
            /* onesweep has no separate scan: run it once */
            if (algo_ids[algos[a]] == ZESORT_ALGO_ONESWEEP && c > 0)
                continue;
            for (int d = 0; d < ndists; d++) {
                printf("%-4s %-8s %-6s %-10s", type_names[types[t]], algo_names[algos[a]],
                       algo_ids[algos[a]] == ZESORT_ALGO_ONESWEEP ? "-" : scan_names[scans[c]],
                       dist_names[dists[d]]);
                fflush(stdout);
                for (int s = 0; s < nsizes; s++) {
                    uint64_t n = sizes[s];
                    unsigned kb = key_bytes(types[t]);
                    fill(input, n, types[t], (unsigned)dists[d], 1);
                    memcpy(keys, input, n * kb);
                    for (uint64_t i = 0; i < n; i++) {
                        values[i] = (uint32_t)i;
                        ref[i].key = ordered(input, i, types[t]);
                        ref[i].index = (uint32_t)i;
                    }
                    qsort(ref, n, sizeof *ref, cmp_ref);
                    zesort_options o;
                    zesort_options_default(&o);
                    o.key_type = (zesort_key_type)types[t];
                    o.descending = descending;
                    o.algo = algo_ids[algos[a]];
                    o.scan = scans[c] == 0 ? ZESORT_SCAN_HOST : ZESORT_SCAN_DEVICE;
                    st = zesort_sort(ctx, keys, pairs ? values : NULL, n, &o);
                    const char *verdict = "PASS";
                    runs++;
                    if (st != ZESORT_OK) {
                        verdict = "ERROR";
                        if (!first_error[0])
                            snprintf(first_error, sizeof first_error, "%s %s n=%" PRIu64 ": %s: %s",
                                     type_names[types[t]], dist_names[dists[d]], n,
                                     zesort_status_name(st), zesort_last_error(ctx));
                    } else {
                        for (uint64_t i = 0; i < n; i++) {
                            int bad_key = memcmp(keys + i * kb, input + (uint64_t)ref[i].index * kb, kb) != 0;
                            int bad_value = pairs && values[i] != ref[i].index;
                            if (bad_key || bad_value) {
                                verdict = "FAIL";
                                if (!first_error[0])
                                    snprintf(first_error, sizeof first_error,
                                             "%s %s %s %s n=%" PRIu64 ": first difference at %" PRIu64
                                             " (%s)", type_names[types[t]], algo_names[algos[a]],
                                             algo_ids[algos[a]] == ZESORT_ALGO_ONESWEEP
                                                 ? "-" : scan_names[scans[c]],
                                             dist_names[dists[d]], n, i,
                                             bad_key ? "key" : "value: stability");
                                break;
                            }
                        }
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
    free(input);
    free(values);
    free(ref);
    free(keys);
    zesort_destroy(ctx);
    printf("%d of %d sorts passed\n", runs - failures, runs);
    if (failures) {
        printf("first failure: %s\n", first_error);
        return 1;
    }
    return 0;
}
