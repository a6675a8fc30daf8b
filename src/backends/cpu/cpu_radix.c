/*
 * cpu_radix.c — the C fallback's radix passes: a stable radix sort on the
 * keys themselves (1-, 2-, 4- or 8-byte, values of 4 or 8 bytes moved along),
 * multi-threaded (backend_cpu.c chooses between them and vqsort).
 *
 * One read of the input counts every digit (per thread, over contiguous
 * blocks); a digit whose count is n in one bin is the same for every key and
 * its pass is skipped. Then one of two strategies:
 *
 * - top digit first (from msd_min_keys keys on, when no bucket of the top executed digit
 *   holds more than half a thread's share): one parallel scatter by that
 *   digit to the temporary copy, then each thread sorts the buckets that
 *   start in its block back into the caller's arrays by LSD passes of 8-bit
 *   digits that run in cache (a bucket's counts come from one read; constant
 *   digits skipped). Measured 1.7x faster than the other for 16M random u64
 *   keys, 1.3x for pairs, u32 alike (bench/cpu_vs_std.cpp).
 * - LSD passes over the whole input (skewed keys): each pass, every thread
 *   counts its block's digit (not needed for the first pass, nor with one
 *   thread: counts do not depend on the order), the caller turns the
 *   (bin, thread) counts into offsets in bin-major order, and every thread
 *   scatters its block stably to its offsets. Passes ping-pong between the
 *   caller's arrays and one temporary copy; an odd number of executed
 *   passes ends with a parallel copy back.
 *
 * The ordered-key transform costs nothing for integers (a constant xor
 * applied to bin numbers) and a few operations per key for floats
 * (key_order.h).
 */
#include "backends/cpu/cpu_radix.h"

#include <stdlib.h>
#include <string.h>

#include "backends/cpu/cpu_threads.h"
#include "backends/cpu/key_order.h"
#include "common/host_memory.h"

/* Buckets of at most this many keys are sorted by insertion on their low
 * bits instead of LSD passes: for a few keys the passes' 256-bin tables
 * (cleared, counted, turned into offsets per digit) cost more than the keys.
 * Measured with build/bench/auto_backend (32K random u32 keys split into
 * 1024 buckets of ~32): see the README's "Measured results". */
#define ZS_CPU_SMALL_BUCKET 64u

#define ZS_K uint8_t
#define ZS_SFX 8
#include "backends/cpu/cpu_radix_kernels.h"
#undef ZS_K
#undef ZS_SFX
#define ZS_K uint16_t
#define ZS_SFX 16
#include "backends/cpu/cpu_radix_kernels.h"
#undef ZS_K
#undef ZS_SFX
#define ZS_K uint32_t
#define ZS_SFX 32
#include "backends/cpu/cpu_radix_kernels.h"
#undef ZS_K
#undef ZS_SFX
#define ZS_K uint64_t
#define ZS_SFX 64
#include "backends/cpu/cpu_radix_kernels.h"
#undef ZS_K
#undef ZS_SFX

/* The loops of cpu_radix_kernels.h for a key width of kb bytes (1, 2, 4, 8):
 * one switch per call, outside the loops. */
static void hist_all(unsigned kb, const void *keys, size_t b, size_t e, unsigned ndig,
                     const unsigned *shift, const unsigned *mask, unsigned bins, uint32_t *h,
                     int flt)
{
    switch (kb) {
    case 1: zs_hist_all8(keys, b, e, ndig, shift, mask, bins, h, flt); break;
    case 2: zs_hist_all16(keys, b, e, ndig, shift, mask, bins, h, flt); break;
    case 4: zs_hist_all32(keys, b, e, ndig, shift, mask, bins, h, flt); break;
    default: zs_hist_all64(keys, b, e, ndig, shift, mask, bins, h, flt); break;
    }
}

static void count_digit(unsigned kb, const void *keys, size_t b, size_t e, unsigned shift,
                        unsigned mask, uint32_t *h, int flt)
{
    switch (kb) {
    case 1: zs_count8(keys, b, e, shift, mask, h, flt); break;
    case 2: zs_count16(keys, b, e, shift, mask, h, flt); break;
    case 4: zs_count32(keys, b, e, shift, mask, h, flt); break;
    default: zs_count64(keys, b, e, shift, mask, h, flt); break;
    }
}

static void scatter(unsigned kb, const void *sk, const void *sv, void *dk, void *dv, unsigned vb,
                    size_t b, size_t e, unsigned shift, unsigned mask, uint32_t *off, int flt)
{
    switch (kb) {
    case 1: zs_scatter8(sk, sv, dk, dv, vb, b, e, shift, mask, off, flt); break;
    case 2: zs_scatter16(sk, sv, dk, dv, vb, b, e, shift, mask, off, flt); break;
    case 4: zs_scatter32(sk, sv, dk, dv, vb, b, e, shift, mask, off, flt); break;
    default: zs_scatter64(sk, sv, dk, dv, vb, b, e, shift, mask, off, flt); break;
    }
}

static void small_sort(unsigned kb, const void *src, const void *vsrc, void *dst, void *vdst,
                       unsigned vb, size_t b, size_t e, unsigned base, uint64_t mask, uint64_t c,
                       int flt)
{
    switch (kb) {
    case 1: zs_small_sort8(src, vsrc, dst, vdst, vb, b, e, base, mask, c, flt); break;
    case 2: zs_small_sort16(src, vsrc, dst, vdst, vb, b, e, base, mask, c, flt); break;
    case 4: zs_small_sort32(src, vsrc, dst, vdst, vb, b, e, base, mask, c, flt); break;
    default: zs_small_sort64(src, vsrc, dst, vdst, vb, b, e, base, mask, c, flt); break;
    }
}

#define ZS_CPU_MAX_DIGITS 64u

typedef enum phase { PHASE_HIST_ALL, PHASE_COUNT, PHASE_SCATTER, PHASE_COPY, PHASE_BUCKETS } phase;

/* The passes inside one bucket after a most-significant-digit-first pass:
 * digits of at most 8 bits (a bucket is small: 256 bins keep the counts
 * in L1), at most 8 of them below the top digit. */
#define ZS_CPU_LOW_BITS 8u
#define ZS_CPU_LOW_BINS (1u << ZS_CPU_LOW_BITS)
#define ZS_CPU_LOW_DIGITS 8u
#define ZS_CPU_MAX_BINS (1u << ZS_CPU_MAX_DIGIT_BITS)

/* What the team's members share; written by the caller between phases. */
typedef struct job {
    size_t n;
    unsigned key_bytes, value_bytes, members, bins, ndig;
    int flt;
    unsigned shift[ZS_CPU_MAX_DIGITS], mask[ZS_CPU_MAX_DIGITS];
    uint32_t *hist;     /* [member][digit][bin]: the initial counts, then each pass's */
    uint32_t *off;      /* [member][bin]: the current pass's first slots */
    phase what;
    unsigned digit;     /* of the current pass */
    const void *src_k;  /* current pass: from */
    const void *src_v;
    void *dst_k;        /* to */
    void *dst_v;
    /* most significant digit first: the buckets of the top digit, in tmp */
    uint32_t bucket[ZS_CPU_MAX_BINS + 1]; /* bucket b is [bucket[b], bucket[b + 1]) */
    unsigned low_ndig;
    unsigned low_shift[ZS_CPU_LOW_DIGITS], low_mask[ZS_CPU_LOW_DIGITS], low_flip[ZS_CPU_LOW_DIGITS];
    /* small buckets: the bits below the top digit of the ordered key,
     * ((dk(k) ^ low_c) >> low_base) & low_keymask */
    unsigned low_base;
    uint64_t low_c, low_keymask;
    uint32_t *low;      /* [member][(LOW_DIGITS + 1) * LOW_BINS]: counts, then offsets */
    /* the whole sort: the caller's arrays, the temporary copy, the team */
    void *keys, *values, *tmp_k, *tmp_v;
    zs_team *team;
    unsigned bit_lo, bit_hi;
    uint64_t c;                      /* the ordered key is dk(k) ^ c (key_order.h) */
    unsigned flip[ZS_CPU_MAX_DIGITS]; /* digit d's bits of c */
} job;

static void sort_buckets(job *j, unsigned m, unsigned members);

static void run_phase(void *arg, unsigned m, unsigned members)
{
    job *j = arg;
    const size_t b = (size_t)((uint64_t)j->n * m / members);
    const size_t e = (size_t)((uint64_t)j->n * (m + 1) / members);
    uint32_t *hist = j->hist + (size_t)m * j->ndig * j->bins;
    switch (j->what) {
    case PHASE_HIST_ALL:
        memset(hist, 0, (size_t)j->ndig * j->bins * sizeof *hist);
        hist_all(j->key_bytes, j->src_k, b, e, j->ndig, j->shift, j->mask, j->bins, hist, j->flt);
        break;
    case PHASE_COUNT: {
        uint32_t *h = hist + (size_t)j->digit * j->bins;
        memset(h, 0, j->bins * sizeof *h);
        count_digit(j->key_bytes, j->src_k, b, e, j->shift[j->digit], j->mask[j->digit], h,
                    j->flt);
        break;
    }
    case PHASE_SCATTER: {
        uint32_t *off = j->off + (size_t)m * j->bins;
        const unsigned s = j->shift[j->digit], mk = j->mask[j->digit];
        scatter(j->key_bytes, j->src_k, j->src_v, j->dst_k, j->dst_v, j->value_bytes, b, e, s,
                mk, off, j->flt);
        break;
    }
    case PHASE_BUCKETS:
        sort_buckets(j, m, members);
        break;
    case PHASE_COPY:
        memcpy((char *)j->dst_k + b * j->key_bytes, (const char *)j->src_k + b * j->key_bytes,
               (e - b) * j->key_bytes);
        if (j->dst_v)
            memcpy((char *)j->dst_v + b * j->value_bytes,
                   (const char *)j->src_v + b * j->value_bytes, (e - b) * j->value_bytes);
        break;
    }
}

/* Member m's buckets (those that start in its block), each sorted from the
 * temporary copy (src) into the caller's arrays (dst) by the digits below the
 * top one: LSD passes in cache, constant digits skipped, a copy when the
 * number of passes leaves the bucket in src. */
static void sort_buckets(job *j, unsigned m, unsigned members)
{
    const size_t lo = (size_t)((uint64_t)j->n * m / members);
    const size_t hi = (size_t)((uint64_t)j->n * (m + 1) / members);
    const unsigned nb = j->bins, nd = j->low_ndig;
    uint32_t *h = j->low + (size_t)m * (ZS_CPU_LOW_DIGITS + 1) * ZS_CPU_LOW_BINS;
    uint32_t *off = h + (size_t)ZS_CPU_LOW_DIGITS * ZS_CPU_LOW_BINS;
    const size_t kb = j->key_bytes;
    for (unsigned b = 0; b < nb; ++b) {
        const size_t s = j->bucket[b], e = j->bucket[b + 1];
        if (s < lo || s >= hi || e == s)
            continue;
        if (e - s <= ZS_CPU_SMALL_BUCKET) {
            small_sort((unsigned)kb, j->src_k, j->src_v, j->dst_k, j->dst_v, j->value_bytes, s,
                       e, j->low_base, j->low_keymask, j->low_c, j->flt);
            continue;
        }
        char *ks = (char *)j->src_k, *kd = j->dst_k;
        char *vs = (char *)j->src_v, *vd = j->dst_v;
        const size_t vb = j->value_bytes;
        unsigned passes = 0, pd[ZS_CPU_LOW_DIGITS];
        if (e - s > 1) {
            memset(h, 0, (size_t)nd * ZS_CPU_LOW_BINS * sizeof *h);
            hist_all((unsigned)kb, ks, s, e, nd, j->low_shift, j->low_mask, ZS_CPU_LOW_BINS, h,
                     j->flt);
            for (unsigned d = 0; d < nd; ++d) {
                int constant = 0;
                for (unsigned x = 0; x < ZS_CPU_LOW_BINS && !constant; ++x)
                    constant = h[d * ZS_CPU_LOW_BINS + x] == e - s;
                if (!constant)
                    pd[passes++] = d;
            }
        }
        for (unsigned p = 0; p < passes; ++p) {
            const unsigned d = pd[p];
            /* a digit's counts over the bucket do not depend on the order */
            const uint32_t *hd = h + (size_t)d * ZS_CPU_LOW_BINS;
            uint32_t running = (uint32_t)s;
            for (unsigned ob = 0; ob < ZS_CPU_LOW_BINS; ++ob) {
                const unsigned raw = ob ^ j->low_flip[d];
                off[raw] = running;
                running += hd[raw];
            }
            scatter((unsigned)kb, ks, vs, kd, vd, j->value_bytes, s, e, j->low_shift[d],
                    j->low_mask[d], off, j->flt);
            char *tk = ks;
            ks = kd, kd = tk;
            char *tv = vs;
            vs = vd, vd = tv;
        }
        if (ks != (char *)j->dst_k) { /* even passes: the bucket is still in src */
            memcpy((char *)j->dst_k + s * kb, ks + s * kb, (e - s) * kb);
            if (vs)
                memcpy((char *)j->dst_v + s * vb, vs + s * vb, (e - s) * vb);
        }
    }
}

/* Offsets of digit d's pass: bins in ordered-key order (raw bin ^ flip), each
 * bin's members in block order, so equal digits keep their input order. */
static void make_offsets(job *j, unsigned d, unsigned flip)
{
    uint32_t running = 0;
    const size_t stride = (size_t)j->ndig * j->bins;
    for (unsigned ob = 0; ob < j->bins; ++ob) {
        const unsigned raw = ob ^ flip;
        for (unsigned m = 0; m < j->members; ++m) {
            j->off[(size_t)m * j->bins + raw] = running;
            running += j->hist[m * stride + (size_t)d * j->bins + raw];
        }
    }
}

/* The digits of bits [bit_lo, bit_hi): the fewest of at most cfg's width
 * (8 bits below small_keys keys), widths balanced. */
static void plan_digits(job *j, const zs_cpu_config *cfg)
{
    unsigned want_bits = cfg->digit_bits;
    if (want_bits < 1)
        want_bits = 1;
    if (want_bits > ZS_CPU_MAX_DIGIT_BITS)
        want_bits = ZS_CPU_MAX_DIGIT_BITS;
    if (j->n < cfg->small_keys && want_bits > 8)
        want_bits = 8;
    const unsigned bits = j->bit_hi - j->bit_lo;
    const unsigned ndig = (bits + want_bits - 1) / want_bits;
    const unsigned width = (bits + ndig - 1) / ndig;
    j->bins = 1u << width;
    j->ndig = ndig;
    for (unsigned d = 0; d < ndig; ++d) {
        j->shift[d] = j->bit_lo + d * width;
        const unsigned w = j->bit_hi - j->shift[d] < width ? j->bit_hi - j->shift[d] : width;
        j->mask[d] = (1u << w) - 1u;
        j->flip[d] = (unsigned)(j->c >> j->shift[d]) & j->mask[d];
    }
}

/* Frees what take_memory took (any of it). */
static void release(job *j)
{
    zs_team_stop(j->team);
    free(j->tmp_k), free(j->tmp_v), free(j->hist), free(j->off), free(j->low), free(j);
}

/* All memory before the first write to the caller's arrays: the temporary
 * copy, the team of `threads` and its counters. 0 when out of host memory. */
static int take_memory(job *j, unsigned threads, unsigned create_limit)
{
    j->tmp_k = zs_alloc_big(j->n * j->key_bytes);
    j->tmp_v = j->values ? zs_alloc_big(j->n * j->value_bytes) : NULL;
    if (!j->tmp_k || (j->values && !j->tmp_v))
        return 0;
    j->team = zs_team_start(threads, create_limit);
    j->members = zs_team_size(j->team);
    j->hist = malloc((size_t)j->members * j->ndig * j->bins * sizeof *j->hist);
    j->off = malloc((size_t)j->members * j->bins * sizeof *j->off);
    j->low = malloc((size_t)j->members * (ZS_CPU_LOW_DIGITS + 1) * ZS_CPU_LOW_BINS *
                    sizeof *j->low);
    return j->hist && j->off && j->low;
}

/* The digits that need a pass, from the members' counts of the first read:
 * a digit with all n keys in one bin is the same for every key. */
static unsigned varying_digits(const job *j, unsigned *pass_digit)
{
    unsigned passes = 0;
    const size_t stride = (size_t)j->ndig * j->bins;
    for (unsigned d = 0; d < j->ndig; ++d) {
        int constant = 0;
        for (unsigned b = 0; b < j->bins && !constant; ++b) {
            uint64_t total = 0;
            for (unsigned m = 0; m < j->members; ++m)
                total += j->hist[m * stride + (size_t)d * j->bins + b];
            constant = total == j->n;
        }
        if (!constant)
            pass_digit[passes++] = d;
    }
    return passes;
}

/* The buckets of the top digit (bucket[]) from the members' counts; returns
 * the biggest bucket's keys. */
static uint64_t top_buckets(job *j, unsigned top)
{
    const size_t stride = (size_t)j->ndig * j->bins;
    uint64_t biggest = 0, running = 0;
    for (unsigned ob = 0; ob < j->bins; ++ob) {
        const unsigned raw = ob ^ j->flip[top];
        uint64_t total = 0;
        for (unsigned m = 0; m < j->members; ++m)
            total += j->hist[m * stride + (size_t)top * j->bins + raw];
        j->bucket[ob] = (uint32_t)running;
        running += total;
        biggest = total > biggest ? total : biggest;
    }
    j->bucket[j->bins] = (uint32_t)running;
    return biggest;
}

/* The digits below the top one, sorted inside each bucket: 8-bit digits
 * from bit_lo, and what small buckets sort by. */
static void plan_low_digits(job *j, unsigned top, unsigned low_bits)
{
    j->low_ndig = (low_bits + ZS_CPU_LOW_BITS - 1) / ZS_CPU_LOW_BITS;
    const unsigned lw = (low_bits + j->low_ndig - 1) / j->low_ndig;
    for (unsigned d = 0; d < j->low_ndig; ++d) {
        j->low_shift[d] = j->bit_lo + d * lw;
        const unsigned left = j->shift[top] - j->low_shift[d];
        j->low_mask[d] = (1u << (left < lw ? left : lw)) - 1u;
        j->low_flip[d] = (unsigned)(j->c >> j->low_shift[d]) & j->low_mask[d];
    }
    j->low_base = j->bit_lo;
    j->low_c = j->c;
    j->low_keymask = low_bits >= 64 ? UINT64_MAX : (UINT64_C(1) << low_bits) - 1;
}

/* Runs one phase on every member: from (sk, sv) to (dk, dv). */
static void phase_run(job *j, phase what, const void *sk, const void *sv, void *dk, void *dv)
{
    j->what = what;
    j->src_k = sk, j->src_v = sv;
    j->dst_k = dk, j->dst_v = dv;
    zs_team_run(j->team, run_phase, j);
}

/* Most significant digit first, when no bucket of the top digit holds more
 * than half a member's share: one pass through memory to tmp, then each
 * member sorts its buckets in cache back into the caller's arrays. Returns
 * 1 when the keys are sorted, 0 when the LSD passes should run instead. */
static int top_digit_first(job *j, const unsigned *pass_digit, unsigned passes)
{
    const unsigned top = pass_digit[passes - 1];
    const uint64_t biggest = top_buckets(j, top);
    const unsigned low_bits = j->shift[top] - j->bit_lo;
    if (biggest * 2 * j->members > j->n || low_bits > ZS_CPU_LOW_BITS * ZS_CPU_LOW_DIGITS)
        return 0;
    plan_low_digits(j, top, low_bits);
    make_offsets(j, top, j->flip[top]);
    j->digit = top;
    phase_run(j, PHASE_SCATTER, j->keys, j->values, j->tmp_k, j->tmp_v);
    phase_run(j, PHASE_BUCKETS, j->tmp_k, j->tmp_v, j->keys, j->values);
    return 1;
}

/* LSD passes over the whole input, ping-ponging between the caller's arrays
 * and tmp; an odd number of them ends with a copy back. */
static void lsd_passes(job *j, const unsigned *pass_digit, unsigned passes)
{
    void *cur_k = j->keys, *other_k = j->tmp_k;
    void *cur_v = j->values, *other_v = j->tmp_v;
    for (unsigned p = 0; p < passes; ++p) {
        const unsigned d = pass_digit[p];
        j->digit = d;
        /* the first pass's blocks are the input's: counted already; one
         * block (one member) is the whole input in any order */
        if (p > 0 && j->members > 1)
            phase_run(j, PHASE_COUNT, cur_k, cur_v, NULL, NULL);
        make_offsets(j, d, j->flip[d]);
        phase_run(j, PHASE_SCATTER, cur_k, cur_v, other_k, other_v);
        void *tk = cur_k;
        cur_k = other_k, other_k = tk;
        void *tv = cur_v;
        cur_v = other_v, other_v = tv;
    }
    if (cur_k != j->keys)
        phase_run(j, PHASE_COPY, cur_k, cur_v, j->keys, j->values);
}

zesort_status zs_cpu_radix_sort(void *keys, void *values, uint64_t n, unsigned key_bytes,
                                unsigned value_bytes, uint32_t key_flags, unsigned bit_lo,
                                unsigned bit_hi, const zs_cpu_config *cfg, unsigned threads)
{
    job *j = calloc(1, sizeof *j);
    if (!j)
        return ZESORT_ERROR_OUT_OF_HOST_MEMORY;
    j->n = (size_t)n;
    j->key_bytes = key_bytes;
    j->value_bytes = values ? value_bytes : 0;
    j->flt = zs_key_is_float(key_flags);
    j->keys = keys, j->values = values;
    j->bit_lo = bit_lo, j->bit_hi = bit_hi;
    j->c = zs_key_order_xor(key_bytes, key_flags);
    plan_digits(j, cfg);
    if (!take_memory(j, threads, cfg->create_limit)) {
        release(j);
        return ZESORT_ERROR_OUT_OF_HOST_MEMORY;
    }
    phase_run(j, PHASE_HIST_ALL, keys, NULL, NULL, NULL);
    unsigned pass_digit[ZS_CPU_MAX_DIGITS];
    const unsigned passes = varying_digits(j, pass_digit);
    if (!(n >= cfg->msd_min_keys && passes >= 2 && top_digit_first(j, pass_digit, passes)))
        lsd_passes(j, pass_digit, passes);
    release(j);
    return ZESORT_OK;
}
