/*
 * test_mpi_sort.c — zesort_mpi_sort under mpirun against the oracle (the
 * stable qsort of tests/common/sort_oracle.h over the whole input, which
 * every rank makes from the same seed): each rank checks its slice of the
 * global order (keys bit for bit, values, so stability), its count (N/P,
 * +1 for the first N%P ranks) and that its input is unchanged.
 *
 *   test_mpi_sort BACKEND matrix|errors
 * matrix: every key type x inputs (random, few values, all equal, sorted,
 * reversed, top bits only) x layouts (balanced, random sizes, a rank with
 * none, all on the first / last rank), with values (none, u32, u64),
 * descending, bit ranges, caller- or library-owned outputs and small
 * exchange chunks rotating over the cases. errors: failures agreed by every
 * rank (a capacity too small, a local sort that fails, values on some ranks
 * only, device buffers, bad options, NULL keys) and a good sort after them.
 * Prints "mpi: P ranks: N passed, M failed" on rank 0; exit 1 on any failure.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_test_common.h"

/* Runs one case on every rank and checks this rank's slice. */
static void run_case(zesort_context *ctx, const mpi_case *c)
{
    const zesort_options *o = &c->opts.sort;
    unsigned kb = oracle_key_bytes(o->key_type);
    rank_data d;
    rank_data_make(c, &d);
    const uint64_t mine = d.mine;
    char *keys = malloc(mine * kb + 1);
    memcpy(keys, d.all + d.first * kb, mine * kb);

    uint64_t want = 0;
    CHECK(zesort_mpi_count(MPI_COMM_WORLD, mine, &want) == ZESORT_OK, "zesort_mpi_count");
    zesort_mpi_output out = {0};
    if (c->caller_out) {
        out.capacity = want + 3;
        out.keys = malloc(out.capacity * kb + 1);
        out.values = malloc(out.capacity * 8 + 1);
    }
    char chunk[32];
    snprintf(chunk, sizeof chunk, "%llu", (unsigned long long)c->chunk);
    setenv("ZESORT_MPI_TEST_CHUNK_BYTES", chunk, 1);
    zesort_mpi_stats st;
    zesort_status s = zesort_mpi_sort_timed(ctx, MPI_COMM_WORLD, keys, c->vb ? d.values : NULL,
                                            mine, &out, &c->opts, &st);
    unsetenv("ZESORT_MPI_TEST_CHUNK_BYTES");
    char what[160];
    snprintf(what, sizeof what, "%s n=%llu %s %s values=%u desc=%d bits=%u:%u chunk=%llu",
             zesort_status_name(s), (unsigned long long)c->n, in_names[c->input],
             lay_names[c->layout], c->vb, o->descending, o->bit_lo, o->bit_hi,
             (unsigned long long)c->chunk);
    CHECK(s == ZESORT_OK, "%s: %s", what, zesort_mpi_last_error());
    CHECK(out.count == want, "%s: count %llu, want %llu", what, (unsigned long long)out.count,
          (unsigned long long)want);
    CHECK(c->caller_out != out.allocated, "%s: allocated %d", what, out.allocated);
    if (s == ZESORT_OK && out.count == want) {
        uint64_t bad = oracle_check(d.all, d.perm + d.out_first, out.keys, c->vb ? out.values : NULL, 0,
                                    want, kb, c->vb ? c->vb : 4);
        CHECK(bad == 0, "%s: wrong at %llu of %llu", what, (unsigned long long)bad - 1,
              (unsigned long long)want);
        CHECK(st.keys_in == mine && st.keys_out == want, "%s: stats keys", what);
    }
    CHECK(memcmp(d.all + d.first * kb, keys, mine * kb) == 0, "%s: input changed", what);
    /* every byte sent is received somewhere */
    uint64_t io[2] = {st.bytes_sent, st.bytes_received}, sum[2];
    MPI_Allreduce(io, sum, 2, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum[0] == sum[1], "%s: %llu bytes sent, %llu received", what,
          (unsigned long long)sum[0], (unsigned long long)sum[1]);
    /* a small chunk takes rounds: a rank posts one round per chunk of its
     * largest part (one peer, one stream) and stops when it has no more.
     * When what this rank sent and received exceeds a chunk for every part
     * (2 directions x peers x streams), some part is over a chunk: at least
     * 2 rounds. (Another rank's traffic says nothing of this one's: with few
     * distinct keys a rank may send and receive a chunk or less.) */
    const uint64_t parts = 2u * (uint64_t)(nranks - 1) * (c->vb ? 2u : 1u);
    if (c->chunk < 64 && nranks > 1 && s == ZESORT_OK &&
        st.bytes_sent + st.bytes_received > parts * c->chunk)
        CHECK(st.exchange_rounds > 1, "%s: %llu exchange rounds with a %llu-byte chunk", what,
              (unsigned long long)st.exchange_rounds, (unsigned long long)c->chunk);
    if (c->caller_out) {
        free(out.keys);
        free(out.values);
    } else {
        zesort_mpi_free(&out);
    }
    rank_data_free(&d);
    free(keys);
}

static void matrix(zesort_context *ctx)
{
    static const uint64_t sizes[] = {0, 1, 2, 3, 5, 17, 100, 1000, 4099, 20011};
    static const uint64_t chunks[] = {1u << 30, 13, 1u << 30, 64, 1u << 30};
    int k = 0;
    /* the narrow types (U8 .. BF16) on the C fallback, which sorts them */
    const int ntypes = zesort_context_backend(ctx) == ZESORT_BACKEND_CPU ? 12 : 6;
    for (int ti = 0; ti < ntypes; ti++)
        for (int in = 0; in < IN_COUNT; in++)
            for (int lay = 0; lay < LAY_COUNT; lay++, k++) {
                mpi_case c;
                memset(&c, 0, sizeof c);
                zesort_mpi_options_default(&c.opts);
                const zesort_key_type t = ti < 6 ? types[ti] : (zesort_key_type)(ZESORT_KEY_U8 + ti - 6);
                c.opts.sort.key_type = t;
                c.opts.sort.descending = k % 3 == 1;
                unsigned bits = oracle_key_bytes(t) * 8;
                if (k % 4 == 3) { /* a bit range inside the key */
                    c.opts.sort.bit_lo = bits >= 32 ? 4 : 1;
                    c.opts.sort.bit_hi = bits >= 32 ? bits - 8 : bits - 2;
                }
                c.vb = (unsigned[]){0, 4, 8}[k % 3 == 2 ? 0 : (k / 2) % 3];
                c.opts.sort.value_type = c.vb == 8 ? ZESORT_VALUE_U64 : ZESORT_VALUE_U32;
                c.input = in, c.layout = lay, c.caller_out = k % 2;
                c.n = sizes[(unsigned)k % 10];
                c.seed = 1000 + (uint64_t)k;
                c.chunk = chunks[k % 5];
                run_case(ctx, &c);
            }
}

static void errors(zesort_context *ctx)
{
    uint32_t keys[64], values[64], outk[64], outv[64];
    for (int i = 0; i < 64; i++)
        keys[i] = (uint32_t)mix((uint64_t)(i + 64 * rank)), values[i] = (uint32_t)i;
    int last = nranks - 1;
    zesort_mpi_options o;
    zesort_mpi_options_default(&o);
    /* a capacity too small on the last rank: it learns the count it needs */
    zesort_mpi_output out = {outk, outv, rank == last ? 10 : 64, 0, 0, NULL};
    zesort_status s = zesort_mpi_sort(ctx, MPI_COMM_WORLD, keys, values, 40, &out, &o);
    expect_all(s, ZESORT_ERROR_INVALID_ARGUMENT, last, "capacity");
    CHECK(out.count == (rank == last ? 40u : 0u), "capacity: count %llu",
          (unsigned long long)out.count);
    /* the last rank's local sort fails */
    char who[16];
    snprintf(who, sizeof who, "%d", last);
    setenv("ZESORT_MPI_TEST_FAIL_RANK", who, 1);
    zesort_mpi_output lib = {0};
    s = zesort_mpi_sort(ctx, MPI_COMM_WORLD, keys, values, 40, &lib, &o);
    unsetenv("ZESORT_MPI_TEST_FAIL_RANK");
    expect_all(s, ZESORT_ERROR_BACKEND, last, "failing local sort");
    CHECK(lib.keys == NULL && lib.count == 0 && !lib.allocated, "failing local sort: output");
    if (nranks > 1) { /* values on rank 0 only */
        s = zesort_mpi_sort(ctx, MPI_COMM_WORLD, keys, rank == 0 ? values : NULL, 40, &lib, &o);
        expect_all(s, ZESORT_ERROR_INVALID_ARGUMENT, -1, "values on one rank");
    }
    s = zesort_mpi_sort(ctx, MPI_COMM_WORLD, rank == last ? NULL : keys, NULL, 40, &lib, &o);
    expect_all(s, ZESORT_ERROR_INVALID_ARGUMENT, last, "NULL keys");
    o.device_buffers = 1;
    s = zesort_mpi_sort(ctx, MPI_COMM_WORLD, keys, NULL, 40, &lib, &o);
    expect_all(s, ZESORT_ERROR_UNSUPPORTED, -1, "device buffers");
    zesort_mpi_options_default(&o);
    o.sort.bit_lo = 20, o.sort.bit_hi = 10;
    s = zesort_mpi_sort(ctx, MPI_COMM_WORLD, keys, NULL, 40, &lib, &o);
    expect_all(s, ZESORT_ERROR_INVALID_ARGUMENT, -1, "bad bit range");
    s = zesort_mpi_sort(ctx, MPI_COMM_WORLD, keys, NULL, 40, NULL, NULL);
    expect_all(s, ZESORT_ERROR_INVALID_ARGUMENT, -1, "out NULL");
    CHECK(zesort_mpi_sort(ctx, MPI_COMM_NULL, keys, NULL, 40, &lib, NULL) ==
              ZESORT_ERROR_INVALID_ARGUMENT, "MPI_COMM_NULL");
    /* after all that, the communicator still works: a good sort */
    zesort_mpi_options_default(&o);
    s = zesort_mpi_sort(ctx, MPI_COMM_WORLD, keys, values, 40, &lib, &o);
    expect_all(s, ZESORT_OK, -1, "good sort after errors");
    uint64_t prev = 0, ok = 1;
    for (uint64_t i = 0; i < lib.count; i++)
        ok &= ((uint32_t *)lib.keys)[i] >= prev, prev = ((uint32_t *)lib.keys)[i];
    CHECK(ok && lib.count == 40, "good sort after errors: order or count");
    zesort_mpi_free(&lib);
}

/* A sort on a sub-communicator (even and odd ranks apart, at once) uses
 * that communicator only: each half ends sorted and balanced within itself,
 * its keys (sum and count) those of its own ranks. */
static void sub_communicator(zesort_context *ctx)
{
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    int hr = 0, hs = 1;
    MPI_Comm_rank(half, &hr);
    MPI_Comm_size(half, &hs);
    uint64_t keys[300], n = 100 + 97 * (uint64_t)(rank % 3), sum = 0, want_sum = 0;
    for (uint64_t i = 0; i < n; i++)
        keys[i] = mix(i + 1000 * (uint64_t)rank) % 1000, sum += keys[i];
    zesort_mpi_options o;
    zesort_mpi_options_default(&o);
    o.sort.key_type = ZESORT_KEY_U64;
    zesort_mpi_output out = {0};
    zesort_status s = zesort_mpi_sort(ctx, half, keys, NULL, n, &out, &o);
    CHECK(s == ZESORT_OK, "sub-communicator: %s", zesort_mpi_last_error());
    uint64_t total = 0, got_sum = 0, want = 0, last = 0, prev = 0, ok = 1;
    MPI_Allreduce(&n, &total, 1, MPI_UINT64_T, MPI_SUM, half);
    MPI_Allreduce(&sum, &want_sum, 1, MPI_UINT64_T, MPI_SUM, half);
    const uint64_t *k = out.keys;
    for (uint64_t i = 0; i < out.count; i++)
        got_sum += k[i], ok &= i == 0 || k[i - 1] <= k[i];
    MPI_Allreduce(MPI_IN_PLACE, &got_sum, 1, MPI_UINT64_T, MPI_SUM, half);
    want = total / (uint64_t)hs + ((uint64_t)hr < total % (uint64_t)hs);
    last = out.count ? k[out.count - 1] : 0;
    MPI_Sendrecv(&last, 1, MPI_UINT64_T, (hr + 1) % hs, 0, &prev, 1, MPI_UINT64_T,
                 (hr + hs - 1) % hs, 0, half, MPI_STATUS_IGNORE);
    CHECK(ok && out.count == want && (hr == 0 || !out.count || prev <= k[0]),
          "sub-communicator: %llu keys (want %llu), sorted %d", (unsigned long long)out.count,
          (unsigned long long)want, (int)ok);
    CHECK(got_sum == want_sum, "sub-communicator: the keys of other ranks");
    zesort_mpi_free(&out);
    MPI_Comm_free(&half);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    zesort_backend backend = ZESORT_BACKEND_CPU;
    if (argc != 3 || zesort_parse_backend(argv[1], &backend) != 0) {
        if (rank == 0)
            fprintf(stderr, "usage: test_mpi_sort BACKEND matrix|errors\n");
        MPI_Finalize();
        return 2;
    }
    zesort_context *ctx = NULL;
    zesort_status s = zesort_create(backend, &ctx);
    CHECK(s == ZESORT_OK, "zesort_create: %s", zesort_last_error(NULL));
    if (s == ZESORT_OK) {
        if (strcmp(argv[2], "errors") == 0) {
            errors(ctx);
            sub_communicator(ctx);
        }
        else
            matrix(ctx);
    }
    const char *device = ctx ? zesort_context_device(ctx) : "no context";
    if (rank == 0)
        printf("local sorts on %s\n", device);
    zesort_destroy(ctx);
    int counts[2] = {passed, failed}, total[2];
    MPI_Reduce(counts, total, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("mpi %s %s: %d ranks: %d passed, %d failed\n", argv[1], argv[2], nranks, total[0],
               total[1]);
    MPI_Finalize();
    return failed ? 1 : 0;
}
