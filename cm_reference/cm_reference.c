/*
 * cm_reference.c — the CM radix sort design (docs/design.md §1.1) in plain C, and
 * its typed sort: every key type, values, descending order, bit ranges (§1.3).
 *
 * This is the tests' oracle: every function does, step by step and lane by
 * lane, what the GPU kernels do, so that count tables, prefix tables and
 * bucket outputs can be compared bit for bit. It favours being obviously
 * right over being fast (it is still O(n * passes)).
 */
#include "cm_reference.h"

#include <stdlib.h>
#include <string.h>

#define CMREF_BATCHES (CMREF_CHUNK / CMREF_LANES) /* 8 batches of 32 keys per chunk */
#define CMREF_MAX_BINS 16u                        /* bits <= 4 */

uint64_t cmref_chunks(uint64_t n)
{
    return (n + CMREF_CHUNK - 1) / CMREF_CHUNK;
}

static unsigned digit_of(uint32_t key, unsigned bits, unsigned shift)
{
    return (key >> shift) & ((1u << bits) - 1u);
}

/* The digits of one chunk's keys: digit[k] belongs to key chunk * 256 + k,
 * for k < len (len < 256 only in the last, partial chunk). Count and bucket
 * below work on these, so the u32 functions and the typed sort share one
 * model of the kernels' lanes. */
typedef struct chunk_digits {
    unsigned digit[CMREF_CHUNK];
    unsigned len;
} chunk_digits;

/* Step 1 for one chunk. Each of the 32 lanes keeps its own per-bin counters
 * (the CM matrix<ushort,BINS,32>) while the sub-group walks the chunk's 8
 * batches; lanes whose key index is >= n are inactive and count nothing.
 * At the end the lanes' counters are summed (the sub-group reduction) into
 * one histogram per chunk. */
static void count_chunk(const chunk_digits *c, unsigned bins, uint32_t hist[CMREF_MAX_BINS])
{
    uint16_t lane_count[CMREF_LANES][CMREF_MAX_BINS];
    memset(lane_count, 0, sizeof lane_count);

    for (unsigned batch = 0; batch < CMREF_BATCHES; batch++) {
        for (unsigned lane = 0; lane < CMREF_LANES; lane++) {
            unsigned k = batch * CMREF_LANES + lane;
            if (k < c->len)
                lane_count[lane][c->digit[k]]++;
        }
    }

    /* reduction over lanes: one total per bin */
    for (unsigned b = 0; b < bins; b++) {
        uint32_t total = 0;
        for (unsigned lane = 0; lane < CMREF_LANES; lane++)
            total += lane_count[lane][b];
        hist[b] = total;
    }
}

/* Step 1, count kernel: table[bin * chunks + chunk] = keys of chunk with digit bin. */
void cmref_count(const uint32_t *keys, uint64_t n, unsigned bits, unsigned shift, uint32_t *table)
{
    const unsigned bins = 1u << bits;
    const uint64_t chunks = cmref_chunks(n);

    for (uint64_t chunk = 0; chunk < chunks; chunk++) {
        chunk_digits c;
        c.len = (unsigned)(n - chunk * CMREF_CHUNK < CMREF_CHUNK ? n - chunk * CMREF_CHUNK
                                                                  : CMREF_CHUNK);
        for (unsigned k = 0; k < c.len; k++)
            c.digit[k] = digit_of(keys[chunk * CMREF_CHUNK + k], bits, shift);
        uint32_t hist[CMREF_MAX_BINS];
        count_chunk(&c, bins, hist);
        for (unsigned b = 0; b < bins; b++)
            table[(uint64_t)b * chunks + chunk] = hist[b];
    }
}

/* Step 2, prefix. Exclusive scan of the bin-major table: afterwards entry
 * (bin, chunk) is the first output slot of chunk's keys with digit bin.
 * uint32 arithmetic, wrapping exactly like the device. */
void cmref_prefix(uint32_t *table, uint64_t len)
{
    uint32_t running = 0;
    for (uint64_t i = 0; i < len; i++) {
        uint32_t v = table[i];
        table[i] = running;
        running += v;
    }
}

static unsigned popcount32(uint32_t x)
{
    unsigned c = 0;
    for (; x; x &= x - 1u)
        c++;
    return c;
}

/* The sub-group ballot: bit `lane` is set when `lane` is active and its
 * predicate holds. */
typedef struct batch_state {
    uint32_t active;            /* lanes whose key index < n */
    uint32_t ballot[4];         /* ballot[k]: active lanes whose digit has bit k set */
} batch_state;

/* Step 3a, cm_pack_mask: the lanes (among the active ones) whose digit equals
 * `d`, built from one ballot per digit bit: AND the ballot where d has the
 * bit, its complement where it does not. The same function gives both a
 * lane's peers (d = its own digit) and the population of bin d. */
static uint32_t lanes_with_digit(const batch_state *s, unsigned bits, unsigned d)
{
    uint32_t mask = s->active;
    for (unsigned k = 0; k < bits; k++)
        mask &= ((d >> k) & 1u) ? s->ballot[k] : ~s->ballot[k];
    return mask;
}

/* Step 3 for one chunk. The sub-group starts with next[b] = the chunk's
 * prefix entry for every bin; per batch each active lane ranks itself among
 * its peers (equal digit) below it, rank = popcount(peers & below), and its
 * key goes to slot[k] = next[digit] + rank; then every bin advances by the
 * number of lanes that had that digit. This keeps the sort stable. */
static void bucket_chunk(const chunk_digits *c, unsigned bits, uint32_t next[CMREF_MAX_BINS],
                         uint32_t slot[CMREF_CHUNK])
{
    const unsigned bins = 1u << bits;

    for (unsigned batch = 0; batch < CMREF_BATCHES; batch++) {
        batch_state s;
        memset(&s, 0, sizeof s);

        /* every lane loads its key; the ballots collect the digit bits */
        for (unsigned lane = 0; lane < CMREF_LANES; lane++) {
            unsigned k = batch * CMREF_LANES + lane;
            if (k >= c->len)
                continue;
            s.active |= 1u << lane;
            for (unsigned b = 0; b < bits; b++)
                if ((c->digit[k] >> b) & 1u)
                    s.ballot[b] |= 1u << lane;
        }

        /* every active lane finds its slot */
        for (unsigned lane = 0; lane < CMREF_LANES; lane++) {
            if (!((s.active >> lane) & 1u))
                continue;
            unsigned k = batch * CMREF_LANES + lane;
            uint32_t peers = lanes_with_digit(&s, bits, c->digit[k]);
            uint32_t below = (1u << lane) - 1u;
            slot[k] = next[c->digit[k]] + popcount32(peers & below);
        }

        /* every bin moves past this batch's keys of that bin */
        for (unsigned b = 0; b < bins; b++)
            next[b] += popcount32(lanes_with_digit(&s, bits, b));
    }
}

/* Step 3, bucket kernel: scatter the keys of every chunk to their slots. */
void cmref_bucket(const uint32_t *in, uint32_t *out, uint64_t n, unsigned bits, unsigned shift,
                  const uint32_t *prefix)
{
    const unsigned bins = 1u << bits;
    const uint64_t chunks = cmref_chunks(n);

    for (uint64_t chunk = 0; chunk < chunks; chunk++) {
        const uint64_t base = chunk * CMREF_CHUNK;
        chunk_digits c;
        c.len = (unsigned)(n - base < CMREF_CHUNK ? n - base : CMREF_CHUNK);
        for (unsigned k = 0; k < c.len; k++)
            c.digit[k] = digit_of(in[base + k], bits, shift);
        uint32_t next[CMREF_MAX_BINS], slot[CMREF_CHUNK];
        for (unsigned b = 0; b < bins; b++)
            next[b] = prefix[(uint64_t)b * chunks + chunk];
        bucket_chunk(&c, bits, next, slot);
        for (unsigned k = 0; k < c.len; k++)
            out[slot[k]] = in[base + k];
    }
}

/* The whole sort: one count / prefix / bucket pass per digit, least
 * significant digit first, ping-ponging between keys and a scratch buffer.
 * 32 / bits is even for bits 2 and 4, so the result ends in keys. */
int cmref_sort_u32(uint32_t *keys, uint64_t n, unsigned bits)
{
    if (bits != 2 && bits != 4)
        return -1;
    if (n == 0)
        return 0;

    const uint64_t table_len = ((uint64_t)1 << bits) * cmref_chunks(n);
    uint32_t *tmp = malloc(n * sizeof *tmp);
    uint32_t *table = malloc(table_len * sizeof *table);
    if (!tmp || !table) {
        free(tmp);
        free(table);
        return -1;
    }

    uint32_t *src = keys, *dst = tmp;
    for (unsigned shift = 0; shift < 32; shift += bits) {
        cmref_count(src, n, bits, shift, table);
        cmref_prefix(table, table_len);
        cmref_bucket(src, dst, n, bits, shift, table);
        uint32_t *t = src;
        src = dst;
        dst = t;
    }

    free(tmp);
    free(table);
    return 0;
}

/* ---- typed keys, values, descending order, bit ranges ---- */

unsigned cmref_key_bits(cmref_key_type type)
{
    switch (type) {
    case CMREF_U32: case CMREF_I32: case CMREF_F32: return 32;
    case CMREF_U64: case CMREF_I64: case CMREF_F64: return 64;
    default: return 0;
    }
}

/* From the order of docs/design.md 1.3, for a key of w bits:
 * - signed: two's complement puts negatives above positives; flipping the
 *   sign bit adds 2^(w-1) modulo 2^w, so INT_MIN -> 0 and INT_MAX -> all ones.
 * - float: sign-magnitude. A positive float orders by its magnitude, and goes
 *   above every negative one: set the sign bit. A negative float orders
 *   backwards by magnitude (-inf below -1): complement all bits, which also
 *   clears the sign bit. -0.0 becomes 0x7F..F, just below +0.0 = 0x80..0; NaNs
 *   (the largest magnitudes) land at both ends.
 * - descending: complementing reverses the unsigned order. */
uint64_t cmref_ordered_key(uint64_t raw, cmref_key_type type, int descending)
{
    const unsigned w = cmref_key_bits(type);
    const uint64_t all = w == 64 ? UINT64_MAX : UINT32_MAX;
    const uint64_t sign = (uint64_t)1 << (w == 64 ? 63 : 31);
    uint64_t k = raw & all;
    switch (type) {
    case CMREF_I32: case CMREF_I64: k ^= sign; break;
    case CMREF_F32: case CMREF_F64: k = (k & sign) ? ~k & all : k | sign; break;
    default: break;
    }
    return descending ? ~k & all : k;
}

static uint64_t load_key(const void *keys, uint64_t i, unsigned key_bytes)
{
    if (key_bytes == 8) {
        uint64_t k;
        memcpy(&k, (const char *)keys + i * 8, 8);
        return k;
    }
    uint32_t k;
    memcpy(&k, (const char *)keys + i * 4, 4);
    return k;
}

static void store_key(void *keys, uint64_t i, unsigned key_bytes, uint64_t k)
{
    if (key_bytes == 8) {
        memcpy((char *)keys + i * 8, &k, 8);
    } else {
        uint32_t k32 = (uint32_t)k;
        memcpy((char *)keys + i * 4, &k32, 4);
    }
}

/* What one pass of the kernels sees of the keys: where they are and how to
 * make a digit of them. */
typedef struct typed_pass {
    cmref_key_type type;
    int descending;
    unsigned key_bytes, bits, shift;
    uint64_t mask; /* 2^width - 1, width <= bits */
} typed_pass;

static void typed_chunk_digits(const typed_pass *p, const void *keys, uint64_t n, uint64_t chunk,
                               chunk_digits *c)
{
    const uint64_t base = chunk * CMREF_CHUNK;
    c->len = (unsigned)(n - base < CMREF_CHUNK ? n - base : CMREF_CHUNK);
    for (unsigned k = 0; k < c->len; k++) {
        uint64_t ordered = cmref_ordered_key(load_key(keys, base + k, p->key_bytes), p->type,
                                             p->descending);
        c->digit[k] = (unsigned)((ordered >> p->shift) & p->mask);
    }
}

/* One count / prefix / bucket pass from (keys, values) to (keys_out, values_out). */
static void typed_pass_run(const typed_pass *p, const void *keys, const uint32_t *values,
                           void *keys_out, uint32_t *values_out, uint64_t n, uint32_t *table)
{
    const unsigned bins = 1u << p->bits;
    const uint64_t chunks = cmref_chunks(n);
    chunk_digits c;
    uint32_t hist[CMREF_MAX_BINS], slot[CMREF_CHUNK];

    for (uint64_t chunk = 0; chunk < chunks; chunk++) {
        typed_chunk_digits(p, keys, n, chunk, &c);
        count_chunk(&c, bins, hist);
        for (unsigned b = 0; b < bins; b++)
            table[(uint64_t)b * chunks + chunk] = hist[b];
    }
    cmref_prefix(table, (uint64_t)bins * chunks);
    for (uint64_t chunk = 0; chunk < chunks; chunk++) {
        const uint64_t base = chunk * CMREF_CHUNK;
        typed_chunk_digits(p, keys, n, chunk, &c);
        for (unsigned b = 0; b < bins; b++)
            hist[b] = table[(uint64_t)b * chunks + chunk];
        bucket_chunk(&c, p->bits, hist, slot);
        for (unsigned k = 0; k < c.len; k++) {
            store_key(keys_out, slot[k], p->key_bytes, load_key(keys, base + k, p->key_bytes));
            if (values)
                values_out[slot[k]] = values[base + k];
        }
    }
}

int cmref_sort(void *keys, uint32_t *values, uint64_t n, cmref_key_type type, int descending,
               unsigned bit_lo, unsigned bit_hi, unsigned bits)
{
    const unsigned width = cmref_key_bits(type);
    if (bit_hi == 0)
        bit_hi = width;
    if ((bits != 2 && bits != 4) || width == 0 || bit_lo >= bit_hi || bit_hi > width)
        return -1;
    if (n == 0)
        return 0;
    if (!keys)
        return -1;

    const unsigned key_bytes = width / 8;
    const uint64_t table_len = ((uint64_t)1 << bits) * cmref_chunks(n);
    void *tmp = malloc(n * key_bytes);
    uint32_t *vtmp = values ? malloc(n * sizeof *vtmp) : NULL;
    uint32_t *table = malloc(table_len * sizeof *table);
    if (!tmp || !table || (values && !vtmp)) {
        free(tmp), free(vtmp), free(table);
        return -1;
    }

    void *src = keys, *dst = tmp;
    uint32_t *vsrc = values, *vdst = vtmp;
    for (unsigned shift = bit_lo; shift < bit_hi; shift += bits) {
        const unsigned w = bit_hi - shift < bits ? bit_hi - shift : bits;
        typed_pass p = {.type = type, .descending = descending, .key_bytes = key_bytes,
                        .bits = bits, .shift = shift, .mask = ((uint64_t)1 << w) - 1};
        typed_pass_run(&p, src, vsrc, dst, vdst, n, table);
        void *t = src;
        src = dst, dst = t;
        uint32_t *vt = vsrc;
        vsrc = vdst, vdst = vt;
    }
    if (src != keys) { /* odd number of passes: the result is in the scratch buffers */
        memcpy(keys, src, n * key_bytes);
        if (values)
            memcpy(values, vsrc, n * sizeof *values);
    }
    free(tmp), free(vtmp), free(table);
    return 0;
}
