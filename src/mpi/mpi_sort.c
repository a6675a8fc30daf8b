/*
 * mpi_sort.c — zesort_mpi_sort: the distributed sort's phases, in order,
 * each followed by an agreement (zm_agree) so that a failure on one rank
 * stops every rank at the same point: check the arguments; plan (who holds
 * what at the end, buffers); local stable sort on the rank's zesort
 * context; exact splitters; the exchange; the stable sort of the received
 * runs (they arrive in source-rank order, each sorted, so a stable sort
 * keeps ties in (source rank, source index) order).
 *
 * Host or device memory (device_buffers) run the same phases: the arrays
 * are allocated, copied and sorted through zm_mem (mpi_memory.c), the
 * splitters copy only the device keys they probe (mpi_keys.c), and the
 * exchange hands MPI whichever pointers the arrays are.
 */
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

typedef struct zm_run {
    MPI_Comm comm; /* the library's duplicate, MPI_ERRORS_RETURN */
    int rank, size;
    zesort_context *ctx;
    zesort_options sopts;
    zm_order order;
    size_t ksize, vsize;              /* vsize: 0 for keys only */
    uint64_t n, total, mine, first;   /* mine: keys this rank receives, from global position first */
    uint64_t *u64;                    /* the per-rank arrays below, one allocation */
    uint64_t *send_count, *send_first, *recv_count, *recv_first, *targets, *split, *scratch;
    void *lk, *lv;                    /* the local sort's output */
    void *rk, *rv;                    /* what the exchange received */
    zm_mem mem;                       /* where the arrays above live */
    zm_keys kv;                       /* lk as the splitters read it */
    zesort_mpi_stats stats;
} zm_run;

/* device_buffers: a Level Zero context, an MPI that may take device
 * pointers, and arrays that are device memory of the caller's context. */
static zesort_status check_device(zm_run *r, const void *keys, const void *values,
                                  const zesort_mpi_output *out, const zesort_mpi_options *opts)
{
    zesort_context_info info = {.size = sizeof info};
    zesort_backend b = zesort_context_query(r->ctx, &info) == ZESORT_OK ? info.backend
                                                                       : ZESORT_BACKEND_AUTO;
    if (b != ZESORT_BACKEND_LEVEL_ZERO)
        return zm_fail(ZESORT_ERROR_UNSUPPORTED, "device_buffers needs a Level Zero zesort "
                       "context (ctx is %s)", zesort_backend_name(b));
    if (!opts->ze_context || !opts->ze_device)
        return zm_fail(ZESORT_ERROR_INVALID_ARGUMENT, "device_buffers: opts->ze_context and "
                       "opts->ze_device must be the Level Zero context and device of the arrays");
    if (zm_mpi_ze_aware() == 0 && !zm_test_host_addressable())
        return zm_fail(ZESORT_ERROR_UNSUPPORTED, "device_buffers: this MPI says it cannot take "
                       "Level Zero device pointers (not GPU-aware): pass host memory");
    const void *arrays[4] = {r->n ? keys : NULL, r->n ? values : NULL,
                             out->capacity ? out->keys : NULL,
                             out->capacity && values ? out->values : NULL};
    static const char *names[4] = {"keys", "values", "out->keys", "out->values"};
    for (int i = 0; i < 4; i++) {
        zesort_status st = arrays[i] ? zm_device_memory(opts->ze_context, opts->ze_device,
                                                        arrays[i], names[i])
                                     : ZESORT_OK;
        if (st != ZESORT_OK)
            return st;
    }
    return zm_mem_device(&r->mem, r->ctx, opts->ze_context, opts->ze_device);
}

static zesort_status check_args(zm_run *r, zesort_context *ctx, const void *keys,
                                const void *values, zesort_mpi_output *out,
                                const zesort_mpi_options *opts)
{
    if (!ctx || !out)
        return zm_fail(ZESORT_ERROR_INVALID_ARGUMENT, "%s is NULL", ctx ? "out" : "ctx");
    if (!keys && r->n > 0)
        return zm_fail(ZESORT_ERROR_INVALID_ARGUMENT, "keys is NULL with n_local %llu",
                       (unsigned long long)r->n);
    if (out->keys && values && !out->values)
        return zm_fail(ZESORT_ERROR_INVALID_ARGUMENT, "out->keys is given but out->values is "
                       "NULL: give both arrays, or neither to have them allocated");
    zesort_status st = zesort_check_split(ctx, r->n, values != NULL, &r->sopts, NULL);
    if (st != ZESORT_OK)
        return zm_fail(st, "%s", zesort_last_error(ctx));
    return opts->device_buffers ? check_device(r, keys, values, out, opts) : ZESORT_OK;
}

/* Who holds what at the end: rank p gets N/P keys, one more when p < N%P. */
static zesort_status plan_counts(zm_run *r, int has_values)
{
    uint64_t mine[2] = {r->n, (uint64_t)has_values}, *all = r->scratch; /* 2P entries */
    int rc = MPI_Allgather(mine, 2, MPI_UINT64_T, all, 2, MPI_UINT64_T, r->comm);
    if (rc != MPI_SUCCESS)
        return zm_mpi_fail(rc, "MPI_Allgather (counts)");
    r->total = 0;
    for (int p = 0; p < r->size; p++) {
        if (all[2 * p + 1] != (uint64_t)has_values)
            return zm_fail(ZESORT_ERROR_INVALID_ARGUMENT, "rank %d passes values and rank %d "
                           "does not: all ranks or none", has_values ? r->rank : p,
                           has_values ? p : r->rank);
        r->total += all[2 * p];
    }
    uint64_t q = r->total / (uint64_t)r->size, rem = r->total % (uint64_t)r->size;
    for (int p = 0; p < r->size; p++) /* first global position of each slice */
        r->recv_first[p] = q * (uint64_t)p + ((uint64_t)p < rem ? (uint64_t)p : rem);
    r->first = r->recv_first[r->rank];
    r->mine = q + ((uint64_t)r->rank < rem);
    for (int t = 0; t + 1 < r->size; t++)
        r->targets[t] = r->recv_first[t + 1];
    return ZESORT_OK;
}

static zesort_status plan_buffers(zm_run *r, zesort_mpi_output *out)
{
    if (out->keys && out->capacity < r->mine) {
        out->count = r->mine;
        return zm_fail(ZESORT_ERROR_INVALID_ARGUMENT, "out->capacity %llu is below the %llu keys "
                       "this rank receives (zesort_mpi_count)", (unsigned long long)out->capacity,
                       (unsigned long long)r->mine);
    }
    zesort_status st = zesort_check_split(r->ctx, r->mine, r->vsize != 0, &r->sopts, NULL);
    if (st != ZESORT_OK)
        return zm_fail(st, "the received keys: %s", zesort_last_error(r->ctx));
    zm_mem *m = &r->mem;
    r->lk = zm_alloc(m, r->n, r->ksize);
    r->rk = zm_alloc(m, r->mine, r->ksize);
    int bad = !r->lk || !r->rk;
    if (r->vsize) {
        r->lv = zm_alloc(m, r->n, r->vsize);
        r->rv = zm_alloc(m, r->mine, r->vsize);
        bad |= !r->lv || !r->rv;
    }
    if (!out->keys && !bad) {
        out->keys = zm_alloc(m, r->mine, r->ksize);
        out->values = r->vsize ? zm_alloc(m, r->mine, r->vsize) : NULL;
        out->allocated = 1;
        out->device_context = zm_mem_is_device(m) ? m->zctx : NULL; /* for zesort_mpi_free */
        bad |= !out->keys || (r->vsize && !out->values);
    }
    if (bad)
        return zm_fail(zm_mem_is_device(m) ? ZESORT_ERROR_OUT_OF_DEVICE_MEMORY
                                           : ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                       "out of %s memory for %llu + %llu keys", zm_mem_is_device(m) ? "device"
                       : "host", (unsigned long long)r->n, (unsigned long long)r->mine);
    zm_keys_init(&r->kv, &r->order, r->lk, r->n, m);
    return ZESORT_OK;
}

static zesort_status local_sort(zm_run *r, const void *keys, const void *values)
{
    if (zm_test_fail_rank(r->rank))
        return zm_fail(ZESORT_ERROR_BACKEND, "local sort failed (test hook "
                       "ZESORT_MPI_TEST_FAIL_RANK=%d)", r->rank);
    if (r->n == 0)
        return ZESORT_OK;
    return zm_prefix(zm_sort_copy(&r->mem, keys, values, r->lk, r->vsize ? r->lv : NULL, r->n,
                                  &r->sopts), "local sort");
}

/* Splitters, then the counts every pair of ranks exchanges. */
static zesort_status splitters(zm_run *r)
{
    int count = r->size - 1;
    zesort_status st = zm_find_splits(r->comm, &r->kv, r->total, r->targets, count, r->split,
                                      r->scratch, &r->stats.splitter_rounds);
    if (st != ZESORT_OK)
        return st;
    uint64_t prev = 0;
    for (int p = 0; p < r->size; p++) {
        uint64_t end = p < count ? r->split[p] : r->n;
        r->send_first[p] = prev;
        r->send_count[p] = end - prev;
        prev = end;
    }
    int rc = MPI_Alltoall(r->send_count, 1, MPI_UINT64_T, r->recv_count, 1, MPI_UINT64_T, r->comm);
    if (rc != MPI_SUCCESS)
        return zm_mpi_fail(rc, "MPI_Alltoall (counts)");
    if (r->kv.st != ZESORT_OK) /* a failed copy of device keys, now the collectives are done */
        return zm_prefix(r->kv.st, "splitters");
    uint64_t sum = 0;
    for (int p = 0; p < r->size; p++) {
        r->recv_first[p] = sum;
        sum += r->recv_count[p];
    }
    return sum == r->mine ? ZESORT_OK
                          : zm_fail(ZESORT_ERROR_BACKEND, "internal error: %llu keys to receive, "
                                    "want %llu", (unsigned long long)sum,
                                    (unsigned long long)r->mine);
}

static zesort_status exchange(zm_run *r)
{
    zm_stream s[2] = {{r->lk, r->rk, r->ksize}, {r->lv, r->rv, r->vsize}};
    return zm_exchange(r->comm, &r->mem, s, r->vsize ? 2 : 1, r->send_count, r->send_first,
                       r->recv_count, r->recv_first, zm_chunk_bytes(), &r->stats.bytes_sent,
                       &r->stats.bytes_received, &r->stats.exchange_rounds);
}

/* Whether the received keys came from one rank alone: then they are one
 * slice of that rank's sorted keys, in order already (one rank; keys that
 * stay where they are, as all-equal keys or input sorted across ranks do). */
static int one_run(const zm_run *r)
{
    int runs = 0;
    for (int p = 0; p < r->size; p++)
        runs += r->recv_count[p] > 0;
    return runs <= 1;
}

static zesort_status merge(zm_run *r, zesort_mpi_output *out)
{
    if (r->mine == 0)
        return ZESORT_OK;
    if (one_run(r)) {
        zesort_status st = zm_copy(&r->mem, out->keys, r->rk, r->mine * r->ksize);
        if (st == ZESORT_OK && r->vsize)
            st = zm_copy(&r->mem, out->values, r->rv, r->mine * r->vsize);
        return zm_prefix(st, "copying the received keys");
    }
    return zm_prefix(zm_sort_copy(&r->mem, r->rk, r->vsize ? r->rv : NULL, out->keys,
                                  r->vsize ? out->values : NULL, r->mine, &r->sopts),
                     "sorting the received keys");
}

/* Runs the phases on r, timing each; every phase ends in an agreement. */
static zesort_status run_phases(zm_run *r, const void *keys, const void *values,
                                zesort_mpi_output *out)
{
    zesort_status st = zm_agree(r->comm, plan_counts(r, values != NULL));
    if (st == ZESORT_OK)
        st = zm_agree(r->comm, plan_buffers(r, out));
    if (st != ZESORT_OK)
        return st;
    double t0 = zm_now_ms();
    st = zm_agree(r->comm, local_sort(r, keys, values));
    double t1 = zm_now_ms();
    if (st == ZESORT_OK)
        st = zm_agree(r->comm, splitters(r));
    double t2 = zm_now_ms();
    if (st == ZESORT_OK)
        st = zm_agree(r->comm, exchange(r));
    double t3 = zm_now_ms();
    if (st != ZESORT_OK)
        return st;
    zm_free(&r->mem, r->lk); /* the local copy is sent: its memory goes before the merge */
    zm_free(&r->mem, r->lv);
    r->lk = r->lv = NULL;
    st = zm_agree(r->comm, merge(r, out));
    double t4 = zm_now_ms();
    r->stats.local_sort_ms = t1 - t0;
    r->stats.splitters_ms = t2 - t1;
    r->stats.exchange_ms = t3 - t2;
    r->stats.merge_ms = t4 - t3;
    r->stats.keys_in = r->n;
    r->stats.keys_out = r->mine;
    return st;
}

/* The library's own communicator: its messages never meet the caller's, and
 * an MPI error comes back as a code instead of aborting the job. */
static zesort_status dup_comm(MPI_Comm comm, zm_run *r)
{
    int rc = MPI_Comm_dup(comm, &r->comm);
    if (rc != MPI_SUCCESS)
        return zm_mpi_fail(rc, "MPI_Comm_dup");
    MPI_Comm_set_errhandler(r->comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(r->comm, &r->rank);
    MPI_Comm_size(r->comm, &r->size);
    size_t p = (size_t)r->size;
    /* 6 arrays of p, then the splitters' scratch (also plan_counts' 2p) */
    r->u64 = calloc(6 * p + ZM_SPLIT_SCRATCH(p), sizeof *r->u64);
    if (!r->u64)
        return zm_fail(ZESORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory (%zu ranks)", p);
    r->send_count = r->u64, r->send_first = r->u64 + p, r->recv_count = r->u64 + 2 * p;
    r->recv_first = r->u64 + 3 * p, r->targets = r->u64 + 4 * p, r->split = r->u64 + 5 * p;
    r->scratch = r->u64 + 6 * p;
    return ZESORT_OK;
}

static void release(zm_run *r, zesort_mpi_output *out, zesort_status st)
{
    zm_free(&r->mem, r->lk);
    zm_free(&r->mem, r->lv);
    zm_free(&r->mem, r->rk);
    zm_free(&r->mem, r->rv);
    zm_mem_close(&r->mem);
    free(r->u64);
    if (st != ZESORT_OK && out) {
        if (out->allocated)
            zm_output_free(out);
        if (st != ZESORT_ERROR_INVALID_ARGUMENT || out->count != r->mine || !out->keys)
            out->count = 0;
    }
    if (r->comm != MPI_COMM_NULL)
        MPI_Comm_free(&r->comm);
}

zesort_status zm_sort(zesort_context *ctx, MPI_Comm comm, const void *keys, const void *values,
                      uint64_t n_local, zesort_mpi_output *out, const zesort_mpi_options *opts,
                      zesort_mpi_stats *stats)
{
    zm_clear_error();
    if (stats)
        memset(stats, 0, sizeof *stats);
    int inited = 0;
    MPI_Initialized(&inited);
    if (!inited || comm == MPI_COMM_NULL) /* no collective is possible: a local error */
        return zm_fail(ZESORT_ERROR_INVALID_ARGUMENT, inited ? "comm is MPI_COMM_NULL"
                                                             : "MPI is not initialised");
    zm_run r;
    memset(&r, 0, sizeof r);
    r.comm = MPI_COMM_NULL;
    r.ctx = ctx;
    zm_mem_host(&r.mem, ctx);
    r.n = n_local;
    r.sopts = opts->sort;
    r.order = zm_order_of(&r.sopts);
    r.ksize = r.order.key_size;
    r.vsize = values ? (r.sopts.value_type == ZESORT_VALUE_U64 ? 8 : 4) : 0;
    if (out) {
        out->count = 0;
        out->allocated = 0;
        out->device_context = NULL;
    }
    zesort_status st = dup_comm(comm, &r);
    if (r.comm == MPI_COMM_NULL)
        return st;
    if (st == ZESORT_OK)
        st = check_args(&r, ctx, keys, values, out, opts);
    st = zm_agree(r.comm, st);
    if (st == ZESORT_OK)
        st = run_phases(&r, keys, values, out);
    if (st == ZESORT_OK) {
        out->count = r.mine;
        if (stats)
            *stats = r.stats;
    }
    release(&r, out, st);
    return st;
}
