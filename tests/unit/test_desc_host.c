/*
 * test_desc_host.c — zesort_run (the host API's one call) on the C
 * fallback: every kind against the stable oracle with u32 and u64 offsets
 * and values; what the descriptor may not carry on the host refused with
 * UNSUPPORTED naming the field, bad descriptors with INVALID_ARGUMENT, and
 * the caller's arrays unchanged after a refusal; zesort_context_query.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zesort.h"

static int failures;

#include "expect.h"
#include "sort_oracle.h"

#define N 1000

static zesort_context *ctx;

/* One sort of each kind of N u32 keys with u32 values against the oracle. */
static void kinds(void)
{
    uint32_t keys[N], vals[N], ko[N], vo[N], work[N], wv[N], idx[N];
    oracle_make_keys(keys, N, ZESORT_KEY_U32, 1, 7);
    for (uint32_t i = 0; i < N; i++)
        vals[i] = (uint32_t)oracle_value(i, 4);
    zesort_options o;
    zesort_options_default(&o);
    uint64_t *perm = oracle_permutation(keys, N, &o);
    for (int kind = ZESORT_SORT; kind <= ZESORT_TOPK; kind++) {
        zesort_desc d;
        zesort_desc_init(&d, (zesort_kind)kind);
        d.n = N;
        memcpy(work, keys, sizeof work), memcpy(wv, vals, sizeof wv);
        if (kind == ZESORT_SORT)
            d.keys = work, d.values = wv, d.value_type = ZESORT_VALUES_U32;
        else if (kind == ZESORT_ARGSORT)
            d.keys_in = keys, d.keys = ko, d.indices = idx;
        else
            d.keys_in = keys, d.values_in = vals, d.keys = ko, d.values = vo,
            d.value_type = ZESORT_VALUES_U32, d.k = kind == ZESORT_TOPK ? N / 3 : 0;
        zesort_status st = zesort_run(ctx, &d);
        EXPECT(st == ZESORT_OK, "kind %d: %s", kind, zesort_last_error(ctx));
        const uint64_t m = kind == ZESORT_TOPK ? N / 3 : N;
        const uint64_t bad = kind == ZESORT_SORT ? oracle_check(keys, perm, work, wv, 0, m, 4, 4)
                             : kind == ZESORT_ARGSORT ? oracle_check(keys, perm, ko, idx, 1, m, 4, 4)
                                                      : oracle_check(keys, perm, ko, vo, 0, m, 4, 4);
        EXPECT(bad == 0, "kind %d: position %llu", kind, (unsigned long long)bad - 1);
    }
    free(perm);
}

/* Segments of u32 and u64 offsets: each sorted on its own. */
static void segments(void)
{
    for (int u32 = 0; u32 < 2; u32++) {
        uint32_t keys[N], work[N];
        oracle_make_keys(keys, N, ZESORT_KEY_U32, 0, 11 + u32);
        memcpy(work, keys, sizeof work);
        const uint64_t off64[] = {0, 10, 10, 500, N};
        const uint32_t off32[] = {0, 10, 10, 500, N};
        zesort_desc d;
        zesort_desc_init(&d, ZESORT_SEGMENTED);
        d.keys = work, d.n = N, d.num_segments = 4;
        d.offset_type = u32 ? ZESORT_OFFSET_U32 : ZESORT_OFFSET_U64;
        d.offsets = u32 ? (const void *)off32 : (const void *)off64;
        EXPECT(zesort_run(ctx, &d) == ZESORT_OK, "segments u32=%d: %s", u32,
               zesort_last_error(ctx));
        zesort_options o;
        zesort_options_default(&o);
        for (int s = 0; s < 4; s++) {
            const uint64_t b = off64[s], len = off64[s + 1] - b;
            uint64_t *perm = oracle_permutation(keys + b, len, &o);
            EXPECT(oracle_check(keys + b, perm, work + b, NULL, 0, len, 4, 4) == 0,
                   "segment %d of u32=%d", s, u32);
            free(perm);
        }
    }
}

/* Device-side fields and bad descriptors: refused, naming the field, the
 * keys untouched. */
static void refusals(void)
{
    uint32_t keys[4] = {3, 1, 2, 0}, count = 4;
    const struct {
        const char *field;
        zesort_status want;
    } cases[] = {{"n_device", ZESORT_ERROR_UNSUPPORTED},   {"status", ZESORT_ERROR_UNSUPPORTED},
                 {"keys_alt", ZESORT_ERROR_UNSUPPORTED},   {"size", ZESORT_ERROR_INVALID_ARGUMENT},
                 {"kind", ZESORT_ERROR_INVALID_ARGUMENT},  {"reserved", ZESORT_ERROR_INVALID_ARGUMENT},
                 {"values", ZESORT_ERROR_INVALID_ARGUMENT}, {"keys_in", ZESORT_ERROR_INVALID_ARGUMENT}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint32_t other[4] = {0}, status[2];
        zesort_desc d;
        zesort_desc_init(&d, ZESORT_SORT);
        d.keys = keys, d.n = 4;
        const char *f = cases[i].field;
        if (!strcmp(f, "n_device"))
            d.n_device = &count, d.max_n = 4;
        else if (!strcmp(f, "status"))
            d.kind = ZESORT_SEGMENTED, d.status = status, d.offsets = (uint64_t[]){0, 4},
            d.num_segments = 1;
        else if (!strcmp(f, "keys_alt"))
            d.keys_alt = other;
        else if (!strcmp(f, "size"))
            d.size = 8;
        else if (!strcmp(f, "kind"))
            d.kind = (zesort_kind)77;
        else if (!strcmp(f, "reserved"))
            d.reserved[1] = 1;
        else if (!strcmp(f, "values"))
            d.values = other; /* with value_type NONE */
        else
            d.keys_in = other;
        const zesort_status st = zesort_run(ctx, &d);
        EXPECT(st == cases[i].want && strstr(zesort_last_error(ctx), f),
               "%s: %s: %s", f, zesort_status_name(st), zesort_last_error(ctx));
        EXPECT(keys[0] == 3 && keys[3] == 0, "%s: the keys were written", f);
    }
    EXPECT(zesort_run(ctx, NULL) == ZESORT_ERROR_INVALID_ARGUMENT, "NULL descriptor");
    zesort_desc d;
    zesort_desc_init(&d, ZESORT_SORT);
    EXPECT(zesort_run(NULL, &d) == ZESORT_ERROR_INVALID_ARGUMENT, "NULL context");
}

static void query(void)
{
    zesort_context_info info = {.size = sizeof info};
    EXPECT(zesort_context_query(ctx, &info) == ZESORT_OK, "query");
    EXPECT(info.backend == ZESORT_BACKEND_CPU && info.devices == 1 && info.device &&
               info.flavor && info.last_algo != ZESORT_ALGO_AUTO,
           "query: backend %d, devices %u, last algo %d", (int)info.backend, info.devices,
           (int)info.last_algo);
    info.size = 4;
    EXPECT(zesort_context_query(ctx, &info) == ZESORT_ERROR_INVALID_ARGUMENT, "query: size 4");
    EXPECT(zesort_context_query(NULL, &info) == ZESORT_ERROR_INVALID_ARGUMENT, "query: NULL");
}

int main(void)
{
    if (zesort_create(ZESORT_BACKEND_CPU, &ctx) != ZESORT_OK) {
        fprintf(stderr, "zesort_create: %s\n", zesort_last_error(NULL));
        return 1;
    }
    kinds();
    segments();
    refusals();
    query();
    zesort_destroy(ctx);
    printf("%d failed\n", failures);
    return failures != 0;
}
