/*
 * zesort.h — portable C API of zesort, a stable LSD radix sort for Intel GPUs
 * (Level Zero), any OpenCL device, or the CPU.
 *
 * Ownership: a zesort_context owns every device object it creates (driver
 * handles, buffers, compiled kernels). The caller's host arrays are only
 * read/written during a call and never retained.
 *
 * Threads: a context may be used by several threads at once. Calls on one
 * context are serialised: each holds the context's lock for its whole
 * duration (a sort waits for another thread's sort on the same context to
 * finish), so for parallel sorts give each thread its own context. Calls on
 * different contexts run in parallel. zesort_destroy must not race with
 * other calls on the same context.
 *
 * Errors: every function returns a zesort_status. On failure the caller's
 * arrays are left unchanged, and zesort_last_error(ctx) returns a one-line
 * human readable message (never NULL). Nothing aborts, nothing prints.
 */
#ifndef ZESORT_H
#define ZESORT_H

#include <stddef.h>
#include <stdint.h>

#include "zesort_version.h" /* ZESORT_VERSION_MAJOR / _MINOR / _PATCH / _STRING */

#ifdef __cplusplus
extern "C" {
#endif

/* The 1.1 functions that zesort_run, zesort_ze_append, zesort_cl_enqueue and
 * the requirements queries replace stay in every 1.x as shims over them,
 * marked ZESORT_DEPRECATED("what replaces it"). A program that defines
 * ZESORT_WARN_DEPRECATED before including the headers gets a compiler
 * warning for each use (GCC, Clang); without it nothing changes. */
#if defined(ZESORT_WARN_DEPRECATED) && (defined(__GNUC__) || defined(__clang__))
#define ZESORT_DEPRECATED(replacement) __attribute__((deprecated("use " replacement)))
#else
#define ZESORT_DEPRECATED(replacement)
#endif

/** Result codes. 0 is success; all errors are negative. */
typedef enum zesort_status {
    ZESORT_OK = 0,
    ZESORT_ERROR_INVALID_ARGUMENT = -1, /* NULL pointer, bad enum, bad bit range */
    ZESORT_ERROR_NO_DEVICE = -2,        /* requested backend has no usable device */
    ZESORT_ERROR_OUT_OF_HOST_MEMORY = -3,
    ZESORT_ERROR_OUT_OF_DEVICE_MEMORY = -4, /* includes "allocation larger than the device allows" */
    ZESORT_ERROR_UNSUPPORTED = -5,      /* valid request this build/backend cannot do (yet) */
    ZESORT_ERROR_BACKEND = -6,          /* the driver failed (build, launch, copy) */
    ZESORT_ERROR_TOO_LARGE = -7         /* n beyond ZESORT_MAX_KEYS (interop APIs) */
} zesort_status;

/** Largest n one device sort takes, the same for every algorithm and
 *  backend: 2^32 - 2 (offsets are 32-bit unsigned on the device, and
 *  onesweep's status words reserve 0xFFFFFFFF for "not published"). The
 *  interop APIs accept at most this many keys. The host API sorts any n the
 *  host can hold: a sort beyond it, or beyond the device's memory, is split
 *  on the host into parts that fit (zesort_check_split says how). */
#define ZESORT_MAX_KEYS UINT64_C(4294967294)

/** Where the sort runs. AUTO prefers a Level Zero GPU, then an OpenCL GPU,
 *  then the C fallback: OpenCL CPU devices (PoCL) are used only when asked
 *  for (OPENCL), the C fallback sorting faster on the CPU. A ZESORT_FLAVOR
 *  that names no flavor is INVALID_ARGUMENT for AUTO too. The C fallback is a
 *  multi-threaded radix sort: ZESORT_THREADS=N (decimal, 1..256) sets its
 *  thread count, read at every sort; unset or any other value: one thread
 *  per online core. */
typedef enum zesort_backend {
    ZESORT_BACKEND_AUTO = 0,
    ZESORT_BACKEND_LEVEL_ZERO = 1,
    ZESORT_BACKEND_OPENCL = 2,
    ZESORT_BACKEND_CPU = 3
} zesort_backend;

/** Sorting algorithm. CM2/CM4: the C-for-Metal design with 2-bit / 4-bit
 *  digits (16 / 8 passes for 32-bit keys). SMALL: the whole sort by one
 *  work-group in one kernel launch, for n (max_n for a count on the device)
 *  up to a limit of the device's kernel flavor and key width (at least
 *  2048; zesort_context_query's small_max, `zesort info`'s small-max
 *  lines), TOO_LARGE above it. AUTO picks for the
 *  device and n: SMALL up to that limit. */
typedef enum zesort_algo {
    ZESORT_ALGO_AUTO = 0,
    ZESORT_ALGO_CM2 = 1,
    ZESORT_ALGO_CM4 = 2,
    ZESORT_ALGO_ONESWEEP = 3, /* 8-bit digits, chained scan; what AUTO picks on GPUs */
    ZESORT_ALGO_SMALL = 4     /* one work-group, one launch (since 1.2) */
} zesort_algo;

/** Where the per-pass prefix table is scanned: on the host (the CM tutorial:
 *  table read back, scanned, written again) or on the device (no round trip). */
typedef enum zesort_scan {
    ZESORT_SCAN_DEVICE = 0,
    ZESORT_SCAN_HOST = 1
} zesort_scan;

/** Key type. Signed keys (two's complement) sort by value; floats by
 *  IEEE-754 totalOrder: -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN
 *  (NaNs by payload). Keys are arrays of the type's width, aligned to it.
 *  The narrow types (U8 to BF16, added in 1.x: appended, the values above
 *  unchanged) sort on every backend and through both interop APIs, with
 *  every option; the device kernels read and write them at their width. */
typedef enum zesort_key_type {
    ZESORT_KEY_U32 = 0,
    ZESORT_KEY_I32 = 1,
    ZESORT_KEY_F32 = 2,
    ZESORT_KEY_U64 = 3,
    ZESORT_KEY_I64 = 4,
    ZESORT_KEY_F64 = 5,
    ZESORT_KEY_U8 = 6,   /* uint8_t */
    ZESORT_KEY_I8 = 7,   /* int8_t */
    ZESORT_KEY_U16 = 8,  /* uint16_t */
    ZESORT_KEY_I16 = 9,  /* int16_t */
    ZESORT_KEY_F16 = 10, /* IEEE-754 binary16 (_Float16), as its 16 bits */
    ZESORT_KEY_BF16 = 11 /* bfloat16 (the top 16 bits of an f32), as its 16 bits */
} zesort_key_type;

/** Width of the values moved with the keys (zesort_sort's values, the
 *  indices zesort_argsort writes). Values are moved as bits, never compared:
 *  U64 serves uint64_t, int64_t, double and pointers alike. Both kinds move
 *  in the same passes as the keys (no gather pass afterwards). */
typedef enum zesort_value_type {
    ZESORT_VALUE_U32 = 0, /* 4 bytes (the default) */
    ZESORT_VALUE_U64 = 1  /* 8 bytes */
} zesort_value_type;

/** Options of one sort. Initialise with zesort_options_default(): a program
 *  that fills the struct by hand must set every field (the struct grew in
 *  version 1.0.0: value_type). */
typedef struct zesort_options {
    zesort_key_type key_type; /* default U32 */
    zesort_algo algo;         /* default AUTO */
    zesort_scan scan;         /* default DEVICE */
    int descending;           /* 0 = ascending (default); stable either way */
    unsigned bit_lo, bit_hi;  /* sort only by bits [bit_lo, bit_hi) of the ordered key (the
                                 key mapped to unsigned order: sign bit flipped for signed
                                 keys, all bits of negative floats flipped); bit_hi == 0
                                 (the default) means the key's width, 8, 16, 32 or 64 */
    zesort_value_type value_type; /* values / argsort indices: default U32 */
} zesort_options;

/** The with_values argument of the interop APIs' temp-size queries, prepare
 *  and chain-event counts (zesort_ze.h, zesort_cl.h): what the sort moves.
 *  Out-of-place sorts need what in-place ones need. */
#define ZESORT_KEYS_ONLY 0
#define ZESORT_WITH_VALUES 1         /* values of opts->value_type, or argsort indices
                                        with keys_out given */
#define ZESORT_ARGSORT_NO_KEYS_OUT 2 /* argsort without keys_out: the sorted keys, which
                                        the passes need, take n keys more of temp */

/** Segments given in device memory to the interop APIs' segmented sorts
 *  (zesort_ze_append_sort_segmented, zesort_cl_enqueue_sort_segmented): the
 *  width of their offsets, and how they are laid out. */
typedef enum zesort_offset_type {
    ZESORT_OFFSET_U64 = 0, /* uint64_t offsets */
    ZESORT_OFFSET_U32 = 1  /* uint32_t offsets */
} zesort_offset_type;

/** The status word of a segmented sort checked on the device: status[0] is
 *  one of these codes, status[1] the index of the first segment found bad
 *  (0 when valid; the count read, for COUNT_OVER_MAX). Written by the device
 *  each time the sort runs; any code but VALID means that nothing was
 *  sorted: keys and values are as they were. */
typedef enum zesort_segments_status {
    ZESORT_SEGMENTS_VALID = 0,
    ZESORT_SEGMENTS_DECREASING = 1,      /* S + 1 offsets: offsets[i] > offsets[i + 1] */
    ZESORT_SEGMENTS_PAST_N = 2,          /* segment i ends past n */
    ZESORT_SEGMENTS_BEGIN_AFTER_END = 3, /* begin/end arrays: begin[i] > end[i] */
    ZESORT_SEGMENTS_COUNT_OVER_MAX = 4   /* the device-side count exceeds num_segments */
} zesort_segments_status;

typedef struct zesort_context zesort_context;

/* ---- Interface 2: one descriptor, one call per API ------------------------
 * Every sort is described by a zesort_desc and run by one call per API:
 * zesort_run (host arrays, below), zesort_ze_append (zesort_ze.h: device
 * pointers on a Level Zero command list), zesort_cl_enqueue (zesort_cl.h:
 * cl_mem on an OpenCL queue). A new capability is a new field or kind, never
 * a new function: fields are only ever appended, and `size` tells the
 * library how much of the struct the program knows (a program built against
 * an older header passes a smaller size; the fields past it read as their
 * defaults). */

/** What a descriptor asks for. */
typedef enum zesort_kind {
    ZESORT_SORT = 0,      /* keys (and values) sorted in place */
    ZESORT_SORT_COPY = 1, /* keys_in (values_in), only read, sorted into keys (values) */
    ZESORT_ARGSORT = 2,   /* the stable sorting permutation of keys_in into indices,
                             the sorted keys into keys (optional); keys_in only read */
    ZESORT_TOPK = 3,      /* the first min(k, n) keys of keys_in in sorted order into
                             keys (optional), their values (values_in) into values,
                             their input positions into indices (each optional) */
    ZESORT_SEGMENTED = 4  /* each segment of keys (and values) sorted in place, on its
                             own; segments: the segment fields below */
} zesort_kind;

/** What moves with the keys. */
typedef enum zesort_values {
    ZESORT_VALUES_NONE = 0, /* keys only */
    ZESORT_VALUES_U32 = 1,  /* 4-byte values (any 4-byte type, moved as bits) */
    ZESORT_VALUES_U64 = 2   /* 8-byte values (uint64_t, double, pointers) */
} zesort_values;

/** Width of a count or of indices held in memory (zesort_desc.n_type,
 *  index_type). */
typedef enum zesort_int_type {
    ZESORT_INT_U32 = 0,
    ZESORT_INT_U64 = 1
} zesort_int_type;

/** One sort, for every API. Set up with zesort_desc_init(&d, kind), then set
 *  the fields the sort needs; unused fields keep their defaults (0 / NULL).
 *  Buffers: host arrays for zesort_run, device (or shared) USM pointers for
 *  zesort_ze_append, cl_mem handles (cast to void *; the whole buffer, from
 *  offset 0) for zesort_cl_enqueue. Buffers are borrowed for the call (and,
 *  on the device APIs, until the recorded sort has run); none may overlap
 *  another unless both are only read. Which are read and which written:
 *    SORT, SEGMENTED: keys, values (read and written);
 *    SORT_COPY, TOPK: keys_in, values_in (read); keys, values, indices (written);
 *    ARGSORT: keys_in (read); indices and keys (optional) written.
 *  The descriptor is only read by the calls. */
typedef struct zesort_desc {
    uint32_t size;    /* sizeof(zesort_desc) as the program was built: set by init */
    zesort_kind kind; /* set by init */

    /* What is sorted, and how. */
    zesort_key_type key_type; /* default ZESORT_KEY_U32 */
    zesort_values value_type; /* what moves with the keys: default ZESORT_VALUES_NONE */
    zesort_int_type index_type; /* ARGSORT's and TOPK's indices: U32 (default) or U64 */
    zesort_algo algo;         /* default AUTO */
    zesort_scan scan;         /* default DEVICE; HOST only for zesort_run */
    int descending;           /* 0 ascending (default); stable either way */
    unsigned bit_lo, bit_hi;  /* sort by bits [bit_lo, bit_hi) of the ordered key;
                                 bit_hi 0: the key's width (zesort_options) */

    /* The data. */
    const void *keys_in;   /* SORT_COPY, ARGSORT, TOPK: the n input keys */
    const void *values_in; /* SORT_COPY, TOPK with VALUES_U32/U64: the input values */
    void *keys;            /* SORT, SEGMENTED: the keys; SORT_COPY: the output; ARGSORT,
                              TOPK: the sorted keys, or NULL (not wanted) */
    void *values;          /* the values in place, or the output values */
    void *indices;         /* ARGSORT (required), TOPK (optional): input positions */
    void *keys_alt;        /* optional alternate key buffer of n keys (a DoubleBuffer):
                              with it, temp holds no keys and the result may land in
                              keys_alt instead of keys (see result_in_alt) */
    void *values_alt;      /* the same for the values, or ARGSORT's indices (with keys_alt,
                              when values or indices move) */
    int *result_in_alt;    /* NULL, or host memory the call sets to 1 when the sorted
                              keys (values) are in keys_alt (values_alt), 0 when in
                              keys (values); what zesort_*_requirements also report */

    /* How many. */
    uint64_t n;               /* the number of keys; with n_device, unused */
    const void *n_device;     /* NULL, or device memory holding the number of keys, read
                                 when the sort runs (device APIs only) */
    zesort_int_type n_type;   /* the width of *n_device: U32 (default) or U64 */
    uint64_t max_n;           /* with n_device: the most keys; a larger count is clamped
                                 to it, and nothing past max_n elements is touched */

    /* ZESORT_SEGMENTED (and ZESORT_TOPK per segment, host API): the segments.
     * Either offsets (num_segments + 1 increasing offsets: segment i is
     * [offsets[i], offsets[i + 1])) or begin_offsets and end_offsets
     * (num_segments each: segment i is [begin[i], end[i]), in any order). */
    zesort_offset_type offset_type; /* width of every offset: U64 (0, the default) or U32 */
    const void *offsets;
    const void *begin_offsets;
    const void *end_offsets;
    uint64_t num_segments;          /* the segments; with num_segments_device the most */
    const void *num_segments_device; /* NULL, or a uint32_t count read on the device */
    uint32_t *status;               /* NULL, or 2 uint32_t of device memory the sort
                                       writes each time it runs (zesort_segments_status):
                                       device APIs, SEGMENTED */

    /* ZESORT_TOPK: how many keys are wanted (per segment with segments). */
    uint64_t k;

    /* Device APIs: the caller's temporary memory, zesort_*_requirements bytes. */
    void *temp;
    uint64_t temp_bytes;

    /* zesort_run: where the device time of the whole sort goes (NULL: not wanted). */
    double *device_ms;

    uint64_t reserved[8]; /* zero: later fields come here without an ABI break */
} zesort_desc;

/** What a device API needs for a descriptor (zesort_ze_requirements,
 *  zesort_cl_requirements). */
typedef struct zesort_requirements {
    uint64_t temp_bytes;     /* bytes of temp the sort needs (0: none; temp may be NULL) */
    uint64_t temp_alignment; /* the alignment temp must have (256 is best) */
    uint32_t chain_events;   /* events a chained append needs (zesort_ze_sync) */
    int result_in_alt;       /* with keys_alt: 1 when the result will land there */
    zesort_algo algo;        /* the algorithm the sort will run (what AUTO picks) */
    uint64_t launches;       /* kernel launches the append (enqueue) records */
    uint64_t reserved[3];
} zesort_requirements;

/** Sets *d to the defaults for `kind`: every field 0 / NULL but size
 *  (sizeof(zesort_desc)) and kind: U32 keys, AUTO algorithm, device scan,
 *  ascending, every bit, keys only, U32 indices and counts, U64 offsets. A kind that is not a zesort_kind is kept: the
 *  call that takes the descriptor refuses it. NULL d: nothing happens. */
void zesort_desc_init(zesort_desc *d, zesort_kind kind);

/** Runs the sort d describes on host arrays, on ctx's device (or split over
 *  its devices, or on the C fallback), and returns when it is done.
 *  Kinds: every one. Not on the host: n_device, num_segments_device and
 *  status (device memory: UNSUPPORTED naming the field), keys_alt /
 *  values_alt (UNSUPPORTED), begin/end offsets (UNSUPPORTED), temp (ignored).
 *  TOPK with segments: the top k of each segment, k per segment, outputs at
 *  segment i * k. SEGMENTED and TOPK offsets may be U32 or U64.
 *  Errors: INVALID_ARGUMENT (NULL ctx or d, a size too small for the fields
 *  before `keys`, a bad enum, a missing or misaligned buffer, overlap),
 *  UNSUPPORTED (naming the field), NO_DEVICE, OUT_OF_HOST_MEMORY,
 *  OUT_OF_DEVICE_MEMORY, BACKEND; on failure the caller's arrays are intact
 *  and zesort_last_error(ctx) names the field or the cause. */
zesort_status zesort_run(zesort_context *ctx, const zesort_desc *d);

/** Fills *opts with the defaults (u32 keys, auto algorithm, device scan,
 *  ascending, all bits: bit_lo = bit_hi = 0, u32 values). */
void zesort_options_default(zesort_options *opts);

/** Creates a context on `backend`. On success *out owns a new context, to be
 *  released with zesort_destroy(). On failure *out is NULL and the status is
 *  returned; zesort_last_error(NULL) then describes the failure (thread-local).
 *  Errors: INVALID_ARGUMENT, NO_DEVICE, OUT_OF_HOST_MEMORY, BACKEND. */
zesort_status zesort_create(zesort_backend backend, zesort_context **out);

/** Device choice. Every backend but AUTO has a list of devices, indexed from 0:
 *  - LEVEL_ZERO: every driver's devices in zeDriverGet / zeDeviceGet order,
 *    each root device followed by its sub-devices (zeDeviceGetSubDevices; a
 *    multi-tile GPU is listed as the whole device, then one entry per tile).
 *  - OPENCL: every platform's devices (all types), platforms in the order
 *    the ICD loader gives them.
 *  - CPU: one device, the host (index 0).
 *  The list is read from the drivers at every call (nothing is cached): it
 *  is stable while the set of drivers and devices is. zesort_create picks a
 *  root device from the same list: the first GPU, else (LEVEL_ZERO,
 *  OPENCL) the first device. Errors of these functions are described by
 *  zesort_last_error(NULL) (thread-local), like zesort_create's.
 *  (The interop sorters of zesort_ze.h / zesort_cl.h need none of this: they
 *  run on the device handle the caller gives them.) */

/** A buffer of this many bytes holds any device name zesort_device_name gives. */
#define ZESORT_DEVICE_NAME_MAX 256

/** Sets *count to the number of devices of backend (0 when its driver or
 *  platform is missing: not an error). Errors: INVALID_ARGUMENT (count NULL,
 *  backend AUTO or unknown), OUT_OF_HOST_MEMORY. */
zesort_status zesort_device_count(zesort_backend backend, uint32_t *count);

/** Writes the name of device `index` of backend into buf (size bytes, cut to
 *  size - 1 and always terminated; ZESORT_DEVICE_NAME_MAX bytes are enough),
 *  the text zesort_context_device gives for a context on that device, e.g.
 *  "Level Zero: Intel(R) Arc(TM) A770 Graphics". Names need not be unique
 *  (two identical GPUs): the index is what identifies a device.
 *  Errors: INVALID_ARGUMENT (buf NULL, size 0, backend AUTO or unknown),
 *  NO_DEVICE (index >= the count; the message gives the count),
 *  OUT_OF_HOST_MEMORY. */
zesort_status zesort_device_name(zesort_backend backend, uint32_t index, char *buf, size_t size);

/** Like zesort_create, on device `index` of backend's list (any device:
 *  sub-devices and non-GPU devices included). zesort_context_device_index(ctx)
 *  then returns index. Errors: INVALID_ARGUMENT (out NULL, backend AUTO or
 *  unknown, a bad ZESORT_FLAVOR), NO_DEVICE (no such device: the message
 *  names the index and how many devices there are, e.g. "opencl backend: no
 *  OpenCL device 2: there are 2 (0..1; 'zesort info' lists them)"),
 *  OUT_OF_HOST_MEMORY, BACKEND. */
ZESORT_DEPRECATED("zesort_create_on_devices with one index")
zesort_status zesort_create_on_device(zesort_backend backend, uint32_t index,
                                      zesort_context **out);

/** The most devices one context spans (zesort_create_on_devices). */
#define ZESORT_MAX_DEVICES 16

/** A context over several devices of one backend, for host sorts bigger
 *  than one device likes to take alone: zesort_sort, _timed, _copy and
 *  zesort_argsort split the keys by a radix partition on the top bits of
 *  the bit range (one histogram pass into a host copy, cut into one part
 *  per device of about n / count keys each; skewed keys split further on
 *  the next bits), sort the parts concurrently, one thread per device, and
 *  copy them to the caller's outputs in order once every part succeeded
 *  (docs/design.md §1.4). Stable, every key type, values, argsort,
 *  descending, bit ranges, as on one device. A sort of fewer than
 *  ZESORT_MULTI_MIN_KEYS keys per device runs on the first device alone.
 *  zesort_sort_segments needs no partition: its segments (from
 *  ZESORT_MULTI_MIN_KEYS keys in them per device) are cut into runs of
 *  whole consecutive segments of about one device's share of their keys,
 *  dealt to the devices (the biggest runs first, each to the device with
 *  the fewest keys so far) and sorted in place concurrently, each device
 *  as one device sorts them; a segment longer than a device's share is
 *  sorted afterwards by the group, as a zesort_sort of its own (split over
 *  the devices from ZESORT_MULTI_MIN_KEYS keys per device). zesort_last_sort_report says how the
 *  time split; zesort_sort_timed's device_ms is the devices' times added.
 *  Calls on the context hold its lock as on one device: the devices' threads
 *  are the library's own, for the length of one call.
 *  indices: `count` distinct indices of zesort_device_name(backend, ...)'s
 *  list, the first being the device zesort_context_device(_index) and
 *  zesort_context_flavor describe; count 0 (indices NULL): "all", every
 *  root device of the backend of the kind zesort_create would pick (its
 *  GPUs when it has any, else every device), sub-devices left out -- the
 *  tiles of one multi-tile card are named by their indices instead (a root
 *  device and its own sub-devices in one list are refused: they share
 *  their engines). Every device must run the same kernel flavor
 *  (zesort_context_flavor): a sort's plan is made once for all its parts.
 *  count 1 is zesort_create_on_device. The context owns one device
 *  context per device (ZESORT_CPU has one device: count 1, or 0).
 *  Errors: INVALID_ARGUMENT (out NULL, backend AUTO or unknown, count >
 *  ZESORT_MAX_DEVICES, indices NULL with count > 0, an index twice, a root
 *  device with its sub-device, devices of different flavors), NO_DEVICE
 *  (an index beyond the list; "all" of a backend without devices),
 *  OUT_OF_HOST_MEMORY, BACKEND (as zesort_create_on_device, the message
 *  naming the device). */
zesort_status zesort_create_on_devices(zesort_backend backend, const uint32_t *indices,
                                       uint32_t count, zesort_context **out);

/** A sort on a context over several devices runs on the first device alone
 *  below this many keys per device (the partition and the threads would
 *  cost more than they save). */
#define ZESORT_MULTI_MIN_KEYS UINT64_C(4096)

/** The number of devices ctx sorts on (1 but for zesort_create_on_devices;
 *  0 for ctx NULL), and their indices in zesort_device_name's list, the
 *  first `max` of them written to indices (may be NULL with max 0). */
ZESORT_DEPRECATED("zesort_context_query")
uint32_t zesort_context_devices(const zesort_context *ctx, uint32_t *indices, uint32_t max);

/** How the last successful host sort on ctx ran and where its time went
 *  (wall milliseconds, measured on the host). A segmented sort's parts are
 *  its runs of segments (zesort_create_on_devices), then the parts of the
 *  sorts of its segments longer than a device's share; on one device (or
 *  the C fallback) it is one part of all its segments' keys. */
typedef struct zesort_sort_report {
    uint32_t devices;    /* devices that took part (1: one device, not split) */
    uint64_t parts;      /* parts sorted: 1 when the sort ran in one go */
    double partition_ms; /* the top-bits histogram and scatter into the host copy
                            (0 when not split; a segmented sort: cutting its runs) */
    double sort_ms;      /* from the first part's start to the last one's end */
    double gather_ms;    /* the host copy to the caller's outputs (0 when not split) */
    double total_ms;     /* the whole call */
    uint64_t device_parts[ZESORT_MAX_DEVICES]; /* per device, in the order of
                                                  zesort_context_devices: parts, */
    uint64_t device_keys[ZESORT_MAX_DEVICES];  /* keys, */
    double device_ms[ZESORT_MAX_DEVICES];      /* and the time its sorts took (upload,
                                                  sort, download: its thread's wall time) */
} zesort_sort_report;

/** Fills *report for the last successful zesort_sort, _timed, _copy,
 *  zesort_argsort or zesort_sort_segments on ctx (by any thread; zeroed
 *  before any, and after one of n = 0). A failed sort leaves the report of
 *  the last successful one: its message names the failed device.
 *  Errors: INVALID_ARGUMENT (ctx or report NULL). */
zesort_status zesort_last_sort_report(const zesort_context *ctx, zesort_sort_report *report);

/** Releases the context and every device object it owns, the buffers it
 *  keeps between sorts included. NULL is a no-op.
 *  Kept buffers: a context on a device (Level Zero, OpenCL) keeps the device
 *  buffers of its last host sort (zesort_sort, _timed, _copy, zesort_argsort,
 *  zesort_sort_segments) and the host memory its results pass through (none
 *  on an OpenCL device that shares the host's memory, a CPU device or an
 *  integrated GPU, for results of 1 MiB and more: they are mapped, one copy
 *  to your arrays), and
 *  the next such sort runs on them wherever they are big enough instead of
 *  allocating afresh: a fresh buffer costs an allocation and, on CPU devices
 *  (PoCL), a page fault per page the sort touches. Bounded: they are kept
 *  only while they total at most 1 GiB and at most a quarter of the
 *  device's memory (a sort of 16M u32 keys keeps about 200 MB: its keys,
 *  their ping-pong buffer and the staging of the results); a failed sort
 *  releases them all, and so does an allocation that finds the device out
 *  of memory, before it is tried once more. zesort_destroy frees them. */
void zesort_destroy(zesort_context *ctx);

/** Sorts n keys held in host memory, in place: `keys` points to n elements of
 *  opts->key_type (uint32_t, int32_t, float, uint64_t, int64_t, double, or
 *  the narrow uint8_t, int8_t, uint16_t, int16_t, binary16, bfloat16).
 *  `values` is NULL (keys only) or an array of n values of opts->value_type
 *  (uint32_t by default, or any 8-byte type with ZESORT_VALUE_U64) moved
 *  along with the keys. Every sort is stable, descending included (equal
 *  keys keep their input order). opts may be NULL (defaults). On error both
 *  arrays are unchanged.
 *  The arrays, as for the interop APIs and on every backend: keys aligned to
 *  the key size (1, 2, 4 or 8 bytes), values to the value size, and keys (n * key
 *  size bytes) and values (n * value size bytes) sharing no byte; otherwise
 *  INVALID_ARGUMENT, arrays untouched. (Misaligned keys are refused rather
 *  than copied: an aligned array costs the caller nothing, a hidden copy of
 *  a large array costs its size in memory.)
 *  Errors: INVALID_ARGUMENT (also: misaligned or overlapping arrays, a bad
 *  value_type), UNSUPPORTED, TOO_LARGE, OUT_OF_HOST_MEMORY,
 *  OUT_OF_DEVICE_MEMORY, BACKEND. */
ZESORT_DEPRECATED("zesort_run (ZESORT_SORT)")
zesort_status zesort_sort(zesort_context *ctx, void *keys, void *values, uint64_t n,
                          const zesort_options *opts);

/** Out of place: sorts the n keys of keys_in (and the values of values_in,
 *  NULL for keys only) into keys_out (and values_out, given exactly when
 *  values_in is), as zesort_sort would sort them in place. keys_in and
 *  values_in are only read, never written. The four arrays must be aligned
 *  as zesort_sort's and share no byte (INVALID_ARGUMENT otherwise, nothing
 *  written): keys_out == keys_in (or values_out == values_in) is such an
 *  overlap too; in place is zesort_sort's. It needs no more memory than
 *  zesort_sort: the device sorts from the uploaded input into its own
 *  buffers either way (the C fallback: the output arrays serve as its sort's
 *  arrays). On error the inputs are unchanged and the outputs' contents are
 *  unspecified.
 *  Errors: as zesort_sort. */
ZESORT_DEPRECATED("zesort_run (ZESORT_SORT_COPY)")
zesort_status zesort_sort_copy(zesort_context *ctx, const void *keys_in, const void *values_in,
                               void *keys_out, void *values_out, uint64_t n,
                               const zesort_options *opts);

/** Argsort: writes the stable sorting permutation of the n keys at keys to
 *  indices: indices[i] is the input position of the i-th key in sorted
 *  order (opts' order and bit range), equal keys in input order -- numpy's
 *  argsort(kind='stable'), torch.argsort(stable=True). indices are of
 *  opts->value_type (uint32_t by default, uint64_t with ZESORT_VALUE_U64);
 *  they are made by the sort's first pass on the device, never uploaded.
 *  uint32_t indices number at most 2^32 keys: beyond, INVALID_ARGUMENT
 *  (naming the u64 index type) before any array is read.
 *  keys_out: NULL, or an array of n keys that receives the sorted keys. keys
 *  is only read. Alignment and overlap as for zesort_sort_copy (keys_out ==
 *  keys is refused); device memory as zesort_check(ctx, n, 1, opts) gives.
 *  On error keys is unchanged and the outputs' contents are unspecified.
 *  Errors: as zesort_sort (INVALID_ARGUMENT also for indices NULL with n > 0). */
ZESORT_DEPRECATED("zesort_run (ZESORT_ARGSORT)")
zesort_status zesort_argsort(zesort_context *ctx, const void *keys, void *indices, void *keys_out,
                             uint64_t n, const zesort_options *opts);

/** Segmented sort: sorts each of the num_segments segments [offsets[i],
 *  offsets[i + 1]) of keys (and values, NULL for keys only) independently, in
 *  place, as zesort_sort sorts a whole array: stable, opts' key type, order,
 *  bit range and value type. Keys (and values) outside [offsets[0],
 *  offsets[num_segments]) are not touched; empty segments are allowed.
 *  offsets: num_segments + 1 host integers, only read, with offsets[0] <=
 *  offsets[1] <= ... <= offsets[num_segments] <= n; otherwise (and for
 *  offsets NULL) INVALID_ARGUMENT before anything is written. Arrays as for
 *  zesort_sort. zesort_check(ctx, n, 1, opts) bounds what it needs, plus 8
 *  bytes of device memory per non-empty segment.
 *  How: the C fallback sorts the segments in parallel (a thread per block of
 *  small segments, the whole team on each large one; one longer than its
 *  sort takes at once, 2^32 - 1 keys with values or a bit range, as a sort
 *  of its own, split like zesort_sort's). A device backend runs the
 *  interop's segmented sort, which classifies the segments on the device:
 *  one work-group sorts each segment of up to 65536 keys (16384 on GPUs)
 *  within its own keys, longer ones go through onesweep passes over their
 *  own tiles (whatever opts' algorithm; zesort_last_algo then says
 *  ZESORT_ALGO_ONESWEEP). The non-empty segments' offsets, 8 bytes each, go
 *  to the device too; when the keys do not fit the device at once, runs of
 *  segments that do, a plan each, and a segment too long for the device
 *  alone as a sort of its own.
 *  A context over several devices (zesort_create_on_devices) deals runs of
 *  whole segments to its devices, each sorting its runs so, concurrently,
 *  from ZESORT_MULTI_MIN_KEYS keys in the segments per device (below, the
 *  first device sorts them all). zesort_last_sort_report says on which
 *  devices and in how many runs.
 *  On error the arrays are unchanged, except after OUT_OF_HOST_MEMORY on the
 *  cpu backend, a device failure after its first launch or sort (runs, or
 *  segments one by one), or any failure on several devices (whose other
 *  devices may have sorted their runs): then each segment is either sorted
 *  or as it was, and on several devices the message names the device that
 *  failed ("device 2 of 2 (...): ...").
 *  Errors: as zesort_sort. */
ZESORT_DEPRECATED("zesort_run (ZESORT_SEGMENTED)")
zesort_status zesort_sort_segments(zesort_context *ctx, void *keys, void *values, uint64_t n,
                                   const uint64_t *offsets, uint64_t num_segments,
                                   const zesort_options *opts);

/** Top-k: the k smallest keys of the n at keys (the k largest with
 *  opts->descending), sorted, equal keys in input order (stable), by opts'
 *  key type, order and bit range (keys whose bits [bit_lo, bit_hi) of the
 *  ordered key are equal are ties): the first min(k, n) keys of the stable
 *  sort of keys, without sorting them all. k = 0 (or n = 0) writes nothing;
 *  k >= n is a stable sort of every key.
 *  Outputs, each NULL or an array of min(k, n) elements:
 *  keys_out the keys; values_out (given exactly when values_in, n values of
 *  opts->value_type, is) the values of those keys; indices_out their input
 *  positions, of opts->value_type (uint32_t by default: n above 2^32 then is
 *  INVALID_ARGUMENT, naming the u64 type). At least one output is given when
 *  k and n are not 0. keys and values_in are only read.
 *  Arrays aligned to their element size, no byte shared by two of them, as
 *  for zesort_sort_copy; otherwise INVALID_ARGUMENT, nothing written.
 *  How: the C fallback selects on the host (a radix select, most significant
 *  digit first, narrowing to the k-th key, then the candidates compacted in
 *  input order) and sorts only the min(k, n) candidates (for k above n / 4
 *  it sorts every key: measured faster there); a device backend
 *  (Level Zero, OpenCL) runs the radix select on the device and sorts only
 *  its candidates there (k within max(n / 32, 4096) of n: every key), and
 *  only the k results come back; zesort_topk_segments on a device, and a
 *  top-k bigger than the device, sort every key of each segment with its
 *  input position and take the first k.
 *  Memory: the C fallback min(k, n) keys and, with values or indices, as many
 *  8-byte positions; a device backend's select the input, the candidates
 *  (at most n) and their sort's buffers on the device (the other device
 *  path: n keys and n 8-byte positions on the host and a sort of n pairs).
 *  On error keys and values_in are unchanged; the outputs' contents are
 *  unspecified. zesort_last_algo says what the candidates' sort ran.
 *  Errors: as zesort_sort. */
ZESORT_DEPRECATED("zesort_run (ZESORT_TOPK)")
zesort_status zesort_topk(zesort_context *ctx, const void *keys, const void *values_in,
                          void *keys_out, void *values_out, void *indices_out, uint64_t n,
                          uint64_t k, const zesort_options *opts);

/** Segmented (batched) top-k: zesort_topk of each of the num_segments
 *  segments [offsets[i], offsets[i + 1]) of keys (offsets as for
 *  zesort_sort_segments: num_segments + 1 non-decreasing host integers,
 *  offsets[num_segments] <= n; empty segments allowed), for the top k of
 *  every row of a batch.
 *  Outputs (each NULL or an array of num_segments * k elements): segment i's
 *  results in row i, elements [i * k, i * k + min(k, len_i)) with len_i =
 *  offsets[i + 1] - offsets[i]; a segment shorter than k leaves the rest of
 *  its row, [i * k + len_i, (i + 1) * k), untouched (the caller's fill
 *  stays: pre-fill the outputs with a sentinel to tell them apart, or count
 *  min(k, len_i) from the offsets). indices_out holds positions within the
 *  segment (0 .. len_i - 1; add offsets[i] for the position in keys), so
 *  uint32_t indices serve any n whose segments are shorter than 2^32.
 *  num_segments * k elements must fit the address space (TOO_LARGE).
 *  How: as zesort_topk, per segment (the C fallback selects in each segment
 *  longer than k, then sorts every segment's candidates in one segmented
 *  sort; a device backend sorts every segment whole with zesort_sort_segments'
 *  machinery and takes the first k of each).
 *  On error keys and values_in are unchanged; the outputs' contents are
 *  unspecified. Errors: as zesort_topk. */
ZESORT_DEPRECATED("zesort_run (ZESORT_TOPK with offsets)")
zesort_status zesort_topk_segments(zesort_context *ctx, const void *keys, const void *values_in,
                                   void *keys_out, void *values_out, void *indices_out,
                                   uint64_t n, const uint64_t *offsets, uint64_t num_segments,
                                   uint64_t k, const zesort_options *opts);

/** Checks, without allocating or sorting anything, whether a sort of n keys
 *  (with values of opts->value_type when with_values is not 0; an argsort
 *  or an out-of-place sort needs what the same in-place sort needs) with
 *  opts can run on ctx: the options and n as zesort_sort checks them, and
 *  whether the host's memory holds what the sort needs there: the arrays
 *  (keys and values, in place), the split's copy of them when the sort is
 *  split, and on the cpu backend the scratch of its radix passes (zesort_sort
 *  refuses such a sort the same way, before reading anything). A sort bigger
 *  than the device takes in one go (its memory, its largest allocation,
 *  ZESORT_MAX_KEYS; the C fallback: 2^32 - 1 keys, or any n for keys-only
 *  sorts by all bits where vqsort is available) is OK: zesort_sort splits it
 *  on the host into parts that fit, and zesort_check_split says into how
 *  many. *device_bytes (when not NULL)
 *  receives the device memory the sort (or one part of it) allocates: keys,
 *  values and every temporary buffer; 0 on the cpu backend. Meant for a
 *  program that would otherwise prepare gigabytes of keys before learning
 *  what will happen. Memory other programs use is not known: OK does not
 *  promise that the allocations will succeed.
 *  Errors: INVALID_ARGUMENT, UNSUPPORTED (as zesort_sort), OUT_OF_HOST_MEMORY
 *  (the arrays, the split's copy and the scratch would not fit the host's
 *  memory; the message gives each), OUT_OF_DEVICE_MEMORY (the device cannot
 *  hold a sort of one key). */
ZESORT_DEPRECATED("zesort_check_split")
zesort_status zesort_check(zesort_context *ctx, uint64_t n, int with_values,
                           const zesort_options *opts, uint64_t *device_bytes);

/** How a host sort will run (zesort_check_split). */
typedef struct zesort_split_info {
    uint64_t parts;        /* 1: in one go on the device (or the C fallback); more:
                              split on the host into about this many parts (skewed
                              keys may take more) */
    uint64_t part_keys;    /* the most keys of one part (n when parts is 1); on
                              several devices their balanced share, n / parts */
    uint64_t device_bytes; /* device memory one part allocates (0 on the cpu backend) */
    uint64_t host_bytes;   /* host memory the split allocates: a copy of the keys and
                              values (0 when parts is 1) */
    uint32_t devices;      /* devices the sort will run on at once (a context of
                              zesort_create_on_devices: its devices, or 1 below
                              ZESORT_MULTI_MIN_KEYS keys per device); the parts are
                              then balanced over them, a multiple of devices */
} zesort_split_info;

/** zesort_check, telling how the sort will run: *info (may be NULL) is
 *  filled on OK (zeroed otherwise). Errors: as zesort_check. */
zesort_status zesort_check_split(zesort_context *ctx, uint64_t n, int with_values,
                                 const zesort_options *opts, zesort_split_info *info);

/** Like zesort_sort, and also reports the device time of the whole sort
 *  (every pass, scan and transform; no host<->device copies) in *device_ms.
 *  For the host scan mode the host scan time is included. */
ZESORT_DEPRECATED("zesort_run with device_ms")
zesort_status zesort_sort_timed(zesort_context *ctx, void *keys, void *values, uint64_t n,
                                const zesort_options *opts, double *device_ms);

/** The algorithm the last successful sort (zesort_sort, _timed, _copy,
 *  zesort_argsort, zesort_sort_segments) on ctx (by any thread) ran: what
 *  ZESORT_ALGO_AUTO resolved to (by device flavor and n), or the algorithm
 *  asked for. ZESORT_ALGO_AUTO before any successful sort, and for ctx
 *  NULL. (The cpu backend runs its own radix sort; it reports the
 *  algorithm the request resolved to. A segmented sort's short segments
 *  run seg_sort_ranges, no algorithm of these: it reports
 *  ZESORT_ALGO_ONESWEEP when a segment took the global passes, what its
 *  last segment sorted on its own ran (one too long for the device), else
 *  what the request resolved to for n.) */
ZESORT_DEPRECATED("zesort_context_query")
zesort_algo zesort_last_algo(const zesort_context *ctx);

/** What a context is and did: its backend, device, flavor, devices, and
 *  the algorithm of its last successful sort (zesort_context_query). */
typedef struct zesort_context_info {
    uint32_t size;              /* sizeof(zesort_context_info), set by the caller */
    zesort_backend backend;     /* never AUTO */
    const char *device;         /* a description of its device, owned by ctx */
    uint32_t device_index;      /* in the device list of `backend` (zesort_device_name) */
    const char *flavor;         /* the kernels it runs: "sg", "portable", "serial" or
                                   "none" (the C fallback); a static string */
    uint32_t devices;           /* 1, or the devices of zesort_create_on_devices */
    uint32_t device_indices[ZESORT_MAX_DEVICES]; /* their indices, its own first */
    zesort_algo last_algo;      /* of its last successful sort; AUTO before one */
    uint64_t last_launches;     /* the kernel launches of that sort, on all its
                                   devices (0: none, or the C fallback) */
    uint64_t small_max;         /* the most keys ZESORT_ALGO_SMALL sorts in one launch
                                   on its device: 32-bit or narrower keys alone, */
    uint64_t small_max_wide;    /* and 64-bit keys or keys with values (0: the C
                                   fallback, which launches nothing) */
    uint64_t reserved[1];
} zesort_context_info;

/** Fills *info for ctx; info->size says how much of the struct the caller
 *  has (an older, smaller one is filled as far as it goes).
 *  Errors (no message: ctx is not changed): INVALID_ARGUMENT (ctx or info
 *  NULL, info->size smaller than the fields up to last_algo). */
zesort_status zesort_context_query(const zesort_context *ctx, zesort_context_info *info);

/** The message of the calling thread's last call on ctx ("" after a
 *  success), so that a thread checking its own failure reads its own message
 *  whatever other threads do with ctx. If the thread's last call with a
 *  context was on another one (or it never called on ctx), the message of the
 *  last call on ctx by any thread. For ctx NULL: the last failed
 *  zesort_create (or call with ctx NULL) on this thread. Never NULL; owned by
 *  the library, per thread, valid until this thread's next zesort call. */
const char *zesort_last_error(const zesort_context *ctx);

/** Static name of a status, e.g. "ZESORT_ERROR_NO_DEVICE". */
const char *zesort_status_name(zesort_status status);

/** Backend actually in use by ctx (never AUTO) and a device description
 *  ("PoCL: pthread-skylake-avx512-...") owned by ctx. */
ZESORT_DEPRECATED("zesort_context_query")
zesort_backend zesort_context_backend(const zesort_context *ctx);
ZESORT_DEPRECATED("zesort_context_query")
const char *zesort_context_device(const zesort_context *ctx);

/** Index of ctx's device in the device list of zesort_context_backend(ctx)
 *  (see zesort_device_name), whether chosen by zesort_create_on_device or by
 *  zesort_create; 0 for the cpu backend and for ctx NULL. */
ZESORT_DEPRECATED("zesort_context_query")
uint32_t zesort_context_device_index(const zesort_context *ctx);

/** Kernel flavor ctx's device runs, a static string: "sg" (Intel sub-groups),
 *  "portable" (sub-groups emulated in local memory), "serial" (one work-item
 *  ranks a whole chunk or tile; CPU OpenCL devices such as PoCL), or "none"
 *  (the cpu backend runs no kernels); "" when ctx is NULL. The environment
 *  variable ZESORT_FLAVOR=sg|portable|serial ("cpu" is accepted as an old name
 *  of serial), read when an OpenCL context is
 *  created, overrides the OpenCL backend's choice (zesort_create then fails
 *  with ZESORT_ERROR_INVALID_ARGUMENT for another value, or for sg on a device
 *  without Intel sub-groups). The flavor also steers ZESORT_ALGO_AUTO. */
ZESORT_DEPRECATED("zesort_context_query")
const char *zesort_context_flavor(const zesort_context *ctx);

/** Names for printing / parsing: "auto", "level-zero", "opencl", "cpu";
 *  "auto", "cm2", "cm4", "onesweep". Parsers return 0 on success, -1 if unknown. */
const char *zesort_backend_name(zesort_backend backend);
const char *zesort_algo_name(zesort_algo algo);
ZESORT_DEPRECATED("zesort_backend_name over the backends")
int zesort_parse_backend(const char *name, zesort_backend *out);
ZESORT_DEPRECATED("zesort_algo_name over the algorithms")
int zesort_parse_algo(const char *name, zesort_algo *out);

/** The library's version, "MAJOR.MINOR.PATCH" (static string). It equals
 *  ZESORT_VERSION_STRING of the headers the library was built with; a program
 *  can compare the two to detect headers and library from different versions. */
const char *zesort_version(void);

/** Build facts: comma separated Intel targets with an embedded native binary,
 *  and the embedded SPIR-V flavors ("sg,portable"). Static strings. */
const char *zesort_aot_targets(void);
const char *zesort_spirv_flavors(void);

#ifdef __cplusplus
}
#endif
#endif /* ZESORT_H */
