/*
 * mpi_internal.h — what the files of libzesort_mpi (src/mpi/) share. The
 * library uses only the public API of libzesort (zesort.h) and MPI: it is a
 * layer above the core, which knows nothing of it.
 */
#ifndef ZESORT_MPI_INTERNAL_H
#define ZESORT_MPI_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "zesort_mpi.h"

/* ---- mpi_error.c: messages and agreement across ranks --------------------- */

/* Sets this thread's message (printf format) and returns status. */
zesort_status zm_fail(zesort_status status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Clears this thread's message. */
void zm_clear_error(void);
/* A failed MPI call: the message names `what` and MPI's error string;
 * returns ZESORT_ERROR_BACKEND. */
zesort_status zm_mpi_fail(int mpi_rc, const char *what);

/* Collective: every rank passes its own status; all return the status of the
 * lowest-numbered failing rank (OK when none failed). A rank that did not
 * fail gets that rank's message, "rank R: ...". Never hangs on a failure
 * that every rank reaches this call after. */
zesort_status zm_agree(MPI_Comm comm, zesort_status mine);

/* ---- mpi_keys.c: the order the sort compares keys by ---------------------- */

/* How keys are compared: the ordered key (zesort.h), its bits [lo, lo+width),
 * all of them flipped when descending. */
typedef struct zm_order {
    zesort_key_type type;
    unsigned lo, width; /* width 1..64 */
    int descending;
    size_t key_size;    /* 4 or 8 */
} zm_order;

/* The order opts describe (opts already checked by zesort_check). */
zm_order zm_order_of(const zesort_options *opts);
/* The compared value ("digit") of key i of `keys`. */
uint64_t zm_digit(const zm_order *o, const void *keys, uint64_t i);
/* On keys sorted by the order: how many have digit < d (lower) or <= d (upper). */
uint64_t zm_count_below(const zm_order *o, const void *keys, uint64_t n, uint64_t d);
uint64_t zm_count_upto(const zm_order *o, const void *keys, uint64_t n, uint64_t d);

/* ---- mpi_splitters.c -------------------------------------------------------- */

/* Digit bits each refinement round decides, and the counts per target a
 * round reduces (2^bits - 1). */
#define ZM_SPLIT_BITS 8
#define ZM_SPLIT_STEPS ((1 << ZM_SPLIT_BITS) - 1)
/* u64 scratch zm_find_splits needs for `count` targets. */
#define ZM_SPLIT_SCRATCH(count) ((size_t)(count) * (5 + 2 * ZM_SPLIT_STEPS))

/* Collective. keys: this rank's n keys, sorted by the order; total: all
 * ranks' keys. targets[t] (t < count, each <= total) are global positions;
 * on return split[t] is how many of this rank's keys come before global
 * position targets[t] in the stable order (digit, rank, index). scratch:
 * ZM_SPLIT_SCRATCH(count) elements. *rounds grows by the Allreduce rounds taken.
 * Returns OK or BACKEND (reported). */
zesort_status zm_find_splits(MPI_Comm comm, const zm_order *o, const void *keys, uint64_t n,
                             uint64_t total, const uint64_t *targets, int count, uint64_t *split,
                             uint64_t *scratch, uint64_t *rounds);

/* ---- mpi_exchange.c ----------------------------------------------------------- */

/* One array moved by the exchange: to rank p go send_count[p] elements from
 * send + send_first[p] elements; from rank p come recv_count[p] elements to
 * recv + recv_first[p] elements. */
typedef struct zm_stream {
    const char *send;
    char *recv;
    size_t elem_size;
} zm_stream;

/* Collective: the all-to-all exchange of every stream (keys, values) with
 * the same counts, point-to-point in chunks of at most `chunk` bytes per
 * message (so 64-bit counts never meet MPI's int counts). The rank's own
 * part is copied. *bytes_sent / *bytes_received: to and from other ranks;
 * *rounds: chunk rounds. Returns OK or BACKEND (reported). */
zesort_status zm_exchange(MPI_Comm comm, const zm_stream *streams, int nstreams,
                          const uint64_t *send_count, const uint64_t *send_first,
                          const uint64_t *recv_count, const uint64_t *recv_first, uint64_t chunk,
                          uint64_t *bytes_sent, uint64_t *bytes_received, uint64_t *rounds);

/* ---- mpi_test_hooks.c: for tests only ------------------------------------------ */

/* The exchange's largest message in bytes: 1 GiB, or the environment variable
 * ZESORT_MPI_TEST_CHUNK_BYTES (decimal, >= 1) so tests run many rounds on
 * small inputs. */
uint64_t zm_chunk_bytes(void);
/* 1 when the environment variable ZESORT_MPI_TEST_FAIL_RANK names `rank`:
 * that rank's local sort then fails (ZESORT_ERROR_BACKEND), so tests see
 * every rank return an error. */
int zm_test_fail_rank(int rank);

/* Monotonic wall clock in milliseconds. */
double zm_now_ms(void);

#endif
