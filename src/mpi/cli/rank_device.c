/*
 * rank_device.c — which device a rank sorts on: `--device N` (device N on
 * every rank), or `--device local`: the rank's index among the ranks on its
 * node (MPI_COMM_TYPE_SHARED) modulo the backend's device count, so that
 * `mpirun -np 6` on a node with 6 GPUs (Aurora's) gives each rank its own.
 * Without --device, the backend's choice (the first GPU) on every rank.
 */
#include <string.h>

#include "mpi_cli.h"

int mc_parse_device(cli_args *a, const char *cmd, int64_t *device)
{
    const char *v = a->inline_value ? a->inline_value
                    : a->pos < a->argc ? a->argv[a->pos] : NULL;
    if (v && strcmp(v, "local") == 0) {
        if (!a->inline_value)
            a->pos++;
        *device = MC_DEVICE_LOCAL;
        return 0;
    }
    return cli_parse_device(a, cmd, device);
}

int mc_check_device_backend(const char *cmd, zesort_backend backend, int64_t device)
{
    return cli_check_device_backend(cmd, backend, device == MC_DEVICE_LOCAL ? 0 : device);
}

/* This rank's index among the ranks of its node. */
static int node_rank(void)
{
    MPI_Comm node;
    int rank = 0;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) !=
        MPI_SUCCESS)
        return mc_rank();
    MPI_Comm_rank(node, &rank);
    MPI_Comm_free(&node);
    return rank;
}

/* mc_create's choice of device; a backend may start in zesort_device_count. */
static zesort_status create(zesort_backend backend, int64_t device, zesort_context **out)
{
    if (device == MC_DEVICE_LOCAL) { /* collective: every rank passes here alike */
        int local = node_rank();
        uint32_t count = 0;
        zesort_status st = zesort_device_count(backend, &count);
        if (st != ZESORT_OK)
            return st;
        if (count == 0)
            return zesort_create_on_devices(backend, (const uint32_t[]){0}, 1, out); /* says why */
        device = (int64_t)((uint32_t)local % count);
    }
    return cli_create(backend, device, out);
}

zesort_status mc_create(zesort_backend backend, int64_t device, zesort_context **out)
{
    *out = NULL;
    cli_signals_hold(); /* as cli_create, over the device count too */
    zesort_status st = create(backend, device, out);
    cli_signals_release();
    return st;
}
