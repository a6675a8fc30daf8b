/*
 * mpi_api.c — the public functions of libzesort_mpi: defaults, the count a
 * rank receives, releasing library-owned output, and the sort's entry points
 * (the sort itself: mpi_sort.c, below).
 */
#include <string.h>

#include "mpi_internal.h"

void zesort_mpi_options_default(zesort_mpi_options *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof *opts);
    zesort_options_default(&opts->sort);
}

zesort_status zesort_mpi_count(MPI_Comm comm, uint64_t n_local, uint64_t *count)
{
    zm_clear_error();
    int inited = 0;
    MPI_Initialized(&inited);
    if (!inited || comm == MPI_COMM_NULL)
        return zm_fail(ZESORT_ERROR_INVALID_ARGUMENT, inited ? "comm is MPI_COMM_NULL"
                                                             : "MPI is not initialised");
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    /* The reduction runs even for count NULL, so no rank is left in it alone. */
    uint64_t total = 0;
    int rc = MPI_Allreduce(&n_local, &total, 1, MPI_UINT64_T, MPI_SUM, comm);
    if (rc != MPI_SUCCESS)
        return zm_mpi_fail(rc, "MPI_Allreduce (counts)");
    int bad = count == NULL, any_bad = 0;
    rc = MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, comm);
    if (rc != MPI_SUCCESS)
        return zm_mpi_fail(rc, "MPI_Allreduce (arguments)");
    if (any_bad)
        return zm_fail(ZESORT_ERROR_INVALID_ARGUMENT, "count is NULL%s", bad ? "" : " on a rank");
    uint64_t p = (uint64_t)size;
    *count = total / p + ((uint64_t)rank < total % p);
    return ZESORT_OK;
}

zesort_status zesort_mpi_sort_timed(zesort_context *ctx, MPI_Comm comm, const void *keys,
                                    const void *values, uint64_t n_local, zesort_mpi_output *out,
                                    const zesort_mpi_options *opts, zesort_mpi_stats *stats)
{
    zesort_mpi_options defaults;
    zesort_mpi_options_default(&defaults);
    return zm_sort(ctx, comm, keys, values, n_local, out, opts ? opts : &defaults, stats);
}

zesort_status zesort_mpi_sort(zesort_context *ctx, MPI_Comm comm, const void *keys,
                              const void *values, uint64_t n_local, zesort_mpi_output *out,
                              const zesort_mpi_options *opts)
{
    return zesort_mpi_sort_timed(ctx, comm, keys, values, n_local, out, opts, NULL);
}

void zesort_mpi_free(zesort_mpi_output *out)
{
    if (out)
        zm_output_free(out);
}
