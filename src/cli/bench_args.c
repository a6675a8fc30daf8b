/*
 * bench_args.c — the arguments of `zesort bench`: each flag's value, and what
 * the flags mean together.
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"

static const char CMD[] = "bench";

/* One entry of --n: req->n[i]. Returns 0 or the usage error's exit code. */
static int parse_n_entry(bench_request *req, int i, const char *piece)
{
    if (cli_parse_count(piece, &req->n[i]) || req->n[i] == 0 || req->n[i] > ZESORT_MAX_KEYS)
        return cli_usage(CMD, "bad --n value '%s': expected a count from 1 to %llu "
                         "(suffix k, m, g allowed)", piece, (unsigned long long)ZESORT_MAX_KEYS);
    return 0;
}

/* One entry of --algo: req->algo[i], not one of the entries before it. */
static int parse_algo_entry(bench_request *req, int i, const char *piece)
{
    if (cli_parse_algo(piece, &req->algo[i]))
        return cli_usage(CMD, "unknown algorithm '%s' (cm2, cm4, onesweep, small, auto)", piece);
    for (int j = 0; j < i; ++j) {
        if (req->algo[j] == req->algo[i])
            return cli_usage(CMD, "algorithm '%s' given twice", piece);
    }
    return 0;
}

/* The list `text` of flag (--n, --algo): at most MAX_LIST entries, each
 * parsed by parse_entry, then their number into *count. Returns 0 or the
 * usage error's exit code (reported). */
static int parse_list(const char *flag, const char *text, bench_request *req,
                      int (*parse_entry)(bench_request *, int, const char *), int *count)
{
    char storage[512];
    const char *piece[MAX_LIST];
    if (strlen(text) >= sizeof storage)
        return cli_usage(CMD, "%s list too long", flag);
    int n = cli_split_list(text, storage, piece, MAX_LIST);
    if (n == -2)
        return cli_usage(CMD, "bad %s list '%s': at most %d entries", flag, text, MAX_LIST);
    if (n < 0)
        return cli_usage(CMD, "bad %s list '%s': empty entry", flag, text);
    for (int i = 0; i < n; ++i) {
        int rc = parse_entry(req, i, piece[i]);
        if (rc)
            return rc;
    }
    *count = n;
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
    req->report = csv_out || plot_out ? stderr : stdout;
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
        if ((rc = parse_list(f, v, req, parse_n_entry, &req->n_count)))
            return rc;
        req->n_given = 1;
    } else if (strcmp(f, "--algo") == 0) {
        if ((rc = parse_list(f, v, req, parse_algo_entry, &req->algo_count)))
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

int cli_bench_parse_args(int argc, char **argv, bench_request *req)
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
