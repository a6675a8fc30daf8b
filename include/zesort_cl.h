/*
 * zesort_cl.h — OpenCL interop API of zesort: enqueue a GPU sort on a
 * command queue the caller owns, on cl_mem buffers the caller owns, inside the
 * caller's own pipeline (e.g. producer kernel -> sort -> consumer kernel),
 * with the same contract as zesort_ze.h.
 *
 * Ownership
 *   The caller owns the cl_context, cl_device_id, queues, buffers and events
 *   passed in; the library never releases, finishes or flushes them. A sorter
 *   owns only the programs and kernels it builds (built on first use or by
 *   zesort_cl_prepare, released by zesort_cl_destroy) and the sub-buffers it
 *   makes of temp for one sort (released once enqueued; OpenCL keeps them
 *   alive until the commands complete).
 *
 * Synchronisation
 *   zesort_cl_enqueue_sort*() and zesort_cl_enqueue_argsort() only enqueue
 *   and return at once; they never block the host (the segmented ones read
 *   their offsets first: see zesort_cl_enqueue_sort_segments). Every one of
 *   them, copy, argsort and segmented included, is recorded the same way
 *   (the OpenCL counterpart of zesort_ze.h's chained forms): the sort's
 *   first command waits for the num_wait_events
 *   events of wait_events; its own commands are ordered by events, so it
 *   works on in-order and out-of-order queues. On an in-order queue it also
 *   starts after every command enqueued before it (OpenCL's rule); on an
 *   out-of-order queue it depends only on the wait events: no full barrier.
 *   *event (when event is not NULL) receives an event, owned by the caller
 *   (clReleaseEvent it), that completes when the sort has; on an
 *   out-of-order queue later commands must wait on it.
 *   The first sort that needs a program builds it on the host (a second or
 *   more from source on a cold cache); zesort_cl_prepare() does that ahead
 *   of time, after which enqueues only enqueue.
 *   Keys, values, the count and temp must not be used by other commands until
 *   the sort has completed. Temp of zesort_cl_temp_bytes(max_n, with_values,
 *   opts) bytes serves every sort of n <= max_n keys with those options and
 *   with_values (the temp size never decreases with n).
 *
 * Threads
 *   A sorter is thread-safe: several threads may enqueue with one sorter at
 *   once (a lock is held across setting the kernel arguments and enqueuing);
 *   programs are built once per sorter. zesort_cl_last_error/_last_result/
 *   _last_algo report the last call of any thread.
 *
 * Keys, values, alignment, overlap
 *   keys: n keys of opts->key_type at offset 0 of their cl_mem (use a
 *   sub-buffer for an offset), values: NULL or n values of opts->value_type
 *   (4 or 8 bytes each) likewise; results in place, or with
 *   zesort_cl_enqueue_sort_copy / zesort_cl_enqueue_argsort in output
 *   buffers while the inputs are only read. temp: a cl_mem of at least temp_bytes bytes, which must be at
 *   least zesort_cl_temp_bytes(n, with_values) (with_values as in
 *   zesort_ze.h: ZESORT_KEYS_ONLY, ZESORT_WITH_VALUES, or
 *   ZESORT_ARGSORT_NO_KEYS_OUT for an argsort without keys_out; out of place
 *   needs what in place needs); the sorter makes
 *   sub-buffers of it at offsets that are multiples of the alignment
 *   zesort_cl_temp_requirements reports (the device's base address
 *   alignment, at least 256; temp may itself be a sub-buffer starting at
 *   such a multiple). keys, values (inputs and outputs), temp and the count
 *   must not overlap: the same cl_mem twice, or two sub-buffers of one buffer whose
 *   ranges overlap, are refused with INVALID_ARGUMENT before anything is
 *   enqueued.
 *
 * Indirect counts
 *   zesort_cl_enqueue_sort_indirect reads n (one uint32 at offset 0 of
 *   count) on the device when the sort runs. A count above max_n (up to
 *   UINT32_MAX) is clamped on the device: the first max_n keys are sorted,
 *   nothing at or past keys[max_n] / values[max_n] nor past temp_bytes of
 *   temp is written.
 *
 * Options, errors
 *   As in zesort_ze.h: zesort_options (NULL = defaults), same kernels and
 *   flavor choice as the OpenCL backend of zesort_create (native binaries on
 *   Intel GPUs, embedded source elsewhere; ZESORT_FLAVOR overrides); the host
 *   scan is UNSUPPORTED. All arguments are checked and every program built
 *   before the first command is enqueued; only a failure of the driver while
 *   enqueuing (BACKEND) may leave part of a sort in the queue.
 */
#ifndef ZESORT_CL_H
#define ZESORT_CL_H

/* The OpenCL version is the program's choice: this header uses only types
 * of OpenCL 1.0, defines no CL_TARGET_OPENCL_VERSION, and so does not narrow
 * the API that <CL/cl.h> declares for the program (which, when the program
 * defines no version either, is the headers' default, 3.0). A program that
 * calls 1.2 functions deprecated in 2.0 (clCreateCommandQueue) defines
 * CL_TARGET_OPENCL_VERSION 120 before including this header. */
#include <CL/cl.h>
#include <stdint.h>

#include "zesort.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct zesort_cl_sorter zesort_cl_sorter;

/** How an enqueued sort is ordered (zesort_cl_enqueue). NULL sync: no events. */
typedef struct zesort_cl_sync {
    cl_uint num_wait_events;   /* the sort starts after these complete */
    const cl_event *wait_events;
    cl_event *event;           /* NULL, or where a new event is returned that completes
                                  after the sort's last write (the caller releases it) */
    uint64_t reserved[4];      /* zero */
} zesort_cl_sync;

/** What zesort_cl_enqueue of d needs, in *req: temp bytes and alignment,
 *  whether a sort with keys_alt ends there, the algorithm (chain_events: 0,
 *  OpenCL orders by events). As zesort_ze_requirements. */
zesort_status zesort_cl_requirements(zesort_cl_sorter *sorter, const zesort_desc *d,
                                     zesort_requirements *req);

/** Enqueues the sort d describes on queue (in-order or out-of-order: the
 *  sort orders its own commands by events), after *sync's wait events; its
 *  buffers are cl_mem handles cast to void * (n_device, num_segments_device:
 *  a cl_mem whose first element is the count). Every kind and combination
 *  zesort_ze_append takes, but chaining (OpenCL is event ordered already).
 *  Errors: as zesort_ze_append; zesort_cl_last_error names the field. */
zesort_status zesort_cl_enqueue(zesort_cl_sorter *sorter, cl_command_queue queue,
                                const zesort_desc *d, const zesort_cl_sync *sync);

/** Creates a sorter for the caller's context and device (borrowed; they must
 *  outlive the sorter). On failure *out is NULL and zesort_cl_last_error(NULL)
 *  tells why. Errors: INVALID_ARGUMENT, OUT_OF_HOST_MEMORY, BACKEND. */
zesort_status zesort_cl_create(cl_context context, cl_device_id device, zesort_cl_sorter **out);

/** The OpenCL context and device a zesort context made for
 *  ZESORT_BACKEND_OPENCL sorts on (for zesort_create_on_devices, its first
 *  device: the one zesort_context_device names), as
 *  zesort_ze_context_handles: buffers the program creates in that context
 *  serve a sorter made by zesort_cl_create on these handles, with no device
 *  lookup of its own. Any output may be NULL; on failure every output given
 *  is set to NULL. Ownership: the handles stay ctx's, valid until
 *  zesort_destroy(ctx): never release them (clRetainContext first to keep
 *  the context longer); what the program creates with them is its own.
 *  Errors (no message: ctx is not changed): INVALID_ARGUMENT (ctx NULL),
 *  UNSUPPORTED (ctx sorts on another backend). */
zesort_status zesort_cl_context_handles(const zesort_context *ctx, cl_context *context,
                                        cl_device_id *device);

/** Releases the sorter's programs and kernels; no sort of it may be pending.
 *  NULL is a no-op. */
void zesort_cl_destroy(zesort_cl_sorter *sorter);

/** Message of the last failed call on sorter; NULL: of the last failed
 *  zesort_cl_create (or call with a NULL sorter) on this thread. Never NULL. */
const char *zesort_cl_last_error(const zesort_cl_sorter *sorter);

/** Bytes of temp a sort of n keys (max_n for the indirect variant) needs. */
ZESORT_DEPRECATED("zesort_cl_requirements")
zesort_status zesort_cl_temp_bytes(zesort_cl_sorter *sorter, uint64_t n, int with_values,
                                   const zesort_options *opts, uint64_t *bytes);

/** zesort_cl_temp_bytes plus, in *alignment (may be NULL), the alignment in
 *  bytes of the sub-buffers made of temp. */
ZESORT_DEPRECATED("zesort_cl_requirements")
zesort_status zesort_cl_temp_requirements(zesort_cl_sorter *sorter, uint64_t n, int with_values,
                                          const zesort_options *opts, uint64_t *bytes,
                                          uint64_t *alignment);

/** Builds every program a later enqueue with these options (AUTO: every
 *  algorithm AUTO may pick) and with_values (as for zesort_cl_temp_bytes)
 *  needs: in-place and out-of-place sorts, argsorts and (with_values
 *  ZESORT_KEYS_ONLY or ZESORT_WITH_VALUES) segmented sorts alike, so that a
 *  later enqueue builds nothing. Errors: those of the options
 *  (INVALID_ARGUMENT, UNSUPPORTED), BACKEND / OUT_OF_*_MEMORY when a program
 *  cannot be built. */
zesort_status zesort_cl_prepare(zesort_cl_sorter *sorter, const zesort_options *opts,
                                int with_values);

/** The cl_int of the last OpenCL call of this sorter that failed (CL_SUCCESS:
 *  none yet; CL_INVALID_VALUE for NULL). */
cl_int zesort_cl_last_result(const zesort_cl_sorter *sorter);

/** The algorithm of the last successful enqueue (what AUTO chose);
 *  ZESORT_ALGO_AUTO before the first. */
ZESORT_DEPRECATED("zesort_cl_requirements")
zesort_algo zesort_cl_last_algo(const zesort_cl_sorter *sorter);

/** Enqueues a stable in-place sort of n keys (and values) on queue. */
ZESORT_DEPRECATED("zesort_cl_enqueue")
zesort_status zesort_cl_enqueue_sort(zesort_cl_sorter *sorter, cl_command_queue queue,
                                     cl_mem keys, cl_mem values /* or NULL */, uint64_t n,
                                     cl_mem temp, uint64_t temp_bytes, const zesort_options *opts,
                                     cl_uint num_wait_events, const cl_event *wait_events,
                                     cl_event *event /* or NULL: completes when the sort has */);

/** Segmented sort, as zesort_ze_append_sort_segments: each segment
 *  [offsets[i], offsets[i + 1]) of keys (and values, or NULL) sorted in
 *  place, stably, nothing outside [offsets[0], offsets[num_segments])
 *  written. offsets: a cl_mem of num_segments + 1 uint64_t, read only on the
 *  device when the sort runs (not by a blocking read when the call is
 *  made): it is zesort_cl_enqueue_sort_segmented with these offsets
 *  (ZESORT_OFFSET_U64) and no status word, so bad offsets (decreasing,
 *  above n) are not INVALID_ARGUMENT here: the keys and values are
 *  then left as they were, which only zesort_cl_enqueue_sort_segmented's
 *  status word reports. Segments classified by length on the device: one
 *  work-group per short segment, onesweep passes over their own tiles for
 *  longer ones (more than 16384 keys, 65536 on CPU devices); fewer than
 *  2^32 - 1 segments; algorithm and scan options ignored. temp:
 *  zesort_cl_temp_bytes(n, values != NULL, opts) bytes suffice. keys,
 *  values, offsets and temp must not overlap. zesort_cl_prepare (with
 *  with_values ZESORT_KEYS_ONLY or ZESORT_WITH_VALUES) builds its kernels
 *  too; without it, the first segmented sort builds them. */
ZESORT_DEPRECATED("zesort_cl_enqueue")
zesort_status zesort_cl_enqueue_sort_segments(zesort_cl_sorter *sorter, cl_command_queue queue,
                                              cl_mem keys, cl_mem values, uint64_t n,
                                              cl_mem offsets, uint64_t num_segments, cl_mem temp,
                                              uint64_t temp_bytes, const zesort_options *opts,
                                              cl_uint num_wait_events,
                                              const cl_event *wait_events, cl_event *event);

/** The segments of zesort_cl_enqueue_sort_segmented, as zesort_ze_segments
 *  (zesort_ze.h: the two forms, the rules) with cl_mem buffers, each read
 *  from offset 0 (use sub-buffers for an offset), owned by the caller.
 *  Zero-initialise it (= {0}) and set what you use. The struct itself is
 *  read during the call only; the memory it points to, when the sort runs. */
typedef struct zesort_cl_segments {
    zesort_offset_type offset_type; /* width of every offset: U64 (0) or U32 (1) */
    cl_mem offsets;                 /* num_segments + 1 offsets, or NULL */
    cl_mem begin_offsets;           /* num_segments begins, or NULL */
    cl_mem end_offsets;             /* num_segments ends, or NULL (may be the
                                       begins' buffer, or overlap it) */
    uint64_t num_segments;          /* the number (< 2^32 - 1); with num_segments_mem,
                                       the most it may say */
    cl_mem num_segments_mem;        /* NULL, or a uint32_t at offset 0: the number of
                                       segments, read on the device when the sort runs */
    cl_mem status;                  /* NULL, or 2 uint32_t the device writes each time
                                       the sort runs: zesort_segments_status (zesort.h) */
} zesort_cl_segments;

/** Segmented sort whose segments only the device reads, as
 *  zesort_ze_append_sort_segmented: nothing is read on the host, so earlier
 *  commands of an in-order queue, or those of the wait events, may write the
 *  offsets and the count; a first kernel checks them and writes the status
 *  word (zesort.h's zesort_segments_status in status[0], the first bad
 *  segment or the count in status[1]); invalid segments leave keys and
 *  values as they were. Read the status after *event completes.
 *  keys, values, temp and the status must not overlap each other or the
 *  offsets and count (which may share bytes with one another).
 *  zesort_cl_prepare (with with_values ZESORT_KEYS_ONLY or
 *  ZESORT_WITH_VALUES) builds its kernels too.
 *  Errors: as zesort_cl_enqueue_sort, plus INVALID_ARGUMENT for segments
 *  NULL, an offset_type other than U64 or U32, both forms given, a NULL
 *  buffer the form needs (num_segments > 0), a buffer too small, overlap,
 *  num_segments >= 2^32 - 1. */
ZESORT_DEPRECATED("zesort_cl_enqueue")
zesort_status zesort_cl_enqueue_sort_segmented(zesort_cl_sorter *sorter, cl_command_queue queue,
                                               cl_mem keys, cl_mem values, uint64_t n,
                                               const zesort_cl_segments *segments, cl_mem temp,
                                               uint64_t temp_bytes, const zesort_options *opts,
                                               cl_uint num_wait_events,
                                               const cl_event *wait_events, cl_event *event);

/** zesort_cl_enqueue_sort_segments with the count read on the device, as
 *  zesort_ze_append_sort_segments_indirect: one uint32 at offset 0 of count,
 *  read when the sort runs and clamped to max_n; the segments are cut at the
 *  count (nothing at or past it is written). The offsets too are read on the
 *  device only, when the sort runs, and checked there against max_n (bad
 *  ones leave the keys and values as they were, as for
 *  zesort_cl_enqueue_sort_segments). temp: zesort_cl_temp_bytes(max_n,
 *  values != NULL, opts).
 *  Errors: as zesort_cl_enqueue_sort_segments, plus INVALID_ARGUMENT for
 *  count NULL (when max_n > 0), holding fewer than 4 bytes or overlapping
 *  another buffer. */
ZESORT_DEPRECATED("zesort_cl_enqueue")
zesort_status zesort_cl_enqueue_sort_segments_indirect(
    zesort_cl_sorter *sorter, cl_command_queue queue, cl_mem keys, cl_mem values, cl_mem count,
    uint64_t max_n, cl_mem offsets, uint64_t num_segments, cl_mem temp, uint64_t temp_bytes,
    const zesort_options *opts, cl_uint num_wait_events, const cl_event *wait_events,
    cl_event *event);

/** Out of place, as zesort_ze_append_sort_copy: sorts keys_in (values_in,
 *  or NULL) into keys_out (values_out, given exactly when values_in is);
 *  the inputs are only read. count: NULL (n is the count) or n read on the
 *  device as in zesort_cl_enqueue_sort_indirect (n is then max_n). temp as
 *  for the in-place sort. Errors: as zesort_cl_enqueue_sort, plus
 *  INVALID_ARGUMENT when an input and an output overlap. */
ZESORT_DEPRECATED("zesort_cl_enqueue")
zesort_status zesort_cl_enqueue_sort_copy(zesort_cl_sorter *sorter, cl_command_queue queue,
                                          cl_mem keys_in, cl_mem values_in, cl_mem keys_out,
                                          cl_mem values_out, uint64_t n, cl_mem count,
                                          cl_mem temp, uint64_t temp_bytes,
                                          const zesort_options *opts, cl_uint num_wait_events,
                                          const cl_event *wait_events, cl_event *event);

/** Argsort, as zesort_ze_append_argsort: indices (n elements of
 *  opts->value_type, made on the device) receives the stable sorting
 *  permutation of keys (only read), keys_out (or NULL) the sorted keys.
 *  count as in zesort_cl_enqueue_sort_copy. temp:
 *  zesort_cl_temp_bytes(n, keys_out ? ZESORT_WITH_VALUES :
 *  ZESORT_ARGSORT_NO_KEYS_OUT). */
ZESORT_DEPRECATED("zesort_cl_enqueue")
zesort_status zesort_cl_enqueue_argsort(zesort_cl_sorter *sorter, cl_command_queue queue,
                                        cl_mem keys, cl_mem indices, cl_mem keys_out, uint64_t n,
                                        cl_mem count, cl_mem temp, uint64_t temp_bytes,
                                        const zesort_options *opts, cl_uint num_wait_events,
                                        const cl_event *wait_events, cl_event *event);

/** Bytes of temp a top-k of n keys (zesort_cl_enqueue_topk) needs, as
 *  zesort_ze_topk_temp_bytes: with_values ZESORT_WITH_VALUES when values or
 *  indices are wanted. */
ZESORT_DEPRECATED("zesort_cl_requirements")
zesort_status zesort_cl_topk_temp_bytes(zesort_cl_sorter *sorter, uint64_t n, int with_values,
                                        const zesort_options *opts, uint64_t *bytes);

/** Top-k, as zesort_ze_append_topk: the min(k, n) smallest keys (largest
 *  with opts->descending), sorted and stable, into keys_out (NULL: not
 *  wanted), with their values (values_in / values_out) or input positions
 *  (indices_out, not with values), each output of opts' types at offset 0
 *  of its cl_mem. count: NULL, or a device-side count (n is its max_n); a
 *  count below k leaves the outputs past it unspecified. temp (aligned as
 *  zesort_cl_temp_requirements says): zesort_cl_topk_temp_bytes bytes.
 *  How: as zesort_ze_append_topk (the device's radix select, the sort of
 *  its candidates, the copies of the first k), ordered by events; *event
 *  (may be NULL) completes after the last.
 *  Errors: as zesort_cl_enqueue_sort_copy; INVALID_ARGUMENT also for values
 *  and indices together, or no output with k and n not 0. */
ZESORT_DEPRECATED("zesort_cl_enqueue")
zesort_status zesort_cl_enqueue_topk(zesort_cl_sorter *sorter, cl_command_queue queue,
                                     cl_mem keys, cl_mem values_in, cl_mem keys_out,
                                     cl_mem values_out, cl_mem indices_out, uint64_t n,
                                     cl_mem count, uint64_t k, cl_mem temp, uint64_t temp_bytes,
                                     const zesort_options *opts, cl_uint num_wait_events,
                                     const cl_event *wait_events, cl_event *event);

/** Like zesort_cl_enqueue_sort with n read on the device from count (one
 *  uint32 at offset 0) and clamped to max_n; grids sized for max_n. */
ZESORT_DEPRECATED("zesort_cl_enqueue")
zesort_status zesort_cl_enqueue_sort_indirect(zesort_cl_sorter *sorter, cl_command_queue queue,
                                              cl_mem keys, cl_mem values, cl_mem count,
                                              uint64_t max_n, cl_mem temp, uint64_t temp_bytes,
                                              const zesort_options *opts,
                                              cl_uint num_wait_events,
                                              const cl_event *wait_events, cl_event *event);

/* ---- Caller-supplied alternate buffers (as in zesort_ze.h) ----------------
 * keys_alt (values_alt): cl_mem of n keys (values) at offset 0, the sort's
 * ping-pong partners instead of temp memory, so that temp shrinks to the
 * tables (zesort_cl_alt_temp_requirements; docs/interop.md has the figures).
 * They follow the rules of keys and values (disjoint from every other
 * buffer, temp and the count; left alone until the sort has completed); the
 * sort writes only their first n elements (indirect: min(count, max_n)).
 * A keys-only sort takes no values_alt (NULL). */

/** zesort_cl_temp_requirements for the _alt enqueues, plus in *result_in_alt
 *  (may be NULL) where zesort_cl_enqueue_sort_alt leaves the sorted keys: 1
 *  in keys_alt (values_alt: an odd number of passes), 0 in keys (values),
 *  as zesort_ze_alt_temp_requirements. Errors: as zesort_cl_temp_bytes
 *  (INVALID_ARGUMENT also for bytes NULL). */
ZESORT_DEPRECATED("zesort_cl_requirements")
zesort_status zesort_cl_alt_temp_requirements(zesort_cl_sorter *sorter, uint64_t n,
                                              int with_values, const zesort_options *opts,
                                              uint64_t *bytes, uint64_t *alignment,
                                              int *result_in_alt);

/** zesort_cl_enqueue_sort (count NULL) or zesort_cl_enqueue_sort_indirect
 *  (count set: n is then max_n) ping-ponging between keys and keys_alt
 *  (values and values_alt, given exactly when values is) with no copy at the
 *  end: *result_in_alt (when not NULL) is set when this call returns to 1
 *  when the sorted keys (values) are in keys_alt (values_alt), 0 when in
 *  keys (values), as zesort_ze_append_sort_alt describes (known at enqueue
 *  time; the other buffer holds scratch; 0 on any error and for n 0). temp:
 *  zesort_cl_alt_temp_requirements(n, values != NULL) bytes. Errors: as
 *  zesort_cl_enqueue_sort (keys_alt or values_alt NULL, too small or
 *  overlapping: INVALID_ARGUMENT), nothing enqueued. */
ZESORT_DEPRECATED("zesort_cl_enqueue")
zesort_status zesort_cl_enqueue_sort_alt(zesort_cl_sorter *sorter, cl_command_queue queue,
                                         cl_mem keys, cl_mem values, cl_mem keys_alt,
                                         cl_mem values_alt, uint64_t n, cl_mem count,
                                         cl_mem temp, uint64_t temp_bytes,
                                         const zesort_options *opts, cl_uint num_wait_events,
                                         const cl_event *wait_events, cl_event *event,
                                         int *result_in_alt);

/** zesort_cl_enqueue_sort_copy with the alternate buffers keys_alt
 *  (values_alt, given exactly when values_in is): the result is ALWAYS in
 *  keys_out (values_out), with no copy (the first pass writes keys_out or
 *  keys_alt, whichever makes the last pass write keys_out). temp:
 *  zesort_cl_alt_temp_requirements(n, values_in != NULL). */
ZESORT_DEPRECATED("zesort_cl_enqueue")
zesort_status zesort_cl_enqueue_sort_copy_alt(zesort_cl_sorter *sorter, cl_command_queue queue,
                                              cl_mem keys_in, cl_mem values_in, cl_mem keys_out,
                                              cl_mem values_out, cl_mem keys_alt,
                                              cl_mem values_alt, uint64_t n, cl_mem count,
                                              cl_mem temp, uint64_t temp_bytes,
                                              const zesort_options *opts,
                                              cl_uint num_wait_events,
                                              const cl_event *wait_events, cl_event *event);

/** zesort_cl_enqueue_argsort with the alternate buffers keys_alt (n keys)
 *  and indices_alt (n indices): the result is ALWAYS in indices (and
 *  keys_out). temp: zesort_cl_alt_temp_requirements(n, keys_out ?
 *  ZESORT_WITH_VALUES : ZESORT_ARGSORT_NO_KEYS_OUT). */
ZESORT_DEPRECATED("zesort_cl_enqueue")
zesort_status zesort_cl_enqueue_argsort_alt(zesort_cl_sorter *sorter, cl_command_queue queue,
                                            cl_mem keys, cl_mem indices, cl_mem keys_out,
                                            cl_mem keys_alt, cl_mem indices_alt, uint64_t n,
                                            cl_mem count, cl_mem temp, uint64_t temp_bytes,
                                            const zesort_options *opts, cl_uint num_wait_events,
                                            const cl_event *wait_events, cl_event *event);

#ifdef __cplusplus
}
#endif
#endif /* ZESORT_CL_H */
