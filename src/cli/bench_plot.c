/*
 * bench_plot.c — `bench --plot FILE.png`: draws Mkeys/s against n, one line
 * per algorithm and scan mode, with gnuplot (Debian package gnuplot-nox,
 * which offers both the `pngcairo` and the libgd `png` terminals; the script
 * takes pngcairo when present). The data goes inline through the pipe, the
 * PNG to a temporary file that is renamed like every other output.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char MISSING[] =
    "gnuplot not found on PATH: install the Debian package gnuplot-nox (apt-get install gnuplot-nox)";

int cli_plot_check(void)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        return cli_fail("%s", MISSING);
    char *copy = strdup(path);
    if (!copy)
        return cli_fail("out of host memory");
    int found = 0;
    for (char *dir = strtok(copy, ":"); dir && !found; dir = strtok(NULL, ":")) {
        char exe[4096];
        snprintf(exe, sizeof exe, "%s/gnuplot", *dir ? dir : ".");
        found = access(exe, X_OK) == 0;
    }
    free(copy);
    return found ? 0 : cli_fail("%s", MISSING);
}

/* Writes s as a gnuplot single-quoted string ('' stands for one quote). */
static void gp_string(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; ++s) {
        if (*s == '\'')
            fputc('\'', f);
        if (*s != '\n' && *s != '\r')
            fputc(*s, f);
    }
    fputc('\'', f);
}

/* Writes s as a POSIX shell single-quoted word. */
static void sh_quote(char *buf, size_t cap, const char *s)
{
    size_t len = 0;
    buf[len++] = '\'';
    for (; *s && len + 5 < cap; ++s) {
        if (*s == '\'') {
            memcpy(buf + len, "'\\''", 4);
            len += 4;
        } else {
            buf[len++] = *s;
        }
    }
    buf[len++] = '\'';
    buf[len] = '\0';
}

/* 1 when a and b belong to one series: same algo, scan and values. */
static int same_series(const cli_measurement *a, const cli_measurement *b)
{
    return strcmp(a->algo, b->algo) == 0 && strcmp(a->scan, b->scan) == 0 &&
           strcmp(a->values, b->values) == 0;
}

/* The distinct algo/scan/values series, in order of first appearance. */
static size_t series_of(const cli_measurement *m, size_t count, size_t *first)
{
    size_t series = 0;
    for (size_t i = 0; i < count; ++i) {
        size_t s = 0;
        while (s < series && !same_series(&m[first[s]], &m[i]))
            ++s;
        if (s == series)
            first[series++] = i;
    }
    return series;
}

static void write_script(FILE *gp, const char *png, const cli_measurement *m, size_t count,
                         const char *title)
{
    fputs("if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
          "  set terminal pngcairo size 1000,640 enhanced font ',10'\n"
          "} else {\n"
          "  set terminal png size 1000,640 enhanced\n"
          "}\n", gp);
    fputs("set output ", gp);
    gp_string(gp, png);
    fputs("\nset title ", gp);
    gp_string(gp, title);
    fputs(" noenhanced\n"
          "set xlabel 'n (keys)'\n"
          "set ylabel 'Mkeys/s (device time, median)'\n"
          "set logscale x 2\n"
          "set format x '2^{%L}'\n"
          "set yrange [0:*]\n"
          "set grid\n"
          "set key below\n", gp);

    size_t *first = malloc((count ? count : 1) * sizeof *first);
    size_t series = first ? series_of(m, count, first) : 0;
    for (size_t s = 0; s < series; ++s) {
        fprintf(gp, "$s%zu << EOD\n", s);
        /* Points in increasing n, whatever order --n listed them in. */
        uint64_t last = 0;
        for (;;) {
            const cli_measurement *next = NULL;
            for (size_t i = 0; i < count; ++i) {
                if (!same_series(&m[i], &m[first[s]]))
                    continue;
                if (m[i].n > last && (!next || m[i].n < next->n))
                    next = &m[i];
            }
            if (!next)
                break;
            fprintf(gp, "%llu %.6f\n", (unsigned long long)next->n, next->mkeys_per_s);
            last = next->n;
        }
        fputs("EOD\n", gp);
    }
    fputs("plot ", gp);
    for (size_t s = 0; s < series; ++s) {
        char label[96];
        if (m[first[s]].backend) /* a peer (bench --peer): scan says how it was timed */
            snprintf(label, sizeof label, "%s sort (peer, %s)", m[first[s]].algo,
                     m[first[s]].scan);
        else
            snprintf(label, sizeof label, "%s, %s scan%s%s", m[first[s]].algo, m[first[s]].scan,
                     strcmp(m[first[s]].values, "none") ? ", values " : "",
                     strcmp(m[first[s]].values, "none") ? m[first[s]].values : "");
        fprintf(gp, "%s$s%zu using 1:2 with linespoints lw 2 pt 7 title ", s ? ", " : "", s);
        gp_string(gp, label);
        fputs(" noenhanced", gp);
    }
    if (series == 0)
        fputs("NaN notitle", gp);
    fputs("\n", gp);
    free(first);
}

/* First line of gnuplot's error log, for the one-line error message. */
static void first_line(const char *path, char *buf, size_t cap)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    while (fgets(buf, (int)cap, f)) {
        buf[strcspn(buf, "\n")] = '\0';
        if (buf[strspn(buf, " \t^")] != '\0') /* skip gnuplot's caret lines */
            break;
        buf[0] = '\0';
    }
    fclose(f);
}

int cli_plot_png(const char *path, const cli_measurement *m, size_t count, const char *title)
{
    cli_output out;
    int rc = cli_output_open_for_name(&out, path); /* gnuplot writes out.temp_path */
    if (rc)
        return rc;

    const char *tmpdir = getenv("TMPDIR");
    char log_path[4096];
    snprintf(log_path, sizeof log_path, "%s/zesort-gnuplot-XXXXXX",
             tmpdir && *tmpdir ? tmpdir : "/tmp");
    int log_fd = mkstemp(log_path);
    if (log_fd < 0) {
        cli_output_abort(&out);
        return cli_fail("cannot create a temporary file for gnuplot's messages: %s",
                        strerror(errno));
    }
    close(log_fd);

    char quoted[8300], command[8400];
    sh_quote(quoted, sizeof quoted, log_path);
    snprintf(command, sizeof command, "gnuplot 2>%s", quoted);

    /* A gnuplot that dies early must give an error message, not kill us. */
    void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN);
    fflush(NULL);
    FILE *gp = popen(command, "w");
    int status = -1;
    if (gp) {
        write_script(gp, out.temp_path, m, count, title);
        status = pclose(gp);
    }
    signal(SIGPIPE, old_pipe);

    if (status != 0) {
        char why[256];
        first_line(log_path, why, sizeof why);
        unlink(log_path);
        cli_output_abort(&out);
        return cli_fail("gnuplot failed to draw '%s'%s%s", path, why[0] ? ": " : "", why);
    }
    unlink(log_path);
    return cli_output_commit(&out);
}
