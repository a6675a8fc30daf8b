/*
 * interop_alt.h — the cases of issue 35, item 4 (caller-supplied alternate
 * buffers), written once for both interop APIs: zesort_*_alt_temp_requirements
 * and the _alt in-place, copy and argsort entry points, every algorithm,
 * 32- and 64-bit keys, keys only and u32 / u64 values, sizes 0 to ~100k
 * (primes among them), bit ranges of odd and even pass counts (so that both
 * result buffers occur), both orders, direct and indirect counts, against
 * tests/common/sort_oracle.h. Checks: the result buffer the append reports
 * is the one the pass count implies (worked out here, not asked of the
 * library) and the one the query said; the result is right there; nothing
 * past n (past the count) of the alternate buffers is written; the temp
 * with them is small (a bound) and smaller than without by at least the
 * data; temp one byte short is refused with nothing recorded; bad alternate
 * buffers are refused. The test program includes interop_cases.h first (its
 * interop_api supplies allocation and copies) and declares `failures`.
 */
#ifndef ZESORT_TESTS_INTEROP_ALT_H
#define ZESORT_TESTS_INTEROP_ALT_H

#include "interop_cases.h"

/* The _alt entry points of one API (count: NULL, or the uint32 count's
 * buffer; in_alt: the in-place append's report). */
typedef struct interop_alt_api {
    const interop_api *base;
    zesort_status (*alt_temp)(uint64_t n, int with_values, const zesort_options *o,
                              uint64_t *bytes, int *in_alt);
    zesort_status (*sort_alt)(void *keys, void *values, void *keys_alt, void *values_alt,
                              uint64_t n, void *count, void *temp, uint64_t tb,
                              const zesort_options *o, int *in_alt);
    zesort_status (*copy_alt)(void *keys_in, void *values_in, void *keys_out, void *values_out,
                              void *keys_alt, void *values_alt, uint64_t n, void *count,
                              void *temp, uint64_t tb, const zesort_options *o);
    zesort_status (*argsort_alt)(void *keys, void *indices, void *keys_out, void *keys_alt,
                                 void *indices_alt, uint64_t n, void *count, void *temp,
                                 uint64_t tb, const zesort_options *o);
} interop_alt_api;

enum { AC_IN_PLACE, AC_COPY, AC_ARGSORT, AC_ARGSORT_KEYS, AC_KINDS };
static const char *const ac_kind_names[AC_KINDS] = {"in place alt", "copy alt", "argsort alt",
                                                    "argsort alt + keys"};
#define AC_GUARD 64 /* elements after n in every output and alternate buffer */

/* The passes a sort makes: the digit width of the algorithm over the range. */
static unsigned ac_passes(zesort_algo algo, unsigned kb, unsigned lo, unsigned hi)
{
    const unsigned bits = algo == ZESORT_ALGO_CM2 ? 2 : algo == ZESORT_ALGO_CM4 ? 4 : 8;
    const unsigned top = hi ? hi : 8 * kb;
    return (top - lo + bits - 1) / bits;
}

/* Device buffers of one case, each of n + AC_GUARD elements. */
typedef struct ac_buffers {
    void *keys, *vals, *alt_k, *alt_v, *out_k, *out_v, *temp, *count;
} ac_buffers;

/* Temp with the alternate buffers: at most the tables (cm: n/4 bytes at
 * most, onesweep: two arrays, one per pass parity, of 2 status words x 256
 * bins per tile of >= 1024 keys, 4 bytes a key) plus 16 KiB (parameters, onesweep's histograms), so a few KB
 * for small n (and n keys more for an argsort without keys_out); without
 * them it holds the ping-pong copy too. */
static void ac_check_temp(const interop_alt_api *api, const char *what, uint64_t n, int with,
                          const zesort_options *o, uint64_t atb, unsigned kb, unsigned vb)
{
    uint64_t tb = 0;
    EXPECT(api->base->temp_bytes(n, with, o, &tb) == ZESORT_OK, "%s: temp bytes: %s", what,
           api->base->error());
    if (n == 0) {
        EXPECT(atb == 0 && tb == 0, "%s: temp %llu / %llu for n 0", what,
               (unsigned long long)atb, (unsigned long long)tb);
        return;
    }
    /* an argsort without keys_out keeps its sorted keys' partner in temp */
    const uint64_t bound = 16384 + 4 * n + (with == ZESORT_ARGSORT_NO_KEYS_OUT ? n * kb : 0);
    EXPECT(atb <= bound, "%s: temp with alt %llu bytes, bound %llu", what,
           (unsigned long long)atb, (unsigned long long)bound);
    EXPECT(atb + n * (kb + vb) <= tb, "%s: temp with alt %llu, without %llu: saved less than "
           "the data (%llu)", what, (unsigned long long)atb, (unsigned long long)tb,
           (unsigned long long)(n * (kb + vb)));
}

static int ac_untouched(const char *p, uint64_t from, uint64_t to, unsigned eb)
{
    for (uint64_t i = from * eb; i < to * eb; i++)
        if ((unsigned char)p[i] != 0xCD)
            return 0;
    return 1;
}

/* One case: n keys (max_n; when indirect, the first min(count, n) sorted). */
static void alt_case(const interop_alt_api *api, int kind, zesort_algo algo, zesort_key_type t,
                     unsigned vb, int descending, unsigned lo, unsigned hi, uint64_t n,
                     int indirect, uint32_t count)
{
    const interop_api *b = api->base;
    const unsigned kb = oracle_key_bytes(t);
    const int argsort = kind == AC_ARGSORT || kind == AC_ARGSORT_KEYS;
    if (argsort && !vb)
        vb = 4; /* indices */
    const uint64_t sorted = indirect && count < n ? count : n;
    char what[200];
    snprintf(what, sizeof what, "%s %s: %s type %d vb %u desc %d bits %u:%u n %llu%s",
             b->name, ac_kind_names[kind], zesort_algo_name(algo), (int)t, vb, descending, lo,
             hi, (unsigned long long)n, indirect ? " indirect" : "");
    zesort_options o;
    zesort_options_default(&o);
    o.algo = algo, o.key_type = t, o.descending = descending, o.bit_lo = lo, o.bit_hi = hi;
    o.value_type = vb == 8 ? ZESORT_VALUE_U64 : ZESORT_VALUE_U32;
    const int with = kind == AC_ARGSORT ? ZESORT_ARGSORT_NO_KEYS_OUT : vb != 0;
    const uint64_t m = n + AC_GUARD;
    const size_t kbytes = (size_t)m * kb, vbytes = (size_t)m * (vb ? vb : 1);
    char *keys = malloc(kbytes), *vals = malloc(vbytes), *got_k = malloc(kbytes),
         *got_v = malloc(vbytes), *fill = malloc(kbytes > vbytes ? kbytes : vbytes);
    oracle_make_keys(keys, m, t, (int)(n % 3), n * 29 + (uint64_t)t + lo);
    for (uint64_t i = 0; vb && i < m; i++) {
        const uint64_t v = oracle_value(i, vb);
        memcpy(vals + i * vb, &v, vb);
    }
    memset(fill, 0xCD, kbytes > vbytes ? kbytes : vbytes);
    uint64_t *perm = oracle_permutation(keys, sorted, &o);

    /* the query: temp, and where the in-place result lands, worked out here */
    uint64_t atb = 0;
    int predicted = -1;
    EXPECT(api->alt_temp(n, with, &o, &atb, &predicted) == ZESORT_OK, "%s: alt temp: %s", what,
           b->error());
    const int odd = n > 0 && ac_passes(algo, kb, lo, hi) % 2;
    const int want_alt = kind == AC_IN_PLACE && odd;
    /* the query answers for the in-place append (an argsort's with_values 2: 0) */
    EXPECT(predicted == (with != ZESORT_ARGSORT_NO_KEYS_OUT && odd),
           "%s: query says an in-place result in %s, %u passes", what,
           predicted ? "alt" : "keys", ac_passes(algo, kb, lo, hi));
    ac_check_temp(api, what, n, with, &o, atb, kb, vb);

    ac_buffers d = {b->alloc(kbytes), b->alloc(vbytes), b->alloc(kbytes), b->alloc(vbytes),
                    b->alloc(kbytes), b->alloc(vbytes), b->alloc(atb ? atb : 8), NULL};
    b->upload(d.keys, keys, kbytes);
    b->upload(d.vals, vals, vbytes);
    b->upload(d.alt_k, fill, kbytes), b->upload(d.alt_v, fill, vbytes);
    b->upload(d.out_k, fill, kbytes), b->upload(d.out_v, fill, vbytes);
    if (indirect) {
        d.count = b->alloc(4);
        b->upload(d.count, &count, 4);
    }
    void *const v = vb ? d.vals : NULL, *const va = vb ? d.alt_v : NULL;
    int in_alt = -1;
    zesort_status st = ZESORT_OK;
    for (int attempt = n > 0 ? 0 : 1; attempt < 2; attempt++) {
        /* attempt 0: one byte too little temp, refused with nothing recorded */
        const uint64_t tb = attempt ? atb : atb - 1;
        switch (kind) {
        case AC_IN_PLACE:
            st = api->sort_alt(d.keys, v, d.alt_k, va, n, d.count, d.temp, tb, &o, &in_alt);
            break;
        case AC_COPY:
            st = api->copy_alt(d.keys, v, d.out_k, vb ? d.out_v : NULL, d.alt_k, va, n, d.count,
                               d.temp, tb, &o);
            break;
        default:
            st = api->argsort_alt(d.keys, d.out_v, kind == AC_ARGSORT_KEYS ? d.out_k : NULL,
                                  d.alt_k, d.alt_v, n, d.count, d.temp, tb, &o);
        }
        if (attempt == 0) {
            EXPECT(st == ZESORT_ERROR_INVALID_ARGUMENT && in_alt <= 0,
                   "%s: temp of %llu bytes (1 short) accepted", what,
                   (unsigned long long)(atb - 1));
            b->download(got_k, d.keys, kbytes);
            EXPECT(memcmp(got_k, keys, kbytes) == 0, "%s: a refused sort changed the keys", what);
        }
    }
    EXPECT(st == ZESORT_OK, "%s: %s", what, b->error());
    if (kind == AC_IN_PLACE)
        EXPECT(in_alt == want_alt, "%s: append says result in %s (%d), %u passes", what,
               in_alt == 1 ? "alt" : "keys", in_alt, ac_passes(algo, kb, lo, hi));

    /* the result, where it must be */
    void *rk = kind == AC_IN_PLACE ? (in_alt == 1 ? d.alt_k : d.keys) : d.out_k;
    void *rv = kind == AC_IN_PLACE ? (in_alt == 1 ? d.alt_v : d.vals) : d.out_v;
    b->download(got_k, rk, kbytes);
    b->download(got_v, rv, vbytes);
    EXPECT(oracle_check(keys, perm, kind == AC_ARGSORT ? NULL : got_k, vb ? got_v : NULL,
                        argsort, sorted, kb, vb) == 0, "%s: wrong result", what);
    /* past the count: the input (in place, keys) or unwritten (any other buffer) */
    if (kind == AC_IN_PLACE && in_alt != 1)
        EXPECT(memcmp(got_k + sorted * kb, keys + sorted * kb, (m - sorted) * kb) == 0 &&
                   (!vb || memcmp(got_v + sorted * vb, vals + sorted * vb,
                                  (m - sorted) * vb) == 0),
               "%s: keys or values past the count changed", what);
    else
        EXPECT((kind == AC_ARGSORT || ac_untouched(got_k, sorted, m, kb)) &&
                   (!vb || ac_untouched(got_v, sorted, m, vb)),
               "%s: result buffer written past the count", what);
    /* the alternate buffers: nothing at or past the count (n) written */
    b->download(got_k, d.alt_k, kbytes);
    b->download(got_v, d.alt_v, vbytes);
    EXPECT(ac_untouched(got_k, sorted, m, kb) && (!vb || ac_untouched(got_v, sorted, m, vb)),
           "%s: alternate buffer written past the count", what);
    if (kind != AC_IN_PLACE) { /* the inputs are only read */
        b->download(got_k, d.keys, kbytes);
        b->download(got_v, d.vals, vbytes);
        EXPECT(memcmp(got_k, keys, kbytes) == 0 && (!vb || memcmp(got_v, vals, vbytes) == 0),
               "%s: an input changed", what);
    }
    b->release(d.keys), b->release(d.vals), b->release(d.alt_k), b->release(d.alt_v);
    b->release(d.out_k), b->release(d.out_v), b->release(d.temp);
    if (d.count)
        b->release(d.count);
    free(keys), free(vals), free(got_k), free(got_v), free(fill), free(perm);
}

/* Bad alternate buffers are refused before anything is recorded. */
static void alt_refusals(const interop_alt_api *api)
{
    const interop_api *b = api->base;
    zesort_options o;
    zesort_options_default(&o);
    const uint64_t n = 1000;
    uint64_t tb = 0;
    api->alt_temp(n, ZESORT_WITH_VALUES, &o, &tb, NULL);
    /* temp big enough to pass for values_alt: the refusal below is its overlap */
    void *k = b->alloc(n * 4), *v = b->alloc(n * 4), *ka = b->alloc(n * 4),
         *va = b->alloc(n * 4), *temp = b->alloc(tb > n * 4 ? tb : n * 4);
    int in_alt = -1;
    EXPECT(api->sort_alt(k, v, k, va, n, NULL, temp, tb, &o, &in_alt) ==
                   ZESORT_ERROR_INVALID_ARGUMENT && strstr(b->error(), "keys_alt") &&
               in_alt == 0,
           "%s: keys_alt == keys accepted: %s", b->name, b->error());
    EXPECT(api->sort_alt(k, v, ka, NULL, n, NULL, temp, tb, &o, NULL) ==
                   ZESORT_ERROR_INVALID_ARGUMENT && strstr(b->error(), "values_alt"),
           "%s: values_alt NULL with values accepted: %s", b->name, b->error());
    EXPECT(api->sort_alt(k, NULL, NULL, NULL, n, NULL, temp, tb, &o, NULL) ==
                   ZESORT_ERROR_INVALID_ARGUMENT && strstr(b->error(), "keys_alt"),
           "%s: keys_alt NULL accepted: %s", b->name, b->error());
    EXPECT(api->sort_alt(k, v, ka, temp, n, NULL, temp, tb, &o, NULL) ==
                   ZESORT_ERROR_INVALID_ARGUMENT && strstr(b->error(), "overlap"),
           "%s: values_alt == temp accepted: %s", b->name, b->error());
    EXPECT(api->copy_alt(k, v, ka, va, ka, v, n, NULL, temp, tb, &o) ==
               ZESORT_ERROR_INVALID_ARGUMENT,
           "%s: copy with keys_alt == keys_out accepted", b->name);
    EXPECT(api->argsort_alt(k, v, NULL, ka, v, n, NULL, temp, tb, &o) ==
               ZESORT_ERROR_INVALID_ARGUMENT,
           "%s: argsort with indices_alt == indices accepted", b->name);
    EXPECT(api->alt_temp(n, 3, &o, &tb, NULL) == ZESORT_ERROR_INVALID_ARGUMENT,
           "%s: with_values 3 accepted", b->name);
    b->release(k), b->release(v), b->release(ka), b->release(va), b->release(temp);
}

/* The temp queries' figures for 16M u32 keys, keys only and u32 pairs
 * (docs/interop.md quotes them; nothing is allocated). */
static void alt_figures(const interop_alt_api *api)
{
    static const zesort_algo algos[] = {ZESORT_ALGO_CM2, ZESORT_ALGO_CM4, ZESORT_ALGO_ONESWEEP};
    const uint64_t n = UINT64_C(1) << 24;
    for (size_t a = 0; a < 3; a++)
        for (int with = 0; with < 2; with++) {
            zesort_options o;
            zesort_options_default(&o);
            o.algo = algos[a];
            uint64_t tb = 0, atb = 0;
            EXPECT(api->base->temp_bytes(n, with, &o, &tb) == ZESORT_OK &&
                       api->alt_temp(n, with, &o, &atb, NULL) == ZESORT_OK,
                   "%s: 16M queries: %s", api->base->name, api->base->error());
            printf("%s: 16M u32 %s, %s: temp %llu bytes, with alternate buffers %llu bytes\n",
                   api->base->name, with ? "pairs" : "keys", zesort_algo_name(algos[a]),
                   (unsigned long long)tb, (unsigned long long)atb);
        }
}

/* The whole matrix. Ranges: the key's width (an even pass count for every
 * algorithm) and one of an odd count per algorithm (cm2 0:6, cm4 4:16,
 * onesweep 5:29: 3 passes each), so both result buffers occur. */
static void alt_matrix(const interop_alt_api *api)
{
    static const zesort_algo algos[] = {ZESORT_ALGO_CM2, ZESORT_ALGO_CM4, ZESORT_ALGO_ONESWEEP};
    static const unsigned odd_lo[] = {0, 4, 5}, odd_hi[] = {6, 16, 29};
    static const zesort_key_type types[] = {ZESORT_KEY_U32, ZESORT_KEY_I64, ZESORT_KEY_F32,
                                            ZESORT_KEY_U64};
    static const uint64_t sizes[] = {0, 1, 33, 257, 4099, 12289};
    alt_figures(api);
    unsigned i = 0;
    for (size_t a = 0; a < 3; a++)
        for (int kind = 0; kind < AC_KINDS; kind++)
            for (unsigned vb = 0; vb <= 8; vb += 4)
                for (size_t t = 0; t < 4; t += 1 + (kind >= AC_ARGSORT))
                    for (int odd = 0; odd < 2; odd++, i++) {
                        if (kind >= AC_ARGSORT && vb == 0)
                            continue; /* indices: 4 or 8 bytes */
                        /* every size and both orders with both ranges */
                        const int desc = (int)((i * 2654435761u) >> 7 & 1);
                        alt_case(api, kind, algos[a], types[t], vb, desc, odd ? odd_lo[a] : 0,
                                 odd ? odd_hi[a] : 0, sizes[(i / 2 + 3u * (unsigned)odd) % 6], 0,
                                 0);
                    }
    for (size_t a = 0; a < 3; a++)
        for (int odd = 0; odd < 2; odd++) {
            /* ~100k keys (a prime), in place and out of place */
            alt_case(api, AC_IN_PLACE, algos[a], ZESORT_KEY_U32, 4, odd, odd ? odd_lo[a] : 0,
                     odd ? odd_hi[a] : 0, 100003, 0, 0);
            alt_case(api, AC_COPY, algos[a], ZESORT_KEY_U64, 8, !odd, odd ? odd_lo[a] : 0,
                     odd ? odd_hi[a] : 0, 99991, 0, 0);
            /* indirect counts below and above max_n */
            alt_case(api, AC_IN_PLACE, algos[a], ZESORT_KEY_I32, 8, odd, odd ? odd_lo[a] : 0,
                     odd ? odd_hi[a] : 0, 5003, 1, 3001);
            alt_case(api, AC_IN_PLACE, algos[a], ZESORT_KEY_U64, 0, !odd, odd ? odd_lo[a] : 0,
                     odd ? odd_hi[a] : 0, 3001, 1, 7000);
            alt_case(api, AC_COPY, algos[a], ZESORT_KEY_F32, 4, odd, odd ? odd_lo[a] : 0,
                     odd ? odd_hi[a] : 0, 5003, 1, 2999);
            alt_case(api, AC_ARGSORT_KEYS, algos[a], ZESORT_KEY_U32, 8, odd,
                     odd ? odd_lo[a] : 0, odd ? odd_hi[a] : 0, 4001, 1, 1234);
        }
    alt_refusals(api);
}

#endif
