/*
 * cmd_topk.c — `zesort topk INPUT K OUTPUT [--values VALUES_IN VALUES_OUT |
 * --indices INDICES_OUT] [--type T] [--descending] [--bits LO:HI]
 * [--segments OFFSETS] [--backend B]` (a contract): the K smallest
 * keys of a raw key file (the K largest with --descending), sorted, equal
 * keys in input order, with their u32 values or their u32 input positions.
 * With --segments, the top K of each segment, one after the other: each
 * segment's min(K, its length) results (a file has no fill value to pad a
 * short segment's row with; the offsets say where each segment's results
 * start), indices within the segment.
 *
 * The checks in the order of cmd_sort.c, so the exit code says what is
 * wrong: arguments (2), files (1), the library (UNSUPPORTED 2, else 1). Every
 * input is read and checked before any output is opened.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define CMD "topk"

typedef struct topk_request {
    const char *input, *k_text, *output;
    const char *values_in, *values_out, *indices_out, *segments, *bits_text;
    uint64_t k;
    zesort_backend backend;
    zesort_options opts;
} topk_request;

/* --values VALUES_IN VALUES_OUT: two operands after the flag. */
static int parse_values(cli_args *a, char **argv, topk_request *r)
{
    if (a->inline_value)
        return cli_usage(CMD, "--values takes two operands: --values VALUES_IN VALUES_OUT");
    if (a->pos + 2 > a->argc)
        return cli_usage(CMD, "--values needs two operands: VALUES_IN VALUES_OUT");
    int rc = cli_args_once(CMD, "--values", r->values_in);
    if (!rc) {
        r->values_in = argv[a->pos++];
        r->values_out = argv[a->pos++];
    }
    return rc;
}

/* One flag; its exit code when bad. */
static int parse_flag(cli_args *a, char **argv, topk_request *r)
{
    const char *f = a->flag, *v;
    int rc = 0;
    if (f[0] == '-' && f[1] >= '0' && f[1] <= '9') /* "-3" reads as a flag */
        return cli_usage(CMD, "bad K '%s': K cannot be negative", f);
    if (strcmp(f, "--values") == 0)
        return parse_values(a, argv, r);
    if (strcmp(f, "--indices") == 0)
        return (rc = cli_args_once(CMD, "--indices", r->indices_out))
                   ? rc : cli_args_value(a, CMD, &r->indices_out);
    if (strcmp(f, "--segments") == 0)
        return (rc = cli_args_once(CMD, "--segments", r->segments))
                   ? rc : cli_args_value(a, CMD, &r->segments);
    if (strcmp(f, "--bits") == 0)
        return cli_args_value(a, CMD, &r->bits_text);
    if (strcmp(f, "--descending") == 0) {
        r->opts.descending = 1;
        return cli_args_no_value(a, CMD);
    }
    if (strcmp(f, "--type") == 0) {
        if ((rc = cli_args_value(a, CMD, &v)))
            return rc;
        return cli_parse_key_type(v, &r->opts.key_type)
                   ? cli_usage(CMD, "unknown key type '%s' (u32, i32, f32, u64, i64, f64)", v)
                   : 0;
    }
    if (strcmp(f, "--backend") == 0) {
        if ((rc = cli_args_value(a, CMD, &v)))
            return rc;
        return cli_parse_backend(v, &r->backend)
                   ? cli_usage(CMD, "unknown backend '%s' (auto, level-zero, opencl, cpu)", v)
                   : 0;
    }
    return cli_usage(CMD, "unknown option '%s'", f);
}

/* What the operands and flags say together. */
static int check_request(topk_request *r)
{
    int rc;
    if (!r->input || !r->k_text || !r->output)
        return cli_usage(CMD, "missing operand%s: zesort topk INPUT K OUTPUT",
                         r->input ? (r->k_text ? " OUTPUT" : "s K and OUTPUT") : "s");
    if (r->k_text[0] == '-' || cli_parse_count(r->k_text, &r->k))
        return cli_usage(CMD, "bad K '%s': expected a count of keys (decimal digits, optionally "
                              "k, m or g: 1k = 1024)", r->k_text);
    if (r->values_in && r->indices_out)
        return cli_usage(CMD, "--values and --indices exclude each other");
    if ((rc = cli_args_path(CMD, "INPUT", r->input)) ||
        (rc = cli_args_path(CMD, "OUTPUT", r->output)) ||
        (rc = cli_args_path(CMD, "VALUES_IN", r->values_in)) ||
        (rc = cli_args_path(CMD, "VALUES_OUT", r->values_out)) ||
        (rc = cli_args_path(CMD, "INDICES_OUT", r->indices_out)) ||
        (rc = cli_args_path(CMD, "OFFSETS", r->segments)))
        return rc;
    const char *second = r->values_out ? r->values_out : r->indices_out;
    if (cli_is_std_stream(r->input) + cli_is_std_stream(r->values_in) +
            cli_is_std_stream(r->segments) > 1)
        return cli_usage(CMD, "only one of INPUT, VALUES_IN and OFFSETS can be '-' (standard "
                              "input)");
    if (second && cli_is_std_stream(r->output) && cli_is_std_stream(second))
        return cli_usage(CMD, "only one output can be '-' (standard output)");
    if (second && !cli_is_std_stream(second) && !cli_is_std_stream(r->output) &&
        cli_same_file(second, r->output) && !cli_is_special_file(r->output))
        return cli_usage(CMD, "OUTPUT and %s must be different files",
                         r->values_out ? "VALUES_OUT" : "INDICES_OUT");
    const unsigned key_bits = cli_key_bits(r->opts.key_type);
    r->opts.bit_lo = 0;
    r->opts.bit_hi = key_bits;
    if (r->bits_text && cli_parse_bits(r->bits_text, key_bits, &r->opts.bit_lo, &r->opts.bit_hi))
        return cli_usage(CMD, "bad --bits '%s': expected LO:HI with 0 <= LO < HI <= %u for %s keys",
                         r->bits_text, key_bits, cli_key_type_name(r->opts.key_type));
    return 0;
}

static int parse_topk_args(int argc, char **argv, topk_request *r)
{
    memset(r, 0, sizeof *r);
    zesort_options_default(&r->opts);
    r->backend = ZESORT_BACKEND_AUTO;
    cli_args a;
    cli_args_init(&a, argc, argv);
    const char *operand;
    int kind, rc, operands = 0;
    while ((kind = cli_args_next(&a, &operand)) != CLI_ARG_END) {
        if (kind == CLI_ARG_FLAG) {
            if ((rc = parse_flag(&a, argv, r)))
                return rc;
            continue;
        }
        const char **slot[] = {&r->input, &r->k_text, &r->output};
        if (operands >= 3)
            return cli_usage(CMD, "unexpected operand '%s'", operand);
        *slot[operands++] = operand;
    }
    return check_request(r);
}

/* Inputs: at most half the host memory available (the top-k's own copies
 * need room too), read and checked before anything is written. */
typedef struct topk_inputs {
    void *keys, *values;
    uint64_t n, *offsets, segments;
    uint64_t room;
} topk_inputs;

static int fits(void *arg, const char *path, uint64_t bytes)
{
    const topk_inputs *in = arg;
    if (bytes > in->room)
        return cli_fail("cannot read '%s': more than %.2f GiB of data, half of the host memory "
                        "available", path, (double)in->room / (1u << 30));
    return 0;
}

static int read_topk_inputs(const topk_request *r, topk_inputs *in)
{
    memset(in, 0, sizeof *in);
    in->room = cli_host_memory_available() / 2;
    cli_read_limit lim = {in->room + 1, fits, in};
    size_t bytes = 0, vbytes = 0;
    const size_t ks = cli_key_size(r->opts.key_type);
    int rc = cli_read_input(r->input, &lim, &in->keys, &bytes);
    if (rc)
        return rc;
    if (bytes % ks)
        return cli_fail("'%s' has %zu bytes, not a multiple of %zu (the size of a %s key)",
                        r->input, bytes, ks, cli_key_type_name(r->opts.key_type));
    in->n = bytes / ks;
    in->room -= bytes < in->room ? bytes : in->room;
    if (r->values_in) {
        if ((rc = cli_read_input(r->values_in, &lim, &in->values, &vbytes)))
            return rc;
        if (vbytes % 4 || vbytes / 4 != in->n)
            return cli_fail("'%s' holds %zu bytes; expected %llu: one u32 value (4 bytes) for "
                            "each of the %llu keys of '%s'",
                            r->values_in, vbytes, (unsigned long long)in->n * 4,
                            (unsigned long long)in->n, r->input);
        in->room -= vbytes < in->room ? vbytes : in->room;
    }
    if (r->segments)
        return cli_read_offsets(r->segments, in->n, in->room, &in->offsets, &in->segments);
    return 0;
}

/* The results: keys, and values or indices (u32), as written. */
typedef struct topk_results {
    void *keys, *second;
    uint64_t count; /* results in each */
} topk_results;

/* Moves each segment's min(k, len) results of rows of k to the front. */
static void pack_rows(const topk_inputs *in, uint64_t k, size_t kb, topk_results *res)
{
    uint64_t at = 0;
    for (uint64_t i = 0; i < in->segments; i++) {
        const uint64_t len = in->offsets[i + 1] - in->offsets[i], m = k < len ? k : len;
        memmove((char *)res->keys + at * kb, (char *)res->keys + i * k * kb, (size_t)(m * kb));
        if (res->second)
            memmove((char *)res->second + at * 4, (char *)res->second + i * k * 4,
                    (size_t)(m * 4));
        at += m;
    }
    res->count = at;
}

static zesort_status run_topk(zesort_context *ctx, const topk_request *r, const topk_inputs *in,
                              topk_results *res)
{
    const size_t kb = cli_key_size(r->opts.key_type);
    uint64_t k = r->k, rows = 1;
    if (in->offsets) { /* rows no longer than the longest segment: same results */
        uint64_t longest = 0;
        for (uint64_t i = 0; i < in->segments; i++)
            if (in->offsets[i + 1] - in->offsets[i] > longest)
                longest = in->offsets[i + 1] - in->offsets[i];
        k = k < longest ? k : longest;
        rows = in->segments;
    } else {
        k = k < in->n ? k : in->n;
    }
    const size_t count = (size_t)(rows * k);
    res->keys = malloc(count ? count * kb : 1);
    res->second = r->values_out || r->indices_out ? malloc(count ? count * 4 : 1) : NULL;
    if (!res->keys || ((r->values_out || r->indices_out) && !res->second))
        return ZESORT_ERROR_OUT_OF_HOST_MEMORY;
    void *vo = r->values_out ? res->second : NULL, *io = r->indices_out ? res->second : NULL;
    zesort_desc d = cli_desc(ZESORT_TOPK, &r->opts, in->values != NULL);
    d.keys_in = in->keys;
    d.values_in = in->values;
    d.keys = res->keys;
    d.values = vo;
    d.indices = io;
    d.n = in->n;
    d.k = k;
    d.offsets = in->offsets; /* NULL: the top k of all the keys */
    d.num_segments = in->offsets ? in->segments : 0;
    zesort_status st = zesort_run(ctx, &d);
    res->count = count;
    if (st == ZESORT_OK && in->offsets)
        pack_rows(in, k, kb, res);
    return st;
}

/* Both outputs written and committed together, or neither. */
static int write_outputs(const topk_request *r, const topk_results *res)
{
    cli_output a, b;
    const char *second = r->values_out ? r->values_out : r->indices_out;
    const size_t kb = cli_key_size(r->opts.key_type);
    int rc = cli_output_open(&a, r->output);
    if (rc)
        return rc;
    if (second && (rc = cli_output_open(&b, second))) {
        cli_output_abort(&a);
        return rc;
    }
    rc = cli_output_write(&a, res->keys, (size_t)res->count * kb);
    if (!rc)
        rc = cli_output_close(&a);
    if (!rc && second && !(rc = cli_output_write(&b, res->second, (size_t)res->count * 4)))
        rc = cli_output_close(&b);
    if (!rc)
        rc = second ? cli_output_commit_pair(&a, &b) : cli_output_commit(&a);
    cli_output_abort(&a);
    if (second)
        cli_output_abort(&b);
    return rc;
}

int cli_cmd_topk(int argc, char **argv)
{
    topk_request r;
    int rc = parse_topk_args(argc, argv, &r);
    if (rc)
        return rc;
    topk_inputs in;
    topk_results res = {0};
    zesort_context *ctx = NULL;
    rc = read_topk_inputs(&r, &in);
    if (!rc) {
        zesort_status st = cli_create(r.backend, -1, &ctx);
        if (st != ZESORT_OK) {
            rc = cli_fail_setup(r.backend, st);
        } else if ((st = run_topk(ctx, &r, &in, &res)) != ZESORT_OK) {
            cli_signals_reclaim();
            rc = st == ZESORT_ERROR_OUT_OF_HOST_MEMORY && !zesort_last_error(ctx)[0]
                     ? cli_fail("out of host memory for the results")
                     : cli_fail_status(CMD, st, ctx);
        } else {
            cli_signals_reclaim();
            rc = write_outputs(&r, &res);
        }
    }
    zesort_destroy(ctx);
    free(in.keys), free(in.values), free(in.offsets), free(res.keys), free(res.second);
    return rc;
}
