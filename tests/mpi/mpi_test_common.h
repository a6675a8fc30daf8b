/*
 * mpi_test_common.h — what the MPI test programs (test_mpi_sort.c,
 * test_mpi_device.c) share: the pass/fail counters and CHECK, the inputs
 * and layouts of the cases, and the check that every rank got the error
 * wanted. One program per file includes it (static definitions).
 */
#ifndef ZESORT_MPI_TEST_COMMON_H
#define ZESORT_MPI_TEST_COMMON_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/sort_oracle.h"
#include "zesort_mpi.h"

static int rank, nranks, passed, failed;

#define CHECK(cond, ...)                                                                      \
    do {                                                                                      \
        if (cond) {                                                                           \
            ++passed;                                                                         \
        } else {                                                                              \
            ++failed;                                                                         \
            if (failed <= 10) {                                                               \
                fprintf(stderr, "rank %d: FAIL %s:%d: ", rank, __FILE__, __LINE__);           \
                fprintf(stderr, __VA_ARGS__);                                                 \
                fprintf(stderr, "\n");                                                        \
            }                                                                                 \
        }                                                                                     \
    } while (0)

static uint64_t mix(uint64_t x)
{
    x += UINT64_C(0x9E3779B97F4A7C15);
    x = (x ^ (x >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94D049BB133111EB);
    return x ^ (x >> 31);
}

enum { IN_RANDOM, IN_FEW, IN_EQUAL, IN_SORTED, IN_REVERSED, IN_TOP, IN_COUNT };
static const char *in_names[] = {"random", "few", "equal", "sorted", "reversed", "top-bits"};
enum { LAY_BALANCED, LAY_RANDOM, LAY_ONE_EMPTY, LAY_ALL_FIRST, LAY_ALL_LAST, LAY_COUNT };
static const char *lay_names[] = {"balanced", "random", "one-empty", "all-first", "all-last"};

static void make_input(void *keys, uint64_t n, zesort_key_type t, int input, uint64_t seed)
{
    unsigned kb = oracle_key_bytes(t);
    if (input == IN_RANDOM || input == IN_FEW || input == IN_TOP) {
        oracle_make_keys(keys, n, t, input == IN_RANDOM ? 0 : input == IN_FEW ? 1 : 2, seed);
        return;
    }
    for (uint64_t i = 0; i < n; i++) {
        uint64_t k = input == IN_EQUAL ? 0x4242 : input == IN_SORTED ? i * 3 : (n - i) * 3;
        memcpy((char *)keys + i * kb, &k, kb);
    }
}

/* How many of the n keys rank p holds. */
static uint64_t layout_count(int layout, uint64_t n, int p, uint64_t seed)
{
    uint64_t share = n / (uint64_t)nranks, rem = n % (uint64_t)nranks;
    switch (layout) {
    case LAY_ALL_FIRST:
        return p == 0 ? n : 0;
    case LAY_ALL_LAST:
        return p == nranks - 1 ? n : 0;
    case LAY_ONE_EMPTY: { /* rank 1 (or the only rank) has none; the rest share */
        int holders = nranks > 1 ? nranks - 1 : 1, q = nranks > 1 && p > 1 ? p - 1 : p;
        if (nranks > 1 && p == 1)
            return 0;
        return n / (uint64_t)holders + ((uint64_t)q < n % (uint64_t)holders);
    }
    case LAY_RANDOM: { /* random cut points, the last rank takes the rest */
        uint64_t left = n;
        for (int r = 0; r < nranks; r++) {
            uint64_t c = r == nranks - 1 ? left : mix(seed + (uint64_t)r) % (left + 1);
            if (r == p)
                return c;
            left -= c;
        }
        return 0;
    }
    default:
        return share + ((uint64_t)p < rem);
    }
}

typedef struct mpi_case {
    zesort_mpi_options opts;
    int input, layout;
    unsigned vb;     /* 0: keys only, 4 or 8 */
    int caller_out;  /* 1: caller-owned output arrays */
    uint64_t n, seed, chunk;
} mpi_case;

/* A case's data as this rank sees it: every rank's keys (`all`, made alike
 * on each rank, for the oracle) and their stable order `perm`, this rank's
 * slice [first, first + mine) of them with its values (oracle_value of the
 * global index, c->vb bytes each; room for 8), and where this rank's share
 * of the sorted output starts (out_first: the balanced contract, N / P and
 * one more on the first N % P ranks). rank_data_free releases it. */
typedef struct rank_data {
    char *all, *values;
    uint64_t *perm;
    uint64_t first, mine, out_first;
} rank_data;

static void rank_data_make(const mpi_case *c, rank_data *d)
{
    const zesort_options *o = &c->opts.sort;
    d->all = malloc(c->n * oracle_key_bytes(o->key_type) + 1);
    d->first = d->out_first = 0;
    d->mine = layout_count(c->layout, c->n, rank, c->seed);
    for (int p = 0; p < rank; p++) {
        d->first += layout_count(c->layout, c->n, p, c->seed);
        d->out_first += c->n / (uint64_t)nranks + ((uint64_t)p < c->n % (uint64_t)nranks);
    }
    make_input(d->all, c->n, o->key_type, c->input, c->seed);
    d->perm = oracle_permutation(d->all, c->n, o);
    d->values = malloc(d->mine * 8 + 1);
    for (uint64_t i = 0; i < d->mine && c->vb; i++) {
        uint64_t v = oracle_value(d->first + i, c->vb);
        memcpy(d->values + i * c->vb, &v, c->vb);
    }
}

static void rank_data_free(rank_data *d)
{
    free(d->all);
    free(d->values);
    free(d->perm);
}

static const zesort_key_type types[] = {ZESORT_KEY_U32, ZESORT_KEY_I32, ZESORT_KEY_F32,
                                        ZESORT_KEY_U64, ZESORT_KEY_I64, ZESORT_KEY_F64};

/* Every rank returns `want` (and rank `culprit`'s message names itself or
 * the others name it); then a good sort runs on the same communicator. */
static void expect_all(zesort_status got, zesort_status want, int culprit, const char *what)
{
    CHECK(got == want, "%s: %s, want %s (%s)", what, zesort_status_name(got),
          zesort_status_name(want), zesort_mpi_last_error());
    if (culprit >= 0 && culprit != rank) {
        char name[32];
        snprintf(name, sizeof name, "rank %d:", culprit);
        CHECK(strstr(zesort_mpi_last_error(), name) != NULL, "%s: message '%s' lacks '%s'", what,
              zesort_mpi_last_error(), name);
    }
}

#endif
