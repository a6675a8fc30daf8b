/*
 * test_small.c — the one launch of a small sort (ZESORT_ALGO_SMALL, AUTO's
 * choice up to the device's limit) through zesort_run on a device backend
 * (argv[1]: opencl or level-zero), at the edges of the limit (limit - 1,
 * limit, limit + 1) and below: every kind (sort with and without values,
 * copy, argsort, top-k, segmented), 8-, 16-, 32- and 64-bit keys of every
 * kind (unsigned, signed, float), both orders, a bit range, against the
 * stable oracle; the launches
 * the context counted (one up to the limit, more above it); a named small
 * sort above the limit refused with TOO_LARGE and the keys untouched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zesort.h"

static int failures;

#include "expect.h"
#include "sort_oracle.h"

static zesort_context *ctx;
static zesort_context_info info;

enum { K_SORT, K_PAIRS, K_COPY, K_ARGSORT, K_TOPK, K_SEGMENTED, K_COUNT };
static const char *const kind_names[] = {"sort", "pairs", "copy", "argsort", "topk",
                                         "segmented"};

typedef struct small_case {
    int kind;
    zesort_key_type type;
    uint64_t n;
    int descending, bits, dist;
    unsigned vb; /* values' (or indices') bytes */
} small_case;

/* The input, the outputs and the oracle of one case. */
typedef struct small_data {
    char *keys, *vals, *out_k, *out_v;
    uint64_t *perm, offsets[4];
    zesort_options o;
} small_data;

static zesort_desc small_desc(const small_case *c, small_data *s)
{
    static const int kinds[] = {ZESORT_SORT, ZESORT_SORT, ZESORT_SORT_COPY, ZESORT_ARGSORT,
                                ZESORT_TOPK, ZESORT_SEGMENTED};
    zesort_desc d;
    zesort_desc_init(&d, (zesort_kind)kinds[c->kind]);
    d.key_type = c->type, d.descending = c->descending, d.n = c->n;
    d.bit_lo = s->o.bit_lo, d.bit_hi = s->o.bit_hi;
    const unsigned kb = oracle_key_bytes(c->type);
    const zesort_values vt = c->vb == 8 ? ZESORT_VALUES_U64 : ZESORT_VALUES_U32;
    switch (c->kind) {
    case K_SORT:
    case K_SEGMENTED:
        memcpy(s->out_k, s->keys, c->n * kb);
        d.keys = s->out_k;
        break;
    case K_PAIRS:
        memcpy(s->out_k, s->keys, c->n * kb), memcpy(s->out_v, s->vals, c->n * c->vb);
        d.keys = s->out_k, d.values = s->out_v, d.value_type = vt;
        break;
    case K_ARGSORT:
        d.keys_in = s->keys, d.keys = s->out_k, d.indices = s->out_v;
        d.index_type = c->vb == 8 ? ZESORT_INT_U64 : ZESORT_INT_U32;
        break;
    default: /* copy, top-k: values along */
        d.keys_in = s->keys, d.values_in = s->vals, d.keys = s->out_k, d.values = s->out_v;
        d.value_type = vt, d.k = c->kind == K_TOPK ? c->n / 3 + 1 : 0;
    }
    if (c->kind == K_SEGMENTED) { /* three segments, one of them empty */
        s->offsets[0] = 0, s->offsets[1] = c->n / 3, s->offsets[2] = c->n / 3,
        s->offsets[3] = c->n;
        d.offsets = s->offsets, d.num_segments = 3;
    }
    return d;
}

/* The case's outputs against the oracle; NULL or why not. */
static const char *small_verify(const small_case *c, small_data *s)
{
    const unsigned kb = oracle_key_bytes(c->type);
    if (c->kind == K_SEGMENTED) {
        for (int g = 0; g < 3; g++) {
            const uint64_t b = s->offsets[g], len = s->offsets[g + 1] - b;
            uint64_t *perm = oracle_permutation(s->keys + b * kb, len, &s->o);
            const uint64_t bad =
                oracle_check(s->keys + b * kb, perm, s->out_k + b * kb, NULL, 0, len, kb, 4);
            free(perm);
            if (bad)
                return "a segment is not sorted";
        }
        return NULL;
    }
    const uint64_t m = c->kind == K_TOPK ? (c->n / 3 + 1 < c->n ? c->n / 3 + 1 : c->n) : c->n;
    const int values = c->kind != K_SORT;
    const uint64_t bad = oracle_check(s->keys, s->perm, s->out_k, values ? s->out_v : NULL,
                                      c->kind == K_ARGSORT, m, kb, c->vb);
    return bad ? "the keys or values differ from the stable oracle" : NULL;
}

/* The most keys of this case the one launch takes. */
static uint64_t small_limit(const small_case *c)
{
    const int wide = oracle_key_bytes(c->type) == 8 || c->kind != K_SORT;
    return wide ? info.small_max_wide : info.small_max;
}

static void small_run(const small_case *c)
{
    const unsigned kb = oracle_key_bytes(c->type), width = 8 * kb;
    const uint64_t n1 = c->n ? c->n : 1;
    small_data s = {malloc(n1 * kb), malloc(n1 * 8), malloc(n1 * kb), malloc(n1 * 8), NULL,
                    {0}, {0}};
    zesort_options_default(&s.o);
    s.o.key_type = c->type, s.o.descending = c->descending;
    if (c->bits) /* a range inside the key */
        s.o.bit_lo = width / 8, s.o.bit_hi = width - width / 4;
    oracle_make_keys(s.keys, c->n, c->type, c->dist, c->n * 7 + (uint64_t)c->kind);
    for (uint64_t i = 0; i < c->n; i++) {
        const uint64_t v = oracle_value(i, c->vb);
        memcpy(s.vals + i * c->vb, &v, c->vb);
    }
    s.perm = oracle_permutation(s.keys, c->n, &s.o);
    char what[160];
    snprintf(what, sizeof what, "%s %s n=%llu desc=%d bits=%u:%u vb=%u dist=%d",
             kind_names[c->kind], oracle_key_bytes(c->type) == 8 ? "64-bit" : "32-bit or less",
             (unsigned long long)c->n, c->descending, s.o.bit_lo, s.o.bit_hi, c->vb, c->dist);
    zesort_desc d = small_desc(c, &s);
    const zesort_status st = zesort_run(ctx, &d);
    EXPECT(st == ZESORT_OK, "%s: %s", what, zesort_last_error(ctx));
    zesort_context_info after = {.size = sizeof after};
    EXPECT(zesort_context_query(ctx, &after) == ZESORT_OK, "%s: query", what);
    if (st == ZESORT_OK) {
        const char *why = small_verify(c, &s);
        EXPECT(!why, "%s: %s", what, why ? why : "");
        const int small = c->n <= small_limit(c);
        EXPECT(after.last_algo == (small ? ZESORT_ALGO_SMALL : ZESORT_ALGO_ONESWEEP) ||
                   c->kind == K_SEGMENTED,
               "%s: ran %s", what, zesort_algo_name(after.last_algo));
        /* a segmented sort of one key has nothing to sort: no launch */
        if (c->n > (c->kind == K_SEGMENTED))
            EXPECT(small ? after.last_launches == 1 : after.last_launches > 1,
                   "%s: %llu launches", what, (unsigned long long)after.last_launches);
    }
    free(s.keys), free(s.vals), free(s.out_k), free(s.out_v), free(s.perm);
}

/* A named small sort above the limit: TOO_LARGE, the keys as they were. */
static void refused_above_limit(void)
{
    const uint64_t n = info.small_max + 1;
    uint32_t *keys = malloc(n * 4), *copy = malloc(n * 4);
    oracle_make_keys(keys, n, ZESORT_KEY_U32, 0, 5);
    memcpy(copy, keys, n * 4);
    zesort_desc d;
    zesort_desc_init(&d, ZESORT_SORT);
    d.keys = keys, d.n = n, d.algo = ZESORT_ALGO_SMALL;
    const zesort_status st = zesort_run(ctx, &d);
    EXPECT(st == ZESORT_ERROR_TOO_LARGE && strstr(zesort_last_error(ctx), "small"),
           "small above its limit: %s: %s", zesort_status_name(st), zesort_last_error(ctx));
    EXPECT(memcmp(keys, copy, n * 4) == 0, "small above its limit: the keys were written");
    free(keys), free(copy);
}

int main(int argc, char **argv)
{
    zesort_backend backend;
    if (argc < 2 || zesort_parse_backend(argv[1], &backend) != 0)
        return fprintf(stderr, "usage: test_small opencl|level-zero\n"), 2;
    if (zesort_create(backend, &ctx) != ZESORT_OK) {
        printf("SKIP: no %s device: %s\n", argv[1], zesort_last_error(NULL));
        return 77;
    }
    info.size = sizeof info;
    EXPECT(zesort_context_query(ctx, &info) == ZESORT_OK, "query");
    EXPECT(info.small_max >= 2048 && info.small_max_wide >= 2048,
           "small limits %llu, %llu: at least 2048", (unsigned long long)info.small_max,
           (unsigned long long)info.small_max_wide);
    /* "quick" (the portable flavor, whose emulated sub-groups PoCL runs
     * slowly): 32-bit keys at the limit's edge only */
    const int quick = argc > 2 && strcmp(argv[2], "quick") == 0;
    static const zesort_key_type types[] = {ZESORT_KEY_F32, ZESORT_KEY_I16, ZESORT_KEY_U64,
                                            ZESORT_KEY_U8, ZESORT_KEY_F64};
    const unsigned ntypes = quick ? 1u : sizeof types / sizeof types[0];
    unsigned index = 0;
    for (int kind = 0; kind < K_COUNT; kind++)
        for (unsigned t = 0; t < ntypes; t++) {
            const uint64_t limit = small_limit(&(small_case){kind, types[t], 0, 0, 0, 0, 4});
            const uint64_t sizes[] = {0, 1, 33, limit - 1, limit, limit + 1};
            for (unsigned i = quick ? 3u : 0u; i < sizeof sizes / sizeof sizes[0]; i++, index++) {
                const small_case c = {kind, types[t], sizes[i], (int)(index % 2),
                                      index % 3 == 1, (int)(index % 3), index % 2 ? 8u : 4u};
                small_run(&c);
            }
        }
    refused_above_limit();
    zesort_destroy(ctx);
    printf("%u cases, %d failed\n", index, failures);
    return failures != 0;
}
