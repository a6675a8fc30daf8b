/*
 * cmd_bench.c — `zesort bench`: device time of whole sorts of uniform random
 * keys for every algorithm × n × scan mode, median of --repeat runs after one
 * warm-up, each result verified before it is reported. Prints a table and the
 * speed ratios (the 2-bit vs 4-bit comparison is a product feature, docs/design.md
 * §1.1), and optionally writes a CSV and a PNG plot. With --peer boost it also
 * times Boost.Compute's sort on the same data (bench/peer_boost.h, built only
 * when Boost is found) and prints zesort's speed over the peer's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#ifdef ZESORT_HAVE_BOOST_PEER
#include "peer_boost.h"
#endif

static const char CMD[] = "bench";

enum { MAX_LIST = 32 };
#define BENCH_SEED UINT64_C(0x5EED2024)
/* Beyond this n a host reference copy + qsort costs more than it is worth;
 * a multiset checksum proves the permutation instead. */
#define REFERENCE_MAX_N (UINT64_C(1) << 24)

typedef struct bench_request {
    uint64_t n[MAX_LIST];
    int n_count;
    zesort_algo algo[MAX_LIST];
    int algo_count;
    zesort_scan scan[2];
    int scan_count; /* 0: default (host+device for cm2/cm4, device otherwise) */
    zesort_key_type type;
    int pairs;
    int value_type_set; /* --value-type given */
    zesort_value_type value_type; /* of --pairs: u32 (default), u64 */
    zesort_backend backend;
    int64_t device; /* --device, -1: the backend's choice */
    int repeat;
    const char *csv_path;
    const char *plot_path;
    int peer_boost; /* --peer boost: also time boost::compute::sort */
    const char *segments; /* --segments LEN[,LEN...]|ragged: bench_segments.c instead */
    int n_given, algo_given;
    cli_input_kind input; /* --input: the keys sorted */
    int descending;       /* --descending */
    const char *bits_text; /* --bits LO:HI, parsed once --type is known */
    unsigned bit_lo, bit_hi;
    const char *topk_text; /* --topk K: bench_topk.c instead */
    uint64_t topk;
} bench_request;

/* Where the table and the ratios go: stdout, or stderr when --csv or --plot
 * writes to standard output ('-'), so that the file there stays clean. */
static FILE *report;

/* The name of the peer's rows (algo column) and the values of their scan
 * column, which says how the peer was timed. */
static const char PEER_ALGO[] = "boost-compute";
#define PEER_EVENTS "events"       /* OpenCL profiling events: device time */
#define PEER_HOSTCLOCK "hostclock" /* host clock around sort + clFinish */

/* ---- arguments --------------------------------------------------------------- */

static int parse_n_list(const char *text, bench_request *req)
{
    char storage[512];
    const char *piece[MAX_LIST];
    if (strlen(text) >= sizeof storage)
        return cli_usage(CMD, "--n list too long");
    int count = cli_split_list(text, storage, piece, MAX_LIST);
    if (count == -2)
        return cli_usage(CMD, "bad --n list '%s': at most %d entries", text, MAX_LIST);
    if (count < 0)
        return cli_usage(CMD, "bad --n list '%s': empty entry", text);
    for (int i = 0; i < count; ++i) {
        if (cli_parse_count(piece[i], &req->n[i]) || req->n[i] == 0 ||
            req->n[i] > ZESORT_MAX_KEYS)
            return cli_usage(CMD, "bad --n value '%s': expected a count from 1 to %llu "
                             "(suffix k, m, g allowed)", piece[i],
                             (unsigned long long)ZESORT_MAX_KEYS);
    }
    req->n_count = count;
    return 0;
}

static int parse_algo_list(const char *text, bench_request *req)
{
    char storage[512];
    const char *piece[MAX_LIST];
    if (strlen(text) >= sizeof storage)
        return cli_usage(CMD, "--algo list too long");
    int count = cli_split_list(text, storage, piece, MAX_LIST);
    if (count == -2)
        return cli_usage(CMD, "bad --algo list '%s': at most %d entries", text, MAX_LIST);
    if (count < 0)
        return cli_usage(CMD, "bad --algo list '%s': empty entry", text);
    for (int i = 0; i < count; ++i) {
        if (cli_parse_algo(piece[i], &req->algo[i]))
            return cli_usage(CMD, "unknown algorithm '%s' (cm2, cm4, onesweep, small, auto)", piece[i]);
        for (int j = 0; j < i; ++j) {
            if (req->algo[j] == req->algo[i])
                return cli_usage(CMD, "algorithm '%s' given twice", piece[i]);
        }
    }
    req->algo_count = count;
    return 0;
}

static int parse_scan_list(const char *text, bench_request *req)
{
    char storage[64];
    const char *piece[2];
    int count = strlen(text) < sizeof storage ? cli_split_list(text, storage, piece, 2) : -1;
    if (count < 0)
        return cli_usage(CMD, "bad --scan list '%s' (host, device or host,device)", text);
    for (int i = 0; i < count; ++i) {
        if (cli_parse_scan(piece[i], &req->scan[i]))
            return cli_usage(CMD, "unknown scan mode '%s' (host, device)", piece[i]);
    }
    if (count == 2 && req->scan[0] == req->scan[1])
        return cli_usage(CMD, "scan mode '%s' given twice", piece[0]);
    req->scan_count = count;
    return 0;
}

static int takes_value(const char *flag)
{
    static const char *const flags[] = {"--n",      "--algo",   "--scan",  "--type",
                                        "--backend", "--repeat", "--csv",   "--plot",
                                        "--peer",   "--device", "--value-type", "--segments",
                                        "--bits",   "--input",  "--topk"};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; ++i) {
        if (strcmp(flag, flags[i]) == 0)
            return 1;
    }
    return 0;
}

/* What the flags mean together, once all are read. */
static int check_bench_args(bench_request *req)
{
    int rc;
    unsigned key_bits = cli_key_bits(req->type);
    req->bit_lo = 0;
    req->bit_hi = key_bits;
    if (req->bits_text && cli_parse_bits(req->bits_text, key_bits, &req->bit_lo, &req->bit_hi))
        return cli_usage(CMD, "bad --bits '%s': expected LO:HI with 0 <= LO < HI <= %u for %s keys",
                         req->bits_text, key_bits, cli_key_type_name(req->type));
    int shaped = req->bits_text || req->descending || req->input != CLI_INPUT_RANDOM;
    if (req->topk_text && (req->segments || req->pairs || req->peer_boost))
        return cli_usage(CMD, "--topk times keys only against the full sort: no --segments, "
                              "--pairs, --value-type or --peer with it");
    if (req->segments && shaped)
        return cli_usage(CMD, "--segments times random keys, ascending, all bits: no --bits, "
                              "--descending or --input with it");
    /* Two files, or stdout twice: one would replace or garble the other
     * (both to /dev/null is fine). */
    int csv_out = req->csv_path && strcmp(req->csv_path, "-") == 0;
    int plot_out = req->plot_path && strcmp(req->plot_path, "-") == 0;
    if (csv_out && plot_out)
        return cli_usage(CMD, "--csv and --plot cannot both write to standard output ('-')");
    if (req->csv_path && req->plot_path && !csv_out && !plot_out &&
        cli_same_file(req->csv_path, req->plot_path) && !cli_is_special_file(req->csv_path))
        return cli_usage(CMD, "--csv and --plot must be different files");
    report = csv_out || plot_out ? stderr : stdout;
    if ((rc = cli_check_device_backend(CMD, req->backend, req->device)))
        return rc;
    if (req->peer_boost) {
#ifndef ZESORT_HAVE_BOOST_PEER
        return cli_usage(CMD, "built without the Boost.Compute peer (install libboost-dev and "
                              "rebuild)");
#endif
        if (req->type != ZESORT_KEY_U32 || req->pairs)
            return cli_usage(CMD, "--peer boost times u32 keys only (no --type other than u32, "
                                  "no --pairs)");
        if (req->bits_text || req->descending)
            return cli_usage(CMD, "--peer boost sorts all bits ascending (no --bits, "
                                  "--descending)");
    }
    return 0;
}

/* One flag that takes a value (takes_value), with its value v. Returns 0 or
 * the usage error's exit code (reported). */
static int parse_value_flag(bench_request *req, const char *f, const char *v)
{
    int rc;
    if (strcmp(f, "--n") == 0) {
        if ((rc = parse_n_list(v, req)))
            return rc;
        req->n_given = 1;
    } else if (strcmp(f, "--algo") == 0) {
        if ((rc = parse_algo_list(v, req)))
            return rc;
        req->algo_given = 1;
    } else if (strcmp(f, "--segments") == 0) {
        if ((rc = cli_args_once(CMD, f, req->segments)) || (rc = cli_bench_segments_check(v)))
            return rc;
        req->segments = v;
    } else if (strcmp(f, "--topk") == 0) {
        if ((rc = cli_args_once(CMD, f, req->topk_text)))
            return rc;
        if (v[0] == '-' || cli_parse_count(v, &req->topk))
            return cli_usage(CMD, "bad --topk '%s': expected a count of keys", v);
        req->topk_text = v;
    } else if (strcmp(f, "--scan") == 0) {
        if ((rc = parse_scan_list(v, req)))
            return rc;
    } else if (strcmp(f, "--type") == 0) {
        if (cli_parse_key_type(v, &req->type))
            return cli_usage(CMD, "unknown key type '%s' (u32, i32, f32, u64, i64, f64, u8, i8, u16, i16, f16, bf16)", v);
    } else if (strcmp(f, "--value-type") == 0) {
        if (cli_parse_value_type(v, &req->value_type))
            return cli_usage(CMD, "unknown value type '%s' (u32, u64)", v);
        req->pairs = req->value_type_set = 1;
    } else if (strcmp(f, "--backend") == 0) {
        if (cli_parse_backend(v, &req->backend))
            return cli_usage(CMD, "unknown backend '%s' (auto, level-zero, opencl, cpu)", v);
    } else if (strcmp(f, "--repeat") == 0) {
        uint64_t r;
        if (cli_parse_count(v, &r) || r < 1 || r > 1000)
            return cli_usage(CMD, "bad --repeat '%s': expected 1 to 1000", v);
        req->repeat = (int)r;
    } else if (strcmp(f, "--csv") == 0) {
        if ((rc = cli_args_once(CMD, f, req->csv_path)) || (rc = cli_args_path(CMD, f, v)))
            return rc;
        req->csv_path = v;
    } else if (strcmp(f, "--bits") == 0) {
        if ((rc = cli_args_once(CMD, f, req->bits_text)))
            return rc;
        req->bits_text = v;
    } else if (strcmp(f, "--input") == 0) {
        if (cli_parse_input_kind(v, &req->input))
            return cli_usage(CMD, "unknown --input '%s' (random, sorted, reversed, few, "
                                  "equal, top-bits)", v);
    } else if (strcmp(f, "--peer") == 0) {
        if (strcmp(v, "boost") != 0 && strcmp(v, PEER_ALGO) != 0)
            return cli_usage(CMD, "unknown peer '%s' (boost)", v);
        req->peer_boost = 1;
    } else { /* --plot */
        if ((rc = cli_args_once(CMD, f, req->plot_path)) || (rc = cli_args_path(CMD, f, v)))
            return rc;
        req->plot_path = v;
    }
    return 0;
}

static int parse_bench_args(int argc, char **argv, bench_request *req)
{
    memset(req, 0, sizeof *req);
    req->n[0] = UINT64_C(1048576);
    req->n[1] = UINT64_C(4194304);
    req->n_count = 2;
    req->algo[0] = ZESORT_ALGO_CM2;
    req->algo[1] = ZESORT_ALGO_CM4;
    req->algo[2] = ZESORT_ALGO_ONESWEEP;
    req->algo_count = 3;
    req->type = ZESORT_KEY_U32;
    req->backend = ZESORT_BACKEND_AUTO;
    req->device = -1;
    req->repeat = 5;

    cli_args a;
    cli_args_init(&a, argc, argv);
    const char *operand, *v;
    int kind, rc;
    while ((kind = cli_args_next(&a, &operand)) != CLI_ARG_END) {
        if (kind == CLI_ARG_OPERAND)
            return cli_usage(CMD, "unexpected operand '%s'", operand);
        const char *f = a.flag;
        if (strcmp(f, "--pairs") == 0 || strcmp(f, "--descending") == 0) {
            if ((rc = cli_args_no_value(&a, CMD)))
                return rc;
            if (strcmp(f, "--pairs") == 0)
                req->pairs = 1;
            else
                req->descending = 1;
            continue;
        }
        if (strcmp(f, "--device") == 0) {
            if ((rc = cli_parse_device(&a, CMD, &req->device)))
                return rc;
            continue;
        }
        if (!takes_value(f))
            return cli_usage(CMD, "unknown option '%s'", f);
        if ((rc = cli_args_value(&a, CMD, &v)))
            return rc;
        if ((rc = parse_value_flag(req, f, v)))
            return rc;
    }
    return check_bench_args(req);
}

/* ---- measuring ---------------------------------------------------------------- */

/* What moves with the keys in one measurement. --value-type u64 measures
 * the last three side by side: the cost of 8-byte values against 4-byte
 * ones, and against sorting u32 indices and then gathering the 8-byte
 * values by them. */
typedef enum value_kind { VALUES_NONE, VALUES_U32, VALUES_U64, VALUES_U32_GATHER } value_kind;
static const char *const value_kind_names[] = {"none", "u32", "u64", "u32+gather"};

/* One configuration to measure at every n. */
typedef struct bench_combo {
    zesort_algo algo;
    zesort_scan scan;
    value_kind values;
} bench_combo;

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

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

static double median(double *v, int count)
{
    qsort(v, (size_t)count, sizeof *v, cmp_double);
    return count % 2 ? v[count / 2] : 0.5 * (v[count / 2 - 1] + v[count / 2]);
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
        median_ms[k] = median(times + k * req->repeat, req->repeat);
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

/* ---- reporting ----------------------------------------------------------------- */

static void print_row(const char *backend, const char *device, const cli_measurement *m)
{
    if (m->backend)
        backend = m->backend;
    if (m->device)
        device = m->device;
    /* auto names what it ran: "auto(onesweep)" */
    char algo[64];
    if (strcmp(m->algo, m->ran) != 0)
        snprintf(algo, sizeof algo, "%s(%s)", m->algo, m->ran);
    else
        snprintf(algo, sizeof algo, "%s", m->algo);
    /* Device last and untruncated: driver names are long. */
    fprintf(report, "%-10s  %-14s  %-9s  %-10s  %11llu  %10.4f  %11.2f  %8llu  %s\n", backend,
            algo, m->scan, m->values, (unsigned long long)m->n, m->median_ms, m->mkeys_per_s,
            (unsigned long long)m->launches, device);
    fflush(report); /* rows appear as they are measured */
}

/* CSV field, quoted when it holds a comma, quote or line break (RFC 4180). */
static void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; ++s) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static int write_csv(const bench_request *req, const char *backend, const char *device,
                     const char *flavor, const cli_measurement *m, size_t count)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f)
        return cli_fail("out of host memory");
    fputs("backend,device,algo,type,pairs,n,median_ms,mkeys_per_s,scan,repeat,flavor,values,"
          "algo_ran,input,order,bits,launches\n", f);
    for (size_t i = 0; i < count; ++i) {
        csv_field(f, m[i].backend ? m[i].backend : backend);
        fputc(',', f);
        csv_field(f, m[i].device ? m[i].device : device);
        fprintf(f, ",%s,%s,%d,%llu,%.6f,%.3f,%s,%d,%s,%s,%s,%s,%s,%u:%u,%llu\n", m[i].algo,
                cli_key_type_name(req->type), req->pairs, (unsigned long long)m[i].n,
                m[i].median_ms, m[i].mkeys_per_s, m[i].scan, req->repeat,
                m[i].backend ? "n/a" : flavor, m[i].values, m[i].ran,
                cli_input_kind_name(req->input), req->descending ? "descending" : "ascending",
                req->bit_lo, req->bit_hi, (unsigned long long)m[i].launches);
    }
    if (fclose(f) != 0) {
        free(text);
        return cli_fail("out of host memory");
    }
    int rc = cli_write_file_atomic(req->csv_path, text, size);
    free(text);
    return rc;
}

/* The measurement of (algo, scan, n) with the request's first value kind,
 * or with `values` when not NULL. */
static const cli_measurement *find_values(const cli_measurement *m, size_t count,
                                          const char *algo, const char *scan, uint64_t n,
                                          const char *values)
{
    for (size_t i = 0; i < count; ++i) {
        if (m[i].n == n && strcmp(m[i].algo, algo) == 0 && strcmp(m[i].scan, scan) == 0 &&
            (!values || strcmp(m[i].values, values) == 0))
            return &m[i];
    }
    return NULL;
}

static const cli_measurement *find(const cli_measurement *m, size_t count, const char *algo,
                                   const char *scan, uint64_t n)
{
    return find_values(m, count, algo, scan, n, NULL);
}

/* --value-type u64: 8-byte values against 4-byte ones and against u32
 * indices + gather, per algorithm, scan and n (time ratios: over 1 is
 * slower). */
static void print_value_ratios(const bench_request *req, const bench_combo *combo, int combos,
                               const cli_measurement *m, size_t count)
{
    int printed = 0;
    for (int c = 0; c < combos; ++c) {
        if (combo[c].values != VALUES_U64)
            continue;
        const char *algo = zesort_algo_name(combo[c].algo), *scan = cli_scan_name(combo[c].scan);
        for (int i = 0; i < req->n_count; ++i) {
            const cli_measurement *x = find_values(m, count, algo, scan, req->n[i], "u64");
            const cli_measurement *y = find_values(m, count, algo, scan, req->n[i], "u32");
            const cli_measurement *g = find_values(m, count, algo, scan, req->n[i], "u32+gather");
            if (!x || !y || !g || y->median_ms <= 0 || g->median_ms <= 0)
                continue;
            if (!printed++)
                fprintf(report, "\ncost of 8-byte values (time of u64 values over u32 values, "
                                "and over sorting u32 indices then gathering u64 values):\n");
            fprintf(report, "  %-8s scan=%-6s n=%-11llu  u64/u32 %.2fx   u64/(u32+gather) %.2fx\n",
                    algo, scan, (unsigned long long)req->n[i], x->median_ms / y->median_ms,
                    x->median_ms / g->median_ms);
        }
    }
}

/* Speed ratios: every algorithm against the first one given (cm4/cm2 by
 * default) per scan mode and n, then device scan against host scan. */
static void print_ratios(const bench_request *req, const cli_measurement *m, size_t count)
{
    static const char *const scans[] = {"host", "device"};
    int printed = 0;
    const char *base = zesort_algo_name(req->algo[0]);
    for (int a = 1; a < req->algo_count; ++a) {
        const char *algo = zesort_algo_name(req->algo[a]);
        for (int s = 0; s < 2; ++s) {
            for (int i = 0; i < req->n_count; ++i) {
                const cli_measurement *x = find(m, count, algo, scans[s], req->n[i]);
                const cli_measurement *y = find(m, count, base, scans[s], req->n[i]);
                if (!x || !y || y->mkeys_per_s <= 0)
                    continue;
                if (!printed++)
                    fprintf(report, "\nspeed ratios (Mkeys/s of the first over the second):\n");
                fprintf(report, "  %s/%s  scan=%-6s  n=%-11llu  %.2fx\n", algo, base, scans[s],
                       (unsigned long long)req->n[i], x->mkeys_per_s / y->mkeys_per_s);
            }
        }
    }
    for (int a = 0; a < req->algo_count; ++a) {
        const char *algo = zesort_algo_name(req->algo[a]);
        for (int i = 0; i < req->n_count; ++i) {
            const cli_measurement *d = find(m, count, algo, "device", req->n[i]);
            const cli_measurement *h = find(m, count, algo, "host", req->n[i]);
            if (!d || !h || h->mkeys_per_s <= 0)
                continue;
            if (!printed++)
                fprintf(report, "\nspeed ratios (Mkeys/s of the first over the second):\n");
            fprintf(report, "  %s device-scan/host-scan  n=%-11llu  %.2fx\n", algo,
                   (unsigned long long)req->n[i], d->mkeys_per_s / h->mkeys_per_s);
        }
    }
}

/* zesort over the peer: every zesort measurement against the peer's at its n. */
static void print_peer_ratios(const cli_measurement *m, size_t count)
{
    int printed = 0;
    for (size_t i = 0; i < count; ++i) {
        if (strcmp(m[i].algo, PEER_ALGO) == 0)
            continue;
        const cli_measurement *p = NULL;
        for (size_t j = 0; j < count && !p; ++j) {
            if (strcmp(m[j].algo, PEER_ALGO) == 0 && m[j].n == m[i].n)
                p = &m[j];
        }
        if (!p || p->mkeys_per_s <= 0)
            continue;
        if (!printed++)
            fprintf(report, "\nspeed ratios against the peer (Mkeys/s of zesort over %s's sort, "
                            "timed by %s):\n", PEER_ALGO,
                    strcmp(p->scan, PEER_EVENTS) == 0 ? "profiling events" : "host clock");
        fprintf(report, "  %-8s scan=%-6s / %s  n=%-11llu  %.2fx\n", m[i].algo, m[i].scan,
                PEER_ALGO, (unsigned long long)m[i].n, m[i].mkeys_per_s / p->mkeys_per_s);
    }
}

/* ---- the command --------------------------------------------------------------- */

/* What is measured, where, and the table's column names. */
static void print_header(const bench_request *req, zesort_context *ctx)
{
    const zesort_context_info info = cli_context_info(ctx);
    fprintf(report, "zesort bench: %s keys%s, input %s, %s, bits %u:%u, backend %s, device %u: "
                    "%s, kernel flavor %s, median of %d after a warm-up\n",
            cli_key_type_name(req->type),
            !req->pairs ? "" : req->value_type == ZESORT_VALUE_U64
                                   ? " + values (u32, u64, u32 indices + host gather of u64)"
                                   : " + u32 values",
            cli_input_kind_name(req->input), req->descending ? "descending" : "ascending",
            req->bit_lo, req->bit_hi, zesort_backend_name(info.backend), info.device_index,
            info.device, info.flavor, req->repeat);
    fprintf(report, "%-10s  %-14s  %-9s  %-10s  %11s  %10s  %11s  %8s  %s\n", "backend",
            "algo", "scan", "values", "n", "median_ms", "mkeys_per_s", "launches", "device");
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
    print_header(req, ctx);

    size_t done_count = 0;
    for (int i = 0; i < req->n_count && rc == 0; ++i) {
        bench_data d;
        if ((rc = make_data(req, req->n[i], &d)))
            break;
#ifdef ZESORT_HAVE_BOOST_PEER
        /* The peer first: a failing peer stops the run before the long sorts. */
        if (req->peer_boost) {
            cli_measurement *x = &m[done_count];
            if ((rc = measure_peer(req, device, &d, x)) != 0) {
                free_data(&d);
                break;
            }
            ++done_count;
            print_row(backend, device, x);
        }
#endif
        /* combos come in groups of the value kinds of one algorithm and scan */
        value_kind kinds[3];
        const int group = value_kinds(req, kinds);
        for (int c = 0; c < combos && rc == 0; c += group) {
            double ms[3];
            zesort_algo ran[3];
            uint64_t launches[3];
            if (above_small_limit(req, &info, &combo[c], req->n[i])) {
                fprintf(report, "(small: n = %llu is above its one-launch limit on this device; "
                                "no row)\n", (unsigned long long)req->n[i]);
                continue;
            }
            if ((rc = measure(req, ctx, &combo[c], group, &d, ms, ran, launches)))
                break;
            for (int k = 0; k < group; ++k) {
                cli_measurement *x = &m[done_count++];
                x->algo = zesort_algo_name(combo[c + k].algo);
                x->ran = zesort_algo_name(ran[k]);
                x->scan = cli_scan_name(combo[c + k].scan);
                x->values = value_kind_names[combo[c + k].values];
                x->n = req->n[i];
                x->median_ms = ms[k];
                x->mkeys_per_s = ms[k] > 0 ? (double)req->n[i] / (ms[k] * 1e3) : 0.0;
                x->launches = launches[k];
                print_row(backend, device, x);
            }
        }
        free_data(&d);
    }
    if (rc)
        goto done;
    print_ratios(req, m, done_count);
    print_peer_ratios(m, done_count);
    print_value_ratios(req, combo, combos, m, done_count);
    if (req->csv_path && (rc = write_csv(req, backend, device, flavor, m, done_count)))
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
    int rc = parse_bench_args(argc, argv, &req);
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
