/*
 * mpi_splitters.c — exact splitters for the distributed sort. Each rank's
 * keys are sorted; for every target position g of the global order (where
 * one rank's slice ends and the next one's begins) this finds how many of
 * each rank's keys come before g.
 *
 * Why this way (splitter refinement, MSB first): the digit at position g is
 * found ZM_SPLIT_BITS bits at a time, the highest first, with one
 * MPI_Allreduce of 2^ZM_SPLIT_BITS - 1 counts per target per round: exact
 * after width / ZM_SPLIT_BITS rounds (4 for 32-bit keys; fewer when the
 * global minimum and maximum share high bits), whatever the distribution.
 * One bit a round took 32 rounds, and on ranks that share cores every
 * round of a collective costs a scheduler time slice (measured: 360 ms of
 * splitters for 4 ranks on 2 cores, against ... with 8 bits).
 * Sampling would only approximate positions and then need this anyway to
 * split runs of equal keys, which the (rank, index) tie-break requires: the
 * keys equal to the digit at g are shared out in rank order (MPI_Exscan of
 * each rank's count of them), so slices are exact (N / P, +1) even when
 * every key is equal.
 */
#include "mpi_internal.h"

static zesort_status digit_range(MPI_Comm comm, zm_keys *kv, uint64_t *gmin, uint64_t *gmax)
{
    /* one MAX reduction for both: the minimum as the maximum of ~digit */
    uint64_t n = kv->n;
    uint64_t in[2] = {n ? ~zm_digit_at(kv, 0) : 0, n ? zm_digit_at(kv, n - 1) : 0};
    uint64_t out[2];
    int rc = MPI_Allreduce(in, out, 2, MPI_UINT64_T, MPI_MAX, comm);
    if (rc != MPI_SUCCESS)
        return zm_mpi_fail(rc, "MPI_Allreduce (key range)");
    *gmin = ~out[0];
    *gmax = out[1];
    return ZESORT_OK;
}

/* One round: the next k bits (below `shift`) of every target's digit, from
 * the global counts of keys at most v[t] | j << shift | low, j < 2^k - 1. */
static zesort_status refine_round(MPI_Comm comm, zm_keys *kv, const uint64_t *targets,
                                  int count, uint64_t *v, int k,
                                  int shift, uint64_t *le, uint64_t *gle)
{
    int steps = (1 << k) - 1;
    uint64_t low = shift ? (UINT64_C(1) << shift) - 1 : 0;
    uint64_t *digit = gle + (size_t)count * ZM_SPLIT_STEPS;
    for (int t = 0; t < count; t++)
        for (int j = 0; j < steps; j++)
            digit[t * steps + j] = v[t] | (uint64_t)j << shift | low;
    zm_count_many(kv, digit, (uint64_t)count * (uint64_t)steps, 1, le);
    int rc = MPI_Allreduce(le, gle, count * steps, MPI_UINT64_T, MPI_SUM, comm);
    if (rc != MPI_SUCCESS)
        return zm_mpi_fail(rc, "MPI_Allreduce (splitter refinement)");
    /* The counts grow with j; position targets[t] lies above every j whose
     * count is at most targets[t]: their number is the digit's next bits. */
    for (int t = 0; t < count; t++) {
        uint64_t j = 0;
        while ((int)j < steps && gle[t * steps + (int)j] <= targets[t])
            j++;
        v[t] |= j << shift;
    }
    return ZESORT_OK;
}

/* v[t] := the digit of the key at global position targets[t] (< total). */
static zesort_status refine(MPI_Comm comm, zm_keys *kv, const uint64_t *targets, int count,
                            uint64_t *v, uint64_t *scratch,
                            uint64_t *rounds)
{
    uint64_t gmin = 0, gmax = 0;
    zesort_status st = digit_range(comm, kv, &gmin, &gmax);
    if (st != ZESORT_OK)
        return st;
    /* Bits above the highest one where min and max differ are common to all. */
    uint64_t diff = gmin ^ gmax;
    int nbits = diff ? 64 - __builtin_clzll(diff) : 0;
    uint64_t prefix = nbits >= 64 ? 0 : gmin & ~((UINT64_C(1) << nbits) - 1);
    for (int t = 0; t < count; t++)
        v[t] = prefix;
    uint64_t *le = scratch, *gle = scratch + (size_t)count * ZM_SPLIT_STEPS;
    for (int b = nbits; b > 0; ++*rounds) {
        int k = b < ZM_SPLIT_BITS ? b : ZM_SPLIT_BITS;
        b -= k;
        st = refine_round(comm, kv, targets, count, v, k, b, le, gle);
        if (st != ZESORT_OK)
            return st;
    }
    return ZESORT_OK;
}

zesort_status zm_find_splits(MPI_Comm comm, zm_keys *kv, uint64_t total,
                             const uint64_t *targets, int count, uint64_t *split,
                             uint64_t *scratch, uint64_t *rounds)
{
    if (count == 0)
        return ZESORT_OK;
    uint64_t *v = scratch, *less = scratch + count, *eq = scratch + 2 * count;
    uint64_t *gless = scratch + 3 * count, *before = scratch + 4 * count;
    zesort_status st = refine(comm, kv, targets, count, v, scratch + 5 * count, rounds);
    if (st != ZESORT_OK)
        return st;
    zm_count_many(kv, v, (uint64_t)count, 0, less);
    zm_count_many(kv, v, (uint64_t)count, 1, eq);
    for (int t = 0; t < count; t++)
        eq[t] -= less[t];
    int rank = 0, rc = MPI_Comm_rank(comm, &rank);
    if (rc == MPI_SUCCESS)
        rc = MPI_Allreduce(less, gless, count, MPI_UINT64_T, MPI_SUM, comm);
    if (rc == MPI_SUCCESS) /* keys equal to v[t] on lower ranks come first */
        rc = MPI_Exscan(eq, before, count, MPI_UINT64_T, MPI_SUM, comm);
    if (rc != MPI_SUCCESS)
        return zm_mpi_fail(rc, "splitter counts (MPI_Allreduce, MPI_Exscan)");
    for (int t = 0; t < count; t++) {
        if (targets[t] >= total) { /* past the last key: everything comes before */
            split[t] = kv->n;
            continue;
        }
        uint64_t lower = rank == 0 ? 0 : before[t]; /* Exscan leaves rank 0's undefined */
        uint64_t need = targets[t] - gless[t];      /* equal keys before position g */
        uint64_t take = need > lower ? need - lower : 0;
        split[t] = less[t] + (take < eq[t] ? take : eq[t]);
    }
    return ZESORT_OK;
}
