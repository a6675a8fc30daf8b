/*
 * cpu_topk.c — the C fallback's radix select (cpu_topk.h). The k-th key's
 * sort bits are found most significant digit first: each pass histograms
 * one 8-bit digit of the keys still in play (those whose higher digits equal
 * the k-th key's, found so far) and keeps the bin where the k-th key falls.
 *
 * What a pass reads shrinks as soon as it can:
 * * when the keys below the k-th key's prefix and those in play together
 *   are few (n / 16 at most: small k), the next pass over the keys copies
 *   them, with their positions, into a list in input order; later passes
 *   and the final compaction read only that list: two reads of the keys in
 *   all for random keys and small k;
 * * else, once the keys in play alone are few (n / 4), they are listed
 *   (their bits only) and later passes read the list; the compaction then
 *   reads the keys once more.
 * Passes over all keys run on the C fallback's team (a chunk a member, each
 * with its own histogram and list; the lists joined in member order keep
 * input order).
 *
 * Bounded cost on adversarial input: a pass also tracks the smallest and
 * largest key in play; when they are equal (all keys equal, or every key in
 * play tied at the boundary) the k-th key is known and the passes stop. At
 * worst (k = n - 1 with distinct keys in one bin) every digit takes one read
 * of the keys: ceil(width / 8) reads plus the compaction
 * (cpu_topk_compact.c).
 */
#include "backends/cpu/cpu_topk.h"

#include <stdlib.h>
#include <string.h>

#include "backends/cpu/backend_cpu.h"
#include "backends/cpu/cpu_threads.h"
#include "backends/cpu/cpu_topk_state.h"

static key_map make_map(unsigned key_bytes, uint32_t key_flags, unsigned bit_lo, unsigned bit_hi)
{
    const unsigned w = bit_hi - bit_lo;
    return (key_map){zs_key_order_xor(key_bytes, key_flags),
                     w == 64 ? ~UINT64_C(0) : (UINT64_C(1) << w) - 1u, zs_key_is_float(key_flags),
                     bit_lo};
}

/* Bits above `shift` as a mask (shift may be 64). */
static inline uint64_t high_mask(unsigned shift)
{
    return shift >= 64 ? 0 : ~UINT64_C(0) << shift;
}

static inline uint64_t prefix_value(const select_state *s)
{
    return s->shift >= 64 ? 0 : s->prefix << s->shift;
}

/* One member's share of a pass over every key. */
typedef struct member_pass {
    uint64_t hist[ZS_TOPK_BINS];
    uint64_t lo, hi;
    list l; /* what it listed: bits (and positions when collecting) */
} member_pass;

typedef struct pass_job {
    const select_state *s;
    unsigned dshift, d;
    int mode; /* 0 histogram only, 1 list the keys in play, 2 collect keys <= in play */
    member_pass *mp;
} pass_job;

/* Member `me` of `members`: keys [b, e) of the pass. */
static void pass_member(void *arg, unsigned me, unsigned members)
{
    const pass_job *j = arg;
    const select_state *s = j->s;
    member_pass *p = &j->mp[me];
    const uint64_t b = s->n * me / members, e = s->n * (me + 1) / members;
    const uint64_t hm = high_mask(s->shift), pv = prefix_value(s);
    const uint64_t dm = (UINT64_C(1) << j->d) - 1u;
    const unsigned dshift = j->dshift;
    const key_map m = s->m;
    uint64_t lo = ~UINT64_C(0), hi = 0, ln = 0;
    uint64_t *lv = p->l.v, *lp = p->l.pos;
    ZS_BY_WIDTH(s->keys, s->kb, {
        for (uint64_t i = b; i < e; i++) {
            const uint64_t v = sort_bits(m, zs_key_dk(K[i], m.flt));
            if (j->mode == 2 && (v & hm) < pv) { /* below the keys in play: taken */
                lv[ln] = v, lp[ln++] = i;
                continue;
            }
            if ((v & hm) != pv)
                continue;
            p->hist[(v >> dshift) & dm]++;
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
            if (j->mode) {
                lv[ln] = v;
                if (lp)
                    lp[ln] = i;
                ln++;
            }
        }
    });
    p->lo = lo, p->hi = hi, p->l.n = ln;
}

/* Makes l hold n entries (and positions); 0, or -1 out of memory
 * (l unchanged). */
static int list_grow(list *l, uint64_t n, int positions)
{
    uint64_t *v = realloc(l->v, (size_t)(n ? n : 1) * sizeof *v);
    if (!v)
        return -1;
    l->v = v;
    if (!positions)
        return 0;
    uint64_t *p = realloc(l->pos, (size_t)(n ? n : 1) * sizeof *p);
    if (!p)
        return -1;
    l->pos = p;
    return 0;
}

/* Joins the members' lists, in member order, into s->l. */
static void join_lists(select_state *s, member_pass *mp, unsigned members)
{
    uint64_t at = 0;
    for (unsigned t = 0; t < members; t++) {
        if (t > 0) {
            memmove(s->l.v + at, mp[t].l.v, (size_t)mp[t].l.n * sizeof *s->l.v);
            if (s->l.pos)
                memmove(s->l.pos + at, mp[t].l.pos, (size_t)mp[t].l.n * sizeof *s->l.pos);
        }
        at += mp[t].l.n;
    }
    s->l.n = at;
}

/* Room for each member's list of at most `cap` entries (member 0 writes
 * into s->l directly, the others into their own); 0, or -1 out of memory,
 * with nothing allocated. */
static int lists_alloc(select_state *s, member_pass *mp, unsigned members, uint64_t cap,
                       int positions)
{
    const size_t bytes = (size_t)(cap + 1) * sizeof(uint64_t); /* + 1: a branch-free slot */
    int ok = 1;
    for (unsigned t = 0; t < members; t++) {
        mp[t].l.v = malloc(bytes);
        mp[t].l.pos = positions ? malloc(bytes) : NULL;
        ok &= mp[t].l.v && (!positions || mp[t].l.pos);
    }
    for (unsigned t = 0; !ok && t < members; t++) {
        free(mp[t].l.v), free(mp[t].l.pos);
        mp[t].l = (list){NULL, NULL, 0};
    }
    if (!ok)
        return -1;
    s->l = (list){mp[0].l.v, mp[0].l.pos, 0};
    return 0;
}

/* A pass over every key: the histogram of digit [dshift, dshift + d) of the
 * keys in play and their extremes; and a list of them (or, collecting,
 * of every key up to them) where it pays and memory allows. */
static void pass_keys(select_state *s, unsigned dshift, unsigned d)
{
    const unsigned members = zs_team_size(s->team);
    member_pass *mp = calloc(members, sizeof *mp);
    if (!mp) { /* no memory for the members' tables: one histogram on the stack */
        member_pass one = {{0}, 0, 0, {NULL, NULL, 0}};
        pass_job j = {s, dshift, d, 0, &one};
        pass_member(&j, 0, 1);
        memcpy(s->hist, one.hist, sizeof s->hist);
        s->lo = one.lo, s->hi = one.hi;
        return;
    }
    int mode = s->less + s->in_play <= s->n / 16 ? 2 : s->in_play <= s->n / 4 ? 1 : 0;
    const uint64_t cap = mode == 2 ? s->less + s->in_play : s->in_play;
    if (mode && lists_alloc(s, mp, members, cap, mode == 2) != 0)
        mode = 0; /* then no list: the passes read every key */
    mp[0].l = s->l;
    pass_job j = {s, dshift, d, mode, mp};
    zs_team_run(s->team, pass_member, &j);
    s->lo = ~UINT64_C(0), s->hi = 0;
    for (unsigned t = 0; t < members; t++) {
        for (unsigned b = 0; b < ZS_TOPK_BINS; b++)
            s->hist[b] += mp[t].hist[b];
        s->lo = mp[t].lo < s->lo ? mp[t].lo : s->lo;
        s->hi = mp[t].hi > s->hi ? mp[t].hi : s->hi;
    }
    if (mode) {
        join_lists(s, mp, members);
        s->collected = mode == 2;
    }
    for (unsigned t = 1; t < members; t++)
        free(mp[t].l.v), free(mp[t].l.pos);
    free(mp);
}

/* A pass over the list: its keys in play (all of them, unless collected). */
static void pass_list(select_state *s, unsigned dshift, unsigned d)
{
    const uint64_t dm = (UINT64_C(1) << d) - 1u;
    const uint64_t hm = high_mask(s->shift), pv = prefix_value(s);
    uint64_t lo = ~UINT64_C(0), hi = 0;
    for (uint64_t j = 0; j < s->l.n; j++) {
        const uint64_t v = s->l.v[j];
        if ((v & hm) != pv)
            continue;
        s->hist[(v >> dshift) & dm]++;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    s->lo = lo;
    s->hi = hi;
}

/* Keeps the bin of the k-th key: its digit joins the prefix, the rank
 * becomes one within the bin, the keys of lower bins join `less`; a list
 * of keys in play alone keeps the bin's entries. */
static void narrow(select_state *s, unsigned dshift, unsigned d)
{
    uint64_t below = 0;
    unsigned b = 0;
    while (below + s->hist[b] <= s->rank)
        below += s->hist[b++];
    s->rank -= below;
    s->less += below;
    s->in_play = s->hist[b];
    s->prefix = (s->shift >= 64 ? 0 : s->prefix << d) | b;
    s->shift = dshift;
    if (!s->l.v || s->collected)
        return;
    const uint64_t hm = high_mask(dshift), pv = prefix_value(s);
    uint64_t kept = 0;
    for (uint64_t j = 0; j < s->l.n; j++)
        if ((s->l.v[j] & hm) == pv)
            s->l.v[kept++] = s->l.v[j];
    s->l.n = kept;
}

/* The sample's guess, one read of the keys: a member's keys at or below
 * sort bits t_hi into its list of at most cap entries (overflow: more);
 * those below t_lo only counted (range: the list then holds bits only),
 * or, with t_lo 0 and positions, listed too (collected). */
typedef struct guess_job {
    const select_state *s;
    uint64_t t_lo, t_hi, cap;
    int positions;
    member_pass *mp;
    uint64_t below[ZS_CPU_MAX_THREADS];
    int overflow[ZS_CPU_MAX_THREADS];
} guess_job;

static void guess_member(void *arg, unsigned me, unsigned members)
{
    guess_job *j = arg;
    const select_state *s = j->s;
    member_pass *p = &j->mp[me];
    const uint64_t b = s->n * me / members, e = s->n * (me + 1) / members;
    const uint64_t t_lo = j->t_lo, t_hi = j->t_hi, cap = j->cap;
    const key_map m = s->m;
    uint64_t ln = 0, below = 0, *lv = p->l.v, *lp = p->l.pos;
    /* a range near the k-th of large k: branch-free (in range or not is a
     * coin flip there), slot ln written either way (lists have cap + 1) */
    if (lp) { /* small k: few keys listed, a branch predicted right */
        ZS_BY_WIDTH(s->keys, s->kb, {
            for (uint64_t i = b; i < e && ln < cap; i++) {
                const uint64_t v = sort_bits(m, zs_key_dk(K[i], m.flt));
                if (v <= t_hi)
                    lv[ln] = v, lp[ln++] = i;
            }
        });
    } else {
        ZS_BY_WIDTH(s->keys, s->kb, {
            for (uint64_t i = b; i < e && ln < cap; i++) {
                const uint64_t v = sort_bits(m, zs_key_dk(K[i], m.flt));
                below += v < t_lo;
                lv[ln] = v;
                ln += (v <= t_hi) & (v >= t_lo);
            }
        });
    }
    j->overflow[me] = ln == cap;
    p->l.n = ln;
    j->below[me] = below;
}

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Bounds a sample of the keys puts safely below (*t_lo) and above (*t_hi)
 * the k-th key's sort bits, and how many keys lie between them (*expect);
 * 0, or -1 when the sample bounds nothing. */
static int sample_bounds(const select_state *s, uint64_t k, uint64_t *t_lo, uint64_t *t_hi,
                         uint64_t *expect)
{
    enum { SAMPLES = 4096 };
    uint64_t v[SAMPLES];
    const key_map m = s->m;
    ZS_BY_WIDTH(s->keys, s->kb, {
        for (uint64_t j = 0; j < SAMPLES; j++)
            v[j] = sort_bits(m, zs_key_dk(K[j * s->n / SAMPLES], m.flt));
    });
    qsort(v, SAMPLES, sizeof *v, cmp_u64);
    /* the k-th key's rank in the sample, give or take 4 standard deviations
     * (binomial, at most sqrt(mean)) and a few: a miss costs one read more */
    const uint64_t mean = (uint64_t)((double)k * SAMPLES / (double)s->n);
    uint64_t root = 1;
    while (root * root < mean + 1)
        root++;
    const uint64_t margin = 4 * root + 8;
    const uint64_t r_lo = mean > margin ? mean - margin : 0, r_hi = mean + margin;
    if (r_hi >= SAMPLES)
        return -1;
    *t_lo = r_lo > 0 ? v[r_lo] : 0;
    *t_hi = v[r_hi];
    *expect = (r_hi - r_lo + 1) * s->n / SAMPLES;
    return 0;
}

/* One read of the keys lists those between the sample's bounds: for small
 * k (t_lo 0) every key up to t_hi with its position (collected: the passes
 * and the compaction then read only the list); else the keys in
 * [t_lo, t_hi] (bits only; less = the keys below; the passes read the
 * list, the compaction the keys). 1 when the k-th key is among them, else
 * 0 (nothing kept: the radix passes over every key follow). */
static int guess_from_sample(select_state *s, uint64_t k)
{
    uint64_t t_lo, t_hi, expect;
    if (s->n < 65536 || sample_bounds(s, k, &t_lo, &t_hi, &expect) != 0)
        return 0;
    const int small = k <= s->n / 64;
    const unsigned members = zs_team_size(s->team);
    guess_job *j = calloc(1, sizeof *j);
    member_pass *mp = calloc(members, sizeof *mp);
    int ok = j && mp;
    if (ok) {
        *j = (guess_job){.s = s, .t_lo = small ? 0 : t_lo, .t_hi = t_hi,
                         .cap = 2 * expect + 1024, .positions = small, .mp = mp};
        ok = lists_alloc(s, mp, members, j->cap, small) == 0;
    }
    uint64_t total = 0, less = 0;
    if (ok) {
        mp[0].l = s->l;
        zs_team_run(s->team, guess_member, j);
        for (unsigned m = 0; m < members; m++)
            ok &= !j->overflow[m], total += mp[m].l.n, less += j->below[m];
        /* each member had cap: together they may hold more than member 0's list */
        ok = ok && less < k && less + total >= k && list_grow(&s->l, total, small) == 0;
        if (ok)
            join_lists(s, mp, members);
    }
    for (unsigned m = 1; mp && m < members; m++)
        free(mp[m].l.v), free(mp[m].l.pos);
    if (!ok) { /* s->l: member 0's list, or nothing */
        free(s->l.v), free(s->l.pos);
        s->l = (list){NULL, NULL, 0};
    }
    free(j), free(mp);
    s->collected = ok && small;
    s->less = ok ? less : 0;
    s->rank = k - 1 - s->less;
    s->in_play = ok ? s->l.n : s->n;
    return ok;
}

/* The k-th key's sort bits; s->rank then is its rank among the keys equal
 * to it (how many of them the stable sort takes, less one). */
static uint64_t find_kth(select_state *s, unsigned width)
{
    s->shift = width; /* nothing known: every key in play */
    while (s->shift > 0) {
        const unsigned d = s->shift >= ZS_TOPK_DIGIT_BITS ? ZS_TOPK_DIGIT_BITS : s->shift;
        const unsigned dshift = s->shift - d;
        memset(s->hist, 0, sizeof s->hist);
        if (s->l.v)
            pass_list(s, dshift, d);
        else
            pass_keys(s, dshift, d);
        if (s->lo == s->hi) /* every key in play equal: the k-th one is it */
            return s->lo;
        narrow(s, dshift, d);
    }
    return s->prefix;
}

/* The C fallback's team for n keys: a member per ZS_CPU_MIN_KEYS_PER_THREAD
 * keys, at most ZESORT_THREADS; NULL (the caller alone) for one. */
static zs_team *topk_team(uint64_t n)
{
    uint64_t want = n / ZS_CPU_MIN_KEYS_PER_THREAD;
    const unsigned threads = zs_cpu_thread_count();
    want = want < threads ? want : threads;
    return want > 1 ? zs_team_start((unsigned)want, ZS_CPU_MAX_THREADS) : NULL;
}

void zs_cpu_topk_select(const void *keys, uint64_t n, uint64_t k, unsigned key_bytes,
                        uint32_t key_flags, unsigned bit_lo, unsigned bit_hi, uint64_t *pos,
                        void *keys_out)
{
    select_state *s = calloc(1, sizeof *s);
    select_state local;
    if (!s) { /* a few KiB: the stack holds them when the heap does not */
        memset(&local, 0, sizeof local);
        s = &local;
    }
    s->keys = keys, s->n = n, s->kb = key_bytes;
    s->m = make_map(key_bytes, key_flags, bit_lo, bit_hi);
    s->rank = k - 1, s->in_play = n;
    s->team = topk_team(n);
    guess_from_sample(s, k);
    const uint64_t kth = find_kth(s, bit_hi - bit_lo);
    if (s->collected)
        zs_topk_compact_list(s, kth, s->rank + 1, k, pos, keys_out);
    else
        zs_topk_compact_keys(s, kth, s->rank + 1, k, pos, keys_out);
    zs_team_stop(s->team);
    free(s->l.v), free(s->l.pos);
    if (s != &local)
        free(s);
}

/* Large k: every key at or below a bound that the sample puts safely above
 * the k-th key's sort bits, in input order: one read of the keys and a
 * branch-free write (a member compacts its chunk in place in out, then the
 * chunks close ranks). */
typedef struct bounded_job {
    const select_state *s;
    uint64_t t;
    uint64_t *pos;
    void *out;
    uint64_t kept[ZS_CPU_MAX_THREADS];
} bounded_job;

static void bounded_member(void *arg, unsigned me, unsigned members)
{
    bounded_job *j = arg;
    const select_state *s = j->s;
    const uint64_t b = s->n * me / members, e = s->n * (me + 1) / members, t = j->t;
    const key_map m = s->m;
    uint64_t c = b, *pos = j->pos;
    void *out = j->out;
    /* slot c <= i: within the chunk; a typed store, no test a key */
#define ZS_BOUNDED_LOOP(T)                                                                  \
    do {                                                                                    \
        const T *K = s->keys;                                                               \
        T *o = out;                                                                         \
        for (uint64_t i = b; i < e; i++) {                                                  \
            o[c] = K[i];                                                                    \
            if (pos)                                                                        \
                pos[c] = i;                                                                 \
            c += sort_bits(m, zs_key_dk(K[i], m.flt)) <= t;                                 \
        }                                                                                   \
    } while (0)
    switch (s->kb) {
    case 1: ZS_BOUNDED_LOOP(uint8_t); break;
    case 2: ZS_BOUNDED_LOOP(uint16_t); break;
    case 4: ZS_BOUNDED_LOOP(uint32_t); break;
    default: ZS_BOUNDED_LOOP(uint64_t);
    }
#undef ZS_BOUNDED_LOOP
    j->kept[me] = c - b;
}

uint64_t zs_cpu_topk_bounded(const void *keys, uint64_t n, uint64_t k, unsigned key_bytes,
                             uint32_t key_flags, unsigned bit_lo, unsigned bit_hi, uint64_t *pos,
                             void *keys_out)
{
    select_state *s = calloc(1, sizeof *s);
    bounded_job *j = calloc(1, sizeof *j);
    uint64_t t_lo, t_hi, expect, m = 0;
    if (s && j && n >= 65536) {
        s->keys = keys, s->n = n, s->kb = key_bytes;
        s->m = make_map(key_bytes, key_flags, bit_lo, bit_hi);
        if (sample_bounds(s, k, &t_lo, &t_hi, &expect) == 0) {
            zs_team *team = topk_team(n);
            const unsigned members = zs_team_size(team);
            *j = (bounded_job){.s = s, .t = t_hi, .pos = pos, .out = keys_out};
            zs_team_run(team, bounded_member, j);
            zs_team_stop(team);
            for (unsigned t = 0; t < members; t++) { /* the chunks' keys together */
                const uint64_t b = n * t / members, c = j->kept[t];
                memmove((char *)keys_out + m * key_bytes, (char *)keys_out + b * key_bytes,
                        (size_t)(c * key_bytes));
                if (pos)
                    memmove(pos + m, pos + b, (size_t)(c * sizeof *pos));
                m += c;
            }
            m = m >= k ? m : 0;
        }
    }
    free(s);
    free(j);
    return m;
}
