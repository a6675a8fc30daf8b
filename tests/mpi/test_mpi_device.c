/*
 * test_mpi_device.c — zesort_mpi_sort with device_buffers = 1 (issue 24):
 * every rank's keys, values and outputs are Level Zero device memory
 * (zeMemAllocDevice through the loader; in the test suite the test driver
 * tests/ze_cl_driver, whose device memory the host can address, so the
 * non-GPU-aware Open MPI of the build moves it).
 *
 *   test_mpi_device matrix|errors
 * matrix: every key type, inputs (random, few values, all equal, reversed,
 * top bits only) and layouts (balanced, random sizes, a rank with none, all
 * on one rank), values none/u32/u64, descending, bit ranges, caller- or
 * library-owned outputs: each rank's slice checked against the oracle
 * (tests/common/sort_oracle.h: keys bit for bit, values, so stability) and
 * against the host path (the same sort with device_buffers = 0).
 * errors: a context that is not Level Zero, missing handles, a host
 * pointer given as device memory, a local sort failing on one rank, an MPI
 * that says it is not GPU-aware (hook) with and without the host-addressable
 * hook, and the sort with every host staging array failing (hook): the
 * device path still sorts, the host path cannot. Every error is agreed by
 * all ranks; a good sort follows.
 */
#include <level_zero/ze_api.h>

#include "mpi_test_common.h"

static ze_context_handle_t zctx;
static ze_device_handle_t zdev;
static ze_command_list_handle_t zlist; /* immediate, synchronous: the test's copies */

static int ze_setup(void)
{
    uint32_t n = 1;
    ze_driver_handle_t driver = NULL;
    ze_context_desc_t cd = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ze_command_queue_desc_t qd = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0,
                                  ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
                                  ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    return zeInit(0) == ZE_RESULT_SUCCESS && zeDriverGet(&n, &driver) == ZE_RESULT_SUCCESS &&
           n >= 1 && zeDeviceGet(driver, &n, &zdev) == ZE_RESULT_SUCCESS &&
           zeContextCreate(driver, &cd, &zctx) == ZE_RESULT_SUCCESS &&
           zeCommandListCreateImmediate(zctx, zdev, &qd, &zlist) == ZE_RESULT_SUCCESS;
}

static void *dev_alloc(uint64_t bytes)
{
    ze_device_mem_alloc_desc_t desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    void *p = NULL;
    if (zeMemAllocDevice(zctx, &desc, bytes ? bytes : 1, 8, zdev, &p) != ZE_RESULT_SUCCESS)
        abort();
    return p;
}

static void copy(void *dst, const void *src, uint64_t bytes)
{
    if (bytes && zeCommandListAppendMemoryCopy(zlist, dst, src, bytes, NULL, 0, NULL) !=
                     ZE_RESULT_SUCCESS)
        abort();
}

/* Whether p is (still) memory of the test's context. */
static int is_allocation(const void *p)
{
    ze_memory_allocation_properties_t props = {ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES,
                                               NULL, ZE_MEMORY_TYPE_UNKNOWN, 0, 0};
    zeMemGetAllocProperties(zctx, p, &props, NULL);
    return props.type != ZE_MEMORY_TYPE_UNKNOWN;
}

static void device_opts(zesort_mpi_options *o)
{
    o->device_buffers = 1;
    o->ze_context = zctx;
    o->ze_device = zdev;
}

/* The host path's result of the same case: the reference the device path
 * must match byte for byte. */
static void host_result(zesort_context *ctx, const mpi_case *c, const char *keys,
                        const char *values, uint64_t mine, zesort_mpi_output *ref)
{
    zesort_mpi_options o = c->opts;
    o.device_buffers = 0;
    memset(ref, 0, sizeof *ref);
    zesort_status s = zesort_mpi_sort(ctx, MPI_COMM_WORLD, keys, c->vb ? values : NULL, mine,
                                      ref, &o);
    CHECK(s == ZESORT_OK, "host path: %s", zesort_mpi_last_error());
}

/* Runs one case on every rank with device buffers and checks this rank's slice. */
static void run_case(zesort_context *ctx, const mpi_case *c)
{
    const zesort_options *o = &c->opts.sort;
    unsigned kb = oracle_key_bytes(o->key_type), vb = c->vb ? c->vb : 4;
    rank_data d;
    rank_data_make(c, &d);
    const uint64_t mine = d.mine;
    const char *my_keys = d.all + d.first * kb;
    void *dk = dev_alloc(mine * kb), *dv = dev_alloc(mine * vb);
    copy(dk, my_keys, mine * kb);
    copy(dv, d.values, mine * vb);

    uint64_t want = 0;
    zesort_mpi_count(MPI_COMM_WORLD, mine, &want);
    /* the result's keys and values, or the input, copied back */
    char *back = malloc((want > mine ? want : mine) * 16 + 1);
    zesort_mpi_output out = {0};
    if (c->caller_out) {
        out.capacity = want + 3;
        out.keys = dev_alloc(out.capacity * kb);
        out.values = dev_alloc(out.capacity * vb);
    }
    zesort_mpi_options opts = c->opts;
    device_opts(&opts);
    zesort_status s = zesort_mpi_sort(ctx, MPI_COMM_WORLD, dk, c->vb ? dv : NULL, mine, &out,
                                      &opts);
    char what[160];
    snprintf(what, sizeof what, "%s key type %d n=%llu %s %s values=%u desc=%d bits=%u:%u",
             zesort_status_name(s), (int)o->key_type, (unsigned long long)c->n,
             in_names[c->input], lay_names[c->layout], c->vb, o->descending, o->bit_lo,
             o->bit_hi);
    CHECK(s == ZESORT_OK, "%s: %s", what, zesort_mpi_last_error());
    CHECK(out.count == want, "%s: count %llu, want %llu", what, (unsigned long long)out.count,
          (unsigned long long)want);
    CHECK(c->caller_out != out.allocated && (out.device_context == zctx) == out.allocated,
          "%s: allocated %d, device_context %p", what, out.allocated, out.device_context);
    zesort_mpi_output ref;
    host_result(ctx, c, my_keys, d.values, mine, &ref);
    if (s == ZESORT_OK && out.count == want) {
        char *gk = back, *gv = back + want * kb;
        copy(gk, out.keys, want * kb);
        copy(gv, out.values, c->vb ? want * vb : 0);
        uint64_t bad = oracle_check(d.all, d.perm + d.out_first, gk, c->vb ? gv : NULL, 0, want, kb,
                                    vb);
        CHECK(bad == 0, "%s: wrong at %llu of %llu", what, (unsigned long long)bad - 1,
              (unsigned long long)want);
        CHECK(ref.count == want && !memcmp(gk, ref.keys, want * kb) &&
                  (!c->vb || !memcmp(gv, ref.values, want * vb)),
              "%s: differs from the host path", what);
    }
    copy(back, dk, mine * kb); /* the input is only read */
    CHECK(!memcmp(back, my_keys, mine * kb), "%s: input changed", what);
    if (c->caller_out) {
        zeMemFree(zctx, out.keys);
        zeMemFree(zctx, out.values);
    } else if (out.allocated) { /* released with zeMemFree in the test's context */
        void *k = out.keys;
        zesort_mpi_free(&out);
        CHECK(!is_allocation(k) && out.keys == NULL && out.device_context == NULL,
              "%s: zesort_mpi_free left the device keys allocated", what);
    }
    zesort_mpi_free(&ref);
    zeMemFree(zctx, dk);
    zeMemFree(zctx, dv);
    rank_data_free(&d);
    free(back);
}

static void matrix(zesort_context *ctx)
{
    /* 40000: a splitter search of 16 lockstep steps */
    static const uint64_t sizes[] = {0, 1, 3, 17, 100, 1000, 4099, 40000};
    static const int inputs[] = {IN_RANDOM, IN_FEW, IN_EQUAL, IN_REVERSED, IN_TOP};
    static const int layouts[] = {LAY_BALANCED, LAY_ONE_EMPTY, LAY_RANDOM, LAY_ALL_LAST};
    int k = 0;
    for (int ti = 0; ti < 6; ti++)
        for (int j = 0; j < 4; j++, k++) {
            mpi_case c;
            memset(&c, 0, sizeof c);
            zesort_mpi_options_default(&c.opts);
            c.opts.sort.key_type = types[ti];
            c.opts.sort.descending = k % 3 == 1;
            if (k % 4 == 3) { /* a bit range inside the key */
                c.opts.sort.bit_lo = 4;
                c.opts.sort.bit_hi = oracle_key_bytes(types[ti]) * 8 - 8;
            }
            c.vb = (unsigned[]){0, 4, 8}[(k + ti) % 3];
            c.opts.sort.value_type = c.vb == 8 ? ZESORT_VALUE_U64 : ZESORT_VALUE_U32;
            c.input = inputs[k % 5];
            c.layout = layouts[j];
            c.caller_out = (k / 2) % 2;
            c.n = sizes[(unsigned)k % 8];
            c.seed = 2000 + (uint64_t)k;
            run_case(ctx, &c);
        }
}

/* A u32 sort with values of 64 keys per rank on device memory (rank `bad`
 * passes `host_keys` instead when not NULL): the status it returns. */
static zesort_status sort64(zesort_context *ctx, const zesort_mpi_options *o, int bad,
                            void *host_keys, zesort_mpi_output *out)
{
    uint32_t k[64], v[64];
    for (int i = 0; i < 64; i++)
        k[i] = (uint32_t)mix((uint64_t)(i + 64 * rank)) % 1000, v[i] = (uint32_t)i;
    void *dk = dev_alloc(sizeof k), *dv = dev_alloc(sizeof v);
    copy(dk, k, sizeof k);
    copy(dv, v, sizeof v);
    memset(out, 0, sizeof *out);
    zesort_status s = zesort_mpi_sort(ctx, MPI_COMM_WORLD, rank == bad && host_keys ? host_keys
                                      : dk, dv, 64, out, o);
    zeMemFree(zctx, dk);
    zeMemFree(zctx, dv);
    return s;
}

/* out (device memory) holds 64 sorted keys, the last >= every key before it
 * on lower ranks: the good result of sort64. */
static int sorted64(const zesort_mpi_output *out)
{
    uint32_t k[64];
    if (out->count != 64)
        return 0;
    copy(k, out->keys, sizeof k);
    int ok = 1;
    for (int i = 1; i < 64; i++)
        ok &= k[i - 1] <= k[i];
    uint32_t last = k[63], prev = 0;
    MPI_Sendrecv(&last, 1, MPI_UINT32_T, (rank + 1) % nranks, 0, &prev, 1, MPI_UINT32_T,
                 (rank + nranks - 1) % nranks, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return ok && (rank == 0 || prev <= k[0]);
}

static void errors(zesort_context *ctx)
{
    int last = nranks - 1;
    zesort_mpi_options o;
    zesort_mpi_options_default(&o);
    device_opts(&o);
    zesort_mpi_output out;
    uint32_t host[64] = {0};
    zesort_context *cpu = NULL;
    zesort_create(ZESORT_BACKEND_CPU, &cpu);
    expect_all(sort64(cpu, &o, -1, NULL, &out), ZESORT_ERROR_UNSUPPORTED, -1, "CPU context");
    CHECK(strstr(zesort_mpi_last_error(), "Level Zero") != NULL, "CPU context: message '%s'",
          zesort_mpi_last_error());
    zesort_destroy(cpu);
    o.ze_device = NULL;
    expect_all(sort64(ctx, &o, -1, NULL, &out), ZESORT_ERROR_INVALID_ARGUMENT, -1, "no device");
    device_opts(&o);
    expect_all(sort64(ctx, &o, last, host, &out), ZESORT_ERROR_INVALID_ARGUMENT, last,
               "host keys as device memory");
    /* found by the check of the arguments, not by a sort that failed on it */
    CHECK(strstr(zesort_mpi_last_error(), "keys is not device or shared memory") != NULL,
          "host keys: message '%s'", zesort_mpi_last_error());
    CHECK(out.keys == NULL && !out.allocated && out.count == 0, "host keys: output");
    char who[16];
    snprintf(who, sizeof who, "%d", last);
    setenv("ZESORT_MPI_TEST_FAIL_RANK", who, 1);
    expect_all(sort64(ctx, &o, -1, NULL, &out), ZESORT_ERROR_BACKEND, last, "failing local sort");
    unsetenv("ZESORT_MPI_TEST_FAIL_RANK");
    CHECK(out.keys == NULL && !out.allocated && out.count == 0, "failing local sort: output");
    /* an MPI that says it cannot take device pointers: refused, unless the
     * device memory is host memory too */
    const char *was = getenv("ZESORT_MPI_TEST_HOST_ADDRESSABLE"); /* set for MPICH's run */
    char *saved = was ? strdup(was) : NULL;
    setenv("ZESORT_MPI_TEST_HOST_ADDRESSABLE", "0", 1);
    setenv("ZESORT_MPI_TEST_ZE_AWARE", "0", 1);
    expect_all(sort64(ctx, &o, -1, NULL, &out), ZESORT_ERROR_UNSUPPORTED, -1, "MPI not aware");
    setenv("ZESORT_MPI_TEST_HOST_ADDRESSABLE", "1", 1);
    expect_all(sort64(ctx, &o, -1, NULL, &out), ZESORT_OK, -1, "host-addressable");
    CHECK(sorted64(&out), "host-addressable: result");
    zesort_mpi_free(&out);
    unsetenv("ZESORT_MPI_TEST_ZE_AWARE");
    if (saved)
        setenv("ZESORT_MPI_TEST_HOST_ADDRESSABLE", saved, 1);
    else
        unsetenv("ZESORT_MPI_TEST_HOST_ADDRESSABLE");
    free(saved);
    /* no host array of keys or values can be allocated: the host path fails,
     * the device path sorts all the same (it never stages keys on the host) */
    setenv("ZESORT_MPI_TEST_NO_HOST_STAGING", "1", 1);
    uint32_t hk[64] = {0};
    zesort_mpi_options h;
    zesort_mpi_options_default(&h);
    zesort_mpi_output hout = {0};
    expect_all(zesort_mpi_sort(ctx, MPI_COMM_WORLD, hk, NULL, 64, &hout, &h),
               ZESORT_ERROR_OUT_OF_HOST_MEMORY, -1, "no host staging: host path");
    expect_all(sort64(ctx, &o, -1, NULL, &out), ZESORT_OK, -1, "no host staging: device path");
    CHECK(sorted64(&out), "no host staging: result");
    zesort_mpi_free(&out);
    unsetenv("ZESORT_MPI_TEST_NO_HOST_STAGING");
    expect_all(sort64(ctx, &o, -1, NULL, &out), ZESORT_OK, -1, "good sort after errors");
    CHECK(sorted64(&out), "good sort after errors: result");
    zesort_mpi_free(&out);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    if (argc != 2 || (strcmp(argv[1], "matrix") && strcmp(argv[1], "errors"))) {
        if (rank == 0)
            fprintf(stderr, "usage: test_mpi_device matrix|errors\n");
        MPI_Finalize();
        return 2;
    }
    zesort_context *ctx = NULL;
    int ok = ze_setup();
    CHECK(ok, "Level Zero: no driver, device or context");
    zesort_status s = ok ? zesort_create(ZESORT_BACKEND_LEVEL_ZERO, &ctx) : ZESORT_ERROR_BACKEND;
    CHECK(s == ZESORT_OK, "zesort_create: %s", zesort_last_error(NULL));
    int all_ok = 0, mine_ok = s == ZESORT_OK;
    MPI_Allreduce(&mine_ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (all_ok && strcmp(argv[1], "errors") == 0)
        errors(ctx);
    else if (all_ok)
        matrix(ctx);
    zesort_destroy(ctx);
    if (zlist)
        zeCommandListDestroy(zlist);
    if (zctx)
        zeContextDestroy(zctx);
    int counts[2] = {passed, failed}, total[2];
    MPI_Reduce(counts, total, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("mpi device %s: %d ranks: %d passed, %d failed\n", argv[1], nranks, total[0],
               total[1]);
    MPI_Finalize();
    return failed ? 1 : 0;
}
