/*
 * mpi_cli.h — what the files of zesort-mpi share: the program behind
 * `zesort mpi-sort` and `zesort mpi-bench` (the zesort CLI runs it, so that
 * zesort itself never links MPI). Every rank runs the same command; errors
 * are agreed so that every rank exits with the same status, and reported
 * once, by rank 0 (a failing rank's message is sent to it), on the CLI's
 * one-line "zesort: " contract (src/cli/cli.h).
 */
#ifndef ZESORT_MPI_CLI_H
#define ZESORT_MPI_CLI_H

#include <level_zero/ze_api.h>
#include <mpi.h>
#include <stdint.h>

#include "cli/cli.h"
#include "zesort_mpi.h"

/* ---- mpi_report.c --------------------------------------------------------- */

/* This process's rank in MPI_COMM_WORLD (0 before MPI_Init). */
int mc_rank(void);
/* Keeps this rank's message (printf format) for mc_agree; returns
 * CLI_EXIT_FAILURE. */
int mc_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Collective: every rank passes its exit code (0: fine). Returns the highest
 * one; rank 0 prints the kept message of the lowest rank that has it (with
 * "rank R: " when R is not 0). A rank that printed its own error (rank 0
 * through the CLI's file helpers) keeps no message. */
int mc_agree(int rc);
/* Collective, first thing after MPI_Init: 0 when every rank was given the
 * same arguments (argv[0..argc), by a hash of them), else CLI_EXIT_USAGE
 * on every rank, rank 0 saying which rank differs. Ranks given different
 * options (--values on one rank only) would otherwise part ways: some in a
 * collective call the others never make, waiting for ever. */
int mc_same_args(int argc, char **argv);
/* Around code that every rank runs alike and that reports through the CLI's
 * own helpers (argument parsing): ranks other than 0 print nothing. */
void mc_quiet_begin(void);
void mc_quiet_end(void);

/* ---- slice_io.c: MPI-IO, one slice per rank -------------------------------- */

/* Opens path for reading on every rank and gets its size in bytes. Returns
 * 0 or CLI_EXIT_FAILURE (message kept). *fh is MPI_FILE_NULL on failure. */
int mc_open_input(const char *path, MPI_File *fh, uint64_t *bytes);
/* Reads `bytes` bytes at `offset` into buf (pieces below 2^31 bytes).
 * Returns 0 or CLI_EXIT_FAILURE (message kept). */
int mc_read_at(MPI_File fh, const char *path, uint64_t offset, void *buf, uint64_t bytes);
/* Collective: every rank writes its `bytes` bytes at `offset` of the existing
 * file path (the output's temporary file). Returns 0 or CLI_EXIT_FAILURE
 * (message kept; not yet agreed). */
int mc_write_slice(const char *path, const char *shown, uint64_t offset, const void *buf,
                   uint64_t bytes);
/* Collective, for an output that is not a regular file (a FIFO, /dev/full,
 * standard output: written directly, cli_output's "direct", where slices
 * cannot be written at their offsets): rank 0 writes its `bytes` bytes of
 * buf to out (only rank 0's is used), then every other rank's in rank
 * order, sent to it in pieces with MPI tag `tag`. Returns 0 or the exit code
 * (rank 0: reported as cli_output_write does; MPI errors: message kept;
 * not yet agreed). */
int mc_write_in_order(cli_output *out, const char *shown, const void *buf, uint64_t bytes,
                      int tag);
/* This rank's balanced slice of n elements: [*first, *first + *count). */
void mc_slice(uint64_t n, uint64_t *first, uint64_t *count);

/* ---- rank_device.c: the device of each rank ------------------------------- */

/* --device local: each rank its node-local rank modulo the device count. */
#define MC_DEVICE_LOCAL INT64_C(-2)
/* --device N or --device local (MC_DEVICE_LOCAL) into *device; usage errors
 * reported (exit code returned). */
int mc_parse_device(cli_args *a, const char *cmd, int64_t *device);
/* cli_check_device_backend, knowing "local". */
int mc_check_device_backend(const char *cmd, zesort_backend backend, int64_t device);
/* Collective for MC_DEVICE_LOCAL: cli_create on this rank's device. */
zesort_status mc_create(zesort_backend backend, int64_t device, zesort_context **out);

/* ---- ze_buffers.c: mpi-bench --device-buffers ------------------------------ */

typedef struct mc_ze_buffers {
    ze_context_handle_t context;   /* the zesort context's (zesort_ze_context_handles) */
    ze_device_handle_t device;     /* the zesort context's device */
    ze_command_list_handle_t list; /* immediate, synchronous: the uploads; ours */
} mc_ze_buffers;
/* Takes the Level Zero context and device of ctx (a Level Zero zesort
 * context; else a usage message kept with mc_fail) and makes a list there.
 * Returns 0 or the exit code (mc_fail). Close before destroying ctx. */
int mc_ze_buffers_open(zesort_context *ctx, mc_ze_buffers *z);
/* A device allocation of `bytes` bytes holding host's: NULL on failure. */
void *mc_ze_upload(mc_ze_buffers *z, const void *host, uint64_t bytes);
void mc_ze_free(mc_ze_buffers *z, void *p);
void mc_ze_buffers_close(mc_ze_buffers *z);

/* ---- commands ---------------------------------------------------------------- */
int mc_cmd_mpi_sort(int argc, char **argv);
int mc_cmd_mpi_bench(int argc, char **argv);

#endif
