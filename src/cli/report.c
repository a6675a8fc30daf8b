/*
 * report.c — the CLI's error messages. The contract (docs/design.md §5.2) is one
 * line on stderr starting "zesort: ", so scripts can grep or show it; library
 * messages are folded onto that line (control characters escaped).
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

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

/* 1 when fewer than `want` more files can be opened now. */
static int few_files_left(int want)
{
    int fds[32], got = 0;
    while (got < want && got < 32 && (fds[got] = open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0)
        ++got;
    for (int i = 0; i < got; ++i)
        close(fds[i]);
    return got < want;
}

/* 1 when `bytes` of address space cannot be reserved now (ulimit -v). */
static int little_address_space(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return 1;
    munmap(p, bytes);
    return 0;
}

/* When a process limit is the likely reason a driver failed, reports it
 * (as "WHAT failed (STATUS): the ... limit (ulimit -x N) ...") and returns 1.
 * Drivers (the OpenCL ICD loader, PoCL and its LLVM, Level Zero) that cannot
 * open their files or map their libraries say "no device found" or "kernel
 * build failed", which sends the user looking for a missing ICD. */
static int fail_for_limits(const char *what, zesort_status status)
{
    struct rlimit rl;
    if (status != ZESORT_ERROR_NO_DEVICE && status != ZESORT_ERROR_BACKEND)
        return 0;
    if (few_files_left(16) && getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        cli_fail("%s failed (%s): the open-file limit (ulimit -n %llu) leaves the drivers too "
                 "few files; raise it", what, zesort_status_name(status),
                 (unsigned long long)rl.rlim_cur);
        return 1;
    }
    if (little_address_space((size_t)512 << 20) && getrlimit(RLIMIT_AS, &rl) == 0 &&
        rl.rlim_cur != RLIM_INFINITY) {
        cli_fail("%s failed (%s): the address-space limit (ulimit -v %llu) leaves the drivers "
                 "too little memory; raise it", what, zesort_status_name(status),
                 (unsigned long long)rl.rlim_cur / 1024);
        return 1;
    }
    return 0;
}

/* The message of a failed library call: `detail` (the library's message, or
 * the status name when empty), then `hint` (what to do) when not NULL. */
static int fail_with(const char *what, zesort_status status, const char *detail,
                     const char *hint)
{
    if (fail_for_limits(what, status))
        return CLI_EXIT_FAILURE;
    if (!detail || !*detail)
        detail = zesort_status_name(status);
    if (status == ZESORT_ERROR_UNSUPPORTED) {
        /* Well-formed request that this library version cannot do: the user
         * must change the arguments, hence a usage exit. */
        cli_fail("%s: not supported yet: %s", what, detail);
        return CLI_EXIT_USAGE;
    }
    return cli_fail("%s failed: %s (%s)%s%s", what, detail, zesort_status_name(status),
                    hint ? "; " : "", hint ? hint : "");
}

int cli_fail_status(const char *what, zesort_status status, const zesort_context *ctx)
{
    return fail_with(what, status, zesort_last_error(ctx), NULL);
}

/* Level Zero without a single device: most often no GPU driver at all (the
 * loader, libze1, finds none), which the loader's "zeInit failed" does not
 * tell. Named only then: a wrong --device index has devices to count. */
static const char LEVEL_ZERO_HINT[] =
    "for a Level Zero GPU driver install the Debian package intel-opencl-icd (it provides "
    "libze_intel_gpu.so; the loader is libze1); it needs an Intel GPU this user can open "
    "(/dev/dri/renderD*)";

const char *cli_backend_hint(zesort_backend backend, zesort_status status)
{
    uint32_t count = 0;
    if (backend != ZESORT_BACKEND_LEVEL_ZERO || status != ZESORT_ERROR_NO_DEVICE)
        return NULL;
    if (zesort_device_count(backend, &count) == ZESORT_OK && count > 0)
        return NULL;
    return LEVEL_ZERO_HINT;
}

int cli_fail_setup(zesort_backend backend, zesort_status status)
{
    char detail[512];
    /* kept first: cli_backend_hint's device count sets the thread's last error */
    snprintf(detail, sizeof detail, "%s", zesort_last_error(NULL));
    return fail_with("backend set-up", status, detail, cli_backend_hint(backend, status));
}
