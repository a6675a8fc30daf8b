/*
 * report.c — the CLI's error messages. The contract (docs/design.md §5.2) is one
 * line on stderr starting "zesort: ", so scripts can grep or show it; library
 * messages are folded onto that line (control characters escaped).
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
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

/* Level Zero without a single device: no GPU driver at all (the loader,
 * libze1, finds none), which the loader's "zeInit failed" does not tell, or
 * a driver that found no Intel GPU. Named only then: a wrong --device index
 * has devices to count. */
static const char LEVEL_ZERO_HINT[] =
    "for a Level Zero GPU driver install the Debian package intel-opencl-icd (it provides "
    "libze_intel_gpu.so; the loader is libze1); it needs an Intel GPU this user can open "
    "(/dev/dri/renderD*)";
static const char LEVEL_ZERO_NO_GPU[] =
    "no Intel GPU was found: the Level Zero GPU driver is installed but sees no Intel GPU "
    "this user can open (/dev/dri/renderD*)";

/* Whether the library file `name` is there: a path, or a name the dynamic
 * linker would find (already loaded, or in LD_LIBRARY_PATH or a system
 * library directory). Never loads it: the Intel driver aborts sanitized
 * processes. */
static int library_present(const char *name)
{
    if (strchr(name, '/'))
        return access(name, R_OK) == 0;
    void *loaded = dlopen(name, RTLD_LAZY | RTLD_NOLOAD);
    if (loaded) {
        dlclose(loaded);
        return 1;
    }
    static const char *const system_dirs[] = {
        "/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
        "/usr/lib64", "/usr/lib", "/usr/local/lib",
    };
    char path[4096];
    const char *ld = getenv("LD_LIBRARY_PATH");
    for (const char *p = ld; p && *p;) {
        size_t len = strcspn(p, ":");
        if (len > 0 && len < 2048) {
            snprintf(path, sizeof path, "%.*s/%s", (int)len, p, name);
            if (access(path, R_OK) == 0)
                return 1;
        }
        p += len + (p[len] == ':');
    }
    for (size_t i = 0; i < sizeof system_dirs / sizeof system_dirs[0]; ++i) {
        snprintf(path, sizeof path, "%s/%s", system_dirs[i], name);
        if (access(path, R_OK) == 0)
            return 1;
    }
    return 0;
}

/* Whether a Level Zero driver the loader would load is installed: the
 * drivers ZE_ENABLE_ALT_DRIVERS names (comma-separated), else Intel's GPU
 * driver. */
static int level_zero_driver_present(void)
{
    const char *alt = getenv("ZE_ENABLE_ALT_DRIVERS");
    if (!alt || !*alt)
        return library_present("libze_intel_gpu.so.1");
    char name[2048];
    for (const char *p = alt; *p;) {
        size_t len = strcspn(p, ",");
        if (len > 0 && len < sizeof name) {
            memcpy(name, p, len);
            name[len] = '\0';
            if (library_present(name))
                return 1;
        }
        p += len + (p[len] == ',');
    }
    return 0;
}

const char *cli_backend_hint(zesort_backend backend, zesort_status status)
{
    uint32_t count = 0;
    if (backend != ZESORT_BACKEND_LEVEL_ZERO || status != ZESORT_ERROR_NO_DEVICE)
        return NULL;
    if (zesort_device_count(backend, &count) == ZESORT_OK && count > 0)
        return NULL;
    return level_zero_driver_present() ? LEVEL_ZERO_NO_GPU : LEVEL_ZERO_HINT;
}

int cli_fail_setup(zesort_backend backend, zesort_status status)
{
    char detail[512];
    /* kept first: cli_backend_hint's device count sets the thread's last error */
    snprintf(detail, sizeof detail, "%s", zesort_last_error(NULL));
    return fail_with("backend set-up", status, detail, cli_backend_hint(backend, status));
}
