/*
 * cmd_info.c — `zesort info`: one "key: value" line per fact about this build
 * and this machine, easy to grep in scripts and bug reports.
 *
 * "backends:" lists what is usable now, found by creating a context on each
 * backend (the library stops cleanly where a driver is missing, see
 * docs/design.md §4), so the list never promises a device that is not there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char CMD[] = "info";

static const zesort_backend all_backends[] = {ZESORT_BACKEND_LEVEL_ZERO, ZESORT_BACKEND_OPENCL,
                                             ZESORT_BACKEND_CPU};
#define N_BACKENDS (sizeof all_backends / sizeof all_backends[0])

/* 1 when ctx sorts a tiny array with these options: the "algorithms:" and
 * "key-types:" lines follow the library (onesweep or u64 appear once they are
 * implemented) instead of a list in the CLI that could go stale. */
static int accepts(zesort_context *ctx, zesort_algo algo, zesort_key_type type)
{
    enum { PROBE_N = 300 };
    uint64_t keys[PROBE_N]; /* room for 64-bit keys */
    cli_random_keys(keys, PROBE_N, type, 1);
    zesort_options opts;
    zesort_options_default(&opts);
    opts.algo = algo;
    opts.key_type = type;
    opts.bit_lo = 0;
    opts.bit_hi = cli_key_bits(type);
    zesort_desc d = cli_desc(ZESORT_SORT, &opts, 0);
    d.keys = keys;
    d.n = PROBE_N;
    return zesort_run(ctx, &d) == ZESORT_OK;
}

/* "KEY: <why the last zesort_create failed>" on one line, for a failure
 * other than "no such device": a setting such as a bad ZESORT_FLAVOR must not
 * leave "none" unexplained. */
static void print_create_error(const char *key, zesort_status st, const char *why)
{
    if (st == ZESORT_OK || st == ZESORT_ERROR_NO_DEVICE)
        return;
    char msg[512];
    snprintf(msg, sizeof msg, "%s", why && *why ? why : zesort_status_name(st));
    for (char *p = msg; *p; ++p) {
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = ' ';
    }
    printf("%s: %s (%s)\n", key, msg, zesort_status_name(st));
}

static void append(char *buf, size_t cap, const char *name)
{
    if (buf[0])
        strncat(buf, ",", cap - strlen(buf) - 1);
    strncat(buf, name, cap - strlen(buf) - 1);
}

/* "devices-BACKEND: 0: NAME; 1: NAME" (or "none"): every device --device can
 * name, by index. One line per backend, so that the key stays one of a known
 * set; a name holding "; " (none seen) would only make the line ambiguous to
 * a reader, not break it. */
static void print_device_list(zesort_backend backend)
{
    uint32_t count = 0;
    zesort_device_count(backend, &count); /* on failure count stays 0: "none" */
    printf("devices-%s:", zesort_backend_name(backend));
    for (uint32_t i = 0; i < count; ++i) {
        char name[ZESORT_DEVICE_NAME_MAX];
        if (zesort_device_name(backend, i, name, sizeof name) != ZESORT_OK)
            snprintf(name, sizeof name, "(%s)", zesort_last_error(NULL));
        for (char *p = name; *p; ++p) {
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                *p = ' ';
        }
        printf("%s %u: %s", i ? ";" : "", i, name);
    }
    printf("%s\n", count ? "" : " none");
}

static void print_capabilities(zesort_context *ctx)
{
    static const zesort_algo algos[] = {ZESORT_ALGO_CM2, ZESORT_ALGO_CM4, ZESORT_ALGO_ONESWEEP,
                                        ZESORT_ALGO_SMALL};
    char list[128] = "";
    for (size_t i = 0; i < sizeof algos / sizeof algos[0]; ++i) {
        if (accepts(ctx, algos[i], ZESORT_KEY_U32))
            append(list, sizeof list, zesort_algo_name(algos[i]));
    }
    printf("algorithms: %s\n", list[0] ? list : "none");
    list[0] = '\0';
    for (int t = ZESORT_KEY_U32; t <= ZESORT_KEY_BF16; ++t) {
        if (accepts(ctx, ZESORT_ALGO_AUTO, (zesort_key_type)t))
            append(list, sizeof list, cli_key_type_name((zesort_key_type)t));
    }
    printf("key-types: %s\n", list[0] ? list : "none");
}

/* The backend demo and bench measure on (cli_create_for_kernels, so that
 * the line cannot disagree with them), and why it differs from
 * default-backend when it does. */
static void print_demo_backend(zesort_backend default_backend)
{
    zesort_context *demo = NULL;
    if (cli_create_for_kernels(ZESORT_BACKEND_AUTO, -1, &demo) != ZESORT_OK) {
        printf("demo-backend: none\n");
        return;
    }
    zesort_backend backend = cli_context_info(demo).backend;
    printf("demo-backend: %s\n", zesort_backend_name(backend));
    if (backend != default_backend)
        printf("demo-backend-why: demo and bench measure the kernels, on the best device "
               "present: a Level Zero GPU, else an OpenCL GPU, else an OpenCL CPU device, else "
               "the C fallback; default-backend (what sort's --backend auto picks) skips OpenCL "
               "CPU devices, because the C fallback sorts faster on a CPU\n");
    zesort_destroy(demo);
}

int cli_cmd_info(int argc, char **argv)
{
    if (argc > 0)
        return cli_usage(CMD, "unexpected argument '%s'", argv[0]);

    zesort_context *ctx[N_BACKENDS] = {0};
    zesort_status create_status[N_BACKENDS];
    char create_error[N_BACKENDS][512];
    char usable[128] = "";
    for (size_t i = 0; i < N_BACKENDS; ++i) {
        create_status[i] = cli_create(all_backends[i], -1, &ctx[i]);
        const char *why = zesort_last_error(NULL);
        snprintf(create_error[i], sizeof create_error[i], "%s", why ? why : "");
        if (create_status[i] != ZESORT_OK) {
            ctx[i] = NULL;
            continue;
        }
        if (usable[0])
            strcat(usable, ",");
        strcat(usable, zesort_backend_name(all_backends[i]));
    }

    printf("version: %s\n", zesort_version());
    printf("backends: %s\n", usable[0] ? usable : "none");
    /* the library's test hook (src/common/test_hooks.h) changes what the
     * lines below say of OpenCL devices: say so, or they read as facts */
    const char *plain_gpu = getenv("ZESORT_TEST_OPENCL_PLAIN_GPU");
    if (plain_gpu && strcmp(plain_gpu, "1") == 0)
        printf("test-hook: ZESORT_TEST_OPENCL_PLAIN_GPU=1: every OpenCL device plays a plain "
               "OpenCL 1.2 GPU of another vendor\n");
    for (size_t i = 0; i < N_BACKENDS; ++i) {
        if (ctx[i])
            printf("device-%s: %s\n", zesort_backend_name(all_backends[i]),
                   cli_context_info(ctx[i]).device);
    }
    for (size_t i = 0; i < N_BACKENDS; ++i)
        print_device_list(all_backends[i]);
    for (size_t i = 0; i < N_BACKENDS; ++i) {
        if (ctx[i])
            printf("flavor-%s: %s\n", zesort_backend_name(all_backends[i]),
                   cli_context_info(ctx[i]).flavor);
    }
    for (size_t i = 0; i < N_BACKENDS; ++i) {
        const zesort_context_info info = ctx[i] ? cli_context_info(ctx[i]) : (zesort_context_info){0};
        if (info.small_max) /* the C fallback launches no kernel */
            printf("small-max-%s: %llu keys in one launch (64-bit keys or with values: %llu)\n",
                   zesort_backend_name(all_backends[i]), (unsigned long long)info.small_max,
                   (unsigned long long)info.small_max_wide);
    }

    for (size_t i = 0; i < N_BACKENDS; ++i) {
        char key[64];
        snprintf(key, sizeof key, "error-%s", zesort_backend_name(all_backends[i]));
        print_create_error(key, create_status[i], create_error[i]);
    }
    for (size_t i = 0; i < N_BACKENDS; ++i) {
        const char *hint = cli_backend_hint(all_backends[i], create_status[i]);
        if (hint)
            printf("note-%s: %s\n", zesort_backend_name(all_backends[i]), hint);
    }

    /* The backend `auto` picks, and what it can run. */
    zesort_context *best = NULL;
    zesort_status best_status = cli_create(ZESORT_BACKEND_AUTO, -1, &best);
    if (best_status == ZESORT_OK) {
        zesort_backend backend = cli_context_info(best).backend;
        printf("default-backend: %s\n", zesort_backend_name(backend));
        print_demo_backend(backend);
        print_capabilities(best);
        zesort_destroy(best);
    } else {
        printf("default-backend: none\n");
        print_create_error("default-backend-error", best_status, zesort_last_error(NULL));
        printf("algorithms: none\n");
        printf("key-types: none\n");
    }
    printf("aot-targets: %s\n", zesort_aot_targets());
    printf("spirv-flavors: %s\n", zesort_spirv_flavors());
#ifdef ZESORT_HAVE_BOOST_PEER
    printf("peers: boost-compute\n"); /* bench --peer boost (bench/peer_boost.h) */
#else
    printf("peers: none\n");
#endif

    for (size_t i = 0; i < N_BACKENDS; ++i)
        zesort_destroy(ctx[i]);
    if (fflush(stdout) != 0)
        return cli_fail("cannot write to standard output");
    return 0;
}
