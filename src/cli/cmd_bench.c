/*
 * cmd_bench.c — `zesort bench`: device time of whole sorts of uniform random
 * keys for every algorithm × n × scan mode, median of --repeat runs after one
 * warm-up, each result verified before it is reported. Prints a table and the
 * speed ratios (the 2-bit vs 4-bit comparison is a product feature, docs/design.md
 * §1.1), and optionally writes a CSV and a PNG plot. With --peer boost it also
 * times Boost.Compute's sort on the same data (bench/peer_boost.h, built only
 * when Boost is found) and prints zesort's speed over the peer's.
 * Here the measuring; bench_args.c reads the arguments and bench_report.c
 * prints and writes the results.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#ifdef ZESORT_HAVE_BOOST_PEER
#include "peer_boost.h"
#endif

static const char CMD[] = "bench";

#define BENCH_SEED UINT64_C(0x5EED2024)
/* Beyond this n a host reference copy + qsort costs more than it is worth;
 * a multiset checksum proves the permutation instead. */
#define REFERENCE_MAX_N (UINT64_C(1) << 24)

/* ---- measuring ---------------------------------------------------------------- */

/* The value kinds' names (bench.h), as the table and the CSV show them. */
static const char *const value_kind_names[] = {"none", "u32", "u64", "u32+gather"};

/* The value kinds of the request, in measuring order. */
static int value_kinds(const bench_request *req, value_kind *kinds)
{
    if (!req->pairs) {
        kinds[0] = VALUES_NONE;
        return 1;
    }
    kinds[0] = VALUES_U32;
    if (req->value_type != ZESORT_VALUE_U64)
        return 1;
    kinds[1] = VALUES_U64;
    kinds[2] = VALUES_U32_GATHER;
    return 3;
}

static int build_combos(const bench_request *req, bench_combo *combo)
{
    value_kind kinds[3];
    const int nk = value_kinds(req, kinds);
    int count = 0;
    for (int i = 0; i < req->algo_count; ++i) {
        zesort_algo algo = req->algo[i];
        zesort_scan scans[2];
        int ns = 0;
        if (req->scan_count > 0) {
            for (int s = 0; s < req->scan_count; ++s)
                scans[ns++] = req->scan[s];
        } else if (algo == ZESORT_ALGO_CM2 || algo == ZESORT_ALGO_CM4) {
            /* The CM tutorial's host scan next to the device scan: both kept. */
            scans[ns++] = ZESORT_SCAN_HOST;
            scans[ns++] = ZESORT_SCAN_DEVICE;
        } else {
            scans[ns++] = ZESORT_SCAN_DEVICE;
        }
        for (int s = 0; s < ns; ++s)
            for (int k = 0; k < nk; ++k)
                combo[count++] = (bench_combo){algo, scans[s], kinds[k]};
    }
    return count;
}

static zesort_options combo_options(const bench_request *req, const bench_combo *c)
{
    zesort_options o;
    zesort_options_default(&o);
    o.key_type = req->type;
    o.algo = c->algo;
    o.scan = c->scan;
    o.descending = req->descending;
    o.bit_lo = req->bit_lo;
    o.bit_hi = req->bit_hi;
    o.value_type = c->values == VALUES_U64 ? ZESORT_VALUE_U64 : ZESORT_VALUE_U32;
    return o;
}

static unsigned value_bytes(value_kind k) { return k == VALUES_U64 ? 8u : k == VALUES_NONE ? 0u : 4u; }

/* Before the long runs, every combination sorts a few keys (so an
 * unsupported one fails in a second instead of after minutes of measuring)
 * and passes zesort_check_split for every n (so a device too small for an n shows
 * before any data is made). */
/* 1 when c is the small algorithm and n is above its one-launch limit on
 * ctx's device for the request's keys (and values): no row, a note. */
static int above_small_limit(const bench_request *req, const zesort_context_info *info,
                             const bench_combo *c, uint64_t n)
{
    const int wide = req->pairs || cli_key_size(req->type) == 8;
    return c->algo == ZESORT_ALGO_SMALL && n > (wide ? info->small_max_wide : info->small_max);
}

static int probe_combos(const bench_request *req, zesort_context *ctx, const bench_combo *combo,
                        int count)
{
    const zesort_context_info info = cli_context_info(ctx);
    enum { PROBE_N = 1000 };
    uint64_t keys[PROBE_N];
    uint64_t values[PROBE_N];
    for (int i = 0; i < count; ++i) {
        zesort_options o = combo_options(req, &combo[i]);
        cli_random_keys(keys, PROBE_N, req->type, BENCH_SEED);
        memset(values, 0, sizeof values);
        zesort_desc d = cli_desc(ZESORT_SORT, &o, req->pairs);
        d.keys = keys;
        d.values = req->pairs ? values : NULL;
        d.n = PROBE_N;
        zesort_status st = zesort_run(ctx, &d);
        /* and every n must fit the device in one go (the bench times the
         * device; a bigger sort would be split on the host): checked before
         * any data is made */
        for (int k = 0; k < req->n_count && st == ZESORT_OK; ++k) {
            if (above_small_limit(req, &info, &combo[i], req->n[k]))
                continue; /* a note instead of a row */
            zesort_split_info split;
            st = zesort_check_split(ctx, req->n[k], req->pairs, &o, &split);
            if (st == ZESORT_OK && split.parts > 1)
                return cli_fail("bench: n = %llu is more than the device sorts at once (%llu "
                                "keys): zesort sort would split it into about %llu parts on the "
                                "host; the bench times sorts the device takes in one go",
                                (unsigned long long)req->n[k], (unsigned long long)split.part_keys,
                                (unsigned long long)split.parts);
        }
        if (st != ZESORT_OK) {
            char what[96];
            snprintf(what, sizeof what, "bench %s %s%s scan=%s", zesort_algo_name(o.algo),
                     cli_key_type_name(o.key_type), req->pairs ? " pairs" : "",
                     cli_scan_name(o.scan));
            return cli_fail_status(what, st, ctx);
        }
    }
    return 0;
}


/* Buffers for one n, shared by every configuration measured at that n. */
typedef struct bench_data {
    uint64_t n;
    void *input, *work, *reference;
    void *values;       /* pairs only: 0..n-1, of the widest value measured */
    uint64_t *payload;  /* --value-type u64: the 8-byte values a gather moves */
    uint64_t *gathered; /* ... and where it moves them */
    cli_expected expected;
} bench_data;

static void free_data(bench_data *d)
{
    free(d->input);
    free(d->work);
    free(d->reference);
    free(d->values);
    free(d->payload);
    free(d->gathered);
    memset(d, 0, sizeof *d);
}

/* Bytes of the values of a request: the widest measured. */
static size_t values_size(const bench_request *req)
{
    return !req->pairs ? 0 : req->value_type == ZESORT_VALUE_U64 ? 8 : 4;
}

static int make_data(const bench_request *req, uint64_t n, bench_data *d)
{
    memset(d, 0, sizeof *d);
    size_t bytes = (size_t)n * cli_key_size(req->type);
    d->n = n;
    d->input = malloc(bytes);
    d->work = malloc(bytes);
    const int gather = req->value_type == ZESORT_VALUE_U64 && req->pairs;
    if (req->pairs)
        d->values = malloc((size_t)n * values_size(req));
    else if (n <= REFERENCE_MAX_N)
        d->reference = malloc(bytes);
    if (gather) {
        d->payload = malloc((size_t)n * sizeof *d->payload);
        d->gathered = malloc((size_t)n * sizeof *d->gathered);
    }
    if (!d->input || !d->work || (req->pairs && !d->values) ||
        (!req->pairs && n <= REFERENCE_MAX_N && !d->reference) ||
        (gather && (!d->payload || !d->gathered))) {
        free_data(d);
        return cli_fail("out of host memory for %llu keys", (unsigned long long)n);
    }
    cli_make_keys(d->input, 0, n, n, req->type, req->input, BENCH_SEED);
    for (uint64_t i = 0; d->payload && i < n; ++i)
        d->payload[i] = i * UINT64_C(0x9E3779B97F4A7C15);
    if (d->reference) {
        memcpy(d->reference, d->input, bytes);
        if (cli_reference_sort_stable(d->reference, n, req->type, req->bit_lo, req->bit_hi,
                                      req->descending)) {
            free_data(d);
            return cli_fail("out of host memory for the reference sort of %llu keys",
                            (unsigned long long)n);
        }
    }
    d->expected = (cli_expected){d->input, d->reference,
                                 cli_multiset_hash(d->input, n, req->type), req->type,
                                 req->descending, req->bit_lo, req->bit_hi};
    return 0;
}

static void reset_work(const bench_request *req, value_kind kind, bench_data *d)
{
    memcpy(d->work, d->input, (size_t)d->n * cli_key_size(req->type));
    for (uint64_t i = 0; kind != VALUES_NONE && i < d->n; ++i) {
        if (kind == VALUES_U64)
            ((uint64_t *)d->values)[i] = i;
        else
            ((uint32_t *)d->values)[i] = (uint32_t)i;
    }
}

/* The workaround 8-byte values had before: the u32 indices the sort moved
 * name each key's input position; gather the 8-byte values by them. On the
 * host, timed by the host clock: the device of this machine's backends is
 * its CPU (the C fallback, PoCL); a GPU would run it as a kernel (README,
 * "8-byte values"). */
static double gather(bench_data *d)
{
    const double t0 = cli_now_ms();
    const uint32_t *idx = d->values;
    for (uint64_t i = 0; i < d->n; ++i)
        d->gathered[i] = d->payload[idx[i]];
    return cli_now_ms() - t0;
}

/* Host bytes make_data allocates for n keys. */
static uint64_t data_bytes(const bench_request *req, uint64_t n)
{
    uint64_t keys = n * cli_key_size(req->type);
    const uint64_t gather = req->value_type == ZESORT_VALUE_U64 && req->pairs ? 16 * n : 0;
    /* a reference by a bit range is merge sorted: a second copy for the time */
    const int range = req->bit_lo > 0 || req->bit_hi < cli_key_bits(req->type);
    const uint64_t ref = n > REFERENCE_MAX_N ? 0 : range ? 2 * keys : keys;
    return 2 * keys + (req->pairs ? n * values_size(req) : ref) + gather;
}

/* Every n's data must fit in this machine's memory: checked before anything
 * is measured, so a too large n fails in a moment instead of after building
 * gigabytes of keys (and after the smaller n's measurements). The device's
 * limits are checked next, by zesort_check_split (probe_combos). */
static int check_host_memory(const bench_request *req)
{
    int rc = 0;
    for (int i = 0; i < req->n_count && rc == 0; ++i)
        rc = cli_check_host_memory(CMD, req->n[i], data_bytes(req, req->n[i]));
    return rc;
}

/* One timed sort of fresh copies (the gather too for VALUES_U32_GATHER),
 * its result verified when `verify`. */
static int measure_one(const bench_request *req, zesort_context *ctx, const bench_combo *c,
                       bench_data *d, int verify, double *ms)
{
    zesort_options o = combo_options(req, c);
    void *values = c->values == VALUES_NONE ? NULL : d->values;
    reset_work(req, c->values, d);
    *ms = 0;
    zesort_desc sd = cli_desc(ZESORT_SORT, &o, values != NULL);
    sd.keys = d->work;
    sd.values = values;
    sd.n = d->n;
    sd.device_ms = ms;
    zesort_status st = zesort_run(ctx, &sd);
    if (st != ZESORT_OK)
        return cli_fail_status("bench sort", st, ctx);
    if (c->values == VALUES_U32_GATHER)
        *ms += gather(d);
    char why[160];
    if (verify && cli_verify_sort(&d->expected, d->work, values, value_bytes(c->values), d->n,
                                  why, sizeof why) != 0)
        return cli_fail("bench: %s scan=%s n=%llu: result is wrong: %s",
                        zesort_algo_name(c->algo), cli_scan_name(c->scan),
                        (unsigned long long)d->n, why);
    return 0;
}

/* Warm-up + `repeat` timed sorts of the `count` configurations c[0..count)
 * (the value kinds of one algorithm and scan), taken in turns, so that a
 * machine whose speed drifts (a shared VM) shifts all of them alike and
 * their ratios hold; verifies each one's last result. ran[k]: the algorithm
 * that configuration's sorts ran (what auto resolved to). */
static int measure(const bench_request *req, zesort_context *ctx, const bench_combo *c,
                   int count, bench_data *d, double *median_ms, zesort_algo *ran,
                   uint64_t *launches)
{
    double *times = malloc((size_t)req->repeat * (size_t)count * sizeof *times);
    if (!times)
        return cli_fail("out of host memory");
    int rc = 0;
    for (int r = -1; r < req->repeat && rc == 0; ++r) /* r == -1: warm-up */
        for (int k = 0; k < count && rc == 0; ++k) {
            double ms;
            rc = measure_one(req, ctx, &c[k], d, r == req->repeat - 1, &ms);
            if (rc == 0 && r >= 0)
                times[k * req->repeat + r] = ms;
            const zesort_context_info info = cli_context_info(ctx);
            ran[k] = info.last_algo;
            launches[k] = info.last_launches;
        }
    for (int k = 0; rc == 0 && k < count; ++k)
        median_ms[k] = cli_median(times + k * req->repeat, req->repeat);
    free(times);
    return rc;
}

#ifdef ZESORT_HAVE_BOOST_PEER
/* The peer's device, for its rows (one peer device per run). */
static char peer_device[256];

/* Boost.Compute's sort of the same keys on the OpenCL device named like
 * zesort's (else Boost's default device); the result verified like ours. */
static int measure_peer(const bench_request *req, const char *device_hint, bench_data *d,
                        cli_measurement *x)
{
    char err[512];
    zesort_peer_result res;
    if (zesort_peer_boost_sort(d->input, d->n, device_hint, req->repeat, d->work, &res, err,
                               sizeof err) != 0)
        return cli_fail("bench --peer boost n=%llu: %s", (unsigned long long)d->n, err);
    char why[160];
    if (cli_verify_sort(&d->expected, d->work, NULL, 0, d->n, why, sizeof why) != 0)
        return cli_fail("bench: %s n=%llu: result is wrong: %s", PEER_ALGO,
                        (unsigned long long)d->n, why);
    snprintf(peer_device, sizeof peer_device, "%s", res.device);
    x->algo = x->ran = PEER_ALGO;
    x->values = "none";
    x->scan = res.device_timed ? PEER_EVENTS : PEER_HOSTCLOCK;
    x->n = d->n;
    x->median_ms = res.median_ms;
    x->mkeys_per_s = res.median_ms > 0 ? (double)d->n / (res.median_ms * 1e3) : 0.0;
    x->backend = "opencl";
    x->device = peer_device;
    return 0;
}
#endif

/* ---- the command --------------------------------------------------------------- */


/* The table's rows so far: its backend and device, and the measurements. */
typedef struct bench_rows {
    const char *backend, *device;
    cli_measurement *m;
    size_t count;
} bench_rows;

/* Every configuration at d's n, each row printed as it is measured: the peer
 * first (a failing peer stops the run before the long sorts), then the
 * combos, in groups of the value kinds of one algorithm and scan. */
static int measure_at(const bench_request *req, zesort_context *ctx, const bench_combo *combo,
                      int combos, bench_data *d, bench_rows *rows)
{
    int rc = 0;
#ifdef ZESORT_HAVE_BOOST_PEER
    if (req->peer_boost) {
        cli_measurement *x = &rows->m[rows->count];
        if ((rc = measure_peer(req, rows->device, d, x)) != 0)
            return rc;
        ++rows->count;
        cli_bench_print_row(req->report, rows->backend, rows->device, x);
    }
#endif
    const zesort_context_info info = cli_context_info(ctx);
    value_kind kinds[3];
    const int group = value_kinds(req, kinds);
    for (int c = 0; c < combos && rc == 0; c += group) {
        double ms[3];
        zesort_algo ran[3];
        uint64_t launches[3];
        if (above_small_limit(req, &info, &combo[c], d->n)) {
            fprintf(req->report, "(small: n = %llu is above its one-launch limit on this "
                                 "device; no row)\n", (unsigned long long)d->n);
            continue;
        }
        if ((rc = measure(req, ctx, &combo[c], group, d, ms, ran, launches)))
            break;
        for (int k = 0; k < group; ++k) {
            cli_measurement *x = &rows->m[rows->count++];
            x->algo = zesort_algo_name(combo[c + k].algo);
            x->ran = zesort_algo_name(ran[k]);
            x->scan = cli_scan_name(combo[c + k].scan);
            x->values = value_kind_names[combo[c + k].values];
            x->n = d->n;
            x->median_ms = ms[k];
            x->mkeys_per_s = ms[k] > 0 ? (double)d->n / (ms[k] * 1e3) : 0.0;
            x->launches = launches[k];
            cli_bench_print_row(req->report, rows->backend, rows->device, x);
        }
    }
    return rc;
}

static int run_bench(const bench_request *req)
{
    bench_combo combo[2 * 3 * MAX_LIST];
    int combos = build_combos(req, combo);
    size_t total = (size_t)(combos + 1) * (size_t)req->n_count; /* + 1: the peer */
    cli_measurement *m = calloc(total, sizeof *m);
    if (!m)
        return cli_fail("out of host memory");

    zesort_context *ctx = NULL;
    int rc = 0;
    zesort_status st = cli_create_for_kernels(req->backend, req->device, &ctx);
    if (st != ZESORT_OK) {
        rc = cli_fail_setup(req->backend, st);
        goto done;
    }
    if ((rc = probe_combos(req, ctx, combo, combos)))
        goto done;

    const zesort_context_info info = cli_context_info(ctx);
    const char *backend = zesort_backend_name(info.backend);
    const char *device = info.device;
    const char *flavor = info.flavor;
    cli_bench_print_header(req, ctx);

    bench_rows rows = {backend, device, m, 0};
    for (int i = 0; i < req->n_count && rc == 0; ++i) {
        bench_data d;
        if ((rc = make_data(req, req->n[i], &d)))
            break;
        rc = measure_at(req, ctx, combo, combos, &d, &rows);
        free_data(&d);
    }
    const size_t done_count = rows.count;
    if (rc)
        goto done;
    cli_bench_print_ratios(req, combo, combos, m, done_count);
    if (req->csv_path && (rc = cli_bench_write_csv(req, backend, device, flavor, m, done_count)))
        goto done;
    if (req->plot_path) {
        char title[256];
        snprintf(title, sizeof title, "zesort %s%s sort on %s (%s)", cli_key_type_name(req->type),
                 req->pairs ? " pairs" : "", device, backend);
        rc = cli_plot_png(req->plot_path, m, done_count, title);
    }
done:
    zesort_destroy(ctx);
    free(m);
    return rc;
}

int cli_cmd_bench(int argc, char **argv)
{
    bench_request req;
    int rc = cli_bench_parse_args(argc, argv, &req);
    if (rc)
        return rc;
    /* Checked first: a missing gnuplot must not waste a long benchmark. */
    if (req.plot_path && (rc = cli_plot_check()))
        return rc;
    if (req.segments) {
        /* the segmented benchmark: 16M keys unless --n says, the first n and
         * algorithm given (else the library's choice), keys only */
        const uint64_t n = req.n_given ? req.n[0] : UINT64_C(16777216);
        if ((rc = cli_check_host_memory(CMD, n, 3 * n * cli_key_size(req.type) + 8 * n)))
            return rc;
        return cli_bench_segments(req.backend, req.device, req.type,
                                  req.algo_given ? req.algo[0] : ZESORT_ALGO_AUTO, n, req.repeat,
                                  req.segments);
    }
    if (req.topk_text) {
        /* the top-k benchmark: 16M keys unless --n says, the first n */
        const uint64_t n = req.n_given ? req.n[0] : UINT64_C(16777216);
        if ((rc = cli_check_host_memory(CMD, n, 3 * n * cli_key_size(req.type) + 4 * n)))
            return rc;
        const cli_bench_topk_request q = {req.backend, req.device, req.type, req.input,
                                          req.descending, req.bit_lo, req.bit_hi, n,
                                          req.topk, req.repeat};
        return cli_bench_topk(&q);
    }
    if ((rc = check_host_memory(&req)))
        return rc;
    return run_bench(&req);
}
