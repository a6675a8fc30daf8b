/*
 * mpi_main.c — zesort-mpi, the MPI half of the zesort command line: `zesort
 * mpi-sort` and `zesort mpi-bench` run this program in place of zesort
 * (execv, same process: what mpirun gave the rank stays), so that zesort
 * and libzesort never load MPI. Run directly it takes the same arguments:
 * `mpirun -np P zesort-mpi mpi-sort INPUT OUTPUT ...`.
 */
#include <stdio.h>
#include <string.h>

#include "mpi_cli.h"

int main(int argc, char **argv)
{
    cli_signals_init(); /* rank 0's temporary files go on a fatal signal */
    if (argc < 2)
        return cli_usage(NULL, "missing command (mpi-sort, mpi-bench)");
    const char *cmd = argv[1];
    int (*run)(int, char **) = strcmp(cmd, "mpi-sort") == 0    ? mc_cmd_mpi_sort
                               : strcmp(cmd, "mpi-bench") == 0 ? mc_cmd_mpi_bench
                                                               : NULL;
    if (!run)
        return cli_usage(NULL, "unknown command '%s' (zesort-mpi runs mpi-sort, mpi-bench)", cmd);
    if (cli_wants_help(argc - 2, argv + 2)) { /* no MPI needed for that */
        cli_print_help(cmd);
        return fflush(stdout) == 0 ? 0 : 1;
    }
    int provided = 0;
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        return cli_fail("MPI_Init failed");
    /* the C fallback's threads and the drivers' never call MPI: FUNNELED is
     * all the library asks (and MPI_Init would give) */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = mc_same_args(argc - 1, argv + 1); /* the command and its arguments */
    if (!rc)
        rc = run(argc - 2, argv + 2);
    if (fflush(stdout) != 0 && rc == 0)
        rc = cli_fail("cannot write to standard output");
    MPI_Finalize();
    return rc;
}
