/*
 * test_soak.c — thousands of random sorts on long-lived contexts, every
 * result checked against the oracle, and the heap checked not to grow.
 *
 *   test_soak [SECONDS [BACKEND,...]]   (default 60 s, at most 20 with
 *                                        ZESORT_TEST_QUICK set; cpu,opencl,level-zero)
 *
 * One context per backend (cpu, opencl, and level-zero when a Level Zero
 * driver is loadable: under meson, the test driver) lives for the whole run.
 * Each sort draws a key type, order, bit range, keys-only or pairs, n
 * (mostly small, some up to ~10^6), an algorithm and a scan mode; zesort's
 * output (keys, and the values, which are the input indices: stability) must
 * equal cmref_sort's. First every combination of type x pairs x algorithm
 * runs once per backend, then one sort of the largest size (programs built,
 * caches and the staging buffer at full size); the heap in use
 * after that is the baseline, and at the end it must not have grown by more
 * than SOAK_HEAP_SLACK (a leak of even one buffer per sort would exceed it).
 * Prints the figures (sorts per backend, keys sorted, heap) on stdout.
 * Exit 0 pass, 1 a wrong result / error / growth.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cm_reference.h"
#include "zesort.h"

#if defined(__SANITIZE_ADDRESS__)
#define HEAP_CHECK 0 /* ASan's allocator: mallinfo2 says nothing */
#else
#define HEAP_CHECK 1
#endif

#define SOAK_MAX_N 1000003u
#define SOAK_HEAP_SLACK (8u << 20)

static uint64_t rng_state = 0x5EED5EEDu;
static uint64_t rng(void)
{
    uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static size_t heap_in_use(void)
{
    struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd;
}

typedef struct sort_case {
    zesort_options opts;
    int pairs;
    uint64_t n;
} sort_case;

static unsigned char *input, *keys, *ref_keys;
static uint32_t *values, *ref_values;

/* Keys with many equal ones, NaNs and signed zeros for floats. */
static void fill(uint64_t n, zesort_key_type type)
{
    unsigned kb = type >= ZESORT_KEY_U64 ? 8 : 4;
    uint64_t few = rng() % 4 == 0 ? 1 + rng() % 7 : 0; /* sometimes few unique values */
    for (uint64_t i = 0; i < n; i++) {
        uint64_t r = few ? (rng() % few) * UINT64_C(0x9E3779B97F4A7C15) : rng();
        if (rng() % 64 == 0) { /* specials: +-0, +-NaN, +-inf bit patterns */
            static const uint64_t s32[] = {0, 0x80000000u, 0x7FC00000u, 0xFFC00001u, 0x7F800000u, 0xFF800000u};
            static const uint64_t s64[] = {0, UINT64_C(0x8000000000000000), UINT64_C(0x7FF8000000000000),
                                           UINT64_C(0xFFF8000000000001), UINT64_C(0x7FF0000000000000),
                                           UINT64_C(0xFFF0000000000000)};
            r = kb == 4 ? s32[rng() % 6] : s64[rng() % 6];
        }
        memcpy(input + i * kb, &r, kb); /* little-endian: the low bytes */
    }
}

static sort_case draw(int backend_is_cpu)
{
    static const zesort_algo algos[] = {ZESORT_ALGO_AUTO, ZESORT_ALGO_CM2, ZESORT_ALGO_CM4,
                                        ZESORT_ALGO_ONESWEEP};
    sort_case c;
    zesort_options_default(&c.opts);
    c.opts.key_type = (zesort_key_type)(rng() % 6);
    c.opts.algo = algos[rng() % 4];
    c.opts.scan = rng() % 4 == 0 ? ZESORT_SCAN_HOST : ZESORT_SCAN_DEVICE;
    if (c.opts.algo == ZESORT_ALGO_CM2 && !backend_is_cpu)
        c.opts.algo = rng() % 2 ? ZESORT_ALGO_CM2 : ZESORT_ALGO_CM4; /* 16 passes: fewer of them */
    c.opts.descending = (int)(rng() % 2);
    unsigned width = c.opts.key_type >= ZESORT_KEY_U64 ? 64 : 32;
    if (rng() % 3 == 0) {
        c.opts.bit_lo = (unsigned)(rng() % width);
        c.opts.bit_hi = c.opts.bit_lo + 1 + (unsigned)(rng() % (width - c.opts.bit_lo));
    }
    c.pairs = (int)(rng() % 2);
    unsigned r = (unsigned)(rng() % 100);
    c.n = r < 85 ? rng() % 2000 : r < 98 ? rng() % 100000 : rng() % SOAK_MAX_N;
    return c;
}

/* One sort on ctx, checked. Returns 0 on success. */
static int run_case(zesort_context *ctx, const sort_case *c, const char *backend)
{
    unsigned kb = c->opts.key_type >= ZESORT_KEY_U64 ? 8 : 4;
    fill(c->n, c->opts.key_type);
    memcpy(keys, input, c->n * kb);
    memcpy(ref_keys, input, c->n * kb);
    for (uint64_t i = 0; i < c->n; i++)
        values[i] = ref_values[i] = (uint32_t)i;
    zesort_status st = zesort_sort(ctx, keys, c->pairs ? values : NULL, c->n, &c->opts);
    if (st == ZESORT_ERROR_UNSUPPORTED)
        return 0; /* e.g. the host scan where a backend has none: not a soak failure */
    if (st != ZESORT_OK) {
        printf("FAIL %s: %s n=%llu: %s: %s\n", backend, zesort_algo_name(c->opts.algo),
               (unsigned long long)c->n, zesort_status_name(st), zesort_last_error(ctx));
        return 1;
    }
    cmref_sort(ref_keys, ref_values, c->n, (cmref_key_type)c->opts.key_type, c->opts.descending,
               c->opts.bit_lo, c->opts.bit_hi, 4);
    if (memcmp(keys, ref_keys, c->n * kb) != 0 ||
        (c->pairs && memcmp(values, ref_values, c->n * sizeof *values) != 0)) {
        printf("FAIL %s: %s type %d %s bits [%u,%u) %s n=%llu: result differs from cmref_sort\n",
               backend, zesort_algo_name(c->opts.algo), (int)c->opts.key_type,
               c->opts.descending ? "descending" : "ascending", c->opts.bit_lo, c->opts.bit_hi,
               c->pairs ? "pairs" : "keys", (unsigned long long)c->n);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 60.0;
    if (getenv("ZESORT_TEST_QUICK") && seconds > 20) /* the sanitizer run of scripts/test */
        seconds = 20;
    setvbuf(stdout, NULL, _IOLBF, 0);
    input = malloc(SOAK_MAX_N * 8);
    keys = malloc(SOAK_MAX_N * 8);
    ref_keys = malloc(SOAK_MAX_N * 8);
    values = malloc(SOAK_MAX_N * sizeof *values);
    ref_values = malloc(SOAK_MAX_N * sizeof *values);
    if (!input || !keys || !ref_keys || !values || !ref_values)
        return 1;

    static const zesort_backend wanted[] = {ZESORT_BACKEND_CPU, ZESORT_BACKEND_OPENCL,
                                            ZESORT_BACKEND_LEVEL_ZERO};
    zesort_context *ctx[3] = {0};
    const char *names[3];
    int nctx = 0, failures = 0;
    const char *only = argc > 2 ? argv[2] : NULL;
    for (int b = 0; b < 3; b++) {
        zesort_context *c;
        if (only && !strstr(only, zesort_backend_name(wanted[b])))
            continue;
        if (zesort_create(wanted[b], &c) != ZESORT_OK) {
            printf("note: no %s context: %s\n", zesort_backend_name(wanted[b]), zesort_last_error(NULL));
            continue;
        }
        names[nctx] = zesort_backend_name(wanted[b]);
        ctx[nctx++] = c;
    }

    /* Warm-up: every type x pairs x algorithm once per backend. */
    static const zesort_algo algos[] = {ZESORT_ALGO_CM2, ZESORT_ALGO_CM4, ZESORT_ALGO_ONESWEEP,
                                        ZESORT_ALGO_SMALL};
    for (int b = 0; b < nctx; b++)
        for (int t = 0; t < 6; t++)
            for (int p = 0; p < 2; p++)
                for (int a = 0; a < 4; a++) {
                    /* small: within its limit, at least 2048 keys on any device */
                    sort_case c = {.pairs = p, .n = a == 3 ? 2000 : 3000};
                    zesort_options_default(&c.opts);
                    c.opts.key_type = (zesort_key_type)t;
                    c.opts.algo = algos[a];
                    failures += run_case(ctx[b], &c, names[b]);
                }
    /* ... and the largest transfer: the Level Zero backend keeps a host
     * staging buffer as large as the largest transfer so far (up to 64 MiB). */
    for (int b = 0; b < nctx; b++) {
        sort_case c = {.pairs = 1, .n = SOAK_MAX_N - 1};
        zesort_options_default(&c.opts);
        c.opts.key_type = ZESORT_KEY_F64;
        c.opts.algo = ZESORT_ALGO_ONESWEEP;
        failures += run_case(ctx[b], &c, names[b]);
    }
    size_t baseline = heap_in_use();

    double t0 = now_s(), deadline = t0 + seconds;
    unsigned long long sorts[3] = {0}, sorted_keys = 0;
    for (int i = 0; now_s() < deadline && failures < 10; i++) {
        int b = i % nctx;
        sort_case c = draw(b == 0);
        failures += run_case(ctx[b], &c, names[b]);
        sorts[b]++;
        sorted_keys += c.n;
    }
    double elapsed = now_s() - t0;
    size_t end = heap_in_use();

    unsigned long long total = 0;
    for (int b = 0; b < nctx; b++) {
        printf("soak %-10s %llu sorts on one context\n", names[b], sorts[b]);
        total += sorts[b];
    }
    printf("soak: %llu random sorts (%llu keys) in %.1f s, %d failures\n", total, sorted_keys,
           elapsed, failures);
    if (HEAP_CHECK) {
        long long growth = (long long)end - (long long)baseline;
        printf("soak: heap in use %.1f MiB after warm-up, %.1f MiB at the end (%+lld bytes)\n",
               baseline / 1048576.0, end / 1048576.0, growth);
        if (growth > (long long)SOAK_HEAP_SLACK) {
            printf("FAIL: the heap grew by %lld bytes over the soak\n", growth);
            failures++;
        }
    }
    for (int b = 0; b < nctx; b++)
        zesort_destroy(ctx[b]);
    free(input), free(keys), free(ref_keys), free(values), free(ref_values);
    return failures ? 1 : 0;
}
