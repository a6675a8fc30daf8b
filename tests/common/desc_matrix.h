/*
 * desc_matrix.h — every combination a zesort_desc expresses, through one
 * device API (zesort_ze_append or zesort_cl_enqueue), against the stable
 * qsort oracle (sort_oracle.h). The cases are generated from the
 * descriptor's fields, not listed: kind x sync (plain, chained where the
 * API has it, a 32-bit and a 64-bit device-side count) x buffers (in/out,
 * alternate) x what moves (keys, values or indices) x, for segmented
 * sorts, the segments' form (u64 or u32 offsets, u64 or u32 begin/end
 * arrays, the count of segments on the device or not, a status word) x a
 * narrow, a 32-bit and a 64-bit key type. Each case either sorts right or
 * is refused with UNSUPPORTED naming a field, and only the combinations
 * listed in matrix_refusal may be refused. The test program supplies the
 * API as a desc_api and declares `static int failures;` (expect.h).
 * argv: an optional "subset" runs one case in five (the Debian 13 stage).
 */
#ifndef ZESORT_TESTS_DESC_MATRIX_H
#define ZESORT_TESTS_DESC_MATRIX_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "sort_oracle.h"

/* One device API; a buffer is a device pointer or a cl_mem. run records d
 * (chained: in chained mode with `chain` events) and, when that succeeded,
 * waits until it has run. */
typedef struct desc_api {
    const char *name;
    int has_chained;
    void *(*alloc)(size_t bytes);
    void (*release)(void *buf);
    void (*upload)(void *buf, const void *src, size_t bytes);
    void (*download)(void *dst, void *buf, size_t bytes);
    zesort_status (*requirements)(const zesort_desc *d, zesort_requirements *req);
    zesort_status (*run)(const zesort_desc *d, int chained, uint32_t chain);
    const char *(*error)(void);
    /* kernel launches the API has recorded so far, counted beneath the
     * library (the test driver, an interposed OpenCL call) */
    uint64_t (*launches)(void);
} desc_api;

enum { SYNC_PLAIN, SYNC_CHAINED, SYNC_COUNT32, SYNC_COUNT64, SYNC_FORMS };
enum { SEG_OFFSETS, SEG_BEGIN_END, SEG_FORMS };

typedef struct desc_case {
    zesort_kind kind;
    int sync;   /* SYNC_* */
    int alt;    /* keys_alt (and values_alt) given */
    int moves;  /* 0 keys only; 1 values (ARGSORT: the sorted keys too; TOPK: values,
                   or indices for odd type indices) */
    int seg_form, seg_u32, seg_count; /* SEGMENTED: SEG_*, u32 offsets, count on the device */
    zesort_key_type type;
    uint64_t n;
    int descending;
} desc_case;

static const zesort_key_type matrix_types[] = {ZESORT_KEY_U16, ZESORT_KEY_F32, ZESORT_KEY_I64};
static const char *const matrix_kinds[] = {"sort", "copy", "argsort", "topk", "segmented"};
static const char *const matrix_syncs[] = {"plain", "chained", "count32", "count64"};

/* The combinations an API may refuse, and the field its message must name;
 * NULL: it must sort. */
static const char *matrix_refusal(const desc_case *c)
{
    if (c->sync == SYNC_COUNT64)
        return "n_type"; /* a recorded sort reads a 32-bit device-side count */
    return NULL;
}

static void matrix_describe(const desc_case *c, char *buf, size_t size)
{
    snprintf(buf, size, "%s %s alt=%d moves=%d seg=%d/%d/%d type=%d n=%llu desc=%d",
             matrix_kinds[c->kind], matrix_syncs[c->sync], c->alt, c->moves, c->seg_form,
             c->seg_u32, c->seg_count, (int)c->type, (unsigned long long)c->n, c->descending);
}

/* Host copies of one case's inputs and what the device wrote. */
typedef struct matrix_data {
    unsigned kb, vb;
    uint64_t n, count, k, segments;
    char *keys, *vals;         /* inputs */
    uint64_t *begins, *ends;   /* segments: [begins[i], ends[i]) */
    zesort_options o;
} matrix_data;

/* Segments: consecutive ranges of pseudo-random length from a start past
 * 0, so keys before the first and after the last are left alone. */
static uint64_t matrix_segments(matrix_data *m, uint64_t seed)
{
    uint64_t s = 0, at = m->n > 4 ? m->n / 8 : 0, x = seed * 2654435761u + 7;
    m->begins = malloc((m->n + 2) * sizeof *m->begins);
    m->ends = malloc((m->n + 2) * sizeof *m->ends);
    while (at < m->n - m->n / 16 && s < m->n + 1) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint64_t len = x % 5 == 0 ? 0 : 1 + x % (m->n / 3 + 1);
        if (at + len > m->n)
            len = m->n - at;
        m->begins[s] = at, m->ends[s] = at + len;
        at += len, s++;
        if (len == 0 && x % 7 == 0)
            at++; /* a gap */
    }
    return s;
}

/* The expected keys (and values / positions) of the whole buffer after the
 * case ran: *want_k, *want_v (n elements each; values as oracle_value or
 * positions). Returns how many leading elements to compare (segmented and
 * in place: all n; copy, argsort: the count; top-k: min(k, count)). */
static uint64_t matrix_expect(const desc_case *c, const matrix_data *m, char *want_k,
                              uint64_t *want_v, int indices)
{
    const unsigned kb = m->kb;
    memcpy(want_k, m->keys, m->n * kb);
    for (uint64_t i = 0; i < m->n; i++)
        want_v[i] = indices ? i : oracle_value(i, m->vb);
    if (c->kind != ZESORT_SEGMENTED) {
        uint64_t *perm = oracle_permutation(m->keys, m->count, &m->o);
        for (uint64_t i = 0; i < m->count; i++) {
            memcpy(want_k + i * kb, m->keys + perm[i] * kb, kb);
            want_v[i] = indices ? perm[i] : oracle_value(perm[i], m->vb);
        }
        free(perm);
        if (c->kind == ZESORT_TOPK)
            return m->k < m->count ? m->k : m->count;
        return c->kind == ZESORT_SORT ? m->n : m->count;
    }
    for (uint64_t s = 0; s < m->segments; s++) { /* cut at the device-side count */
        const uint64_t b = m->begins[s] < m->count ? m->begins[s] : m->count;
        const uint64_t e = m->ends[s] < m->count ? m->ends[s] : m->count;
        uint64_t *perm = oracle_permutation(m->keys + b * kb, e - b, &m->o);
        for (uint64_t i = 0; i < e - b; i++) {
            memcpy(want_k + (b + i) * kb, m->keys + (b + perm[i]) * kb, kb);
            want_v[b + i] = oracle_value(b + perm[i], m->vb);
        }
        free(perm);
    }
    return m->n;
}

/* Device buffers of one case (NULL where unused). */
typedef struct matrix_bufs {
    void *keys_in, *vals_in, *keys, *vals, *keys_alt, *vals_alt, *count, *temp;
    void *offsets, *begins, *ends, *seg_count, *status;
} matrix_bufs;

static void *matrix_upload(const desc_api *api, const void *src, size_t bytes)
{
    void *b = api->alloc(bytes ? bytes : 8);
    if (src)
        api->upload(b, src, bytes);
    return b;
}

/* The segment arrays at their width, in the case's form (begin/end: in
 * reverse order, as any order is allowed). */
static void matrix_segment_bufs(const desc_api *api, const desc_case *c, const matrix_data *m,
                                zesort_desc *d, matrix_bufs *b)
{
    const unsigned ob = c->seg_u32 ? 4 : 8;
    const uint64_t s = m->segments, pad = c->seg_count ? 3 : 0; /* room for the most */
    char *arr = calloc(2 * (s + 1 + pad), ob);
    d->offset_type = c->seg_u32 ? ZESORT_OFFSET_U32 : ZESORT_OFFSET_U64;
    d->num_segments = s;
    for (uint64_t i = 0; i <= s; i++) {
        const uint64_t j = c->seg_form == SEG_OFFSETS ? i : s - 1 - i;
        const uint64_t off = c->seg_form == SEG_OFFSETS ? (i < s ? m->begins[i] : m->ends[s - 1])
                             : i < s                     ? m->begins[j]
                                                         : 0;
        const uint64_t end = c->seg_form == SEG_OFFSETS || i == s ? 0 : m->ends[j];
        memcpy(arr + i * ob, &off, ob);
        memcpy(arr + (s + 1 + pad + i) * ob, &end, ob);
    }
    if (c->seg_form == SEG_OFFSETS) {
        d->offsets = b->offsets = matrix_upload(api, arr, (s + 1 + pad) * ob);
    } else {
        d->begin_offsets = b->begins = matrix_upload(api, arr, (s + pad) * ob);
        d->end_offsets = b->ends = matrix_upload(api, arr + (s + 1 + pad) * ob, (s + pad) * ob);
    }
    if (c->seg_count) {
        const uint32_t count = (uint32_t)s;
        d->num_segments_device = b->seg_count = matrix_upload(api, &count, 4);
        d->num_segments = s + 3; /* the most it may say */
    }
    d->status = b->status = matrix_upload(api, NULL, 8);
    free(arr);
}

/* The descriptor of a case over freshly uploaded buffers. */
static zesort_desc matrix_desc(const desc_api *api, const desc_case *c, const matrix_data *m,
                               matrix_bufs *b, int *indices)
{
    zesort_desc d;
    zesort_desc_init(&d, c->kind);
    d.key_type = c->type, d.descending = c->descending;
    const int in_place = c->kind == ZESORT_SORT || c->kind == ZESORT_SEGMENTED;
    const int values = c->moves && c->kind != ZESORT_ARGSORT &&
                       !(c->kind == ZESORT_TOPK && c->type != ZESORT_KEY_U16 &&
                         c->type != ZESORT_KEY_I64);
    *indices = c->kind == ZESORT_ARGSORT || (c->kind == ZESORT_TOPK && c->moves && !values);
    d.value_type = !values ? ZESORT_VALUES_NONE
                   : m->vb == 8 ? ZESORT_VALUES_U64 : ZESORT_VALUES_U32;
    d.index_type = m->vb == 8 ? ZESORT_INT_U64 : ZESORT_INT_U32;
    const size_t kbytes = m->n * m->kb, vbytes = m->n * m->vb;
    char *vals = malloc(vbytes + 8);
    for (uint64_t i = 0; i < m->n; i++) {
        const uint64_t v = oracle_value(i, m->vb);
        memcpy(vals + i * m->vb, &v, m->vb);
    }
    if (in_place) {
        d.keys = b->keys = matrix_upload(api, m->keys, kbytes);
        d.values = b->vals = values ? matrix_upload(api, vals, vbytes) : NULL;
    } else {
        d.keys_in = b->keys_in = matrix_upload(api, m->keys, kbytes);
        d.values_in = b->vals_in = values ? matrix_upload(api, vals, vbytes) : NULL;
        const int keys_out = c->kind != ZESORT_ARGSORT || c->moves;
        d.keys = b->keys = keys_out ? matrix_upload(api, NULL, kbytes) : NULL;
        b->vals = values || *indices ? matrix_upload(api, NULL, vbytes) : NULL;
        if (*indices)
            d.indices = b->vals;
        else
            d.values = b->vals;
    }
    if (c->alt) {
        d.keys_alt = b->keys_alt = matrix_upload(api, NULL, kbytes);
        d.values_alt = b->vals_alt = values || c->kind == ZESORT_ARGSORT
                                         ? matrix_upload(api, NULL, vbytes)
                                         : NULL;
    }
    if (c->kind == ZESORT_TOPK)
        d.k = m->k;
    if (c->kind == ZESORT_SEGMENTED)
        matrix_segment_bufs(api, c, m, &d, b);
    d.n = m->n;
    if (c->sync == SYNC_COUNT32 || c->sync == SYNC_COUNT64) {
        const uint64_t count = m->count;
        d.n_device = b->count = matrix_upload(api, &count, 8);
        d.n_type = c->sync == SYNC_COUNT64 ? ZESORT_INT_U64 : ZESORT_INT_U32;
        d.max_n = m->n;
        d.n = 0;
    }
    free(vals);
    return d;
}

static void matrix_release(const desc_api *api, matrix_bufs *b)
{
    void **all = (void **)b;
    for (size_t i = 0; i < sizeof *b / sizeof(void *); i++)
        if (all[i])
            api->release(all[i]);
}

/* Compares the device's result with the oracle: the result buffers (the
 * alternates when the call said so), inputs that must stay unchanged, the
 * status word. Returns a description of the first difference, or NULL. */
static const char *matrix_verify(const desc_api *api, const desc_case *c, const matrix_data *m,
                                 const matrix_bufs *b, int indices, int in_alt)
{
    static char why[160];
    const unsigned kb = m->kb, vb = m->vb;
    char *want_k = malloc(m->n * kb + 8), *got_k = malloc(m->n * kb + 8);
    uint64_t *want_v = malloc((m->n + 1) * 8);
    char *got_v = malloc(m->n * vb + 8);
    const uint64_t cmp = matrix_expect(c, m, want_k, want_v, indices);
    void *rk = in_alt ? b->keys_alt : b->keys, *rv = in_alt ? b->vals_alt : b->vals;
    if (c->kind != ZESORT_ARGSORT && !b->vals_in && !(c->kind == ZESORT_SORT && b->vals) &&
        !(c->kind == ZESORT_SEGMENTED && b->vals) && !indices)
        rv = NULL; /* keys only */
    why[0] = 0;
    if (rk) {
        api->download(got_k, rk, m->n * kb);
        for (uint64_t i = 0; i < cmp && !why[0]; i++)
            if (memcmp(got_k + i * kb, want_k + i * kb, kb))
                snprintf(why, sizeof why, "key %llu differs", (unsigned long long)i);
    }
    if (rv) {
        api->download(got_v, rv, m->n * vb);
        for (uint64_t i = 0; i < cmp && !why[0]; i++) {
            uint64_t v = 0;
            memcpy(&v, got_v + i * vb, vb);
            if (v != want_v[i])
                snprintf(why, sizeof why, "%s %llu differs", indices ? "index" : "value",
                         (unsigned long long)i);
        }
    }
    if (!why[0] && c->kind != ZESORT_SEGMENTED) { /* the oracle's own check of the sorted part */
        uint64_t *perm = oracle_permutation(m->keys, m->count, &m->o);
        const uint64_t bad = oracle_check(m->keys, perm, rk ? got_k : NULL, rv ? got_v : NULL,
                                          indices, cmp < m->count ? cmp : m->count, kb, vb);
        if (bad)
            snprintf(why, sizeof why, "oracle_check: position %llu", (unsigned long long)bad - 1);
        free(perm);
    }
    if (!why[0] && b->keys_in) {
        api->download(got_k, b->keys_in, m->n * kb);
        if (memcmp(got_k, m->keys, m->n * kb))
            snprintf(why, sizeof why, "keys_in written");
    }
    if (!why[0] && b->status) {
        uint32_t st[2] = {9, 9};
        api->download(st, b->status, 8);
        if (st[0] != ZESORT_SEGMENTS_VALID)
            snprintf(why, sizeof why, "status %u %u", st[0], st[1]);
    }
    free(want_k), free(got_k), free(want_v), free(got_v);
    return why[0] ? why : NULL;
}

/* The launches the requirements announced were the ones recorded; up to
 * 2048 keys (the least one launch takes in any flavor) one, the small
 * algorithm's; above 4096 (the most in any flavor) more than one. */
static void matrix_check_launches(const desc_api *api, const desc_case *c,
                                  const zesort_requirements *req, uint64_t launched,
                                  const char *what)
{
    EXPECT(launched == req->launches, "%s %s: %llu launches recorded, requirements said %llu",
           api->name, what, (unsigned long long)launched, (unsigned long long)req->launches);
    if (c->n <= 2048)
        EXPECT(req->algo == ZESORT_ALGO_SMALL && launched == 1,
               "%s %s: algo %s, %llu launches; want small, 1", api->name, what,
               zesort_algo_name(req->algo), (unsigned long long)launched);
    if (c->n > 4096)
        EXPECT(req->algo != ZESORT_ALGO_SMALL && launched > 1,
               "%s %s: algo %s, %llu launches above the small limit", api->name, what,
               zesort_algo_name(req->algo), (unsigned long long)launched);
}

/* One case: run it, then check the result or the refusal. */
static void matrix_case(const desc_api *api, const desc_case *c, uint64_t seed)
{
    char what[200];
    matrix_describe(c, what, sizeof what);
    matrix_data m = {.kb = oracle_key_bytes(c->type), .vb = c->type == ZESORT_KEY_F32 ? 4 : 8,
                     .n = c->n};
    zesort_options_default(&m.o);
    m.o.key_type = c->type, m.o.descending = c->descending;
    m.count = c->sync >= SYNC_COUNT32 ? m.n - m.n / 3 : m.n;
    m.k = c->n / 4 + 1;
    m.keys = malloc(m.n * m.kb + 8);
    oracle_make_keys(m.keys, m.n, c->type, (int)(seed % 3), seed);
    if (c->kind == ZESORT_SEGMENTED)
        m.segments = matrix_segments(&m, seed);
    matrix_bufs b = {0};
    int indices = 0;
    zesort_desc d = matrix_desc(api, c, &m, &b, &indices);
    zesort_requirements req;
    zesort_status st = api->requirements(&d, &req);
    int in_alt = -1;
    uint64_t launched = 0;
    if (st == ZESORT_OK) {
        d.temp = b.temp = api->alloc(req.temp_bytes ? req.temp_bytes : 8);
        d.temp_bytes = req.temp_bytes;
        d.result_in_alt = &in_alt;
        launched = api->launches();
        st = api->run(&d, c->sync == SYNC_CHAINED, req.chain_events);
        launched = api->launches() - launched;
    }
    const char *refusal = matrix_refusal(c);
    if (refusal) {
        EXPECT(st == ZESORT_ERROR_UNSUPPORTED && strstr(api->error(), refusal),
               "%s %s: want UNSUPPORTED naming %s, got %s: %s", api->name, what, refusal,
               zesort_status_name(st), api->error());
    } else if (st != ZESORT_OK) {
        EXPECT(st == ZESORT_OK, "%s %s: %s: %s", api->name, what, zesort_status_name(st),
               api->error());
    } else {
        EXPECT(in_alt == (c->alt && req.result_in_alt),
               "%s %s: result_in_alt %d, requirements said %d", api->name, what, in_alt,
               req.result_in_alt);
        const char *why = matrix_verify(api, c, &m, &b, indices, in_alt == 1);
        EXPECT(!why, "%s %s: %s", api->name, what, why ? why : "");
        matrix_check_launches(api, c, &req, launched, what);
    }
    matrix_release(api, &b);
    free(m.keys), free(m.begins), free(m.ends);
}

/* Every case, from the fields: kind, sync, buffers, what moves, segments'
 * form, key type; sizes and orders vary with the case's index. */
static int matrix_run(const desc_api *api, int subset)
{
    /* one launch up to 2048 keys in every flavor, none above 4096 */
    static const uint64_t sizes[] = {1, 257, 5003, 33};
    unsigned index = 0, ran = 0;
    for (int kind = ZESORT_SORT; kind <= ZESORT_SEGMENTED; kind++)
        for (int sync = 0; sync < SYNC_FORMS; sync++)
            for (int alt = 0; alt < 2; alt++)
                for (int moves = 0; moves < 2; moves++)
                    for (int seg = 0; seg < (kind == ZESORT_SEGMENTED ? 8 : 1); seg++)
                        for (unsigned t = 0; t < 3; t++, index++) {
                            if ((sync == SYNC_CHAINED && !api->has_chained) ||
                                (subset && index % 5))
                                continue;
                            const desc_case c = {(zesort_kind)kind, sync, alt, moves, seg & 1,
                                                 (seg >> 1) & 1, (seg >> 2) & 1,
                                                 matrix_types[t], sizes[index % 4],
                                                 (int)(index / 4 % 2)};
                            matrix_case(api, &c, index + 1);
                            ran++;
                        }
    printf("%s: %u descriptor combinations, %d failed\n", api->name, ran, failures);
    return failures != 0;
}

#endif
