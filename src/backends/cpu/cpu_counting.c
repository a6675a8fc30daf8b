/*
 * cpu_counting.c — the counting sort of narrow keys (cpu_counting.h).
 *
 * Every member counts the raw keys of its block (2^bits bins), the caller
 * turns the counts into the first slot of each key in ordered-key order,
 * then every member writes its block of the output: runs of equal keys, no
 * read of the input. Against the radix passes, which read the keys twice
 * and scatter them once per 8-bit digit, this is one read and one
 * sequential write (8-bit keys: one pass either way, but no scatter).
 *
 * The order: the ordered key of k is dk(k) ^ c (key_order.h). dk is its own
 * inverse, so the key at ordered position ob is dk(ob ^ c).
 */
#include "backends/cpu/cpu_counting.h"

#include <stdlib.h>
#include <string.h>

#include "backends/cpu/cpu_threads.h"
#include "backends/cpu/key_order.h"

typedef struct count_job {
    void *keys;
    size_t n;
    unsigned kb, bins, members;
    int flt;
    uint32_t c;
    uint32_t *hist;  /* [member][bins] raw-key counts */
    uint64_t *first; /* [bins + 1]: first output slot of ordered bin ob */
    int filling;     /* 0: count, 1: write */
} count_job;

/* The raw key at ordered position ob. */
static uint32_t key_at(const count_job *j, uint32_t ob)
{
    const uint32_t k = ob ^ j->c;
    return j->kb == 1 ? zs_key_dk8((uint8_t)k, j->flt) : zs_key_dk16((uint16_t)k, j->flt);
}

static void count_block(count_job *j, size_t b, size_t e, uint32_t *h)
{
    memset(h, 0, j->bins * sizeof *h);
    if (j->kb == 1) {
        const uint8_t *k = j->keys;
        for (size_t i = b; i < e; i++)
            h[k[i]]++;
    } else {
        const uint16_t *k = j->keys;
        for (size_t i = b; i < e; i++)
            h[k[i]]++;
    }
}

/* Output slots [b, e): the runs of the ordered bins that cover them. */
static void fill_block(const count_job *j, size_t b, size_t e)
{
    size_t lo = 0, hi = j->bins; /* the bin holding slot b: first[ob] <= b < first[ob + 1] */
    while (hi - lo > 1) {
        const size_t mid = (lo + hi) / 2;
        if (j->first[mid] <= b)
            lo = mid;
        else
            hi = mid;
    }
    for (size_t ob = lo; b < e; ob++) {
        const size_t end = j->first[ob + 1] < e ? (size_t)j->first[ob + 1] : e;
        const uint32_t k = key_at(j, (uint32_t)ob);
        if (j->kb == 1) {
            memset((uint8_t *)j->keys + b, (int)k, end - b);
        } else {
            uint16_t *d = j->keys;
            for (size_t i = b; i < end; i++)
                d[i] = (uint16_t)k;
        }
        b = end > b ? end : b;
    }
}

static void member_run(void *arg, unsigned m, unsigned members)
{
    count_job *j = arg;
    const size_t b = (size_t)((uint64_t)j->n * m / members);
    const size_t e = (size_t)((uint64_t)j->n * (m + 1) / members);
    if (j->filling)
        fill_block(j, b, e);
    else
        count_block(j, b, e, j->hist + (size_t)m * j->bins);
}

/* first[] from the members' counts, in ordered-key order. */
static void make_first(count_job *j)
{
    uint64_t running = 0;
    for (uint32_t ob = 0; ob < j->bins; ob++) {
        j->first[ob] = running;
        const uint32_t raw = key_at(j, ob);
        for (unsigned m = 0; m < j->members; m++)
            running += j->hist[(size_t)m * j->bins + raw];
    }
    j->first[j->bins] = running;
}

zesort_status zs_cpu_counting_sort(void *keys, uint64_t n, unsigned key_bytes, uint32_t key_flags,
                                   unsigned threads, unsigned create_limit)
{
    count_job j = {.keys = keys, .n = (size_t)n, .kb = key_bytes,
                   .bins = (uint32_t)zs_key_all_bits(key_bytes) + 1u,
                   .flt = zs_key_is_float(key_flags),
                   .c = (uint32_t)zs_key_order_xor(key_bytes, key_flags)};
    zs_team *team = zs_team_start(threads, create_limit);
    j.members = zs_team_size(team);
    j.hist = malloc((size_t)j.members * j.bins * sizeof *j.hist);
    j.first = malloc(((size_t)j.bins + 1) * sizeof *j.first);
    zesort_status st = ZESORT_ERROR_OUT_OF_HOST_MEMORY;
    if (j.hist && j.first) {
        zs_team_run(team, member_run, &j);
        make_first(&j);
        j.filling = 1;
        zs_team_run(team, member_run, &j);
        st = ZESORT_OK;
    }
    zs_team_stop(team);
    free(j.hist), free(j.first);
    return st;
}
