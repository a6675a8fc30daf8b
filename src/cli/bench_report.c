/*
 * bench_report.c — what `zesort bench` prints and writes of its
 * measurements: the table, the speed ratios and the CSV file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

void cli_bench_print_row(FILE *report, const char *backend, const char *device,
                         const cli_measurement *m)
{
    if (m->backend)
        backend = m->backend;
    if (m->device)
        device = m->device;
    /* auto names what it ran: "auto(onesweep)" */
    char algo[64];
    if (strcmp(m->algo, m->ran) != 0)
        snprintf(algo, sizeof algo, "%s(%s)", m->algo, m->ran);
    else
        snprintf(algo, sizeof algo, "%s", m->algo);
    /* Device last and untruncated: driver names are long. */
    fprintf(report, "%-10s  %-14s  %-9s  %-10s  %11llu  %10.4f  %11.2f  %8llu  %s\n", backend,
            algo, m->scan, m->values, (unsigned long long)m->n, m->median_ms, m->mkeys_per_s,
            (unsigned long long)m->launches, device);
    fflush(report); /* rows appear as they are measured */
}

/* CSV field, quoted when it holds a comma, quote or line break (RFC 4180). */
static void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; ++s) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

int cli_bench_write_csv(const bench_request *req, const char *backend, const char *device,
                        const char *flavor, const cli_measurement *m, size_t count)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f)
        return cli_fail("out of host memory");
    fputs("backend,device,algo,type,pairs,n,median_ms,mkeys_per_s,scan,repeat,flavor,values,"
          "algo_ran,input,order,bits,launches\n", f);
    for (size_t i = 0; i < count; ++i) {
        csv_field(f, m[i].backend ? m[i].backend : backend);
        fputc(',', f);
        csv_field(f, m[i].device ? m[i].device : device);
        fprintf(f, ",%s,%s,%d,%llu,%.6f,%.3f,%s,%d,%s,%s,%s,%s,%s,%u:%u,%llu\n", m[i].algo,
                cli_key_type_name(req->type), req->pairs, (unsigned long long)m[i].n,
                m[i].median_ms, m[i].mkeys_per_s, m[i].scan, req->repeat,
                m[i].backend ? "n/a" : flavor, m[i].values, m[i].ran,
                cli_input_kind_name(req->input), req->descending ? "descending" : "ascending",
                req->bit_lo, req->bit_hi, (unsigned long long)m[i].launches);
    }
    if (fclose(f) != 0) {
        free(text);
        return cli_fail("out of host memory");
    }
    int rc = cli_write_file_atomic(req->csv_path, text, size);
    free(text);
    return rc;
}

/* The measurement of (algo, scan, n) with the request's first value kind,
 * or with `values` when not NULL. */
static const cli_measurement *find_values(const cli_measurement *m, size_t count,
                                          const char *algo, const char *scan, uint64_t n,
                                          const char *values)
{
    for (size_t i = 0; i < count; ++i) {
        if (m[i].n == n && strcmp(m[i].algo, algo) == 0 && strcmp(m[i].scan, scan) == 0 &&
            (!values || strcmp(m[i].values, values) == 0))
            return &m[i];
    }
    return NULL;
}

static const cli_measurement *find(const cli_measurement *m, size_t count, const char *algo,
                                   const char *scan, uint64_t n)
{
    return find_values(m, count, algo, scan, n, NULL);
}

/* --value-type u64: 8-byte values against 4-byte ones and against u32
 * indices + gather, per algorithm, scan and n (time ratios: over 1 is
 * slower). */
static void print_value_ratios(const bench_request *req, const bench_combo *combo, int combos,
                               const cli_measurement *m, size_t count)
{
    FILE *report = req->report;
    int printed = 0;
    for (int c = 0; c < combos; ++c) {
        if (combo[c].values != VALUES_U64)
            continue;
        const char *algo = zesort_algo_name(combo[c].algo), *scan = cli_scan_name(combo[c].scan);
        for (int i = 0; i < req->n_count; ++i) {
            const cli_measurement *x = find_values(m, count, algo, scan, req->n[i], "u64");
            const cli_measurement *y = find_values(m, count, algo, scan, req->n[i], "u32");
            const cli_measurement *g = find_values(m, count, algo, scan, req->n[i], "u32+gather");
            if (!x || !y || !g || y->median_ms <= 0 || g->median_ms <= 0)
                continue;
            if (!printed++)
                fprintf(report, "\ncost of 8-byte values (time of u64 values over u32 values, "
                                "and over sorting u32 indices then gathering u64 values):\n");
            fprintf(report, "  %-8s scan=%-6s n=%-11llu  u64/u32 %.2fx   u64/(u32+gather) %.2fx\n",
                    algo, scan, (unsigned long long)req->n[i], x->median_ms / y->median_ms,
                    x->median_ms / g->median_ms);
        }
    }
}

/* Speed ratios: every algorithm against the first one given (cm4/cm2 by
 * default) per scan mode and n, then device scan against host scan. */
static void print_ratios(const bench_request *req, const cli_measurement *m, size_t count)
{
    FILE *report = req->report;
    static const char *const scans[] = {"host", "device"};
    int printed = 0;
    const char *base = zesort_algo_name(req->algo[0]);
    for (int a = 1; a < req->algo_count; ++a) {
        const char *algo = zesort_algo_name(req->algo[a]);
        for (int s = 0; s < 2; ++s) {
            for (int i = 0; i < req->n_count; ++i) {
                const cli_measurement *x = find(m, count, algo, scans[s], req->n[i]);
                const cli_measurement *y = find(m, count, base, scans[s], req->n[i]);
                if (!x || !y || y->mkeys_per_s <= 0)
                    continue;
                if (!printed++)
                    fprintf(report, "\nspeed ratios (Mkeys/s of the first over the second):\n");
                fprintf(report, "  %s/%s  scan=%-6s  n=%-11llu  %.2fx\n", algo, base, scans[s],
                       (unsigned long long)req->n[i], x->mkeys_per_s / y->mkeys_per_s);
            }
        }
    }
    for (int a = 0; a < req->algo_count; ++a) {
        const char *algo = zesort_algo_name(req->algo[a]);
        for (int i = 0; i < req->n_count; ++i) {
            const cli_measurement *d = find(m, count, algo, "device", req->n[i]);
            const cli_measurement *h = find(m, count, algo, "host", req->n[i]);
            if (!d || !h || h->mkeys_per_s <= 0)
                continue;
            if (!printed++)
                fprintf(report, "\nspeed ratios (Mkeys/s of the first over the second):\n");
            fprintf(report, "  %s device-scan/host-scan  n=%-11llu  %.2fx\n", algo,
                   (unsigned long long)req->n[i], d->mkeys_per_s / h->mkeys_per_s);
        }
    }
}

/* zesort over the peer: every zesort measurement against the peer's at its n. */
static void print_peer_ratios(FILE *report, const cli_measurement *m, size_t count)
{
    int printed = 0;
    for (size_t i = 0; i < count; ++i) {
        if (strcmp(m[i].algo, PEER_ALGO) == 0)
            continue;
        const cli_measurement *p = NULL;
        for (size_t j = 0; j < count && !p; ++j) {
            if (strcmp(m[j].algo, PEER_ALGO) == 0 && m[j].n == m[i].n)
                p = &m[j];
        }
        if (!p || p->mkeys_per_s <= 0)
            continue;
        if (!printed++)
            fprintf(report, "\nspeed ratios against the peer (Mkeys/s of zesort over %s's sort, "
                            "timed by %s):\n", PEER_ALGO,
                    strcmp(p->scan, PEER_EVENTS) == 0 ? "profiling events" : "host clock");
        fprintf(report, "  %-8s scan=%-6s / %s  n=%-11llu  %.2fx\n", m[i].algo, m[i].scan,
                PEER_ALGO, (unsigned long long)m[i].n, m[i].mkeys_per_s / p->mkeys_per_s);
    }
}

void cli_bench_print_ratios(const bench_request *req, const bench_combo *combo, int combos,
                            const cli_measurement *m, size_t count)
{
    print_ratios(req, m, count);
    print_peer_ratios(req->report, m, count);
    print_value_ratios(req, combo, combos, m, count);
}

void cli_bench_print_header(const bench_request *req, zesort_context *ctx)
{
    FILE *report = req->report;
    const zesort_context_info info = cli_context_info(ctx);
    fprintf(report, "zesort bench: %s keys%s, input %s, %s, bits %u:%u, backend %s, device %u: "
                    "%s, kernel flavor %s, median of %d after a warm-up\n",
            cli_key_type_name(req->type),
            !req->pairs ? "" : req->value_type == ZESORT_VALUE_U64
                                   ? " + values (u32, u64, u32 indices + host gather of u64)"
                                   : " + u32 values",
            cli_input_kind_name(req->input), req->descending ? "descending" : "ascending",
            req->bit_lo, req->bit_hi, zesort_backend_name(info.backend), info.device_index,
            info.device, info.flavor, req->repeat);
    fprintf(report, "%-10s  %-14s  %-9s  %-10s  %11s  %10s  %11s  %8s  %s\n", "backend",
            "algo", "scan", "values", "n", "median_ms", "mkeys_per_s", "launches", "device");
}
