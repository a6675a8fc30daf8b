/*
 * error.h — the library's one error-message type and its one printf-style
 * setter. Every object with a last-error message (a context, a Level Zero
 * sorter, a device backend, the thread for calls without an object) holds a
 * zs_error; every API call that succeeds clears its message.
 */
#ifndef ZESORT_ERROR_H
#define ZESORT_ERROR_H

#include "zesort.h"

#define ZS_ERROR_MAX 1024 /* bytes of a message, '\0' included; longer ones are cut */

typedef struct zs_error {
    char text[ZS_ERROR_MAX]; /* one line; "" = no error */
} zs_error;

/* Formats a one-line message into *e (newlines become spaces) and returns
 * status, so that `return zs_error_set(e, ZESORT_ERROR_..., "...", ...);`
 * fails a call in one line. The arguments must not point into e->text. */
zesort_status zs_error_set(zs_error *e, zesort_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* After a successful call: no message. */
void zs_error_clear(zs_error *e);

#endif
