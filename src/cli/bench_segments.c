/*
 * bench_segments.c — `zesort bench --segments LEN[,LEN...]|ragged`:
 * for each segment layout over the same n random keys, the wall time of one
 * segmented sort (ZESORT_SEGMENTED) against one unsegmented sort (ZESORT_SORT)
 * of all n keys and against a loop of one sort per segment. Wall times (host clock
 * around each call, host<->device copies included) because the segmented
 * device path has a host step and the loop's cost is mostly per-call. The
 * unsegmented sort is timed again next to each layout (a shared machine's
 * speed drifts by 2-4x within minutes: ratios of neighbours hold).
 *
 * The loop of a layout with many segments would take minutes: it runs for
 * at most LOOP_BUDGET_MS, and its time is scaled up from the keys it
 * sorted (the row says "est."). Its results are the check of the segmented
 * sort: every segment the loop sorted must equal the segmented result.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define LOOP_BUDGET_MS 3000.0
#define RAGGED UINT64_MAX /* a length that means "ragged" */

static const char CMD[] = "bench";

/* The list: LEN (k, m, g suffixes; >= 1) or "ragged", at most max. */
static int parse_lengths(const char *text, uint64_t *len, int max, int *count)
{
    char storage[512];
    const char *piece[32];
    int c = strlen(text) < sizeof storage ? cli_split_list(text, storage, piece, max < 32 ? max : 32)
                                          : -1;
    if (c <= 0)
        return cli_usage(CMD, "bad --segments '%s': expected LEN[,LEN...] or ragged", text);
    for (int i = 0; i < c; i++) {
        if (strcmp(piece[i], "ragged") == 0)
            len[i] = RAGGED;
        else if (cli_parse_count(piece[i], &len[i]) || len[i] == 0)
            return cli_usage(CMD, "bad segment length '%s' in --segments: expected a count >= 1 "
                                  "or ragged", piece[i]);
    }
    *count = c;
    return 0;
}

int cli_bench_segments_check(const char *text)
{
    uint64_t len[32];
    int count;
    return parse_lengths(text, len, 32, &count);
}

/* Offsets over n keys: equal segments of len (the last one shorter), or
 * for RAGGED a power-law mix: lengths log-uniform in [1, n/8] (as many
 * segments of 1-10 keys as of 10K-100K), in random order. Returns S. */
static uint64_t make_offsets(uint64_t n, uint64_t len, uint64_t *o)
{
    uint64_t s = 0, p = 0, x = UINT64_C(0x9E3779B97F4A7C15);
    const double top = log((double)(n / 8 > 1 ? n / 8 : 1));
    o[s++] = 0;
    while (p < n) {
        uint64_t l = len;
        if (len == RAGGED) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            l = (uint64_t)exp(top * (double)(x >> 11) / 9007199254740992.0);
            l = l < 1 ? 1 : l;
        }
        p = l < n - p ? p + l : n;
        o[s++] = p;
    }
    return s - 1;
}

typedef struct seg_run {
    zesort_context *ctx;
    const zesort_options *o;
    const void *input;
    void *work, *ref;
    uint64_t n;
    size_t kb;
    int repeat;
} seg_run;

/* Median wall ms of `repeat` sorts (after a warm-up) of fresh copies of the
 * input: segmented by (o, s), or whole when o is NULL. */
static int time_sort(const seg_run *r, const uint64_t *o, uint64_t s, double *ms)
{
    double t[1000];
    for (int i = -1; i < r->repeat; i++) {
        memcpy(r->work, r->input, r->n * r->kb);
        zesort_desc d = cli_desc(o ? ZESORT_SEGMENTED : ZESORT_SORT, r->o, 0);
        d.keys = r->work;
        d.n = r->n;
        d.offsets = o;
        d.num_segments = o ? s : 0;
        const double t0 = cli_now_ms();
        zesort_status st = zesort_run(r->ctx, &d);
        if (st != ZESORT_OK)
            return cli_fail_status("bench", st, r->ctx);
        if (i >= 0)
            t[i] = cli_now_ms() - t0;
    }
    *ms = cli_median_high(t, r->repeat);
    return 0;
}

/* The loop of one ZESORT_SORT per segment, within LOOP_BUDGET_MS; *ms scaled
 * up to all keys, *all = whether it finished. Then checks r->work (the
 * segmented result) against every segment the loop sorted. */
static int time_loop(const seg_run *r, const uint64_t *o, uint64_t s, double *ms, int *all)
{
    memcpy(r->ref, r->input, r->n * r->kb);
    const double t0 = cli_now_ms();
    uint64_t i = 0;
    double el = 0;
    zesort_desc d = cli_desc(ZESORT_SORT, r->o, 0);
    for (; i < s && el < LOOP_BUDGET_MS; i++) {
        d.keys = (char *)r->ref + o[i] * r->kb;
        d.n = o[i + 1] - o[i];
        zesort_status st = zesort_run(r->ctx, &d);
        if (st != ZESORT_OK)
            return cli_fail_status("bench", st, r->ctx);
        el = cli_now_ms() - t0;
    }
    *all = i == s;
    *ms = o[i] > 0 ? el * (double)r->n / (double)o[i] : el;
    if (memcmp(r->ref, r->work, o[i] * r->kb) != 0)
        return cli_fail("bench --segments: the segmented sort differs from a loop of sorts");
    return 0;
}

int cli_bench_segments(zesort_backend backend, int64_t device, zesort_key_type type,
                       zesort_algo algo, uint64_t n, int repeat, const char *lengths)
{
    uint64_t len[32];
    int count, rc = parse_lengths(lengths, len, 32, &count);
    if (rc)
        return rc;
    zesort_options opt;
    zesort_options_default(&opt);
    opt.key_type = type;
    opt.algo = algo;
    seg_run r = {NULL, &opt, NULL, NULL, NULL, n, cli_key_size(type), repeat};
    void *input = malloc(n * r.kb), *work = malloc(n * r.kb), *ref = malloc(n * r.kb);
    uint64_t *o = malloc((n + 2) * sizeof *o);
    r.input = input, r.work = work, r.ref = ref;
    if (!input || !work || !ref || !o) {
        rc = cli_fail("out of host memory for %llu keys", (unsigned long long)n);
        goto done;
    }
    zesort_status st = cli_create_for_kernels(backend, device, &r.ctx);
    if (st != ZESORT_OK) {
        rc = cli_fail_setup(backend, st);
        goto done;
    }
    cli_random_keys(input, n, type, UINT64_C(0x5EED2024));
    double whole;
    printf("zesort bench --segments: %llu %s keys, backend %s, device %s, algo %s, wall ms "
           "(copies included), median of %d after a warm-up\n",
           (unsigned long long)n, cli_key_type_name(type),
           zesort_backend_name(cli_context_info(r.ctx).backend), cli_context_info(r.ctx).device,
           zesort_algo_name(algo), repeat);
    printf("%-10s %10s %14s %14s %15s %14s %15s\n", "segments", "count", "unsegmented_ms",
           "segmented_ms", "vs_unsegmented", "loop_ms", "speedup_vs_loop");
    for (int i = 0; i < count && rc == 0; i++) {
        const uint64_t s = make_offsets(n, len[i], o);
        double seg = 0, loop = 0;
        int all = 0;
        if ((rc = time_sort(&r, NULL, 0, &whole)) || (rc = time_sort(&r, o, s, &seg)) ||
            (rc = time_loop(&r, o, s, &loop, &all)))
            break;
        char name[24];
        if (len[i] == RAGGED)
            snprintf(name, sizeof name, "ragged");
        else
            snprintf(name, sizeof name, "%llu", (unsigned long long)len[i]);
        printf("%-10s %10llu %14.2f %14.2f %14.2fx %9.1f%-5s %14.1fx\n", name,
               (unsigned long long)s, whole, seg, whole / seg, loop, all ? "" : " est.",
               loop / seg);
    }
done:
    zesort_destroy(r.ctx);
    free(input), free(work), free(ref), free(o);
    return rc;
}
