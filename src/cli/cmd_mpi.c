/*
 * cmd_mpi.c — `zesort mpi-sort` and `zesort mpi-bench`. They run
 * zesort-mpi, the program built with MPI (src/mpi/cli), in place of this
 * one (execv: the same process, so what mpirun gave the rank stays), found
 * next to this executable, else on PATH. Why a second program: zesort and
 * libzesort never load MPI, so a build or an install without MPI works as
 * before, and one with MPI costs nothing to the commands that do not use it.
 * A build without MPI says so (exit 2: a valid request this build cannot do).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#ifdef ZESORT_HAVE_MPI
static int exec_mpi(const char *cmd, int argc, char **argv)
{
    char **args = calloc((size_t)argc + 3, sizeof *args);
    char self[PATH_MAX], path[PATH_MAX + 16];
    if (!args)
        return cli_fail("out of host memory");
    args[0] = "zesort-mpi";
    args[1] = (char *)cmd;
    for (int i = 0; i < argc; i++)
        args[i + 2] = argv[i];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len > 0) {
        self[len] = '\0';
        char *slash = strrchr(self, '/');
        if (slash) {
            *slash = '\0';
            snprintf(path, sizeof path, "%s/zesort-mpi", self);
            execv(path, args);
        }
    }
    execvp("zesort-mpi", args);
    int err = errno;
    free(args);
    return cli_fail("%s: cannot run zesort-mpi (installed next to zesort): %s", cmd,
                    strerror(err));
}
#else
static int exec_mpi(const char *cmd, int argc, char **argv)
{
    (void)argc, (void)argv;
    return cli_usage(cmd, "this zesort was built without MPI (meson option mpi; Debian: "
                          "libopenmpi-dev openmpi-bin)");
}
#endif

int cli_cmd_mpi_sort(int argc, char **argv)
{
    return exec_mpi("mpi-sort", argc, argv);
}

int cli_cmd_mpi_bench(int argc, char **argv)
{
    return exec_mpi("mpi-bench", argc, argv);
}
