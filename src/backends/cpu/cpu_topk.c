/*
 * cpu_topk.c — the C fallback's radix select (cpu_topk.h). The k-th key's
 * sort bits are found most significant digit first: each pass histograms
 * one digit of the keys still in play (those whose higher digits equal the
 * k-th key's, found so far) and keeps the bin where the k-th key falls.
 * Once few keys are in play (a quarter of n at most) they are copied into a
 * list, and later passes read only the list, not every key. One last pass
 * over the keys, in input order, compacts the winners: every key below the
 * k-th key's bits and the first keys equal to them, as many as the rank
 * needs (a stable sort's choice among ties).
 *
 * Bounded cost on adversarial input: a pass also tracks the smallest and
 * largest key in play; when they are equal (all keys equal, or every key in
 * play tied at the boundary) the k-th key is known and the passes stop. At
 * worst (k = n - 1 with distinct keys in one bin) every digit takes one read
 * of the keys: ceil(width / 8) reads plus the compaction.
 */
#include "backends/cpu/cpu_topk.h"

#include <stdlib.h>
#include <string.h>

#define DIGIT_BITS 8u
#define BINS (1u << DIGIT_BITS)

/* The sort bits of a key: the ordered key (README "Orders": a negative
 * float's bits below the sign flipped, then c: the sign bit for signed and
 * float keys, all bits for descending), its bits [lo, lo + width). */
typedef struct key_map {
    uint64_t c, mask;
    unsigned top, lo;
    int flt;
} key_map;

static inline uint64_t sort_bits(key_map m, uint64_t k)
{
    if (m.flt && (k >> m.top))
        k ^= ((uint64_t)1 << m.top) - 1u;
    return ((k ^ m.c) >> m.lo) & m.mask;
}

static key_map make_map(unsigned key_bytes, uint32_t key_flags, unsigned bit_lo, unsigned bit_hi)
{
    const unsigned bits = key_bytes * 8u;
    const uint64_t all = bits == 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1u;
    const uint64_t sign = UINT64_C(1) << (bits - 1u);
    const unsigned w = bit_hi - bit_lo;
    return (key_map){((key_flags & 3u) ? sign : 0) ^ ((key_flags & 4u) ? all : 0),
                     w == 64 ? ~UINT64_C(0) : (UINT64_C(1) << w) - 1u, bits - 1u, bit_lo,
                     (key_flags & 3u) == 2u};
}

/* One body for the four key widths: K is the typed keys' pointer in BODY
 * (the load is then a plain typed read, not a switch per key). */
#define ZS_BY_WIDTH(keys, kb, BODY)                                                    \
    do {                                                                               \
        if ((kb) == 1) {                                                               \
            const uint8_t *K = (keys);                                                 \
            BODY                                                                       \
        } else if ((kb) == 2) {                                                        \
            const uint16_t *K = (keys);                                                \
            BODY                                                                       \
        } else if ((kb) == 4) {                                                        \
            const uint32_t *K = (keys);                                                \
            BODY                                                                       \
        } else {                                                                       \
            const uint64_t *K = (keys);                                                \
            BODY                                                                       \
        }                                                                              \
    } while (0)

/* What the passes know: the keys in play are those whose sort bits above
 * `shift` equal `prefix`; the k-th key is the one of rank `rank` among them. */
typedef struct select_state {
    const void *keys;
    uint64_t n;
    unsigned kb;
    key_map m;
    unsigned shift; /* bits below the known prefix */
    uint64_t prefix, rank, in_play;
    uint64_t *list; /* NULL, or the sort bits of the keys in play (list_n of them) */
    uint64_t list_n;
    uint64_t hist[BINS];
    uint64_t lo, hi; /* the smallest and largest sort bits in play */
} select_state;

/* Bits above s->shift as a mask and the prefix in place (shift may be 64). */
static inline uint64_t high_mask(unsigned shift)
{
    return shift >= 64 ? 0 : ~UINT64_C(0) << shift;
}

/* A pass over every key: the histogram of digit [dshift, dshift + d) of the
 * keys in play, their extremes, and, when `keep`, their sort bits listed. */
static void pass_keys(select_state *s, unsigned dshift, unsigned d, int keep)
{
    const uint64_t hm = high_mask(s->shift), pv = s->shift >= 64 ? 0 : s->prefix << s->shift;
    const uint64_t dm = (UINT64_C(1) << d) - 1u;
    const key_map m = s->m;
    uint64_t *hist = s->hist, lo = ~UINT64_C(0), hi = 0, ln = 0;
    uint64_t *list = keep ? s->list : NULL;
    ZS_BY_WIDTH(s->keys, s->kb, {
        for (uint64_t i = 0; i < s->n; i++) {
            const uint64_t v = sort_bits(m, K[i]);
            if ((v & hm) != pv)
                continue;
            hist[(v >> dshift) & dm]++;
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
            if (list)
                list[ln++] = v;
        }
    });
    s->lo = lo;
    s->hi = hi;
    if (list)
        s->list_n = ln;
}

/* A pass over the list alone (every entry is in play). */
static void pass_list(select_state *s, unsigned dshift, unsigned d)
{
    const uint64_t dm = (UINT64_C(1) << d) - 1u;
    uint64_t lo = ~UINT64_C(0), hi = 0;
    for (uint64_t j = 0; j < s->list_n; j++) {
        const uint64_t v = s->list[j];
        s->hist[(v >> dshift) & dm]++;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    s->lo = lo;
    s->hi = hi;
}

/* Keeps the bin of the k-th key: its digit joins the prefix, the rank
 * becomes one within the bin, the list keeps the bin's entries. */
static void narrow(select_state *s, unsigned dshift, unsigned d)
{
    uint64_t below = 0;
    unsigned b = 0;
    while (below + s->hist[b] <= s->rank)
        below += s->hist[b++];
    s->rank -= below;
    s->in_play = s->hist[b];
    s->prefix = (s->shift >= 64 ? 0 : s->prefix << d) | b;
    s->shift = dshift;
    const uint64_t dm = (UINT64_C(1) << d) - 1u;
    uint64_t kept = 0;
    for (uint64_t j = 0; s->list && j < s->list_n; j++)
        if (((s->list[j] >> dshift) & dm) == b)
            s->list[kept++] = s->list[j];
    if (s->list)
        s->list_n = kept;
}

/* The k-th key's sort bits, and in s->rank its rank among the keys equal
 * to it (how many of them the stable sort takes, less one). */
static uint64_t find_kth(select_state *s, unsigned width)
{
    s->shift = width; /* nothing known: every key in play */
    while (s->shift > 0) {
        const unsigned d = s->shift >= DIGIT_BITS ? DIGIT_BITS : s->shift;
        const unsigned dshift = s->shift - d;
        memset(s->hist, 0, sizeof s->hist);
        if (s->list) {
            pass_list(s, dshift, d);
        } else {
            /* list the keys in play where few enough: later passes read them only */
            const int keep = s->in_play <= s->n / 4 && (s->list = malloc(
                                 (size_t)(s->in_play ? s->in_play : 1) * sizeof *s->list));
            pass_keys(s, dshift, d, keep);
        }
        if (s->lo == s->hi) /* every key in play equal: the k-th one is it */
            return s->lo;
        narrow(s, dshift, d);
    }
    return s->prefix;
}

/* The compaction: in input order, keys below the k-th key's bits, and the
 * first `equal` keys equal to them. */
static void compact(const select_state *s, uint64_t kth, uint64_t equal, uint64_t *pos)
{
    const key_map m = s->m;
    uint64_t out = 0, eq = 0;
    ZS_BY_WIDTH(s->keys, s->kb, {
        for (uint64_t i = 0; i < s->n; i++) {
            const uint64_t v = sort_bits(m, K[i]);
            if (v < kth || (v == kth && eq++ < equal))
                pos[out++] = i;
        }
    });
}

void zs_cpu_topk_select(const void *keys, uint64_t n, uint64_t k, unsigned key_bytes,
                        uint32_t key_flags, unsigned bit_lo, unsigned bit_hi, uint64_t *pos)
{
    select_state s = {.keys = keys, .n = n, .kb = key_bytes,
                      .m = make_map(key_bytes, key_flags, bit_lo, bit_hi),
                      .rank = k - 1, .in_play = n};
    const uint64_t kth = find_kth(&s, bit_hi - bit_lo);
    compact(&s, kth, s.rank + 1, pos);
    free(s.list);
}
