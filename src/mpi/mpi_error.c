/*
 * mpi_error.c — libzesort_mpi's error messages (one per thread, like
 * zesort_last_error) and the agreement that makes every rank fail together:
 * a rank that returned alone would leave the others waiting in the next
 * collective.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mpi_internal.h"

enum { MSG_CAP = 512 };
static _Thread_local char last_error[MSG_CAP];

zesort_status zm_fail(zesort_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return status;
}

zesort_status zm_prefix(zesort_status status, const char *what)
{
    if (status != ZESORT_OK) {
        char msg[MSG_CAP]; /* the message may lose its end, never the prefix */
        memcpy(msg, last_error, sizeof msg);
        size_t n = strlen(what);
        if (n + 2 < sizeof last_error) {
            memcpy(last_error, what, n);
            memcpy(last_error + n, ": ", 2);
            memcpy(last_error + n + 2, msg, sizeof last_error - n - 3);
            last_error[sizeof last_error - 1] = '\0';
        }
    }
    return status;
}

void zm_clear_error(void)
{
    last_error[0] = '\0';
}

zesort_status zm_mpi_fail(int mpi_rc, const char *what)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(mpi_rc, text, &len) != MPI_SUCCESS)
        snprintf(text, sizeof text, "MPI error %d", mpi_rc);
    return zm_fail(ZESORT_ERROR_BACKEND, "%s failed: %s", what, text);
}

zesort_status zm_agree(MPI_Comm comm, zesort_status mine)
{
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    /* MINLOC on (status, rank): errors are negative, OK is 0, so the least
     * status wins, and among equal ones the lowest rank. */
    int in[2] = {(int)mine, rank}, out[2] = {0, 0};
    int rc = MPI_Allreduce(in, out, 1, MPI_2INT, MPI_MINLOC, comm);
    if (rc != MPI_SUCCESS)
        return zm_mpi_fail(rc, "MPI_Allreduce (agreeing on errors)");
    if (out[0] == ZESORT_OK)
        return ZESORT_OK;
    /* Only on failure: the failing rank's message goes to everyone. */
    char msg[MSG_CAP];
    memcpy(msg, last_error, sizeof msg);
    rc = MPI_Bcast(msg, MSG_CAP, MPI_CHAR, out[1], comm);
    if (rc != MPI_SUCCESS)
        return zm_mpi_fail(rc, "MPI_Bcast (an error message)");
    msg[MSG_CAP - 1] = '\0';
    if (out[1] != rank) {
        char own[MSG_CAP];
        snprintf(own, sizeof own, "rank %d: %.480s", out[1], msg);
        memcpy(last_error, own, sizeof own);
    }
    return (zesort_status)out[0];
}

const char *zesort_mpi_last_error(void)
{
    return last_error;
}
