/*
 * interop_rules.h — the rules a pipeline relies on (issue 35, item 5, and
 * docs/interop.md), written once for both interop APIs over the
 * interop_api of interop_cases.h and the interop_segments_api of
 * interop_segments.h:
 *   rules_temp_monotonic  temp for max_n serves every smaller n, for every
 *                         option: temp_bytes never decreases with n (every
 *                         algorithm, key type, value type, with_values,
 *                         order, bit range);
 *   rules_sizes           every variant (in place, copy, argsort, with and
 *                         without values or keys_out) at n 0, 1, 33, 257,
 *                         primes and ~100k, direct and with a device-side
 *                         count, each in temp memory sized for the largest n
 *                         (the api's calls decide how the sort is ordered:
 *                         chained, barriers, an out-of-order queue);
 *   seg_indirect_cases    a segmented sort with a device-side count: the
 *                         segments cut at the count, nothing past it written.
 * Include after interop_cases.h and interop_segments.h; the program declares
 * `static int failures;` (expect.h).
 */
#ifndef ZESORT_TESTS_INTEROP_RULES_H
#define ZESORT_TESTS_INTEROP_RULES_H

#include <stdio.h>

#include "interop_cases.h"
#include "interop_segments.h"

/* temp_bytes(n) <= temp_bytes(n') for n < n' under every option this API
 * sorts with (the host scan is refused by both APIs). */
static void rules_temp_monotonic(const interop_api *api)
{
    static const uint64_t sizes[] = {0, 1, 2, 33, 255, 256, 257, 4095, 4097, 7919, 65537,
                                     100003, 1u << 20, 3000017};
    static const zesort_algo algos[] = {ZESORT_ALGO_AUTO, ZESORT_ALGO_CM2, ZESORT_ALGO_CM4,
                                        ZESORT_ALGO_ONESWEEP};
    unsigned combos = 0;
    for (size_t a = 0; a < 4; a++)
        for (int t = ZESORT_KEY_U32; t <= ZESORT_KEY_F64; t++)
            for (int vt = 0; vt < 2; vt++)
                for (int with = 0; with <= ZESORT_ARGSORT_NO_KEYS_OUT; with++)
                    for (int shape = 0; shape < 3; shape++) { /* ascending, desc, bit range */
                        zesort_options o;
                        zesort_options_default(&o);
                        o.algo = algos[a];
                        o.key_type = (zesort_key_type)t;
                        o.value_type = vt ? ZESORT_VALUE_U64 : ZESORT_VALUE_U32;
                        o.descending = shape == 1;
                        if (shape == 2)
                            o.bit_lo = 3, o.bit_hi = oracle_key_bytes(o.key_type) * 8 - 5;
                        uint64_t prev = 0;
                        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
                            uint64_t tb = 0;
                            zesort_status st = api->temp_bytes(sizes[i], with, &o, &tb);
                            EXPECT(st == ZESORT_OK, "%s temp: %s", api->name, api->error());
                            EXPECT(tb >= prev,
                                   "%s: temp for %llu keys (%llu bytes) < temp for %llu "
                                   "(%llu): algo %s type %d vt %d with %d shape %d",
                                   api->name, (unsigned long long)sizes[i],
                                   (unsigned long long)tb, (unsigned long long)sizes[i - 1],
                                   (unsigned long long)prev, zesort_algo_name(o.algo), t, vt,
                                   with, shape);
                            prev = tb;
                        }
                        combos++;
                    }
    printf("%s temp rule: %u option sets, %d failures\n", api->name, combos, failures);
}

/* The api whose calls rules_sizes runs, and the n its temp is sized for. */
static const interop_api *rules_api;
static uint64_t rules_max_n;

static zesort_status rules_temp_for_max(uint64_t n, int with_values, const zesort_options *o,
                                        uint64_t *bytes)
{
    (void)n;
    return rules_api->temp_bytes(rules_max_n, with_values, o, bytes);
}

/* Every kind at every size, direct and (above 0) with a device-side count
 * below n, in temp sized for the largest n: interop_case against the
 * oracle, inputs unchanged, nothing past the count written. */
static void rules_sizes(const interop_api *api)
{
    static const uint64_t sizes[] = {0, 1, 33, 257, 7919, 100003};
    static const zesort_algo algos[] = {ZESORT_ALGO_CM2, ZESORT_ALGO_CM4, ZESORT_ALGO_ONESWEEP};
    static const zesort_key_type types[] = {ZESORT_KEY_U32, ZESORT_KEY_F64, ZESORT_KEY_I32,
                                            ZESORT_KEY_U64};
    interop_api max_api = *api;
    max_api.temp_bytes = rules_temp_for_max;
    rules_api = api;
    rules_max_n = sizes[sizeof sizes / sizeof *sizes - 1];
    int k = 0;
    for (int kind = 0; kind < IC_KINDS; kind++)
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++, k++) {
            const uint64_t n = sizes[i];
            const zesort_algo algo = algos[(size_t)k % 3];
            const zesort_key_type t = types[(size_t)k % 4];
            const unsigned vb = k % 2 ? 8 : 4;
            interop_case(&max_api, kind, algo, t, vb, k % 5 == 1, 0, 0, n, 0, 0);
            if (kind == IC_IN_PLACE) /* interop_case's in-place call takes no count */
                continue;
            if (n > 1) /* a count below n, and one above it (clamped) */
                interop_case(&max_api, kind, algos[(size_t)(k + 1) % 3], t, vb, 0, 0, 0, n, 1,
                             (uint32_t)(n * 2 / 3));
            if (n == 257)
                interop_case(&max_api, kind, algo, t, vb, 1, 0, 0, n, 1, UINT32_MAX);
        }
    printf("%s sizes: %d failures\n", api->name, failures);
}

/* One segmented sort with a device-side count: pattern pat over max_n keys,
 * count keys sorted: each segment cut at the count, the rest as it was. */
static void seg_indirect_case(const interop_segments_api *api, uint64_t max_n, uint32_t count,
                              zesort_key_type t, unsigned vb, int pat)
{
    const unsigned kb = oracle_key_bytes(t);
    char what[200];
    snprintf(what, sizeof what, "%s segments indirect: max_n %llu count %u type %d vb %u "
             "pattern %d", api->name, (unsigned long long)max_n, count, (int)t, vb, pat);
    zesort_options o;
    zesort_options_default(&o);
    o.key_type = t;
    o.value_type = vb == 8 ? ZESORT_VALUE_U64 : ZESORT_VALUE_U32;
    const size_t cap = max_n ? max_n : 1;
    char *keys = malloc(cap * kb), *vals = malloc(cap * 8), *out_k = malloc(cap * kb),
         *out_v = malloc(cap * 8);
    uint64_t *off = malloc((max_n + 8) * sizeof *off);
    oracle_make_keys(keys, max_n, t, pat % 3, max_n * 5 + (uint64_t)pat);
    for (uint64_t i = 0; i < max_n; i++) {
        const uint64_t v = oracle_value(i, vb ? vb : 4);
        memcpy(vals + i * vb, &v, vb);
    }
    const uint64_t s = make_offsets(pat, max_n, off, max_n + 11);
    seg_bufs d = seg_upload(api, keys, vals, off, s, max_n, kb, vb, &o);
    void *d_count = api->alloc(4);
    api->upload(d_count, &count, 4);
    zesort_status st = api->sort_indirect(d.keys, vb ? d.vals : NULL, d_count, max_n, d.off, s,
                                          d.temp, d.tb, &o);
    EXPECT(st == ZESORT_OK, "%s: %s", what, api->error());
    api->download(out_k, d.keys, cap * kb);
    if (vb)
        api->download(out_v, d.vals, cap * vb);
    /* what the sort of the first `count` keys is: the segments cut there */
    for (uint64_t i = 0; i <= s; i++)
        off[i] = off[i] < count ? off[i] : count;
    char why[200];
    const char *wrong = segments_verify(keys, out_k, vb ? out_v : NULL, off, s, max_n, kb, vb, &o,
                                        0, why, sizeof why);
    EXPECT(!wrong, "%s: %s", what, wrong);
    api->release(d_count);
    seg_release(api, &d);
    free(keys), free(vals), free(out_k), free(out_v), free(off);
}

/* Bad offsets with a device-side count: decreasing, or past max_n (a count
 * below them does not make them valid). Only the device reads them
 * (seg_check), so the call succeeds and the sort leaves keys and values as
 * they were: before the merge of the device-only path, these were refused at
 * call time by a host read of the offsets, which no segmented entry point
 * makes any more. */
static void seg_indirect_bad(const interop_segments_api *api, const uint64_t *off, uint64_t s,
                             uint32_t count, const char *what)
{
    uint32_t keys[8] = {9, 8, 7, 6, 5, 4, 3, 2}, vals[8] = {1, 2, 3, 4, 5, 6, 7, 8}, k[8], v[8];
    zesort_options o;
    zesort_options_default(&o);
    seg_bufs d = seg_upload(api, (const char *)keys, (const char *)vals, off, s, 8, 4, 4, &o);
    void *d_count = api->alloc(4);
    api->upload(d_count, &count, 4);
    EXPECT(api->sort_indirect(d.keys, d.vals, d_count, 8, d.off, s, d.temp, d.tb, &o) ==
               ZESORT_OK, "%s: indirect, %s: %s", api->name, what, api->error());
    api->download(k, d.keys, sizeof k);
    api->download(v, d.vals, sizeof v);
    EXPECT(memcmp(k, keys, sizeof k) == 0 && memcmp(v, vals, sizeof v) == 0,
           "%s: indirect, %s: arrays changed", api->name, what);
    api->release(d_count);
    seg_release(api, &d);
}

/* Segmented sorts with a device-side count: below, at and above max_n, and
 * 0; every offset pattern; keys only and pairs; bad offsets. */
static void seg_indirect_cases(const interop_segments_api *api)
{
    static const uint64_t sizes[] = {1, 257, 9000, 70001};
    int k = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (int pat = 0; pat < PAT_COUNT; pat++, k++) {
            const uint64_t n = sizes[i];
            const uint32_t counts[] = {(uint32_t)(n / 2), (uint32_t)n, UINT32_MAX, 0};
            seg_indirect_case(api, n, counts[k % 4], (zesort_key_type)(k % 6),
                              (unsigned)(k % 3) * 4, pat);
        }
    const uint64_t decreasing[] = {0, 5, 3, 8}, beyond[] = {0, 4, 9};
    seg_indirect_bad(api, decreasing, 3, 8, "decreasing offsets");
    seg_indirect_bad(api, beyond, 2, 3, "offsets beyond max_n, count 3");
    printf("%s segments indirect: %d cases, %d failures\n", api->name, k, failures);
}

/* Large segments cut by a device-side key count (the classes of
 * interop_segments_classes): a count inside a large segment (it is then
 * shorter, maybe short), at a class threshold, and above max_n. */
static void seg_indirect_classes(const interop_segments_api *api)
{
    const uint32_t counts[] = {300001, 16385 + 16384 + 16383, 65535, UINT32_MAX};
    for (int k = 0; k < 4; k++)
        seg_indirect_case(api, 420000, counts[k], (zesort_key_type)(k % 2 ? ZESORT_KEY_I64
                                                                          : ZESORT_KEY_U32),
                          (unsigned)(k % 3) * 4, k % 2 ? PAT_RAGGED : PAT_CLASSES);
    printf("%s segment classes indirect: 4 cases, %d failures\n", api->name, failures);
}

#endif
