/* device_set.c — `--devices all|I,J,...` (sort, bench): one sort over
 * several devices of one backend (zesort_create_on_devices), and the line
 * that says how its time split. Apart from device_choice.c, which picks the
 * one device a command runs on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_parse_devices(cli_args *a, const char *cmd, cli_devices *d)
{
    const char *v;
    int rc = cli_args_value(a, cmd, &v);
    if (rc)
        return rc;
    memset(d, 0, sizeof *d);
    d->given = 1;
    if (strcmp(v, "all") == 0)
        return 0;
    char storage[256];
    const char *piece[ZESORT_MAX_DEVICES];
    const int count = strlen(v) < sizeof storage
                          ? cli_split_list(v, storage, piece, ZESORT_MAX_DEVICES) : -1;
    for (int i = 0; i < count; i++) {
        char *end;
        const unsigned long long x = strtoull(piece[i], &end, 10);
        if (*end || strspn(piece[i], "0123456789") != strlen(piece[i]) || x > UINT32_MAX)
            return cli_usage(cmd, "bad --devices '%s': '%s' is not a device index", v, piece[i]);
        for (int j = 0; j < i; j++)
            if (d->index[j] == (uint32_t)x)
                return cli_usage(cmd, "bad --devices '%s': device %llu is named twice", v, x);
        d->index[d->count++] = (uint32_t)x;
    }
    if (count < 1)
        return cli_usage(cmd, "bad --devices '%s': expected all, or device indices such as 0,1 "
                              "(at most %d; 'zesort info' lists them)", v, ZESORT_MAX_DEVICES);
    return 0;
}

int cli_check_devices(const char *cmd, zesort_backend backend, int64_t device,
                      const cli_devices *d)
{
    if (d->given && device >= 0)
        return cli_usage(cmd, "--device and --devices exclude each other");
    if (d->given && backend == ZESORT_BACKEND_AUTO)
        return cli_usage(cmd, "--devices needs --backend level-zero, opencl or cpu");
    return 0;
}

zesort_status cli_create_devices(zesort_backend backend, int64_t device, const cli_devices *d,
                                 zesort_context **out)
{
    if (!d->given)
        return cli_create(backend, device, out);
    cli_signals_hold(); /* as cli_create */
    zesort_status st = zesort_create_on_devices(backend, d->count ? d->index : NULL, d->count,
                                                out);
    cli_signals_release();
    return st;
}

void cli_print_sort_report(zesort_context *ctx)
{
    zesort_sort_report r;
    if (zesort_last_sort_report(ctx, &r) != ZESORT_OK || r.devices < 2)
        return;
    const zesort_context_info info = cli_context_info(ctx);
    const uint32_t *index = info.device_indices;
    char line[2048];
    int at = snprintf(line, sizeof line, "zesort: %llu parts on %u devices: partition %.1f ms, "
                      "sort %.1f ms (", (unsigned long long)r.parts, r.devices, r.partition_ms,
                      r.sort_ms);
    for (uint32_t i = 0; i < r.devices && at > 0 && (size_t)at < sizeof line; i++)
        at += snprintf(line + at, sizeof line - (size_t)at, "%sdevice %u: %llu keys in %.1f ms",
                       i ? ", " : "", index[i], (unsigned long long)r.device_keys[i],
                       r.device_ms[i]);
    if (at > 0 && (size_t)at < sizeof line)
        snprintf(line + at, sizeof line - (size_t)at, "), gather %.1f ms, total %.1f ms",
                 r.gather_ms, r.total_ms);
    fprintf(stderr, "%s\n", line);
}
