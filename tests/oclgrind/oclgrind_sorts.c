/*
 * oclgrind_sorts.c — sorts that run every OpenCL kernel program of the
 * library on Oclgrind (an OpenCL device simulator that reports data races,
 * reads of uninitialised memory and out-of-bounds accesses; run_group.py
 * starts this program under it, a process per case, and fails on any
 * report). Each sort is also checked against a stable sort on the host.
 *
 *   oclgrind_sorts GROUP             lists the cases of GROUP, one a line
 *   oclgrind_sorts GROUP CASE|all    runs one case, or all of them
 *
 * GROUP: cm | scan | onesweep | argsort | segments | segdev | topk | narrow
 * (make_cases says what each sorts). The flavor is ZESORT_FLAVOR's (serial or portable; the
 * context must run it). Linked with the `retuned` library
 * (tests/unit/meson.build): small CM chunks, onesweep tiles and segment
 * windows, so that a few thousand keys span several work-groups and every
 * onesweep tile looks back at others. Most sorts take a bit range of two or
 * three digits, so that a sort is two or three passes (the first pass's read
 * and the last pass's write, where keys are mapped to and from their
 * unsigned order, are both there) at a fraction of the simulator's time; one
 * sort per algorithm takes every bit.
 *
 * Exit status 0 when every sort is right, 1 otherwise (one line per failure
 * on stderr), 2 for usage errors.
 */
#define CL_TARGET_OPENCL_VERSION 120 /* clCreateCommandQueue */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zesort.h"
#include "zesort_cl.h" /* segdev: the OpenCL interop's device-side segments */
#include "zesort_tuning.h" /* kernels/: the retuned sizes, as the library sees them */

/* A test hook of the library (src/common/test_hooks.c, not exported by the shared
 * library, present in the static retuned one): extra -D options for the
 * OpenCL programs that contexts created afterwards build. OS_FORCE_RECOUNT=1
 * makes every onesweep tile find its predecessors unpublished, so each tile
 * walks back to tile 0 and recounts them all: the look-back's fallback, which
 * a simulator that runs work-groups one after another never takes. */
void zs_opencl_test_defines(const char *defines);
/* Another: the top-k candidates' slack (plan/plan_topk.h); 1 makes the
 * select run (sel_* kernels, several passes, the tie cut) at small n. */
void zs_test_topk_slack(uint64_t keys);

static int failures;
static int serial;          /* serial flavor (else portable) */
static zesort_context *ctx;

#define FAIL(...)                                                                              \
    do {                                                                                       \
        fprintf(stderr, "FAIL: " __VA_ARGS__);                                                 \
        fputc('\n', stderr);                                                                   \
        ++failures;                                                                            \
    } while (0)

/* ---- keys and the host's stable sort ------------------------------------ */

static uint64_t rng_state;
static uint64_t rnd(void)
{
    /* splitmix64 */
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* u32 i32 f32 u64 i64 f64, then the narrow u8 i8 u16 i16 f16 bf16 */
static int key_bytes(zesort_key_type t)
{
    static const unsigned char bytes[] = {4, 4, 4, 8, 8, 8, 1, 1, 2, 2, 2, 2};
    return bytes[t];
}

static uint64_t get_key(const void *keys, zesort_key_type t, uint64_t i)
{
    uint64_t k = 0;
    memcpy(&k, (const char *)keys + i * (uint64_t)key_bytes(t), (size_t)key_bytes(t)); /* LE */
    return k;
}

/* The key's bits mapped to an unsigned order (zesort.h: sign bit flipped,
 * every bit of a negative float flipped), then to its bits [lo, hi), then
 * complemented for a descending sort. */
static uint64_t sort_key(uint64_t k, const zesort_options *o)
{
    const int w = key_bytes(o->key_type) * 8;
    const uint64_t sign = 1ull << (w - 1), all = w == 64 ? ~0ull : (1ull << w) - 1;
    switch (o->key_type) {
    case ZESORT_KEY_I32: case ZESORT_KEY_I64: case ZESORT_KEY_I8: case ZESORT_KEY_I16:
        k ^= sign;
        break;
    case ZESORT_KEY_F32: case ZESORT_KEY_F64: case ZESORT_KEY_F16: case ZESORT_KEY_BF16:
        k = (k & sign) ? (~k & all) : (k ^ sign);
        break;
    default: break;
    }
    const unsigned hi = o->bit_hi ? o->bit_hi : (unsigned)w;
    const unsigned span = hi - o->bit_lo;
    k = (k >> o->bit_lo) & (span == 64 ? ~0ull : (1ull << span) - 1);
    return o->descending ? ~k : k;
}

static uint64_t *g_sk; /* sort keys of the merge below */

static void merge_sort(uint64_t *idx, uint64_t *tmp, uint64_t n)
{
    if (n < 2)
        return;
    const uint64_t h = n / 2;
    merge_sort(idx, tmp, h);
    merge_sort(idx + h, tmp, n - h);
    uint64_t a = 0, b = h, o = 0;
    while (a < h && b < n)
        tmp[o++] = g_sk[idx[b]] < g_sk[idx[a]] ? idx[b++] : idx[a++]; /* stable */
    while (a < h)
        tmp[o++] = idx[a++];
    while (b < n)
        tmp[o++] = idx[b++];
    memcpy(idx, tmp, n * sizeof *idx);
}

/* perm[i]: the input position (within [lo, hi)) of the i-th key of the
 * stable sort of keys[lo, hi) by o. */
static void stable_perm(const void *keys, uint64_t lo, uint64_t hi, const zesort_options *o,
                        uint64_t *perm)
{
    const uint64_t n = hi - lo;
    uint64_t *tmp = malloc((n + 1) * sizeof *tmp);
    g_sk = malloc((n + 1) * sizeof *g_sk);
    for (uint64_t i = 0; i < n; ++i) {
        perm[i] = i;
        g_sk[i] = sort_key(get_key(keys, o->key_type, lo + i), o);
    }
    merge_sort(perm, tmp, n);
    free(tmp);
    free(g_sk);
    g_sk = NULL;
}

/* n random keys of width w: uniform bits, or (few) few distinct values, so
 * that equal keys show whether a sort is stable. */
static void *make_keys(zesort_key_type t, uint64_t n, int few)
{
    const int b = key_bytes(t);
    void *k = malloc(n * (size_t)b + 8);
    for (uint64_t i = 0; i < n; ++i) {
        uint64_t v = rnd();
        if (few)
            v &= 0xC003C003C003C003ull; /* 8 bits set across every digit */
        memcpy((char *)k + i * (uint64_t)b, &v, (size_t)b); /* the low bytes: LE */
    }
    return k;
}

static void *make_values(int vbytes, uint64_t n)
{
    void *v = malloc(n * (size_t)vbytes + 8);
    for (uint64_t i = 0; i < n; ++i) {
        if (vbytes == 8)
            ((uint64_t *)v)[i] = (i << 32) | 0x5A5Au; /* the high word moves too */
        else
            ((uint32_t *)v)[i] = (uint32_t)i;
    }
    return v;
}

static uint64_t get_value(const void *v, int vbytes, uint64_t i)
{
    return vbytes == 8 ? ((const uint64_t *)v)[i] : ((const uint32_t *)v)[i];
}

/* ---- the cases ---------------------------------------------------------- */

typedef enum { V_NONE, V_PAIRS, V_COPY, V_ARGSORT, V_ARGSORT_KEYS_OUT } vmode;

typedef struct {
    const char *name;
    zesort_algo algo;
    zesort_key_type type;
    zesort_value_type vtype;
    vmode mode;
    uint64_t n;
    unsigned bit_lo, bit_hi; /* 0, 0: every bit */
    int descending, few;
} sort_case;

static void options_of(const sort_case *c, zesort_options *o)
{
    zesort_options_default(o);
    o->algo = c->algo;
    o->key_type = c->type;
    o->value_type = c->vtype;
    o->bit_lo = c->bit_lo;
    o->bit_hi = c->bit_hi;
    o->descending = c->descending;
}

static void run_sort(const sort_case *c)
{
    zesort_options o;
    options_of(c, &o);
    const uint64_t n = c->n;
    const int kb = key_bytes(c->type), vb = c->vtype == ZESORT_VALUE_U64 ? 8 : 4;
    void *in = make_keys(c->type, n, c->few);
    uint64_t *perm = malloc((n + 1) * sizeof *perm);
    stable_perm(in, 0, n, &o, perm);

    void *keys = malloc(n * (size_t)kb + 8), *vals = NULL, *vals_in = NULL;
    zesort_status st;
    switch (c->mode) {
    case V_NONE:
    case V_PAIRS:
        memcpy(keys, in, n * (size_t)kb);
        if (c->mode == V_PAIRS)
            vals = make_values(vb, n);
        st = zesort_sort(ctx, keys, vals, n, &o);
        break;
    case V_COPY:
        vals_in = make_values(vb, n);
        vals = malloc(n * (size_t)vb + 8);
        st = zesort_sort_copy(ctx, in, vals_in, keys, vals, n, &o);
        break;
    default: /* argsort */
        vals = malloc(n * (size_t)vb + 8);
        st = zesort_argsort(ctx, in, vals, c->mode == V_ARGSORT_KEYS_OUT ? keys : NULL, n, &o);
        break;
    }
    printf("%-28s n=%-6llu %s\n", c->name, (unsigned long long)n,
           st == ZESORT_OK ? "sorted" : "error");
    fflush(stdout);
    if (st != ZESORT_OK) {
        FAIL("%s: %s", c->name, zesort_last_error(ctx));
    } else {
        const int check_keys = c->mode != V_ARGSORT;
        for (uint64_t i = 0; i < n; ++i) {
            if (check_keys && memcmp((char *)keys + i * kb, (char *)in + perm[i] * kb, kb) != 0) {
                FAIL("%s: key %llu is 0x%llx, the stable sort's 0x%llx", c->name,
                     (unsigned long long)i, (unsigned long long)get_key(keys, c->type, i),
                     (unsigned long long)get_key(in, c->type, perm[i]));
                break;
            }
            if (c->mode == V_NONE)
                continue;
            /* pairs and copies: the value of input position perm[i] (its index or
             * (index << 32) | 0x5A5A); argsort: the index itself */
            const uint64_t want = c->mode >= V_ARGSORT ? perm[i]
                                  : vb == 8          ? (perm[i] << 32) | 0x5A5Au
                                                     : perm[i];
            if (get_value(vals, vb, i) != want) {
                FAIL("%s: value %llu is %llu, the stable sort's %llu", c->name,
                     (unsigned long long)i, (unsigned long long)get_value(vals, vb, i),
                     (unsigned long long)want);
                break;
            }
        }
    }
    free(in);
    free(perm);
    free(keys);
    free(vals);
    free(vals_in);
}

/* Segments of keys[0, n): lengths 0, 1, at and around the serial flavor's
 * insertion-sort and local-memory limits, a window's length and more (a
 * segment that starts in one window and runs through the next), then a
 * tail of keys in no segment, which must stay as they are. */
static void run_segments(const char *name, zesort_key_type type, int pairs, zesort_value_type vt,
                         int descending, unsigned bit_lo, unsigned bit_hi)
{
    const uint64_t window = ZS_SEG_WINDOW(serial);
    const uint64_t lens[] = {0, 1, 2, ZS_SEG_INSERTION, ZS_SEG_INSERTION + 1u, 0, 31, 33,
                             ZS_SEG_LOCAL_SERIAL, ZS_SEG_LOCAL_SERIAL + 1u, 200,
                             window - 3u, 5, window + 300u, 3, 77, 0, 130};
    const uint64_t count = sizeof lens / sizeof lens[0];
    uint64_t offsets[sizeof lens / sizeof lens[0] + 1];
    offsets[0] = 3; /* three keys before the first segment: untouched */
    for (uint64_t s = 0; s < count; ++s)
        offsets[s + 1] = offsets[s] + lens[s];
    const uint64_t n = offsets[count] + 11;

    sort_case c = {name, ZESORT_ALGO_AUTO, type, vt, pairs ? V_PAIRS : V_NONE, n, bit_lo, bit_hi,
                   descending, 1};
    zesort_options o;
    options_of(&c, &o);
    const int kb = key_bytes(type), vb = vt == ZESORT_VALUE_U64 ? 8 : 4;
    void *in = make_keys(type, n, 1), *keys = malloc(n * (size_t)kb);
    memcpy(keys, in, n * (size_t)kb);
    void *vals = pairs ? make_values(vb, n) : NULL;
    const zesort_status st = zesort_sort_segments(ctx, keys, vals, n, offsets, count, &o);
    printf("%-28s n=%-6llu %s\n", name, (unsigned long long)n,
           st == ZESORT_OK ? "sorted" : "error");
    fflush(stdout);
    if (st != ZESORT_OK) {
        FAIL("%s: %s", name, zesort_last_error(ctx));
    } else {
        uint64_t *perm = malloc((n + 1) * sizeof *perm);
        for (uint64_t i = 0; i < n; ++i)
            perm[i] = i; /* outside the segments: where they were */
        for (uint64_t s = 0; s < count; ++s) {
            stable_perm(in, offsets[s], offsets[s + 1], &o, perm + offsets[s]);
            for (uint64_t i = offsets[s]; i < offsets[s + 1]; ++i)
                perm[i] += offsets[s];
        }
        for (uint64_t i = 0; i < n; ++i) {
            if (memcmp((char *)keys + i * kb, (char *)in + perm[i] * kb, kb) != 0) {
                FAIL("%s: key %llu differs from the stable sort's", name,
                     (unsigned long long)i);
                break;
            }
            const uint64_t want = vb == 8 ? (perm[i] << 32) | 0x5A5Au : perm[i];
            if (pairs && get_value(vals, vb, i) != want) {
                FAIL("%s: value %llu differs from the stable sort's", name,
                     (unsigned long long)i);
                break;
            }
        }
        free(perm);
    }
    free(in);
    free(keys);
    free(vals);
}

/* ---- segdev: segments that only the device reads (seg_check, seg_sort_ranges,
 * seg_classify and the large segments' os_seg_histogram, os_seg_pass, os_seg_copy) */

/* sort_case.few of a K_SEGDEV case: the form of its segments */
/* SD_SMALL: the first seven segments alone, few enough keys for the one
 * launch of a small sort (seg_sort_ranges checking them itself) */
enum { SD_BEGIN_END = 1, SD_U32 = 2, SD_COUNT = 4, SD_INVALID = 8, SD_SMALL = 16 };

static cl_mem cl_upload(cl_context c, cl_command_queue q, const void *src, size_t bytes)
{
    cl_int err;
    cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (m && src)
        err = clEnqueueWriteBuffer(q, m, CL_TRUE, 0, bytes, src, 0, NULL, NULL);
    if (!m || err != CL_SUCCESS) {
        fprintf(stderr, "FAIL: a buffer of %zu bytes: %d\n", bytes, (int)err);
        exit(1);
    }
    return m;
}

static cl_mem cl_offsets(cl_context c, cl_command_queue q, const uint64_t *v, uint64_t count,
                         int u32)
{
    char packed[64 * 8];
    for (uint64_t i = 0; i < count; ++i) {
        const uint32_t x = (uint32_t)v[i];
        memcpy(packed + i * (u32 ? 4 : 8), u32 ? (const void *)&x : (const void *)&v[i],
               u32 ? 4 : 8);
    }
    return cl_upload(c, q, packed, (size_t)(count ? count : 1) * (u32 ? 4 : 8));
}

/* run_segments's segments through zesort_cl_enqueue_sort_segmented on the
 * context's own OpenCL handles, in the form `form` (SD_*): begin/end
 * arrays lose every third segment and come shuffled; SD_INVALID makes
 * segment 5 bad, which must leave every key as it was. */
static void run_segdev(const sort_case *c, int form)
{
    const uint64_t window = ZS_SEG_WINDOW(serial);
    const uint64_t lens[] = {0, 1, 2, ZS_SEG_INSERTION, ZS_SEG_INSERTION + 1u, 0, 31, 33,
                             ZS_SEG_LOCAL_SERIAL, ZS_SEG_LOCAL_SERIAL + 1u, 200,
                             window - 3u, 5, window + 300u, 3, 77, 0, 130,
                             /* issue 35: large segments (above the retuned threshold),
                              * onesweep passes over their tiles (os_seg_*) */
                             ZS_SEG_LARGE_MIN(serial) + 1u, 9, 2u * ZS_SEG_LARGE_MIN(serial) + 5u};
    const uint64_t count = form & SD_SMALL ? 7 : sizeof lens / sizeof lens[0];
    uint64_t off[sizeof lens / sizeof lens[0] + 1], b[sizeof lens / sizeof lens[0]],
        e[sizeof lens / sizeof lens[0]], kept = 0;
    off[0] = 3;
    for (uint64_t s = 0; s < count; ++s)
        off[s + 1] = off[s] + lens[s];
    const uint64_t n = off[count] + 11;
    for (uint64_t s = 0; s < count; ++s)
        if (!(form & SD_BEGIN_END) || s % 3 != 1)
            b[kept] = off[s], e[kept++] = off[s + 1];
    for (uint64_t i = kept; (form & SD_BEGIN_END) && i > 1; --i) {
        const uint64_t j = rnd() % i, tb = b[i - 1], te = e[i - 1];
        b[i - 1] = b[j], e[i - 1] = e[j], b[j] = tb, e[j] = te;
    }
    /* segment 5 (SD_SMALL: 3) made bad: begin after end, or offsets decreasing there */
    const uint64_t bad_at = form & SD_SMALL ? 3 : 5;
    if (form & SD_INVALID) {
        if (form & SD_BEGIN_END)
            b[bad_at] = e[bad_at] + 1;
        else
            off[bad_at + 1] = off[bad_at] - 1;
    }
    zesort_options o;
    options_of(c, &o);
    const int kb = key_bytes(c->type), vb = c->vtype == ZESORT_VALUE_U64 ? 8 : 4;
    const int pairs = c->mode == V_PAIRS, u32 = (form & SD_U32) != 0;
    void *in = make_keys(c->type, n, 1), *keys = malloc(n * (size_t)kb);
    void *vals = pairs ? make_values(vb, n) : NULL, *vals_in = NULL;
    if (pairs) {
        vals_in = malloc(n * (size_t)vb);
        memcpy(vals_in, vals, n * (size_t)vb);
    }
    cl_context cc;
    cl_device_id dev;
    zesort_cl_sorter *sorter = NULL;
    cl_int err;
    if (zesort_cl_context_handles(ctx, &cc, &dev) != ZESORT_OK ||
        zesort_cl_create(cc, dev, &sorter) != ZESORT_OK) {
        FAIL("%s: no OpenCL sorter", c->name);
        return;
    }
    cl_command_queue q = clCreateCommandQueue(cc, dev, 0, &err);
    uint64_t tb = 0;
    zesort_cl_temp_bytes(sorter, n, pairs, &o, &tb);
    cl_mem dk = cl_upload(cc, q, in, n * (size_t)kb), temp = cl_upload(cc, q, NULL, tb);
    cl_mem dv = pairs ? cl_upload(cc, q, vals, n * (size_t)vb) : NULL;
    cl_mem first = cl_offsets(cc, q, form & SD_BEGIN_END ? b : off,
                              form & SD_BEGIN_END ? kept : count + 1, u32);
    cl_mem ends = form & SD_BEGIN_END ? cl_offsets(cc, q, e, kept, u32) : NULL;
    const uint32_t nseg = (uint32_t)kept;
    cl_mem dc = form & SD_COUNT ? cl_upload(cc, q, &nseg, 4) : NULL;
    cl_mem status = cl_upload(cc, q, NULL, 8);
    const zesort_cl_segments seg = {u32 ? ZESORT_OFFSET_U32 : ZESORT_OFFSET_U64,
                                    form & SD_BEGIN_END ? NULL : first,
                                    form & SD_BEGIN_END ? first : NULL, ends, kept, dc, status};
    cl_event ev = NULL;
    zesort_status st = zesort_cl_enqueue_sort_segmented(sorter, q, dk, dv, n, &seg, temp, tb, &o,
                                                        0, NULL, &ev);
    uint32_t got[2] = {~0u, ~0u};
    if (st == ZESORT_OK) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
        clEnqueueReadBuffer(q, dk, CL_TRUE, 0, n * (size_t)kb, keys, 0, NULL, NULL);
        if (pairs)
            clEnqueueReadBuffer(q, dv, CL_TRUE, 0, n * (size_t)vb, vals, 0, NULL, NULL);
        clEnqueueReadBuffer(q, status, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);
    }
    printf("%-28s n=%-6llu %s, status %u %u\n", c->name, (unsigned long long)n,
           st == ZESORT_OK ? "sorted" : "error", got[0], got[1]);
    fflush(stdout);
    const uint32_t want_code = !(form & SD_INVALID)   ? ZESORT_SEGMENTS_VALID
                               : form & SD_BEGIN_END ? ZESORT_SEGMENTS_BEGIN_AFTER_END
                                                     : ZESORT_SEGMENTS_DECREASING;
    if (st != ZESORT_OK)
        FAIL("%s: %s", c->name, zesort_cl_last_error(sorter));
    else if (got[0] != want_code || got[1] != (form & SD_INVALID ? bad_at : 0u))
        FAIL("%s: status %u %u, wanted %u", c->name, got[0], got[1], want_code);
    uint64_t *perm = malloc((n + 1) * sizeof *perm);
    for (uint64_t i = 0; i < n; ++i)
        perm[i] = i; /* outside the segments, or all when invalid: where they were */
    for (uint64_t s = 0; !(form & SD_INVALID) && s < kept; ++s) {
        stable_perm(in, b[s], e[s], &o, perm + b[s]);
        for (uint64_t i = b[s]; i < e[s]; ++i)
            perm[i] += b[s];
    }
    for (uint64_t i = 0; st == ZESORT_OK && i < n; ++i) {
        const uint64_t want = vb == 8 ? (perm[i] << 32) | 0x5A5Au : perm[i];
        if (memcmp((char *)keys + i * kb, (char *)in + perm[i] * kb, kb) != 0 ||
            (pairs && get_value(vals, vb, i) != want)) {
            FAIL("%s: element %llu differs from the stable sort's", c->name,
                 (unsigned long long)i);
            break;
        }
    }
    free(perm), free(in), free(keys), free(vals), free(vals_in);
    clReleaseMemObject(dk), clReleaseMemObject(temp), clReleaseMemObject(first);
    clReleaseMemObject(status);
    if (dv)
        clReleaseMemObject(dv);
    if (ends)
        clReleaseMemObject(ends);
    if (dc)
        clReleaseMemObject(dc);
    clReleaseCommandQueue(q);
    zesort_cl_destroy(sorter);
}

static void open_context(void)
{
    if (zesort_create(ZESORT_BACKEND_OPENCL, &ctx) != ZESORT_OK) {
        fprintf(stderr, "FAIL: no OpenCL context: %s\n", zesort_last_error(NULL));
        exit(1);
    }
    /* under the oclgrind launcher (it sets OCLGRIND_* for its runtime), the
     * device must be Oclgrind's: a sort on any other device checks nothing */
    char name[256] = "";
    if (getenv("OCLGRIND_DATA_RACES") &&
        (zesort_device_name(ZESORT_BACKEND_OPENCL, 0, name, sizeof name) != ZESORT_OK ||
         !strstr(name, "Oclgrind"))) {
        fprintf(stderr, "FAIL: the OpenCL device is \"%s\", not Oclgrind's\n", name);
        exit(1);
    }
    const char *want = getenv("ZESORT_FLAVOR");
    if (!want || strcmp(zesort_context_flavor(ctx), want) != 0) {
        fprintf(stderr, "FAIL: the context runs the %s flavor, ZESORT_FLAVOR is %s\n",
                zesort_context_flavor(ctx), want ? want : "unset");
        exit(1);
    }
}

#define U32 ZESORT_KEY_U32
#define I32 ZESORT_KEY_I32
#define F32 ZESORT_KEY_F32
#define U64 ZESORT_KEY_U64
#define I64 ZESORT_KEY_I64
#define F64 ZESORT_KEY_F64
#define U8 ZESORT_KEY_U8
#define I8 ZESORT_KEY_I8
#define U16 ZESORT_KEY_U16
#define I16 ZESORT_KEY_I16
#define F16 ZESORT_KEY_F16
#define BF16 ZESORT_KEY_BF16
#define VU32 ZESORT_VALUE_U32
#define VU64 ZESORT_VALUE_U64
#define CM2 ZESORT_ALGO_CM2
#define CM4 ZESORT_ALGO_CM4
#define OS ZESORT_ALGO_ONESWEEP
#define SMALL ZESORT_ALGO_SMALL

typedef enum { K_SORT, K_HOST_SCAN, K_RECOUNT, K_SEGMENTS, K_SEGDEV, K_TOPK } case_kind;

typedef struct {
    const char *group;
    case_kind kind;
    sort_case c; /* K_SEGMENTS: type, vtype, mode (V_NONE or V_PAIRS), bits, descending;
                    K_SEGDEV too, and in `few` the form (SD_*) */
} entry;

#define MAX_CASES 64

/* narrow: keys of 8 and 16 bits (issue 37), read and written at their width
 * by the 32-bit programs: every algorithm and the segmented sort, keys only,
 * pairs, argsort and copy, ascending and descending, every bit or a range. */
static size_t make_narrow_cases(entry *e, uint64_t cm_n, uint64_t os_n, uint64_t os_wide_n)
{
    size_t k = 0;
    e[k++] = (entry){"narrow", K_SORT, {"cm2.u8.keys.allbits", CM2, U8, VU32, V_NONE, cm_n, 0, 0,
                                        0, 0}};
    e[k++] = (entry){"narrow", K_SORT, {"cm4.f16.pairs.desc", CM4, F16, VU32, V_PAIRS, cm_n, 4, 12,
                                        1, 1}};
    e[k++] = (entry){"narrow", K_SORT, {"os.i8.keys.allbits", OS, I8, VU32, V_NONE, os_n, 0, 0, 1,
                                        1}};
    e[k++] = (entry){"narrow", K_SORT, {"os.bf16.pairs64.copy", OS, BF16, VU64, V_COPY, os_wide_n,
                                        0, 0, 0, 0}};
    e[k++] = (entry){"narrow", K_SORT, {"os.i16.argsort.keysout", OS, I16, VU32,
                                        V_ARGSORT_KEYS_OUT, os_wide_n, 4, 0, 1, 1}};
    e[k++] = (entry){"narrow", K_RECOUNT, {"os.u16.keys.recount", OS, U16, VU32, V_NONE, os_n, 0,
                                           0, 0, 1}};
    e[k++] = (entry){"narrow", K_SEGMENTS, {"seg.u8.keys", 0, U8, VU32, V_NONE, 0, 0, 0, 0, 1}};
    e[k++] = (entry){"narrow", K_SEGMENTS, {"seg.f16.pairs.desc", 0, F16, VU32, V_PAIRS, 0, 2, 14,
                                            1, 1}};
    e[k++] = (entry){"narrow", K_SEGDEV, {"segdev.i16.pairs.begin_end32", 0, I16, VU32, V_PAIRS,
                                          0, 0, 0, 0, SD_BEGIN_END | SD_U32}};
    return k;
}

/* small: the one work-group of small_sort at its limit (retuned: a few
 * hundred keys; serial, ZS_SEG_LOCAL_SERIAL) for keys, pairs, copy and
 * argsort of 8- to 64-bit keys, a top-k (small_sort writing the first k),
 * and device-side segments checked and sorted by one seg_sort_ranges. */
static size_t make_small_cases(entry *e)
{
    const uint64_t n = ZS_SMALL_MAX(serial, 0), wide = ZS_SMALL_MAX(serial, 1);
    size_t k = 0;
    e[k++] = (entry){"small", K_SORT, {"small.u32.keys", SMALL, U32, VU32, V_NONE, n, 0, 0, 0, 0}};
    e[k++] = (entry){"small", K_SORT, {"small.u8.keys.desc.few", SMALL, U8, VU32, V_NONE, n - 1,
                                       0, 0, 1, 1}};
    e[k++] = (entry){"small", K_SORT, {"small.i64.pairs64.desc", SMALL, I64, VU64, V_PAIRS, wide,
                                       4, 60, 1, 0}};
    e[k++] = (entry){"small", K_SORT, {"small.f16.pairs.copy", SMALL, F16, VU32, V_COPY, wide - 3,
                                       0, 0, 0, 1}};
    e[k++] = (entry){"small", K_SORT, {"small.f32.argsort.keysout", SMALL, F32, VU32,
                                       V_ARGSORT_KEYS_OUT, wide, 0, 0, 0, 1}};
    e[k++] = (entry){"small", K_SORT, {"small.u64.argsort64", SMALL, U64, VU64, V_ARGSORT, 33, 0,
                                       0, 1, 0}};
    e[k++] = (entry){"small", K_TOPK, {"small.topk.f32.pairs", SMALL, F32, VU32, V_PAIRS, wide,
                                       0, 0, 0, 1}};
    e[k++] = (entry){"small", K_SEGDEV, {"small.segdev.u32.pairs.offsets32", 0, U32, VU32,
                                         V_PAIRS, 0, 0, 0, 0, SD_SMALL | SD_U32}};
    e[k++] = (entry){"small", K_SEGDEV, {"small.segdev.i64.keys.invalid.begin_end", 0, I64, VU32,
                                         V_NONE, 0, 0, 0, 1, SD_SMALL | SD_INVALID | SD_BEGIN_END}};
    return k;
}

/* Every case of every group, sized for the flavor. */
static size_t make_cases(entry *e)
{
    size_t k = 0;
    /* CM: chunks of ZS_CHUNK_KEYS keys, one work-group each (portable: three
     * work-groups and a part) or ZS_LANES chunks per work-group (serial: one
     * work-group and a part, 33 chunks: its count table, 16 bins a chunk for
     * cm4, is more than one block of the device scan) */
    const uint64_t cm_n = serial ? ZS_CHUNK_KEYS * ZS_LANES + 77 : 3 * ZS_CHUNK_KEYS + 77;
    /* onesweep: six tiles and a part, of one work-group each (portable) or
     * one work-item (serial); wide: 64-bit keys or pairs */
    const uint64_t tiles = 6;
    const uint64_t os_n = tiles * ZS_OS_TILE(serial, 0) + 5;
    const uint64_t os_wide_n = tiles * ZS_OS_TILE(serial, 1) + 5;

    /* cm: the 12 CM programs (cm2, cm4 x 32-, 64-bit keys x keys, u32 values,
     * u64 values), device scan; cm4's u32 keys take every bit (8 passes) */
    const zesort_algo cms[] = {CM2, CM4};
    const char *names[2][6] = {
        {"cm2.u32.keys", "cm2.i32.pairs.desc", "cm2.f32.pairs64", "cm2.i64.keys",
         "cm2.f64.pairs.desc", "cm2.u64.pairs64"},
        {"cm4.u32.keys.allbits", "cm4.i32.pairs.desc", "cm4.f32.pairs64", "cm4.i64.keys",
         "cm4.f64.pairs.desc", "cm4.u64.pairs64"}};
    for (int a = 0; a < 2; ++a) {
        const zesort_algo al = cms[a];
        const unsigned d = al == CM2 ? 2u : 4u; /* digit bits: two passes take 2 * d */
        const char **nm = names[a];
        e[k++] = (entry){"cm", K_SORT, {nm[0], al, U32, VU32, V_NONE, cm_n, al == CM2 ? 28 : 0,
                                        0, 0, 0}};
        e[k++] = (entry){"cm", K_SORT, {nm[1], al, I32, VU32, V_PAIRS, cm_n, 32 - 2 * d, 0, 1,
                                        1}};
        e[k++] = (entry){"cm", K_SORT, {nm[2], al, F32, VU64, V_PAIRS, cm_n, 8, 8 + 2 * d, 0,
                                        0}};
        e[k++] = (entry){"cm", K_SORT, {nm[3], al, I64, VU32, V_NONE, cm_n, 64 - 2 * d, 0, 0,
                                        0}};
        e[k++] = (entry){"cm", K_SORT, {nm[4], al, F64, VU32, V_PAIRS, cm_n, 32 - d, 32 + d, 1,
                                        1}};
        e[k++] = (entry){"cm", K_SORT, {nm[5], al, U64, VU64, V_PAIRS, cm_n, 3, 3 + 2 * d, 0,
                                        1}};
    }
    /* scan: the device scan over more than one block of ZS_SCAN_BLOCK count-
     * table entries (cm4: 16 a chunk; one pass), and the host scan */
    const uint64_t scan_n = (ZS_SCAN_BLOCK / 16u + 2u) * ZS_CHUNK_KEYS - 100u;
    e[k++] = (entry){"scan", K_SORT, {"cm4.u32.scanblocks", CM4, U32, VU32, V_NONE, scan_n, 0, 4,
                                      0, 0}};
    e[k++] = (entry){"scan", K_HOST_SCAN, {"cm2.u32.hostscan", CM2, U32, VU32, V_PAIRS, cm_n, 0,
                                           4, 0, 1}};
    /* onesweep: the 6 onesweep programs (32-, 64-bit keys x keys, u32 values,
     * u64 values); u32 keys take every bit (4 passes); out of place (copy)
     * too; then the look-back's fallback, every tile recounting every
     * predecessor (K_RECOUNT) */
    e[k++] = (entry){"onesweep", K_SORT, {"os.u32.keys.allbits", OS, U32, VU32, V_NONE, os_n, 0,
                                          0, 0, 0}};
    e[k++] = (entry){"onesweep", K_SORT, {"os.f32.keys.desc", OS, F32, VU32, V_NONE, os_n, 16, 0,
                                          1, 1}};
    e[k++] = (entry){"onesweep", K_SORT, {"os.i32.pairs", OS, I32, VU32, V_PAIRS, os_wide_n, 16,
                                          0, 0, 1}};
    e[k++] = (entry){"onesweep", K_SORT, {"os.u32.pairs64.copy", OS, U32, VU64, V_COPY,
                                          os_wide_n, 8, 24, 0, 0}};
    e[k++] = (entry){"onesweep", K_SORT, {"os.u64.keys", OS, U64, VU32, V_NONE, os_wide_n, 24,
                                          40, 0, 0}};
    e[k++] = (entry){"onesweep", K_SORT, {"os.f64.keys.desc", OS, F64, VU32, V_NONE, os_wide_n,
                                          48, 0, 1, 1}};
    e[k++] = (entry){"onesweep", K_SORT, {"os.i64.pairs", OS, I64, VU32, V_PAIRS, os_wide_n, 48,
                                          0, 0, 1}};
    e[k++] = (entry){"onesweep", K_SORT, {"os.u64.pairs64.copy", OS, U64, VU64, V_COPY,
                                          os_wide_n, 28, 44, 1, 1}};
    e[k++] = (entry){"onesweep", K_RECOUNT, {"os.u32.pairs.recount", OS, U32, VU32, V_PAIRS,
                                             os_wide_n, 0, 16, 0, 1}};
    e[k++] = (entry){"onesweep", K_RECOUNT, {"os.u64.keys.recount", OS, U64, VU32, V_NONE,
                                             os_wide_n, 40, 56, 1, 1}};
    /* argsort: indices made by the first pass (u32, u64), with and without
     * the sorted keys, on each algorithm */
    e[k++] = (entry){"argsort", K_SORT, {"os.u32.argsort", OS, U32, VU32, V_ARGSORT, os_wide_n,
                                         16, 0, 0, 1}};
    e[k++] = (entry){"argsort", K_SORT, {"os.f64.argsort64.keysout", OS, F64, VU64,
                                         V_ARGSORT_KEYS_OUT, os_wide_n, 48, 0, 1, 0}};
    e[k++] = (entry){"argsort", K_SORT, {"cm4.i32.argsort.keysout", CM4, I32, VU32,
                                         V_ARGSORT_KEYS_OUT, cm_n, 24, 0, 0, 1}};
    e[k++] = (entry){"argsort", K_SORT, {"cm2.u64.argsort64", CM2, U64, VU64, V_ARGSORT, cm_n,
                                         60, 0, 1, 1}};
    /* segments: the 6 seg_sort programs (32-, 64-bit keys x keys, u32 values,
     * u64 values); u32 keys take every bit (8 passes of 4 bits, portable) */
    e[k++] = (entry){"segments", K_SEGMENTS, {"seg.u32.keys", 0, U32, VU32, V_NONE, 0, 0, 0, 0,
                                              1}};
    e[k++] = (entry){"segments", K_SEGMENTS, {"seg.i32.pairs.desc", 0, I32, VU32, V_PAIRS, 0, 20,
                                              0, 1, 1}};
    e[k++] = (entry){"segments", K_SEGMENTS, {"seg.f32.pairs64", 0, F32, VU64, V_PAIRS, 0, 8, 24,
                                              0, 1}};
    e[k++] = (entry){"segments", K_SEGMENTS, {"seg.u64.keys", 0, U64, VU32, V_NONE, 0, 20, 44, 0,
                                              1}};
    e[k++] = (entry){"segments", K_SEGMENTS, {"seg.f64.pairs.desc", 0, F64, VU32, V_PAIRS, 0, 52,
                                              0, 1, 1}};
    e[k++] = (entry){"segments", K_SEGMENTS, {"seg.i64.pairs64", 0, I64, VU64, V_PAIRS, 0, 28, 40,
                                              0, 1}};
    /* segdev: seg_check and seg_sort_ranges of 32- and 64-bit keys, keys only
     * and pairs, each form of the segments, and invalid ones of each form */
    e[k++] = (entry){"segdev", K_SEGDEV, {"segdev.u32.keys.offsets64", 0, U32, VU32, V_NONE, 0,
                                          0, 12, 0, 0}};
    e[k++] = (entry){"segdev", K_SEGDEV, {"segdev.i32.pairs.begin_end32.count", 0, I32, VU32,
                                          V_PAIRS, 0, 20, 0, 1, SD_BEGIN_END | SD_U32 | SD_COUNT}};
    e[k++] = (entry){"segdev", K_SEGDEV, {"segdev.f64.pairs64.begin_end64", 0, F64, VU64,
                                          V_PAIRS, 0, 52, 0, 0, SD_BEGIN_END}};
    e[k++] = (entry){"segdev", K_SEGDEV, {"segdev.u64.keys.offsets32.count", 0, U64, VU32,
                                          V_NONE, 0, 20, 32, 1, SD_U32 | SD_COUNT}};
    e[k++] = (entry){"segdev", K_SEGDEV, {"segdev.u32.pairs.invalid.offsets", 0, U32, VU32,
                                          V_PAIRS, 0, 0, 8, 0, SD_INVALID}};
    e[k++] = (entry){"segdev", K_SEGDEV, {"segdev.u32.keys.invalid.begin_end", 0, U32, VU32,
                                          V_NONE, 0, 0, 8, 0, SD_INVALID | SD_BEGIN_END}};
    /* topk: the 6 select programs (32-, 64-bit keys x keys, u32 values or
     * indices, u64 values or indices) through zesort_topk with a slack of
     * one key, so the select runs: histograms over several work-groups
     * (retuned tiles), the count and scatter over several chunks, k = 33
     * (descending) or n / 3; `few` keys tie across the boundary */
    const uint64_t topk_n = 6 * ZS_SEL_TILE(serial) + 37;
    e[k++] = (entry){"topk", K_TOPK, {"topk.u32.keys.few", 0, U32, VU32, V_NONE, topk_n, 0, 0, 0,
                                      1}};
    e[k++] = (entry){"topk", K_TOPK, {"topk.f32.pairs.desc", 0, F32, VU32, V_PAIRS, topk_n, 0, 0,
                                      1, 0}};
    e[k++] = (entry){"topk", K_TOPK, {"topk.i32.indices64.keysout", 0, I32, VU64,
                                      V_ARGSORT_KEYS_OUT, topk_n, 8, 24, 0, 1}};
    e[k++] = (entry){"topk", K_TOPK, {"topk.u64.keys.desc.few", 0, U64, VU32, V_NONE, topk_n, 0,
                                      0, 1, 1}};
    e[k++] = (entry){"topk", K_TOPK, {"topk.f64.pairs64", 0, F64, VU64, V_PAIRS, topk_n, 0, 0, 0,
                                      0}};
    e[k++] = (entry){"topk", K_TOPK, {"topk.i64.indices.few", 0, I64, VU32, V_ARGSORT, topk_n, 20,
                                      60, 0, 1}};
    k += make_narrow_cases(e + k, cm_n, os_n, os_wide_n);
    k += make_small_cases(e + k);
    return k;
}

/* zesort_topk of c (k = 33 descending, else n / 3) against the stable
 * sort's first k: keys (unless V_ARGSORT), values (V_PAIRS) or indices. */
static void run_topk(const sort_case *c)
{
    zesort_options o;
    options_of(c, &o);
    const uint64_t n = c->n, k = c->descending ? 33 : n / 3;
    const int kb = key_bytes(c->type), vb = c->vtype == ZESORT_VALUE_U64 ? 8 : 4;
    const int pairs = c->mode == V_PAIRS, indices = c->mode >= V_ARGSORT;
    void *in = make_keys(c->type, n, c->few), *vals = make_values(vb, n);
    void *ko = malloc(k * (size_t)kb), *vo = malloc(k * (size_t)vb);
    uint64_t *perm = malloc((n + 1) * sizeof *perm);
    stable_perm(in, 0, n, &o, perm);
    zs_test_topk_slack(1);
    const zesort_status st = zesort_topk(ctx, in, pairs ? vals : NULL,
                                         c->mode == V_ARGSORT ? NULL : ko, pairs ? vo : NULL,
                                         indices ? vo : NULL, n, k, &o);
    zs_test_topk_slack(0);
    printf("%-28s n=%-6llu k=%llu %s\n", c->name, (unsigned long long)n, (unsigned long long)k,
           st == ZESORT_OK ? "selected" : "error");
    if (st != ZESORT_OK)
        FAIL("%s: %s", c->name, zesort_last_error(ctx));
    for (uint64_t i = 0; st == ZESORT_OK && i < k; ++i) {
        const uint64_t want = indices ? perm[i] : get_value(vals, vb, perm[i]);
        if ((c->mode != V_ARGSORT &&
             memcmp((char *)ko + i * kb, (char *)in + perm[i] * kb, kb) != 0) ||
            ((pairs || indices) && get_value(vo, vb, i) != want)) {
            FAIL("%s: element %llu differs from the stable sort's", c->name,
                 (unsigned long long)i);
            break;
        }
    }
    free(perm), free(in), free(vals), free(ko), free(vo);
}

/* The host scan: cm2 with the count table scanned on the host. */
static void run_host_scan(const sort_case *c)
{
    zesort_options o;
    options_of(c, &o);
    o.scan = ZESORT_SCAN_HOST;
    uint32_t *k = make_keys(U32, c->n, c->few), *want = malloc(c->n * 4);
    memcpy(want, k, c->n * 4);
    uint64_t *perm = malloc(c->n * sizeof *perm);
    stable_perm(want, 0, c->n, &o, perm);
    const zesort_status st = zesort_sort(ctx, k, NULL, c->n, &o);
    printf("%-28s n=%-6llu %s\n", c->name, (unsigned long long)c->n,
           st == ZESORT_OK ? "sorted" : "error");
    if (st != ZESORT_OK)
        FAIL("%s: %s", c->name, zesort_last_error(ctx));
    else
        for (uint64_t i = 0; i < c->n; ++i)
            if (k[i] != want[perm[i]]) {
                FAIL("%s: key %llu differs from the stable sort's", c->name,
                     (unsigned long long)i);
                break;
            }
    free(k);
    free(want);
    free(perm);
}

static void run_case(const entry *e)
{
    if (e->kind == K_RECOUNT)
        zs_opencl_test_defines("-DOS_FORCE_RECOUNT=1");
    open_context();
    switch (e->kind) {
    case K_SORT:
    case K_RECOUNT: run_sort(&e->c); break;
    case K_HOST_SCAN: run_host_scan(&e->c); break;
    case K_SEGMENTS:
        run_segments(e->c.name, e->c.type, e->c.mode == V_PAIRS, e->c.vtype, e->c.descending,
                     e->c.bit_lo, e->c.bit_hi);
        break;
    case K_SEGDEV: run_segdev(&e->c, e->c.few); break;
    case K_TOPK: run_topk(&e->c); break;
    }
    zesort_destroy(ctx);
    ctx = NULL;
    zs_opencl_test_defines(NULL);
}

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: oclgrind_sorts GROUP [CASE|all]\n");
        return 2;
    }
    const char *group = argv[1], *which = argc == 3 ? argv[2] : NULL;
    const char *flavor = getenv("ZESORT_FLAVOR");
    serial = flavor && strcmp(flavor, "serial") == 0;

    entry cases[MAX_CASES];
    const size_t count = make_cases(cases);
    int found = 0;
    for (size_t i = 0; i < count; ++i) {
        if (strcmp(cases[i].group, group) != 0)
            continue;
        if (!which) { /* the list */
            printf("%s\n", cases[i].c.name);
            found = 1;
            continue;
        }
        if (strcmp(which, "all") != 0 && strcmp(which, cases[i].c.name) != 0)
            continue;
        found = 1;
        rng_state = 0x0C16u + i * 977u + (uint64_t)serial; /* the same keys whichever way run */
        run_case(&cases[i]);
    }
    if (!found) {
        fprintf(stderr, "oclgrind_sorts: no case %s in group %s\n", which ? which : "", group);
        return 2;
    }
    if (failures)
        fprintf(stderr, "oclgrind_sorts %s %s: %d failure(s)\n", group, which ? which : "",
                failures);
    return failures ? 1 : 0;
}
