/*
 * bench.h — what the files of `zesort bench` share: cmd_bench.c (measuring),
 * bench_args.c (its arguments) and bench_report.c (table, ratios and CSV).
 */
#ifndef ZESORT_CLI_BENCH_H
#define ZESORT_CLI_BENCH_H

#include <stdio.h>

#include "cli.h"

enum { MAX_LIST = 32 };

typedef struct bench_request {
    uint64_t n[MAX_LIST];
    int n_count;
    zesort_algo algo[MAX_LIST];
    int algo_count;
    zesort_scan scan[2];
    int scan_count; /* 0: default (host+device for cm2/cm4, device otherwise) */
    zesort_key_type type;
    int pairs;
    int value_type_set; /* --value-type given */
    zesort_value_type value_type; /* of --pairs: u32 (default), u64 */
    zesort_backend backend;
    int64_t device; /* --device, -1: the backend's choice */
    int repeat;
    const char *csv_path;
    const char *plot_path;
    int peer_boost; /* --peer boost: also time boost::compute::sort */
    const char *segments; /* --segments LEN[,LEN...]|ragged: bench_segments.c instead */
    int n_given, algo_given;
    cli_input_kind input; /* --input: the keys sorted */
    int descending;       /* --descending */
    const char *bits_text; /* --bits LO:HI, parsed once --type is known */
    unsigned bit_lo, bit_hi;
    const char *topk_text; /* --topk K: bench_topk.c instead */
    uint64_t topk;
    /* Where the table and the ratios go: stdout, or stderr when --csv or
     * --plot writes to standard output ('-'), so that the file there stays
     * clean. */
    FILE *report;
} bench_request;

/* The name of the peer's rows (algo column) and the values of their scan
 * column, which says how the peer was timed. */
#define PEER_ALGO "boost-compute"
#define PEER_EVENTS "events"       /* OpenCL profiling events: device time */
#define PEER_HOSTCLOCK "hostclock" /* host clock around sort + clFinish */

/* What moves with the keys in one measurement. --value-type u64 measures
 * the last three side by side: the cost of 8-byte values against 4-byte
 * ones, and against sorting u32 indices and then gathering the 8-byte
 * values by them. */
typedef enum value_kind { VALUES_NONE, VALUES_U32, VALUES_U64, VALUES_U32_GATHER } value_kind;

/* One configuration to measure at every n. */
typedef struct bench_combo {
    zesort_algo algo;
    zesort_scan scan;
    value_kind values;
} bench_combo;

/* ---- bench_args.c ---------------------------------------------------------- */

/* The request of `zesort bench ARGS` into *req, checked as a whole. Returns
 * 0 or the usage error's exit code (reported). */
int cli_bench_parse_args(int argc, char **argv, bench_request *req);

/* ---- bench_report.c -------------------------------------------------------- */

/* What is measured, where, and the table's column names. */
void cli_bench_print_header(const bench_request *req, zesort_context *ctx);
/* One row of the table; a peer's row names its own backend and device. */
void cli_bench_print_row(FILE *report, const char *backend, const char *device,
                         const cli_measurement *m);
/* The speed ratios of the measurements m[0..count): between algorithms and
 * scans, against the peer, and the cost of 8-byte values. */
void cli_bench_print_ratios(const bench_request *req, const bench_combo *combo, int combos,
                            const cli_measurement *m, size_t count);
/* The measurements as CSV into req->csv_path (atomically). Returns 0 or
 * CLI_EXIT_FAILURE (reported). */
int cli_bench_write_csv(const bench_request *req, const char *backend, const char *device,
                        const char *flavor, const cli_measurement *m, size_t count);

#endif
