/*
 * error.c — the one setter of error messages (see error.h).
 */
#include "common/error.h"

#include <stdarg.h>
#include <stdio.h>

zesort_status zs_error_set(zs_error *e, zesort_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->text, sizeof e->text, fmt, ap);
    va_end(ap);
    for (char *c = e->text; *c; ++c) /* a message is one line */
        if (*c == '\n' || *c == '\r')
            *c = ' ';
    return status;
}

void zs_error_clear(zs_error *e) { e->text[0] = '\0'; }
