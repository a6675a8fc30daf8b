/*
 * slice_io.c — the distributed file sort's I/O: every rank reads its own
 * slice of INPUT and writes its own slice of OUTPUT with MPI-IO (the files
 * must be on a file system every rank sees). Transfers go in pieces below
 * 2^31 bytes (MPI's int counts; the offset is an MPI_Offset), so a slice
 * of any size works.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mpi_cli.h"
#include "mpi/mpi_internal.h" /* zm_chunk_bytes: the same piece size (and test hook) */

static int io_fail(int rc, const char *what, const char *path)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS)
        snprintf(text, sizeof text, "MPI error %d", rc);
    return mc_fail("cannot %s '%s': %s", what, path, text);
}

int mc_open_input(const char *path, MPI_File *fh, uint64_t *bytes)
{
    *fh = MPI_FILE_NULL;
    /* A FIFO or a terminal has no slices (and opening a FIFO waits for a
     * writer): refused on every rank alike, before the collective open. */
    struct stat st;
    int bad = stat(path, &st) == 0 && !S_ISREG(st.st_mode), any_bad = 0;
    MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any_bad)
        return mc_fail("'%s' is not a regular file: mpi-sort reads a slice of it on every rank "
                       "(MPI-IO)", path);
    int rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, fh);
    if (rc != MPI_SUCCESS) {
        *fh = MPI_FILE_NULL;
        return io_fail(rc, "open", path);
    }
    MPI_Offset size = 0;
    rc = MPI_File_get_size(*fh, &size);
    if (rc != MPI_SUCCESS)
        return io_fail(rc, "get the size of", path);
    *bytes = (uint64_t)size;
    return 0;
}

int mc_read_at(MPI_File fh, const char *path, uint64_t offset, void *buf, uint64_t bytes)
{
    uint64_t piece = zm_chunk_bytes();
    for (uint64_t done = 0; done < bytes;) {
        int len = (int)(bytes - done < piece ? bytes - done : piece), got = 0;
        MPI_Status status;
        int rc = MPI_File_read_at(fh, (MPI_Offset)(offset + done), (char *)buf + done, len,
                                  MPI_BYTE, &status);
        if (rc != MPI_SUCCESS)
            return io_fail(rc, "read", path);
        MPI_Get_count(&status, MPI_BYTE, &got);
        if (got <= 0)
            return mc_fail("cannot read '%s': it ended early (changed while read?)", path);
        done += (uint64_t)got;
    }
    return 0;
}

/* A piece MPI-IO wrote nothing of, without an error: Open MPI's OMPIO
 * returns success with a count of 0 when its pwrite fails (ENOSPC on a full
 * disk), printing the cause itself but not telling it. The piece again with
 * pwrite on this rank (the file is one every rank sees), which writes it or
 * says why. Returns 0 or CLI_EXIT_FAILURE (message kept). */
static int write_piece_directly(const char *path, const char *shown, uint64_t offset,
                                const char *buf, size_t len)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    int err = fd < 0 ? errno : 0;
    for (size_t done = 0; !err && done < len;) {
        ssize_t put = pwrite(fd, buf + done, len - done, (off_t)(offset + done));
        if (put < 0 && errno == EINTR)
            continue;
        if (put <= 0)
            err = put < 0 ? errno : EIO;
        else
            done += (size_t)put;
    }
    if (fd >= 0 && close(fd) != 0 && !err)
        err = errno;
    return err ? mc_fail("cannot write '%s': %s", shown, strerror(err)) : 0;
}

int mc_write_slice(const char *path, const char *shown, uint64_t offset, const void *buf,
                   uint64_t bytes)
{
    MPI_File fh = MPI_FILE_NULL;
    int rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    if (rc != MPI_SUCCESS)
        return io_fail(rc, "open for writing", shown);
    uint64_t piece = zm_chunk_bytes();
    int failed = 0;
    for (uint64_t done = 0; done < bytes && !failed;) {
        int len = (int)(bytes - done < piece ? bytes - done : piece), put = 0;
        MPI_Status status;
        rc = MPI_File_write_at(fh, (MPI_Offset)(offset + done), (const char *)buf + done, len,
                               MPI_BYTE, &status);
        if (rc == MPI_SUCCESS)
            MPI_Get_count(&status, MPI_BYTE, &put);
        if (rc != MPI_SUCCESS)
            failed = io_fail(rc, "write", shown);
        else if (put <= 0 && !(failed = write_piece_directly(path, shown, offset + done,
                                                              (const char *)buf + done,
                                                              (size_t)len)))
            put = len;
        done += (uint64_t)(put > 0 ? put : 0);
    }
    rc = MPI_File_close(&fh); /* collective: every rank gets here */
    if (rc != MPI_SUCCESS && !failed)
        failed = io_fail(rc, "close", shown);
    return failed;
}

/* The pieces of mc_write_in_order: at most 16 MiB, rank 0's buffer (the
 * test hook ZESORT_MPI_TEST_CHUNK_BYTES makes them smaller). */
static uint64_t order_piece(void)
{
    uint64_t piece = zm_chunk_bytes();
    return piece < (UINT64_C(1) << 24) ? piece : UINT64_C(1) << 24;
}

/* Rank 0's part: its slice, then each other rank's in rank order, piece by
 * piece into buf. After a failed write (reported, output aborted) the rest
 * is still received, and dropped, so that no rank waits for ever. */
static int root_writes(cli_output *out, const char *shown, const void *mine, uint64_t bytes,
                       char *buf, int tag)
{
    int rc = cli_output_write(out, mine, (size_t)bytes), nranks = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    for (int r = 1; r < nranks; r++) {
        uint64_t left = 0;
        int e = MPI_Recv(&left, 1, MPI_UINT64_T, r, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        while (e == MPI_SUCCESS && left > 0) {
            int len = (int)(left < order_piece() ? left : order_piece());
            e = MPI_Recv(buf, len, MPI_BYTE, r, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (e == MPI_SUCCESS && !rc)
                rc = cli_output_write(out, buf, (size_t)len);
            left -= (uint64_t)len;
        }
        if (e != MPI_SUCCESS)
            return io_fail(e, "gather on rank 0 the slices of", shown);
    }
    return rc;
}

int mc_write_in_order(cli_output *out, const char *shown, const void *buf, uint64_t bytes,
                      int tag)
{
    /* rank 0's buffer first, so that no rank sends when it has none */
    char *piece = mc_rank() == 0 ? malloc(order_piece()) : NULL;
    int ok = mc_rank() != 0 || piece;
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!ok)
        return mc_rank() == 0 ? mc_fail("cannot write '%s': out of host memory", shown)
                              : CLI_EXIT_FAILURE;
    if (mc_rank() == 0) {
        int rc = root_writes(out, shown, buf, bytes, piece, tag);
        free(piece);
        return rc;
    }
    int e = MPI_Send(&bytes, 1, MPI_UINT64_T, 0, tag, MPI_COMM_WORLD);
    for (uint64_t done = 0; e == MPI_SUCCESS && done < bytes;) {
        int len = (int)(bytes - done < order_piece() ? bytes - done : order_piece());
        e = MPI_Send((const char *)buf + done, len, MPI_BYTE, 0, tag, MPI_COMM_WORLD);
        done += (uint64_t)len;
    }
    return e == MPI_SUCCESS ? 0 : io_fail(e, "send to rank 0 a slice of", shown);
}

void mc_slice(uint64_t n, uint64_t *first, uint64_t *count)
{
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    uint64_t q = n / (uint64_t)size, rem = n % (uint64_t)size, r = (uint64_t)rank;
    *first = q * r + (r < rem ? r : rem);
    *count = q + (r < rem);
}
