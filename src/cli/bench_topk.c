/*
 * bench_topk.c — `zesort bench --topk K`: on the same n keys (--input,
 * --type, --descending, --bits as for the sort rows), the wall time of one
 * ZESORT_SORT_COPY of all n keys against a ZESORT_TOPK of K keys (keys only,
 * then with u32 indices) and of n/2 keys, each the median of --repeat after
 * a warm-up. Wall times (host clock around each call, host<->device copies
 * included) because the C fallback's select runs on the host and a device
 * backend's top-k takes its results on the host: device time alone would
 * not compare the same work. The full sort is timed again next to each
 * top-k row (a shared machine's speed drifts: ratios of neighbours hold).
 * Every result is checked: the top-k keys equal the first K of the full
 * sort, and each index names a key equal to its row's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define SEED UINT64_C(0x5EED2024)

typedef struct topk_run {
    zesort_context *ctx;
    const zesort_options *o;
    const void *input;
    void *sorted, *out;
    uint32_t *idx;
    uint64_t n;
    size_t kb;
    int repeat;
} topk_run;

/* Median wall ms of repeat calls (after a warm-up): the full sort when k is
 * UINT64_MAX, else a top-k of k keys (with indices when `indices`). */
static int time_call(const topk_run *r, uint64_t k, int indices, double *ms)
{
    double t[1000];
    for (int i = -1; i < r->repeat; i++) {
        zesort_desc d = cli_desc(k == UINT64_MAX ? ZESORT_SORT_COPY : ZESORT_TOPK, r->o, 0);
        d.keys_in = r->input;
        d.keys = k == UINT64_MAX ? r->sorted : r->out;
        d.indices = k != UINT64_MAX && indices ? r->idx : NULL;
        d.n = r->n;
        d.k = k == UINT64_MAX ? 0 : k;
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

/* The last top-k of k keys against the full sort's first k. */
static int verify(const topk_run *r, uint64_t k, int indices)
{
    const uint64_t m = k < r->n ? k : r->n;
    if (memcmp(r->out, r->sorted, (size_t)(m * r->kb)) != 0)
        return cli_fail("bench --topk: the top %llu keys differ from the sort's first %llu",
                        (unsigned long long)k, (unsigned long long)m);
    for (uint64_t j = 0; indices && j < m; j++)
        if (r->idx[j] >= r->n ||
            memcmp((const char *)r->input + r->idx[j] * r->kb, (char *)r->out + j * r->kb,
                   r->kb) != 0)
            return cli_fail("bench --topk: index %llu of the top %llu names another key",
                            (unsigned long long)j, (unsigned long long)k);
    return 0;
}

/* One row: the full sort timed again, then the top-k, verified. */
static int row(const topk_run *r, const char *name, uint64_t k, int indices)
{
    double sort_ms = 0, ms = 0;
    int rc = time_call(r, UINT64_MAX, 0, &sort_ms);
    if (!rc)
        rc = time_call(r, k, indices, &ms);
    if (!rc)
        rc = verify(r, k, indices);
    if (!rc)
        printf("%-22s %12llu %12.2f %12.2f %11.2fx\n", name, (unsigned long long)k, sort_ms, ms,
               sort_ms / ms);
    return rc;
}

int cli_bench_topk(const cli_bench_topk_request *q)
{
    zesort_options opt;
    zesort_options_default(&opt);
    opt.key_type = q->type, opt.descending = q->descending;
    opt.bit_lo = q->bit_lo, opt.bit_hi = q->bit_hi;
    const size_t kb = cli_key_size(q->type);
    topk_run r = {NULL, &opt, NULL, NULL, NULL, NULL, q->n, kb, q->repeat};
    void *input = malloc(q->n * kb + 1), *sorted = malloc(q->n * kb + 1);
    void *out = malloc(q->n * kb + 1), *idx = malloc(q->n * 4 + 1);
    r.input = input, r.sorted = sorted, r.out = out, r.idx = idx;
    int rc = 0;
    if (!input || !sorted || !out || !idx) {
        rc = cli_fail("out of host memory for %llu keys", (unsigned long long)q->n);
        goto done;
    }
    zesort_status st = cli_create_for_kernels(q->backend, q->device, &r.ctx);
    if (st != ZESORT_OK) {
        rc = cli_fail_setup(q->backend, st);
        goto done;
    }
    cli_make_keys(input, 0, q->n, q->n, q->type, q->input, SEED);
    printf("zesort bench --topk: %llu %s keys (%s), %s, bits %u:%u, backend %s, device %s, wall "
           "ms (copies included), median of %d after a warm-up\n",
           (unsigned long long)q->n, cli_key_type_name(q->type), cli_input_kind_name(q->input),
           q->descending ? "descending" : "ascending", q->bit_lo, q->bit_hi,
           zesort_backend_name(cli_context_info(r.ctx).backend), cli_context_info(r.ctx).device,
           q->repeat);
    printf("%-22s %12s %12s %12s %12s\n", "what", "k", "sort_ms", "topk_ms", "vs_sort");
    if (!(rc = row(&r, "topk", q->k, 0)) && !(rc = row(&r, "topk+indices", q->k, 1)))
        rc = row(&r, "topk n/2", q->n / 2, 0);
done:
    zesort_destroy(r.ctx);
    free(input), free(sorted), free(out), free(idx);
    return rc;
}
