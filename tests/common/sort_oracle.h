/*
 * sort_oracle.h — what a stable sort must produce, for the tests of 8-byte
 * values, argsort and out-of-place sorts (issue 21): the stable permutation
 * by a qsort of (ordered key bits, input position), keys with many ties, and
 * values that carry their input position in all their bits. Header-only
 * (static functions): each test program includes it once.
 */
#ifndef ZESORT_TESTS_SORT_ORACLE_H
#define ZESORT_TESTS_SORT_ORACLE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "zesort.h"

static unsigned oracle_key_bytes(zesort_key_type t)
{
    static const unsigned char bytes[] = {4, 4, 4, 8, 8, 8, 1, 1, 2, 2, 2, 2};
    return bytes[t];
}

/* 0 unsigned, 1 signed (two's complement), 2 float (totalOrder). */
static int oracle_kind(zesort_key_type t)
{
    static const unsigned char kind[] = {0, 1, 2, 0, 1, 2, 0, 1, 0, 1, 2, 2};
    return kind[t];
}

/* The ordered key (README, "Orders") of the key at p, as an unsigned value. */
static uint64_t oracle_ordered(const void *p, zesort_key_type t, int descending)
{
    const unsigned bits = 8 * oracle_key_bytes(t);
    uint64_t k = 0;
    memcpy(&k, p, oracle_key_bytes(t));
    const uint64_t sign = UINT64_C(1) << (bits - 1);
    const uint64_t all = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    const int kind = oracle_kind(t);
    if (kind == 1)
        k ^= sign;
    else if (kind == 2)
        k = (k & sign) ? ~k & all : k | sign;
    return descending ? ~k & all : k;
}

typedef struct oracle_entry {
    uint64_t bits, pos;
} oracle_entry;

static int oracle_cmp(const void *a, const void *b)
{
    const oracle_entry *x = a, *y = b;
    if (x->bits != y->bits)
        return x->bits < y->bits ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos; /* stable: input order */
}

/* The stable permutation of the n keys under o (malloc'd, n entries; NULL
 * only when out of memory). */
static uint64_t *oracle_permutation(const void *keys, uint64_t n, const zesort_options *o)
{
    const unsigned kb = oracle_key_bytes(o->key_type), hi = o->bit_hi ? o->bit_hi : 8 * kb;
    oracle_entry *e = malloc((n ? n : 1) * sizeof *e);
    uint64_t *perm = malloc((n ? n : 1) * sizeof *perm);
    if (!e || !perm) {
        free(e);
        free(perm);
        return NULL;
    }
    for (uint64_t i = 0; i < n; i++) {
        uint64_t k = oracle_ordered((const char *)keys + i * kb, o->key_type, o->descending) >>
                     o->bit_lo;
        if (hi - o->bit_lo < 64)
            k &= (UINT64_C(1) << (hi - o->bit_lo)) - 1;
        e[i] = (oracle_entry){k, i};
    }
    qsort(e, n, sizeof *e, oracle_cmp);
    for (uint64_t i = 0; i < n; i++)
        perm[i] = e[i].pos;
    free(e);
    return perm;
}

/* n keys of type t: dist 0 random bits, 1 five values (many ties; 64-bit
 * keys: of both signs), 2 the top two bits only. */
static void oracle_make_keys(void *keys, uint64_t n, zesort_key_type t, int dist, uint64_t seed)
{
    const unsigned kb = oracle_key_bytes(t);
    uint64_t x = seed * UINT64_C(0x9E3779B97F4A7C15) + 1;
    for (uint64_t i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint64_t k = dist == 0 ? x : dist == 1 ? x % 5 : (x % 3) << (8 * kb - 2);
        if (dist == 1 && kb == 8)
            k |= (x % 2) << 63;
        memcpy((char *)keys + i * kb, &k, kb);
    }
}

/* The value of input position i, vb (4 or 8) bytes: every byte depends on
 * i, so a value moved wrong or a lost high half shows. */
static uint64_t oracle_value(uint64_t i, unsigned vb)
{
    return vb == 8 ? (i * UINT64_C(0x100000001)) ^ UINT64_C(0xA5A5000000000000)
                   : (uint32_t)(i ^ 0x5A5A0000u);
}

/* 0 when keys_out (NULL: not checked) holds keys in perm's order and
 * values_out (NULL: not checked) the values (or, indices set, the input
 * positions) in that order; else the first wrong position + 1. */
static uint64_t oracle_check(const void *keys, const uint64_t *perm, const void *keys_out,
                             const void *values_out, int indices, uint64_t n, unsigned kb,
                             unsigned vb)
{
    for (uint64_t i = 0; i < n; i++) {
        if (keys_out &&
            memcmp((const char *)keys_out + i * kb, (const char *)keys + perm[i] * kb, kb) != 0)
            return i + 1;
        if (values_out) {
            uint64_t got = 0, want = indices ? perm[i] : oracle_value(perm[i], vb);
            memcpy(&got, (const char *)values_out + i * vb, vb);
            if (got != want)
                return i + 1;
        }
    }
    return 0;
}

#endif
