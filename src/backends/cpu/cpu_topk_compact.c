/*
 * cpu_topk_compact.c — the last step of the C fallback's radix select
 * (cpu_topk.c), once the k-th key's sort bits are known.
 *
 * The compaction takes, in input order, every key below the k-th key's bits
 * and the first keys equal to them, as many as the rank needs (a stable
 * sort's choice among ties), branch-free (half the keys taken at random
 * would mispredict every other branch), and stops at the k-th taken.
 */
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/cpu_topk_state.h"

/* Copies key i of keys (kb bytes) to element j of out. */
static inline void put_key(void *out, uint64_t j, const void *keys, uint64_t i, unsigned kb)
{
    switch (kb) {
    case 8: ((uint64_t *)out)[j] = ((const uint64_t *)keys)[i]; break;
    case 4: ((uint32_t *)out)[j] = ((const uint32_t *)keys)[i]; break;
    default: memcpy((char *)out + j * kb, (const char *)keys + i * kb, kb);
    }
}

/* The compaction over every key, on the team: each member counts, in its
 * chunk, the keys below the k-th key's bits and those equal to them; then
 * each writes its winners (positions to pos, keys to out: either may be
 * NULL) from its own offset, the equal ones up to its share of `equal`. */
typedef struct compact_job {
    const select_state *s;
    uint64_t kth, equal;
    uint64_t *pos;
    void *out;
    uint64_t lt[ZS_CPU_MAX_THREADS], eq[ZS_CPU_MAX_THREADS];
    uint64_t at[ZS_CPU_MAX_THREADS], quota[ZS_CPU_MAX_THREADS];
} compact_job;

static void count_member(void *arg, unsigned me, unsigned members)
{
    compact_job *j = arg;
    const select_state *s = j->s;
    const uint64_t b = s->n * me / members, e = s->n * (me + 1) / members, kth = j->kth;
    const key_map m = s->m;
    uint64_t lt = 0, eq = 0;
    ZS_BY_WIDTH(s->keys, s->kb, {
        for (uint64_t i = b; i < e; i++) {
            const uint64_t v = sort_bits(m, zs_key_dk(K[i], m.flt));
            lt += v < kth;
            eq += v == kth;
        }
    });
    j->lt[me] = lt, j->eq[me] = eq;
}

/* Branch-free (half the keys taken at random would mispredict every other
 * branch): slot `taken` is written whether or not the key is taken, and
 * only while taken < the member's total, so never past its own slots. */
static void write_member(void *arg, unsigned me, unsigned members)
{
    compact_job *j = arg;
    const select_state *s = j->s;
    const uint64_t b = s->n * me / members, e = s->n * (me + 1) / members, kth = j->kth;
    const uint64_t quota = j->quota[me], total = j->lt[me] + quota, at = j->at[me];
    const key_map m = s->m;
    uint64_t *pos = j->pos;
    void *out = j->out;
    uint64_t taken = 0, eq = 0;
    ZS_BY_WIDTH(s->keys, s->kb, {
        for (uint64_t i = b; i < e && taken < total; i++) {
            const uint64_t v = sort_bits(m, zs_key_dk(K[i], m.flt));
            const uint64_t is_eq = v == kth;
            const uint64_t take = (v < kth) | (is_eq & (eq < quota));
            eq += is_eq;
            if (pos)
                pos[at + taken] = i;
            if (out)
                put_key(out, at + taken, K, i, s->kb);
            taken += take;
        }
    });
}

void zs_topk_compact_keys(const select_state *s, uint64_t kth, uint64_t equal, uint64_t k,
                          uint64_t *pos, void *out)
{
    compact_job *j = malloc(sizeof *j);
    compact_job one;
    zs_team *team = j ? s->team : NULL; /* no memory: one member, on the stack */
    j = j ? j : &one;
    *j = (compact_job){.s = s, .kth = kth, .equal = equal, .pos = pos, .out = out};
    const unsigned members = zs_team_size(team);
    if (members > 1)
        zs_team_run(team, count_member, j);
    else /* one member: no counts needed, every winner is its */
        j->lt[0] = k - equal, j->eq[0] = equal;
    uint64_t at = 0, left = equal;
    for (unsigned t = 0; t < members; t++) {
        j->quota[t] = j->eq[t] < left ? j->eq[t] : left;
        left -= j->quota[t];
        j->at[t] = at;
        at += j->lt[t] + j->quota[t];
    }
    zs_team_run(team, write_member, j);
    if (j != &one)
        free(j);
}

/* The compaction over a collected list (every winner is in it, in input
 * order). */
void zs_topk_compact_list(const select_state *s, uint64_t kth, uint64_t equal, uint64_t k,
                          uint64_t *pos, void *out)
{
    uint64_t taken = 0, eq = 0;
    for (uint64_t j = 0; j < s->l.n && taken < k; j++) {
        const uint64_t v = s->l.v[j], i = s->l.pos[j];
        const uint64_t is_eq = v == kth;
        const uint64_t take = (v < kth) | (is_eq & (eq < equal));
        eq += is_eq;
        if (pos)
            pos[taken] = i;
        if (out)
            put_key(out, taken, s->keys, i, s->kb);
        taken += take;
    }
}
