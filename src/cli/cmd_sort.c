/*
 * cmd_sort.c — `zesort sort INPUT OUTPUT [options]`: sorts a raw little-endian
 * key file (and optionally a values file of u32 or u64 moved along) with the
 * library, writing the outputs atomically; and `zesort argsort INPUT
 * INDICES_OUT [--keys-out KEYS_OUT] [options]`, the stable permutation (u32
 * or u64 indices) and optionally the sorted keys. One reader, one writer
 * and one set of checks serve both: an argsort is a sort whose first output
 * is the indices and whose values come from the device.
 *
 * Order of checks, so the exit code says what is wrong: arguments (usage, 2),
 * then files (1; a values file whose count differs from the keys' is a data
 * error too, docs/design.md §5.2), then the library (UNSUPPORTED: 2, anything
 * else: 1). The backend is created once INPUT's size is known (or, for a
 * stream, its first megabyte), because what it can sort limits the reading.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct sort_request {
    const char *cmd;     /* "sort" or "argsort" */
    int argsort;
    const char *input, *output;         /* argsort: output is INDICES_OUT */
    const char *values_in, *values_out; /* both NULL without --values */
    const char *keys_out;               /* argsort --keys-out, or NULL */
    const char *segments;               /* sort --segments OFFSETS, or NULL */
    zesort_backend backend;
    int64_t device; /* --device, -1: the backend's choice */
    cli_devices devices; /* --devices */
    zesort_options opts;
    const char *bits_text; /* checked once the key type is known */
} sort_request;

/* The flags only one of the two commands has; 1 when f was one of them. */
static int parse_own_flag(cli_args *a, char **argv, const char *f, sort_request *req, int *rc)
{
    const char *CMD = req->cmd, *v;
    if (!req->argsort && strcmp(f, "--values") == 0) {
        /* Two values after the flag; "--values=IN" would leave OUT ambiguous. */
        if (a->inline_value)
            *rc = cli_usage(CMD, "--values takes two operands: --values VALUES_IN VALUES_OUT");
        else if (a->pos + 2 > a->argc)
            *rc = cli_usage(CMD, "--values needs two operands: VALUES_IN VALUES_OUT");
        else if (!(*rc = cli_args_once(CMD, "--values", req->values_in))) {
            req->values_in = argv[a->pos++];
            req->values_out = argv[a->pos++];
        }
    } else if (strcmp(f, req->argsort ? "--index-type" : "--value-type") == 0) {
        if (!(*rc = cli_args_value(a, CMD, &v)) && cli_parse_value_type(v, &req->opts.value_type))
            *rc = cli_usage(CMD, "unknown %s '%s' (u32, u64)",
                            req->argsort ? "index type" : "value type", v);
    } else if (!req->argsort && strcmp(f, "--segments") == 0) {
        if (!(*rc = cli_args_once(CMD, "--segments", req->segments)))
            *rc = cli_args_value(a, CMD, &req->segments);
    } else if (strcmp(f, "--devices") == 0) {
        if (req->devices.given)
            *rc = cli_usage(CMD, "--devices given twice");
        else
            *rc = cli_parse_devices(a, CMD, &req->devices);
    } else if (req->argsort && strcmp(f, "--keys-out") == 0) {
        if (!(*rc = cli_args_once(CMD, "--keys-out", req->keys_out)))
            *rc = cli_args_value(a, CMD, &req->keys_out);
    } else {
        return 0;
    }
    return 1;
}

/* "-" is standard input or output (sort(1)): each serves one file; and the
 * values pair may not be "-" on both sides (docs/design.md §5.2): "--values - -"
 * reads as one file named twice, which a pair never is. */
static int check_std_streams(const sort_request *req)
{
    const char *CMD = req->cmd;
    if (cli_is_std_stream(req->values_in) && cli_is_std_stream(req->values_out))
        return cli_usage(CMD, "--values: VALUES_IN and VALUES_OUT cannot both be '-'");
    if (cli_is_std_stream(req->input) + cli_is_std_stream(req->values_in) +
            cli_is_std_stream(req->segments) > 1)
        return cli_usage(CMD, "only one of INPUT, VALUES_IN and OFFSETS can be '-' (standard "
                              "input)");
    if (cli_is_std_stream(req->output) + cli_is_std_stream(req->values_out) > 1)
        return cli_usage(CMD, req->argsort ? "INDICES_OUT and KEYS_OUT cannot both be '-' "
                                             "(standard output)"
                                           : "OUTPUT and VALUES_OUT cannot both be '-' "
                                             "(standard output)");
    return 0;
}

static int parse_sort_args(int argc, char **argv, sort_request *req, int argsort)
{
    memset(req, 0, sizeof *req);
    req->cmd = argsort ? "argsort" : "sort";
    req->argsort = argsort;
    const char *CMD = req->cmd;
    zesort_options_default(&req->opts);
    req->opts.key_type = ZESORT_KEY_U32;
    req->backend = ZESORT_BACKEND_AUTO;
    req->device = -1;

    cli_args a;
    cli_args_init(&a, argc, argv);
    const char *operand, *v;
    int kind, rc, operands = 0;
    while ((kind = cli_args_next(&a, &operand)) != CLI_ARG_END) {
        if (kind == CLI_ARG_OPERAND) {
            if (operands == 0)
                req->input = operand;
            else if (operands == 1)
                req->output = operand;
            else
                return cli_usage(CMD, "unexpected operand '%s'", operand);
            ++operands;
            continue;
        }
        const char *f = a.flag;
        rc = 0;
        if (parse_own_flag(&a, argv, f, req, &rc)) {
            if (rc)
                return rc;
        } else if (strcmp(f, "--type") == 0) {
            if ((rc = cli_args_value(&a, CMD, &v)))
                return rc;
            if (cli_parse_key_type(v, &req->opts.key_type))
                return cli_usage(CMD, "unknown key type '%s' (u32, i32, f32, u64, i64, f64, u8, i8, u16, i16, f16, bf16)", v);
        } else if (strcmp(f, "--algo") == 0) {
            if ((rc = cli_args_value(&a, CMD, &v)))
                return rc;
            if (cli_parse_algo(v, &req->opts.algo))
                return cli_usage(CMD, "unknown algorithm '%s' (cm2, cm4, onesweep, small, auto)", v);
        } else if (strcmp(f, "--backend") == 0) {
            if ((rc = cli_args_value(&a, CMD, &v)))
                return rc;
            if (cli_parse_backend(v, &req->backend))
                return cli_usage(CMD, "unknown backend '%s' (auto, level-zero, opencl, cpu)", v);
        } else if (strcmp(f, "--device") == 0) {
            if ((rc = cli_parse_device(&a, CMD, &req->device)))
                return rc;
        } else if (strcmp(f, "--scan") == 0) {
            if ((rc = cli_args_value(&a, CMD, &v)))
                return rc;
            if (cli_parse_scan(v, &req->opts.scan))
                return cli_usage(CMD, "unknown scan mode '%s' (host, device)", v);
        } else if (strcmp(f, "--descending") == 0) {
            if ((rc = cli_args_no_value(&a, CMD)))
                return rc;
            req->opts.descending = 1;
        } else if (strcmp(f, "--ascending") == 0) {
            if ((rc = cli_args_no_value(&a, CMD)))
                return rc;
            req->opts.descending = 0;
        } else if (strcmp(f, "--bits") == 0) {
            if ((rc = cli_args_value(&a, CMD, &req->bits_text)))
                return rc;
        } else {
            return cli_usage(CMD, "unknown option '%s'", f);
        }
    }
    const char *out_name = argsort ? "INDICES_OUT" : "OUTPUT";
    if (!req->input)
        return cli_usage(CMD, "missing operands INPUT and %s", out_name);
    if (!req->output)
        return cli_usage(CMD, "missing operand %s", out_name);
    if (argsort) { /* the second output: the sorted keys, written like sort's values */
        req->values_out = req->keys_out;
    }
    if ((rc = cli_args_path(CMD, "INPUT", req->input)) ||
        (rc = cli_args_path(CMD, out_name, req->output)) ||
        (rc = cli_args_path(CMD, "VALUES_IN", req->values_in)) ||
        (rc = cli_args_path(CMD, argsort ? "KEYS_OUT" : "VALUES_OUT", req->values_out)) ||
        (rc = cli_args_path(CMD, "OFFSETS", req->segments)) ||
        (rc = check_std_streams(req)) ||
        (rc = cli_check_device_backend(CMD, req->backend, req->device)) ||
        (rc = cli_check_devices(CMD, req->backend, req->device, &req->devices)))
        return rc;

    unsigned key_bits = cli_key_bits(req->opts.key_type);
    /* Always explicit: the library default is "all bits", but spelling it out
     * keeps the CLI right for 64-bit keys whatever the default becomes. */
    req->opts.bit_lo = 0;
    req->opts.bit_hi = key_bits;
    if (req->bits_text &&
        cli_parse_bits(req->bits_text, key_bits, &req->opts.bit_lo, &req->opts.bit_hi))
        return cli_usage(CMD, "bad --bits '%s': expected LO:HI with 0 <= LO < HI <= %u for %s keys",
                         req->bits_text, key_bits, cli_key_type_name(req->opts.key_type));

    /* Both to /dev/null (or another device) is fine: nothing is replaced. */
    if (req->values_out && !cli_is_std_stream(req->values_out) &&
        !cli_is_std_stream(req->output) && cli_same_file(req->values_out, req->output) &&
        !cli_is_special_file(req->output))
        return cli_usage(CMD, argsort ? "INDICES_OUT and KEYS_OUT must be different files"
                                      : "OUTPUT and VALUES_OUT must be different files");
    return 0;
}

/* The outputs being written (sort: keys, then values; argsort: indices,
 * then keys). They are created before the sort so an unwritable destination
 * fails in a moment, not after a long sort; both are complete before either
 * is renamed into place. */
typedef struct sort_outputs {
    cli_output keys, values;
    int have_keys, have_values;
} sort_outputs;

static int open_outputs(const sort_request *req, sort_outputs *o)
{
    memset(o, 0, sizeof *o);
    int rc = cli_output_open(&o->keys, req->output);
    if (rc)
        return rc;
    o->have_keys = 1;
    if (req->values_out) {
        if ((rc = cli_output_open(&o->values, req->values_out)))
            return rc;
        o->have_values = 1;
    }
    return 0;
}

static void abort_outputs(sort_outputs *o)
{
    if (o->have_keys)
        cli_output_abort(&o->keys);
    if (o->have_values)
        cli_output_abort(&o->values);
    o->have_keys = o->have_values = 0;
}

static int finish_outputs(sort_outputs *o, const void *keys, size_t key_bytes, const void *values,
                          size_t value_bytes)
{
    int rc = cli_output_write(&o->keys, keys, key_bytes);
    if (!rc)
        rc = cli_output_close(&o->keys);
    if (!rc && o->have_values) {
        rc = cli_output_write(&o->values, values, value_bytes);
        if (!rc)
            rc = cli_output_close(&o->values);
    }
    /* Both outputs or neither: after an error both old files are intact. */
    if (!rc)
        rc = o->have_values ? cli_output_commit_pair(&o->keys, &o->values)
                            : cli_output_commit(&o->keys);
    /* After a failure the cli_output_* call has removed its own temp file;
     * abort_outputs removes the other one (a no-op for committed outputs). */
    abort_outputs(o);
    return rc;
}

/* What the machine can sort, checked while the inputs are read so that an
 * endless or huge input (/dev/zero) stops at the first limit it passes:
 * half the host memory available when reading starts (the sort needs room
 * for its data a second time: the device's copy, or the host copy of a sort
 * split into parts) and what zesort_check_split allows on the backend, which is
 * created here, when the first size is known. No ZESORT_MAX_KEYS: the host
 * API splits a sort beyond it. */
typedef struct input_budget {
    const sort_request *req;
    zesort_context *ctx;
    uint64_t host_bytes;   /* for keys and values together */
    uint64_t key_bytes;    /* the keys read, once reading the values */
    int reading_values;
} input_budget;

static uint64_t keys_in(const input_budget *b, uint64_t bytes)
{
    size_t ksize = cli_key_size(b->req->opts.key_type);
    return bytes / ksize + (bytes % ksize != 0);
}

static int check_values(input_budget *b, const char *path, uint64_t bytes)
{
    uint64_t n = b->key_bytes / cli_key_size(b->req->opts.key_type);
    if (bytes > n * cli_value_size(b->req->opts.value_type))
        return cli_fail("'%s' holds more values than '%s' holds keys (%llu)", path, b->req->input,
                        (unsigned long long)n);
    return 0;
}

static int check_device(input_budget *b, const char *path, uint64_t n)
{
    if (!b->ctx) {
        zesort_status st = cli_create_devices(b->req->backend, b->req->device, &b->req->devices,
                                              &b->ctx);
        if (st != ZESORT_OK)
            return cli_fail_setup(b->req->backend, st);
    }
    /* an argsort's indices need what values of their type need */
    zesort_status st = zesort_check_split(b->ctx, n,
                                          b->req->values_in != NULL || b->req->argsort,
                                          &b->req->opts, NULL);
    if (st == ZESORT_OK)
        return 0;
    if (st == ZESORT_ERROR_UNSUPPORTED)
        return cli_fail_status("sort", st, b->ctx);
    return cli_fail("cannot read '%s': %llu keys, more than the %s backend can sort: %s", path,
                    (unsigned long long)n, zesort_backend_name(cli_context_info(b->ctx).backend),
                    zesort_last_error(b->ctx));
}

static int input_fits(void *arg, const char *path, uint64_t bytes)
{
    input_budget *b = arg;
    if (b->reading_values && check_values(b, path, bytes))
        return CLI_EXIT_FAILURE;
    uint64_t n = keys_in(b, bytes);
    /* first: no amount of memory makes u32 indices hold positions >= 2^32 */
    if (b->req->argsort && b->req->opts.value_type == ZESORT_VALUE_U32 && n > (UINT64_C(1) << 32))
        return cli_fail("cannot argsort '%s': %llu keys have positions beyond 2^32 - 1, which "
                        "u32 indices cannot hold: use --index-type u64", path,
                        (unsigned long long)n);
    uint64_t total = bytes + (b->reading_values ? b->key_bytes : 0);
    if (total > b->host_bytes)
        return cli_fail("cannot read '%s': more than %.2f GiB of data, half of the host memory "
                        "available (a sort needs room for its data twice)", path,
                        (double)b->host_bytes / (1u << 30));
    /* Values: as many as the keys, whose sort was checked. */
    return b->reading_values ? 0 : check_device(b, path, n);
}

/* Reads INPUT (and VALUES_IN) within the budget. */
static int read_inputs(const sort_request *req, input_budget *b, void **keys, size_t *key_bytes,
                       void **values, size_t *value_bytes)
{
    memset(b, 0, sizeof *b);
    b->req = req;
    b->host_bytes = cli_host_memory_available() / 2;
    size_t ksize = cli_key_size(req->opts.key_type);
    cli_read_limit lim = {b->host_bytes + 1, input_fits, b}; /* + 1: "more than" is reported */
    int rc = cli_read_input(req->input, &lim, keys, key_bytes);
    if (rc)
        return rc;
    if (*key_bytes % ksize)
        return cli_fail("'%s' has %zu bytes, not a multiple of %zu (the size of a %s key)",
                        req->input, *key_bytes, ksize, cli_key_type_name(req->opts.key_type));
    if (!req->values_in)
        return 0;
    b->key_bytes = *key_bytes;
    b->reading_values = 1;
    uint64_t n = *key_bytes / ksize;
    const size_t vsize = cli_value_size(req->opts.value_type);
    lim.max_bytes = n * vsize + 1;
    if ((rc = cli_read_input(req->values_in, &lim, values, value_bytes)))
        return rc;
    if (*value_bytes % vsize)
        return cli_fail("'%s' has %zu bytes, not a multiple of %zu (values are %s)",
                        req->values_in, *value_bytes, vsize,
                        cli_value_type_name(req->opts.value_type));
    if (*value_bytes / vsize != n)
        return cli_fail("'%s' holds %zu values but '%s' holds %llu keys", req->values_in,
                        *value_bytes / vsize, req->input, (unsigned long long)n);
    return 0;
}

/* What OFFSETS may hold: S + 1 offsets for S at most n (more segments than
 * keys would all be empty beyond n of them), checked as the file is read
 * (a regular file by its size, "-", a FIFO or /dev/zero as it grows: an
 * endless one stops at once), within the host memory the inputs left. */
typedef struct offsets_budget {
    uint64_t n;    /* keys */
    uint64_t room; /* bytes of host memory */
} offsets_budget;

static int offsets_fit(void *arg, const char *path, uint64_t bytes)
{
    const offsets_budget *b = arg;
    if (bytes > (b->n + 1) * 8)
        return cli_fail("'%s' holds more than %llu segment offsets: S + 1 for at most S = %llu "
                        "segments, one per key", path, (unsigned long long)(b->n + 1),
                        (unsigned long long)b->n);
    if (bytes > b->room)
        return cli_fail("cannot read '%s': more than %.2f GiB of segment offsets, what is left "
                        "of half of the host memory available", path,
                        (double)b->room / (1u << 30));
    return 0;
}

/* sort --segments: OFFSETS, S + 1 little-endian u64 (0 <= S <= n), each at
 * most n and none below the one before, into *offsets (malloc'd) and *s.
 * Read (within offsets_fit's bound) and checked before any output is
 * opened: a bad file is exit 1 with nothing written. */
static int read_offsets(const char *path, uint64_t n, uint64_t room, uint64_t **offsets,
                        uint64_t *s)
{
    unsigned char *raw = NULL;
    size_t bytes = 0;
    offsets_budget budget = {n, room};
    const uint64_t most = (n + 1) * 8 < room ? (n + 1) * 8 : room;
    cli_read_limit lim = {most + 1, offsets_fit, &budget}; /* + 1: "more than" is reported */
    int rc = cli_read_input(path, &lim, (void **)&raw, &bytes);
    if (rc)
        return rc;
    if (bytes < 8 || bytes % 8) {
        free(raw);
        return cli_fail("'%s' has %zu bytes: segment offsets are S + 1 little-endian u64 "
                        "(a multiple of 8 bytes, at least 8)", path, bytes);
    }
    uint64_t *o = (uint64_t *)(void *)raw; /* decoded in place: raw holds u64s */
    for (size_t i = 0; i < bytes / 8; i++) {
        uint64_t v = 0;
        for (int b = 7; b >= 0; b--)
            v = v << 8 | raw[i * 8 + (size_t)b];
        o[i] = v;
        if (v > n || (i > 0 && v < o[i - 1])) {
            free(raw);
            return v > n ? cli_fail("'%s': offset %zu is %llu, beyond the %llu keys", path, i,
                                    (unsigned long long)v, (unsigned long long)n)
                         : cli_fail("'%s': offset %zu (%llu) is below offset %zu: offsets "
                                    "must not decrease", path, i, (unsigned long long)v, i - 1);
        }
    }
    *offsets = o;
    *s = bytes / 8 - 1;
    return 0;
}

/* read_offsets for other commands (topk --segments): the same file rules. */
int cli_read_offsets(const char *path, uint64_t n, uint64_t room, uint64_t **offsets,
                     uint64_t *s)
{
    return read_offsets(path, n, room, offsets, s);
}

/* An argsort's results: indices first, the sorted keys (--keys-out) second,
 * in buffers of their own. */
static zesort_status argsort(zesort_context *ctx, const sort_request *req, const void *keys,
                             uint64_t n, void **first, size_t *first_bytes, void **second,
                             size_t *second_bytes)
{
    *first_bytes = (size_t)n * cli_value_size(req->opts.value_type);
    *second_bytes = req->keys_out ? (size_t)n * cli_key_size(req->opts.key_type) : 0;
    *first = malloc(*first_bytes ? *first_bytes : 1);
    *second = req->keys_out ? malloc(*second_bytes ? *second_bytes : 1) : NULL;
    if (!*first || (req->keys_out && !*second))
        return ZESORT_ERROR_OUT_OF_HOST_MEMORY;
    zesort_desc d = cli_desc(ZESORT_ARGSORT, &req->opts, 0);
    d.keys_in = keys;
    d.indices = *first;
    d.keys = *second;
    d.n = n;
    return zesort_run(ctx, &d);
}

/* The sort in place: each segment of (offsets, segments) on its own, or the
 * whole array when offsets is NULL. */
static zesort_status sort_in_place(zesort_context *ctx, const sort_request *req, void *keys,
                                   void *values, uint64_t n, const uint64_t *offsets,
                                   uint64_t segments)
{
    zesort_desc d = cli_desc(offsets ? ZESORT_SEGMENTED : ZESORT_SORT, &req->opts,
                             values != NULL);
    d.keys = keys;
    d.values = values;
    d.n = n;
    d.offsets = offsets;
    d.num_segments = offsets ? segments : 0;
    return zesort_run(ctx, &d);
}

/* A sort bigger than the device takes at once is split on the host, and one
 * on several devices is split among them: say so on stderr before it
 * starts (the output is the same). */
static void note_split(zesort_context *ctx, const sort_request *req, uint64_t n)
{
    zesort_split_info info;
    if (!ctx || zesort_check_split(ctx, n, req->values_in != NULL || req->argsort, &req->opts,
                                   &info) != ZESORT_OK)
        return;
    if (req->devices.given)
        fprintf(stderr, "zesort: sorting %llu keys on %u of the context's %u %s devices, in "
                        "about %llu parts of %llu keys (a %.2f GiB host copy)\n",
                (unsigned long long)n, info.devices, cli_context_info(ctx).devices,
                zesort_backend_name(cli_context_info(ctx).backend), (unsigned long long)info.parts,
                (unsigned long long)info.part_keys, (double)info.host_bytes / (1u << 30));
    else if (info.parts > 1)
        fprintf(stderr, "zesort: %llu keys are more than the %s backend sorts at once: sorting "
                        "in about %llu parts of at most %llu keys (a %.2f GiB host copy)\n",
                (unsigned long long)n, zesort_backend_name(cli_context_info(ctx).backend),
                (unsigned long long)info.parts, (unsigned long long)info.part_keys,
                (double)info.host_bytes / (1u << 30));
}

static int run_sort(const sort_request *req)
{
    void *keys = NULL, *values = NULL, *indices = NULL, *sorted = NULL; /* argsort's results */
    uint64_t *offsets = NULL, segments = 0;
    size_t key_bytes = 0, value_bytes = 0;
    input_budget budget;
    sort_outputs outs;
    memset(&outs, 0, sizeof outs);
    int rc = read_inputs(req, &budget, &keys, &key_bytes, &values, &value_bytes);
    zesort_context *ctx = budget.ctx; /* created while reading */
    uint64_t n = key_bytes / cli_key_size(req->opts.key_type);
    const uint64_t used = (uint64_t)key_bytes + value_bytes;
    const uint64_t room = used < budget.host_bytes ? budget.host_bytes - used : 0;
    if (rc ||
        (req->segments && (rc = read_offsets(req->segments, n, room, &offsets, &segments))) ||
        (rc = open_outputs(req, &outs)))
        goto done;
    if (!req->segments)
        note_split(ctx, req, n);
    void *first = keys, *second = values;
    size_t first_bytes = key_bytes, second_bytes = value_bytes;
    zesort_status st = req->argsort ? argsort(ctx, req, keys, n, &indices, &first_bytes, &sorted,
                                              &second_bytes)
                                    : sort_in_place(ctx, req, keys, values, n, offsets, segments);
    cli_signals_reclaim(); /* (a driver may start its compiler only now) */
    if (st != ZESORT_OK) {
        rc = st == ZESORT_ERROR_OUT_OF_HOST_MEMORY && !zesort_last_error(ctx)[0]
                 ? cli_fail("out of host memory for the results")
                 : cli_fail_status(req->cmd, st, ctx);
        goto done;
    }
    cli_print_sort_report(ctx);
    if (req->argsort)
        first = indices, second = sorted;
    rc = finish_outputs(&outs, first, first_bytes, second, second_bytes);
done:
    abort_outputs(&outs);
    zesort_destroy(ctx);
    free(keys);
    free(values);
    free(indices);
    free(sorted);
    free(offsets);
    return rc;
}

int cli_cmd_sort(int argc, char **argv)
{
    sort_request req;
    int rc = parse_sort_args(argc, argv, &req, 0);
    if (rc)
        return rc;
    return run_sort(&req);
}

int cli_cmd_argsort(int argc, char **argv)
{
    sort_request req;
    int rc = parse_sort_args(argc, argv, &req, 1);
    if (rc)
        return rc;
    return run_sort(&req);
}
