/*
 * report.c — the CLI's error messages. The contract (docs/design.md §5.2) is one
 * line on stderr starting "zesort: ", so scripts can grep or show it; library
 * messages are folded onto that line (control characters escaped).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* Formats into a buffer and prints one line. Control characters (from file
 * names, or line breaks in a library message) are escaped, C style: \n, \r,
 * \t, others \xHH, so the message stays one line and the terminal sees no
 * escape sequences. */
static void print_line(const char *suffix, const char *fmt, va_list ap)
{
    char msg[1024];
    char line[4 * sizeof msg];
    vsnprintf(msg, sizeof msg, fmt, ap);
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)msg; *p; ++p) {
        if (*p >= 0x20 && *p != 0x7f) {
            line[o++] = (char)*p;
            continue;
        }
        line[o++] = '\\';
        switch (*p) {
        case '\n': line[o++] = 'n'; break;
        case '\r': line[o++] = 'r'; break;
        case '\t': line[o++] = 't'; break;
        default:
            snprintf(line + o, sizeof line - o, "x%02x", *p);
            o += 3;
        }
    }
    line[o] = '\0';
    fflush(stdout); /* keep any table already printed before the error */
    fprintf(stderr, "zesort: %s%s\n", line, suffix ? suffix : "");
}

int cli_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_line(NULL, fmt, ap);
    va_end(ap);
    return CLI_EXIT_FAILURE;
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
    char suffix[96];
    snprintf(suffix, sizeof suffix, " (see 'zesort %s%s--help')", cmd ? cmd : "", cmd ? " " : "");
    va_list ap;
    va_start(ap, fmt);
    print_line(suffix, fmt, ap);
    va_end(ap);
    return CLI_EXIT_USAGE;
}

int cli_fail_status(const char *what, zesort_status status, const zesort_context *ctx)
{
    const char *detail = zesort_last_error(ctx);
    if (!detail || !*detail)
        detail = zesort_status_name(status);
    if (status == ZESORT_ERROR_UNSUPPORTED) {
        /* Well-formed request that this library version cannot do: the user
         * must change the arguments, hence a usage exit. */
        cli_fail("%s: not supported yet: %s", what, detail);
        return CLI_EXIT_USAGE;
    }
    return cli_fail("%s failed: %s (%s)", what, detail, zesort_status_name(status));
}
