/*
 * plan.c — the planner: which kernels run, in which order, over which buffers.
 * Knows nothing about Level Zero or OpenCL (see plan.h for the kernel interface).
 * Every size of a kernel's shape comes from kernels/zesort_tuning.h.
 */
#include "plan/plan.h"
#include "plan/plan_steps.h"

#include <stdlib.h>
#include <string.h>

uint64_t zs_chunks(uint64_t n) { return (n + ZS_CHUNK_KEYS - 1) / ZS_CHUNK_KEYS; }

uint64_t zs_scan_level_len(uint64_t n, unsigned bins, unsigned level)
{
    uint64_t len = (uint64_t)bins * zs_chunks(n);
    for (unsigned l = 0; l < level; ++l)
        len = (len + ZS_SCAN_BLOCK - 1) / ZS_SCAN_BLOCK;
    return len;
}

static const char *const program_names[ZS_PROG_COUNT] = {
    "cm2", "cm4", "cm2_k64", "cm4_k64", "cm2_pairs", "cm4_pairs", "cm2_k64_pairs",
    "cm4_k64_pairs", "cm2_pairs64", "cm4_pairs64", "cm2_k64_pairs64", "cm4_k64_pairs64",
    "scan", "os", "os_k64", "os_pairs", "os_k64_pairs", "os_pairs64", "os_k64_pairs64",
    "seg", "seg_k64", "seg_pairs", "seg_k64_pairs", "seg_pairs64", "seg_k64_pairs64",
    "sel", "sel_k64", "sel_pairs", "sel_k64_pairs", "sel_pairs64", "sel_k64_pairs64",
};

/* 0 keys only, 1 u32 values, 2 8-byte values: the program index's `vals` */
static int vals_of(unsigned value_bytes) { return (int)(value_bytes / 4); }

zs_program zs_cm_program(int radix_bits, int key64, unsigned value_bytes)
{
    return (zs_program)((radix_bits == 4 ? 1 : 0) | (key64 ? 2 : 0) | vals_of(value_bytes) << 2);
}

zs_kernel zs_cm_kernel(zs_program program, int bucket)
{
    return (zs_kernel)(2 * (int)program + (bucket ? 1 : 0));
}

int zs_kernel_is_bucket(zs_kernel k)
{
    if (k >= ZS_K_SEL_FIRST) /* sel_scatter gathers the candidates */
        return (k - ZS_K_SEL_FIRST) % ZS_SEL_KERNELS == ZS_SEL_SCATTER;
    if (k >= ZS_K_SEG_FIRST) { /* seg_sort, seg_sort_ranges scatter the keys */
        const int e = (k - ZS_K_SEG_FIRST) % ZS_SEG_KERNELS;
        return e == ZS_SEG_SORT || e == ZS_SEG_SORT_RANGES || e == ZS_SEG_SMALL;
    }
    if (k >= ZS_K_OS_FIRST) {
        const int e = (k - ZS_K_OS_FIRST) % ZS_OS_KERNELS;
        return e == ZS_OS_PASS || e == ZS_OS_SEG_PASS;
    }
    return k < ZS_K_SCAN_REDUCE && (k & 1);
}

const char *zs_program_name(zs_program p)
{
    return (unsigned)p < ZS_PROG_COUNT ? program_names[p] : "unknown";
}

zs_program zs_os_program(int key64, unsigned value_bytes)
{
    return (zs_program)(ZS_PROG_OS + (key64 ? 1 : 0) + 2 * vals_of(value_bytes));
}

uint32_t zs_os_tile(int key64, int pairs, int serial)
{
    return ZS_OS_TILE(serial != 0, key64 || pairs);
}

zs_kernel zs_os_kernel(zs_program program, zs_os_entry entry)
{
    return (zs_kernel)(ZS_K_OS_FIRST + ZS_OS_KERNELS * ((int)program - ZS_PROG_OS) + (int)entry);
}

zs_kernel zs_seg_kernel(int key64, unsigned value_bytes)
{
    return zs_seg_entry_kernel(key64, value_bytes, ZS_SEG_SORT);
}

zs_kernel zs_seg_entry_kernel(int key64, unsigned value_bytes, zs_seg_entry entry)
{
    const int program = (key64 ? 1 : 0) + 2 * vals_of(value_bytes);
    return (zs_kernel)(ZS_K_SEG_FIRST + ZS_SEG_KERNELS * program + (int)entry);
}

zs_kernel zs_sel_kernel(int key64, unsigned value_bytes, zs_sel_entry entry)
{
    const int program = (key64 ? 1 : 0) + 2 * vals_of(value_bytes);
    return (zs_kernel)(ZS_K_SEL_FIRST + ZS_SEL_KERNELS * program + (int)entry);
}

const char *zs_kernel_name(zs_kernel k)
{
    static const char *const os_names[ZS_OS_KERNELS] = {
        "os_fill", "os_histogram", "os_scan_hist", "os_pass",
        "os_seg_histogram", "os_seg_pass", "os_seg_copy"};
    static const char *const seg_names[ZS_SEG_KERNELS] = {
        "seg_sort", "seg_check", "seg_sort_ranges", "seg_classify", "small_sort"};
    static const char *const sel_names[ZS_SEL_KERNELS] = {"sel_init", "sel_hist", "sel_pick",
                                                          "sel_count", "sel_scatter"};
    if (k >= ZS_K_SEL_FIRST)
        return sel_names[(k - ZS_K_SEL_FIRST) % ZS_SEL_KERNELS];
    if (k >= ZS_K_SEG_FIRST)
        return seg_names[(k - ZS_K_SEG_FIRST) % ZS_SEG_KERNELS];
    if (k >= ZS_K_OS_FIRST)
        return os_names[(k - ZS_K_OS_FIRST) % ZS_OS_KERNELS];
    if (k == ZS_K_SCAN_REDUCE)
        return "scan_reduce";
    if (k == ZS_K_SCAN_APPLY)
        return "scan_apply";
    return (k & 1) ? "cm_bucket" : "cm_count";
}

zs_program zs_kernel_program(zs_kernel k)
{
    if (k >= ZS_K_SEL_FIRST)
        return (zs_program)(ZS_PROG_SEL + (k - ZS_K_SEL_FIRST) / ZS_SEL_KERNELS);
    if (k >= ZS_K_SEG_FIRST)
        return (zs_program)(ZS_PROG_SEG + (k - ZS_K_SEG_FIRST) / ZS_SEG_KERNELS);
    if (k >= ZS_K_OS_FIRST)
        return (zs_program)(ZS_PROG_OS + (k - ZS_K_OS_FIRST) / ZS_OS_KERNELS);
    return (zs_program)(k / 2);
}

uint32_t zs_key_flags(int key_type, int descending)
{
    /* kind: 0 unsigned, 1 signed, 2 float, by zesort_key_type (U32 I32 F32
     * U64 I64 F64, then U8 I8 U16 I16 F16 BF16) */
    static const unsigned char kind[] = {0, 1, 2, 0, 1, 2, 0, 1, 0, 1, 2, 2};
    /* the narrow types run the 32-bit programs at their width */
    static const uint32_t narrow[] = {0, 0, 0, 0, 0, 0, ZS_NARROW_8, ZS_NARROW_8,
                                      ZS_NARROW_16, ZS_NARROW_16, ZS_NARROW_16, ZS_NARROW_16};
    const unsigned t = (unsigned)key_type < sizeof kind ? (unsigned)key_type : 0u;
    return (uint32_t)kind[t] | narrow[t] | (descending ? 4u : 0u);
}

void zs_host_exclusive_scan(uint32_t *table, uint64_t len)
{
    uint32_t running = 0;
    for (uint64_t i = 0; i < len; ++i) {
        uint32_t v = table[i];
        table[i] = running;
        running += v;
    }
}

static zs_step *push(zs_plan *plan)
{
    if (plan->nsteps == plan->cap) {
        size_t cap = plan->cap ? plan->cap * 2 : 64;
        zs_step *grown = realloc(plan->steps, cap * sizeof *grown);
        if (!grown)
            return NULL;
        plan->steps = grown;
        plan->cap = cap;
    }
    zs_step *s = &plan->steps[plan->nsteps++];
    memset(s, 0, sizeof *s);
    return s;
}

static zs_arg buf(zs_buffer b) { return (zs_arg){1, (uint32_t)b}; }
static zs_arg val(uint32_t v) { return (zs_arg){0, v}; }

static int push_kernel(zs_plan *plan, zs_kernel k, uint64_t groups, uint32_t local, int nargs,
                       const zs_arg *args)
{
    zs_step *s = push(plan);
    if (!s)
        return -1;
    s->kind = ZS_STEP_KERNEL;
    s->kernel = k;
    s->groups = groups;
    s->local = local;
    s->nargs = nargs;
    memcpy(s->args, args, (size_t)nargs * sizeof *args);
    return 0;
}

static int push_copy(zs_plan *plan, zs_buffer src, zs_buffer dst, uint64_t bytes)
{
    zs_step *s = push(plan);
    if (!s)
        return -1;
    s->kind = ZS_STEP_COPY;
    s->src = src;
    s->dst = dst;
    s->bytes = bytes;
    return 0;
}

/* The buffers a pass reads and writes. Values ping-pong with the keys; in a
 * keys-only sort they name the key buffers, which the kernels then ignore. */
typedef struct ping_pong {
    zs_buffer keys_in, keys_out, values_in, values_out;
    uint32_t first_flags; /* key_flags bits of the first pass only (ZS_IOTA_VALUES) */
} ping_pong;

/* In place: KEYS -> TMP -> KEYS ..., and a copy home after an odd number of
 * passes. Out of place: the first pass reads KEYS_IN and writes KEYS or TMP,
 * whichever makes the last pass write KEYS (no copy home, input never written). */
static ping_pong ping_pong_start(const zs_plan_request *req, unsigned passes)
{
    const zs_buffer out = req->out_of_place && passes % 2 ? ZS_BUF_KEYS : ZS_BUF_TMP;
    const zs_buffer vout = out == ZS_BUF_KEYS ? ZS_BUF_VALUES : ZS_BUF_VALUES_TMP;
    ping_pong p = {req->out_of_place ? ZS_BUF_KEYS_IN : ZS_BUF_KEYS, out, 0, 0,
                   req->iota_values ? ZS_IOTA_VALUES : 0u};
    if (!req->value_bytes) { /* keys only */
        p.values_in = p.keys_in;
        p.values_out = p.keys_out;
    } else {
        /* argsort: the first pass reads no values; any value buffer will do */
        p.values_in = req->iota_values ? vout : req->out_of_place ? ZS_BUF_VALUES_IN
                                                                  : ZS_BUF_VALUES;
        p.values_out = vout;
    }
    return p;
}

/* The next pass reads what this one wrote and writes the other buffer. */
static void ping_pong_swap(ping_pong *p, int pairs)
{
    const zs_buffer k = p->keys_out == ZS_BUF_KEYS ? ZS_BUF_TMP : ZS_BUF_KEYS;
    const zs_buffer v = k == ZS_BUF_KEYS ? ZS_BUF_VALUES : ZS_BUF_VALUES_TMP;
    *p = (ping_pong){p->keys_out, k, pairs ? p->values_out : p->keys_out, pairs ? v : k, 0};
}

/* After an odd number of in-place passes the result is in the temporaries:
 * bring it home, or, keep_result, leave it there and say so (plan->result). */
static int ping_pong_finish(zs_plan *plan, const ping_pong *p, const zs_plan_request *req)
{
    if (p->keys_in == ZS_BUF_KEYS)
        return 0;
    if (req->keep_result && p->keys_in == ZS_BUF_TMP) {
        plan->result = ZS_BUF_TMP;
        return 0;
    }
    return push_copy(plan, p->keys_in, ZS_BUF_KEYS, req->n * req->key_bytes) ||
           (req->value_bytes &&
            push_copy(plan, p->values_in, ZS_BUF_VALUES, req->n * req->value_bytes));
}

/* Mask of the digit at `shift`: `bits` wide, narrower at the top of the range. */
static uint32_t digit_mask(const zs_plan_request *req, unsigned shift, unsigned bits)
{
    const unsigned width = req->bit_hi - shift < bits ? req->bit_hi - shift : bits;
    return (1u << width) - 1u;
}

/* Exclusive scan of the level-`level` array (TABLE for level 0, SUMS[level-1]
 * above) in place: reduce blocks into SUMS[level], scan those recursively,
 * then scan each block plus its offset. */
static int plan_device_scan(zs_plan *plan, unsigned bins, unsigned level)
{
    uint64_t len = zs_scan_level_len(plan->n, bins, level);
    uint64_t blocks = (len + ZS_SCAN_BLOCK - 1) / ZS_SCAN_BLOCK;
    zs_buffer data = level == 0 ? ZS_BUF_TABLE : (zs_buffer)(ZS_BUF_SUMS0 + level - 1);
    if (blocks <= 1) {
        zs_arg a[] = {buf(data), buf(data), buf(ZS_BUF_PARAMS), val(bins), val(level), val(0)};
        return push_kernel(plan, ZS_K_SCAN_APPLY, 1, ZS_SCAN_LOCAL, 6, a);
    }
    if (level + 1 > ZS_MAX_SCAN_LEVELS)
        return -1; /* unreachable for n < 2^32 */
    zs_buffer sums = (zs_buffer)(ZS_BUF_SUMS0 + level);
    plan->buffer_bytes[sums] = blocks * sizeof(uint32_t);
    zs_arg r[] = {buf(data), buf(sums), buf(ZS_BUF_PARAMS), val(bins), val(level)};
    if (push_kernel(plan, ZS_K_SCAN_REDUCE, blocks, ZS_SCAN_LOCAL, 5, r) ||
        plan_device_scan(plan, bins, level + 1))
        return -1;
    zs_arg a[] = {buf(data), buf(sums), buf(ZS_BUF_PARAMS), val(bins), val(level), val(1)};
    return push_kernel(plan, ZS_K_SCAN_APPLY, blocks, ZS_SCAN_LOCAL, 6, a);
}

/* Sets a whole buffer of `words` uint32 to `value`. */
static int push_fill(zs_plan *plan, zs_kernel fill, zs_buffer b, uint32_t value, uint64_t words)
{
    zs_arg a[] = {buf(b), val(value), val((uint32_t)words)};
    return push_kernel(plan, fill, (words + ZS_OS_FILL_WG - 1) / ZS_OS_FILL_WG, ZS_OS_FILL_WG, 3,
                       a);
}

static void plan_data_buffers(const zs_plan_request *req, zs_plan *out)
{
    out->buffer_bytes[ZS_BUF_KEYS] = req->n * req->key_bytes;
    out->buffer_bytes[ZS_BUF_TMP] = req->n * req->key_bytes;
    out->buffer_bytes[ZS_BUF_PARAMS] = 4 * sizeof(uint32_t);
    if (req->out_of_place)
        out->buffer_bytes[ZS_BUF_KEYS_IN] = req->n * req->key_bytes;
    if (req->value_bytes) {
        out->buffer_bytes[ZS_BUF_VALUES] = req->n * req->value_bytes;
        out->buffer_bytes[ZS_BUF_VALUES_TMP] = req->n * req->value_bytes;
        if (req->out_of_place && !req->iota_values)
            out->buffer_bytes[ZS_BUF_VALUES_IN] = req->n * req->value_bytes;
    }
}

/* Onesweep: a fill of the histograms, all histograms in one read, their
 * scan, then one chained-scan pass per ZS_OS_BITS-bit digit: 3 + passes
 * launches (the kernels clear the passes' status words themselves). */
static int plan_onesweep(const zs_plan_request *req, zs_plan *out)
{
    const int key64 = req->key_bytes == 8;
    const zs_program prog = zs_os_program(key64, req->value_bytes);
    const zs_kernel fill = zs_os_kernel(prog, ZS_OS_FILL);
    const uint64_t tile = zs_os_tile(key64, req->value_bytes != 0, req->serial);
    const uint64_t tiles = (req->n + tile - 1) / tile;
    const uint32_t local = req->serial ? 1 : ZS_OS_WG; /* serial flavor: a work-item per tile */
    const unsigned passes = (req->bit_hi - req->bit_lo + ZS_OS_BITS - 1) / ZS_OS_BITS;
    /* status: one array per pass parity; the histogram kernel clears pass 0's
     * words, each pass the next pass's (kernels/onesweep.cl) */
    const uint64_t hist_words = ZS_OS_HIST_WORDS, status_words = 2 * tiles * ZS_OS_STATUS_WORDS;

    plan_data_buffers(req, out);
    out->buffer_bytes[ZS_BUF_OS_HIST] = hist_words * sizeof(uint32_t);
    out->buffer_bytes[ZS_BUF_OS_STATUS] = status_words * sizeof(uint32_t);

    ping_pong pp = ping_pong_start(req, passes);
    zs_arg h[] = {buf(pp.keys_in), buf(ZS_BUF_OS_HIST), buf(ZS_BUF_OS_STATUS), buf(ZS_BUF_PARAMS),
                  val(req->bit_lo), val(req->bit_hi), val(req->key_flags)};
    zs_arg sh[] = {buf(ZS_BUF_OS_HIST)};
    if (push_fill(out, fill, ZS_BUF_OS_HIST, 0, hist_words) ||
        push_kernel(out, zs_os_kernel(prog, ZS_OS_HISTOGRAM), tiles, local, 7, h) ||
        push_kernel(out, zs_os_kernel(prog, ZS_OS_SCAN_HIST), passes, ZS_OS_BINS, 1, sh))
        return -1;

    for (unsigned p = 0; p < passes; ++p) {
        const unsigned shift = req->bit_lo + ZS_OS_BITS * p;
        zs_arg a[] = {buf(pp.keys_in), buf(pp.keys_out), buf(pp.values_in), buf(pp.values_out),
                      buf(ZS_BUF_OS_HIST), buf(ZS_BUF_OS_STATUS), buf(ZS_BUF_PARAMS), val(shift),
                      val(digit_mask(req, shift, ZS_OS_BITS)), val(req->key_flags | pp.first_flags),
                      val(p)};
        if (push_kernel(out, zs_os_kernel(prog, ZS_OS_PASS), tiles, local, 11, a))
            return -1;
        ping_pong_swap(&pp, req->value_bytes != 0);
    }
    return ping_pong_finish(out, &pp, req);
}

/* The CM design: per digit, count, scan (host or device), bucket. */
static int plan_cm(const zs_plan_request *req, zs_plan *out)
{
    const unsigned bits = (unsigned)req->radix_bits;
    const unsigned bins = 1u << bits;
    const uint64_t chunks = zs_chunks(req->n);
    const int key64 = req->key_bytes == 8;
    /* sub-group flavors: a work-group (one sub-group) per chunk; serial flavor:
     * a work-item per chunk, ZS_LANES of them per work-group */
    const uint64_t groups = req->serial ? (chunks + ZS_LANES - 1) / ZS_LANES : chunks;
    /* counting never looks at values: the keys-only program serves pairs too */
    const zs_kernel count = zs_cm_kernel(zs_cm_program(req->radix_bits, key64, 0), 0);
    const zs_kernel bucket =
        zs_cm_kernel(zs_cm_program(req->radix_bits, key64, req->value_bytes), 1);
    const unsigned passes = (req->bit_hi - req->bit_lo + bits - 1) / bits;

    plan_data_buffers(req, out);
    out->buffer_bytes[ZS_BUF_TABLE] = (uint64_t)bins * chunks * sizeof(uint32_t);

    ping_pong pp = ping_pong_start(req, passes);
    for (unsigned shift = req->bit_lo; shift < req->bit_hi; shift += bits) {
        const uint32_t mask = digit_mask(req, shift, bits);
        zs_arg c[] = {buf(pp.keys_in), buf(ZS_BUF_TABLE), buf(ZS_BUF_PARAMS), val(shift), val(mask),
                      val(req->key_flags)};
        if (push_kernel(out, count, groups, ZS_LANES, 6, c))
            return -1;
        if (req->host_scan) {
            zs_step *s = push(out);
            if (!s)
                return -1;
            s->kind = ZS_STEP_HOST_SCAN;
            s->table_len = (uint64_t)bins * chunks;
        } else if (plan_device_scan(out, bins, 0)) {
            return -1;
        }
        zs_arg b[] = {buf(pp.keys_in), buf(pp.keys_out), buf(pp.values_in),
                      buf(pp.values_out), buf(ZS_BUF_TABLE), buf(ZS_BUF_PARAMS),
                      val(shift), val(mask), val(req->key_flags | pp.first_flags)};
        if (push_kernel(out, bucket, groups, ZS_LANES, 9, b))
            return -1;
        ping_pong_swap(&pp, req->value_bytes != 0);
    }
    return ping_pong_finish(out, &pp, req);
}

uint64_t zs_small_max(int serial, unsigned key_bytes, unsigned value_bytes)
{
    return ZS_SMALL_MAX(serial != 0, key_bytes == 8 || value_bytes != 0);
}

uint64_t zs_plan_launches(const zs_plan *plan)
{
    uint64_t launches = 0;
    for (size_t i = 0; i < plan->nsteps; i++)
        launches += plan->steps[i].kind == ZS_STEP_KERNEL && plan->steps[i].groups > 0;
    return launches;
}

int zs_plan_push_small(zs_plan *plan, const zs_plan_request *req, const zs_small_buffers *b,
                       uint32_t out_count)
{
    const uint32_t flags = req->key_flags | (req->iota_values ? ZS_IOTA_VALUES : 0u);
    zs_arg a[] = {buf(b->keys_in), buf(b->keys), buf(b->tmp), buf(b->values_in), buf(b->values),
                  buf(b->values_tmp), buf(b->out_keys), buf(b->out_values), buf(b->params),
                  val(out_count), val(req->bit_lo), val(req->bit_hi), val(flags)};
    return push_kernel(plan, zs_seg_entry_kernel(req->key_bytes == 8, req->value_bytes,
                                                 ZS_SEG_SMALL),
                       1, req->serial ? 1 : ZS_LANES, 13, a);
}

/* A small sort: one small_sort launch over the plan's own buffers, the
 * result in KEYS (VALUES). Keys-only programs are given the key buffers as
 * values (ignored); an argsort's VALUES stands in for its input values. */
static int plan_small(const zs_plan_request *req, zs_plan *out)
{
    plan_data_buffers(req, out);
    const int pairs = req->value_bytes != 0;
    const zs_buffer keys_in = req->out_of_place ? ZS_BUF_KEYS_IN : ZS_BUF_KEYS;
    const zs_buffer values = pairs ? ZS_BUF_VALUES : ZS_BUF_KEYS;
    const zs_buffer values_in = !pairs ? keys_in
                                : req->out_of_place && !req->iota_values ? ZS_BUF_VALUES_IN
                                                                         : ZS_BUF_VALUES;
    const zs_small_buffers b = {keys_in, ZS_BUF_KEYS, ZS_BUF_TMP, values_in, values,
                                pairs ? ZS_BUF_VALUES_TMP : ZS_BUF_TMP, ZS_BUF_KEYS, values,
                                ZS_BUF_PARAMS};
    return zs_plan_push_small(out, req, &b, 0);
}

int zs_plan_segments(const zs_plan_request *req, const uint64_t *host_offsets, uint64_t segments,
                     uint32_t max_len, zs_plan *out)
{
    memset(out, 0, sizeof *out);
    out->n = req->n;
    if (req->n == 0 || segments == 0)
        return 0;
    const uint64_t window = ZS_SEG_WINDOW(req->serial != 0);
    /* keys-only programs are given the key buffers as values (ignored) */
    const zs_buffer keys_in = req->out_of_place ? ZS_BUF_KEYS_IN : ZS_BUF_KEYS;
    const zs_buffer values = req->value_bytes ? ZS_BUF_VALUES : ZS_BUF_KEYS;
    const zs_buffer values_in = req->value_bytes && req->out_of_place ? ZS_BUF_VALUES_IN : values;
    const zs_buffer values_tmp = req->value_bytes ? ZS_BUF_VALUES_TMP : ZS_BUF_TMP;
    plan_data_buffers(req, out);
    out->buffer_bytes[ZS_BUF_SEG_OFFSETS] = (segments + 1) * sizeof(uint64_t);
    out->host_init[ZS_BUF_SEG_OFFSETS] = host_offsets;
    zs_arg a[] = {buf(keys_in), buf(ZS_BUF_KEYS), buf(ZS_BUF_TMP), buf(values_in), buf(values),
                  buf(values_tmp), buf(ZS_BUF_SEG_OFFSETS), buf(ZS_BUF_PARAMS),
                  val((uint32_t)segments), val(max_len), val(req->bit_lo), val(req->bit_hi),
                  val(req->key_flags)};
    if (push_kernel(out, zs_seg_kernel(req->key_bytes == 8, req->value_bytes),
                    (req->n + window - 1) / window, req->serial ? 1 : ZS_LANES, 13, a) == 0)
        return 0;
    zs_plan_free(out);
    return -1;
}

/* The buffers of zs_plan_segments_device's form, and the seg_check step. */
static int plan_segments_check(const zs_plan_request *req, uint32_t flags, uint32_t max_segments,
                               zs_plan *out)
{
    const uint64_t width = flags & ZS_SEG_F_U64 ? 8 : 4;
    const int begin_end = (flags & ZS_SEG_F_BEGIN_END) != 0;
    const uint64_t offsets = begin_end ? max_segments : (uint64_t)max_segments + 1;
    /* no segment to read: the kernels read no offsets (S + 1 offsets: offsets[0] alone
     * is no segment either) */
    const int none = max_segments == 0;
    out->buffer_bytes[ZS_BUF_SEG_OFFSETS] = none ? 0 : offsets * width;
    out->buffer_bytes[ZS_BUF_SEG_ENDS] = none || !begin_end ? 0 : max_segments * width;
    out->buffer_bytes[ZS_BUF_SEG_COUNT] = flags & ZS_SEG_F_COUNT ? sizeof(uint32_t) : 0;
    out->buffer_bytes[ZS_BUF_SEG_STATUS] = 2 * sizeof(uint32_t);
    const zs_buffer begins = none ? ZS_BUF_SEG_STATUS : ZS_BUF_SEG_OFFSETS;
    const zs_buffer ends = begin_end && !none ? ZS_BUF_SEG_ENDS : begins;
    const zs_buffer count = flags & ZS_SEG_F_COUNT ? ZS_BUF_SEG_COUNT : ZS_BUF_SEG_STATUS;
    zs_arg c[] = {buf(begins), buf(ends), buf(count), buf(ZS_BUF_SEG_STATUS), val((uint32_t)req->n),
                  val(max_segments), val(flags)};
    return push_kernel(out, zs_seg_entry_kernel(req->key_bytes == 8, req->value_bytes,
                                                ZS_SEG_CHECK), 1, ZS_LANES, 7, c);
}

/* The most segments of more than ZS_SEG_LARGE_MIN keys among max_segments
 * that do not overlap in n keys: the large segments' list, whose tiles are
 * then at most ceil(n / tile) + this. */
static uint32_t max_large_segments(const zs_plan_request *req, uint32_t max_segments)
{
    const uint64_t most = req->n / ((uint64_t)ZS_SEG_LARGE_MIN(req->serial != 0) + 1);
    return most < max_segments ? (uint32_t)most : max_segments;
}

/* The large segments: seg_classify lists them and numbers their
 * tiles, then the onesweep passes per segment over those tiles (os_seg_*),
 * ping-ponging within the segments' stretches of KEYS and TMP, and a copy
 * home of those stretches after an odd number of passes. seg: seg_check's
 * begins, ends, count, status; params: PARAMS or a stand-in. The grids are
 * sized for the most tiles there can be; surplus work-groups exit. */
static int plan_large_segments(const zs_plan_request *req, uint32_t flags, uint32_t max_segments,
                               uint32_t max_large, const zs_arg *seg, zs_buffer params,
                               zs_plan *out)
{
    const int key64 = req->key_bytes == 8;
    const zs_program prog = zs_os_program(key64, req->value_bytes);
    const uint64_t tile = zs_os_tile(key64, req->value_bytes != 0, req->serial);
    const uint64_t tiles = (req->n + tile - 1) / tile + max_large;
    const uint32_t local = req->serial ? 1 : ZS_OS_WG;
    const unsigned passes = (req->bit_hi - req->bit_lo + ZS_OS_BITS - 1) / ZS_OS_BITS;
    const uint64_t hist_words = (uint64_t)max_large * passes * ZS_OS_BINS;
    out->buffer_bytes[ZS_BUF_OS_HIST] = hist_words * sizeof(uint32_t);
    out->buffer_bytes[ZS_BUF_OS_STATUS] = tiles * ZS_OS_STATUS_WORDS * sizeof(uint32_t);
    out->buffer_bytes[ZS_BUF_SEG_LARGE] =
        (ZS_SEG_LARGE_HEAD + (uint64_t)ZS_SEG_LARGE_ENTRY * max_large) * sizeof(uint32_t);
    const zs_kernel fill = zs_os_kernel(prog, ZS_OS_FILL);
    const zs_buffer large = ZS_BUF_SEG_LARGE;
    zs_arg c[] = {seg[0], seg[1], seg[2], seg[3], buf(params), buf(large), val(max_segments),
                  val(flags), val(max_large)};
    zs_arg h[] = {buf(ZS_BUF_KEYS), buf(ZS_BUF_OS_HIST), buf(large), val(req->bit_lo),
                  val(req->bit_hi), val(req->key_flags)};
    zs_arg sh[] = {buf(ZS_BUF_OS_HIST)};
    if (push_fill(out, fill, ZS_BUF_OS_HIST, 0, hist_words) ||
        push_kernel(out, zs_seg_entry_kernel(key64, req->value_bytes, ZS_SEG_CLASSIFY), 1,
                    ZS_LANES, 9, c) ||
        push_kernel(out, zs_os_kernel(prog, ZS_OS_SEG_HISTOGRAM), tiles, local, 6, h) ||
        push_kernel(out, zs_os_kernel(prog, ZS_OS_SCAN_HIST), (uint64_t)max_large * passes,
                    ZS_OS_BINS, 1, sh))
        return -1;
    ping_pong pp = ping_pong_start(req, passes);
    for (unsigned p = 0; p < passes; ++p) {
        const unsigned shift = req->bit_lo + ZS_OS_BITS * p;
        zs_arg a[] = {buf(pp.keys_in), buf(pp.keys_out), buf(pp.values_in), buf(pp.values_out),
                      buf(ZS_BUF_OS_HIST), buf(ZS_BUF_OS_STATUS), buf(large), val(shift),
                      val(digit_mask(req, shift, ZS_OS_BITS)), val(req->key_flags), val(p),
                      val(passes)};
        if (push_fill(out, fill, ZS_BUF_OS_STATUS, 0xFFFFFFFFu, tiles * ZS_OS_STATUS_WORDS) ||
            push_kernel(out, zs_os_kernel(prog, ZS_OS_SEG_PASS), tiles, local, 12, a))
            return -1;
        ping_pong_swap(&pp, req->value_bytes != 0);
    }
    if (pp.keys_in == ZS_BUF_KEYS)
        return 0;
    zs_arg home[] = {buf(pp.keys_in), buf(ZS_BUF_KEYS), buf(pp.values_in),
                     buf(req->value_bytes ? ZS_BUF_VALUES : ZS_BUF_KEYS), buf(large),
                     val(req->key_flags)};
    return push_kernel(out, zs_os_kernel(prog, ZS_OS_SEG_COPY), tiles, local, 6, home);
}

/* seg_sort_ranges: a work-group per segment, by stride over more (about
 * ZS_SEG_STRIDE_KEYS keys each); the large ones left out when planned. */
static int plan_sort_ranges(const zs_plan_request *req, uint32_t flags, uint32_t max_segments,
                            const zs_arg *seg, zs_buffer params, zs_plan *out)
{
    /* keys-only programs are given the key buffers as values (ignored) */
    const zs_buffer values = req->value_bytes ? ZS_BUF_VALUES : ZS_BUF_KEYS;
    const zs_buffer values_tmp = req->value_bytes ? ZS_BUF_VALUES_TMP : ZS_BUF_TMP;
    zs_arg a[] = {buf(ZS_BUF_KEYS), buf(ZS_BUF_TMP), buf(values), buf(values_tmp), seg[0],
                  seg[1], seg[2], seg[3], buf(params), val(max_segments), val((uint32_t)req->n),
                  val(flags), val(req->bit_lo), val(req->bit_hi), val(req->key_flags)};
    const uint64_t per_group = ZS_SEG_STRIDE_KEYS(req->serial != 0);
    uint64_t groups = (req->n + per_group - 1) / per_group;
    groups = groups < max_segments ? groups : max_segments;
    return push_kernel(out, zs_seg_entry_kernel(req->key_bytes == 8, req->value_bytes,
                                                ZS_SEG_SORT_RANGES),
                       groups, req->serial ? 1 : ZS_LANES, 15, a);
}

/* A small segmented sort: seg_check's step becomes one seg_sort_ranges
 * work-group that checks (against the plan's n) and sorts. */
static int plan_small_segments(const zs_plan_request *req, uint32_t flags, uint32_t max_segments,
                               const zs_arg *seg, zs_buffer params, zs_plan *out)
{
    out->nsteps = 0;
    if (plan_sort_ranges(req, flags | ZS_SEG_F_CHECK, max_segments, seg, params, out))
        return -1;
    out->steps[0].groups = 1;
    return 0;
}

int zs_plan_segments_device(const zs_plan_request *req, uint32_t flags, uint32_t max_segments,
                            int check_only_status, zs_plan *out)
{
    memset(out, 0, sizeof *out);
    out->n = req->n;
    const int sorts = req->n > 0 && max_segments > 0;
    if (!sorts && !check_only_status)
        return 0;
    if (plan_segments_check(req, flags, max_segments, out) != 0) {
        zs_plan_free(out);
        return -1;
    }
    if (!sorts)
        return 0;
    plan_data_buffers(req, out);
    /* params only for a device-side key count: [0] the count, [1] n (the
     * recording fills them, as for every plan); otherwise n is not read (the
     * offsets are checked against it) and the argument names SEG_STATUS */
    const int n_count = (flags & ZS_SEG_F_N_COUNT) != 0;
    out->buffer_bytes[ZS_BUF_PARAMS] = n_count ? 2 * sizeof(uint32_t) : 0;
    const zs_buffer params = n_count ? ZS_BUF_PARAMS : ZS_BUF_SEG_STATUS;
    zs_arg seg[4]; /* seg_check's: begins, ends, count, status */
    memcpy(seg, out->steps[0].args, sizeof seg);
    const uint32_t max_large = max_large_segments(req, max_segments);
    const uint32_t sort_flags = flags | (max_large ? ZS_SEG_F_SKIP_LARGE : 0u);
    if (req->small) { /* one launch: seg_sort_ranges checks the segments itself */
        if (plan_small_segments(req, flags, max_segments, seg, params, out) == 0)
            return 0;
    } else if (plan_sort_ranges(req, sort_flags, max_segments, seg, params, out) == 0 &&
        (!max_large ||
         plan_large_segments(req, flags, max_segments, max_large, seg, params, out) == 0))
        return 0;
    zs_plan_free(out);
    return -1;
}

int zs_plan_build(const zs_plan_request *req, zs_plan *out)
{
    memset(out, 0, sizeof *out);
    out->n = req->n;
    if (req->n == 0)
        return 0;
    const int rc = req->small                    ? plan_small(req, out)
                   : req->radix_bits == ZS_OS_BITS ? plan_onesweep(req, out)
                                                   : plan_cm(req, out);
    if (rc == 0)
        return 0;
    zs_plan_free(out);
    return -1;
}

void zs_plan_free(zs_plan *plan)
{
    free(plan->steps);
    memset(plan, 0, sizeof *plan);
}

/* plan_steps.h: the step builders, for the planners of composed plans. */
zs_step *zs_plan_push_step(zs_plan *plan) { return push(plan); }

int zs_plan_push_kernel(zs_plan *plan, zs_kernel k, uint64_t groups, uint32_t local, int nargs,
                        const zs_arg *args)
{
    return push_kernel(plan, k, groups, local, nargs, args);
}

int zs_plan_push_copy(zs_plan *plan, zs_buffer src, zs_buffer dst, uint64_t bytes)
{
    return push_copy(plan, src, dst, bytes);
}

int zs_plan_device_scan(zs_plan *plan, unsigned bins) { return plan_device_scan(plan, bins, 0); }
