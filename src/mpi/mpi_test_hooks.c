/*
 * mpi_test_hooks.c — knobs for tests only, read from the environment so that
 * a test under mpirun (the library's own or `zesort mpi-sort`) sets them for
 * every rank: a small exchange chunk, to run the chunked path that more than
 * 2^31 keys per rank would take on a few thousand keys, a rank whose
 * local sort fails, and for device_buffers: host arrays that fail, what MPI
 * says of Level Zero, and device memory the host can address.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpi_internal.h"

/* Below 2^31 bytes, MPI's int count, with room: one message of 1 GiB. */
#define ZM_CHUNK_DEFAULT (UINT64_C(1) << 30)

static int env_u64(const char *name, uint64_t *out)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return 0;
    char *end = NULL;
    unsigned long long x = strtoull(v, &end, 10);
    if (*end || x == 0)
        return 0;
    *out = x;
    return 1;
}

uint64_t zm_chunk_bytes(void)
{
    uint64_t chunk = ZM_CHUNK_DEFAULT;
    env_u64("ZESORT_MPI_TEST_CHUNK_BYTES", &chunk);
    return chunk < ZM_CHUNK_DEFAULT ? chunk : ZM_CHUNK_DEFAULT;
}

int zm_test_fail_rank(int rank)
{
    const char *v = getenv("ZESORT_MPI_TEST_FAIL_RANK");
    if (!v || !*v)
        return 0;
    char *end = NULL;
    long r = strtol(v, &end, 10);
    return !*end && r == rank;
}

static int env_flag(const char *name)
{
    const char *v = getenv(name);
    return v && v[0] == '1' && !v[1];
}

int zm_test_no_host_staging(void)
{
    return env_flag("ZESORT_MPI_TEST_NO_HOST_STAGING");
}

int zm_test_gpu_aware(void)
{
    const char *v = getenv("ZESORT_MPI_TEST_ZE_AWARE");
    if (!v || (strcmp(v, "0") && strcmp(v, "1")))
        return -1;
    return v[0] == '1';
}

int zm_test_host_addressable(void)
{
    return env_flag("ZESORT_MPI_TEST_HOST_ADDRESSABLE");
}

double zm_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}
