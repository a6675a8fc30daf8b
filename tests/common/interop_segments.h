/*
 * interop_segments.h — the segmented sort of both interop APIs (issue 22:
 * zesort_ze_append_sort_segments, zesort_cl_enqueue_sort_segments), written
 * once: offsets in device memory, every offset pattern of segment_offsets.h,
 * every key type, u32 / u64 values and keys only, descending, bit ranges,
 * against a per-segment stable sort (segment_oracle.h); the keys and values
 * outside the segments compared byte for byte; bad offsets leaving
 * everything as it was (checked on the device, issue 35). The test program supplies the API as an
 * interop_segments_api and declares `static int failures;` (expect.h).
 */
#ifndef ZESORT_TESTS_INTEROP_SEGMENTS_H
#define ZESORT_TESTS_INTEROP_SEGMENTS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "segment_offsets.h"
#include "segment_oracle.h"

/* The segments of zesort_ze_append_sort_segmented /
 * zesort_cl_enqueue_sort_segmented (issue 35), API-neutral: buffers are
 * device pointers or cl_mem, NULL when unused; old_api: the entry point of
 * issue 22 instead (offsets, u64, num_segments; the rest unused). */
typedef struct seg_dev {
    int old_api, u32;
    void *offsets, *begins, *ends, *count, *status;
    uint64_t num_segments;
    int no_desc;  /* pass no descriptor (NULL) */
    int raw_type; /* non-zero: this offset_type instead */
} seg_dev;

/* One interop API; a buffer is a device pointer or a cl_mem. sort records /
 * enqueues the segmented sort and, when it succeeded, waits for it.
 * sort_dev records, on one list or queue, a device copy of copy_bytes from
 * copy_src to copy_dst (none when 0) and then the segmented sort of d,
 * ordered after the copy by the list (Level Zero: a regular list executed
 * once) or by the copy's event (OpenCL), and waits: the host reads and
 * writes nothing in between, so the sort's offsets may be the copy's. */
typedef struct interop_segments_api {
    const char *name;
    void *(*alloc)(size_t bytes);
    void (*release)(void *buf);
    void (*upload)(void *buf, const void *src, size_t bytes);
    void (*download)(void *dst, void *buf, size_t bytes);
    zesort_status (*temp_bytes)(uint64_t n, int with_values, const zesort_options *o,
                                uint64_t *bytes);
    zesort_status (*sort)(void *keys, void *values, uint64_t n, void *offsets, uint64_t segments,
                          void *temp, uint64_t tb, const zesort_options *o);
    const char *(*error)(void);
    zesort_status (*sort_dev)(void *keys, void *values, uint64_t n, const seg_dev *d,
                              void *copy_dst, void *copy_src, size_t copy_bytes, void *temp,
                              uint64_t tb, const zesort_options *o);
    /* the same with a device-side count (a buffer holding one uint32; n is
     * then max_n), or NULL: for interop_rules.h's seg_indirect_cases */
    zesort_status (*sort_indirect)(void *keys, void *values, void *count, uint64_t max_n,
                                   void *offsets, uint64_t segments, void *temp, uint64_t tb,
                                   const zesort_options *o);
} interop_segments_api;

/* Device copies of one case's arrays. */
typedef struct seg_bufs {
    void *keys, *vals, *off, *temp;
    uint64_t tb;
} seg_bufs;

static seg_bufs seg_upload(const interop_segments_api *api, const char *keys, const char *vals,
                           const uint64_t *off, uint64_t s, uint64_t n, unsigned kb, unsigned vb,
                           const zesort_options *o)
{
    seg_bufs d = {0};
    EXPECT(api->temp_bytes(n, vb != 0, o, &d.tb) == ZESORT_OK, "%s: temp bytes: %s", api->name,
           api->error());
    const size_t kbytes = (size_t)(n ? n : 1) * kb, vbytes = (size_t)(n ? n : 1) * (vb ? vb : 4);
    d.keys = api->alloc(kbytes), d.vals = api->alloc(vbytes);
    d.off = api->alloc((s + 1) * 8), d.temp = api->alloc(d.tb ? d.tb : 8);
    api->upload(d.keys, keys, kbytes);
    if (vb)
        api->upload(d.vals, vals, vbytes);
    api->upload(d.off, off, (s + 1) * 8);
    return d;
}

static void seg_release(const interop_segments_api *api, seg_bufs *d)
{
    api->release(d->keys), api->release(d->vals), api->release(d->off), api->release(d->temp);
}

/* One case: pattern pat over n keys of type t, values of vb bytes (0: none). */
static void seg_case(const interop_segments_api *api, uint64_t n, zesort_key_type t, int desc,
                     unsigned lo, unsigned hi, unsigned vb, int pat)
{
    const unsigned kb = oracle_key_bytes(t);
    char what[200];
    snprintf(what, sizeof what, "%s segments: n %llu type %d desc %d bits %u:%u vb %u pattern %d",
             api->name, (unsigned long long)n, (int)t, desc, lo, hi, vb, pat);
    zesort_options o;
    zesort_options_default(&o);
    o.key_type = t, o.descending = desc, o.bit_lo = lo, o.bit_hi = hi;
    o.value_type = vb == 8 ? ZESORT_VALUE_U64 : ZESORT_VALUE_U32;
    const size_t cap = n ? n : 1;
    char *keys = malloc(cap * kb), *vals = malloc(cap * 8), *out_k = malloc(cap * kb),
         *out_v = malloc(cap * 8);
    uint64_t *off = malloc((n + 8) * sizeof *off);
    oracle_make_keys(keys, n, t, pat % 3, n * 7 + (uint64_t)pat);
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t v = oracle_value(i, vb ? vb : 4);
        memcpy(vals + i * vb, &v, vb);
    }
    const uint64_t s = make_offsets(pat, n, off, n + (uint64_t)t);
    seg_bufs d = seg_upload(api, keys, vals, off, s, n, kb, vb, &o);
    zesort_status st = api->sort(d.keys, vb ? d.vals : NULL, n, d.off, s, d.temp, d.tb, &o);
    EXPECT(st == ZESORT_OK, "%s: %s", what, api->error());
    api->download(out_k, d.keys, cap * kb);
    if (vb)
        api->download(out_v, d.vals, cap * vb);
    char why[200];
    const char *wrong = segments_verify(keys, out_k, vb ? out_v : NULL, off, s, n, kb, vb, &o,
                                        st != ZESORT_OK, why, sizeof why);
    EXPECT(!wrong, "%s: %s", what, wrong);
    seg_release(api, &d);
    free(keys), free(vals), free(out_k), free(out_v), free(off);
}

/* Bad offsets: since issue 35 only the device reads them, so the call
 * succeeds, and the device's check leaves keys and values unchanged. */
static void seg_refused(const interop_segments_api *api, const uint64_t *off, uint64_t s,
                        uint64_t n, const char *what)
{
    uint32_t keys[8] = {9, 8, 7, 6, 5, 4, 3, 2}, vals[8] = {1, 2, 3, 4, 5, 6, 7, 8}, k[8], v[8];
    zesort_options o;
    zesort_options_default(&o);
    seg_bufs d = seg_upload(api, (const char *)keys, (const char *)vals, off, s, 8, 4, 4, &o);
    EXPECT(api->sort(d.keys, d.vals, n, d.off, s, d.temp, d.tb, &o) == ZESORT_OK,
           "%s: %s: %s", api->name, what, api->error());
    api->download(k, d.keys, sizeof k);
    api->download(v, d.vals, sizeof v);
    EXPECT(memcmp(k, keys, sizeof k) == 0 && memcmp(v, vals, sizeof v) == 0,
           "%s: %s: arrays changed", api->name, what);
    seg_release(api, &d);
}

/* A refusal's message (issue 33, defect 9): INVALID_ARGUMENT, the message
 * holding `want` and not `not`. */
static void seg_message(const interop_segments_api *api, zesort_status st, const char *want,
                        const char *not, const char *what)
{
    const char *msg = api->error();
    EXPECT(st == ZESORT_ERROR_INVALID_ARGUMENT && strstr(msg, want) && !strstr(msg, not),
           "%s: %s: %s: message '%s' (wanted '%s', not '%s')", api->name, what,
           zesort_status_name(st), msg, want, not);
}

/* The refusals name what is wrong: the in-place keys and values as "keys"
 * and "values" (not "keys_out"), an offsets buffer too small for its
 * segments, the function refusing 2^32 - 1 segments. */
static void seg_messages(const interop_segments_api *api)
{
    const uint64_t n = 1000, off[] = {0, 400, n};
    zesort_options o;
    zesort_options_default(&o);
    uint64_t tb = 0;
    EXPECT(api->temp_bytes(n, 1, &o, &tb) == ZESORT_OK, "%s: temp bytes", api->name);
    void *keys = api->alloc(n * 4), *half = api->alloc(n * 2), *vals = api->alloc(n * 4);
    void *offs = api->alloc(sizeof off), *short_offs = api->alloc(16), *temp = api->alloc(tb);
    api->upload(offs, off, sizeof off);
    api->upload(short_offs, off, 16);
    seg_message(api, api->sort(half, vals, n, offs, 2, temp, tb, &o), "keys", "keys_out",
                "keys of half the bytes");
    seg_message(api, api->sort(keys, half, n, offs, 2, temp, tb, &o), "values", "values_out",
                "values of half the bytes");
    seg_message(api, api->sort(keys, vals, n, short_offs, 2, temp, tb, &o), "offsets",
                "keys need", "offsets of 16 bytes for 2 segments");
    seg_message(api, api->sort(keys, vals, n, offs, UINT32_MAX, temp, tb, &o),
                "zesort_", "\n", "2^32 - 1 segments");
    api->release(keys), api->release(half), api->release(vals), api->release(offs);
    api->release(short_offs), api->release(temp);
}

/* The whole matrix, then the refusals. Sizes: windows and work-groups cut
 * across (4096-key windows of the sg and portable flavors), a giant segment
 * sorted by one work-group (70001 keys: PAT_ONE and PAT_GIANT). */
static void interop_segments(const interop_segments_api *api)
{
    static const uint64_t sizes[] = {0, 1, 2, 1000, 9000, 70001};
    int k = 0;
    for (unsigned si = 0; si < sizeof sizes / sizeof *sizes; si++)
        for (int pat = 0; pat < PAT_COUNT; pat++, k++) {
            const zesort_key_type t = (zesort_key_type)(k % 6);
            const unsigned bits = oracle_key_bytes(t) * 8, vb = (unsigned)(k % 3) * 4;
            const int narrow = k % 4 == 1;
            seg_case(api, sizes[si], t, k % 5 == 2, narrow ? 3 : 0, narrow ? bits - 5 : bits, vb,
                     pat);
        }
    const uint64_t decreasing[] = {0, 5, 3, 8}, beyond[] = {0, 4, 9}, late[] = {9, 9};
    seg_refused(api, decreasing, 3, 8, "decreasing offsets");
    seg_refused(api, beyond, 2, 8, "offsets beyond n");
    seg_refused(api, late, 1, 8, "offsets[0] beyond n");
    seg_messages(api);
    printf("%s segments: %d cases, %d failures\n", api->name, k, failures);
}

/* ---- issue 35: segments only the device reads ------------------------ */

/* count offsets as the device gets them: uint32 (u32) or uint64. */
static void *seg_pack(const uint64_t *v, uint64_t count, int u32)
{
    char *p = malloc((size_t)(count ? count : 1) * 8);
    for (uint64_t i = 0; i < count; i++) {
        const uint32_t x = (uint32_t)v[i];
        if (u32)
            memcpy(p + i * 4, &x, 4);
        else
            memcpy(p + i * 8, &v[i], 8);
    }
    return p;
}

/* A device buffer of `count` offsets uploaded, and room for 8 more (a
 * device-side count's max_segments above it). */
static void *seg_dev_offsets(const interop_segments_api *api, const uint64_t *v, uint64_t count,
                             int u32)
{
    void *host = seg_pack(v, count, u32), *dev = api->alloc((size_t)(count + 8) * 8);
    api->upload(dev, host, (size_t)(count ? count : 1) * (u32 ? 4 : 8));
    free(host);
    return dev;
}

/* The status word after a sort (the device wrote it), or {~0, ~0} unread. */
static void seg_dev_status(const interop_segments_api *api, void *status, uint32_t out[2])
{
    api->download(out, status, 2 * sizeof(uint32_t));
}

/* Begin/end arrays from S + 1 offsets: every third segment left out (a gap
 * whose keys must stay as they are), the rest shuffled. Returns how many. */
static uint64_t seg_begin_end(const uint64_t *off, uint64_t s, uint64_t *begins, uint64_t *ends,
                              uint64_t seed)
{
    uint64_t kept = 0, x = seed * 31 + 7;
    for (uint64_t g = 0; g < s; g++)
        if (g % 3 != 1)
            begins[kept] = off[g], ends[kept++] = off[g + 1];
    for (uint64_t i = kept; i > 1; i--) {
        const uint64_t j = seg_rnd(&x) % i, b = begins[i - 1], e = ends[i - 1];
        begins[i - 1] = begins[j], ends[i - 1] = ends[j];
        begins[j] = b, ends[j] = e;
    }
    return kept;
}

/* Begin/end segments' result: each sorted, every key of no segment as it was. */
static const char *seg_verify_begin_end(const void *keys, const void *out_k, const void *out_v,
                                        const uint64_t *begins, const uint64_t *ends,
                                        uint64_t kept, uint64_t n, unsigned kb, unsigned vb,
                                        const zesort_options *o, char *why, size_t size)
{
    char *covered = calloc((size_t)n + 1, 1);
    for (uint64_t g = 0; g < kept; g++) {
        const uint64_t bad = segment_check(keys, out_k, out_v, begins[g], ends[g] - begins[g],
                                           kb, vb, o);
        if (bad) {
            snprintf(why, size, "segment %llu [%llu, %llu): element %llu wrong",
                     (unsigned long long)g, (unsigned long long)begins[g],
                     (unsigned long long)ends[g], (unsigned long long)(begins[g] + bad - 1));
            free(covered);
            return why;
        }
        memset(covered + begins[g], 1, (size_t)(ends[g] - begins[g]));
    }
    for (uint64_t i = 0; i < n; i++)
        if (!covered[i] && !segment_unchanged(keys, out_k, out_v, i, i + 1, kb, vb)) {
            snprintf(why, size, "key %llu, in no segment, changed", (unsigned long long)i);
            free(covered);
            return why;
        }
    free(covered);
    return NULL;
}

/* The form of a device-side case. */
typedef struct seg_form {
    int begin_end, u32, dev_count, old_api;
} seg_form;

/* One valid case: pattern pat over n keys of type t (values of vb bytes, 0:
 * none) in form f. The offsets (the begins) reach their buffer by a copy
 * recorded just before the sort; the buffer holds 0xFF bytes until then
 * (decreasing or past n: a check made when the sort is recorded refuses
 * them). The status word starts as garbage and must read {0, 0}. */
static void seg_dev_case_order(const interop_segments_api *api, uint64_t n, int pat,
                               zesort_key_type t, unsigned vb, seg_form f, int desc,
                               unsigned lo, unsigned hi)
{
    const unsigned kb = oracle_key_bytes(t), w = f.u32 ? 4 : 8;
    char what[240];
    snprintf(what, sizeof what, "%s device segments: n %llu pattern %d type %d vb %u "
             "begin/end %d u32 %d count %d old %d desc %d bits %u:%u", api->name,
             (unsigned long long)n, pat, (int)t, vb, f.begin_end, f.u32, f.dev_count, f.old_api,
             desc, lo, hi);
    zesort_options o;
    zesort_options_default(&o);
    o.key_type = t, o.descending = desc, o.bit_lo = lo, o.bit_hi = hi;
    o.value_type = vb == 8 ? ZESORT_VALUE_U64 : ZESORT_VALUE_U32;
    const size_t cap = n ? n : 1;
    char *keys = malloc(cap * kb), *vals = malloc(cap * 8), *out_k = malloc(cap * kb),
         *out_v = malloc(cap * 8);
    uint64_t *off = malloc((n + 8) * 8), *begins = malloc((n + 8) * 8), *ends = malloc((n + 8) * 8);
    oracle_make_keys(keys, n, t, pat % 3, n * 3 + (uint64_t)pat);
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t v = oracle_value(i, vb ? vb : 4);
        memcpy(vals + i * (vb ? vb : 4), &v, vb ? vb : 4);
    }
    const uint64_t s = make_offsets(pat, n, off, n + (uint64_t)pat);
    const uint64_t kept = f.begin_end ? seg_begin_end(off, s, begins, ends, n + 5) : s;
    const uint64_t *first = f.begin_end ? begins : off, entries = f.begin_end ? kept : s + 1;
    seg_bufs d = seg_upload(api, keys, vals, off, s, n, kb, vb, &o);
    void *staged = seg_dev_offsets(api, first, entries, f.u32);
    void *target = api->alloc((size_t)(entries + 8) * 8);
    unsigned char *junk = malloc((size_t)(entries + 8) * 8);
    memset(junk, 0xFF, (size_t)(entries + 8) * 8);
    api->upload(target, junk, (size_t)(entries + 8) * 8);
    void *ends_dev = f.begin_end ? seg_dev_offsets(api, ends, kept, f.u32) : NULL;
    const uint32_t garbage[2] = {0xAAAAAAAAu, 0x55555555u}, count32 = (uint32_t)kept;
    void *status = api->alloc(8), *count = f.dev_count ? api->alloc(4) : NULL;
    api->upload(status, garbage, 8);
    if (count)
        api->upload(count, &count32, 4);
    seg_dev sd = {f.old_api, f.u32, f.begin_end ? NULL : target, f.begin_end ? target : NULL,
                  ends_dev, count, f.old_api ? NULL : status, kept + (f.dev_count ? 5 : 0), 0, 0};
    zesort_status st = api->sort_dev(d.keys, vb ? d.vals : NULL, n, &sd, target, staged,
                                     (size_t)entries * w, d.temp, d.tb, &o);
    EXPECT(st == ZESORT_OK, "%s: %s", what, api->error());
    api->download(out_k, d.keys, cap * kb);
    if (vb)
        api->download(out_v, d.vals, cap * vb);
    char why[200];
    const char *wrong = f.begin_end ? seg_verify_begin_end(keys, out_k, vb ? out_v : NULL, begins,
                                                           ends, kept, n, kb, vb, &o, why,
                                                           sizeof why)
                                    : segments_verify(keys, out_k, vb ? out_v : NULL, off, s, n,
                                                      kb, vb, &o, 0, why, sizeof why);
    EXPECT(!wrong, "%s: %s", what, wrong);
    uint32_t got[2];
    seg_dev_status(api, status, got);
    if (!f.old_api)
        EXPECT(got[0] == 0 && got[1] == 0, "%s: status {%u, %u}", what, got[0], got[1]);
    seg_release(api, &d);
    api->release(staged), api->release(target), api->release(status);
    if (ends_dev)
        api->release(ends_dev);
    if (count)
        api->release(count);
    free(keys), free(vals), free(out_k), free(out_v), free(off), free(begins), free(ends), free(junk);
}

/* seg_dev_case_order in ascending order over every bit. */
static void seg_dev_case(const interop_segments_api *api, uint64_t n, int pat, zesort_key_type t,
                         unsigned vb, seg_form f)
{
    seg_dev_case_order(api, n, pat, t, vb, f, 0, 0, oracle_key_bytes(t) * 8);
}

/* Invalid segments: the call succeeds, the status word says what and where,
 * 8 keys and values stay as they were (valid ones: the status says so). a: S + 1 offsets or the begins, e:
 * the ends or NULL; max: num_segments; count: the device-side count
 * (UINT64_MAX: none). */
static void seg_dev_invalid(const interop_segments_api *api, const uint64_t *a, const uint64_t *e,
                            uint64_t entries, uint64_t max, uint64_t count, int u32, uint64_t n,
                            uint32_t code, uint32_t index, const char *what)
{
    uint32_t keys[8] = {9, 8, 7, 6, 5, 4, 3, 2}, vals[8] = {1, 2, 3, 4, 5, 6, 7, 8}, k[8], v[8];
    zesort_options o;
    zesort_options_default(&o);
    uint64_t tb = 0;
    EXPECT(api->temp_bytes(8, 1, &o, &tb) == ZESORT_OK, "%s: temp bytes", api->name);
    void *dk = api->alloc(32), *dv = api->alloc(32), *temp = api->alloc(tb), *st = api->alloc(8);
    void *da = seg_dev_offsets(api, a, entries, u32), *de = e ? seg_dev_offsets(api, e, entries, u32)
                                                            : NULL;
    const uint32_t c32 = (uint32_t)count, garbage[2] = {0xAAAAAAAAu, 0x55555555u};
    void *dc = count != UINT64_MAX ? api->alloc(4) : NULL;
    api->upload(dk, keys, 32), api->upload(dv, vals, 32), api->upload(st, garbage, 8);
    if (dc)
        api->upload(dc, &c32, 4);
    seg_dev sd = {0, u32, e ? NULL : da, e ? da : NULL, de, dc, st, max, 0, 0};
    EXPECT(api->sort_dev(dk, dv, n, &sd, NULL, NULL, 0, temp, tb, &o) == ZESORT_OK, "%s: %s: %s",
           api->name, what, api->error());
    uint32_t got[2];
    seg_dev_status(api, st, got);
    EXPECT(got[0] == code && got[1] == index, "%s: %s: status {%u, %u}, wanted {%u, %u}",
           api->name, what, got[0], got[1], code, index);
    api->download(k, dk, 32), api->download(v, dv, 32);
    EXPECT(code == ZESORT_SEGMENTS_VALID || (memcmp(k, keys, 32) == 0 && memcmp(v, vals, 32) == 0),
           "%s: %s: arrays changed", api->name, what);
    api->release(dk), api->release(dv), api->release(temp), api->release(st), api->release(da);
    if (de)
        api->release(de);
    if (dc)
        api->release(dc);
}

/* Every code of the status word, the first bad segment reported. */
static void seg_dev_invalids(const interop_segments_api *api)
{
    const uint64_t decreasing[] = {0, 5, 3, 8}, beyond[] = {0, 4, 9}, late[] = {9, 9};
    const uint64_t b[] = {0, 6, 2}, e[] = {2, 4, 5}, eb[] = {3, 9, 5}, fine[] = {0, 4, 8};
    for (int u32 = 0; u32 < 2; u32++) {
        seg_dev_invalid(api, decreasing, NULL, 4, 3, UINT64_MAX, u32, 8,
                        ZESORT_SEGMENTS_DECREASING, 1, "decreasing offsets");
        seg_dev_invalid(api, beyond, NULL, 3, 2, UINT64_MAX, u32, 8, ZESORT_SEGMENTS_PAST_N, 1,
                        "offsets past n");
        seg_dev_invalid(api, late, NULL, 2, 1, UINT64_MAX, u32, 8, ZESORT_SEGMENTS_PAST_N, 0,
                        "offsets[0] past n");
        seg_dev_invalid(api, b, e, 3, 3, UINT64_MAX, u32, 8, ZESORT_SEGMENTS_BEGIN_AFTER_END, 1,
                        "begin > end");
        seg_dev_invalid(api, b, eb, 3, 3, UINT64_MAX, u32, 8, ZESORT_SEGMENTS_PAST_N, 1,
                        "end past n");
        seg_dev_invalid(api, fine, NULL, 3, 2, 3, u32, 8, ZESORT_SEGMENTS_COUNT_OVER_MAX, 3,
                        "device count above max");
        seg_dev_invalid(api, fine, NULL, 3, 2, 2, u32, 8, ZESORT_SEGMENTS_VALID, 0,
                        "device count at max");
        seg_dev_invalid(api, late, NULL, 2, 1, 0, u32, 8, ZESORT_SEGMENTS_VALID, 0,
                        "device count 0: no segment read");
        seg_dev_invalid(api, late, NULL, 2, 1, UINT64_MAX, u32, 0, ZESORT_SEGMENTS_PAST_N, 0,
                        "n 0, a segment past it");
        seg_dev_invalid(api, fine, NULL, 1, 0, UINT64_MAX, u32, 0, ZESORT_SEGMENTS_VALID, 0,
                        "n 0, no segment");
    }
    /* 100 segments over the lanes: bad ones at 40 (past n) and 70 (decreasing) */
    uint64_t many[101];
    for (int i = 0; i <= 100; i++)
        many[i] = i <= 40 ? 0 : i == 71 ? 1 : 9;
    seg_dev_invalid(api, many, NULL, 101, 100, UINT64_MAX, 0, 8, ZESORT_SEGMENTS_PAST_N, 40,
                    "the first of two bad segments");
    many[41] = 8;
    seg_dev_invalid(api, many, NULL, 101, 100, UINT64_MAX, 0, 8, ZESORT_SEGMENTS_PAST_N, 41,
                    "the next bad segment");
}

/* The descriptor's refusals, before anything is recorded: INVALID_ARGUMENT
 * with a message naming what is wrong. Offsets, begins and ends, and the
 * count may share bytes (ends = begins: every segment empty); the status
 * may not share any with the keys. */
static void seg_dev_refusals(const interop_segments_api *api)
{
    const uint64_t off[] = {0, 4, 8};
    zesort_options o;
    zesort_options_default(&o);
    uint64_t tb = 0;
    EXPECT(api->temp_bytes(8, 0, &o, &tb) == ZESORT_OK, "%s: temp bytes", api->name);
    void *keys = api->alloc(32), *temp = api->alloc(tb), *st = api->alloc(8);
    void *offs = seg_dev_offsets(api, off, 3, 0);
    const uint32_t k[8] = {5, 4, 3, 2, 1, 0, 7, 6};
    api->upload(keys, k, sizeof k);
    struct {
        seg_dev d;
        const char *want, *what;
    } c[] = {
        {{0, 0, offs, NULL, NULL, NULL, st, 2, 1, 0}, "segments is NULL", "no descriptor"},
        {{0, 0, offs, NULL, NULL, NULL, st, 2, 0, 7}, "offset_type", "offset_type 7"},
        {{0, 0, offs, offs, offs, NULL, st, 2, 0, 0}, "both", "both forms"},
        {{0, 0, NULL, offs, NULL, NULL, st, 2, 0, 0}, "end_offsets", "begins without ends"},
        {{0, 0, NULL, NULL, NULL, NULL, st, 2, 0, 0}, "offsets", "no offsets"},
        {{0, 0, offs, NULL, NULL, NULL, keys, 2, 0, 0}, "overlap", "status on the keys"},
        {{0, 0, offs, NULL, NULL, NULL, st, UINT32_MAX, 0, 0}, "2^32 - 1", "2^32 - 1 segments"},
    };
    for (size_t i = 0; i < sizeof c / sizeof *c; i++)
        seg_message(api, api->sort_dev(keys, NULL, 8, &c[i].d, NULL, NULL, 0, temp, tb, &o),
                    c[i].want, "\n", c[i].what);
    /* read-only arrays sharing bytes: accepted, every segment empty, keys as they were */
    const seg_dev shared = {0, 0, NULL, offs, offs, offs, st, 2, 0, 0};
    EXPECT(api->sort_dev(keys, NULL, 8, &shared, NULL, NULL, 0, temp, tb, &o) == ZESORT_OK,
           "%s: begins = ends = count: %s", api->name, api->error());
    uint32_t got[8], status[2];
    api->download(got, keys, sizeof got);
    seg_dev_status(api, st, status);
    EXPECT(memcmp(got, k, sizeof k) == 0 && status[0] == 0, "%s: begins = ends: keys changed or "
           "status %u", api->name, status[0]);
    api->release(keys), api->release(temp), api->release(st), api->release(offs);
}

/* Offsets written by a copy recorded just before the sort, through the
 * issue-22 entry point: it must neither check the stale bytes (0xFF,
 * invalid: issue 35's defect was to refuse or accept those at call time)
 * nor wait for the device. Fails before issue 35 on Level Zero (a regular
 * list: the copy has not run when the call checked the offsets). */
static void seg_dev_produced_old(const interop_segments_api *api)
{
    const seg_form old = {0, 0, 0, 1};
    seg_dev_case(api, 1000, PAT_RANDOM, ZESORT_KEY_U32, 4, old);
    seg_dev_case(api, 257, PAT_EDGES, ZESORT_KEY_U64, 0, old);
    printf("%s device segments, old entry point, offsets produced in the list: %d failures\n",
           api->name, failures);
}

/* The device-side segments: sizes 0, 1, 33, 257, primes, ~100k; every
 * pattern (many and few segments, empty ones); both forms, u32 and u64,
 * the count on the device or not, keys only and pairs; the offsets written
 * by a copy just before the sort; then every invalid kind. */
static void interop_segments_device(const interop_segments_api *api)
{
    static const uint64_t sizes[] = {0, 1, 33, 257, 1009, 4099, 100003};
    int k = 0;
    seg_dev_produced_old(api);
    for (unsigned si = 0; si < sizeof sizes / sizeof *sizes; si++)
        for (int pat = 0; pat < PAT_COUNT; pat++, k++) {
            const seg_form f = {k % 2, (k / 2) % 2, (k / 4 + (int)si) % 2, 0};
            const zesort_key_type t = (zesort_key_type)(k % 6);
            seg_dev_case(api, sizes[si], pat, t, (unsigned)(k % 3) * 4, f);
            const seg_form g = {!f.begin_end, !f.u32, !f.dev_count, 0};
            seg_dev_case(api, sizes[si], pat, ZESORT_KEY_U32, 4, g);
        }
    seg_dev_invalids(api);
    seg_dev_refusals(api);
    printf("%s device segments: %d cases, %d failures\n", api->name, 2 * k, failures);
}

/* Issue 35, item 2: every segment size on the device. Segments just below,
 * at and above each class threshold (PAT_CLASSES: short ones a work-group
 * each, longer ones the onesweep passes over their own tiles), power-law
 * lengths from 1 to n/8 (PAT_RAGGED) and one segment of every key
 * (PAT_ONE); S + 1 offsets and begin/end arrays with gaps in any order,
 * u32 and u64 offsets, keys only and pairs, 32- and 64-bit keys, descending
 * and bit ranges (an odd number of 8-bit passes: the copy home of the large
 * segments), against a per-segment stable sort. ZESORT_TEST_QUICK (the
 * sanitizer stage): one size and half the forms. */
static void interop_segments_classes(const interop_segments_api *api)
{
    const int quick = getenv("ZESORT_TEST_QUICK") != NULL;
    const uint64_t sizes[] = {420000, 1000003};
    static const int pats[] = {PAT_CLASSES, PAT_RAGGED, PAT_ONE};
    int k = 0;
    for (unsigned si = 0; si < (quick ? 1u : 2u); si++)
        for (unsigned pi = 0; pi < 3; pi++)
            for (int form = 0; form < 4; form += quick ? 2 : 1, k++) {
                const zesort_key_type t = (zesort_key_type)((k + (int)pi) % 6);
                const unsigned bits = oracle_key_bytes(t) * 8, vb = (unsigned)(k % 3) * 4;
                const seg_form f = {form & 1, (form >> 1) & 1, k % 3 == 1, 0};
                /* a range of 3 (or 7) bytes: an odd number of passes */
                const int narrow = k % 2 == 1;
                seg_dev_case_order(api, sizes[si], pats[pi], t, vb, f, k % 4 == 2, narrow ? 4 : 0,
                                   narrow ? bits - 4 : bits);
            }
    printf("%s segment classes: %d cases, %d failures\n", api->name, k, failures);
}

#endif
