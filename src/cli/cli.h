/*
 * cli.h — internal interface between the files of the `zesort` command-line
 * tool. Each .c file does one job (argument parsing, file I/O, one command);
 * this header is what they share (bench.h and output_internal.h: what the
 * files of bench and of the outputs share among themselves). The CLI uses
 * only the public API zesort.h.
 *
 * Exit status contract (docs/design.md §5.2): 0 success, 2 usage error, 1 any
 * other error. Every error is exactly one line on stderr starting "zesort: ".
 */
#ifndef ZESORT_CLI_H
#define ZESORT_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "zesort.h"

/* ---- exit codes ---------------------------------------------------------- */
enum {
    CLI_EXIT_OK = 0,
    CLI_EXIT_FAILURE = 1, /* I/O, device, library failure, bad file contents */
    CLI_EXIT_USAGE = 2    /* unknown flag/value, missing operand, bad combination,
                             or a valid request the library does not support yet */
};

/* ---- device_choice.c ------------------------------------------------------- */

/* zesort_create, or zesort_create_on_device when `device` (--device) is
 * not -1. */
zesort_status cli_create(zesort_backend backend, int64_t device, zesort_context **out);

/* cli_create for `demo` and `bench`: for AUTO, an OpenCL device (a CPU
 * one included) rather than the C fallback, so that the kernels are what is
 * measured; other backends as cli_create. */
zesort_status cli_create_for_kernels(zesort_backend backend, int64_t device, zesort_context **out);

struct cli_args;
/* The value of --device: a decimal index (0..2^32-1) into *device, or a usage
 * error (reported, exit code returned). */
int cli_parse_device(struct cli_args *a, const char *cmd, int64_t *device);

/* Once all flags are read: a usage error (reported, exit code returned) for
 * --device (device >= 0) with --backend auto, else 0. */
int cli_check_device_backend(const char *cmd, zesort_backend backend, int64_t device);

/* --devices all|I,J,...: several devices of one backend for one sort
 * (zesort_create_on_devices). given 0: the flag was not given. */
typedef struct cli_devices {
    int given;
    uint32_t count; /* 0: all */
    uint32_t index[ZESORT_MAX_DEVICES];
} cli_devices;

/* The value of --devices into *d, or a usage error (reported, exit code
 * returned): "all", or distinct decimal indices separated by commas. */
int cli_parse_devices(struct cli_args *a, const char *cmd, cli_devices *d);

/* Once all flags are read: a usage error for --devices with --backend auto
 * or with --device, else 0. */
int cli_check_devices(const char *cmd, zesort_backend backend, int64_t device,
                      const cli_devices *d);

/* cli_create, or zesort_create_on_devices when --devices was given. */
zesort_status cli_create_devices(zesort_backend backend, int64_t device, const cli_devices *d,
                                 zesort_context **out);

/* After a sort on several devices: one line on stderr with how its time
 * split (zesort_last_sort_report): partition, each device's sort, gather. */
void cli_print_sort_report(zesort_context *ctx);

/* ---- desc_of.c: options to a descriptor ---------------------------------- */

/* The descriptor of a `kind` sort with opts (NULL: the defaults): key type,
 * algorithm, scan, order and bit range; values of opts->value_type's width
 * when with_values (else keys only), and indices of that width. The caller
 * sets the buffers, n and the kind's own fields, and runs it (zesort_run). */
zesort_desc cli_desc(zesort_kind kind, const zesort_options *opts, int with_values);

/* ---- report.c: the one-line error messages -------------------------------- */

/* Prints "zesort: <message>" as one line on stderr (newlines in the message
 * are replaced so the line stays one line) and returns CLI_EXIT_FAILURE. */
int cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Same, for usage errors: adds a pointer to `zesort CMD --help` and returns
 * CLI_EXIT_USAGE. `cmd` may be NULL for the top level. */
int cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Reports a failed library call `what` (e.g. "sort") and returns the exit code:
 * ZESORT_ERROR_UNSUPPORTED -> "not supported yet", CLI_EXIT_USAGE (the request
 * is well formed but this library version cannot do it); anything else ->
 * CLI_EXIT_FAILURE. `ctx` may be NULL (failed zesort_create). A driver's
 * failure (NO_DEVICE, BACKEND) while few files can be opened or little
 * address space is left names that limit (ulimit -n / -v) instead. */
int cli_fail_status(const char *what, zesort_status status, const zesort_context *ctx);

/* What to do about a backend that has no device: for Level Zero with no
 * device at all, the Debian package of the GPU driver when no driver is
 * installed, else that no Intel GPU was found; NULL otherwise. */
const char *cli_backend_hint(zesort_backend backend, zesort_status status);

/* cli_fail_status for a failed zesort_create* on `backend` (NULL context),
 * with cli_backend_hint's advice added. */
int cli_fail_setup(zesort_backend backend, zesort_status status);

/* ---- args.c: tokenizer and value parsers ---------------------------------- */

/* Walks the arguments of one command. Accepts "--flag value", "--flag=value",
 * operands anywhere, and "--" to end options. */
typedef struct cli_args {
    int argc;
    char **argv;
    int pos;              /* next argv index to look at */
    int options_done;     /* "--" seen: everything else is an operand */
    const char *inline_value; /* value after '=' in the current flag, or NULL */
    char flag[64];        /* current flag name without "=value" */
} cli_args;

enum { CLI_ARG_END = 0, CLI_ARG_FLAG = 1, CLI_ARG_OPERAND = 2 };

void cli_args_init(cli_args *a, int argc, char **argv);

/* Next token: CLI_ARG_FLAG (name in a->flag), CLI_ARG_OPERAND (*operand set),
 * or CLI_ARG_END. */
int cli_args_next(cli_args *a, const char **operand);

/* The value of the current flag (inline "=value" or the next argument).
 * Returns 0, or a usage error exit code (already reported) when missing. */
int cli_args_value(cli_args *a, const char *cmd, const char **value);

/* A flag that takes no value must not be given one ("--descending=1"). */
int cli_args_no_value(cli_args *a, const char *cmd);

/* Usage errors of file operands and options: an empty name ("" would be
 * reported as a failed rename), and a file option given twice (the first
 * name would be dropped silently). Return 0 or the exit code (reported). */
int cli_args_path(const char *cmd, const char *what, const char *path);
int cli_args_once(const char *cmd, const char *flag, const char *previous);

/* 1 when argv[0..argc) asks for help (--help or -h before a "--"). */
int cli_wants_help(int argc, char **argv);

/* Value parsers: return 0 on success, -1 when the text is not valid. */
int cli_parse_key_type(const char *text, zesort_key_type *out);
/* "u32" or "u64": values moved with the keys, argsort's indices */
int cli_parse_value_type(const char *text, zesort_value_type *out);
int cli_parse_scan(const char *text, zesort_scan *out);
/* A backend or algorithm by its name (zesort_backend_name, zesort_algo_name). */
int cli_parse_backend(const char *text, zesort_backend *out);
int cli_parse_algo(const char *text, zesort_algo *out);
/* What ctx is and did (zesort_context_query); zeroed but for size when ctx is NULL. */
zesort_context_info cli_context_info(const zesort_context *ctx);
/* "LO:HI" with 0 <= LO < HI <= key_bits, decimal digits only. */
int cli_parse_bits(const char *text, unsigned key_bits, unsigned *lo, unsigned *hi);
/* A count: decimal digits with an optional binary suffix k, m, g (1k = 1024). */
int cli_parse_count(const char *text, uint64_t *out);

/* Splits a comma separated list into at most `max` pieces (copied into
 * `storage`, which must hold strlen(text)+1 bytes). Returns the number of
 * pieces, -1 for an empty piece, or -2 for more than `max` pieces. */
int cli_split_list(const char *text, char *storage, const char **pieces, int max);

/* ---- names ---------------------------------------------------------------- */
const char *cli_key_type_name(zesort_key_type type);
const char *cli_value_type_name(zesort_value_type type);
const char *cli_scan_name(zesort_scan scan);
/* Bytes per value (4 or 8). */
size_t cli_value_size(zesort_value_type type);

/* ---- keys.c: key arrays of any type --------------------------------------- */

/* Bytes per key (4 or 8) and bits per key (32 or 64). */
size_t cli_key_size(zesort_key_type type);
unsigned cli_key_bits(zesort_key_type type);

/* Fills `keys` (n keys of `type`) with uniform random bit patterns from a
 * fixed seed, so benchmark runs are repeatable. */
void cli_random_keys(void *keys, uint64_t n, zesort_key_type type, uint64_t seed);

/* Maps the key at index i to an unsigned value whose natural order is the
 * sort order of the type (signed: flip the sign bit; floats: IEEE-754
 * totalOrder, negative floats have every bit flipped). */
uint64_t cli_key_order(const void *keys, uint64_t i, zesort_key_type type);

/* Index of the first position where keys are out of order (ascending, or
 * descending when `descending`), or n when sorted. */
uint64_t cli_first_unsorted(const void *keys, uint64_t n, zesort_key_type type, int descending);

/* Sorts a copy on the host (qsort by full key order, ascending); the reference
 * that a device result must equal bit for bit. */
void cli_reference_sort(void *keys, uint64_t n, zesort_key_type type);

/* The bits [lo, hi) of key i's order (cli_key_order): what a sort with
 * bit_lo = lo, bit_hi = hi compares. hi 0 means the key's width. */
uint64_t cli_key_field(const void *keys, uint64_t i, zesort_key_type type, unsigned lo,
                       unsigned hi);

/* The result a stable sort by bits [lo, hi) (hi 0: all), ascending or
 * descending, must give, sorted in place on the host. Returns 0, or -1 when
 * out of host memory (a bit range needs a copy of the keys). */
int cli_reference_sort_stable(void *keys, uint64_t n, zesort_key_type type, unsigned lo,
                              unsigned hi, int descending);

/* The inputs bench and mpi-bench make: uniform random keys, or shaped ones
 * that a radix sort meets in practice. The order is mpi-bench's --input. */
typedef enum cli_input_kind {
    CLI_INPUT_RANDOM,   /* uniform random bit patterns */
    CLI_INPUT_FEW,      /* 5 distinct values, 0..4 */
    CLI_INPUT_EQUAL,    /* every key the same */
    CLI_INPUT_SORTED,   /* key g is 3 g: already in order */
    CLI_INPUT_REVERSED, /* key g is 3 (n - g): in reverse order */
    CLI_INPUT_TOP_BITS, /* only the two highest bits random, the rest 0 */
    CLI_INPUT_KINDS
} cli_input_kind;

const char *cli_input_kind_name(cli_input_kind kind);
/* 0 and *out set, or -1 when text names no kind. */
int cli_parse_input_kind(const char *text, cli_input_kind *out);

/* Keys first .. first + count - 1 of an input of n keys of `kind` into
 * `keys` (count keys of `type`): random bits from `seed` (as
 * cli_random_keys), then shaped by the kind from each key's global index
 * (sorted, reversed) or its random bits (few, top-bits). A rank of a
 * distributed run makes its slice with its own first and seed. */
void cli_make_keys(void *keys, uint64_t first, uint64_t count, uint64_t n, zesort_key_type type,
                   cli_input_kind kind, uint64_t seed);

/* An order-independent checksum of the multiset of keys, for inputs too big
 * for a reference copy: equal multisets give equal sums. */
uint64_t cli_multiset_hash(const void *keys, uint64_t n, zesort_key_type type);

/* ---- verify.c: checking a device result --------------------------------- */

/* What a sort's result is checked against. */
typedef struct cli_expected {
    const void *input;     /* the keys before sorting (n keys) */
    const void *reference; /* the same keys sorted on the host, or NULL */
    uint64_t input_hash;   /* cli_multiset_hash(input), used without reference */
    zesort_key_type type;
    int descending;
    unsigned bit_lo, bit_hi; /* the bits sorted by; bit_hi 0: all */
} cli_expected;

/* Checks that `keys` (n keys) is the sorted input: in order (by the bits
 * sorted by), and bit-equal to the reference, which must be the stable
 * result (cli_reference_sort_stable), or, without one, the same multiset by
 * hash. With `values`
 * (value_bytes 4 or 8 each, sorted along, initially 0..n-1): each value
 * names the input position of its key, and equal keys keep input order
 * (stability). Returns 0, or -1 with a one-line reason in msg. */
int cli_verify_sort(const cli_expected *exp, const void *keys, const void *values,
                    unsigned value_bytes, uint64_t n, char *msg, size_t msg_cap);

/* ---- memory_budget.c ------------------------------------------------------- */

/* This machine's physical memory in bytes (0: unknown). */
uint64_t cli_host_memory_total(void);
/* The host memory this process can still use now: the least of MemAvailable,
 * its memory cgroup's room and its address-space limit's (ulimit -v). */
uint64_t cli_host_memory_available(void);
/* 0 when `bytes` of host data for n keys fit in this machine's memory, else
 * reports "WHAT n=N: its data takes X GiB of host memory, more than this
 * machine has (Y GiB)" and returns CLI_EXIT_FAILURE. */
int cli_check_host_memory(const char *what, uint64_t n, uint64_t bytes);
/* The same check, for callers that report otherwise (mpi-bench, whose
 * ranks agree first): 1 with that message in msg when bytes do not fit,
 * else 0. */
int cli_host_memory_excess(const char *what, uint64_t n, uint64_t bytes, char *msg, size_t cap);

/* ---- input.c: whole-input reads ------------------------------------------ */

/* 1 when path is "-": standard input as an input, standard output as an
 * output (sort(1)). cli_read_input and cli_output_open take it as such. */
int cli_is_std_stream(const char *path);

/* Reads the whole file `path` into a new buffer (*data, free() it; never NULL
 * on success, even for an empty file) of *size bytes. On failure reports the
 * error and returns CLI_EXIT_FAILURE. */
int cli_read_file(const char *path, void **data, size_t *size);

/* How much an input may hold, for inputs that can be endless or huge
 * (/dev/zero, a pipe, a sparse file): reading stops, and the input is
 * refused, as soon as check() refuses the bytes read so far. check() gets
 * the size of a regular file before it is read, and the bytes read so far
 * every time a stream's buffer must grow and at its end; it returns 0 or an
 * exit code after reporting why (it must refuse more than max_bytes, which
 * also caps the buffer). */
typedef struct cli_read_limit {
    uint64_t max_bytes;
    int (*check)(void *arg, const char *path, uint64_t bytes);
    void *arg;
} cli_read_limit;
/* cli_read_file under a limit (NULL: none). */
int cli_read_input(const char *path, const cli_read_limit *limit, void **data, size_t *size);

/* ---- output.c: safe writes ----------------------------------------------- */

/* An output being written (output.c says how): a regular file is written to
 * a temporary file in its directory (symlinks followed) and renamed over it on
 * commit; until then an existing destination is untouched, and abort (or any
 * fatal signal) removes the temporary file. An existing non-regular file
 * (/dev/null, a FIFO, /dev/stdout) is written directly ("direct"). */
typedef struct cli_output {
    char *final_path; /* the file written or replaced (symlinks resolved) */
    char *shown_path; /* the path as given, for messages */
    char *temp_path;  /* the temporary file; direct: NULL, or the scratch file
                         of cli_output_open_for_name */
    int fd;
    int lock_fd;      /* holds a flock on the temporary file: a live run's */
    int direct;       /* 1: writing straight to the destination */
    int existed;      /* 1: replacing an existing regular file */
} cli_output;

/* Prepares the output (temporary file, or the direct destination opened).
 * Refuses (CLI_EXIT_FAILURE, reported) a directory and an existing file the
 * user could not open for writing. */
int cli_output_open(cli_output *out, const char *path);
/* Same, for a destination another program writes by name: write temp_path
 * (closed, fd -1), then commit. For a direct destination temp_path is a
 * scratch file in $TMPDIR that commit copies to the destination. */
int cli_output_open_for_name(cli_output *out, const char *path);
/* Appends bytes; returns 0 or CLI_EXIT_FAILURE (reported, output aborted). */
int cli_output_write(cli_output *out, const void *data, size_t size);
/* Flushes and closes the file, still not visible under the final name.
 * Returns 0 or CLI_EXIT_FAILURE (reported, temp file removed). */
int cli_output_close(cli_output *out);
/* Renames the closed temporary file over the destination. Returns 0 or
 * CLI_EXIT_FAILURE (reported, temp file removed). */
int cli_output_commit(cli_output *out);
/* Commits two closed outputs so that after any error (or fatal signal) both
 * old files are intact: both are checked to be replaceable first, and the
 * first is put back from a kept hard link (or copy) if the second rename
 * fails. Both are finished (committed or aborted) on return. */
int cli_output_commit_pair(cli_output *a, cli_output *b);
/* Removes the temporary file if it still exists. Safe to call twice. */
void cli_output_abort(cli_output *out);

/* Whole-buffer convenience: open + write + close + commit. */
int cli_write_file_atomic(const char *path, const void *data, size_t size);

/* ---- signals.c: fatal signals remove the temporary files ----------------- */

/* Installs the handlers that remove the temporary files on every catchable
 * fatal signal (then re-raise it). Called first thing in main, so that what
 * is there before (an inherited "ignore", a sanitizer's handler) is kept. */
void cli_signals_init(void);
/* Puts those handlers back after a backend has started: PoCL's LLVM installs
 * its own over them. Call after zesort_create. */
void cli_signals_reclaim(void);
/* Around a backend's start (cli_create does it): the catchable fatal
 * signals but the faults are blocked by hold, and release reclaims the
 * handlers (cli_signals_reclaim) before it unblocks them, so that a signal
 * sent in between is not lost to a driver's handler but ends the process
 * through ours. Calls nest; the outermost pair acts. */
void cli_signals_hold(void);
void cli_signals_release(void);

/* ---- output_path.c: where an output goes --------------------------------- */

/* 1 when path exists and is neither a regular file nor a directory. */
int cli_is_special_file(const char *path);

/* 1 when both paths name the same file: the same existing file (device and
 * inode), or the same name in the same directory once symlinks in the last
 * component are followed (a dangling link names its target). */
int cli_same_file(const char *a, const char *b);

/* ---- commands ------------------------------------------------------------- */
int cli_cmd_sort(int argc, char **argv);
int cli_cmd_argsort(int argc, char **argv);
int cli_cmd_bench(int argc, char **argv);
/* cmd_topk.c: zesort topk INPUT K OUTPUT [...] */
int cli_cmd_topk(int argc, char **argv);
/* cmd_sort.c: OFFSETS for --segments, S + 1 little-endian u64 (0 <= S <= n),
 * non-decreasing, each at most n, read within `room` bytes of host memory
 * into *offsets (malloc'd) and *s; errors reported (exit code returned). */
int cli_read_offsets(const char *path, uint64_t n, uint64_t room, uint64_t **offsets,
                     uint64_t *s);

int cli_cmd_info(int argc, char **argv);
int cli_cmd_demo(int argc, char **argv);
/* cmd_mpi.c: run zesort-mpi (built with MPI), or say this build has no MPI */
int cli_cmd_mpi_sort(int argc, char **argv);
int cli_cmd_mpi_bench(int argc, char **argv);

/* ---- bench_plot.c --------------------------------------------------------- */

/* One benchmark measurement, as printed, written to CSV and plotted. */
typedef struct cli_measurement {
    const char *algo;    /* as asked: cm2, cm4, onesweep, auto (or the peer's name) */
    const char *ran;     /* the algorithm that ran (zesort_last_algo): auto's choice */
    const char *scan;
    uint64_t n;
    double median_ms;
    double mkeys_per_s;
    const char *values;  /* what moved with the keys: "none", "u32", "u64", or
                            "u32+gather" (u32 indices sorted, u64 values gathered) */
    const char *backend; /* NULL: the run's backend and device; set for a peer */
    const char *device;  /* (bench --peer) that ran elsewhere */
    uint64_t launches;   /* kernel launches per sort (0: the C fallback or a peer) */
} cli_measurement;

/* 0 when a `gnuplot` executable is on PATH, else reports the error naming the
 * Debian package and returns CLI_EXIT_FAILURE. Checked before benchmarking. */
int cli_plot_check(void);

/* Draws Mkeys/s against n, one line per algo/scan, into the PNG `path`
 * (atomically). Returns 0 or CLI_EXIT_FAILURE (reported). */
int cli_plot_png(const char *path, const cli_measurement *m, size_t count, const char *title);

/* ---- help.c ----------------------------------------------------- */

/* Prints the help of `cmd` (NULL: the top-level help) to stdout. Returns 0,
 * or -1 if cmd is not a command. */
int cli_print_help(const char *cmd);

/* Monotonic wall clock in milliseconds (for progress/report, not for bench). */
double cli_now_ms(void);

/* ---- median.c: the median of timings -------------------------------------- */

/* The median of v[0..count) (count >= 1; v is sorted): the mean of the two
 * middle values when count is even. */
double cli_median(double *v, int count);
/* The same, but the higher of the two middle values when count is even. */
double cli_median_high(double *v, int count);

/* ---- bench_segments.c: zesort bench --segments ----------------------------- */

/* Exit 2 with a usage message unless text is LEN[,LEN...] (counts >= 1,
 * k/m/g suffixes) or ragged among them; 0 when it is. */
int cli_bench_segments_check(const char *text);
/* The segmented-sort benchmark: n random keys of type, each layout of
 * `lengths` timed segmented, against one unsegmented sort and a loop of
 * sorts per segment; prints a table. Returns the exit code. */
int cli_bench_segments(zesort_backend backend, int64_t device, zesort_key_type type,
                       zesort_algo algo, uint64_t n, int repeat, const char *lengths);

/* ---- bench_topk.c: zesort bench --topk K ---------------------------------- */

/* What bench --topk times: n keys of type (input kind, order, bits), on a
 * backend (device -1: its choice), top k against the full sort. */
typedef struct cli_bench_topk_request {
    zesort_backend backend;
    int64_t device;
    zesort_key_type type;
    cli_input_kind input;
    int descending;
    unsigned bit_lo, bit_hi;
    uint64_t n, k;
    int repeat;
} cli_bench_topk_request;

/* Times and verifies the top-k rows; prints a table. Returns the exit code. */
int cli_bench_topk(const cli_bench_topk_request *q);

#endif
