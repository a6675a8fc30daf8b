/*
 * zesort_ze.h — Level Zero interop API of zesort: append a GPU sort to a
 * command list the caller owns, on device memory the caller owns, inside the
 * caller's own pipeline (e.g. producer kernel -> sort -> consumer kernel).
 *
 * Ownership
 *   The caller owns the ze_context_handle_t, ze_device_handle_t, command
 *   lists, events and every device pointer passed in. The library never
 *   frees, resets, closes, executes or synchronises any of them. A sorter
 *   owns only what it creates itself: the modules and kernels it builds from
 *   its embedded kernels (created on first use, destroyed by
 *   zesort_ze_destroy()). The caller must have called zeInit() (it has
 *   handles, so it has).
 *
 * Synchronisation
 *   zesort_ze_append_sort*() only *append* commands and return at once; they
 *   never wait for the device. The appended sort
 *     - starts after every command appended to the list before it and after
 *       every event in wait_events is signalled (it begins with a barrier),
 *     - ends with a barrier that signals signal_event (when not NULL), so
 *       commands appended after it also see the sorted keys.
 *   On an immediate command list the sort is submitted as it is appended; on
 *   a regular list it runs when the caller executes the list (the list may be
 *   executed several times, one execution at a time: every execution sorts
 *   the keys present then, and the indirect variant re-reads n each time).
 *   The leading barrier is a full barrier of the list: the sort also waits
 *   for every command appended before it, related or not (so do the
 *   barriers between its passes). When every dependency of the sort is
 *   expressed by its wait events, the chained forms
 *   (zesort_ze_append_sort_chained, _sort_copy_chained, _argsort_chained,
 *   _sort_segments_chained) append it without any barrier: its commands are
 *   ordered by events the caller provides, so unrelated commands of the list
 *   before and after it may run alongside it.
 *   signal_event is passed to exactly one command, the sort's last (after
 *   every write of the sort); its scope flags are the caller's choice, by
 *   who waits for it: none for a later command of the same list,
 *   ZE_EVENT_SCOPE_FLAG_DEVICE for another list or queue,
 *   ZE_EVENT_SCOPE_FLAG_HOST for the host (docs/interop.md, "The rules a
 *   pipeline relies on").
 *   The first append that needs a kernel builds its module on the host
 *   (SPIR-V compilation may take a moment: over a second with a cold cache);
 *   zesort_ze_prepare() does that ahead of time, after which appends only
 *   record (a real-time pipeline then never builds inside an append).
 *   The keys and the temporary memory must stay allocated, and must not be
 *   used by other commands, until the sort has completed. Two sorts appended
 *   to one list may share one temporary buffer (the barriers order them);
 *   sorts running concurrently (other lists/queues) need separate ones.
 *   Temp of zesort_ze_temp_bytes(max_n, with_values, opts) bytes serves every
 *   sort of n <= max_n keys with those options and with_values, of every
 *   variant: the temp size never decreases with n.
 *
 * Threads
 *   A sorter is thread-safe: several threads may append with one sorter at
 *   once (each to its own command list: a command list itself must not be
 *   used by two threads at once, as Level Zero requires). Each call holds
 *   the sorter's lock while it sets kernel arguments and appends, so appends
 *   of one sorter are serialised on the host (they only record; nothing
 *   waits for the device); modules are built once per sorter, not per
 *   thread. zesort_ze_last_error/_last_result/_last_algo report the last
 *   call of any thread: read them where no other thread uses the sorter.
 *
 * Alignment
 *   keys: the key size (1, 2, 4 or 8 bytes); values and indices: their size
 *   (opts->value_type: 4 or 8 bytes); the indirect count: 4 bytes; temp: ZESORT_ZE_TEMP_ALIGNMENT (8) bytes, also returned by
 *   zesort_ze_temp_requirements (256 or more is best: every buffer inside
 *   temp starts on a 256-byte boundary relative to temp).
 *
 * Overlap
 *   keys (n keys), values (n values), temp (temp_bytes bytes), the indirect
 *   count, and for out-of-place sorts and argsorts every input and output,
 *   must be disjoint byte ranges: any overlap (an output that is the very
 *   buffer of an input included) is refused with INVALID_ARGUMENT before
 *   anything is appended.
 *
 * Errors
 *   Every function returns a zesort_status (see zesort.h); on failure
 *   zesort_ze_last_error(sorter) gives a one-line message. All arguments are
 *   checked (and every kernel is built) before the first command is
 *   appended, so a failed call normally leaves the command list untouched;
 *   only a failure of the driver while appending (ZESORT_ERROR_BACKEND) may
 *   leave a partial sort in the list, which the caller should then reset.
 *
 * Options
 *   zesort_options as in zesort.h (NULL = defaults), validated and resolved
 *   as zesort_sort does (AUTO picks the same algorithm). Not available here:
 *   the host scan of the CM algorithms (it needs a host round trip, which an
 *   appended sort cannot make: UNSUPPORTED; onesweep has no scan step and
 *   ignores the mode) and whatever zesort_sort does not support either
 *   (UNSUPPORTED). Every key type is sorted, the narrow ones (ZESORT_KEY_U8
 *   to BF16) read and written at their width. Every sort is stable.
 *
 * Keys and values
 *   keys: n keys of opts->key_type (1, 2, 4 or 8 bytes each, aligned to their
 *   size), values: NULL or n values of opts->value_type (uint32_t, or any
 *   8-byte type with ZESORT_VALUE_U64) moved along with the keys in the same
 *   passes, never overlapping each other or temp. All are device (or shared)
 *   USM allocations usable on the sorter's device; the result replaces them
 *   in place, or, with zesort_ze_append_sort_copy / zesort_ze_append_argsort,
 *   goes to output buffers while the inputs are only read.
 *
 * Temporary memory
 *   zesort_ze_temp_bytes(n, with_values): with_values ZESORT_KEYS_ONLY (0),
 *   ZESORT_WITH_VALUES (1: values of opts->value_type; also an argsort with
 *   keys_out) or ZESORT_ARGSORT_NO_KEYS_OUT (2: an argsort without keys_out,
 *   whose sorted keys live in temp). It is about n * (key size + value size)
 *   bytes plus tables (a few percent): one ping-pong buffer. An out-of-place
 *   sort needs no more temp than the in-place one (it reads the input and
 *   ping-pongs between the output and temp: the input is never written).
 *   The _alt appends take the ping-pong buffer from the caller instead and
 *   need only the tables (zesort_ze_alt_temp_requirements).
 *
 * Example (producer kernel -> sort -> consumer kernel, one command list):
 *
 *   zesort_ze_sorter *sorter;
 *   zesort_ze_create(context, device, &sorter);
 *   uint64_t temp_bytes;
 *   zesort_ze_temp_bytes(sorter, max_n, 0, NULL, &temp_bytes);
 *   zeMemAllocDevice(context, &dev_desc, temp_bytes, 0, device, &temp);
 *
 *   zeCommandListAppendLaunchKernel(list, produce, &groups, produced, 0, NULL);
 *   zesort_ze_append_sort_indirect(sorter, list, keys, NULL, count_on_device, max_n,
 *                                  temp, temp_bytes, NULL, sorted, 1, &produced);
 *   zeCommandListAppendLaunchKernel(list, consume, &groups, NULL, 1, &sorted);
 *
 *   // when n is known on the host, instead of the indirect sort:
 *   zesort_ze_append_sort(sorter, list, keys, NULL, n, temp, temp_bytes, NULL, sorted, 1,
 *                         &produced);
 *
 * tests/ze/test_interop.c runs exactly this pipeline.
 */
#ifndef ZESORT_ZE_H
#define ZESORT_ZE_H

#include <level_zero/ze_api.h>
#include <stdint.h>

#include "zesort.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct zesort_ze_sorter zesort_ze_sorter;

/* The alignment, in bytes, the temporary memory must have (256 is best). */
#define ZESORT_ZE_TEMP_ALIGNMENT 8u

/** How an appended sort is ordered (zesort_ze_append). NULL sync: no events,
 *  barrier mode. */
typedef struct zesort_ze_sync {
    ze_event_handle_t signal_event; /* NULL, or signalled after the sort's last write */
    uint32_t num_wait_events;       /* the sort starts after these are signalled */
    ze_event_handle_t *wait_events;
    int chained;                    /* 0: barrier mode (the sort starts and ends with a
                                       barrier of the list); 1: chained, no barrier:
                                       its commands are ordered by the wait events and
                                       by the caller's chain events */
    uint32_t num_chain_events;      /* chained: zesort_ze_requirements' chain_events
                                       events of an event pool of the caller (reset,
                                       not signalled; reused by every execution) */
    ze_event_handle_t *chain_events;
    uint64_t reserved[4];           /* zero */
} zesort_ze_sync;

/** What an append of d needs, in *req: temp bytes and alignment, the chain
 *  events of its chained form, whether a sort with keys_alt ends there, the
 *  algorithm. For a device-side count (n_device) the grids are sized for
 *  max_n. Builds nothing and appends nothing; no buffer of d is read (they
 *  may be NULL).
 *  Errors: INVALID_ARGUMENT (NULL sorter, d or req; bad fields),
 *  UNSUPPORTED (naming the field), TOO_LARGE (n or max_n above
 *  ZESORT_MAX_KEYS). */
zesort_status zesort_ze_requirements(zesort_ze_sorter *sorter, const zesort_desc *d,
                                     zesort_requirements *req);

/** Appends the sort d describes to cmdlist, ordered by *sync (NULL: barrier
 *  mode, no events). Only records: it returns at once (see Synchronisation).
 *  Every kind, with keys only or values, in/out or alternate buffers, a host
 *  or device-side count, offsets or begin/end segments of either width, and
 *  a status word, in barrier or chained mode. Not here: the host scan, top-k
 *  per segment (UNSUPPORTED, naming the field).
 *  Errors: as zesort_ze_append_sort: INVALID_ARGUMENT (NULL sorter, cmdlist
 *  or d; a needed buffer NULL, misaligned, too small, not the sorter's
 *  context's memory, overlapping), TOO_LARGE, UNSUPPORTED, OUT_OF_HOST_MEMORY,
 *  OUT_OF_DEVICE_MEMORY, BACKEND; zesort_ze_last_error names the field. */
zesort_status zesort_ze_append(zesort_ze_sorter *sorter, ze_command_list_handle_t cmdlist,
                               const zesort_desc *d, const zesort_ze_sync *sync);

/** Creates a sorter for the caller's context and device (borrowed, never
 *  released by the library; they must outlive the sorter). Kernels are built
 *  lazily, by the first append that needs them (zesort_ze_temp_bytes never
 *  builds any).
 *  On failure *out is NULL and zesort_ze_last_error(NULL) tells why.
 *  Errors: INVALID_ARGUMENT (NULL handle or out), OUT_OF_HOST_MEMORY,
 *  BACKEND (the device's properties cannot be read). */
zesort_status zesort_ze_create(ze_context_handle_t context, ze_device_handle_t device,
                               zesort_ze_sorter **out);

/** The Level Zero driver, context and device a zesort context made for
 *  ZESORT_BACKEND_LEVEL_ZERO sorts on (for zesort_create_on_devices, its
 *  first device: the one zesort_context_device names). Device memory the
 *  program allocates in that context on that device serves the interop
 *  sorts (a sorter made by zesort_ze_create on these handles) and
 *  zesort_mpi_sort's device buffers, with no device lookup of its own.
 *  Any output may be NULL; on failure every output given is set to NULL.
 *  Ownership: the handles stay ctx's, valid until zesort_destroy(ctx); never
 *  destroy them. What the program creates with them (memory, command lists,
 *  sorters) is the program's, to release before zesort_destroy(ctx).
 *  Threads: the handles may be used alongside calls on ctx (Level Zero's
 *  own rules apply: ctx records on command lists of its own).
 *  Errors (no message: ctx is not changed): INVALID_ARGUMENT (ctx NULL),
 *  UNSUPPORTED (ctx sorts on another backend). */
zesort_status zesort_ze_context_handles(const zesort_context *ctx, ze_driver_handle_t *driver,
                                        ze_context_handle_t *context,
                                        ze_device_handle_t *device);

/** Destroys the sorter and the modules/kernels it created. The caller must
 *  make sure no appended sort of this sorter is still pending or will still
 *  be executed (regular lists keep referring to the kernels). NULL is a no-op. */
void zesort_ze_destroy(zesort_ze_sorter *sorter);

/** Message of the last failed call on sorter, or, for sorter NULL, of the
 *  last failed zesort_ze_create / call with a NULL sorter on this thread.
 *  Owned by the library, valid until the next call; never NULL. */
const char *zesort_ze_last_error(const zesort_ze_sorter *sorter);

/** Bytes of temporary device memory a sort of n keys needs with opts (NULL =
 *  defaults), in *bytes; with_values: ZESORT_WITH_VALUES (1) when values of
 *  opts->value_type will be passed (their ping-pong partner lives in temp
 *  memory too) or for an argsort with keys_out, ZESORT_ARGSORT_NO_KEYS_OUT
 *  (2) for an argsort without keys_out, ZESORT_KEYS_ONLY (0) otherwise; the
 *  same for in-place and out-of-place sorts. For the indirect variants pass
 *  their max_n. 0 for n == 0.
 *  Errors: INVALID_ARGUMENT (also with_values not 0, 1 or 2), UNSUPPORTED
 *  (options), TOO_LARGE (n > ZESORT_MAX_KEYS). */
ZESORT_DEPRECATED("zesort_ze_requirements")
zesort_status zesort_ze_temp_bytes(zesort_ze_sorter *sorter, uint64_t n, int with_values,
                                   const zesort_options *opts, uint64_t *bytes);

/** zesort_ze_temp_bytes plus, in *alignment (may be NULL), the alignment in
 *  bytes temp must have (ZESORT_ZE_TEMP_ALIGNMENT). */
ZESORT_DEPRECATED("zesort_ze_requirements")
zesort_status zesort_ze_temp_requirements(zesort_ze_sorter *sorter, uint64_t n, int with_values,
                                          const zesort_options *opts, uint64_t *bytes,
                                          uint64_t *alignment);

/** Builds, now, every module and kernel a later append with these options
 *  (NULL = defaults; AUTO: every algorithm AUTO may pick, for any n) and
 *  with_values (as for zesort_ze_temp_bytes; one preparation serves in-place
 *  and out-of-place sorts, argsorts and, for ZESORT_KEYS_ONLY and
 *  ZESORT_WITH_VALUES, segmented sorts alike, chained or not) needs, so that
 *  the append only records.
 *  Errors: those of the options (INVALID_ARGUMENT, UNSUPPORTED), and
 *  BACKEND / OUT_OF_*_MEMORY when a module cannot be built (the message has
 *  the build log). */
zesort_status zesort_ze_prepare(zesort_ze_sorter *sorter, const zesort_options *opts,
                                int with_values);

/** The ze_result_t of the last driver call of this sorter that failed (e.g.
 *  ZE_RESULT_ERROR_DEVICE_LOST behind a BACKEND status); ZE_RESULT_SUCCESS
 *  while none has failed. A failure that is not the driver's (a bad
 *  argument) does not change it. ZE_RESULT_ERROR_INVALID_NULL_HANDLE for NULL. */
ze_result_t zesort_ze_last_result(const zesort_ze_sorter *sorter);

/** The algorithm the last successful append of this sorter used (what AUTO
 *  chose); ZESORT_ALGO_AUTO before the first one (and for NULL). */
ZESORT_DEPRECATED("zesort_ze_requirements")
zesort_algo zesort_ze_last_algo(const zesort_ze_sorter *sorter);

/** Appends a stable sort of the n keys at keys (and the values, when values
 *  is not NULL) to cmdlist, in place.
 *  temp / temp_bytes: caller-owned device memory of at least
 *  zesort_ze_temp_bytes(n, values != NULL) bytes (8-byte aligned; 256-byte
 *  alignment is best). keys, values and temp must not overlap.
 *  Waits on the num_wait_events events of wait_events before the first
 *  command; signals signal_event (optional) after the last.
 *  The count n is captured when this function is called.
 *  Errors: INVALID_ARGUMENT (NULL sorter/cmdlist, NULL keys or temp when
 *  needed, misalignment, overlapping keys/values/temp,
 *  wait_events NULL with num_wait_events > 0,
 *  temp_bytes smaller than needed), TOO_LARGE, UNSUPPORTED (options, or the
 *  grid exceeds the device's limits), OUT_OF_HOST_MEMORY, OUT_OF_DEVICE_MEMORY
 *  and BACKEND (kernel build or append failed; message has the driver's
 *  result and build log). */
ZESORT_DEPRECATED("zesort_ze_append")
zesort_status zesort_ze_append_sort(zesort_ze_sorter *sorter, ze_command_list_handle_t cmdlist,
                                    void *keys, void *values, uint64_t n,
                                    void *temp, uint64_t temp_bytes,
                                    const zesort_options *opts, ze_event_handle_t signal_event,
                                    uint32_t num_wait_events, ze_event_handle_t *wait_events);

/** Segmented sort: appends a stable in-place sort of each of the
 *  num_segments segments [offsets[i], offsets[i + 1]) of the n keys (and
 *  values, or NULL), as zesort_sort_segments sorts host arrays: opts' key
 *  type, order, bit range and value type; keys and values outside
 *  [offsets[0], offsets[num_segments]) are not written; empty segments are
 *  allowed. offsets: num_segments + 1 uint64_t in device (or shared) memory
 *  of the sorter's context, read only on the device, when the sort runs
 *  (never on the host when the call is made): it is
 *  zesort_ze_append_sort_segmented with these offsets (ZESORT_OFFSET_U64)
 *  and no status word, so earlier commands of the list (or those of the
 *  wait events) may write them. Offsets that decrease or exceed n are
 *  therefore not refused here: the sort then leaves the keys and
 *  values as they were, which only zesort_ze_append_sort_segmented's status
 *  word reports. The segments are classified by length on the device: one
 *  work-group sorts each short one within its own keys; longer ones
 *  (ZS_SEG_LARGE_MIN, 16384 keys, 65536 on CPU devices) go through
 *  onesweep passes over their own tiles, so a segment of millions of keys
 *  takes the whole device. Fewer than 2^32 - 1 segments; opts' algorithm and scan are
 *  ignored. temp: zesort_ze_temp_bytes(n, values != NULL, opts) bytes
 *  suffice. keys, values, offsets and temp must not overlap.
 *  zesort_ze_prepare (with with_values ZESORT_KEYS_ONLY or
 *  ZESORT_WITH_VALUES) builds its kernels too; without it, the first
 *  segmented append builds them.
 *  Errors: as zesort_ze_append_sort, plus INVALID_ARGUMENT for offsets NULL
 *  with n > 0 and num_segments > 0, misaligned or overlapping offsets, and
 *  num_segments >= 2^32 - 1. */
ZESORT_DEPRECATED("zesort_ze_append")
zesort_status zesort_ze_append_sort_segments(zesort_ze_sorter *sorter,
                                             ze_command_list_handle_t cmdlist, void *keys,
                                             void *values, uint64_t n, const uint64_t *offsets,
                                             uint64_t num_segments, void *temp,
                                             uint64_t temp_bytes, const zesort_options *opts,
                                             ze_event_handle_t signal_event,
                                             uint32_t num_wait_events,
                                             ze_event_handle_t *wait_events);

/** The segments of zesort_ze_append_sort_segmented, in device (or shared)
 *  memory of the sorter's context, owned by the caller. Either form:
 *  - offsets: num_segments + 1 offsets, segment i = [offsets[i],
 *    offsets[i + 1]) (non-decreasing); begin_offsets, end_offsets NULL;
 *  - begin_offsets, end_offsets: num_segments each, segment i =
 *    [begin_offsets[i], end_offsets[i]), as CUB's DeviceSegmentedRadixSort
 *    takes them: in any order, with gaps (keys in no segment are not
 *    written), empty when begin == end; end_offsets may be begin_offsets + 1.
 *    Segments must not overlap (not checked: overlapping ones leave their
 *    keys unspecified). offsets NULL.
 *  Zero-initialise it (= {0}) and set what you use. The struct itself is
 *  read during the call only; the memory it points to, when the sort runs. */
typedef struct zesort_ze_segments {
    zesort_offset_type offset_type; /* width of every offset: U64 (0) or U32 (1) */
    const void *offsets;            /* num_segments + 1 offsets, or NULL */
    const void *begin_offsets;      /* num_segments begins, or NULL */
    const void *end_offsets;        /* num_segments ends, or NULL */
    uint64_t num_segments;          /* the number of segments (< 2^32 - 1); with
                                       num_segments_devptr, the most it may say */
    const uint32_t *num_segments_devptr; /* NULL, or the number of segments, read on the
                                            device when the sort runs (4-byte aligned) */
    uint32_t *status; /* NULL, or 2 uint32_t (4-byte aligned) the device writes each
                         time the sort runs: zesort_segments_status (zesort.h) */
} zesort_ze_segments;

/** Segmented sort whose segments only the device reads: appends a stable
 *  in-place sort of each segment of segments (zesort_ze_segments above) of
 *  the n keys (and values, or NULL) to cmdlist, as
 *  zesort_ze_append_sort_segments does, with no host read of device memory:
 *  the offsets and the count may be written by earlier commands of the list
 *  (or ones the wait events stand for), and are read when the sort runs.
 *  A first kernel checks them on the device: offsets that decrease (the
 *  num_segments + 1 form), a begin past its end, a segment ending past n, or
 *  a device-side count above num_segments make the sort leave every key and
 *  value as it was, and are reported in segments->status (status[0] a
 *  zesort_segments_status code, status[1] the first bad segment, or the
 *  count): read it once the list has run (e.g. after signal_event). The
 *  status is written each time the sort runs, ZESORT_SEGMENTS_VALID (and 0)
 *  when the segments are valid, also with n == 0 or no segment; with status
 *  NULL invalid segments are only left unsorted.
 *  Offsets are 8-byte aligned (U64) or 4 (U32). keys, values, temp and the
 *  status must not overlap each other or the offsets and count (which may
 *  share bytes with one another). temp: zesort_ze_temp_bytes(n, values !=
 *  NULL, opts) bytes suffice. Fewer than 2^32 - 1 segments; opts' algorithm
 *  and scan are ignored; zesort_ze_prepare (with with_values
 *  ZESORT_KEYS_ONLY or ZESORT_WITH_VALUES) builds its kernels too.
 *  Errors: as zesort_ze_append_sort, plus INVALID_ARGUMENT for segments
 *  NULL, an offset_type other than U64 or U32, both forms given, a NULL
 *  array the form needs (num_segments > 0), misaligned or overlapping
 *  arrays, num_segments >= 2^32 - 1. */
ZESORT_DEPRECATED("zesort_ze_append")
zesort_status zesort_ze_append_sort_segmented(zesort_ze_sorter *sorter,
                                              ze_command_list_handle_t cmdlist, void *keys,
                                              void *values, uint64_t n,
                                              const zesort_ze_segments *segments, void *temp,
                                              uint64_t temp_bytes, const zesort_options *opts,
                                              ze_event_handle_t signal_event,
                                              uint32_t num_wait_events,
                                              ze_event_handle_t *wait_events);

/** zesort_ze_append_sort_segments with the count read on the device: n is
 *  read from *n_devptr (one uint32_t, 4-byte aligned, in device or shared
 *  memory) when the list executes, after the wait events, and clamped to
 *  max_n, as in zesort_ze_append_sort_indirect. The segments are cut at that
 *  count: each [offsets[i], min(offsets[i + 1], count)) is sorted, and no key
 *  or value at or past the count is written. The offsets too are read on
 *  the device only, when the sort runs, and checked there against max_n:
 *  offsets that decrease or exceed max_n leave the keys and values as they
 *  were (as zesort_ze_append_sort_segments). temp:
 *  zesort_ze_temp_bytes(max_n, values != NULL, opts) bytes.
 *  Errors: as zesort_ze_append_sort_segments, plus INVALID_ARGUMENT for
 *  n_devptr NULL (when max_n > 0) or overlapping the other buffers. */
ZESORT_DEPRECATED("zesort_ze_append")
zesort_status zesort_ze_append_sort_segments_indirect(
    zesort_ze_sorter *sorter, ze_command_list_handle_t cmdlist, void *keys, void *values,
    const uint32_t *n_devptr, uint64_t max_n, const uint64_t *offsets, uint64_t num_segments,
    void *temp, uint64_t temp_bytes, const zesort_options *opts, ze_event_handle_t signal_event,
    uint32_t num_wait_events, ze_event_handle_t *wait_events);

/** Out of place: appends a stable sort of the n keys at keys_in (and the
 *  values at values_in, or NULL) into keys_out (and values_out, given
 *  exactly when values_in is). keys_in and values_in are only read: after
 *  the sort they hold what they held. n_devptr: NULL (n is the count), or
 *  the indirect count as in zesort_ze_append_sort_indirect (n is then max_n;
 *  outputs past the count are not written). temp: zesort_ze_temp_bytes(n,
 *  values_in != NULL) bytes, as for the in-place sort (the passes ping-pong
 *  between the outputs and temp, the first reading the inputs; no copy).
 *  The six buffers (with temp and the count) must not overlap.
 *  Errors: as zesort_ze_append_sort, plus INVALID_ARGUMENT when only one of
 *  values_in / values_out is given or an input overlaps an output. */
ZESORT_DEPRECATED("zesort_ze_append")
zesort_status zesort_ze_append_sort_copy(zesort_ze_sorter *sorter,
                                         ze_command_list_handle_t cmdlist, const void *keys_in,
                                         const void *values_in, void *keys_out, void *values_out,
                                         uint64_t n, const uint32_t *n_devptr, void *temp,
                                         uint64_t temp_bytes, const zesort_options *opts,
                                         ze_event_handle_t signal_event, uint32_t num_wait_events,
                                         ze_event_handle_t *wait_events);

/** Bytes of temp a top-k of n keys (zesort_ze_append_topk) needs with opts
 *  (NULL = defaults): with_values ZESORT_WITH_VALUES (1) when values or
 *  indices are wanted, ZESORT_KEYS_ONLY (0) otherwise; for a device-side
 *  count, pass its max_n. 0 for n == 0. Sized for the k that needs the
 *  most: the select's state, the candidates (at most n, with values and
 *  ping-pong partners) and the sort's own buffers.
 *  Errors: as zesort_ze_temp_bytes. */
ZESORT_DEPRECATED("zesort_ze_requirements")
zesort_status zesort_ze_topk_temp_bytes(zesort_ze_sorter *sorter, uint64_t n, int with_values,
                                        const zesort_options *opts, uint64_t *bytes);

/** Top-k: appends to cmdlist what writes the min(k, n) smallest keys of the
 *  n at keys (largest with opts->descending), sorted, equal keys in input
 *  order, to keys_out (NULL: not wanted), with their values (values_in /
 *  values_out: n and k values of opts->value_type, both given or neither)
 *  or their input positions (indices_out, of opts->value_type; not with
 *  values): zesort_topk on device memory. keys and values_in are only read.
 *  n_devptr: NULL, or a uint32_t on the device read when the list executes
 *  (n is then its max_n, as in zesort_ze_append_sort_copy); a count below k
 *  leaves the outputs' elements past it unspecified.
 *  temp: zesort_ze_topk_temp_bytes(n, values or indices wanted) bytes.
 *  How: a radix select on the device (8-bit digits, most significant
 *  first) gathers the candidates in input order into temp, the sort of
 *  only them, then the first min(k, n) copied out (k within
 *  max(n / 32, 4096) of n: the sort of every key instead); barriers between
 *  the steps, the last command signals signal_event.
 *  Errors: as zesort_ze_append_sort_copy; INVALID_ARGUMENT also for values
 *  and indices together, or no output with k and n not 0. */
ZESORT_DEPRECATED("zesort_ze_append")
zesort_status zesort_ze_append_topk(zesort_ze_sorter *sorter, ze_command_list_handle_t cmdlist,
                                    const void *keys, const void *values_in, void *keys_out,
                                    void *values_out, void *indices_out, uint64_t n,
                                    const uint32_t *n_devptr, uint64_t k, void *temp,
                                    uint64_t temp_bytes, const zesort_options *opts,
                                    ze_event_handle_t signal_event, uint32_t num_wait_events,
                                    ze_event_handle_t *wait_events);

/** Argsort: appends the computation of the stable sorting permutation of
 *  the n keys at keys: indices[i] becomes the input position of the i-th
 *  key in sorted order (opts' order and bit range; equal keys in input
 *  order). indices: n elements of opts->value_type (ZESORT_VALUE_U32:
 *  uint32_t, ZESORT_VALUE_U64: uint64_t), made by the sort's first pass on
 *  the device (nothing to upload). keys_out: NULL, or n keys that receive
 *  the sorted keys; keys is only read. n_devptr as in
 *  zesort_ze_append_sort_copy. temp: zesort_ze_temp_bytes(n,
 *  keys_out ? ZESORT_WITH_VALUES : ZESORT_ARGSORT_NO_KEYS_OUT) bytes.
 *  Errors: as zesort_ze_append_sort_copy (indices NULL with n > 0 is
 *  INVALID_ARGUMENT). */
ZESORT_DEPRECATED("zesort_ze_append")
zesort_status zesort_ze_append_argsort(zesort_ze_sorter *sorter, ze_command_list_handle_t cmdlist,
                                       const void *keys, void *indices, void *keys_out,
                                       uint64_t n, const uint32_t *n_devptr, void *temp,
                                       uint64_t temp_bytes, const zesort_options *opts,
                                       ze_event_handle_t signal_event, uint32_t num_wait_events,
                                       ze_event_handle_t *wait_events);

/** Like zesort_ze_append_sort, but n is read from device memory (*n_devptr,
 *  one uint32_t on the device, 4-byte aligned) when the command list executes,
 *  after the wait events — so a producer kernel can compute it. Grids are
 *  sized for max_n. A count above max_n (any uint32_t value up to
 *  UINT32_MAX) is clamped on the device: the first max_n keys are sorted,
 *  and nothing at or past keys[max_n] / values[max_n], nor past temp_bytes
 *  of temp, is read or written. temp_bytes
 *  must be at least zesort_ze_temp_bytes(max_n, values != NULL). Errors as above, plus
 *  INVALID_ARGUMENT for n_devptr NULL (when max_n > 0). */
ZESORT_DEPRECATED("zesort_ze_append")
zesort_status zesort_ze_append_sort_indirect(zesort_ze_sorter *sorter,
                                             ze_command_list_handle_t cmdlist, void *keys,
                                             void *values, const uint32_t *n_devptr,
                                             uint64_t max_n,
                                             void *temp, uint64_t temp_bytes,
                                             const zesort_options *opts,
                                             ze_event_handle_t signal_event,
                                             uint32_t num_wait_events,
                                             ze_event_handle_t *wait_events);

/** How many chain events zesort_ze_append_sort_chained needs for a sort of n
 *  keys (the indirect variant: its max_n, indirect 1) with these options and
 *  with_values (ZESORT_KEYS_ONLY or ZESORT_WITH_VALUES: a chained sort is
 *  in place), in *count: one per command of the sort but the last (which
 *  signals the caller's signal_event). 0 for n == 0. The number depends on
 *  the algorithm, the key type, the bit range and n (the scan's depth), so
 *  ask for the n (max_n) that will be passed.
 *  zesort_ze_chain_events_for sizes the chained forms of the other variants.
 *  Errors: INVALID_ARGUMENT, UNSUPPORTED (options), TOO_LARGE. */
ZESORT_DEPRECATED("zesort_ze_requirements")
zesort_status zesort_ze_chain_events(zesort_ze_sorter *sorter, uint64_t n, int with_values,
                                     int indirect, const zesort_options *opts, uint32_t *count);

/** zesort_ze_append_sort (n_devptr NULL) or zesort_ze_append_sort_indirect
 *  (n_devptr set: n is then max_n) without barriers: the sort depends only
 *  on its wait events, not on the other commands of the list. Its first
 *  commands wait for wait_events, every further command waits for the one
 *  before it through chain_events[0..count-1] (count from
 *  zesort_ze_chain_events), and the last command signals signal_event.
 *  Commands appended later that read the keys must wait on signal_event
 *  (nothing else orders them after the sort). A sort with no command (n 0)
 *  signals signal_event once its wait events are signalled.
 *  chain_events: the caller's events (created, owned, reset and destroyed by
 *  the caller), distinct, not signal_event, in a pool of the list's context,
 *  with ZE_EVENT_SCOPE_FLAG_DEVICE (or HOST) signal and wait scope so that
 *  each command sees the previous one's writes; unsignalled when the sort
 *  executes: before a regular list executes again, reset them
 *  (zeEventHostReset, or zeCommandListAppendEventReset after the sort). They
 *  must not be used otherwise until the sort has completed; more than count
 *  may be passed (the rest are unused).
 *  Errors: those of zesort_ze_append_sort / _indirect, plus INVALID_ARGUMENT
 *  when fewer than count chain events are given, chain_events is NULL, an
 *  event is NULL or is signal_event. */
ZESORT_DEPRECATED("zesort_ze_append")
zesort_status zesort_ze_append_sort_chained(zesort_ze_sorter *sorter,
                                            ze_command_list_handle_t cmdlist, void *keys,
                                            void *values, uint64_t n,
                                            const uint32_t *n_devptr, void *temp,
                                            uint64_t temp_bytes, const zesort_options *opts,
                                            ze_event_handle_t signal_event,
                                            uint32_t num_wait_events,
                                            ze_event_handle_t *wait_events,
                                            uint32_t num_chain_events,
                                            ze_event_handle_t *chain_events);

/* The sorts that have a chained form, for zesort_ze_chain_events_for. */
typedef enum zesort_ze_variant {
    ZESORT_ZE_VARIANT_SORT = 0,      /* zesort_ze_append_sort_chained (in place) */
    ZESORT_ZE_VARIANT_SORT_COPY = 1, /* zesort_ze_append_sort_copy_chained */
    ZESORT_ZE_VARIANT_ARGSORT = 2,   /* zesort_ze_append_argsort_chained */
    ZESORT_ZE_VARIANT_SEGMENTS = 3   /* zesort_ze_append_sort_segments_chained */
} zesort_ze_variant;

/** How many chain events the chained form of `variant` needs, in *count, for
 *  a sort of n keys (max_n when a device-side count will be passed, indirect
 *  1) with these options; as zesort_ze_chain_events, which is this function
 *  for ZESORT_ZE_VARIANT_SORT. with_values: ZESORT_KEYS_ONLY or
 *  ZESORT_WITH_VALUES (values given) for SORT, SORT_COPY and SEGMENTS;
 *  ZESORT_WITH_VALUES (keys_out given) or ZESORT_ARGSORT_NO_KEYS_OUT for
 *  ARGSORT. For SEGMENTS the count holds for any number of segments (a sort
 *  of none, or of no keys, needs none). 0 for n == 0. Pass the same options,
 *  n and indirectness to the append: the count depends on the algorithm,
 *  the key type, the bit range and n (the scan's depth).
 *  Errors: INVALID_ARGUMENT (NULL sorter or count, unknown variant,
 *  with_values not allowed for it), UNSUPPORTED (options), TOO_LARGE. */
ZESORT_DEPRECATED("zesort_ze_requirements")
zesort_status zesort_ze_chain_events_for(zesort_ze_sorter *sorter, zesort_ze_variant variant,
                                         uint64_t n, int with_values, int indirect,
                                         const zesort_options *opts, uint32_t *count);

/** zesort_ze_append_sort_copy without barriers, ordered by the caller's
 *  events exactly as zesort_ze_append_sort_chained (same rules for
 *  wait_events, chain_events and signal_event). n_devptr: NULL, or the
 *  device-side count (n is then max_n). Size the chain with
 *  zesort_ze_chain_events_for(ZESORT_ZE_VARIANT_SORT_COPY, n,
 *  values_in != NULL, n_devptr != NULL).
 *  Errors: those of zesort_ze_append_sort_copy and of the chain as in
 *  zesort_ze_append_sort_chained. */
ZESORT_DEPRECATED("zesort_ze_append")
zesort_status zesort_ze_append_sort_copy_chained(
    zesort_ze_sorter *sorter, ze_command_list_handle_t cmdlist, const void *keys_in,
    const void *values_in, void *keys_out, void *values_out, uint64_t n,
    const uint32_t *n_devptr, void *temp, uint64_t temp_bytes, const zesort_options *opts,
    ze_event_handle_t signal_event, uint32_t num_wait_events, ze_event_handle_t *wait_events,
    uint32_t num_chain_events, ze_event_handle_t *chain_events);

/** zesort_ze_append_argsort without barriers, ordered by the caller's events
 *  as zesort_ze_append_sort_chained. Size the chain with
 *  zesort_ze_chain_events_for(ZESORT_ZE_VARIANT_ARGSORT, n, keys_out ?
 *  ZESORT_WITH_VALUES : ZESORT_ARGSORT_NO_KEYS_OUT, n_devptr != NULL).
 *  Errors: those of zesort_ze_append_argsort and of the chain. */
ZESORT_DEPRECATED("zesort_ze_append")
zesort_status zesort_ze_append_argsort_chained(
    zesort_ze_sorter *sorter, ze_command_list_handle_t cmdlist, const void *keys, void *indices,
    void *keys_out, uint64_t n, const uint32_t *n_devptr, void *temp, uint64_t temp_bytes,
    const zesort_options *opts, ze_event_handle_t signal_event, uint32_t num_wait_events,
    ze_event_handle_t *wait_events, uint32_t num_chain_events, ze_event_handle_t *chain_events);

/** zesort_ze_append_sort_segments (n_devptr NULL) or
 *  zesort_ze_append_sort_segments_indirect (n_devptr set: n is then max_n)
 *  without barriers, ordered by the caller's events as
 *  zesort_ze_append_sort_chained. The offsets are read on the device only,
 *  when the sort runs (its first kernel checks them, as for
 *  zesort_ze_append_sort_segments), so earlier commands of the chain's wait
 *  events may write them. Size the chain with
 *  zesort_ze_chain_events_for(ZESORT_ZE_VARIANT_SEGMENTS, n, values != NULL,
 *  n_devptr != NULL): the check, the sort, and with n_devptr the count's
 *  fill and copy.
 *  Errors: those of zesort_ze_append_sort_segments and of the chain. */
ZESORT_DEPRECATED("zesort_ze_append")
zesort_status zesort_ze_append_sort_segments_chained(
    zesort_ze_sorter *sorter, ze_command_list_handle_t cmdlist, void *keys, void *values,
    uint64_t n, const uint32_t *n_devptr, const uint64_t *offsets, uint64_t num_segments,
    void *temp, uint64_t temp_bytes, const zesort_options *opts, ze_event_handle_t signal_event,
    uint32_t num_wait_events, ze_event_handle_t *wait_events, uint32_t num_chain_events,
    ze_event_handle_t *chain_events);
/* ---- Caller-supplied alternate buffers ------------------------------------
 * A radix sort ping-pongs between two buffers per array. The appends above
 * take the second one out of temp (n * (key size + value size) bytes); the
 * _alt appends take it from the caller instead (CUB's DoubleBuffer): keys_alt
 * (and values_alt) of the same size as keys (values), which the sort uses as
 * scratch, and temp shrinks to the count tables and parameters (cm2, cm4) or
 * the histograms and per-tile status words (onesweep): about n / 16 bytes
 * (cm2), n / 4 (cm4), 1 byte a key for 32-bit keys alone and 2 for 64-bit
 * keys or pairs (onesweep on a GPU), plus a few KB (onesweep: about 9 KB);
 * see docs/interop.md for the figures. The alternate buffers follow the rules
 * of keys and values (device or shared allocations of the sorter's context,
 * aligned to their element size, disjoint from every other buffer, temp and
 * the count; kept and left alone until the sort has completed); the sort
 * writes only their first n elements (with an indirect count: the first
 * min(count, max_n)). A keys-only sort takes no values_alt (NULL). */

/** zesort_ze_temp_requirements for the _alt appends: in *bytes the temp a
 *  sort of n keys (max_n for an indirect count) with these options needs
 *  beside the caller's alternate buffers, in *alignment (may be NULL) the
 *  alignment temp must have (ZESORT_ZE_TEMP_ALIGNMENT), and in
 *  *result_in_alt (may be NULL) where zesort_ze_append_sort_alt will leave
 *  the sorted keys: 1 in keys_alt (values_alt), when the sort makes an odd
 *  number of passes, 0 in keys (values). This is the very value that append
 *  reports (it depends on the algorithm AUTO picks for n, the key width and
 *  the bit range, never on the data or an indirect count). with_values as
 *  for zesort_ze_temp_bytes (ZESORT_ARGSORT_NO_KEYS_OUT: the sorted keys of
 *  zesort_ze_append_argsort_alt without keys_out live in temp, n keys more).
 *  0 bytes for n == 0.
 *  Errors: as zesort_ze_temp_bytes (INVALID_ARGUMENT, also for bytes NULL;
 *  UNSUPPORTED; TOO_LARGE). */
ZESORT_DEPRECATED("zesort_ze_requirements")
zesort_status zesort_ze_alt_temp_requirements(zesort_ze_sorter *sorter, uint64_t n,
                                              int with_values, const zesort_options *opts,
                                              uint64_t *bytes, uint64_t *alignment,
                                              int *result_in_alt);

/** zesort_ze_append_sort (n_devptr NULL) or zesort_ze_append_sort_indirect
 *  (n_devptr set: n is then max_n) with the caller's alternate buffers:
 *  keys_alt (n keys) and values_alt (n values, given exactly when values
 *  is). The sort ping-pongs between keys and keys_alt (values and
 *  values_alt) with no copy at the end, so the sorted keys end up in one of
 *  the two: *result_in_alt (when not NULL) is set, when this call returns,
 *  to 1 when they are in keys_alt (values_alt), 0 when in keys (values); the
 *  other buffer then holds scratch. The answer is known when the sort is
 *  appended (the pass count follows from the options and n), so commands
 *  appended after it can be given the right buffer; a regular list executed
 *  again leaves the result in the same buffer each time.
 *  zesort_ze_alt_temp_requirements gives the same answer beforehand. Both
 *  arise: an odd number of passes (e.g. cm4 on bits 0:12, onesweep on bits
 *  0:24) ends in keys_alt, an even one (every algorithm over whole 32- or
 *  64-bit keys) in keys. With an indirect count, elements of the result
 *  buffer at or past the count are not written (keys past it keep the
 *  input's, keys_alt its own earlier contents). n 0: nothing is written,
 *  *result_in_alt is 0. temp: zesort_ze_alt_temp_requirements(n,
 *  values != NULL) bytes.
 *  Errors: as zesort_ze_append_sort / _indirect (keys_alt, or values_alt
 *  when values is given, NULL, misaligned, overlapping another buffer or
 *  not device memory: INVALID_ARGUMENT; temp_bytes below
 *  zesort_ze_alt_temp_requirements: INVALID_ARGUMENT); on any error
 *  *result_in_alt is 0 and nothing is appended. */
ZESORT_DEPRECATED("zesort_ze_append")
zesort_status zesort_ze_append_sort_alt(zesort_ze_sorter *sorter,
                                        ze_command_list_handle_t cmdlist, void *keys,
                                        void *values, void *keys_alt, void *values_alt,
                                        uint64_t n, const uint32_t *n_devptr, void *temp,
                                        uint64_t temp_bytes, const zesort_options *opts,
                                        ze_event_handle_t signal_event,
                                        uint32_t num_wait_events,
                                        ze_event_handle_t *wait_events, int *result_in_alt);

/** zesort_ze_append_sort_copy with the caller's alternate buffers keys_alt
 *  (values_alt, given exactly when values_in is): the passes ping-pong
 *  between keys_out and keys_alt, the first reading keys_in, in the order
 *  that makes the last pass write keys_out, so the result is ALWAYS in
 *  keys_out (values_out), with no copy whatever the pass count; keys_alt
 *  (values_alt) holds scratch (at most n elements written). temp:
 *  zesort_ze_alt_temp_requirements(n, values_in != NULL) bytes.
 *  Errors: as zesort_ze_append_sort_copy and zesort_ze_append_sort_alt. */
ZESORT_DEPRECATED("zesort_ze_append")
zesort_status zesort_ze_append_sort_copy_alt(zesort_ze_sorter *sorter,
                                             ze_command_list_handle_t cmdlist,
                                             const void *keys_in, const void *values_in,
                                             void *keys_out, void *values_out, void *keys_alt,
                                             void *values_alt, uint64_t n,
                                             const uint32_t *n_devptr, void *temp,
                                             uint64_t temp_bytes, const zesort_options *opts,
                                             ze_event_handle_t signal_event,
                                             uint32_t num_wait_events,
                                             ze_event_handle_t *wait_events);

/** zesort_ze_append_argsort with the caller's alternate buffers keys_alt (n
 *  keys) and indices_alt (n indices of opts->value_type): the result is
 *  ALWAYS in indices (and keys_out), as for the copy form. keys_out may be
 *  NULL: the sorted keys' ping-pong partner then lives in temp
 *  (zesort_ze_alt_temp_requirements(n, ZESORT_ARGSORT_NO_KEYS_OUT): n keys
 *  more); with keys_out, zesort_ze_alt_temp_requirements(n,
 *  ZESORT_WITH_VALUES).
 *  Errors: as zesort_ze_append_argsort and zesort_ze_append_sort_alt. */
ZESORT_DEPRECATED("zesort_ze_append")
zesort_status zesort_ze_append_argsort_alt(zesort_ze_sorter *sorter,
                                           ze_command_list_handle_t cmdlist, const void *keys,
                                           void *indices, void *keys_out, void *keys_alt,
                                           void *indices_alt, uint64_t n,
                                           const uint32_t *n_devptr, void *temp,
                                           uint64_t temp_bytes, const zesort_options *opts,
                                           ze_event_handle_t signal_event,
                                           uint32_t num_wait_events,
                                           ze_event_handle_t *wait_events);

#ifdef __cplusplus
}
#endif
#endif /* ZESORT_ZE_H */
