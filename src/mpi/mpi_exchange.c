/*
 * mpi_exchange.c — the one all-to-all exchange of the distributed sort:
 * every key (and its value) goes from the rank that sorted it locally
 * straight to the rank that holds it at the end.
 *
 * Why point-to-point in chunks rather than one MPI_Alltoallv: Alltoallv
 * takes int counts and int displacements, so more than 2^31 elements per
 * rank (or a buffer beyond 2 GiB) cannot be described. Here each pair's
 * part is sent as messages of at most `chunk` bytes (MPI_BYTE, a count
 * that fits an int; the offset is a pointer, never an int), round after
 * round: in round k each rank posts its k-th chunk to and from every
 * peer that has one, then waits for them. MPI's non-overtaking order per
 * (source, tag) keeps the chunks of a pair in order; a rank with fewer
 * rounds stops early, as its peers have no more chunks for it either.
 * With device_buffers the pointers are device memory, handed to MPI as
 * they are (a GPU-aware MPI moves them; mpi_sort.c checks that).
 */
#include <stdlib.h>

#include "mpi_internal.h"

enum { TAG_BASE = 0x2e50 }; /* + stream index */

/* Posts round k's messages of one stream; returns the requests added. */
static int post_round(MPI_Comm comm, int me, int nranks, const zm_stream *s, int tag,
                      const uint64_t *send_count, const uint64_t *send_first,
                      const uint64_t *recv_count, const uint64_t *recv_first, uint64_t chunk,
                      uint64_t k, MPI_Request *req, int *rc)
{
    int posted = 0;
    for (int p = 0; p < nranks && *rc == MPI_SUCCESS; p++) {
        if (p == me)
            continue;
        uint64_t bytes = recv_count[p] * s->elem_size, off = k * chunk;
        if (bytes > off) {
            uint64_t len = bytes - off < chunk ? bytes - off : chunk;
            *rc = MPI_Irecv(s->recv + recv_first[p] * s->elem_size + off, (int)len, MPI_BYTE, p,
                            tag, comm, &req[posted++]);
        }
        bytes = send_count[p] * s->elem_size;
        if (bytes > off && *rc == MPI_SUCCESS) {
            uint64_t len = bytes - off < chunk ? bytes - off : chunk;
            *rc = MPI_Isend(s->send + send_first[p] * s->elem_size + off, (int)len, MPI_BYTE, p,
                            tag, comm, &req[posted++]);
        }
    }
    return posted;
}

zesort_status zm_exchange(MPI_Comm comm, zm_mem *mem, const zm_stream *streams, int nstreams,
                          const uint64_t *send_count, const uint64_t *send_first,
                          const uint64_t *recv_count, const uint64_t *recv_first, uint64_t chunk,
                          uint64_t *bytes_sent, uint64_t *bytes_received, uint64_t *rounds)
{
    int me = 0, nranks = 1;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &nranks);
    *bytes_sent = *bytes_received = 0;
    zesort_status st = ZESORT_OK;
    for (int s = 0; s < nstreams; s++) {
        size_t es = streams[s].elem_size;
        /* the rank's own part never touches MPI; a failed copy is reported
         * after the exchange, which the other ranks are waiting in */
        if (send_count[me] && st == ZESORT_OK)
            st = zm_copy(mem, streams[s].recv + recv_first[me] * es,
                         streams[s].send + send_first[me] * es, send_count[me] * es);
        for (int p = 0; p < nranks; p++) {
            if (p != me) {
                *bytes_sent += send_count[p] * es;
                *bytes_received += recv_count[p] * es;
            }
        }
    }
    /* statuses of our own rather than MPI_STATUSES_IGNORE: GCC 12 takes
     * MPICH's (MPI_Status *)1 for an array of size 0 (-Wstringop-overflow) */
    size_t most = (size_t)(2 * nranks * nstreams);
    MPI_Request *req = malloc(sizeof *req * most);
    MPI_Status *status = malloc(sizeof *status * most);
    if (!req || !status) {
        free(req);
        free(status);
        return zm_fail(ZESORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory (exchange requests)");
    }
    int rc = MPI_SUCCESS;
    for (uint64_t k = 0;; k++) {
        int posted = 0;
        for (int s = 0; s < nstreams && rc == MPI_SUCCESS; s++)
            posted += post_round(comm, me, nranks, &streams[s], TAG_BASE + s, send_count,
                                 send_first, recv_count, recv_first, chunk, k, req + posted, &rc);
        if (posted)
            ++*rounds;
        /* even after a failed post: complete what was posted */
        int wrc = posted ? MPI_Waitall(posted, req, status) : MPI_SUCCESS;
        if (rc == MPI_SUCCESS)
            rc = wrc;
        if (!posted || rc != MPI_SUCCESS)
            break;
    }
    free(req);
    free(status);
    return rc != MPI_SUCCESS ? zm_mpi_fail(rc, "the all-to-all exchange") : st;
}
