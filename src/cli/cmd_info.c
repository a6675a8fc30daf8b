/*
 * cmd_info.c — `zesort info`: one "key: value" line per fact about this build
 * and this machine, easy to grep in scripts and bug reports.
 *
 * "backends:" lists what is usable now, found by creating a context on each
 * backend (the library stops cleanly where a driver is missing, see
 * docs/design.md §4), so the list never promises a device that is not there.
 */
#include <stdio.h>
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
    return zesort_sort(ctx, keys, NULL, PROBE_N, &opts) == ZESORT_OK;
}

static void append(char *buf, size_t cap, const char *name)
{
    if (buf[0])
        strncat(buf, ",", cap - strlen(buf) - 1);
    strncat(buf, name, cap - strlen(buf) - 1);
}

static void print_capabilities(zesort_context *ctx)
{
    static const zesort_algo algos[] = {ZESORT_ALGO_CM2, ZESORT_ALGO_CM4, ZESORT_ALGO_ONESWEEP};
    char list[128] = "";
    for (size_t i = 0; i < sizeof algos / sizeof algos[0]; ++i) {
        if (accepts(ctx, algos[i], ZESORT_KEY_U32))
            append(list, sizeof list, zesort_algo_name(algos[i]));
    }
    printf("algorithms: %s\n", list[0] ? list : "none");
    list[0] = '\0';
    for (int t = ZESORT_KEY_U32; t <= ZESORT_KEY_F64; ++t) {
        if (accepts(ctx, ZESORT_ALGO_AUTO, (zesort_key_type)t))
            append(list, sizeof list, cli_key_type_name((zesort_key_type)t));
    }
    printf("key-types: %s\n", list[0] ? list : "none");
}

int cli_cmd_info(int argc, char **argv)
{
    if (argc > 0)
        return cli_usage(CMD, "unexpected argument '%s'", argv[0]);

    zesort_context *ctx[N_BACKENDS] = {0};
    char usable[128] = "";
    for (size_t i = 0; i < N_BACKENDS; ++i) {
        if (zesort_create(all_backends[i], &ctx[i]) != ZESORT_OK) {
            ctx[i] = NULL;
            continue;
        }
        if (usable[0])
            strcat(usable, ",");
        strcat(usable, zesort_backend_name(all_backends[i]));
    }

    printf("version: %s\n", zesort_version());
    printf("backends: %s\n", usable[0] ? usable : "none");
    for (size_t i = 0; i < N_BACKENDS; ++i) {
        if (ctx[i])
            printf("device-%s: %s\n", zesort_backend_name(all_backends[i]),
                   zesort_context_device(ctx[i]));
    }
    for (size_t i = 0; i < N_BACKENDS; ++i) {
        if (ctx[i])
            printf("flavor-%s: %s\n", zesort_backend_name(all_backends[i]),
                   zesort_context_flavor(ctx[i]));
    }

    /* The backend `auto` picks, and what it can run. */
    zesort_context *best = NULL;
    if (zesort_create(ZESORT_BACKEND_AUTO, &best) == ZESORT_OK) {
        printf("default-backend: %s\n", zesort_backend_name(zesort_context_backend(best)));
        print_capabilities(best);
        zesort_destroy(best);
    } else {
        printf("default-backend: none\n");
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
