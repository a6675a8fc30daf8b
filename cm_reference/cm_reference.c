/*
 * cm_reference.c — the CM radix sort design (DESIGN.md §1.1) in plain C.
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

/* Index of the key that `lane` handles in `batch` of `chunk`: one sub-group
 * walks its chunk in 8 consecutive batches of 32 consecutive keys. */
static uint64_t key_index(uint64_t chunk, unsigned batch, unsigned lane)
{
    return chunk * CMREF_CHUNK + (uint64_t)batch * CMREF_LANES + lane;
}

/* Step 1, count kernel. Each of the 32 lanes keeps its own per-bin counters
 * (the CM matrix<ushort,BINS,32>) while the sub-group walks the chunk's 8
 * batches; lanes whose key index is >= n are inactive and count nothing.
 * At the end the lanes' counters are summed (the sub-group reduction) into
 * one histogram per chunk, stored bin-major. */
void cmref_count(const uint32_t *keys, uint64_t n, unsigned bits, unsigned shift, uint32_t *table)
{
    const unsigned bins = 1u << bits;
    const uint64_t chunks = cmref_chunks(n);

    for (uint64_t chunk = 0; chunk < chunks; chunk++) {
        uint16_t lane_count[CMREF_LANES][CMREF_MAX_BINS];
        memset(lane_count, 0, sizeof lane_count);

        for (unsigned batch = 0; batch < CMREF_BATCHES; batch++) {
            for (unsigned lane = 0; lane < CMREF_LANES; lane++) {
                uint64_t i = key_index(chunk, batch, lane);
                if (i < n)
                    lane_count[lane][digit_of(keys[i], bits, shift)]++;
            }
        }

        /* reduction over lanes: one total per bin */
        for (unsigned b = 0; b < bins; b++) {
            uint32_t total = 0;
            for (unsigned lane = 0; lane < CMREF_LANES; lane++)
                total += lane_count[lane][b];
            table[(uint64_t)b * chunks + chunk] = total;
        }
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

/* Step 3, bucket kernel. Per chunk the sub-group starts with next[b] = the
 * chunk's prefix entry for every bin; per batch each active lane ranks itself
 * among its peers (equal digit) below it, rank = popcount(peers & below),
 * writes its key to next[digit] + rank, and then every bin advances by the
 * number of lanes that had that digit. This keeps the sort stable. */
void cmref_bucket(const uint32_t *in, uint32_t *out, uint64_t n, unsigned bits, unsigned shift,
                  const uint32_t *prefix)
{
    const unsigned bins = 1u << bits;
    const uint64_t chunks = cmref_chunks(n);

    for (uint64_t chunk = 0; chunk < chunks; chunk++) {
        uint32_t next[CMREF_MAX_BINS];
        for (unsigned b = 0; b < bins; b++)
            next[b] = prefix[(uint64_t)b * chunks + chunk];

        for (unsigned batch = 0; batch < CMREF_BATCHES; batch++) {
            batch_state s;
            memset(&s, 0, sizeof s);
            unsigned digit[CMREF_LANES] = {0};

            /* every lane loads its key; the ballots collect the digit bits */
            for (unsigned lane = 0; lane < CMREF_LANES; lane++) {
                uint64_t i = key_index(chunk, batch, lane);
                if (i >= n)
                    continue;
                s.active |= 1u << lane;
                digit[lane] = digit_of(in[i], bits, shift);
                for (unsigned k = 0; k < bits; k++)
                    if ((digit[lane] >> k) & 1u)
                        s.ballot[k] |= 1u << lane;
            }

            /* every active lane scatters its key */
            for (unsigned lane = 0; lane < CMREF_LANES; lane++) {
                if (!((s.active >> lane) & 1u))
                    continue;
                uint32_t peers = lanes_with_digit(&s, bits, digit[lane]);
                uint32_t below = (1u << lane) - 1u;
                uint32_t slot = next[digit[lane]] + popcount32(peers & below);
                out[slot] = in[key_index(chunk, batch, lane)];
            }

            /* every bin moves past this batch's keys of that bin */
            for (unsigned b = 0; b < bins; b++)
                next[b] += popcount32(lanes_with_digit(&s, bits, b));
        }
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
