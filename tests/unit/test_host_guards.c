/*
 * test_host_guards.c — what the host API (zesort_sort, zesort_sort_timed)
 * must refuse or survive, on every backend (issue 18):
 *
 *   test_host_guards BACKEND PART
 *     BACKEND: cpu | opencl | level-zero
 *     PART:    overlap     keys and values sharing bytes: INVALID_ARGUMENT,
 *                          both arrays unchanged, every key width; an output
 *                          that is an input of zesort_sort_copy / argsort too
 *              misaligned  keys not aligned to the key size, values not to 4
 *                          bytes: INVALID_ARGUMENT, arrays unchanged
 *              threads     one context used by ZESORT_TEST_THREADS threads
 *                          (default 8) at once: every sort right, no crash,
 *                          no hang, each thread reads its own last error
 */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_data.h"
#include "zesort.h"

static zesort_backend g_backend;
static zesort_context *g_ctx;

static const zesort_key_type all_types[] = {ZESORT_KEY_U32, ZESORT_KEY_I32, ZESORT_KEY_F32,
                                            ZESORT_KEY_U64, ZESORT_KEY_I64, ZESORT_KEY_F64};
enum { N = 1000 };

static size_t key_bytes(zesort_key_type t) { return t >= ZESORT_KEY_U64 ? 8 : 4; }

/* Calls zesort_sort (timed = 0) or zesort_sort_timed (1) on keys/values and
 * expects INVALID_ARGUMENT with a message containing `word`, and the
 * `span` bytes at `base` (which hold both arrays) unchanged. */
static void expect_refused(void *keys, uint32_t *values, zesort_key_type t, int timed,
                           const unsigned char *base, size_t span, const char *word,
                           const char *what)
{
    unsigned char *before = (unsigned char *)td_alloc((span + 3) / 4);
    memcpy(before, base, span);
    zesort_options o;
    zesort_options_default(&o);
    o.key_type = t;
    double ms = -1;
    zesort_status st = timed ? zesort_sort_timed(g_ctx, keys, values, N, &o, &ms)
                             : zesort_sort(g_ctx, keys, values, N, &o);
    const char *msg = zesort_last_error(g_ctx);
    ck_assert_msg(st == ZESORT_ERROR_INVALID_ARGUMENT, "%s, key type %d, %s: got %s (%s)", what,
                  (int)t, timed ? "zesort_sort_timed" : "zesort_sort", zesort_status_name(st),
                  msg);
    ck_assert_msg(strstr(msg, word), "%s: message \"%s\" does not say \"%s\"", what, msg, word);
    ck_assert_msg(memcmp(before, base, span) == 0, "%s, key type %d: the arrays were changed",
                  what, (int)t);
    td_free(before);
}

/* A buffer of `bytes` random bytes, 16-byte aligned (malloc's alignment). */
static unsigned char *random_buffer(size_t bytes)
{
    uint32_t *b = td_alloc((bytes + 3) / 4);
    td_fill(b, (bytes + 3) / 4, TD_UNIFORM, bytes);
    return (unsigned char *)b;
}

/* ---- overlap ---- */

START_TEST(overlapping_keys_and_values)
{
    const zesort_key_type t = all_types[_i / 2];
    const int timed = _i % 2;
    const size_t kb = key_bytes(t) * N, vb = 4 * N, span = 2 * kb + 2 * vb;
    unsigned char *buf = random_buffer(span);
    unsigned char *mid = buf + kb; /* room on both sides */
    /* the call: values in the second half of the keys */
    expect_refused(mid, (uint32_t *)(mid + kb / 2), t, timed, buf, span, "overlap",
                   "values = keys + n/2");
    expect_refused(mid, (uint32_t *)mid, t, timed, buf, span, "overlap", "values == keys");
    expect_refused(mid, (uint32_t *)(mid + kb - 4), t, timed, buf, span, "overlap",
                   "values share the last key's bytes");
    expect_refused(mid, (uint32_t *)(mid - vb + 8), t, timed, buf, span, "overlap",
                   "values end inside the keys");
    td_free(buf);
}
END_TEST

/* Adjacent arrays share no byte: the check must not refuse them (both key
 * widths, unsigned so that the order is checked on the raw words). */
START_TEST(adjacent_keys_and_values_sort)
{
    const zesort_key_type t = _i ? ZESORT_KEY_U64 : ZESORT_KEY_U32;
    const size_t kb = key_bytes(t) * N;
    unsigned char *buf = random_buffer(kb + 4 * N);
    uint32_t *values = (uint32_t *)(buf + kb);
    for (uint32_t i = 0; i < N; i++)
        values[i] = i;
    zesort_options o;
    zesort_options_default(&o);
    o.key_type = t;
    zesort_status st = zesort_sort(g_ctx, buf, values, N, &o);
    ck_assert_msg(st == ZESORT_OK, "adjacent arrays: %s (%s)", zesort_status_name(st),
                  zesort_last_error(g_ctx));
    for (size_t i = 1; i < N; i++) {
        uint64_t a, b;
        if (key_bytes(t) == 8) {
            memcpy(&a, buf + 8 * (i - 1), 8);
            memcpy(&b, buf + 8 * i, 8);
        } else {
            uint32_t x, y;
            memcpy(&x, buf + 4 * (i - 1), 4);
            memcpy(&y, buf + 4 * i, 4);
            a = x, b = y;
        }
        ck_assert_msg(a <= b, "adjacent arrays: keys not sorted at %zu", i);
    }
    td_free(buf);
}
END_TEST

/* Exact aliasing (issue 33, defect 5): an output that is the very array of
 * an input that the call only reads -- zesort_sort_copy's keys_out ==
 * keys_in or values_out == values_in, zesort_argsort's keys_out == keys --
 * is refused as any overlap is (INVALID_ARGUMENT naming it, nothing
 * written): in place is zesort_sort's. */
static void expect_alias_refused(zesort_status st, const unsigned char *base,
                                 const unsigned char *before, size_t span, const char *what)
{
    const char *msg = zesort_last_error(g_ctx);
    ck_assert_msg(st == ZESORT_ERROR_INVALID_ARGUMENT && strstr(msg, "overlap"), "%s: %s (%s)",
                  what, zesort_status_name(st), msg);
    ck_assert_msg(memcmp(before, base, span) == 0, "%s: an input was written", what);
}

START_TEST(exact_aliasing_refused)
{
    const zesort_key_type t = all_types[_i];
    const size_t kb = key_bytes(t) * N, span = 2 * kb + 2 * 4 * N;
    unsigned char *buf = random_buffer(span), *before = random_buffer(span);
    memcpy(before, buf, span);
    unsigned char *keys = buf, *keys2 = buf + kb, *vals = buf + 2 * kb, *vals2 = vals + 4 * N;
    zesort_options o;
    zesort_options_default(&o);
    o.key_type = t;
    expect_alias_refused(zesort_sort_copy(g_ctx, keys, NULL, keys, NULL, N, &o), buf, before,
                         span, "sort_copy, keys_out == keys_in");
    expect_alias_refused(zesort_sort_copy(g_ctx, keys, vals, keys, vals2, N, &o), buf, before,
                         span, "sort_copy, keys_out == keys_in, values apart");
    expect_alias_refused(zesort_sort_copy(g_ctx, keys, vals, keys2, vals, N, &o), buf, before,
                         span, "sort_copy, values_out == values_in");
    expect_alias_refused(zesort_argsort(g_ctx, keys, vals, keys, N, &o), buf, before, span,
                         "argsort, keys_out == keys");
    td_free(buf), td_free(before);
}
END_TEST

/* ---- misalignment ---- */

START_TEST(misaligned_keys_or_values)
{
    const zesort_key_type t = all_types[_i / 2];
    const int timed = _i % 2;
    const size_t kb = key_bytes(t) * N, span = kb + 4 * N + 16;
    unsigned char *buf = random_buffer(span);
    expect_refused(buf + 1, NULL, t, timed, buf, span, "align", "keys at +1 byte");
    expect_refused(buf + 2, NULL, t, timed, buf, span, "align", "keys at +2 bytes");
    if (key_bytes(t) == 8)
        expect_refused(buf + 4, NULL, t, timed, buf, span, "align", "8-byte keys at +4 bytes");
    expect_refused(buf, (uint32_t *)(buf + kb + 2), t, timed, buf, span, "align",
                   "values at +2 bytes");
    td_free(buf);
}
END_TEST

/* ---- one context, many threads ---- */

enum { MAX_THREADS = 16, ROUNDS = 3 };

static int thread_count(void)
{
    const char *v = getenv("ZESORT_TEST_THREADS");
    int t = v ? atoi(v) : 8;
    return t < 1 ? 1 : t > MAX_THREADS ? MAX_THREADS : t;
}

typedef struct worker {
    int id;
    char failure[256]; /* "" = every check passed */
} worker;

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* A qsorted malloc'd copy (td_qsorted's arrays are tracked by one thread). */
static uint32_t *sorted_copy(const uint32_t *keys, uint64_t n)
{
    uint32_t *p = malloc(n * 4);
    if (p) {
        memcpy(p, keys, n * 4);
        qsort(p, n, 4, cmp_u32);
    }
    return p;
}

/* One round of a worker: a failing call whose message names this thread's
 * bit range, then a timed pair sort checked against qsort, then a check. */
static void worker_round(worker *w, int round)
{
    zesort_options bad;
    zesort_options_default(&bad);
    bad.bit_lo = 40 + (unsigned)w->id; /* beyond 32 bits: refused, message names it */
    uint32_t k0 = 1;
    zesort_status st = zesort_sort(g_ctx, &k0, NULL, 1, &bad);
    char want[32];
    snprintf(want, sizeof want, "%u:", bad.bit_lo);
    const char *msg = zesort_last_error(g_ctx);
    if (st != ZESORT_ERROR_INVALID_ARGUMENT || !strstr(msg, want)) {
        snprintf(w->failure, sizeof w->failure, "thread %d: bad bit range gave %s, "
                 "last error \"%.120s\" (want \"%s\")", w->id, zesort_status_name(st), msg, want);
        return;
    }
    const uint64_t n = 3000 + 517 * (uint64_t)w->id + 101 * (uint64_t)round;
    uint32_t *keys = malloc(n * 4), *values = malloc(n * 4), *want_keys = NULL;
    uint32_t x = 2463534242u + 7919u * (uint32_t)(w->id * ROUNDS + round); /* xorshift32 */
    for (uint64_t i = 0; keys && values && i < n; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        keys[i] = x;
        values[i] = x ^ 0x5a5a5a5au;
    }
    if (!keys || !values || !(want_keys = sorted_copy(keys, n))) {
        snprintf(w->failure, sizeof w->failure, "thread %d: out of memory", w->id);
        free(keys), free(values), free(want_keys);
        return;
    }
    double ms = -1;
    st = zesort_sort_timed(g_ctx, keys, values, n, NULL, &ms);
    if (st != ZESORT_OK || zesort_last_error(g_ctx)[0] != '\0')
        snprintf(w->failure, sizeof w->failure, "thread %d: sort: %s, last error \"%.120s\"",
                 w->id, zesort_status_name(st), zesort_last_error(g_ctx));
    else if (td_first_diff(keys, want_keys, n) >= 0 || ms < 0)
        snprintf(w->failure, sizeof w->failure, "thread %d: wrong result (first diff %lld, "
                 "%.3f ms)", w->id, (long long)td_first_diff(keys, want_keys, n), ms);
    for (uint64_t i = 0; !w->failure[0] && i < n; i++)
        if (values[i] != (keys[i] ^ 0x5a5a5a5au))
            snprintf(w->failure, sizeof w->failure, "thread %d: value %llu not moved with its key",
                     w->id, (unsigned long long)i);
    uint64_t bytes = 0;
    if (!w->failure[0] && zesort_check(g_ctx, n, 1, NULL, &bytes) != ZESORT_OK)
        snprintf(w->failure, sizeof w->failure, "thread %d: zesort_check: %s", w->id,
                 zesort_last_error(g_ctx));
    (void)zesort_last_algo(g_ctx);
    free(keys), free(values);
    free(want_keys);
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    for (int r = 0; r < ROUNDS && !w->failure[0]; r++)
        worker_round(w, r);
    return NULL;
}

START_TEST(one_context_many_threads)
{
    const int T = thread_count();
    pthread_t th[MAX_THREADS];
    worker w[MAX_THREADS];
    for (int i = 0; i < T; i++) {
        w[i] = (worker){.id = i};
        ck_assert_int_eq(pthread_create(&th[i], NULL, worker_main, &w[i]), 0);
    }
    for (int i = 0; i < T; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < T; i++)
        ck_assert_msg(w[i].failure[0] == '\0', "%s", w[i].failure);
}
END_TEST

static Suite *guards_suite(const char *part)
{
    Suite *s = suite_create("host_guards");
    TCase *tc = tcase_create(part);
    tcase_set_timeout(tc, 300);
    const int types = (int)(sizeof all_types / sizeof all_types[0]);
    if (strcmp(part, "overlap") == 0) {
        tcase_add_loop_test(tc, overlapping_keys_and_values, 0, 2 * types);
        tcase_add_loop_test(tc, adjacent_keys_and_values_sort, 0, 2);
        tcase_add_loop_test(tc, exact_aliasing_refused, 0, types);
    } else if (strcmp(part, "misaligned") == 0) {
        tcase_add_loop_test(tc, misaligned_keys_or_values, 0, 2 * types);
    } else {
        tcase_add_test(tc, one_context_many_threads);
    }
    suite_add_tcase(s, tc);
    return s;
}

int main(int argc, char **argv)
{
    const char *parts = "overlap misaligned threads";
    if (argc != 3 || zesort_parse_backend(argv[1], &g_backend) != 0 ||
        g_backend == ZESORT_BACKEND_AUTO || !strstr(parts, argv[2])) {
        fprintf(stderr, "usage: test_host_guards cpu|opencl|level-zero %s\n", parts);
        return 2;
    }
    if (g_backend == ZESORT_BACKEND_OPENCL && td_skip_opencl())
        return TD_SKIP_EXIT;
    zesort_status st = zesort_create(g_backend, &g_ctx);
    if (st != ZESORT_OK) {
        fprintf(stderr, "zesort_create(%s): %s: %s\n", argv[1], zesort_status_name(st),
                zesort_last_error(NULL));
        return EXIT_FAILURE;
    }
    int rc = td_run_suite(guards_suite(argv[2]));
    zesort_destroy(g_ctx);
    return rc;
}
