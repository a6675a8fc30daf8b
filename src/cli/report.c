/*
 * report.c — the CLI's error messages. The contract (docs/design.md §5.2) is one
 * line on stderr starting "zesort: ", so scripts can grep or show it; library
 * messages are folded onto that line.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* Formats into a buffer, turns any line break into a space, prints one line. */
static void print_line(const char *suffix, const char *fmt, va_list ap)
{
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    for (char *p = msg; *p; ++p) {
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    }
    fflush(stdout); /* keep any table already printed before the error */
    fprintf(stderr, "zesort: %s%s\n", msg, suffix ? suffix : "");
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
