/*
 * slice_io.c — the distributed file sort's I/O: every rank reads its own
 * slice of INPUT and writes its own slice of OUTPUT with MPI-IO (the files
 * must be on a file system every rank sees). Transfers go in pieces below
 * 2^31 bytes (MPI's int counts; the offset is an MPI_Offset), so a slice
 * of any size works.
 */
#include <stdio.h>
#include <sys/stat.h>

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
        failed = rc != MPI_SUCCESS ? io_fail(rc, "write", shown)
                 : put <= 0        ? mc_fail("cannot write '%s': nothing written", shown)
                                   : 0;
        done += (uint64_t)(put > 0 ? put : 0);
    }
    rc = MPI_File_close(&fh); /* collective: every rank gets here */
    if (rc != MPI_SUCCESS && !failed)
        failed = io_fail(rc, "close", shown);
    return failed;
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
