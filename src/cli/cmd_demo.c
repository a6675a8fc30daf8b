/*
 * cmd_demo.c — `zesort demo`: the one-command tour (docs/design.md §5.2). On the
 * best device present (backend auto: Level Zero GPU, else OpenCL GPU, else
 * OpenCL CPU, else the C fallback) it sorts a few million random keys with
 * each CM algorithm, verifies every result against a host sort, and prints a
 * short table. Sized to finish in well under a minute on 2 CPU cores (PoCL).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char CMD[] = "demo";
#define DEMO_DEFAULT_N (UINT64_C(4) << 20)
#define DEMO_SEED UINT64_C(20240601)

typedef struct demo_request {
    uint64_t n;
    zesort_backend backend;
    int64_t device; /* --device, -1: the backend's choice */
} demo_request;

static int parse_demo_args(int argc, char **argv, demo_request *req)
{
    req->n = DEMO_DEFAULT_N;
    req->backend = ZESORT_BACKEND_AUTO;
    req->device = -1;
    cli_args a;
    cli_args_init(&a, argc, argv);
    const char *operand, *v;
    int kind, rc;
    while ((kind = cli_args_next(&a, &operand)) != CLI_ARG_END) {
        if (kind == CLI_ARG_OPERAND)
            return cli_usage(CMD, "unexpected operand '%s'", operand);
        if (strcmp(a.flag, "--n") == 0) {
            if ((rc = cli_args_value(&a, CMD, &v)))
                return rc;
            if (cli_parse_count(v, &req->n) || req->n == 0 || req->n > ZESORT_MAX_KEYS)
                return cli_usage(CMD, "bad --n '%s': expected a count from 1 (suffix k, m, g allowed)", v);
        } else if (strcmp(a.flag, "--backend") == 0) {
            if ((rc = cli_args_value(&a, CMD, &v)))
                return rc;
            if (cli_parse_backend(v, &req->backend))
                return cli_usage(CMD, "unknown backend '%s' (auto, level-zero, opencl, cpu)", v);
        } else if (strcmp(a.flag, "--device") == 0) {
            if ((rc = cli_parse_device(&a, CMD, &req->device)))
                return rc;
        } else {
            return cli_usage(CMD, "unknown option '%s'", a.flag);
        }
    }
    return cli_check_device_backend(CMD, req->backend, req->device);
}

#define DEMO_REPEAT 3

/* The median of DEMO_REPEAT (3) times. */
static double median3(const double *t)
{
    double a = t[0], b = t[1], c = t[2];
    return a > b ? (b > c ? b : (a > c ? c : a)) : (a > c ? a : (b > c ? c : b));
}

/* Sorts fresh copies with one algorithm (a warm-up, then the median of
 * DEMO_REPEAT timed sorts), prints its row named `label`; 0 when the last is
 * verified. */
static int demo_one(zesort_context *ctx, zesort_algo algo, const char *label,
                    const cli_expected *exp, uint32_t *work, uint64_t n, double *mkeys)
{
    zesort_options o;
    zesort_options_default(&o);
    o.algo = algo;
    o.scan = ZESORT_SCAN_DEVICE;
    /* Warm-up with the very launch shapes that are timed: PoCL builds (and
     * caches) a kernel specialised for each launch shape at its first launch,
     * and a smaller warm-up sort left those builds inside the timed sort,
     * so that on an empty kernel cache the first demo ever run told the
     * wrong 2-bit vs 4-bit story. Then the median of DEMO_REPEAT sorts, as
     * `zesort bench` times them. */
    zesort_desc d = cli_desc(ZESORT_SORT, &o, 0);
    d.keys = work;
    d.n = n;
    memcpy(work, exp->input, (size_t)n * sizeof *work);
    zesort_status st = zesort_run(ctx, &d);
    if (st != ZESORT_OK)
        return cli_fail_status("demo sort", st, ctx);
    double times[DEMO_REPEAT], walls[DEMO_REPEAT];
    for (int r = 0; r < DEMO_REPEAT; r++) {
        memcpy(work, exp->input, (size_t)n * sizeof *work);
        double t0 = cli_now_ms();
        d.device_ms = &times[r];
        st = zesort_run(ctx, &d);
        walls[r] = cli_now_ms() - t0;
        if (st != ZESORT_OK)
            return cli_fail_status("demo sort", st, ctx);
    }
    double ms = median3(times), wall = median3(walls);
    char why[160];
    int ok = cli_verify_sort(exp, work, NULL, 0, n, why, sizeof why) == 0;
    *mkeys = ms > 0 ? (double)n / (ms * 1e3) : 0.0;
    /* Device last and untruncated: driver names are long ("Portable Computing
     * Language: pthread-skylake-avx512-...") and the columns stay aligned. */
    printf("%-9s  %9.2f  %10.2f  %10.0f  %-8s  %s\n", label, *mkeys, ms, wall, ok ? "yes" : "NO",
           cli_context_info(ctx).device);
    fflush(stdout);
    if (!ok)
        return cli_fail("demo: %s result is wrong: %s", label, why);
    return 0;
}

int cli_cmd_demo(int argc, char **argv)
{
    demo_request req;
    int rc = parse_demo_args(argc, argv, &req);
    if (rc)
        return rc;

    /* Up front, as bench does: input, reference and work copies. */
    if ((rc = cli_check_host_memory(CMD, req.n, 3 * req.n * sizeof(uint32_t))))
        return rc;
    double start = cli_now_ms();
    zesort_context *ctx = NULL;
    zesort_status st = cli_create_for_kernels(req.backend, req.device, &ctx);
    if (st != ZESORT_OK)
        return cli_fail_setup(req.backend, st);

    uint64_t n = req.n;
    uint32_t *input = malloc((size_t)n * 4), *reference = malloc((size_t)n * 4),
             *work = malloc((size_t)n * 4);
    if (!input || !reference || !work) {
        rc = cli_fail("out of host memory for %llu keys", (unsigned long long)n);
        goto done;
    }
    cli_random_keys(input, n, ZESORT_KEY_U32, DEMO_SEED);
    memcpy(reference, input, (size_t)n * 4);
    cli_reference_sort(reference, n, ZESORT_KEY_U32);
    cli_expected exp = {input, reference, cli_multiset_hash(input, n, ZESORT_KEY_U32),
                        ZESORT_KEY_U32, 0, 0, 0};

    const zesort_context_info info = cli_context_info(ctx);
    zesort_backend backend = info.backend;
    printf("zesort demo: sorts %llu random 32-bit numbers with each sorting method, checks\n"
           "every result against a plain sort, and shows how fast each method ran\n"
           "backend: %s, device %u (%s%s)\n\n", (unsigned long long)n,
           zesort_backend_name(backend), info.device_index,
           req.device >= 0                      ? "--device"
           : req.backend == ZESORT_BACKEND_AUTO ? "the best one present"
                                                : "--backend ",
           req.device < 0 && req.backend != ZESORT_BACKEND_AUTO ? zesort_backend_name(req.backend)
                                                                : "");
    printf("%-9s  %9s  %10s  %10s  %-8s  %s\n", "algorithm", "Mkeys/s", "device_ms", "wall_ms",
           "verified", "device");

    /* The C fallback runs its own radix sort whatever the algorithm: one row,
     * and no ratios between the kernel designs it does not run. */
    int count = backend == ZESORT_BACKEND_CPU ? 1 : 3;
    static const zesort_algo algos[] = {ZESORT_ALGO_CM2, ZESORT_ALGO_CM4, ZESORT_ALGO_ONESWEEP};
    double mkeys[3] = {0, 0, 0};
    for (int i = 0; i < count && rc == 0; ++i)
        rc = demo_one(ctx, algos[i], count == 1 ? "cpu-radix" : zesort_algo_name(algos[i]), &exp,
                      work, n, &mkeys[i]);
    if (rc == 0) {
        printf("\n");
        if (count == 3 && mkeys[0] > 0)
            printf("cm4 (4-bit digits, 8 passes) vs cm2 (2-bit digits, 16 passes): %.2fx\n"
                   "onesweep (8-bit digits, 4 passes) vs cm2: %.2fx\n",
                   mkeys[1] / mkeys[0], mkeys[2] / mkeys[0]);
        printf("Mkeys/s: millions of numbers sorted per second on the device, not counting the\n"
               "copies to and from it (the median of %d sorts after a warm-up sort); wall_ms\n"
               "also counts the copies. Total %.1f s.\n",
               DEMO_REPEAT,
               (cli_now_ms() - start) / 1e3);
    }
done:
    free(input);
    free(reference);
    free(work);
    zesort_destroy(ctx);
    return rc;
}
