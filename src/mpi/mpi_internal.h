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
/* status OK: returned as is; else this thread's message becomes
 * "what: <message>" and status is returned. */
zesort_status zm_prefix(zesort_status status, const char *what);
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

/* ---- mpi_memory.c: where the arrays live (host or Level Zero device) ------ */

/* The operations a sort needs on its arrays, host or device (mpi_memory.c). */
typedef struct zm_mem_ops zm_mem_ops;
/* One sort's memory: the table, and for device memory the caller's Level
 * Zero context and device (ze handles, kept as void * so that the files
 * other than mpi_memory.c need no Level Zero header) with the command
 * queue, list, interop sorter and sort temp the library creates there. */
typedef struct zm_mem {
    const zm_mem_ops *ops;
    zesort_context *ctx; /* host: runs the sorts */
    void *zctx, *zdev, *queue, *list, *sorter, *temp;
    uint64_t temp_bytes;
} zm_mem;

/* Host memory, sorts on ctx. Cannot fail. */
void zm_mem_host(zm_mem *m, zesort_context *ctx);
/* The caller's device memory (ze_context, ze_device): creates a queue, a
 * command list and a sorter there. On failure (reported) m still needs
 * zm_mem_close. */
zesort_status zm_mem_device(zm_mem *m, zesort_context *ctx, void *ze_context, void *ze_device);
/* Releases what zm_mem_device created (nothing for host memory). */
void zm_mem_close(zm_mem *m);
int zm_mem_is_device(const zm_mem *m);
/* n elements of size bytes (at least 1 byte, so never NULL for 0): NULL
 * when out of memory; zm_free(m, NULL) is a no-op. */
void *zm_alloc(zm_mem *m, uint64_t n, size_t size);
void zm_free(zm_mem *m, void *p);
/* Copies bytes; either side may be host memory when m is device memory.
 * Returns OK or the failure (reported). */
zesort_status zm_copy(zm_mem *m, void *dst, const void *src, uint64_t bytes);
/* n copies of `bytes` bytes each, together (device memory: one round trip). */
typedef struct zm_copy_req {
    void *dst;
    const void *src;
} zm_copy_req;
zesort_status zm_copy_many(zm_mem *m, const zm_copy_req *req, uint64_t n, size_t bytes);
/* Stable out-of-place sort of n keys (values vi/vo or NULL) by o, finished
 * on return (reported on failure). */
zesort_status zm_sort_copy(zm_mem *m, const void *ki, const void *vi, void *ko, void *vo,
                           uint64_t n, const zesort_options *o);
/* OK when p is device or shared memory of ze_context (device memory: of
 * ze_device); else INVALID_ARGUMENT naming `what` (reported). */
zesort_status zm_device_memory(void *ze_context, void *ze_device, const void *p,
                               const char *what);
/* Releases what the library allocated for out (host or, device_buffers, the
 * caller's context's device memory) and empties it: zesort_mpi_free, and a
 * failed sort's output. */
void zm_output_free(zesort_mpi_output *out);
/* Whether this MPI takes Level Zero device pointers: 1 yes, 0 no, -1 it
 * cannot tell (no query in its headers). */
int zm_mpi_ze_aware(void);

/* ---- mpi_sort.c: the distributed sort (below the public entry, mpi_api.c) -- */

/* zesort_mpi_sort_timed with its options given (the defaults when the
 * caller passed none): every rank's phases, agreed after each. */
zesort_status zm_sort(zesort_context *ctx, MPI_Comm comm, const void *keys, const void *values,
                      uint64_t n_local, zesort_mpi_output *out, const zesort_mpi_options *opts,
                      zesort_mpi_stats *stats);

/* ---- mpi_keys.c: the order the sort compares keys by ---------------------- */

/* How keys are compared: the ordered key (zesort.h), its bits [lo, lo+width),
 * all of them flipped when descending. */
typedef struct zm_order {
    zesort_key_type type;
    unsigned lo, width; /* width 1..64 */
    int descending;
    size_t key_size;    /* 1, 2, 4 or 8 */
} zm_order;

/* The order opts describe (opts already checked by zesort_check). */
zm_order zm_order_of(const zesort_options *opts);
/* The compared value ("digit") of key i of `keys`. */
uint64_t zm_digit(const zm_order *o, const void *keys, uint64_t i);

/* A rank's keys, sorted by the order, as the splitters search them: host
 * memory directly; device memory (device_buffers) by bisections that run
 * in lockstep, every step copying the keys all of them probe (each once)
 * to the host in one device round trip: a search of q digits over n keys
 * takes about log2(n) round trips and copies at most q log2(n) keys, never
 * the array. */
typedef struct zm_keys {
    zm_order o;
    const char *keys;
    uint64_t n;
    zm_mem *mem;      /* device memory: copies go through it; NULL: host */
    zesort_status st; /* the first failed copy or allocation (reported): later
                         searches answer 0, and the caller reports it once
                         its collectives are done */
    uint64_t bytes_copied, trips; /* device to host: bytes, round trips */
} zm_keys;

/* kv over n keys (device memory when mem is device memory; mem NULL: host). */
void zm_keys_init(zm_keys *kv, const zm_order *o, const void *keys, uint64_t n, zm_mem *mem);
/* The digit of key i (i < n). */
uint64_t zm_digit_at(zm_keys *kv, uint64_t i);
/* counts[q], q < nq: how many of the keys have digit < digits[q] (upto 0)
 * or <= digits[q] (upto 1). */
void zm_count_many(zm_keys *kv, const uint64_t *digits, uint64_t nq, int upto,
                   uint64_t *counts);

/* ---- mpi_splitters.c -------------------------------------------------------- */

/* Digit bits each refinement round decides, and the counts per target a
 * round reduces (2^bits - 1). */
#define ZM_SPLIT_BITS 8
#define ZM_SPLIT_STEPS ((1 << ZM_SPLIT_BITS) - 1)
/* u64 scratch zm_find_splits needs for `count` targets. */
#define ZM_SPLIT_SCRATCH(count) ((size_t)(count) * (5 + 3 * ZM_SPLIT_STEPS))

/* Collective. kv: this rank's keys, sorted by the order; total: all
 * ranks' keys. targets[t] (t < count, each <= total) are global positions;
 * on return split[t] is how many of this rank's keys come before global
 * position targets[t] in the stable order (digit, rank, index). scratch:
 * ZM_SPLIT_SCRATCH(count) elements. *rounds grows by the Allreduce rounds taken.
 * Returns OK or BACKEND (an MPI call, reported); a failed copy of device keys
 * is left in kv->st, for the caller to agree on after its collectives. */
zesort_status zm_find_splits(MPI_Comm comm, zm_keys *kv, uint64_t total,
                             const uint64_t *targets, int count, uint64_t *split,
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
 * message (so 64-bit counts never meet MPI's int counts); the buffers are
 * mem's (device pointers go to MPI as they are). The rank's own part is
 * copied by mem. *bytes_sent / *bytes_received: to and from other ranks;
 * *rounds: chunk rounds. Returns OK or BACKEND (reported). */
zesort_status zm_exchange(MPI_Comm comm, zm_mem *mem, const zm_stream *streams, int nstreams,
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

/* 1 when ZESORT_MPI_TEST_NO_HOST_STAGING=1: every host array of keys or
 * values the sort allocates fails (OUT_OF_HOST_MEMORY), so a test shows the
 * device path never stages keys through the host. */
int zm_test_no_host_staging(void);
/* ZESORT_MPI_TEST_ZE_AWARE=0 or 1: what zm_mpi_ze_aware answers instead of
 * asking MPI (so the refusal of a non-GPU-aware MPI is tested on an MPI
 * that cannot tell); -1 when unset. */
int zm_test_gpu_aware(void);
/* 1 when ZESORT_MPI_TEST_HOST_ADDRESSABLE=1: the device memory is host
 * memory too (the test driver's SVM), so any MPI can move it and an MPI
 * that says it is not GPU-aware is used anyway. */
int zm_test_host_addressable(void);

/* Monotonic wall clock in milliseconds. */
double zm_now_ms(void);

#endif
