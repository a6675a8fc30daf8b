/*
 * interop_cases.h — the cases of issue 21's interop entry points, written
 * once for both interop APIs: 8-byte values through the in-place append /
 * enqueue, out-of-place sorts (inputs compared byte for byte afterwards) and
 * argsort (u32 and u64 indices, with and without keys_out), direct and with
 * an indirect count, every algorithm, against tests/common/sort_oracle.h.
 * The test program (tests/ze/test_ze_copy_argsort.c,
 * tests/cl/test_cl_copy_argsort.c) supplies the API as an interop_api and
 * declares `static int failures;` (expect.h).
 */
#ifndef ZESORT_TESTS_INTEROP_CASES_H
#define ZESORT_TESTS_INTEROP_CASES_H

#include <stdio.h>

#include "expect.h"
#include "sort_oracle.h"

/* One interop API. A buffer is a void *: a device pointer or a cl_mem. Every
 * sort call records/enqueues the sort and waits for it (count: NULL, or a
 * buffer holding the uint32 count, the sort's n then being max_n). */
typedef struct interop_api {
    const char *name;
    void *(*alloc)(size_t bytes);
    void (*release)(void *buf);
    void (*upload)(void *buf, const void *src, size_t bytes);
    void (*download)(void *dst, void *buf, size_t bytes);
    zesort_status (*temp_bytes)(uint64_t n, int with_values, const zesort_options *o,
                                uint64_t *bytes);
    zesort_status (*sort)(void *keys, void *values, uint64_t n, void *temp, uint64_t tb,
                          const zesort_options *o);
    zesort_status (*copy)(void *keys_in, void *values_in, void *keys_out, void *values_out,
                          uint64_t n, void *count, void *temp, uint64_t tb,
                          const zesort_options *o);
    zesort_status (*argsort)(void *keys, void *indices, void *keys_out, uint64_t n, void *count,
                             void *temp, uint64_t tb, const zesort_options *o);
    const char *(*error)(void);
} interop_api;

enum { IC_IN_PLACE, IC_COPY, IC_COPY_KEYS, IC_ARGSORT, IC_ARGSORT_KEYS, IC_KINDS };
static const char *const ic_kind_names[IC_KINDS] = {"in place", "copy", "copy keys only",
                                                    "argsort", "argsort + keys"};

/* One case: n keys (max_n; when indirect, the first min(count, n) keys
 * sorted: a count above max_n is clamped on the device). */
static void interop_case(const interop_api *api, int kind, zesort_algo algo, zesort_key_type t,
                         unsigned vb, int descending, unsigned lo, unsigned hi, uint64_t n,
                         int indirect, uint32_t count)
{
    const unsigned kb = oracle_key_bytes(t);
    const uint64_t sorted = indirect && count < n ? count : n;
    char what[200];
    snprintf(what, sizeof what, "%s %s: %s type %d vb %u desc %d bits %u:%u n %llu%s",
             api->name, ic_kind_names[kind], zesort_algo_name(algo), (int)t, vb, descending, lo,
             hi, (unsigned long long)n, indirect ? " indirect" : "");
    zesort_options o;
    zesort_options_default(&o);
    o.algo = algo;
    o.key_type = t;
    o.descending = descending;
    o.bit_lo = lo;
    o.bit_hi = hi;
    o.value_type = vb == 8 ? ZESORT_VALUE_U64 : ZESORT_VALUE_U32;
    const int values = kind != IC_COPY_KEYS;
    const int argsort = kind == IC_ARGSORT || kind == IC_ARGSORT_KEYS;
    const int with = argsort && kind == IC_ARGSORT ? ZESORT_ARGSORT_NO_KEYS_OUT : values;
    const size_t kbytes = (size_t)(n ? n : 1) * kb, vbytes = (size_t)(n ? n : 1) * vb;
    char *keys = malloc(kbytes), *vals = malloc(vbytes), *out_k = malloc(kbytes),
         *out_v = malloc(vbytes);
    oracle_make_keys(keys, n, t, (int)(n % 3), n * 31 + (uint64_t)t);
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t v = oracle_value(i, vb);
        memcpy(vals + i * vb, &v, vb);
    }
    uint64_t *perm = oracle_permutation(keys, sorted, &o);
    uint64_t tb = 0;
    zesort_status st = api->temp_bytes(n, with, &o, &tb);
    EXPECT(st == ZESORT_OK, "%s: temp bytes: %s", what, api->error());
    void *d_keys = api->alloc(kbytes), *d_vals = api->alloc(vbytes), *d_ok = api->alloc(kbytes),
         *d_ov = api->alloc(vbytes), *temp = api->alloc(tb ? tb : 8), *d_count = NULL;
    memset(out_k, 0xCD, kbytes);
    memset(out_v, 0xCD, vbytes);
    api->upload(d_keys, keys, kbytes);
    api->upload(d_vals, vals, vbytes);
    api->upload(d_ok, out_k, kbytes);
    api->upload(d_ov, out_v, vbytes);
    if (indirect) {
        d_count = api->alloc(4);
        api->upload(d_count, &count, 4);
    }
    switch (kind) {
    case IC_IN_PLACE:
        st = api->sort(d_keys, d_vals, n, temp, tb, &o);
        break;
    case IC_COPY:
    case IC_COPY_KEYS:
        st = api->copy(d_keys, values ? d_vals : NULL, d_ok, values ? d_ov : NULL, n, d_count,
                       temp, tb, &o);
        break;
    default:
        st = api->argsort(d_keys, d_ov, kind == IC_ARGSORT_KEYS ? d_ok : NULL, n, d_count, temp,
                          tb, &o);
    }
    EXPECT(st == ZESORT_OK, "%s: %s", what, api->error());
    char *in_k = malloc(kbytes), *in_v = malloc(vbytes);
    api->download(in_k, d_keys, kbytes);
    api->download(in_v, d_vals, vbytes);
    if (kind == IC_IN_PLACE) {
        EXPECT(oracle_check(keys, perm, in_k, in_v, 0, n, kb, vb) == 0, "%s: wrong result", what);
    } else {
        api->download(out_k, d_ok, kbytes);
        api->download(out_v, d_ov, vbytes);
        const int with_keys = kind != IC_ARGSORT;
        EXPECT(oracle_check(keys, perm, with_keys ? out_k : NULL, values ? out_v : NULL, argsort,
                            sorted, kb, vb) == 0, "%s: wrong result", what);
        EXPECT(memcmp(in_k, keys, n * kb) == 0 && memcmp(in_v, vals, n * vb) == 0,
               "%s: an input changed", what);
        /* nothing written past the count, nor to keys_out when not given */
        for (uint64_t i = sorted; i < n; i++)
            EXPECT((!with_keys || (unsigned char)out_k[i * kb] == 0xCD) &&
                       (!values || (unsigned char)out_v[i * vb] == 0xCD),
                   "%s: element %llu past the count written", what, (unsigned long long)i);
    }
    api->release(d_keys), api->release(d_vals), api->release(d_ok), api->release(d_ov);
    api->release(temp);
    if (d_count)
        api->release(d_count);
    free(keys), free(vals), free(out_k), free(out_v), free(in_k), free(in_v), free(perm);
}

/* Overlapping inputs and outputs are refused before anything is recorded. */
static void interop_overlaps(const interop_api *api)
{
    zesort_options o;
    zesort_options_default(&o);
    const uint64_t n = 1000;
    uint64_t tb = 0, pairs_tb = 0;
    api->temp_bytes(n, ZESORT_ARGSORT_NO_KEYS_OUT, &o, &tb);
    api->temp_bytes(n, ZESORT_WITH_VALUES, &o, &pairs_tb);
    tb = tb > pairs_tb ? tb : pairs_tb;
    void *a = api->alloc(n * 8), *b = api->alloc(n * 8), *c = api->alloc(n * 8);
    void *temp = api->alloc(tb);
    EXPECT(api->copy(a, NULL, a, NULL, n, NULL, temp, tb, &o) == ZESORT_ERROR_INVALID_ARGUMENT,
           "%s: copy onto its input accepted", api->name);
    EXPECT(strstr(api->error(), "overlap") != NULL, "%s: %s", api->name, api->error());
    /* an output that is exactly an input it only reads, as on the host
     * (issue 33, defect 5): the values, an argsort's keys */
    EXPECT(api->copy(a, b, c, b, n, NULL, temp, tb, &o) == ZESORT_ERROR_INVALID_ARGUMENT &&
               strstr(api->error(), "overlap") != NULL,
           "%s: values_out == values_in accepted: %s", api->name, api->error());
    EXPECT(api->argsort(a, b, a, n, NULL, temp, tb, &o) == ZESORT_ERROR_INVALID_ARGUMENT &&
               strstr(api->error(), "overlap") != NULL,
           "%s: argsort's keys_out == keys accepted: %s", api->name, api->error());
    EXPECT(api->argsort(a, a, NULL, n, NULL, temp, tb, &o) == ZESORT_ERROR_INVALID_ARGUMENT,
           "%s: indices over the keys accepted", api->name);
    EXPECT(api->argsort(a, b, temp, n, NULL, temp, tb, &o) == ZESORT_ERROR_INVALID_ARGUMENT,
           "%s: keys_out over temp accepted", api->name);
    EXPECT(api->argsort(a, NULL, NULL, n, NULL, temp, tb, &o) == ZESORT_ERROR_INVALID_ARGUMENT,
           "%s: NULL indices accepted", api->name);
    EXPECT(strstr(api->error(), "indices") != NULL, "%s: %s", api->name, api->error());
    o.value_type = ZESORT_VALUE_U64; /* u64 indices need more temp than u32 ones gave */
    EXPECT(api->argsort(a, b, NULL, n, NULL, temp, tb, &o) == ZESORT_ERROR_INVALID_ARGUMENT,
           "%s: too little temp for u64 indices accepted", api->name);
    uint64_t bytes = 0;
    EXPECT(api->temp_bytes(n, 3, &o, &bytes) == ZESORT_ERROR_INVALID_ARGUMENT,
           "%s: with_values 3 accepted", api->name);
    EXPECT(strstr(api->error(), "with_values") != NULL, "%s: %s", api->name, api->error());
    api->release(a), api->release(b), api->release(c), api->release(temp);
}

/* The whole matrix: every algorithm, kind, value width and order; the key
 * types and sizes that make each kernel path run (partial chunks and tiles,
 * 32- and 64-bit keys, floats), a bit range, indirect counts. */
static void interop_matrix(const interop_api *api)
{
    static const zesort_algo algos[] = {ZESORT_ALGO_CM2, ZESORT_ALGO_CM4, ZESORT_ALGO_ONESWEEP};
    static const zesort_key_type types[] = {ZESORT_KEY_U32, ZESORT_KEY_F32, ZESORT_KEY_I64,
                                            ZESORT_KEY_F64};
    static const uint64_t sizes[] = {0, 1, 257, 4097};
    for (size_t a = 0; a < 3; a++)
        for (int kind = 0; kind < IC_KINDS; kind++)
            for (unsigned vb = 4; vb <= 8; vb += 4)
                for (size_t t = 0; t < 4; t++)
                    for (int desc = 0; desc < 2; desc++) {
                        const uint64_t n = sizes[(t + (size_t)desc + (size_t)kind) % 4];
                        interop_case(api, kind, algos[a], types[t], vb, desc, 0, 0, n, 0, 0);
                    }
    for (size_t a = 0; a < 3; a++)
        for (int kind = IC_COPY; kind < IC_KINDS; kind++) {
            interop_case(api, kind, algos[a], ZESORT_KEY_U64, 8, 1, 5, 47, 3001, 0, 0);
            interop_case(api, kind, algos[a], ZESORT_KEY_I32, 8, 0, 0, 0, 5000, 1, 3333);
            interop_case(api, kind, algos[a], ZESORT_KEY_F32, 4, 1, 0, 0, 3000, 1, 7000);
        }
    interop_overlaps(api);
}

#endif
