/*
 * zesort_mpi.h — the distributed sort of libzesort_mpi: every rank of an MPI
 * communicator passes its local keys (and values); on return the keys of
 * all ranks are sorted globally, in rank order, rank r holding one
 * contiguous slice of the global order. Each rank's local sorts run on its
 * own zesort context (a GPU, OpenCL or the C fallback: zesort.h).
 *
 * A separate library (libzesort_mpi, pkg-config zesort-mpi) built when MPI is
 * found; libzesort itself never depends on MPI.
 *
 * How (docs/design.md §1.6): local stable sort; exact splitters found by
 * refining them 8 key bits at a time (one MPI_Allreduce per 8 bits of the
 * sort's bit range); one all-to-all exchange in which every
 * key goes straight to its final rank (point-to-point, in chunks below 2^31
 * bytes, so any 64-bit count is exchanged); a local stable sort of the
 * received runs.
 *
 * Order and stability: keys are compared as zesort_sort compares them (key
 * type, bit range, descending). Ties are ordered by (source rank, source
 * index): a key of rank 0 comes before an equal key of rank 1, and equal keys
 * of one rank keep their input order. So the result is the stable sort of
 * the concatenation of all ranks' inputs in rank order.
 *
 * Balance: with N keys in all over P ranks, rank r receives N / P keys, plus
 * one when r < N % P (within one key of N/P), whatever the keys: all equal,
 * sorted, reversed, few distinct values or one rank holding them all.
 *
 * Collective: every function taking a communicator must be called by every
 * rank of it, with the same options. Errors are agreed: when one rank fails
 * (a bad argument, its local sort, memory), every rank returns an error
 * (the failing rank's status) and none is left waiting. The caller's input
 * arrays are only read. MPI must be initialised (MPI_Init or
 * MPI_Init_thread) by the caller; the library works on a duplicate of the
 * communicator with MPI_ERRORS_RETURN, so it neither changes the caller's
 * communicator nor aborts on an MPI error (reported as ZESORT_ERROR_BACKEND).
 */
#ifndef ZESORT_MPI_H
#define ZESORT_MPI_H

#include <mpi.h>
#include <stdint.h>

#include "zesort.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Options of a distributed sort. Initialise with zesort_mpi_options_default. */
typedef struct zesort_mpi_options {
    zesort_options sort; /* key type, order, bit range, value type, algorithm: as for
                            zesort_sort, used by every rank's local sorts */
    int device_buffers;  /* 0 (default): keys, values and outputs are host memory, which
                            is what reaches MPI (right for any MPI). 1: they are Level
                            Zero device (or shared) memory, sorted on the device and
                            handed straight to MPI, which must be GPU-aware: see
                            "Device buffers" below */
    void *ze_context;    /* device_buffers: the ze_context_handle_t the arrays were
                            allocated in (borrowed; the library allocates its own device
                            arrays there too). Ignored otherwise */
    void *ze_device;     /* device_buffers: the ze_device_handle_t they live on, where
                            the local sorts run. Ignored otherwise */
} zesort_mpi_options;

/* Device buffers (device_buffers = 1). keys, values and caller-owned
 * outputs are device (or shared) allocations of opts->ze_context (device
 * memory: of opts->ze_device); each is checked with zeMemGetAllocProperties
 * and anything else (host memory, another context or device) is
 * INVALID_ARGUMENT. ctx must be a Level Zero zesort context (else
 * UNSUPPORTED); its checks (zesort_check) apply, while the sorts themselves
 * run on opts->ze_device through the interop API (zesort_ze.h) in the
 * caller's context, as the arrays must. What happens on the device: the
 * local sort, the copy of the rank's own part, the sort of the received
 * runs. Only the keys the splitter search probes are copied to the host
 * (its bisections run in lockstep: about log2(n) device round trips per
 * refinement round, and for 1M keys per rank about 20 KB in all); the keys
 * and values are never staged through host memory. The exchange hands MPI
 * the device pointers. Each call creates a command queue, a list and an
 * interop sorter on opts->ze_device, so the sorts' kernels are built (or
 * found in the driver's cache) per call.
 * GPU-awareness is the caller's assertion: setting device_buffers says the
 * MPI can read and write Level Zero device memory. Where the MPI can tell,
 * it is asked: MPICH 4.x, MPIX_GPU_query_support(MPIX_GPU_SUPPORT_ZE)
 * (Debian 12's MPICH 4.0 has it and answers no: built without Level
 * Zero), and Open MPI builds with a Level Zero extension
 * (OMPI_HAVE_MPI_EXT_ZE in mpi-ext.h, MPIX_Query_ze_support); a "no" is
 * UNSUPPORTED. Open MPI 4.1 (Debian 12) has no such query: the caller's
 * word is taken, and a non-GPU-aware MPI handed device memory the host
 * cannot address fails inside MPI (or crashes), so stage through host
 * memory (device_buffers = 0) there. Test hooks (environment, for tests
 * only): ZESORT_MPI_TEST_HOST_ADDRESSABLE=1 says the device memory is host
 * memory too (the project's test driver), so an MPI's "no" is overridden;
 * ZESORT_MPI_TEST_ZE_AWARE=0/1 replaces MPI's answer;
 * ZESORT_MPI_TEST_NO_HOST_STAGING=1 makes every host array of keys or
 * values the sort allocates fail. */

/** Where a rank's share of the result goes (host memory, or with
 *  device_buffers device memory of opts->ze_context).
 *  Caller-owned: set keys (and values, when values are sorted) to arrays of
 *  `capacity` elements; zesort_mpi_count tells how many this rank receives.
 *  Library-owned: set keys = values = NULL; on success the library
 *  allocates arrays of exactly `count` elements (never NULL, even for 0)
 *  and sets allocated = 1: release them with zesort_mpi_free. */
typedef struct zesort_mpi_output {
    void *keys;        /* in: caller's array, or NULL to have it allocated */
    void *values;      /* in: caller's array when values are sorted (else ignored) */
    uint64_t capacity; /* in: elements keys (and values) hold; ignored when allocating */
    uint64_t count;    /* out: the keys (and values) this rank holds, 0 after an error */
    int allocated;     /* out: 1 when keys/values were allocated by the library */
    void *device_context; /* out: with allocated, NULL for host memory (malloc), or the
                             ze_context_handle_t of the device memory the library
                             allocated (device_buffers; zeMemFree'd by zesort_mpi_free) */
} zesort_mpi_output;

/** Per-phase times of one sort on this rank (milliseconds, wall clock, each
 *  ending when the rank's part of the phase is done) and what it moved. */
typedef struct zesort_mpi_stats {
    double local_sort_ms;    /* the local stable sort of the rank's input */
    double splitters_ms;     /* finding the exact splitters (collectives) */
    double exchange_ms;      /* the all-to-all exchange of keys and values */
    double merge_ms;         /* the stable sort of the received runs */
    uint64_t bytes_sent;     /* keys and values sent to other ranks */
    uint64_t bytes_received; /* keys and values received from other ranks */
    uint64_t keys_in;        /* the rank's input keys */
    uint64_t keys_out;       /* the keys it holds at the end */
    uint64_t splitter_rounds; /* MPI_Allreduce rounds of the splitter refinement */
    uint64_t exchange_rounds; /* chunked rounds of the exchange (1 below 1 GiB per pair) */
} zesort_mpi_stats;

/** Fills *opts with the defaults: zesort_options_default's sort options
 *  (u32 keys, ascending, all bits, u32 values), host buffers. */
void zesort_mpi_options_default(zesort_mpi_options *opts);

/** Collective. Sets *count to the number of keys this rank receives when
 *  every rank of comm sorts n_local keys: N / P, plus one when rank < N % P,
 *  N being the sum of all ranks' n_local. Errors: INVALID_ARGUMENT (count
 *  NULL on any rank: every rank returns it; comm MPI_COMM_NULL or MPI not
 *  initialised: returned at once, there is no one to agree with), BACKEND
 *  (an MPI call failed). */
zesort_status zesort_mpi_count(MPI_Comm comm, uint64_t n_local, uint64_t *count);

/** Collective. Sorts the keys of every rank of comm, as the file comment
 *  says. keys: n_local keys of opts->sort.key_type in host memory, or
 *  device memory with opts->device_buffers (NULL only
 *  when n_local is 0); values: NULL (keys only) or n_local values of
 *  opts->sort.value_type, moved with their keys; all ranks pass values or
 *  none do. Both are only read. On success out->count keys (and values)
 *  are in out's arrays, this rank's slice of the global order. opts may be
 *  NULL (defaults). ctx: this rank's zesort context (zesort_create), which
 *  runs the local sorts; it is not shared with other ranks.
 *  Host memory it allocates on a rank, besides the outputs: a sorted copy
 *  of the rank's input (freed after the exchange) and the received keys
 *  (and values), out->count of them; plus what the local sorts need. With
 *  device_buffers these are device memory of opts->ze_context (and the
 *  sorts' temp, about one more copy of the larger array), and host memory
 *  holds only the keys the splitter search probes (a few KiB to a few
 *  MiB with many ranks) and per-rank tables.
 *  Errors (every rank returns one when any rank fails; a rank that did not
 *  fail itself returns the failing rank's status, and zesort_mpi_last_error
 *  names that rank and its message):
 *  INVALID_ARGUMENT (ctx or out NULL, keys NULL with n_local > 0,
 *  values on some ranks only, options that zesort_check refuses, a capacity
 *  below the count: out->count then still tells the count needed),
 *  UNSUPPORTED (device_buffers with a context that is not Level Zero, or an
 *  MPI that says it is not GPU-aware), INVALID_ARGUMENT (device_buffers
 *  without ze_context/ze_device, or an array that is not device memory of
 *  them), OUT_OF_HOST_MEMORY, OUT_OF_DEVICE_MEMORY (device_buffers), and whatever a local
 *  sort returns (OUT_OF_DEVICE_MEMORY, BACKEND, ...); BACKEND for a failed
 *  MPI call. comm MPI_COMM_NULL, or MPI not initialised, is INVALID_ARGUMENT
 *  returned at once (no collective possible). After an error out->count is
 *  0 (except as said), nothing is
 *  allocated for the caller, and the contents of caller-owned output arrays
 *  are unspecified. */
zesort_status zesort_mpi_sort(zesort_context *ctx, MPI_Comm comm, const void *keys,
                              const void *values, uint64_t n_local, zesort_mpi_output *out,
                              const zesort_mpi_options *opts);

/** zesort_mpi_sort, filling *stats (may be NULL) with this rank's phase
 *  times and bytes moved (zeroed on error). */
zesort_status zesort_mpi_sort_timed(zesort_context *ctx, MPI_Comm comm, const void *keys,
                                    const void *values, uint64_t n_local, zesort_mpi_output *out,
                                    const zesort_mpi_options *opts, zesort_mpi_stats *stats);

/** Releases arrays the library allocated (out->allocated: free, or
 *  zeMemFree in out->device_context, which must still exist) and sets keys,
 *  values, count, allocated and device_context to 0/NULL; caller-owned arrays are left
 *  alone. NULL is a no-op. Not collective. */
void zesort_mpi_free(zesort_mpi_output *out);

/** The message of the calling thread's last failed zesort_mpi_* call ("" after
 *  a success): one line, never NULL, owned by the library, valid until the
 *  thread's next zesort_mpi_* call. */
const char *zesort_mpi_last_error(void);

#ifdef __cplusplus
}
#endif
#endif /* ZESORT_MPI_H */
