/* mpi_sort_example.c — the manual's distributed sort (docs/mpi.md): every rank sorts its
 * keys with the others; rank r ends with the r-th slice of the global order.
 * Build: cc mpi_sort_example.c $(pkg-config --cflags --libs zesort-mpi)
 * Run:   mpirun -np 4 ./a.out */
#include <stdio.h>
#include <zesort_mpi.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, ranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    uint32_t keys[1000];
    for (int i = 0; i < 1000; i++)
        keys[i] = (uint32_t)(i * 2654435761u + (uint32_t)rank); /* this rank's keys */

    zesort_context *ctx = NULL; /* this rank's device: a GPU, OpenCL or the C fallback */
    zesort_status st = zesort_create(ZESORT_BACKEND_AUTO, &ctx);
    zesort_mpi_options opts;
    zesort_mpi_options_default(&opts); /* u32 keys, ascending */
    zesort_mpi_output out = {0};       /* keys NULL: the library allocates them */
    if (st == ZESORT_OK)
        st = zesort_mpi_sort(ctx, MPI_COMM_WORLD, keys, NULL, 1000, &out, &opts);
    if (st != ZESORT_OK)
        fprintf(stderr, "rank %d: %s\n", rank, zesort_mpi_last_error());

    /* globally sorted: each rank's last key <= the next rank's first */
    const uint32_t *mine = out.keys;
    uint32_t last = out.count ? mine[out.count - 1] : 0, prev = 0;
    MPI_Sendrecv(&last, 1, MPI_UINT32_T, (rank + 1) % ranks, 0, &prev, 1, MPI_UINT32_T,
                 (rank + ranks - 1) % ranks, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int ok = st == ZESORT_OK && out.count == 1000 && (rank == 0 || prev <= mine[0]), all = 0;
    for (uint64_t i = 1; i < out.count; i++)
        ok &= mine[i - 1] <= mine[i];
    MPI_Reduce(&ok, &all, 1, MPI_INT, MPI_LAND, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%d ranks sorted %d keys: %s\n", ranks, 1000 * ranks, all ? "ok" : "WRONG");
    zesort_mpi_free(&out);
    zesort_destroy(ctx);
    MPI_Finalize();
    return all || rank != 0 ? 0 : 1;
}
