/*
 * cmd_mpi_bench.c — `mpirun -np P zesort mpi-bench [options]`: times the
 * phases of zesort_mpi_sort (local sort, splitters, exchange, merge) on N
 * keys made on the ranks (N / P each), and reports per rank the median of
 * each phase over the repeats, the bytes it sent and received, and the
 * imbalance of the result (the most keys a rank holds over N / P).
 * --device-buffers (Level Zero): the keys and values are device memory and
 * the sort runs with device_buffers = 1 (ze_buffers.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_cli.h"

/* 1 when f is one of the flags that take a value (checked before reading
 * one, so an unknown flag is reported as such). */
static int takes_value(const char *f)
{
    static const char *const names[] = {"--n", "--repeat", "--type", "--value-type", "--backend", "--input"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(f, names[i]) == 0)
            return 1;
    return 0;
}

static const char CMD[] = "mpi-bench";
enum { N_COLS = 11 };

typedef struct bench_req {
    uint64_t n;
    int repeat, pairs;
    cli_input_kind input;
    zesort_backend backend;
    int64_t device;
    zesort_mpi_options opts;
} bench_req;

static int parse_flag(cli_args *a, bench_req *b)
{
    const char *f = a->flag, *v = NULL;
    int rc = 0;
    if (strcmp(f, "--pairs") == 0)
        return (rc = cli_args_no_value(a, CMD)) ? rc : (b->pairs = 1, 0);
    if (strcmp(f, "--device-buffers") == 0)
        return (rc = cli_args_no_value(a, CMD)) ? rc : (b->opts.device_buffers = 1, 0);
    if (strcmp(f, "--descending") == 0)
        return (rc = cli_args_no_value(a, CMD)) ? rc : (b->opts.sort.descending = 1, 0);
    if (strcmp(f, "--device") == 0)
        return mc_parse_device(a, CMD, &b->device);
    if (!takes_value(f))
        return cli_usage(CMD, "unknown option '%s'", f);
    if ((rc = cli_args_value(a, CMD, &v)))
        return rc;
    uint64_t x = 0;
    if (strcmp(f, "--n") == 0) {
        if (cli_parse_count(v, &b->n))
            return cli_usage(CMD, "bad --n '%s'", v);
    } else if (strcmp(f, "--repeat") == 0) {
        if (cli_parse_count(v, &x) || x < 1 || x > 1000)
            return cli_usage(CMD, "bad --repeat '%s' (1..1000)", v);
        b->repeat = (int)x;
    } else if (strcmp(f, "--type") == 0) {
        if (cli_parse_key_type(v, &b->opts.sort.key_type))
            return cli_usage(CMD, "unknown key type '%s' (u32, i32, f32, u64, i64, f64)", v);
    } else if (strcmp(f, "--value-type") == 0) {
        if (cli_parse_value_type(v, &b->opts.sort.value_type))
            return cli_usage(CMD, "unknown value type '%s' (u32, u64)", v);
    } else if (strcmp(f, "--backend") == 0) {
        if (cli_parse_backend(v, &b->backend))
            return cli_usage(CMD, "unknown backend '%s' (auto, level-zero, opencl, cpu)", v);
    } else if (strcmp(f, "--input") == 0) {
        if (cli_parse_input_kind(v, &b->input))
            return cli_usage(CMD, "unknown --input '%s' (random, few, equal, sorted, reversed, "
                             "top-bits)", v);
    } else {
        return cli_usage(CMD, "unknown option '%s'", f);
    }
    return 0;
}

static int parse_args(int argc, char **argv, bench_req *b)
{
    memset(b, 0, sizeof *b);
    b->n = UINT64_C(1) << 22;
    b->repeat = 3;
    b->backend = ZESORT_BACKEND_AUTO;
    b->device = -1;
    zesort_mpi_options_default(&b->opts);
    cli_args a;
    cli_args_init(&a, argc, argv);
    const char *operand;
    int kind, rc;
    while ((kind = cli_args_next(&a, &operand)) != CLI_ARG_END) {
        if (kind == CLI_ARG_OPERAND)
            return cli_usage(CMD, "unexpected operand '%s'", operand);
        if ((rc = parse_flag(&a, b)))
            return rc;
    }
    if (b->opts.device_buffers && b->backend != ZESORT_BACKEND_LEVEL_ZERO)
        return cli_usage(CMD, "--device-buffers needs --backend level-zero");
    return mc_check_device_backend(CMD, b->backend, b->device);
}

/* Host bytes a rank holds for its slice of count keys: the slice, and the
 * sorted copy, the keys received and the output of zesort_mpi_sort (about
 * a slice each when balanced); with --device-buffers only the slice, made
 * here and uploaded. Saturates rather than wraps (--n 2^64 - 1). */
static uint64_t rank_bytes(const bench_req *b, uint64_t count)
{
    uint64_t per_key = cli_key_size(b->opts.sort.key_type) +
                       (b->pairs ? cli_value_size(b->opts.sort.value_type) : 0);
    per_key *= b->opts.device_buffers ? 1 : 4;
    return count > UINT64_MAX / per_key ? UINT64_MAX : count * per_key;
}

/* Collective, before any key is made (as bench and demo do): the data of
 * the ranks that share this machine (MPI_COMM_TYPE_SHARED) together must
 * fit in its memory; a larger --n failed late, or was OOM-killed. */
static int check_host_memory(const bench_req *b, uint64_t count)
{
    double mine = (double)rank_bytes(b, count), here = mine;
    int ranks = 1;
    MPI_Comm node;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) ==
        MPI_SUCCESS) {
        MPI_Allreduce(&mine, &here, 1, MPI_DOUBLE, MPI_SUM, node);
        MPI_Comm_size(node, &ranks);
        MPI_Comm_free(&node);
    }
    uint64_t bytes = here >= 1.8e19 ? UINT64_MAX : (uint64_t)here;
    char msg[256];
    int rc = cli_host_memory_excess(CMD, b->n, bytes, msg, sizeof msg)
                 ? mc_fail("%s; %d rank%s on this machine, each holding its slice %s", msg,
                           ranks, ranks == 1 ? "" : "s",
                           b->opts.device_buffers ? "once (made here, then uploaded)"
                                                  : "about 4 times (input, sorted copy, keys "
                                                    "received, output)")
                 : 0;
    return mc_agree(rc);
}

/* This rank's keys (global positions first..first+count) of the input kind:
 * the generator bench uses, seeded by the rank's first position. */
static void make_keys(const bench_req *b, void *keys, uint64_t first, uint64_t count)
{
    cli_make_keys(keys, first, count, b->n, b->opts.sort.key_type, b->input, 1 + first);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Sorts repeat + 1 times (the first a warm-up); row: medians and counts. */
static int measure(const bench_req *b, zesort_context *ctx, const void *keys, const void *values,
                   uint64_t count, double *row)
{
    double t[4][1000];
    zesort_mpi_stats st;
    for (int i = 0; i <= b->repeat; i++) {
        zesort_mpi_output out = {0};
        zesort_status s = zesort_mpi_sort_timed(ctx, MPI_COMM_WORLD, keys, values, count, &out,
                                                &b->opts, &st);
        zesort_mpi_free(&out);
        if (s != ZESORT_OK) {
            if (mc_rank() == 0)
                cli_fail("%s: the sort failed: %s (%s)", CMD, zesort_mpi_last_error(),
                         zesort_status_name(s));
            return s == ZESORT_ERROR_UNSUPPORTED ? CLI_EXIT_USAGE : CLI_EXIT_FAILURE;
        }
        if (i > 0) {
            t[0][i - 1] = st.local_sort_ms, t[1][i - 1] = st.splitters_ms;
            t[2][i - 1] = st.exchange_ms, t[3][i - 1] = st.merge_ms;
        }
    }
    row[0] = (double)st.keys_in, row[1] = (double)st.keys_out;
    for (int p = 0; p < 4; p++) {
        qsort(t[p], (size_t)b->repeat, sizeof t[p][0], cmp_double);
        row[2 + p] = t[p][b->repeat / 2];
    }
    row[6] = (double)st.bytes_sent, row[7] = (double)st.bytes_received;
    row[8] = (double)st.splitter_rounds, row[9] = (double)st.exchange_rounds;
    row[10] = (double)cli_context_info(ctx).device_index;
    return 0;
}

/* measure, on device copies of keys and values with --device-buffers. */
static int measure_on(bench_req *b, zesort_context *ctx, const void *keys, const void *values,
                      uint64_t count, double *row)
{
    if (!b->opts.device_buffers)
        return measure(b, ctx, keys, values, count, row);
    mc_ze_buffers z;
    size_t ks = cli_key_size(b->opts.sort.key_type), vs = cli_value_size(b->opts.sort.value_type);
    int rc = mc_ze_buffers_open(ctx, &z);
    void *dk = rc ? NULL : mc_ze_upload(&z, keys, count * ks);
    void *dv = rc || !values ? NULL : mc_ze_upload(&z, values, count * vs);
    if (!rc && (!dk || (values && !dv)))
        rc = mc_fail("--device-buffers: out of device memory for %llu keys",
                     (unsigned long long)count);
    b->opts.ze_context = z.context;
    b->opts.ze_device = z.device;
    if (!(rc = mc_agree(rc)))
        rc = measure(b, ctx, dk, dv, count, row);
    mc_ze_free(&z, dk);
    mc_ze_free(&z, dv);
    mc_ze_buffers_close(&z);
    return rc;
}

static void print_table(const bench_req *b, const double *rows, int nranks, zesort_context *ctx)
{
    printf("mpi-bench: %d ranks, %llu %s keys in all (%s), %s, %s, backend %s (rank 0: %s%s); "
           "median of %d after a warm-up\n", nranks, (unsigned long long)b->n,
           cli_key_type_name(b->opts.sort.key_type),
           b->pairs ? (b->opts.sort.value_type == ZESORT_VALUE_U64 ? "u64 values" : "u32 values")
                    : "keys only",
           cli_input_kind_name(b->input), b->opts.sort.descending ? "descending" : "ascending",
           zesort_backend_name(cli_context_info(ctx).backend), cli_context_info(ctx).device,
           b->opts.device_buffers ? ", device buffers" : "", b->repeat);
    printf("rank  device  keys_in  keys_out  local_sort_ms  splitters_ms  exchange_ms  merge_ms  "
           "total_ms  sent_MiB  received_MiB  splitter_rounds  exchange_rounds\n");
    double most = 0, sent = 0;
    for (int r = 0; r < nranks; r++) {
        const double *x = rows + r * N_COLS;
        printf("%4d %7.0f %8.0f %9.0f %14.1f %13.1f %12.1f %9.1f %9.1f %9.2f %13.2f %16.0f %16.0f\n",
               r, x[10], x[0], x[1], x[2], x[3], x[4], x[5], x[2] + x[3] + x[4] + x[5], x[6] / 1048576.0,
               x[7] / 1048576.0, x[8], x[9]);
        most = x[1] > most ? x[1] : most;
        sent += x[6];
    }
    size_t bytes = cli_key_size(b->opts.sort.key_type) +
                   (b->pairs ? cli_value_size(b->opts.sort.value_type) : 0);
    double even = (double)b->n / nranks;
    printf("imbalance: %.6f (most keys on a rank / (N / P)); bytes sent in all: %.2f MiB, "
           "%.1f%% of the data\n", even > 0 ? most / even : 1.0, sent / 1048576.0,
           b->n ? 100.0 * sent / ((double)b->n * (double)bytes) : 0.0);
}

int mc_cmd_mpi_bench(int argc, char **argv)
{
    bench_req b;
    mc_quiet_begin();
    int rc = parse_args(argc, argv, &b);
    mc_quiet_end();
    if (rc)
        return rc;
    uint64_t first = 0, count = 0;
    mc_slice(b.n, &first, &count);
    if ((rc = check_host_memory(&b, count)))
        return rc;
    size_t ks = cli_key_size(b.opts.sort.key_type), vs = cli_value_size(b.opts.sort.value_type);
    void *keys = malloc(count * ks + 1), *values = b.pairs ? malloc(count * vs + 1) : NULL;
    zesort_context *ctx = NULL;
    rc = !keys || (b.pairs && !values) ? mc_fail("out of host memory for %llu keys",
                                                (unsigned long long)count) : 0;
    zesort_status st = mc_create(b.backend, b.device, &ctx); /* collective: every rank */
    if (st != ZESORT_OK)
        rc = mc_fail("backend set-up failed: %s (%s)", zesort_last_error(NULL),
                     zesort_status_name(st));
    int nranks = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    double row[N_COLS], *rows = malloc(sizeof row * (size_t)nranks);
    if (!(rc = mc_agree(rc))) {
        make_keys(&b, keys, first, count);
        for (uint64_t i = 0; i < count && values; i++) { /* global positions */
            uint64_t v = first + i;
            memcpy((char *)values + i * vs, &v, vs);
        }
        rc = measure_on(&b, ctx, keys, values, count, row);
    }
    if (!rc) {
        MPI_Gather(row, N_COLS, MPI_DOUBLE, rows, N_COLS, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        if (mc_rank() == 0)
            print_table(&b, rows, nranks, ctx);
    }
    zesort_destroy(ctx);
    free(rows);
    free(keys);
    free(values);
    return rc;
}
