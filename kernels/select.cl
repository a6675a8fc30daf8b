/*
 * select.cl — the radix select of a top-k: finds the k-th key's
 * digits most significant first, then gathers, in input order, the keys
 * before it and the first ties at it: the candidates that the planner then
 * sorts with an ordinary sort plan (plan/plan_topk.c).
 *
 *   sel_init    the state from the count and k; every histogram cleared
 *   sel_hist    one digit's histogram over the keys that still match the
 *               prefix found so far (nothing once the state says done)
 *   sel_pick    (one work-item) the digit holding the k-th key: the prefix grows by it;
 *               done when the keys before it and in its bucket fit the
 *               candidates' room (cap), or after the last digit
 *   sel_count   per CM chunk of ZS_CHUNK_KEYS keys, the keys before the
 *               prefix and the keys tied with it, into the bin-major count
 *               table (2 bins) that scan.cl scans
 *   sel_scatter the candidates in input order: a key before the prefix at
 *               its scanned slot, a tie only while its slot is below
 *               less + take (ties kept by input position); values moved, or
 *               with ZS_IOTA_VALUES the input position written as the value
 *
 * Digits are bits of the ordered key (zs_ordered: descending flips it, so
 * the k smallest ordered keys are the k largest keys), within the sort's
 * bit range: the planner passes each pass's shift and digit mask. Narrow
 * keys (key_flags' ZS_NARROW_*) run the 32-bit programs, loaded and stored
 * at their width (zs_key_load, zs_key_store: zesort_keys.h).
 *
 * Plain OpenCL C 1.2: work-groups of ZS_SEL_WG items with local memory and
 * barriers in the sg and portable flavors (nothing here ranks within a
 * sub-group), one work-item a work-group walking its keys in order in the
 * serial flavor (ZS_SERIAL: for CPUs, where barriers and local atomics cost
 * a loop over the items and a locked instruction a key). n is min(params[0],
 * params[1]) as for every kernel (plan.h), so a count read on the device
 * works; sel_pick and sel_init write the candidates' own params (m, then
 * cap) for the sort that follows.
 *
 * Cost is bounded whatever the keys: each pass reads the keys once (a
 * returning work-group once the state says done), sel_count reads them once
 * more and sel_scatter once more (skipping chunks that hold no candidate),
 * and the candidates are at most cap however many keys tie.
 */
#include "zesort_keys.h"
#include "zesort_tuning.h"

#ifndef ZS_SERIAL
#define ZS_SERIAL 0
#endif

#ifndef ZS_PAIRS
#define ZS_PAIRS 0
#endif

#define SEL_WG ZS_SEL_WG
#define SEL_BINS ZS_OS_BINS
#define SEL_PER_CHUNK_ITEM (ZS_CHUNK_KEYS / SEL_WG) /* keys an item takes of a chunk */
#if ZS_CHUNK_KEYS % ZS_SEL_WG != 0
#error "sel_count and sel_scatter give each work-item the same number of keys of a chunk"
#endif
#if ZS_SEL_CHUNKS_PER_GROUP > 256
#error "sel_scatter lists its work-group's chunks in bytes"
#endif
#if SEL_WG < SEL_BINS
#error "sel_hist gives one bin to each work-item"
#endif

/* State words (SEL_STATE, ZS_SEL_STATE_WORDS). */
#define S_KREM 0u  /* keys still wanted among those that match the prefix */
#define S_LESS 1u  /* keys whose prefix bits are below the prefix */
#define S_DONE 2u  /* 1: the prefix is final, nothing more to count */
#define S_TAKE 3u  /* keys of the prefix's bucket that are candidates */
#define S_PRE 4u   /* prefix (2 words, low first), ordered key bits found */
#define S_MASK 6u  /* mask of those bits (2 words) */

inline zs_key sel_word2(__global const uint *w)
{
#if ZS_KEY64
    return (zs_key)w[0] | ((zs_key)w[1] << 32);
#else
    return w[0];
#endif
}

inline uint sel_n(__global const uint *params)
{
    return min(params[0], params[1]);
}

/* cand_params of the candidates' sort: m candidates, plan size cap. */
inline void sel_cand_params(__global uint *cand_params, uint m, uint cap)
{
    cand_params[0] = m;
    cand_params[1] = cand_params[2] = cand_params[3] = cap;
}

/* One work-group. Every candidate when k >= n or n <= cap (no prefix: every
 * key ties), none when k or n is 0; otherwise the passes decide. */
__attribute__((reqd_work_group_size(SEL_WG, 1, 1)))
__kernel void sel_init(__global uint *state, __global uint *hist, __global uint *cand_params,
                       __global const uint *params, uint k, uint cap)
{
    const uint lid = (uint)get_local_id(0);
    for (uint i = lid; i < ZS_SEL_HIST_WORDS; i += SEL_WG)
        hist[i] = 0;
    if (lid != 0)
        return;
    const uint n = sel_n(params), keff = min(k, n);
    const uint all = keff == 0u || n <= cap;
    for (uint i = 0; i < ZS_SEL_STATE_WORDS; ++i)
        state[i] = 0;
    state[S_KREM] = keff;
    state[S_DONE] = all;
    state[S_TAKE] = keff == 0u ? 0u : n;
    sel_cand_params(cand_params, all ? state[S_TAKE] : 0u, cap);
}

/* hist[pass * SEL_BINS + d] += keys matching the prefix whose digit is d. */
#if ZS_SERIAL
__attribute__((reqd_work_group_size(1, 1, 1)))
__kernel void sel_hist(__global const zs_key *keys, __global uint *hist,
                       __global const uint *state, __global const uint *params, uint shift,
                       uint digit_mask, uint key_flags, uint pass)
{
    const uint n = sel_n(params);
    const ulong base = (ulong)get_group_id(0) * ZS_SEL_SERIAL_TILE;
    if (state[S_DONE] != 0u || base >= n)
        return;
    const ulong end = min(base + ZS_SEL_SERIAL_TILE, (ulong)n);
    const zs_key prefix = sel_word2(state + S_PRE), mask = sel_word2(state + S_MASK);
    uint h[SEL_BINS];
    for (uint b = 0; b < SEL_BINS; ++b)
        h[b] = 0;
    for (ulong i = base; i < end; ++i) {
        const zs_key o = zs_ordered(zs_key_load(keys, i, key_flags), key_flags);
        h[(uint)(o >> shift) & digit_mask] += (o & mask) == prefix;
    }
    for (uint b = 0; b < SEL_BINS; ++b)
        if (h[b])
            atomic_add(&hist[pass * SEL_BINS + b], h[b]);
}
#else
__attribute__((reqd_work_group_size(SEL_WG, 1, 1)))
__kernel void sel_hist(__global const zs_key *keys, __global uint *hist,
                       __global const uint *state, __global const uint *params, uint shift,
                       uint digit_mask, uint key_flags, uint pass)
{
    __local uint local_hist[SEL_BINS];
    const uint n = sel_n(params);
    const ulong base = (ulong)get_group_id(0) * ZS_SEL_HIST_TILE;
    if (state[S_DONE] != 0u || base >= n)
        return; /* uniform */
    const uint lid = (uint)get_local_id(0);
    const zs_key prefix = sel_word2(state + S_PRE), mask = sel_word2(state + S_MASK);
    local_hist[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < ZS_SEL_HIST_PER_ITEM; ++j) {
        const ulong i = base + (ulong)j * SEL_WG + lid;
        if (i < n) {
            const zs_key o = zs_ordered(zs_key_load(keys, i, key_flags), key_flags);
            if ((o & mask) == prefix)
                atomic_inc(&local_hist[(uint)(o >> shift) & digit_mask]);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (local_hist[lid])
        atomic_add(&hist[pass * SEL_BINS + lid], local_hist[lid]);
}
#endif

/* One work-item: the bin of the k-th matching key, by a walk over the
 * pass's histogram (256 loads: a scan by a work-group of 256 items, with a
 * barrier a step, misread its results on PoCL 3.1 and saves nothing here). */
__attribute__((reqd_work_group_size(1, 1, 1)))
__kernel void sel_pick(__global const uint *hist, __global uint *state,
                       __global uint *cand_params, uint pass, uint shift, uint digit_mask,
                       uint cap, uint last)
{
    if (state[S_DONE] != 0u)
        return;
    __global const uint *h = hist + pass * SEL_BINS;
    const uint krem = state[S_KREM];
    uint d = 0, before = 0;
    while (d + 1u < SEL_BINS && before + h[d] < krem) /* krem <= the matching keys */
        before += h[d++];
    const uint count = h[d];
    const uint below = state[S_LESS] + before, wanted = krem - before;
    const zs_key prefix = sel_word2(state + S_PRE) | ((zs_key)d << shift);
    const zs_key mask = sel_word2(state + S_MASK) | ((zs_key)digit_mask << shift);
    /* the whole bucket fits: take it all, the sort breaks the ties */
    const uint fits = (ulong)below + count <= cap;
    state[S_LESS] = below;
    state[S_KREM] = wanted;
    state[S_PRE] = (uint)prefix;
    state[S_MASK] = (uint)mask;
#if ZS_KEY64
    state[S_PRE + 1] = (uint)(prefix >> 32);
    state[S_MASK + 1] = (uint)(mask >> 32);
#endif
    if (fits || last) {
        state[S_TAKE] = fits ? count : wanted;
        state[S_DONE] = 1;
        sel_cand_params(cand_params, below + state[S_TAKE], cap);
    }
}

/* Key i's class: 1 before the prefix, 2 tied with it, 0 neither. */
inline uint sel_class(__global const zs_key *keys, ulong i, uint n, zs_key prefix, zs_key mask,
                      uint key_flags)
{
    if (i >= n)
        return 0u;
    const zs_key p = zs_ordered(zs_key_load(keys, i, key_flags), key_flags) & mask;
    return p < prefix ? 1u : p == prefix ? 2u : 0u;
}

#if ZS_SERIAL
/* The serial flavor: one work-item walks ZS_SEL_SERIAL_CHUNKS chunks in
 * key order, counting (sel_count) or placing (sel_scatter) as it goes. */
inline uint sel_chunks_of(uint n, ulong *first, ulong *chunks)
{
    *chunks = ((ulong)n + ZS_CHUNK_KEYS - 1u) / ZS_CHUNK_KEYS;
    *first = (ulong)get_group_id(0) * ZS_SEL_SERIAL_CHUNKS;
    return *first >= *chunks ? 0u : (uint)min((ulong)ZS_SEL_SERIAL_CHUNKS, *chunks - *first);
}

__attribute__((reqd_work_group_size(1, 1, 1)))
__kernel void sel_count(__global const zs_key *keys, __global uint *table,
                        __global const uint *state, __global const uint *params, uint key_flags)
{
    const uint n = sel_n(params);
    ulong first, chunks;
    const uint count = sel_chunks_of(n, &first, &chunks);
    const zs_key prefix = sel_word2(state + S_PRE), mask = sel_word2(state + S_MASK);
    for (ulong c = first; c < first + count; ++c) {
        uint less = 0, ties = 0;
        const ulong end = min((c + 1u) * ZS_CHUNK_KEYS, (ulong)n);
        for (ulong i = c * ZS_CHUNK_KEYS; i < end; ++i) {
            const zs_key p = zs_ordered(zs_key_load(keys, i, key_flags), key_flags) & mask;
            less += p < prefix;
            ties += p == prefix;
        }
        table[c] = less;
        table[chunks + c] = ties;
    }
}

__attribute__((reqd_work_group_size(1, 1, 1)))
__kernel void sel_scatter(__global const zs_key *keys_in, __global const zs_value *values_in,
                          __global zs_key *cand_keys, __global zs_value *cand_values,
                          __global const uint *table, __global const uint *state,
                          __global const uint *params, uint key_flags)
{
    const uint n = sel_n(params);
    ulong first, chunks;
    const uint count = sel_chunks_of(n, &first, &chunks);
    const zs_key prefix = sel_word2(state + S_PRE), mask = sel_word2(state + S_MASK);
    const uint end = state[S_LESS] + state[S_TAKE];
    for (ulong c = first; c < first + count; ++c) {
        uint at_less = table[c], at_tie = table[chunks + c];
        /* the next entry of the bin-major table: chunk c's keys before the
         * prefix end there (entry chunks is the first tie's slot) */
        if (table[c + 1] == at_less && at_tie >= end)
            continue; /* no candidate here */
        const ulong stop = min((c + 1u) * ZS_CHUNK_KEYS, (ulong)n);
        for (ulong i = c * ZS_CHUNK_KEYS; i < stop; ++i) {
            const zs_key p = zs_ordered(zs_key_load(keys_in, i, key_flags), key_flags) & mask;
            if (p > prefix || (p == prefix && at_tie >= end))
                continue;
            const uint s = p < prefix ? at_less++ : at_tie++;
            zs_key_store(cand_keys, s, zs_key_load(keys_in, i, key_flags), key_flags);
#if ZS_PAIRS
            cand_values[s] = (key_flags & ZS_IOTA_VALUES) ? (zs_value)i : values_in[i];
#endif
        }
    }
#if !ZS_PAIRS
    (void)values_in;
    (void)cand_values;
#endif
}
#else /* work-groups of ZS_SEL_WG items: sg and portable flavors */

/* table[c] = keys of chunk c before the prefix, table[chunks + c] = its
 * ties, for the ZS_SEL_CHUNKS_PER_GROUP chunks of this work-group. */
__attribute__((reqd_work_group_size(SEL_WG, 1, 1)))
__kernel void sel_count(__global const zs_key *keys, __global uint *table,
                        __global const uint *state, __global const uint *params, uint key_flags)
{
    __local uint counts[2];
    const uint n = sel_n(params);
    const ulong chunks = ((ulong)n + ZS_CHUNK_KEYS - 1u) / ZS_CHUNK_KEYS;
    const ulong first = (ulong)get_group_id(0) * ZS_SEL_CHUNKS_PER_GROUP;
    if (first >= chunks)
        return; /* uniform */
    const uint lid = (uint)get_local_id(0);
    const zs_key prefix = sel_word2(state + S_PRE), mask = sel_word2(state + S_MASK);
    const uint count = (uint)min((ulong)ZS_SEL_CHUNKS_PER_GROUP, chunks - first);
    for (uint t = 0; t < count; ++t) {
        const ulong c = first + t;
        if (lid < 2u)
            counts[lid] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        uint less = 0, ties = 0;
        for (uint j = 0; j < SEL_PER_CHUNK_ITEM; ++j) {
            const uint cls = sel_class(keys, c * ZS_CHUNK_KEYS + lid * SEL_PER_CHUNK_ITEM + j, n,
                                       prefix, mask, key_flags);
            less += cls == 1u;
            ties += cls == 2u;
        }
        if (less)
            atomic_add(&counts[0], less);
        if (ties)
            atomic_add(&counts[1], ties);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < 2u)
            table[lid * chunks + c] = counts[lid];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* Exclusive scan over the work-group of each item's packed counts (before
 * in the low 16 bits, ties in the high: a chunk holds at most 2^16 keys). */
inline uint sel_items_below(uint v, __local uint *tmp)
{
    const uint lid = (uint)get_local_id(0);
    tmp[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint off = 1; off < SEL_WG; off <<= 1) {
        const uint add = lid >= off ? tmp[lid - off] : 0u;
        barrier(CLK_LOCAL_MEM_FENCE);
        tmp[lid] += add;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const uint inclusive = tmp[lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    return inclusive - v;
}

/* The candidates of chunk c, in input order, into cand_keys (cand_values). */
inline void sel_scatter_chunk(__global const zs_key *keys_in, __global const zs_value *values_in,
                              __global zs_key *cand_keys, __global zs_value *cand_values,
                              __global const uint *table, ulong c, ulong chunks, uint n,
                              zs_key prefix, zs_key mask, uint end, uint key_flags,
                              __local uint *tmp)
{
    const uint lid = (uint)get_local_id(0);
    const ulong at = c * ZS_CHUNK_KEYS + lid * SEL_PER_CHUNK_ITEM;
    uint cls[SEL_PER_CHUNK_ITEM], mine = 0;
    for (uint j = 0; j < SEL_PER_CHUNK_ITEM; ++j) {
        cls[j] = sel_class(keys_in, at + j, n, prefix, mask, key_flags);
        mine += cls[j] == 1u ? 1u : cls[j] == 2u ? 0x10000u : 0u;
    }
    const uint below = sel_items_below(mine, tmp);
    uint slot[3] = {0u, table[c] + (below & 0xFFFFu), table[chunks + c] + (below >> 16)};
    for (uint j = 0; j < SEL_PER_CHUNK_ITEM; ++j) {
        if (cls[j] == 0u)
            continue;
        const uint s = slot[cls[j]]++;
        if (s >= end)
            continue; /* a tie past the ones wanted */
        zs_key_store(cand_keys, s, zs_key_load(keys_in, at + j, key_flags), key_flags);
#if ZS_PAIRS
        cand_values[s] = (key_flags & ZS_IOTA_VALUES) ? (zs_value)(at + j) : values_in[at + j];
#endif
    }
#if !ZS_PAIRS
    (void)values_in;
    (void)cand_values;
#endif
}

/* After the scan of the count table: a key before the prefix goes to
 * table[c] + its rank, a tie to table[chunks + c] + its rank while that is
 * below less + take. The chunks with neither are left out before the loop
 * (read from the scanned table, the same for every work-item): the loop
 * that holds the barriers then runs a uniform count of times, with no
 * branch around them (PoCL's work-item loops mis-ran a `continue` there). */
__attribute__((reqd_work_group_size(SEL_WG, 1, 1)))
__kernel void sel_scatter(__global const zs_key *keys_in, __global const zs_value *values_in,
                          __global zs_key *cand_keys, __global zs_value *cand_values,
                          __global const uint *table, __global const uint *state,
                          __global const uint *params, uint key_flags)
{
    __local uint tmp[SEL_WG];
    const uint n = sel_n(params);
    const ulong chunks = ((ulong)n + ZS_CHUNK_KEYS - 1u) / ZS_CHUNK_KEYS;
    const ulong first = (ulong)get_group_id(0) * ZS_SEL_CHUNKS_PER_GROUP;
    if (first >= chunks)
        return; /* uniform */
    const zs_key prefix = sel_word2(state + S_PRE), mask = sel_word2(state + S_MASK);
    const uint end = state[S_LESS] + state[S_TAKE];
    const uint count = (uint)min((ulong)ZS_SEL_CHUNKS_PER_GROUP, chunks - first);
    uchar todo[ZS_SEL_CHUNKS_PER_GROUP];
    uint busy = 0;
    for (uint t = 0; t < count; ++t) {
        const ulong c = first + t;
        /* the next entry of the bin-major table: chunk c's keys before the
         * prefix end there (entry chunks is the first tie's slot) */
        const uint less = table[c + 1] - table[c];
        const uint ties_from = table[chunks + c];
        const int no_ties = c + 1 < chunks && table[chunks + c + 1] == ties_from;
        if (less != 0u || (ties_from < end && !no_ties))
            todo[busy++] = (uchar)t;
    }
    for (uint t = 0; t < busy; ++t)
        sel_scatter_chunk(keys_in, values_in, cand_keys, cand_values, table, first + todo[t],
                          chunks, n, prefix, mask, end, key_flags, tmp);
}
#endif /* ZS_SERIAL */
