/*
 * mpi_report.c — errors of zesort-mpi: kept per rank, agreed by all, printed
 * once (by rank 0), so P ranks failing alike give one line, not P.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mpi_cli.h"

enum { MSG_CAP = 1024 };
static char kept[MSG_CAP];
static int saved_stderr = -1;

int mc_rank(void)
{
    int inited = 0, rank = 0;
    MPI_Initialized(&inited);
    if (inited)
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

int mc_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(kept, sizeof kept, fmt, ap);
    va_end(ap);
    return CLI_EXIT_FAILURE;
}

int mc_agree(int rc)
{
    int rank = mc_rank();
    /* the highest exit code wins; the message is the lowest rank's that has
     * one (MAXLOC breaks ties by the lowest index) */
    int worst = 0, in[2] = {kept[0] ? 1 : 0, rank}, who[2] = {0, 0};
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(in, who, 1, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD);
    if (worst != 0 && who[0]) {
        char msg[MSG_CAP];
        memcpy(msg, kept, sizeof msg);
        MPI_Bcast(msg, MSG_CAP, MPI_CHAR, who[1], MPI_COMM_WORLD);
        msg[MSG_CAP - 1] = '\0';
        if (rank == 0)
            who[1] == 0 ? cli_fail("%s", msg) : cli_fail("rank %d: %s", who[1], msg);
    }
    kept[0] = '\0';
    return worst;
}

/* FNV-1a over the arguments, each with its terminating NUL (so that "ab"
 * differs from "a" "b"). */
static uint64_t args_hash(int argc, char **argv)
{
    uint64_t h = UINT64_C(14695981039346656037);
    for (int i = 0; i < argc; i++) {
        const unsigned char *p = (const unsigned char *)argv[i];
        do
            h = (h ^ *p) * UINT64_C(1099511628211);
        while (*p++);
    }
    return h;
}

int mc_same_args(int argc, char **argv)
{
    uint64_t mine = args_hash(argc, argv), first = mine;
    int differ = mc_rank(), lowest = INT_MAX;
    MPI_Bcast(&first, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD); /* rank 0's */
    if (mine == first)
        differ = INT_MAX;
    MPI_Allreduce(&differ, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (lowest == INT_MAX)
        return 0;
    /* every rank knows: all fail alike, rank 0 says why */
    if (mc_rank() == 0)
        mc_fail("the ranks were not given the same arguments: rank %d's differ from rank 0's "
                "(every rank must run the same command, with the same options)", lowest);
    return mc_agree(CLI_EXIT_USAGE);
}

void mc_quiet_begin(void)
{
    if (mc_rank() == 0 || saved_stderr >= 0)
        return;
    fflush(stderr);
    saved_stderr = dup(STDERR_FILENO);
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null >= 0) {
        dup2(null, STDERR_FILENO);
        close(null);
    }
}

void mc_quiet_end(void)
{
    if (saved_stderr < 0)
        return;
    fflush(stderr);
    dup2(saved_stderr, STDERR_FILENO);
    close(saved_stderr);
    saved_stderr = -1;
}
