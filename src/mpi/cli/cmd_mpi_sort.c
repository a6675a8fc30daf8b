/*
 * cmd_mpi_sort.c — `mpirun -np P zesort mpi-sort INPUT OUTPUT [options]`, the
 * distributed file sort: every rank reads its slice of INPUT (and
 * VALUES_IN) with MPI-IO, the ranks sort with zesort_mpi_sort, and every
 * rank writes its slice of the result into OUTPUT's temporary file, which
 * rank 0 made and renames over OUTPUT once all slices are written (the
 * output contract of `zesort sort`: after any error OUTPUT is untouched and
 * no temporary file is left). An OUTPUT that is not a regular file (a FIFO,
 * /dev/full, standard output), which sort writes directly, has no offsets
 * to write slices at: rank 0 writes it, every rank's slice in rank order
 * (mc_write_in_order). Options and file formats are sort's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_cli.h"

/* 1 when f is one of the flags that take a value (checked before reading
 * one, so an unknown flag is reported as such). */
static int takes_value(const char *f)
{
    static const char *const names[] = {"--type", "--value-type", "--backend", "--algo", "--scan"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(f, names[i]) == 0)
            return 1;
    return 0;
}

typedef struct mpi_sort_req {
    const char *input, *output, *values_in, *values_out;
    zesort_backend backend;
    int64_t device;
    zesort_mpi_options opts;
    const char *bits_text;
} mpi_sort_req;

static const char CMD[] = "mpi-sort";

static int parse_flag(cli_args *a, char **argv, mpi_sort_req *r)
{
    const char *f = a->flag, *v = NULL;
    zesort_options *o = &r->opts.sort;
    int rc = 0;
    if (strcmp(f, "--values") == 0) {
        if (a->inline_value || a->pos + 2 > a->argc)
            return cli_usage(CMD, "--values needs two operands: --values VALUES_IN VALUES_OUT");
        if ((rc = cli_args_once(CMD, "--values", r->values_in)))
            return rc;
        r->values_in = argv[a->pos++];
        r->values_out = argv[a->pos++];
    } else if (strcmp(f, "--descending") == 0 || strcmp(f, "--ascending") == 0) {
        if ((rc = cli_args_no_value(a, CMD)))
            return rc;
        o->descending = strcmp(f, "--descending") == 0;
    } else if (strcmp(f, "--bits") == 0) {
        return cli_args_value(a, CMD, &r->bits_text);
    } else if (strcmp(f, "--device") == 0) {
        return mc_parse_device(a, CMD, &r->device);
    } else if (!takes_value(f)) {
        return cli_usage(CMD, "unknown option '%s'", f);
    } else if ((rc = cli_args_value(a, CMD, &v))) {
        return rc;
    } else if (strcmp(f, "--type") == 0) {
        if (cli_parse_key_type(v, &o->key_type))
            return cli_usage(CMD, "unknown key type '%s' (u32, i32, f32, u64, i64, f64)", v);
    } else if (strcmp(f, "--value-type") == 0) {
        if (cli_parse_value_type(v, &o->value_type))
            return cli_usage(CMD, "unknown value type '%s' (u32, u64)", v);
    } else if (strcmp(f, "--backend") == 0) {
        if (cli_parse_backend(v, &r->backend))
            return cli_usage(CMD, "unknown backend '%s' (auto, level-zero, opencl, cpu)", v);
    } else if (strcmp(f, "--algo") == 0) {
        if (cli_parse_algo(v, &o->algo))
            return cli_usage(CMD, "unknown algorithm '%s' (cm2, cm4, onesweep, auto)", v);
    } else if (strcmp(f, "--scan") == 0) {
        if (cli_parse_scan(v, &o->scan))
            return cli_usage(CMD, "unknown scan mode '%s' (host, device)", v);
    } else {
        return cli_usage(CMD, "unknown option '%s'", f);
    }
    return 0;
}

static int parse_args(int argc, char **argv, mpi_sort_req *r)
{
    memset(r, 0, sizeof *r);
    zesort_mpi_options_default(&r->opts);
    r->backend = ZESORT_BACKEND_AUTO;
    r->device = -1;
    cli_args a;
    cli_args_init(&a, argc, argv);
    const char *operand;
    int kind, rc, operands = 0;
    while ((kind = cli_args_next(&a, &operand)) != CLI_ARG_END) {
        if (kind == CLI_ARG_FLAG) {
            if ((rc = parse_flag(&a, argv, r)))
                return rc;
        } else if (operands++ < 2) {
            *(operands == 1 ? &r->input : &r->output) = operand;
        } else {
            return cli_usage(CMD, "unexpected operand '%s'", operand);
        }
    }
    if (!r->output)
        return cli_usage(CMD, r->input ? "missing operand OUTPUT" : "missing operands INPUT and OUTPUT");
    if ((rc = cli_args_path(CMD, "INPUT", r->input)) ||
        (rc = cli_args_path(CMD, "OUTPUT", r->output)) ||
        (rc = cli_args_path(CMD, "VALUES_IN", r->values_in)) ||
        (rc = cli_args_path(CMD, "VALUES_OUT", r->values_out)) ||
        (rc = mc_check_device_backend(CMD, r->backend, r->device)))
        return rc;
    zesort_options *o = &r->opts.sort;
    unsigned bits = cli_key_bits(o->key_type);
    o->bit_lo = 0, o->bit_hi = bits;
    if (r->bits_text && cli_parse_bits(r->bits_text, bits, &o->bit_lo, &o->bit_hi))
        return cli_usage(CMD, "bad --bits '%s': expected LO:HI with 0 <= LO < HI <= %u for %s keys",
                         r->bits_text, bits, cli_key_type_name(o->key_type));
    if (r->values_out && cli_same_file(r->values_out, r->output) && !cli_is_special_file(r->output))
        return cli_usage(CMD, "OUTPUT and VALUES_OUT must be different files");
    return 0;
}

/* What a rank holds between the phases. */
typedef struct mpi_sort_state {
    uint64_t n;                  /* keys in INPUT */
    void *keys, *values;         /* this rank's slice of the inputs */
    uint64_t count;              /* keys in the slice */
    zesort_context *ctx;
    zesort_mpi_output out;
    cli_output ko, vo;           /* rank 0: the outputs being written */
    int have_ko, have_vo;
    char targets[2][4352];       /* the files every rank writes: temporary (or direct) */
    int direct[2];               /* 1: not a regular file, written by rank 0 in rank order */
} mpi_sort_state;

/* Opens INPUT (and VALUES_IN), checks their sizes (the same on every rank,
 * so every rank refuses a bad file alike), reads this rank's slice. */
static int read_inputs(const mpi_sort_req *r, mpi_sort_state *s)
{
    size_t ks = cli_key_size(r->opts.sort.key_type), vs = cli_value_size(r->opts.sort.value_type);
    MPI_File kf = MPI_FILE_NULL, vf = MPI_FILE_NULL;
    uint64_t kbytes = 0, vbytes = 0, first = 0;
    int rc = mc_open_input(r->input, &kf, &kbytes);
    if (!rc && kbytes % ks)
        rc = mc_fail("'%s' has %llu bytes, not a multiple of %zu (the size of a %s key)", r->input,
                     (unsigned long long)kbytes, ks, cli_key_type_name(r->opts.sort.key_type));
    s->n = kbytes / ks;
    if (!rc && r->values_in && !(rc = mc_open_input(r->values_in, &vf, &vbytes))) {
        if (vbytes % vs)
            rc = mc_fail("'%s' has %llu bytes, not a multiple of %zu (values are %s)",
                         r->values_in, (unsigned long long)vbytes, vs,
                         cli_value_type_name(r->opts.sort.value_type));
        else if (vbytes / vs != s->n)
            rc = mc_fail("'%s' holds %llu values but '%s' holds %llu keys", r->values_in,
                         (unsigned long long)(vbytes / vs), r->input, (unsigned long long)s->n);
    }
    mc_slice(s->n, &first, &s->count);
    if (!rc) {
        s->keys = malloc(s->count * ks + 1);
        s->values = r->values_in ? malloc(s->count * vs + 1) : NULL;
        if (!s->keys || (r->values_in && !s->values))
            rc = mc_fail("out of host memory for %llu keys", (unsigned long long)s->count);
    }
    if (!rc)
        rc = mc_read_at(kf, r->input, first * ks, s->keys, s->count * ks);
    if (!rc && r->values_in)
        rc = mc_read_at(vf, r->values_in, first * vs, s->values, s->count * vs);
    /* collective closes: every rank opened (or failed to open) both alike */
    if (kf != MPI_FILE_NULL)
        MPI_File_close(&kf);
    if (vf != MPI_FILE_NULL)
        MPI_File_close(&vf);
    return mc_agree(rc);
}

/* Rank 0 makes the outputs' temporary files; every rank learns their names. */
static int open_outputs(const mpi_sort_req *r, mpi_sort_state *s)
{
    int rc = 0;
    if (mc_rank() == 0) {
        rc = cli_output_open(&s->ko, r->output);
        s->have_ko = rc == 0;
        if (!rc && r->values_out)
            s->have_vo = (rc = cli_output_open(&s->vo, r->values_out)) == 0;
    }
    if ((rc = mc_agree(rc)))
        return rc;
    for (int i = 0; i < (r->values_out ? 2 : 1); i++) {
        cli_output *o = i ? &s->vo : &s->ko;
        if (mc_rank() == 0) {
            const char *name = o->temp_path ? o->temp_path : o->final_path;
            s->direct[i] = o->direct;
            if (strlen(name) >= sizeof s->targets[i])
                rc = mc_fail("'%s': its directory's name is too long", r->output);
            else
                strcpy(s->targets[i], name);
        }
        MPI_Bcast(s->targets[i], (int)sizeof s->targets[i], MPI_CHAR, 0, MPI_COMM_WORLD);
        MPI_Bcast(&s->direct[i], 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    return mc_agree(rc);
}

static int sort_slices(const mpi_sort_req *r, mpi_sort_state *s)
{
    zesort_status st = mc_create(r->backend, r->device, &s->ctx);
    int rc = st == ZESORT_OK ? 0 : mc_fail("backend set-up failed: %s (%s)",
                                           zesort_last_error(NULL), zesort_status_name(st));
    if ((rc = mc_agree(rc)))
        return rc;
    st = zesort_mpi_sort(s->ctx, MPI_COMM_WORLD, s->keys, s->values, s->count, &s->out, &r->opts);
    if (st == ZESORT_OK) /* zesort_mpi_sort agrees: every rank knows */
        return 0;
    if (mc_rank() == 0)
        cli_fail("%s: %s: %s (%s)", CMD, st == ZESORT_ERROR_UNSUPPORTED ? "not supported yet"
                                                                    : "the sort failed",
                 zesort_mpi_last_error(), zesort_status_name(st));
    return st == ZESORT_ERROR_UNSUPPORTED ? CLI_EXIT_USAGE : CLI_EXIT_FAILURE;
}

/* Output i (0: keys, 1: values) gets this rank's `bytes` bytes of buf at
 * `offset`: written there by every rank, or by rank 0 in rank order for a
 * direct output. Collective; returns the agreed exit code. */
static int write_output(mpi_sort_state *s, int i, const char *shown, uint64_t offset,
                        const void *buf, uint64_t bytes)
{
    if (s->direct[i])
        return mc_agree(mc_write_in_order(i ? &s->vo : &s->ko, shown, buf, bytes, i));
    return mc_agree(mc_write_slice(s->targets[i], shown, offset, buf, bytes));
}

/* Every rank writes its slice; then rank 0 commits both outputs (or none). */
static int write_outputs(const mpi_sort_req *r, mpi_sort_state *s)
{
    size_t ks = cli_key_size(r->opts.sort.key_type), vs = cli_value_size(r->opts.sort.value_type);
    uint64_t first = 0, count = 0;
    mc_slice(s->n, &first, &count); /* the library's balance: the same slice */
    int rc = count == s->out.count ? 0 : mc_fail("internal error: %llu keys, want %llu",
                                                 (unsigned long long)s->out.count,
                                                 (unsigned long long)count);
    if ((rc = mc_agree(rc)) ||
        (rc = write_output(s, 0, r->output, first * ks, s->out.keys, count * ks)))
        return rc;
    if (r->values_out &&
        (rc = write_output(s, 1, r->values_out, first * vs, s->out.values, count * vs)))
        return rc;
    if (mc_rank() == 0) { /* prints its own errors */
        rc = cli_output_close(&s->ko);
        if (!rc && s->have_vo)
            rc = cli_output_close(&s->vo);
        if (!rc)
            rc = s->have_vo ? cli_output_commit_pair(&s->ko, &s->vo) : cli_output_commit(&s->ko);
        /* the caller aborts both: a no-op for committed outputs, and it removes
         * the temporary file of one closed before the other failed */
    }
    return mc_agree(rc);
}

int mc_cmd_mpi_sort(int argc, char **argv)
{
    mpi_sort_req req;
    mc_quiet_begin(); /* every rank parses alike: rank 0 reports */
    int rc = parse_args(argc, argv, &req);
    mc_quiet_end();
    if (rc)
        return rc;
    mpi_sort_state s;
    memset(&s, 0, sizeof s);
    if (!(rc = read_inputs(&req, &s)) && !(rc = open_outputs(&req, &s)) &&
        !(rc = sort_slices(&req, &s)))
        rc = write_outputs(&req, &s);
    if (s.have_ko)
        cli_output_abort(&s.ko);
    if (s.have_vo)
        cli_output_abort(&s.vo);
    zesort_mpi_free(&s.out);
    zesort_destroy(s.ctx);
    free(s.keys);
    free(s.values);
    return rc;
}
