/*
 * test_multi.c — issue 23 item 2: one sort over several devices of one
 * backend (zesort_create_on_devices), against the oracle of
 * tests/common/sort_oracle.h.
 *
 *   test_multi BACKEND PART
 *     BACKEND opencl (PoCL with POCL_DEVICES="pthread pthread") |
 *             level-zero (the test driver: one device per OpenCL device,
 *             or ZE_CL_DRIVER_DEVICES)
 *     PART    skew (every key type, the narrow ones too, order, bit
 *             range; keys random, all equal, five values, sorted,
 *             reversed, only the top bits; in
 *             place with u32 and u64 values, out of place, argsort) |
 *             budget (the same under a device budget: more parts than
 *             devices) | threads (a few sorts big enough for every thread of
 *             the split: ThreadSanitizer's part) | api (the context's calls
 *             and errors) | subs (level-zero with ZE_CL_DRIVER_SUB_DEVICES=2:
 *             the sub-devices of one card) | segments
 *             (zesort_sort_segments: every offset pattern of
 *             segment_offsets.h, u32 / u64 / f32 / i64 keys, values none,
 *             u32, u64, descending, bit ranges, against segment_oracle.h;
 *             runs of segments on every device, the tiny ones on the
 *             first) | faults (level-zero: every driver call on the second
 *             device fails in turn, for a sort and for segmented sorts: a
 *             clean error naming that device, the caller's arrays
 *             unchanged -- a segmented sort's segments each sorted or as
 *             they were -- the next sort right)
 *
 * Every sort must have run on every device of the context
 * (zesort_last_sort_report) unless its keys are all equal in the bit range.
 */
#include <check.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zesort.h>

#include "segment_offsets.h"
#include "segment_oracle.h"
#include "common/test_hooks.h"

static zesort_backend g_backend;
static zesort_context *g_ctx;
static uint32_t g_devices;

enum { D_RANDOM, D_EQUAL, D_FEW, D_SORTED, D_REVERSED, D_TOP, D_COUNT };
static const char *const dist_name[] = {"random", "equal", "few", "sorted", "reversed", "top"};

/* n keys of type t in distribution dist (the oracle's three, and all equal,
 * sorted, reversed made from its random keys). */
static void make_keys(void *keys, uint64_t n, zesort_key_type t, int dist, uint64_t seed)
{
    const unsigned kb = oracle_key_bytes(t);
    oracle_make_keys(keys, n, t, dist == D_FEW ? 1 : dist == D_TOP ? 2 : 0, seed);
    if (dist == D_EQUAL)
        for (uint64_t i = 1; i < n; i++)
            memcpy((char *)keys + i * kb, keys, kb);
    if (dist != D_SORTED && dist != D_REVERSED)
        return;
    zesort_options o;
    zesort_options_default(&o);
    o.key_type = t;
    uint64_t *perm = oracle_permutation(keys, n, &o);
    char *sorted = malloc(n * kb);
    ck_assert(perm && sorted);
    for (uint64_t i = 0; i < n; i++)
        memcpy(sorted + (dist == D_SORTED ? i : n - 1 - i) * kb, (char *)keys + perm[i] * kb, kb);
    memcpy(keys, sorted, n * kb);
    free(perm), free(sorted);
}

/* The last sort ran on every device (may_idle: unless its keys fall into
 * few values, equal in the bit range: then little or nothing is left to
 * sort), and spread keys evenly: each device at least half its share. */
static void check_report(const char *what, uint64_t n, int may_idle)
{
    zesort_sort_report r;
    ck_assert_int_eq(zesort_last_sort_report(g_ctx, &r), ZESORT_OK);
    ck_assert_msg(r.devices == g_devices, "%s: %u devices, not %u", what, r.devices, g_devices);
    uint64_t keys = 0;
    for (uint32_t d = 0; d < r.devices; d++) {
        keys += r.device_keys[d];
        if (!may_idle)
            ck_assert_msg(r.device_keys[d] >= n / g_devices / 2,
                          "%s: device %u sorted %llu keys of %llu (%llu parts, %llu on it)",
                          what, d, (unsigned long long)r.device_keys[d], (unsigned long long)n,
                          (unsigned long long)r.parts, (unsigned long long)r.device_parts[d]);
    }
    ck_assert_msg(keys <= n, "%s: %llu keys sorted of %llu", what, (unsigned long long)keys,
                  (unsigned long long)n);
    ck_assert_msg(r.partition_ms >= 0 && r.sort_ms >= 0 && r.total_ms >= r.sort_ms, "%s: times",
                  what);
}

static void check_out(const char *what, const void *keys, const uint64_t *perm,
                      const void *keys_out, const void *values_out, int indices, uint64_t n,
                      unsigned kb, unsigned vb)
{
    const uint64_t bad = oracle_check(keys, perm, keys_out, values_out, indices, n, kb, vb);
    ck_assert_msg(bad == 0, "%s vb=%u: position %llu is wrong", what, vb,
                  (unsigned long long)bad - 1);
}

/* One key set and option set: in place with u32 and u64 values, out of
 * place, argsort with keys_out. */
static void run_case(uint64_t n, zesort_key_type t, int desc, unsigned lo, unsigned hi, int dist)
{
    const unsigned kb = oracle_key_bytes(t);
    char what[160];
    snprintf(what, sizeof what, "%s n=%llu type=%d desc=%d bits=%u:%u %s",
             zesort_backend_name(g_backend), (unsigned long long)n, (int)t, desc, lo, hi,
             dist_name[dist]);
    zesort_options o;
    zesort_options_default(&o);
    o.key_type = t, o.descending = desc, o.bit_lo = lo, o.bit_hi = hi;
    void *keys = malloc(n * kb), *work = malloc(n * kb), *keys_copy = malloc(n * kb);
    uint64_t *vals_in = malloc(n * 8), *vals = malloc(n * 8);
    ck_assert(keys && work && keys_copy && vals_in && vals);
    make_keys(keys, n, t, dist, n + (uint64_t)t * 7 + lo);
    memcpy(keys_copy, keys, n * kb);
    uint64_t *perm = oracle_permutation(keys, n, &o);
    ck_assert(perm);
    for (unsigned vb = 4; vb <= 8; vb += 4) {
        o.value_type = vb == 8 ? ZESORT_VALUE_U64 : ZESORT_VALUE_U32;
        for (uint64_t i = 0; i < n; i++) {
            const uint64_t v = oracle_value(i, vb);
            memcpy((char *)vals_in + i * vb, &v, vb);
        }
        memcpy(work, keys, n * kb);
        memcpy(vals, vals_in, n * vb);
        zesort_status st = zesort_sort(g_ctx, work, vals, n, &o);
        ck_assert_msg(st == ZESORT_OK, "%s vb=%u: %s", what, vb, zesort_last_error(g_ctx));
        check_out(what, keys, perm, work, vals, 0, n, kb, vb);
        /* few values in the bit range (a narrow key's 4 bits: 16) split into
         * parts of whole values, which need not come out even */
        check_report(what, n,
                     dist == D_EQUAL || dist == D_FEW || dist == D_TOP || (hi && hi - lo < 8));
    }
    o.value_type = ZESORT_VALUE_U32;
    for (uint64_t i = 0; i < n; i++)
        ((uint32_t *)vals_in)[i] = (uint32_t)oracle_value(i, 4);
    memset(work, 0xCD, n * kb);
    memset(vals, 0xCD, n * 4);
    ck_assert_int_eq(zesort_sort_copy(g_ctx, keys, vals_in, work, vals, n, &o), ZESORT_OK);
    check_out(what, keys, perm, work, vals, 0, n, kb, 4);
    ck_assert_msg(memcmp(keys, keys_copy, n * kb) == 0, "%s: copy changed its input", what);
    o.value_type = ZESORT_VALUE_U64;
    memset(work, 0xCD, n * kb);
    ck_assert_int_eq(zesort_argsort(g_ctx, keys, vals, work, n, &o), ZESORT_OK);
    check_out(what, keys, perm, work, vals, 1, n, kb, 8);
    ck_assert_msg(memcmp(keys, keys_copy, n * kb) == 0, "%s: argsort changed its keys", what);
    free(perm), free(keys), free(work), free(keys_copy), free(vals_in), free(vals);
}

/* Every key type, order, three bit ranges, every distribution (the narrow
 * types, issue 37: a quarter of the combinations, random keys always). */
static void skew_matrix(uint64_t n)
{
    for (int t = ZESORT_KEY_U32; t <= ZESORT_KEY_BF16; t++) {
        const unsigned w = 8 * oracle_key_bytes((zesort_key_type)t);
        const unsigned ranges[][2] = {{0, 0}, {3, w > 17 ? 17 : w - 1}, {w > 12 ? w - 12 : 1, w}};
        const int every = t > ZESORT_KEY_F64 ? 4 : 2;
        for (int desc = 0; desc < 2; desc++)
            for (int r = 0; r < 3; r++)
                for (int dist = 0; dist < D_COUNT; dist++)
                    if ((t + desc + r + dist) % every == 0 || dist == D_RANDOM || t == 0)
                        run_case(n, (zesort_key_type)t, desc, ranges[r][0], ranges[r][1], dist);
    }
}

START_TEST(skew)
{
    skew_matrix(40009);
    run_case(1000003, ZESORT_KEY_U32, 0, 0, 0, D_RANDOM);
    run_case(300007, ZESORT_KEY_F64, 1, 0, 0, D_FEW);
}
END_TEST

/* The report of a segmented sort of `keys` keys in its segments: below
 * ZESORT_MULTI_MIN_KEYS keys a device on the first device alone; above,
 * on every device of the context, more than one of them sorting keys
 * (unless may_idle: one segment split over the devices, its keys few
 * values or only top bits, may leave nothing to sort), and with balanced
 * (segments far shorter than a device's share) each at least half its
 * share. */
static void check_segments_report(const char *what, uint64_t keys, int balanced, int may_idle)
{
    zesort_sort_report r;
    ck_assert_int_eq(zesort_last_sort_report(g_ctx, &r), ZESORT_OK);
    if (keys < g_devices * ZESORT_MULTI_MIN_KEYS) {
        ck_assert_msg(r.devices == 1 && r.parts == 1 && r.device_keys[0] == keys,
                      "%s: %u devices, %llu parts, %llu keys on the first (of %llu)", what,
                      r.devices, (unsigned long long)r.parts,
                      (unsigned long long)r.device_keys[0], (unsigned long long)keys);
        return;
    }
    ck_assert_msg(r.devices == g_devices, "%s: %u devices, not %u", what, r.devices, g_devices);
    uint64_t sum = 0, parts = 0;
    unsigned busy = 0;
    for (uint32_t d = 0; d < r.devices; d++) {
        sum += r.device_keys[d], parts += r.device_parts[d];
        busy += r.device_keys[d] > 0;
        ck_assert_msg(!balanced || r.device_keys[d] >= keys / g_devices / 2,
                      "%s: device %u sorted %llu keys of %llu", what, d,
                      (unsigned long long)r.device_keys[d], (unsigned long long)keys);
    }
    ck_assert_msg(busy > 1 || may_idle, "%s: only %u device sorted keys (%llu parts)", what, busy,
                  (unsigned long long)r.parts);
    ck_assert_msg(sum <= keys && parts == r.parts && r.total_ms >= r.sort_ms,
                  "%s: %llu keys in %llu parts (report: %llu) of %llu", what,
                  (unsigned long long)sum, (unsigned long long)parts,
                  (unsigned long long)r.parts, (unsigned long long)keys);
}

/* One segmented sort: pattern pat of segment_offsets.h over n keys, values
 * of vb bytes (0: none), against segment_oracle.h. */
static void segments_case(uint64_t n, zesort_key_type t, int desc, unsigned lo, unsigned hi,
                          unsigned vb, int pat, int dist)
{
    const unsigned kb = oracle_key_bytes(t);
    char what[160], why[200];
    snprintf(what, sizeof what,
             "%s segments n=%llu type=%d desc=%d bits=%u:%u vb=%u pattern=%d keys=%s",
             zesort_backend_name(g_backend), (unsigned long long)n, (int)t, desc, lo, hi, vb, pat,
             dist == 0 ? "random" : dist == 1 ? "few" : "top");
    zesort_options o;
    zesort_options_default(&o);
    o.key_type = t, o.descending = desc, o.bit_lo = lo, o.bit_hi = hi;
    o.value_type = vb == 8 ? ZESORT_VALUE_U64 : ZESORT_VALUE_U32;
    char *keys = malloc(n * kb), *work = malloc(n * kb), *vals = malloc(n * 8);
    uint64_t *off = malloc((n + 8) * sizeof *off);
    ck_assert(keys && work && vals && off);
    oracle_make_keys(keys, n, t, dist, n + (uint64_t)pat);
    memcpy(work, keys, n * kb);
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t v = oracle_value(i, vb ? vb : 4);
        memcpy(vals + i * vb, &v, vb);
    }
    const uint64_t s = make_offsets(pat, n, off, n + (uint64_t)t);
    zesort_status st = zesort_sort_segments(g_ctx, work, vb ? vals : NULL, n, off, s, &o);
    ck_assert_msg(st == ZESORT_OK, "%s: %s", what, zesort_last_error(g_ctx));
    const char *wrong =
        segments_verify(keys, work, vb ? vals : NULL, off, s, n, kb, vb, &o, 0, why, sizeof why);
    ck_assert_msg(!wrong, "%s: %s", what, wrong);
    check_segments_report(what, off[s] - off[0], pat == PAT_RANDOM || pat == PAT_EDGES,
                          pat == PAT_ONE && dist != 0);
    free(keys), free(work), free(vals), free(off);
}

/* zesort_last_algo after a segmented sort on the devices: what its last
 * segment sorted on its own ran (zesort.h), as a lone zesort_sort of that
 * segment reports, not what the request resolved to for all the keys (on
 * PoCL's serial flavor cm4 from 4M keys, onesweep below). 4.3M keys in
 * 1000-key segments and one of 100K keys: longer than seg_sort takes,
 * shorter than a device's share, so a device sorts it on its own inside its
 * run. */
static void segments_last_algo(void)
{
    enum { N = 4300000, BIG = 100000, AT = 2000000, SEG = 1000 };
    uint32_t *keys = malloc(N * sizeof *keys);
    uint64_t *off = malloc((N / SEG + 2) * sizeof *off);
    ck_assert(keys && off);
    oracle_make_keys((char *)keys, N, ZESORT_KEY_U32, 0, 7);
    ck_assert_int_eq(zesort_sort(g_ctx, keys, NULL, BIG, NULL), ZESORT_OK);
    const zesort_algo lone = zesort_last_algo(g_ctx);
    uint64_t s = 0;
    for (uint64_t o = 0; o < N; o += o == AT ? BIG : SEG)
        off[s++] = o;
    off[s] = N;
    ck_assert_int_eq(zesort_sort_segments(g_ctx, keys, NULL, N, off, s, NULL), ZESORT_OK);
    zesort_sort_report r;
    ck_assert_int_eq(zesort_last_sort_report(g_ctx, &r), ZESORT_OK);
    ck_assert_msg(r.devices > 1, "the segments ran on %u device(s)", r.devices);
    ck_assert_msg(zesort_last_algo(g_ctx) == lone,
                  "last_algo %s after the segments; a lone sort of the 100K-key one ran %s",
                  zesort_algo_name(zesort_last_algo(g_ctx)), zesort_algo_name(lone));
    for (uint64_t i = 0; i < s; i++)
        for (uint64_t k = off[i] + 1; k < off[i + 1]; k++)
            ck_assert_msg(keys[k - 1] <= keys[k], "segment %llu unsorted", (unsigned long long)i);
    free(keys), free(off);
}

/* Every offset pattern (random, all empty, one segment, one key each, a
 * giant among tiny ones, chunk and tile edges, inside the array) at a size
 * every device sorts and at one the first sorts alone; key types, key
 * distributions, values, orders and bit ranges in turn. */
START_TEST(segments)
{
    static const zesort_key_type types[] = {ZESORT_KEY_U32, ZESORT_KEY_U64, ZESORT_KEY_F32,
                                            ZESORT_KEY_I64};
    int k = 0;
    for (int pat = 0; pat < PAT_COUNT; pat++)
        for (unsigned ti = 0; ti < 4; ti++, k++) {
            const zesort_key_type t = types[ti];
            const unsigned bits = oracle_key_bytes(t) * 8, narrow = k % 4 == 1;
            segments_case(40009, t, k % 3 == 2, narrow ? 3 : 0, narrow ? bits - 5 : bits,
                          (unsigned)(k % 3) * 4, pat, (pat + (int)ti) % 3);
        }
    segments_case(40009, ZESORT_KEY_U8, 0, 0, 8, 4, PAT_RANDOM, 0); /* narrow keys: issue 37 */
    segments_case(40009, ZESORT_KEY_BF16, 1, 1, 14, 8, PAT_GIANT, 1);
    segments_case(1000, ZESORT_KEY_U32, 0, 0, 0, 4, PAT_RANDOM, 0);
    segments_case(300007, ZESORT_KEY_U32, 1, 0, 0, 8, PAT_RANDOM, 0);
    segments_case(300007, ZESORT_KEY_F32, 0, 0, 0, 4, PAT_GIANT, 1);
    segments_last_algo();
}
END_TEST

/* The threads of a sort: the partition on the host's cores (from 256K
 * keys), a bucket split again on them, the devices' threads (ThreadSanitizer
 * runs this part: scripts/test). */
START_TEST(threads)
{
    run_case(300007, ZESORT_KEY_U32, 0, 0, 0, D_RANDOM);
    run_case(300007, ZESORT_KEY_I64, 1, 5, 60, D_FEW);
    run_case(300007, ZESORT_KEY_F32, 0, 0, 0, D_TOP);
}
END_TEST

/* A device budget too small for a device's share: more parts than devices,
 * still balanced over them (zesort_check_split says so). */
START_TEST(budget)
{
    zs_test_device_budget(256u << 10);
    zesort_split_info info;
    ck_assert_int_eq(zesort_check_split(g_ctx, 200003, 1, NULL, &info), ZESORT_OK);
    ck_assert_uint_eq(info.devices, g_devices);
    ck_assert_msg(info.parts > g_devices && info.parts % g_devices == 0, "%llu parts",
                  (unsigned long long)info.parts);
    for (int dist = 0; dist < D_COUNT; dist++) {
        run_case(200003, ZESORT_KEY_U32, dist % 2, 0, 0, dist);
        run_case(100003, ZESORT_KEY_I64, 1 - dist % 2, 5, 60, dist);
    }
    zs_test_device_budget(0);
}
END_TEST

/* The context's own calls: its devices, what check says, the one-device
 * sorts below ZESORT_MULTI_MIN_KEYS a device, bad lists. */
START_TEST(api)
{
    uint32_t idx[ZESORT_MAX_DEVICES];
    ck_assert_uint_eq(zesort_context_devices(g_ctx, idx, ZESORT_MAX_DEVICES), g_devices);
    for (uint32_t i = 0; i < g_devices; i++)
        ck_assert_uint_eq(idx[i], i);
    ck_assert_uint_eq(zesort_context_device_index(g_ctx), 0);
    zesort_split_info info;
    ck_assert_int_eq(zesort_check_split(g_ctx, 1000000, 0, NULL, &info), ZESORT_OK);
    ck_assert_uint_eq(info.devices, g_devices);
    ck_assert_uint_eq(info.parts, g_devices);
    ck_assert_uint_eq(info.part_keys, (1000000 + g_devices - 1) / g_devices);
    ck_assert_uint_eq(info.host_bytes, 4000000);
    ck_assert_int_eq(zesort_check_split(g_ctx, 100, 0, NULL, &info), ZESORT_OK);
    ck_assert_uint_eq(info.devices, 1);
    ck_assert_uint_eq(info.parts, 1);
    uint32_t keys[100];
    for (int i = 0; i < 100; i++)
        keys[i] = (uint32_t)(100 - i);
    ck_assert_int_eq(zesort_sort(g_ctx, keys, NULL, 100, NULL), ZESORT_OK);
    for (int i = 0; i < 100; i++)
        ck_assert_uint_eq(keys[i], (uint32_t)i + 1);
    zesort_sort_report r;
    ck_assert_int_eq(zesort_last_sort_report(g_ctx, &r), ZESORT_OK);
    ck_assert_uint_eq(r.devices, 1);
    ck_assert_uint_eq(r.parts, 1);
    /* timed: the devices' times added; a part's device memory from check */
    const uint64_t big = 100000;
    uint32_t *many = malloc(big * sizeof *many);
    ck_assert(many);
    for (uint64_t i = 0; i < big; i++)
        many[i] = (uint32_t)((big - i) * 2654435761u);
    double ms = -1;
    ck_assert_int_eq(zesort_sort_timed(g_ctx, many, NULL, big, NULL, &ms), ZESORT_OK);
    ck_assert_msg(ms > 0, "device_ms %f", ms);
    for (uint64_t i = 1; i < big; i++)
        ck_assert_uint_le(many[i - 1], many[i]);
    ck_assert_int_eq(zesort_last_sort_report(g_ctx, &r), ZESORT_OK);
    ck_assert_uint_eq(r.devices, g_devices);
    ck_assert_uint_eq(r.parts, g_devices);
    free(many);
    uint64_t whole = 0, part = 0;
    ck_assert_int_eq(zesort_check(g_ctx, 1000000, 0, NULL, &part), ZESORT_OK);
    zesort_context *one = NULL;
    ck_assert_int_eq(zesort_create_on_device(g_backend, 0, &one), ZESORT_OK);
    ck_assert_int_eq(zesort_check(one, 1000000, 0, NULL, &whole), ZESORT_OK);
    ck_assert_msg(part > 0 && part < whole, "a part's device bytes %llu, the whole's %llu",
                  (unsigned long long)part, (unsigned long long)whole);
    zesort_destroy(one);
    ck_assert_int_eq(zesort_last_sort_report(NULL, &r), ZESORT_ERROR_INVALID_ARGUMENT);
    zesort_context *c = NULL;
    const uint32_t twice[] = {1, 1};
    ck_assert_int_eq(zesort_create_on_devices(g_backend, twice, 2, &c),
                     ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_ptr_nonnull(strstr(zesort_last_error(NULL), "twice"));
    const uint32_t beyond[] = {0, g_devices + 3};
    ck_assert_int_eq(zesort_create_on_devices(g_backend, beyond, 2, &c), ZESORT_ERROR_NO_DEVICE);
    ck_assert_ptr_null(c);
    ck_assert_int_eq(zesort_create_on_devices(g_backend, NULL, 2, &c),
                     ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(zesort_create_on_devices(ZESORT_BACKEND_AUTO, NULL, 0, &c),
                     ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(zesort_create_on_devices(ZESORT_BACKEND_CPU, NULL, 0, &c), ZESORT_OK);
    ck_assert_uint_eq(zesort_context_devices(c, NULL, 0), 1);
    zesort_destroy(c);
    /* a list in another order: the first named is the context's device */
    const uint32_t reversed[] = {1, 0};
    ck_assert_int_eq(zesort_create_on_devices(g_backend, reversed, 2, &c), ZESORT_OK);
    ck_assert_uint_eq(zesort_context_device_index(c), 1);
    ck_assert_uint_eq(zesort_context_devices(c, idx, 1), 2);
    ck_assert_uint_eq(idx[0], 1);
    zesort_destroy(c);
}
END_TEST

/* Sub-devices (the test driver with ZE_CL_DRIVER_SUB_DEVICES=2: each root
 * device is listed, then its two sub-devices): a context over the first
 * card's two sub-devices sorts on both; "all" takes the root devices only;
 * a root device with a sub-device is refused. */
START_TEST(subs)
{
    uint32_t idx[ZESORT_MAX_DEVICES];
    ck_assert_uint_eq(zesort_context_devices(g_ctx, idx, ZESORT_MAX_DEVICES), 2);
    ck_assert_uint_eq(idx[0], 0);
    ck_assert_uint_eq(idx[1], 3); /* root 1 follows root 0's two sub-devices */
    zesort_context *all = g_ctx, *c = NULL;
    const uint32_t mixed[] = {0, 1};
    ck_assert_int_eq(zesort_create_on_devices(g_backend, mixed, 2, &c),
                     ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_ptr_nonnull(strstr(zesort_last_error(NULL), "sub-devices"));
    const uint32_t tiles[] = {1, 2};
    ck_assert_int_eq(zesort_create_on_devices(g_backend, tiles, 2, &c), ZESORT_OK);
    ck_assert_ptr_nonnull(strstr(zesort_context_device(c), "sub-device 0"));
    g_ctx = c;
    run_case(100003, ZESORT_KEY_U64, 1, 0, 0, D_RANDOM);
    run_case(100003, ZESORT_KEY_U32, 0, 0, 0, D_REVERSED);
    g_ctx = all;
    zesort_destroy(c);
}
END_TEST

/* The test driver's fault injection (tests/ze_cl_driver/faults.c), found
 * in the process with dlsym: calls on one device only. */
typedef void (*arm_fn)(int mode, uint64_t k, int32_t result);
typedef void (*device_fn)(int32_t device);
typedef uint64_t (*count_fn)(int mode);

/* The test driver's hooks, from the loader's copy of the driver when the
 * process has one. */
typedef struct fault_hooks {
    arm_fn arm;
    device_fn on_device;
    count_fn count;
    void *driver;
} fault_hooks;

static fault_hooks find_hooks(void)
{
    fault_hooks h = {(arm_fn)dlsym(RTLD_DEFAULT, "zecl_test_fault_arm"),
                     (device_fn)dlsym(RTLD_DEFAULT, "zecl_test_fault_device"),
                     (count_fn)dlsym(RTLD_DEFAULT, "zecl_test_fault_count"), NULL};
    const char *path = getenv("ZE_ENABLE_ALT_DRIVERS");
    h.driver = path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;
    if (h.driver) {
        h.arm = (arm_fn)dlsym(h.driver, "zecl_test_fault_arm");
        h.on_device = (device_fn)dlsym(h.driver, "zecl_test_fault_device");
        h.count = (count_fn)dlsym(h.driver, "zecl_test_fault_count");
    }
    ck_assert_msg(h.arm && h.on_device && h.count, "the test driver's fault hooks are missing");
    return h;
}

/* One sort of a fault round: a zesort_sort of u32 keys with u64 values,
 * or (off not NULL) a zesort_sort_segments of segments off[0..s]. */
typedef struct fault_sort {
    const char *name;
    const uint64_t *off;
    uint64_t s;
} fault_sort;

static zesort_status fault_run(const fault_sort *f, uint32_t *keys, uint64_t *vals, uint64_t n)
{
    zesort_options o;
    zesort_options_default(&o);
    o.value_type = ZESORT_VALUE_U64;
    return f->off ? zesort_sort_segments(g_ctx, keys, vals, n, f->off, f->s, &o)
                  : zesort_sort(g_ctx, keys, vals, n, &o);
}

/* What the caller's arrays may hold: after a success the sort's result
 * (a zesort_sort: one segment [0, n)); after a failure a zesort_sort's
 * arrays as they were, a segmented sort's segments each sorted or as
 * they were. */
static void fault_check(const fault_sort *f, const char *what, const uint32_t *copy,
                        const uint32_t *keys, const uint64_t *vals, uint64_t n, int failed)
{
    const uint64_t whole[2] = {0, n};
    zesort_options o;
    zesort_options_default(&o);
    char why[200];
    const char *wrong =
        failed && !f->off
            ? (memcmp(keys, copy, n * 4) || !segment_unchanged(copy, keys, vals, 0, n, 4, 8)
                   ? "the caller's arrays changed"
                   : NULL)
            : segments_verify(copy, keys, vals, f->off ? f->off : whole, f->off ? f->s : 1, n, 4,
                              8, &o, failed, why, sizeof why);
    ck_assert_msg(!wrong, "%s, %s: %s", f->name, what, wrong);
}

/* Every driver call on the second device fails in turn, once per sort of
 * f: the sort fails cleanly, naming that device, the caller's arrays as
 * fault_check allows; the next sort is right. Ends when a sort makes no
 * call fail (past the last call the sort makes on that device). */
static void fault_round(const fault_hooks *h, const fault_sort *f, const uint32_t *copy,
                        uint64_t n)
{
    uint32_t *keys = malloc(n * 4);
    uint64_t *vals = malloc(n * 8);
    ck_assert(keys && vals);
    h->on_device(1);
    h->arm(1, 0, 0); /* count the calls a sort makes on device 1 */
    memcpy(keys, copy, n * 4);
    for (uint64_t i = 0; i < n; i++)
        vals[i] = oracle_value(i, 8);
    ck_assert_int_eq(fault_run(f, keys, vals, n), ZESORT_OK);
    const uint64_t calls = h->count(1);
    ck_assert_msg(calls > 0, "%s: no driver call counted on device 1", f->name);
    unsigned failed = 0;
    for (uint64_t k = 1; k <= calls; k++) {
        memcpy(keys, copy, n * 4);
        for (uint64_t i = 0; i < n; i++)
            vals[i] = oracle_value(i, 8);
        h->arm(1, k, 0x70000001 /* ZE_RESULT_ERROR_DEVICE_LOST */);
        zesort_status st = fault_run(f, keys, vals, n);
        h->arm(0, 0, 0);
        char what[64];
        snprintf(what, sizeof what, "call %llu failed", (unsigned long long)k);
        fault_check(f, what, copy, keys, vals, n, st != ZESORT_OK);
        if (st == ZESORT_OK)
            continue; /* a call this sort did not make (a cached module, ...) */
        failed++;
        ck_assert_msg(strstr(zesort_last_error(g_ctx), "device 2 of"), "%s, %s: %s", f->name,
                      what, zesort_last_error(g_ctx));
    }
    fprintf(stderr, "faults, %s: %llu driver calls on device 1, %u made it fail\n", f->name,
            (unsigned long long)calls, failed);
    ck_assert_msg(failed > 0, "%s: no injected fault made a sort fail (of %llu calls)", f->name,
                  (unsigned long long)calls);
    h->on_device(-1);
    memcpy(keys, copy, n * 4);
    for (uint64_t i = 0; i < n; i++)
        vals[i] = oracle_value(i, 8);
    ck_assert_int_eq(fault_run(f, keys, vals, n), ZESORT_OK);
    fault_check(f, "after the faults", copy, keys, vals, n, 0);
    free(keys), free(vals);
}

/* A sort, then segmented sorts: runs of segments on each device, and a
 * segment longer than a device's share split over them. */
START_TEST(faults)
{
    const fault_hooks h = find_hooks();
    const uint64_t n = 60013;
    uint32_t *copy = malloc(n * 4);
    uint64_t *edges = malloc((n + 8) * sizeof *edges), *one = malloc(9 * sizeof *one);
    ck_assert(copy && edges && one);
    make_keys(copy, n, ZESORT_KEY_U32, D_RANDOM, 5);
    const fault_sort sorts[] = {
        {"zesort_sort", NULL, 0},
        {"segments at chunk and tile edges", edges, make_offsets(PAT_EDGES, n, edges, 3)},
        {"one segment", one, make_offsets(PAT_ONE, n, one, 3)},
    };
    for (unsigned i = 0; i < sizeof sorts / sizeof *sorts; i++)
        fault_round(&h, &sorts[i], copy, n);
    free(copy), free(edges), free(one);
    if (h.driver)
        dlclose(h.driver);
}
END_TEST

int main(int argc, char **argv)
{
    if (argc < 3 || zesort_parse_backend(argv[1], &g_backend) != 0) {
        fprintf(stderr,
                "usage: test_multi opencl|level-zero "
                        "skew|budget|threads|api|subs|faults|segments\n");
        return 2;
    }
    if (zesort_create_on_devices(g_backend, NULL, 0, &g_ctx) != ZESORT_OK) {
        fprintf(stderr, "zesort_create_on_devices(%s, all): %s\n", argv[1],
                zesort_last_error(NULL));
        return 1;
    }
    g_devices = zesort_context_devices(g_ctx, NULL, 0);
    if (g_devices < 2) {
        fprintf(stderr, "%s: %u device: the test needs two (POCL_DEVICES=\"pthread pthread\")\n",
                argv[1], g_devices);
        zesort_destroy(g_ctx);
        return 1;
    }
    const char *part = argv[2];
    Suite *s = suite_create("multi");
    TCase *tc = tcase_create(part);
    tcase_set_timeout(tc, 900);
    tcase_add_test(tc, strcmp(part, "budget") == 0    ? budget
                       : strcmp(part, "threads") == 0 ? threads
                       : strcmp(part, "subs") == 0    ? subs
                       : strcmp(part, "api") == 0    ? api
                       : strcmp(part, "faults") == 0 ? faults
                       : strcmp(part, "segments") == 0 ? segments
                                                     : skew);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    zesort_destroy(g_ctx);
    return failed ? 1 : 0;
}
