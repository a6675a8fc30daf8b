/*
 * test_interop_cl.c — the OpenCL interop API (zesort_cl.h) on whatever
 * OpenCL device is present (PoCL here): producer kernel -> sort -> consumer
 * kernel on one queue, chained by wait lists, on in-order and out-of-order
 * queues; every key type, pairs (stability), descending, bit ranges, every
 * algorithm, indirect counts below and above max_n (guard zones), overlap
 * refused, one sorter from several threads, prepare. Exit 77 without a device.
 */
#define CL_TARGET_OPENCL_VERSION 120 /* the 1.2 API: clCreateCommandQueue */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "expect.h"
#include "pipeline_hash.h"
#include "common/test_hooks.h"
#include "zesort_cl.h"

static int failures;
#define CL_OK(call)                                                                            \
    do {                                                                                       \
        cl_int e_ = (call);                                                                    \
        if (e_ != CL_SUCCESS) {                                                                \
            fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call, (int)e_);    \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

static const char *pipeline_src =
    "uint hash_key(uint i, uint seed) { uint x = (i * 0x9E3779B9u) ^ seed; x ^= x >> 16;\n"
    "  x *= 0x7FEB352Du; x ^= x >> 15; x *= 0x846CA68Bu; x ^= x >> 16;\n"
    "  return i % 3 == 0 ? x & 0x8000000Fu : x; }\n"
    "__kernel void produce(__global uint *words, uint nwords, __global uint *values, uint nvals,\n"
    "                      uint seed, __global uint *count, uint cnt) {\n"
    "  uint i = get_global_id(0);\n"
    "  if (i < nwords) words[i] = hash_key(i, seed);\n"
    "  if (i < nvals) values[i] = i;\n"
    "  if (i == 0) count[0] = cnt; }\n"
    "__kernel void consume(__global const uint *in, __global uint *out, uint nwords) {\n"
    "  uint i = get_global_id(0); if (i < nwords) out[i] = in[i] + 1u; }\n";

static uint32_t hash_key(uint32_t i, uint32_t seed) /* = the kernel's */
{
    uint32_t x = pipeline_hash(i, seed);
    return i % 3 == 0 ? x & 0x8000000Fu : x;
}

static cl_context ctx;
static cl_device_id dev;
static cl_program prog;
static cl_kernel produce, consume;
static pthread_mutex_t kernel_lock = PTHREAD_MUTEX_INITIALIZER;

static cl_mem buf(size_t bytes)
{
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes ? bytes : 4, NULL, &err);
    CL_OK(err);
    return m;
}

/* Ordered key of a raw key (zesort.h: bit_lo/bit_hi apply to it). */
static uint64_t ordered(uint64_t k, zesort_key_type t)
{
    const int w64 = t >= ZESORT_KEY_U64;
    const uint64_t sign = w64 ? UINT64_C(1) << 63 : UINT64_C(1) << 31;
    const uint64_t all = w64 ? UINT64_MAX : 0xffffffffu;
    switch (t) {
    case ZESORT_KEY_I32: case ZESORT_KEY_I64: return k ^ sign;
    case ZESORT_KEY_F32: case ZESORT_KEY_F64: return (k & sign) ? ~k & all : k | sign;
    default: return k;
    }
}

typedef struct ref_item {
    uint64_t ord, key;
    uint32_t index;
} ref_item;

static int ref_cmp(const void *a, const void *b)
{
    const ref_item *x = a, *y = b;
    if (x->ord != y->ord)
        return x->ord < y->ord ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

typedef struct sort_case {
    zesort_key_type type;
    zesort_algo algo;
    int pairs, descending;
    unsigned lo, hi;
    uint32_t n;        /* keys produced = max_n for indirect */
    int indirect;
    uint32_t count;    /* indirect: the count the producer writes */
} sort_case;

/* producer -> sort -> consumer on q; checks the consumer's output and the
 * guard zones after keys, values and temp. */
static void run_case(zesort_cl_sorter *s, cl_command_queue q, const sort_case *c)
{
    const int w64 = c->type >= ZESORT_KEY_U64;
    const size_t kb = w64 ? 8 : 4, nwords = c->n * kb / 4;
    const size_t guard = 1024;
    zesort_options o;
    zesort_options_default(&o);
    o.key_type = c->type;
    o.algo = c->algo;
    o.descending = c->descending;
    o.bit_lo = c->lo;
    o.bit_hi = c->hi;
    uint64_t tb = 0;
    zesort_status st = zesort_cl_temp_bytes(s, c->n, c->pairs, &o, &tb);
    EXPECT(st == ZESORT_OK, "%s", zesort_cl_last_error(s));
    if (st != ZESORT_OK)
        return;
    cl_mem keys = buf(c->n * kb + guard), vals = buf(c->n * 4u + guard),
           temp = buf((size_t)tb + guard), count = buf(4), out = buf(c->n * kb);
    const unsigned char g = 0xC3;
    CL_OK(clEnqueueFillBuffer(q, keys, &g, 1, 0, c->n * kb + guard, 0, NULL, NULL));
    CL_OK(clEnqueueFillBuffer(q, vals, &g, 1, 0, c->n * 4u + guard, 0, NULL, NULL));
    CL_OK(clEnqueueFillBuffer(q, temp, &g, 1, 0, (size_t)tb + guard, 0, NULL, NULL));
    CL_OK(clFinish(q));

    const uint32_t seed = 0x1234u + c->n + (uint32_t)c->type * 77u;
    cl_uint nw = (cl_uint)nwords, nv = c->pairs ? c->n : 0, cnt = c->count;
    cl_event ev[3];
    pthread_mutex_lock(&kernel_lock);
    CL_OK(clSetKernelArg(produce, 0, sizeof keys, &keys));
    CL_OK(clSetKernelArg(produce, 1, sizeof nw, &nw));
    CL_OK(clSetKernelArg(produce, 2, sizeof vals, &vals));
    CL_OK(clSetKernelArg(produce, 3, sizeof nv, &nv));
    CL_OK(clSetKernelArg(produce, 4, sizeof seed, &seed));
    CL_OK(clSetKernelArg(produce, 5, sizeof count, &count));
    CL_OK(clSetKernelArg(produce, 6, sizeof cnt, &cnt));
    size_t global = (nwords + 63) / 64 * 64;
    CL_OK(clEnqueueNDRangeKernel(q, produce, 1, NULL, &global, NULL, 0, NULL, &ev[0]));
    pthread_mutex_unlock(&kernel_lock);
    st = c->indirect ? zesort_cl_enqueue_sort_indirect(s, q, keys, c->pairs ? vals : NULL, count,
                                                       c->n, temp, tb, &o, 1, &ev[0], &ev[1])
                     : zesort_cl_enqueue_sort(s, q, keys, c->pairs ? vals : NULL, c->n, temp, tb,
                                              &o, 1, &ev[0], &ev[1]);
    EXPECT(st == ZESORT_OK, "%s", zesort_cl_last_error(s));
    if (st != ZESORT_OK) {
        clFinish(q);
        clReleaseEvent(ev[0]);
        goto done;
    }
    pthread_mutex_lock(&kernel_lock);
    CL_OK(clSetKernelArg(consume, 0, sizeof keys, &keys));
    CL_OK(clSetKernelArg(consume, 1, sizeof out, &out));
    CL_OK(clSetKernelArg(consume, 2, sizeof nw, &nw));
    CL_OK(clEnqueueNDRangeKernel(q, consume, 1, NULL, &global, NULL, 1, &ev[1], &ev[2]));
    pthread_mutex_unlock(&kernel_lock);
    unsigned char *got = malloc(c->n * kb), *kg = malloc(guard), *vg = malloc(guard),
                  *tg = malloc(guard);
    uint32_t *gv = malloc(c->n * 4u + 4);
    /* A read of 0 bytes is CL_INVALID_VALUE (PoCL 6 enforces it). */
    if (c->n > 0) {
        CL_OK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, c->n * kb, got, 1, &ev[2], NULL));
        CL_OK(clEnqueueReadBuffer(q, vals, CL_TRUE, 0, c->n * 4u, gv, 1, &ev[2], NULL));
    }
    CL_OK(clEnqueueReadBuffer(q, keys, CL_TRUE, c->n * kb, guard, kg, 1, &ev[2], NULL));
    CL_OK(clEnqueueReadBuffer(q, vals, CL_TRUE, c->n * 4u, guard, vg, 1, &ev[2], NULL));
    CL_OK(clEnqueueReadBuffer(q, temp, CL_TRUE, (size_t)tb, guard, tg, 1, &ev[2], NULL));
    for (int i = 0; i < 3; i++)
        clReleaseEvent(ev[i]);

    /* reference: stable sort of the first m keys by the ordered bits */
    const uint32_t m = c->indirect && c->count < c->n ? c->count : c->n;
    ref_item *r = malloc(sizeof *r * (c->n ? c->n : 1));
    const unsigned width = w64 ? 64 : 32, hi = c->hi ? c->hi : width;
    for (uint32_t i = 0; i < c->n; i++) {
        uint64_t k = w64 ? (uint64_t)hash_key(2 * i + 1, seed) << 32 | hash_key(2 * i, seed)
                         : hash_key(i, seed);
        uint64_t ord = ordered(k, c->type) >> c->lo;
        if (hi - c->lo < 64)
            ord &= (UINT64_C(1) << (hi - c->lo)) - 1;
        r[i] = (ref_item){c->descending ? ~ord : ord, k, i};
    }
    qsort(r, m, sizeof *r, ref_cmp);
    int bad = 0;
    for (uint32_t i = 0; i < c->n && !bad; i++) {
        uint64_t k;
        if (w64) {
            uint32_t lo_w, hi_w;
            memcpy(&lo_w, got + 8 * i, 4);
            memcpy(&hi_w, got + 8 * i + 4, 4);
            k = (uint64_t)(hi_w - 1u) << 32 | (uint32_t)(lo_w - 1u);
        } else {
            uint32_t w;
            memcpy(&w, got + 4 * i, 4);
            k = (uint32_t)(w - 1u);
        }
        if (k != r[i].key || (c->pairs && gv[i] != r[i].index))
            bad = 1;
        EXPECT(!bad, "type %d algo %s pairs %d desc %d bits [%u,%u) n %u indirect %d count %u: "
               "[%u] key %llx value %u, want %llx value %u", c->type, zesort_algo_name(c->algo),
               c->pairs, c->descending, c->lo, hi, c->n, c->indirect, c->count, i,
               (unsigned long long)k, c->pairs ? gv[i] : 0, (unsigned long long)r[i].key,
               r[i].index);
    }
    for (size_t i = 0; i < guard; i++) {
        if (kg[i] != g || vg[i] != g || tg[i] != g) {
            EXPECT(0, "guard byte %zu written (keys %x values %x temp %x), n %u count %u", i,
                   kg[i], vg[i], tg[i], c->n, c->count);
            break;
        }
    }
    free(r);
    free(got);
    free(gv);
    free(kg);
    free(vg);
    free(tg);
done:
    clReleaseMemObject(keys);
    clReleaseMemObject(vals);
    clReleaseMemObject(temp);
    clReleaseMemObject(count);
    clReleaseMemObject(out);
}

static void test_pipelines(zesort_cl_sorter *s, cl_command_queue q, int full)
{
    const zesort_algo algos[] = {ZESORT_ALGO_AUTO, ZESORT_ALGO_CM2, ZESORT_ALGO_CM4,
                                 ZESORT_ALGO_ONESWEEP};
    for (int t = 0; t <= ZESORT_KEY_F64; t++)
        for (int v = 0; v < (full ? 4 : 1); v++) {
            sort_case c = {.type = (zesort_key_type)t, .algo = algos[(t + v) % 4],
                           .pairs = v & 1, .descending = (v >> 1) & 1, .n = 3001u + 97u * t};
            run_case(s, q, &c);
        }
    sort_case bits = {.type = ZESORT_KEY_U64, .algo = ZESORT_ALGO_CM4, .pairs = 1, .lo = 5,
                      .hi = 37, .n = 5000};
    run_case(s, q, &bits);
    bits = (sort_case){.type = ZESORT_KEY_I32, .algo = ZESORT_ALGO_ONESWEEP, .pairs = 1,
                       .descending = 1, .lo = 3, .hi = 20, .n = 5000};
    run_case(s, q, &bits);
    const uint32_t counts[] = {0, 1, 2500, 4000, 4001, 6000, UINT32_MAX};
    for (int i = 0; i < 7; i++) {
        sort_case c = {.type = i % 2 ? ZESORT_KEY_F32 : ZESORT_KEY_U64,
                       .algo = algos[i % 4], .pairs = i % 3 != 0, .n = 4000, .indirect = 1,
                       .count = counts[i]};
        run_case(s, q, &c);
    }
    sort_case empty = {.n = 0};
    run_case(s, q, &empty);
}

static void test_overlap(zesort_cl_sorter *s, cl_command_queue q)
{
    uint64_t tb;
    EXPECT(zesort_cl_temp_bytes(s, 1000, 1, NULL, &tb) == ZESORT_OK, "temp");
    cl_mem big = buf((size_t)tb * 2 + 8192), keys = buf(4000);
    cl_buffer_region r1 = {0, 4096}, r2 = {4096, (size_t)tb};
    cl_int err;
    cl_mem sub1 = clCreateSubBuffer(big, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r1, &err);
    cl_mem sub2 = clCreateSubBuffer(big, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r2, &err);
    cl_event ev = (cl_event)1;
    EXPECT(zesort_cl_enqueue_sort(s, q, big, NULL, 1000, big, tb, NULL, 0, NULL, &ev) ==
               ZESORT_ERROR_INVALID_ARGUMENT, "keys == temp");
    EXPECT(ev == NULL, "event set on failure");
    EXPECT(strstr(zesort_cl_last_error(s), "overlap"), "%s", zesort_cl_last_error(s));
    EXPECT(zesort_cl_enqueue_sort(s, q, keys, keys, 1000, big, tb, NULL, 0, NULL, NULL) ==
               ZESORT_ERROR_INVALID_ARGUMENT, "values == keys");
    EXPECT(zesort_cl_enqueue_sort(s, q, sub1, NULL, 1000, big, tb, NULL, 0, NULL, NULL) ==
               ZESORT_ERROR_INVALID_ARGUMENT, "keys sub-buffer inside temp");
    EXPECT(zesort_cl_enqueue_sort_indirect(s, q, keys, NULL, sub2, 1000, big, tb, NULL, 0, NULL,
                                           NULL) == ZESORT_ERROR_INVALID_ARGUMENT,
           "count inside temp");
    /* disjoint sub-buffers of one buffer are fine */
    CL_OK(clEnqueueFillBuffer(q, sub1, &err, 1, 0, 4000, 0, NULL, NULL));
    EXPECT(zesort_cl_enqueue_sort(s, q, sub1, NULL, 1000, sub2, tb, NULL, 0, NULL, NULL) ==
               ZESORT_OK, "disjoint: %s", zesort_cl_last_error(s));
    CL_OK(clFinish(q));
    clReleaseMemObject(sub1);
    clReleaseMemObject(sub2);
    clReleaseMemObject(big);
    clReleaseMemObject(keys);
}

typedef struct worker {
    zesort_cl_sorter *s;
    int id, wrong;
} worker;

static void *thread_main(void *arg)
{
    worker *w = arg;
    cl_int err;
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    CL_OK(err);
    for (int i = 0; i < 6; i++) {
        int before = failures;
        sort_case c = {.type = (zesort_key_type)((w->id + i) % 6), .algo = ZESORT_ALGO_ONESWEEP,
                       .pairs = 1, .n = 2000u + 111u * w->id};
        run_case(w->s, q, &c);
        if (failures != before)
            w->wrong++;
    }
    clReleaseCommandQueue(q);
    return NULL;
}

/* 3 threads, or ZESORT_TEST_THREADS (scripts/test: 8 under ThreadSanitizer). */
static void test_threads(zesort_cl_sorter *s)
{
    enum { MAX_THREADS = 16 };
    const char *env = getenv("ZESORT_TEST_THREADS");
    int T = env ? atoi(env) : 3;
    T = T < 1 ? 1 : T > MAX_THREADS ? MAX_THREADS : T;
    pthread_t th[MAX_THREADS];
    worker w[MAX_THREADS];
    for (int i = 0; i < T; i++) {
        w[i] = (worker){.s = s, .id = i};
        pthread_create(&th[i], NULL, thread_main, &w[i]);
    }
    for (int i = 0; i < T; i++) {
        pthread_join(th[i], NULL);
        EXPECT(w[i].wrong == 0, "thread %d: %d sorts wrong", i, w[i].wrong);
    }
}

static void test_prepare(cl_command_queue q)
{
    zesort_cl_sorter *s;
    EXPECT(zesort_cl_create(ctx, dev, &s) == ZESORT_OK, "%s", zesort_cl_last_error(NULL));
    EXPECT(zesort_cl_last_algo(s) == ZESORT_ALGO_AUTO, "before any sort");
    EXPECT(zesort_cl_last_result(s) == CL_SUCCESS, "no failure yet");
    zesort_options o;
    zesort_options_default(&o);
    o.key_type = ZESORT_KEY_F32;
    unsigned long b0 = zs_test_builds();
    EXPECT(zesort_cl_prepare(s, &o, 1) == ZESORT_OK, "%s", zesort_cl_last_error(s));
    EXPECT(zs_test_builds() > b0, "prepare built nothing");
    b0 = zs_test_builds();
    uint64_t tb, align = 0;
    EXPECT(zesort_cl_temp_requirements(s, 3000, 1, &o, &tb, &align) == ZESORT_OK, "temp");
    EXPECT(align >= 256 && (align & (align - 1)) == 0, "alignment %llu", (unsigned long long)align);
    sort_case c = {.type = ZESORT_KEY_F32, .pairs = 1, .n = 3000};
    run_case(s, q, &c);
    {   /* and a segmented sort of the same keys and values (issue 35, item 5) */
        const uint64_t off[] = {0, 1000, 3000};
        cl_mem keys = buf(3000 * 4), vals = buf(3000 * 4), offs = buf(sizeof off), temp = buf(tb);
        CL_OK(clEnqueueWriteBuffer(q, offs, CL_TRUE, 0, sizeof off, off, 0, NULL, NULL));
        cl_event ev = NULL;
        EXPECT(zesort_cl_enqueue_sort_segments(s, q, keys, vals, 3000, offs, 2, temp, tb, &o, 0,
                                               NULL, &ev) == ZESORT_OK,
               "%s", zesort_cl_last_error(s));
        if (ev) {
            CL_OK(clWaitForEvents(1, &ev));
            clReleaseEvent(ev);
        }
        clReleaseMemObject(keys), clReleaseMemObject(vals), clReleaseMemObject(offs);
        clReleaseMemObject(temp);
    }
    EXPECT(zs_test_builds() == b0, "a sort after prepare built %lu programs", zs_test_builds() - b0);
    EXPECT(zesort_cl_last_algo(s) != ZESORT_ALGO_AUTO, "AUTO's choice not reported");
    zesort_cl_destroy(s);
}

/* ---- issue 21: 8-byte values, out of place, argsort (interop_cases.h) -- */

#include "interop_cases.h" /* after `failures`: its checks count them */

static zesort_cl_sorter *ic_sorter;
static cl_command_queue ic_queue;

static void *ic_alloc(size_t bytes) { return buf(bytes); }
static void ic_release(void *m) { clReleaseMemObject(m); }

static void ic_upload(void *m, const void *src, size_t bytes)
{
    CL_OK(clEnqueueWriteBuffer(ic_queue, m, CL_TRUE, 0, bytes, src, 0, NULL, NULL));
}

static void ic_download(void *dst, void *m, size_t bytes)
{
    CL_OK(clEnqueueReadBuffer(ic_queue, m, CL_TRUE, 0, bytes, dst, 0, NULL, NULL));
}

static zesort_status ic_temp_bytes(uint64_t n, int with_values, const zesort_options *o,
                                   uint64_t *bytes)
{
    return zesort_cl_temp_bytes(ic_sorter, n, with_values, o, bytes);
}

/* A successful enqueue is waited for: the case reads the results next. */
static zesort_status ic_wait(zesort_status st, cl_event *ev)
{
    if (st == ZESORT_OK) {
        CL_OK(clWaitForEvents(1, ev));
        clReleaseEvent(*ev);
    }
    return st;
}

static zesort_status ic_sort(void *keys, void *values, uint64_t n, void *temp, uint64_t tb,
                             const zesort_options *o)
{
    cl_event ev = NULL;
    return ic_wait(zesort_cl_enqueue_sort(ic_sorter, ic_queue, keys, values, n, temp, tb, o, 0,
                                          NULL, &ev), &ev);
}

static zesort_status ic_copy(void *keys_in, void *values_in, void *keys_out, void *values_out,
                             uint64_t n, void *count, void *temp, uint64_t tb,
                             const zesort_options *o)
{
    cl_event ev = NULL;
    return ic_wait(zesort_cl_enqueue_sort_copy(ic_sorter, ic_queue, keys_in, values_in, keys_out,
                                               values_out, n, count, temp, tb, o, 0, NULL, &ev),
                   &ev);
}

static zesort_status ic_argsort(void *keys, void *indices, void *keys_out, uint64_t n,
                                void *count, void *temp, uint64_t tb, const zesort_options *o)
{
    cl_event ev = NULL;
    return ic_wait(zesort_cl_enqueue_argsort(ic_sorter, ic_queue, keys, indices, keys_out, n,
                                             count, temp, tb, o, 0, NULL, &ev), &ev);
}

static const char *ic_error(void) { return zesort_cl_last_error(ic_sorter); }

static const interop_api ic_api = {"opencl", ic_alloc, ic_release, ic_upload, ic_download,
                                   ic_temp_bytes, ic_sort, ic_copy, ic_argsort, ic_error};

static void test_copy_argsort(zesort_cl_sorter *s, cl_command_queue q)
{
    ic_sorter = s;
    ic_queue = q;
    interop_matrix(&ic_api);
    printf("copy-argsort: %d failures\n", failures);
}

/* ---- issue 22: the segmented sort, offsets on the device ------------- */

#include "interop_segments.h"

static zesort_status seg_sort(void *keys, void *values, uint64_t n, void *offsets,
                              uint64_t segments, void *temp, uint64_t tb, const zesort_options *o)
{
    cl_event ev = NULL;
    return ic_wait(zesort_cl_enqueue_sort_segments(ic_sorter, ic_queue, keys, values, n, offsets,
                                                   segments, temp, tb, o, 0, NULL, &ev), &ev);
}

/* Issue 35: the copy, then the sort waiting on its event. */
static zesort_status seg_sort_dev(void *keys, void *values, uint64_t n, const seg_dev *d,
                                  void *copy_dst, void *copy_src, size_t copy_bytes, void *temp,
                                  uint64_t tb, const zesort_options *o)
{
    cl_event copied = NULL, ev = NULL;
    if (copy_bytes)
        CL_OK(clEnqueueCopyBuffer(ic_queue, copy_src, copy_dst, 0, 0, copy_bytes, 0, NULL,
                                  &copied));
    zesort_status st;
    if (d->old_api) {
        st = zesort_cl_enqueue_sort_segments(ic_sorter, ic_queue, keys, values, n, d->offsets,
                                             d->num_segments, temp, tb, o, copied ? 1 : 0,
                                             copied ? &copied : NULL, &ev);
    } else {
        const zesort_cl_segments seg = {d->raw_type ? (zesort_offset_type)d->raw_type
                                        : d->u32    ? ZESORT_OFFSET_U32
                                                    : ZESORT_OFFSET_U64,
                                        d->offsets, d->begins, d->ends, d->num_segments,
                                        d->count, d->status};
        st = zesort_cl_enqueue_sort_segmented(ic_sorter, ic_queue, keys, values, n,
                                              d->no_desc ? NULL : &seg, temp, tb, o,
                                              copied ? 1 : 0, copied ? &copied : NULL, &ev);
    }
    st = ic_wait(st, &ev);
    if (copied) {
        CL_OK(clWaitForEvents(1, &copied));
        clReleaseEvent(copied);
    }
    return st;
}

/* Issue 35: a segmented enqueue never waits for the device. Its wait event
 * is a user event that a thread completes 2 s later: the enqueue must
 * return at once (before issue 35 a blocking read of the offsets waited for
 * that event, 2 s here), and the sort run once the event completes. */
static void *complete_later(void *ev)
{
    struct timespec two = {2, 0};
    nanosleep(&two, NULL);
    clSetUserEventStatus((cl_event)ev, CL_COMPLETE);
    return NULL;
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void test_segments_no_wait(zesort_cl_sorter *s, cl_command_queue q)
{
    enum { N = 1000 };
    uint32_t keys[N], out[N];
    const uint64_t off[] = {0, 500, N};
    for (int i = 0; i < N; i++)
        keys[i] = (uint32_t)((i * 7919) % 1013);
    uint64_t tb = 0;
    EXPECT(zesort_cl_temp_bytes(s, N, 0, NULL, &tb) == ZESORT_OK, "temp bytes");
    ic_queue = q;
    cl_mem dk = buf(sizeof keys), doff = buf(sizeof off), temp = buf(tb);
    ic_upload(dk, keys, sizeof keys);
    ic_upload(doff, off, sizeof off);
    cl_int err;
    cl_event gate = clCreateUserEvent(ctx, &err), ev = NULL;
    CL_OK(err);
    pthread_t th;
    pthread_create(&th, NULL, complete_later, gate);
    const double t0 = seconds();
    zesort_status st = zesort_cl_enqueue_sort_segments(s, q, dk, NULL, N, doff, 2, temp, tb, NULL,
                                                       1, &gate, &ev);
    const double waited = seconds() - t0;
    EXPECT(st == ZESORT_OK, "segments after a user event: %s", zesort_cl_last_error(s));
    EXPECT(waited < 1.0, "the segmented enqueue waited %.2f s for the device", waited);
    pthread_join(th, NULL);
    if (st == ZESORT_OK) {
        CL_OK(clWaitForEvents(1, &ev));
        clReleaseEvent(ev);
    }
    ic_download(out, dk, sizeof out);
    for (int i = 1; i < N; i++)
        if (i != 500 && out[i - 1] > out[i]) {
            EXPECT(0, "segment not sorted at %d", i);
            break;
        }
    clReleaseEvent(gate);
    clReleaseMemObject(dk), clReleaseMemObject(doff), clReleaseMemObject(temp);
    printf("segments, no wait: %.3f s in the enqueue, %d failures\n", waited, failures);
}

static zesort_status seg_sort_indirect(void *keys, void *values, void *count, uint64_t max_n,
                                       void *offsets, uint64_t segments, void *temp, uint64_t tb,
                                       const zesort_options *o)
{
    cl_event ev = NULL;
    return ic_wait(zesort_cl_enqueue_sort_segments_indirect(ic_sorter, ic_queue, keys, values,
                                                            count, max_n, offsets, segments, temp,
                                                            tb, o, 0, NULL, &ev), &ev);
}

#include "interop_rules.h"

static const interop_segments_api seg_api = {"opencl", ic_alloc, ic_release, ic_upload,
                                            ic_download, ic_temp_bytes, seg_sort, ic_error,
                                            seg_sort_dev, seg_sort_indirect};

static void test_segments(zesort_cl_sorter *s, cl_command_queue q)
{
    ic_sorter = s;
    ic_queue = q;
    interop_segments(&seg_api);
    interop_segments_device(&seg_api);
    test_segments_no_wait(s, q);
    seg_indirect_cases(&seg_api);
}

/* Issue 35, item 2: segments of every size, classified on the device. */
static void test_segment_classes(zesort_cl_sorter *s, cl_command_queue q)
{
    static const interop_segments_api api = {"opencl", ic_alloc, ic_release, ic_upload,
                                             ic_download, ic_temp_bytes, seg_sort, ic_error,
                                             seg_sort_dev, seg_sort_indirect};
    ic_sorter = s;
    ic_queue = q;
    interop_segments_classes(&api);
    seg_indirect_classes(&api);
}

/* ---- issue 35: every variant ordered by its wait list ------------------ */

/* The user event a gated enqueue waits on. */
static cl_event gate;

static cl_uint gate_open(void)
{
    cl_int err;
    gate = clCreateUserEvent(ctx, &err);
    CL_OK(err);
    return 1;
}

/* After an enqueue that waited on the gate: the sort must not complete
 * before the gate opens (its first command waits for the wait list, on an
 * out-of-order queue too); then it runs, and the host waits for *ev. */
static zesort_status gate_release(zesort_status st, cl_event *ev)
{
    if (st == ZESORT_OK) {
        CL_OK(clFlush(ic_queue));
        for (int i = 0; i < 20; i++) { /* time in which an ungated sort would finish */
            cl_int status = CL_QUEUED;
            CL_OK(clGetEventInfo(*ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                                 NULL));
            EXPECT(status != CL_COMPLETE, "a sort completed before its wait event");
            if (status == CL_COMPLETE)
                break;
            struct timespec ms = {0, 1000000};
            nanosleep(&ms, NULL);
        }
    }
    CL_OK(clSetUserEventStatus(gate, CL_COMPLETE));
    CL_OK(clReleaseEvent(gate));
    return ic_wait(st, ev);
}

static zesort_status gated_sort(void *keys, void *values, uint64_t n, void *temp, uint64_t tb,
                                const zesort_options *o)
{
    cl_event ev = NULL;
    const cl_uint nwait = gate_open();
    return gate_release(zesort_cl_enqueue_sort(ic_sorter, ic_queue, keys, values, n, temp, tb, o,
                                               nwait, &gate, &ev), &ev);
}

static zesort_status gated_copy(void *keys_in, void *values_in, void *keys_out, void *values_out,
                                uint64_t n, void *count, void *temp, uint64_t tb,
                                const zesort_options *o)
{
    cl_event ev = NULL;
    const cl_uint nwait = gate_open();
    return gate_release(zesort_cl_enqueue_sort_copy(ic_sorter, ic_queue, keys_in, values_in,
                                                    keys_out, values_out, n, count, temp, tb, o,
                                                    nwait, &gate, &ev), &ev);
}

static zesort_status gated_argsort(void *keys, void *indices, void *keys_out, uint64_t n,
                                   void *count, void *temp, uint64_t tb, const zesort_options *o)
{
    cl_event ev = NULL;
    const cl_uint nwait = gate_open();
    return gate_release(zesort_cl_enqueue_argsort(ic_sorter, ic_queue, keys, indices, keys_out, n,
                                                  count, temp, tb, o, nwait, &gate, &ev), &ev);
}

/* Issue 35 on OpenCL, where every enqueue is ordered by events alone: each
 * variant at every size, direct and with a device-side count, in temp for
 * the largest n, gated by a wait event on `q`; the temp rule; segmented
 * sorts with a device-side count. */
static void test_rules(zesort_cl_sorter *s, cl_command_queue q)
{
    static const interop_api api = {"opencl gated", ic_alloc, ic_release, ic_upload, ic_download,
                                    ic_temp_bytes, gated_sort, gated_copy, gated_argsort,
                                    ic_error};
    /* not gated: test_segments_no_wait has a segmented enqueue behind a user
     * event (its offsets are read on the device only, so it returns at once) */
    static const interop_segments_api seg = {"opencl", ic_alloc, ic_release, ic_upload,
                                             ic_download, ic_temp_bytes, seg_sort, ic_error,
                                             seg_sort_dev, seg_sort_indirect};
    ic_sorter = s;
    ic_queue = q;
    rules_temp_monotonic(&api);
    rules_sizes(&api);
    seg_indirect_cases(&seg);
}

/* ---- issue 36: on "any OpenCL GPU" (the plain-GPU test hook) -------- */

static char plain_log[64];

/* The hook on before the sorter exists (it decides the flavor at create),
 * and a fresh sort log (ZESORT_TEST_SORT_LOG) to read afterwards. */
static void plain_gpu_begin(void)
{
    setenv("ZESORT_TEST_OPENCL_PLAIN_GPU", "1", 1);
    snprintf(plain_log, sizeof plain_log, "/tmp/zesort-cl-plain-gpu-%ld.log", (long)getpid());
    unlink(plain_log);
    setenv("ZESORT_TEST_SORT_LOG", plain_log, 1);
}

/* Every sort appended was the portable flavor's, and there were some. */
static void plain_gpu_check(void)
{
    FILE *f = fopen(plain_log, "r");
    char line[128];
    int sorts = 0;
    while (f && fgets(line, sizeof line, f)) {
        EXPECT(strcmp(line, "opencl-interop portable\n") == 0, "sort %d ran as %s", sorts + 1,
               line);
        sorts++;
    }
    if (f)
        fclose(f);
    unlink(plain_log);
    EXPECT(sorts >= 10, "only %d sorts noted in the sort log", sorts);
    printf("plain-gpu: %d sorts, %d failures\n", sorts, failures);
}

/* ---- issue 35, item 4: caller-supplied alternate buffers (interop_alt.h) */

#include "interop_alt.h"

static zesort_status alt_temp(uint64_t n, int with_values, const zesort_options *o,
                              uint64_t *bytes, int *in_alt)
{
    return zesort_cl_alt_temp_requirements(ic_sorter, n, with_values, o, bytes, NULL, in_alt);
}

static zesort_status sort_alt(void *keys, void *values, void *keys_alt, void *values_alt,
                              uint64_t n, void *count, void *temp, uint64_t tb,
                              const zesort_options *o, int *in_alt)
{
    cl_event ev = NULL;
    return ic_wait(zesort_cl_enqueue_sort_alt(ic_sorter, ic_queue, keys, values, keys_alt,
                                              values_alt, n, count, temp, tb, o, 0, NULL, &ev,
                                              in_alt), &ev);
}

static zesort_status copy_alt(void *keys_in, void *values_in, void *keys_out, void *values_out,
                              void *keys_alt, void *values_alt, uint64_t n, void *count,
                              void *temp, uint64_t tb, const zesort_options *o)
{
    cl_event ev = NULL;
    return ic_wait(zesort_cl_enqueue_sort_copy_alt(ic_sorter, ic_queue, keys_in, values_in,
                                                   keys_out, values_out, keys_alt, values_alt,
                                                   n, count, temp, tb, o, 0, NULL, &ev), &ev);
}

static zesort_status argsort_alt(void *keys, void *indices, void *keys_out, void *keys_alt,
                                 void *indices_alt, uint64_t n, void *count, void *temp,
                                 uint64_t tb, const zesort_options *o)
{
    cl_event ev = NULL;
    return ic_wait(zesort_cl_enqueue_argsort_alt(ic_sorter, ic_queue, keys, indices, keys_out,
                                                 keys_alt, indices_alt, n, count, temp, tb, o,
                                                 0, NULL, &ev), &ev);
}

static const interop_alt_api alt_api = {&ic_api, alt_temp, sort_alt, copy_alt, argsort_alt};

static void test_alt(zesort_cl_sorter *s, cl_command_queue q)
{
    ic_sorter = s;
    ic_queue = q;
    alt_matrix(&alt_api);
    printf("alt: %d failures\n", failures);
}

#include "interop_narrow.h"

/* The narrow key types (issue 37): every algorithm, sorts, copies,
 * argsorts, segments and alternate buffers (interop_narrow.h). */
static void test_narrow(zesort_cl_sorter *s, cl_command_queue q)
{
    ic_sorter = s;
    ic_queue = q;
    interop_narrow(&ic_api, &seg_api, &alt_api);
}

/* test_interop_cl [segments | rules | alt | narrow | plain-gpu]: everything
 * but the segmented sort, or only it, or the rules of a pipeline, or the
 * alternate buffers, or the narrow key types, or (plain-gpu) a shorter
 * matrix of pipelines, copies, argsorts and segments with the device seen as
 * a plain OpenCL 1.2 GPU (common/test_hooks.h): the portable flavor built
 * from source, held to that GPU's limits. */
int main(int argc, char **argv)
{
    const int plain_gpu = argc > 1 && strcmp(argv[1], "plain-gpu") == 0;
    if (plain_gpu)
        plain_gpu_begin();
    cl_platform_id plat;
    cl_uint np = 0;
    if (clGetPlatformIDs(1, &plat, &np) != CL_SUCCESS || np == 0 ||
        clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS) {
        printf("SKIP: no OpenCL device\n");
        return 77;
    }
    cl_int err;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CL_OK(err);
    prog = clCreateProgramWithSource(ctx, 1, &pipeline_src, NULL, &err);
    CL_OK(err);
    CL_OK(clBuildProgram(prog, 1, &dev, "", NULL, NULL));
    produce = clCreateKernel(prog, "produce", &err);
    CL_OK(err);
    consume = clCreateKernel(prog, "consume", &err);
    CL_OK(err);
    zesort_cl_sorter *s;
    if (zesort_cl_create(ctx, dev, &s) != ZESORT_OK) {
        fprintf(stderr, "zesort_cl_create: %s\n", zesort_cl_last_error(NULL));
        return 1;
    }
    cl_command_queue inorder = clCreateCommandQueue(ctx, dev, 0, &err);
    CL_OK(err);
    cl_command_queue ooo =
        clCreateCommandQueue(ctx, dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    if (!ooo) {
        printf("note: no out-of-order queue (%d): in-order only\n", (int)err);
    }
    if (plain_gpu) {
        test_pipelines(s, ooo ? ooo : inorder, 0);
        test_copy_argsort(s, inorder);
        test_segments(s, inorder);
        plain_gpu_check();
    } else if (argc > 1 && strcmp(argv[1], "segments") == 0) {
        test_segments(s, ooo ? ooo : inorder);
    } else if (argc > 1 && strcmp(argv[1], "segment-classes") == 0) {
        test_segment_classes(s, ooo ? ooo : inorder);
    } else if (argc > 1 && strcmp(argv[1], "rules") == 0) {
        test_rules(s, ooo ? ooo : inorder);
    } else if (argc > 1 && strcmp(argv[1], "alt") == 0) {
        test_alt(s, ooo ? ooo : inorder);
    } else if (argc > 1 && strcmp(argv[1], "narrow") == 0) {
        test_narrow(s, inorder);
    }
    if (argc > 1) {
        zesort_cl_destroy(s);
        clReleaseCommandQueue(inorder);
        if (ooo)
            clReleaseCommandQueue(ooo);
        printf("%d failures\n", failures);
        return failures ? 1 : 0;
    }
    test_pipelines(s, inorder, 1);
    printf("in-order pipelines: %d failures\n", failures);
    if (ooo) {
        test_pipelines(s, ooo, 0);
        printf("out-of-order pipelines: %d failures\n", failures);
    }
    test_overlap(s, inorder);
    test_threads(s);
    test_prepare(inorder);
    test_copy_argsort(s, ooo ? ooo : inorder);
    zesort_cl_destroy(s);
    EXPECT(zesort_cl_create(NULL, dev, &s) == ZESORT_ERROR_INVALID_ARGUMENT, "NULL context");
    EXPECT(s == NULL, "out not cleared");
    clReleaseCommandQueue(inorder);
    if (ooo)
        clReleaseCommandQueue(ooo);
    clReleaseKernel(produce);
    clReleaseKernel(consume);
    clReleaseProgram(prog);
    clReleaseContext(ctx);
    printf("%d failures\n", failures);
    return failures ? 1 : 0;
}
