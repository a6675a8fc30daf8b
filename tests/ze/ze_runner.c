/*
 * ze_runner.c — zesort-ze-runner: the correctness matrix through Level Zero,
 * for CI, on whatever Level Zero driver is present (a real Intel GPU, or the
 * test driver tests/ze_cl_driver loaded with ZE_ENABLE_ALT_DRIVERS).
 *
 *   zesort-ze-runner [--api host,interop]
 *                    [--interop regular-direct,regular-indirect,immediate-direct,immediate-indirect]
 *                    [--algo auto,cm2,cm4,onesweep] [--scan host,device] [--sizes N,N,...]
 *                    [--dists uniform,equal,sorted,reversed,few-unique,high-bits,low-bits]
 *                    [--types u32,i32,f32,u64,i64,f64] [--pairs] [--descending]
 *                    [--bits LO:HI] [--seed S] [--device N]
 *                    [--list] [--tap] [--junit FILE] [--corrupt K] [--help]
 *
 * Cases. Every (API, key type, algorithm, scan, distribution, size) is one
 * case, in that nesting order (sizes innermost). Each case sorts generated
 * keys (seeded by --seed, default 1; the data of a case depends only on the
 * seed, type, distribution and size) with zesort and with a stable host
 * reference (qsort on ((ordered key >> LO) & mask(HI - LO), index)), and
 * compares key for key, and value for value with --pairs (values are the
 * input indices, so stability is checked too).
 *   host      zesort_sort() on a ZESORT_BACKEND_LEVEL_ZERO context, keys in
 *             host memory. The library picks the device (the first Level Zero
 *             GPU, else the first device); it offers no way to choose one, so
 *             --device does not apply to host cases.
 *   interop   zesort_ze.h on the runner's own Level Zero objects: zeInit,
 *             device --device N (index over all drivers' devices in driver
 *             order, default 0), its own context, device memory for keys,
 *             values, count and temp (size from zesort_ze_temp_bytes), keys
 *             copied in and out through host memory. Four variants:
 *               regular-direct      zesort_ze_append_sort on a regular command
 *                                   list, closed, executed on a queue, queue
 *                                   synchronised;
 *               regular-indirect    zesort_ze_append_sort_indirect, likewise;
 *               immediate-direct    zesort_ze_append_sort on an immediate list,
 *                                   completion waited on through its signal event;
 *               immediate-indirect  the indirect variant, likewise.
 *             Indirect sorts read n from device memory and get max_n = n +
 *             n/16 + 3 (at most ZESORT_MAX_KEYS): the keys and values past n
 *             must come back untouched. The host scan mode does not exist for
 *             appended sorts: interop cases use scan=device only.
 * onesweep has no scan step: it runs once, without a scan= in its
 * description, whatever --scan lists. A case's description is
 *   <api> <type> <algo> [scan=<scan>] <dist> n=<n>[ pairs][ descending][ bits=LO:HI]
 * where <api> is "host" or "interop <variant>", e.g.
 *   host u32 cm4 scan=device uniform n=257
 *   interop immediate-indirect f64 onesweep few-unique n=4097 pairs
 * --list prints the descriptions, one per line, and exits 0 without touching
 * a device: the same cases, in the same order, as a run's TAP lines and JUnit
 * testcases.
 *
 * Defaults: both APIs, all four interop variants, cm2, cm4 and onesweep, both
 * scans, every distribution, sizes 0,1,31,32,255,256,257,4097,65537,1000003,
 * u32 keys only, ascending, no values, all bits, seed 1, device 0. With the
 * default algorithms a case whose algorithm the device does not support
 * (ZESORT_ERROR_UNSUPPORTED) is skipped; an algorithm named with --algo must
 * work. Lists hold at most 32 entries; sizes are 0..ZESORT_MAX_KEYS
 * (4294967294), and the largest must fit in this machine's memory (about 36
 * bytes per key, 44 with interop cases).
 *
 * Output. Default: a table, one row per (API, type, algorithm, scan,
 * distribution), PASS / FAIL / ERROR / SKIP per size, then a summary.
 * --tap: stdout is TAP version 13 only: "TAP version 13", the plan "1..N",
 * then per case "ok K - <description>" or "not ok K - <description>" (a
 * skipped case: "ok K - <description> # SKIP <reason>"), each followed by a
 * YAML block with the case's time, and for a failure its message:
 *     ok 3 - host u32 cm4 scan=device uniform n=257
 *       ---
 *       duration_ms: 1.234
 *       ...
 * Everything else is a "# " comment line. --junit FILE writes JUnit XML:
 * <testsuites> holding one <testsuite name="zesort-ze-runner" tests= failures=
 * errors="0" skipped= time= timestamp=> with <properties> (device, seed,
 * options) and one <testcase name="<description>" classname="zesort-ze-runner.host"
 * (or "zesort-ze-runner.interop") time="<seconds>"> per case, holding a
 * <failure message= type=> for a failed case (type "wrong-result", or
 * "sort-error" when the sort or the set-up returned an error) and <skipped
 * message=> for a skipped one. --tap and --junit may be given together; the table is printed
 * when --tap is not given. A case's time is the wall-clock time of the sort
 * only: host, the zesort_sort call; interop, the append (which builds the
 * kernels on the first use), the execution and the wait; not the data
 * generation, the copies or the check.
 * --corrupt K flips a bit of case K's sorted output before it is checked (for
 * n = 0 it just reports the case failed): a way to check that a CI pipeline
 * notices a failing case.
 *
 * Exit status: 0 every case passed (or was skipped), 1 a case failed or
 * something else went wrong (a set-up failure — zesort_create, the interop
 * context, host memory — reports every case failed with its message), 2
 * usage error: an unknown option, a missing value, a bad value (unknown
 * name, a name given twice, an empty list or entry, more than 32 entries, a
 * size that is not a decimal 0..ZESORT_MAX_KEYS or does not fit in memory,
 * a bad LO:HI, a --device index past the last device, a --corrupt number
 * past the last case, an unwritable --junit file, options that select no
 * case); one line on stderr, starting with "zesort-ze-runner: ", naming the
 * argument, nothing on stdout. 77: no Level Zero driver or device (every
 * case reported skipped, "# SKIP", in TAP and JUnit).
 */
#include <errno.h>
#include <inttypes.h>
#include <level_zero/ze_api.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "zesort.h"
#include "zesort_ze.h"

#define PROG "zesort-ze-runner"
#define MAX_LIST 32

static const uint64_t default_sizes[] = {0, 1, 31, 32, 255, 256, 257, 4097, 65537, 1000003};
static const char *const dist_names[] = {"uniform", "equal", "sorted", "reversed",
                                         "few-unique", "high-bits", "low-bits"};
#define NDISTS 7
static const char *const type_names[] = {"u32", "i32", "f32", "u64", "i64", "f64"};
#define NTYPES 6
static const char *const algo_names[] = {"auto", "cm2", "cm4", "onesweep"};
static const zesort_algo algo_ids[] = {ZESORT_ALGO_AUTO, ZESORT_ALGO_CM2, ZESORT_ALGO_CM4,
                                       ZESORT_ALGO_ONESWEEP};
#define NALGOS 4
static const char *const scan_names[] = {"host", "device"};
#define NSCANS 2
static const char *const api_names[] = {"host", "interop"};
#define NAPIS 2
/* Variant of a case: 0 = host API, 1 + i = interop variant i. */
static const char *const interop_names[] = {"regular-direct", "regular-indirect",
                                            "immediate-direct", "immediate-indirect"};
#define NINTEROP 4
static int variant_immediate(int v) { return v >= 3; }
static int variant_indirect(int v) { return v == 2 || v == 4; }

/* ---- command line ------------------------------------------------------ */

static void usage_error(const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, PROG ": %s (see --help)\n", msg);
    exit(2);
}

static void print_help(void)
{
    printf(
        "usage: " PROG " [options]\n"
        "Checks zesort's Level Zero sorts against a stable host reference, case by case.\n"
        "\n"
        "Matrix (comma-separated lists, at most 32 entries each):\n"
        "  --api host,interop       APIs (default both): host = zesort_sort on a level-zero\n"
        "                           context; interop = zesort_ze.h on the runner's own\n"
        "                           context, device memory and command lists\n"
        "  --interop V,...          interop variants (default all): regular-direct,\n"
        "                           regular-indirect, immediate-direct, immediate-indirect\n"
        "                           (regular or immediate command list; append_sort or\n"
        "                           append_sort_indirect)\n"
        "  --algo A,...             auto, cm2, cm4, onesweep (default cm2,cm4,onesweep;\n"
        "                           by default an algorithm the device lacks is skipped)\n"
        "  --scan S,...             host, device (default both; interop: device only;\n"
        "                           onesweep has no scan step and runs once)\n"
        "  --sizes N,...            key counts 0..4294967294 (default\n"
        "                           0,1,31,32,255,256,257,4097,65537,1000003)\n"
        "  --dists D,...            uniform, equal, sorted, reversed, few-unique, high-bits,\n"
        "                           low-bits (default all)\n"
        "  --types T,...            u32, i32, f32, u64, i64, f64 (default u32)\n"
        "  --pairs                  sort u32 values (the input indices) along: checks stability\n"
        "  --descending             descending order (stable)\n"
        "  --bits LO:HI             sort by bits [LO,HI) of the ordered key only\n"
        "                           (0 <= LO < HI <= the narrowest key type's width)\n"
        "  --seed S                 data seed, 0..2^64-1 (default 1)\n"
        "  --device N               Level Zero device for interop cases: index over all\n"
        "                           drivers' devices (default 0). Host cases run on the\n"
        "                           library's default device (first GPU, else first device):\n"
        "                           the host API offers no way to pick one.\n"
        "\n"
        "Output:\n"
        "  --list                   print the case descriptions, one per line, and exit\n"
        "                           (no device needed)\n"
        "  --tap                    TAP version 13 on stdout instead of the table: plan 1..N,\n"
        "                           'ok K - DESC' / 'not ok K - DESC', a YAML block with\n"
        "                           duration_ms (and message) after each; other lines '# '\n"
        "  --junit FILE             also write JUnit XML to FILE (one testcase per case,\n"
        "                           time in seconds, failure / skipped elements)\n"
        "  --corrupt K              corrupt case K's output (1-based) so that it fails:\n"
        "                           checks that CI reports failures\n"
        "  --help                   this text\n"
        "\n"
        "Case description: <api> <type> <algo> [scan=<scan>] <dist> n=<n>[ pairs][ descending]\n"
        "[ bits=LO:HI], <api> = host | interop <variant>.\n"
        "Exit status: 0 all passed, 1 a failure, 2 usage error, 77 no Level Zero driver/device.\n");
}

/* Comma-separated names -> indices into names. */
static void parse_names(const char *opt, const char *arg, const char *const *names, int nnames,
                        int *out, int *count)
{
    char buf[1024];
    if (strlen(arg) >= sizeof buf)
        usage_error("bad %s value: too long", opt);
    if (!*arg)
        usage_error("bad %s value '': empty list", opt);
    snprintf(buf, sizeof buf, "%s", arg);
    *count = 0;
    char *p = buf;
    for (;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        if (!*p)
            usage_error("bad %s value '%s': empty entry", opt, arg);
        int i = 0;
        while (i < nnames && strcmp(p, names[i]) != 0)
            i++;
        if (i == nnames) {
            char known[256] = "";
            for (int k = 0; k < nnames; k++)
                snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s",
                         k ? "," : "", names[k]);
            usage_error("bad %s value '%s': unknown '%s' (one of %s)", opt, arg, p, known);
        }
        if (*count >= MAX_LIST)
            usage_error("bad %s value '%s': more than %d entries", opt, arg, MAX_LIST);
        for (int k = 0; k < *count; k++)
            if (out[k] == i)
                usage_error("bad %s value '%s': '%s' given twice", opt, arg, p);
        out[(*count)++] = i;
        if (!comma)
            break;
        p = comma + 1;
    }
}

/* A decimal integer 0..max, digits only (no sign, no spaces, no base prefix). */
static int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end || errno == ERANGE || v > max)
        return -1;
    *out = v;
    return 0;
}

static void parse_sizes(const char *arg, uint64_t *out, int *count)
{
    char buf[1024];
    if (strlen(arg) >= sizeof buf)
        usage_error("bad --sizes value: too long");
    if (!*arg)
        usage_error("bad --sizes value '': empty list");
    snprintf(buf, sizeof buf, "%s", arg);
    *count = 0;
    char *p = buf;
    for (;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        uint64_t v;
        if (!*p)
            usage_error("bad --sizes value '%s': empty entry", arg);
        if (parse_u64(p, ZESORT_MAX_KEYS, &v) != 0)
            usage_error("bad --sizes value '%s': '%s' is not a key count 0..%" PRIu64
                        " (ZESORT_MAX_KEYS)", arg, p, ZESORT_MAX_KEYS);
        if (*count >= MAX_LIST)
            usage_error("bad --sizes value '%s': more than %d entries", arg, MAX_LIST);
        out[(*count)++] = v;
        if (!comma)
            break;
        p = comma + 1;
    }
}

/* ---- data and reference ------------------------------------------------ */

static uint64_t rng_state;
static uint32_t rng(void)
{
    /* splitmix64: deterministic, good enough for test data */
    uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return (uint32_t)((z ^ (z >> 31)) >> 16);
}

static unsigned key_bytes(int type) { return type >= 3 ? 8u : 4u; }

/* Distribution `dist` of n keys of `type`: the 32-bit patterns below, widened
 * for 64-bit keys (high half random, or the same pattern for equal/sorted/...). */
static uint64_t pattern(uint64_t i, uint64_t n, unsigned dist, unsigned bits)
{
    uint64_t r = (uint64_t)rng() << 32 | rng();
    uint64_t top = bits == 64 ? ~UINT64_C(0) : 0xFFFFFFFFu;
    switch (dist) {
    case 0: return r & top;
    case 1: return UINT64_C(0xC0FFEE) * (bits == 64 ? UINT64_C(0x100000001) : 1);
    case 2: return i * 3u;
    case 3: return (n - i) * 3u;
    case 4: return (rng() % 5u) * (bits == 64 ? UINT64_C(0x1111111111111111) : 0x11111111u);
    case 5: return r & (top & ~(top >> 8)); /* only the last passes matter */
    default: return r & 0x0Fu;              /* only the first pass matters */
    }
}

static void fill(void *keys, uint64_t n, int type, unsigned dist, uint64_t seed)
{
    rng_state = seed * 7919u + dist * 104729u + n + (uint64_t)type * 15485863u;
    unsigned kb = key_bytes(type);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t k = pattern(i, n, dist, 8 * kb);
        if (kb == 4) {
            uint32_t k32 = (uint32_t)k;
            memcpy((char *)keys + 4 * i, &k32, 4);
        } else {
            memcpy((char *)keys + 8 * i, &k, 8);
        }
    }
}

/* The key's bits in the unsigned order of the sort (floats: IEEE totalOrder). */
static uint64_t ordered(const void *keys, uint64_t i, int type)
{
    if (key_bytes(type) == 8) {
        uint64_t k, sign = UINT64_C(1) << 63;
        memcpy(&k, (const char *)keys + 8 * i, 8);
        return type == 3 ? k : type == 4 ? k ^ sign : (k & sign) ? ~k : k | sign;
    }
    uint32_t k, sign = 0x80000000u;
    memcpy(&k, (const char *)keys + 4 * i, 4);
    return type == 0 ? k : type == 1 ? k ^ sign : (k & sign) ? ~k : k | sign;
}

typedef struct ref_item {
    uint64_t key; /* the ordered key's bits [lo, hi), shifted down */
    uint32_t index;
} ref_item;

static int ref_descending;
static int cmp_ref(const void *x, const void *y)
{
    const ref_item *a = x, *b = y;
    if (a->key != b->key)
        return (a->key < b->key) == !ref_descending ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

/* ---- cases ------------------------------------------------------------- */

typedef struct run_case {
    int variant; /* 0 host, 1..4 interop_names[variant - 1] */
    int type, algo, scan; /* algo: index in algo_names; scan: index, -1 for onesweep */
    int dist;
    uint64_t n;
} run_case;

typedef struct settings {
    int pairs, descending, bits_given;
    unsigned bit_lo, bit_hi;
} settings;

static settings cfg;

static void describe(const run_case *c, char *buf, size_t len)
{
    int k = snprintf(buf, len, "%s%s %s %s", c->variant ? "interop " : "host",
                     c->variant ? interop_names[c->variant - 1] : "", type_names[c->type],
                     algo_names[c->algo]);
    if (c->scan >= 0)
        k += snprintf(buf + k, len - (size_t)k, " scan=%s", scan_names[c->scan]);
    k += snprintf(buf + k, len - (size_t)k, " %s n=%" PRIu64 "%s%s", dist_names[c->dist], c->n,
                  cfg.pairs ? " pairs" : "", cfg.descending ? " descending" : "");
    if (cfg.bits_given)
        snprintf(buf + k, len - (size_t)k, " bits=%u:%u", cfg.bit_lo, cfg.bit_hi);
}

/* Result of one case. */
enum { R_PASS, R_FAIL, R_ERROR, R_SKIP };
static const char *const verdict_names[] = {"PASS", "FAIL", "ERROR", "SKIP"};

typedef struct result {
    int verdict;
    double ms;
    char *message; /* malloc'ed; NULL for PASS */
} result;

/* ---- output ------------------------------------------------------------ */

static int tap_mode;

/* A line of commentary: "# "-prefixed under --tap. */
static void note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (tap_mode)
        fputs("# ", stdout);
    vprintf(fmt, ap);
    va_end(ap);
    fputc('\n', stdout);
    fflush(stdout);
}

/* Whether a device has sub-groups of 32: the library then runs its sg kernels
 * there (kernel_select.h), else its portable ones. The interop API does not
 * say which flavor a sorter runs, so the runner states the fact it rests on. */
static int has_sub_groups_of_32(ze_device_handle_t device)
{
    ze_device_compute_properties_t cp = {.stype = ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
    if (zeDeviceGetComputeProperties(device, &cp) != ZE_RESULT_SUCCESS)
        return 0;
    for (uint32_t i = 0; i < cp.numSubGroupSizes && i < ZE_SUBGROUPSIZE_COUNT; i++)
        if (cp.subGroupSizes[i] == 32)
            return 1;
    return 0;
}

/* A YAML single-quoted scalar on one line. */
static void yaml_quoted(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputs("''", f);
        else if (*s == '\n' || *s == '\r' || *s == '\t')
            fputc(' ', f);
        else if ((unsigned char)*s >= 0x20)
            fputc(*s, f);
    }
    fputc('\'', f);
}

static void tap_case(int k, const char *desc, const result *r)
{
    if (r->verdict == R_SKIP) {
        printf("ok %d - %s # SKIP ", k, desc);
        for (const char *s = r->message ? r->message : "skipped"; *s; s++)
            putchar(*s == '\n' || *s == '\r' || *s == '#' ? ' ' : *s);
        putchar('\n');
    } else {
        printf("%sok %d - %s\n", r->verdict == R_PASS ? "" : "not ", k, desc);
    }
    printf("  ---\n  duration_ms: %.3f\n", r->ms);
    if (r->verdict == R_FAIL || r->verdict == R_ERROR) {
        printf("  severity: %s\n  message: ", r->verdict == R_FAIL ? "fail" : "error");
        yaml_quoted(stdout, r->message ? r->message : "");
        putchar('\n');
    }
    printf("  ...\n");
    fflush(stdout);
}

/* XML-escaped text (attribute-safe: quotes and line breaks escaped too;
 * characters XML 1.0 forbids become '?'). */
static void xml_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        switch (ch) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        case '\n': fputs("&#10;", f); break;
        case '\r': fputs("&#13;", f); break;
        case '\t': fputs("&#9;", f); break;
        default: fputc(ch < 0x20 || ch == 0x7F ? '?' : ch, f);
        }
    }
}

static int write_junit(FILE *f, const run_case *cases, const result *res, int ncases,
                       const char *device, uint64_t seed, const char *options, time_t started)
{
    int failures = 0, errors = 0, skipped = 0;
    double total = 0;
    for (int i = 0; i < ncases; i++) {
        /* a wrong result and a sort that returned an error are both a
         * <failure> (its type tells which); errors="0" */
        failures += res[i].verdict == R_FAIL || res[i].verdict == R_ERROR;
        skipped += res[i].verdict == R_SKIP;
        total += res[i].ms;
    }
    char stamp[32];
    struct tm tm;
    gmtime_r(&started, &tm);
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<testsuites name=\"" PROG "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" "
               "skipped=\"%d\" time=\"%.6f\">\n", ncases, failures, errors, skipped, total / 1e3);
    fprintf(f, "  <testsuite name=\"" PROG "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" "
               "skipped=\"%d\" time=\"%.6f\" timestamp=\"%s\">\n", ncases, failures, errors,
            skipped, total / 1e3, stamp);
    fprintf(f, "    <properties>\n      <property name=\"device\" value=\"");
    xml_escaped(f, device);
    fprintf(f, "\"/>\n      <property name=\"seed\" value=\"%" PRIu64 "\"/>\n"
               "      <property name=\"options\" value=\"", seed);
    xml_escaped(f, options);
    fprintf(f, "\"/>\n    </properties>\n");
    char desc[256];
    for (int i = 0; i < ncases; i++) {
        describe(&cases[i], desc, sizeof desc);
        fprintf(f, "    <testcase name=\"");
        xml_escaped(f, desc);
        fprintf(f, "\" classname=\"" PROG ".%s\" time=\"%.6f\"", cases[i].variant ? "interop" : "host",
                res[i].ms / 1e3);
        if (res[i].verdict == R_PASS) {
            fprintf(f, "/>\n");
            continue;
        }
        const char *msg = res[i].message ? res[i].message : "";
        if (res[i].verdict == R_SKIP) {
            fprintf(f, ">\n      <skipped message=\"");
            xml_escaped(f, msg);
            fprintf(f, "\"/>\n");
        } else {
            fprintf(f, ">\n      <failure type=\"%s\" message=\"",
                    res[i].verdict == R_FAIL ? "wrong-result" : "sort-error");
            xml_escaped(f, msg);
            fprintf(f, "\">");
            xml_escaped(f, msg);
            fprintf(f, "</failure>\n");
        }
        fprintf(f, "    </testcase>\n");
    }
    fprintf(f, "  </testsuite>\n</testsuites>\n");
    return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}

/* ---- the check ----------------------------------------------------------- */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static char *dup_printf(const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return strdup(buf);
}

/* Host buffers shared by all cases, sized for the largest (interop: + slack). */
static unsigned char *input, *keys;
static uint32_t *values;
static ref_item *ref;

/* Reference order of input's n keys of type into ref. */
static void make_reference(uint64_t n, int type)
{
    unsigned lo = cfg.bits_given ? cfg.bit_lo : 0;
    unsigned width = (cfg.bits_given ? cfg.bit_hi : 8 * key_bytes(type)) - lo;
    uint64_t mask = width >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << width) - 1;
    for (uint64_t i = 0; i < n; i++) {
        ref[i].key = (ordered(input, i, type) >> lo) & mask;
        ref[i].index = (uint32_t)i;
    }
    ref_descending = cfg.descending;
    qsort(ref, n, sizeof *ref, cmp_ref);
}

/* Compares keys/values (sorted by zesort) with the reference. NULL if equal,
 * else a malloc'ed message. */
static char *check_output(uint64_t n, int type)
{
    unsigned kb = key_bytes(type);
    for (uint64_t i = 0; i < n; i++) {
        int bad_key = memcmp(keys + i * kb, input + (uint64_t)ref[i].index * kb, kb) != 0;
        int bad_value = cfg.pairs && values[i] != ref[i].index;
        if (bad_key || bad_value) {
            uint64_t got = 0, want = 0;
            memcpy(&got, keys + i * kb, kb);
            memcpy(&want, input + (uint64_t)ref[i].index * kb, kb);
            if (bad_key)
                return dup_printf("first difference at %" PRIu64 ": key 0x%0*" PRIx64
                                  ", expected 0x%0*" PRIx64, i, (int)(2 * kb), got, (int)(2 * kb),
                                  want);
            return dup_printf("first difference at %" PRIu64 ": value %" PRIu32 ", expected %" PRIu32
                              " (stability)", i, values[i], ref[i].index);
        }
    }
    return NULL;
}

static void fill_options(zesort_options *o, const run_case *c)
{
    zesort_options_default(o);
    o->key_type = (zesort_key_type)c->type;
    o->descending = cfg.descending;
    o->algo = algo_ids[c->algo];
    o->scan = c->scan == 0 ? ZESORT_SCAN_HOST : ZESORT_SCAN_DEVICE;
    if (cfg.bits_given) {
        o->bit_lo = cfg.bit_lo;
        o->bit_hi = cfg.bit_hi;
    }
}

static result run_host(zesort_context *ctx, const run_case *c)
{
    result r = {R_PASS, 0, NULL};
    zesort_options o;
    fill_options(&o, c);
    double t0 = now_ms();
    zesort_status st = zesort_sort(ctx, keys, cfg.pairs ? values : NULL, c->n, &o);
    r.ms = now_ms() - t0;
    if (st != ZESORT_OK) {
        r.verdict = st == ZESORT_ERROR_UNSUPPORTED ? R_SKIP : R_ERROR;
        r.message = dup_printf("zesort_sort: %s: %s", zesort_status_name(st), zesort_last_error(ctx));
    }
    return r;
}

/* The runner's own Level Zero objects for the interop cases. */
static struct {
    ze_driver_handle_t driver;
    ze_device_handle_t device;
    char device_name[ZE_MAX_DEVICE_NAME];
    ze_context_handle_t ctx;
    ze_command_queue_handle_t queue;
    ze_command_list_handle_t regular, imm;
    ze_event_pool_handle_t pool;
    ze_event_handle_t copied, sorted;
    void *stage; /* host USM, for copies in and out */
    size_t stage_bytes;
    zesort_ze_sorter *sorter;
} z;

/* Finds device `index` over all drivers. 0 found, 77 no driver/device,
 * -N: only N devices. */
static int ze_find_device(uint64_t index, int64_t *ndevices, char *why, size_t why_len)
{
    ze_result_t r = zeInit(0);
    if (r != ZE_RESULT_SUCCESS) {
        /* Stop here: the Debian loader crashes in zeDriverGet after a failed zeInit. */
        snprintf(why, why_len, "no Level Zero driver (zeInit: 0x%x)", (unsigned)r);
        return 77;
    }
    uint32_t nd = 0;
    if (zeDriverGet(&nd, NULL) != ZE_RESULT_SUCCESS || nd == 0) {
        snprintf(why, why_len, "no Level Zero driver (zeDriverGet: %u drivers)", nd);
        return 77;
    }
    ze_driver_handle_t drivers[16];
    nd = nd > 16 ? 16 : nd;
    if (zeDriverGet(&nd, drivers) != ZE_RESULT_SUCCESS) {
        snprintf(why, why_len, "no Level Zero driver (zeDriverGet failed)");
        return 77;
    }
    uint64_t seen = 0;
    for (uint32_t d = 0; d < nd; d++) {
        uint32_t n = 0;
        if (zeDeviceGet(drivers[d], &n, NULL) != ZE_RESULT_SUCCESS || n == 0)
            continue;
        ze_device_handle_t devs[64];
        n = n > 64 ? 64 : n;
        if (zeDeviceGet(drivers[d], &n, devs) != ZE_RESULT_SUCCESS)
            continue;
        if (index < seen + n) {
            z.driver = drivers[d];
            z.device = devs[index - seen];
            ze_device_properties_t p = {.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
            if (zeDeviceGetProperties(z.device, &p) == ZE_RESULT_SUCCESS)
                snprintf(z.device_name, sizeof z.device_name, "%s", p.name);
            return 0;
        }
        seen += n;
    }
    *ndevices = (int64_t)seen;
    if (seen == 0) {
        snprintf(why, why_len, "no Level Zero device (%u drivers)", nd);
        return 77;
    }
    return -1;
}

/* Creates context, queue, lists, events, host staging and the sorter.
 * NULL on success, else a message. */
static char *ze_setup(size_t stage_bytes)
{
    ze_result_t r;
#define SETUP(call)                                                                      \
    do {                                                                                 \
        if ((r = (call)) != ZE_RESULT_SUCCESS)                                           \
            return dup_printf("interop set-up: %s failed (0x%x)", #call, (unsigned)r);   \
    } while (0)
    uint32_t ordinal = 0, ngroups = 0;
    zeDeviceGetCommandQueueGroupProperties(z.device, &ngroups, NULL);
    ze_command_queue_group_properties_t qg[16];
    ngroups = ngroups > 16 ? 16 : ngroups;
    for (uint32_t i = 0; i < ngroups; i++)
        qg[i] = (ze_command_queue_group_properties_t){
            .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES};
    if (ngroups && zeDeviceGetCommandQueueGroupProperties(z.device, &ngroups, qg) == ZE_RESULT_SUCCESS)
        for (uint32_t i = 0; i < ngroups; i++)
            if (qg[i].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE) {
                ordinal = i;
                break;
            }
    ze_context_desc_t cd = {.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    SETUP(zeContextCreate(z.driver, &cd, &z.ctx));
    ze_command_queue_desc_t qd = {.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                  .ordinal = ordinal,
                                  .mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS};
    SETUP(zeCommandQueueCreate(z.ctx, z.device, &qd, &z.queue));
    SETUP(zeCommandListCreateImmediate(z.ctx, z.device, &qd, &z.imm));
    ze_command_list_desc_t ld = {.stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC,
                                 .commandQueueGroupOrdinal = ordinal};
    SETUP(zeCommandListCreate(z.ctx, z.device, &ld, &z.regular));
    ze_event_pool_desc_t pd = {.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC,
                               .flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE,
                               .count = 2};
    SETUP(zeEventPoolCreate(z.ctx, &pd, 1, &z.device, &z.pool));
    ze_event_desc_t ed = {.stype = ZE_STRUCTURE_TYPE_EVENT_DESC,
                          .index = 0,
                          .signal = ZE_EVENT_SCOPE_FLAG_HOST,
                          .wait = ZE_EVENT_SCOPE_FLAG_HOST};
    SETUP(zeEventCreate(z.pool, &ed, &z.copied));
    ed.index = 1;
    SETUP(zeEventCreate(z.pool, &ed, &z.sorted));
    ze_host_mem_alloc_desc_t hd = {.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    SETUP(zeMemAllocHost(z.ctx, &hd, stage_bytes, 64, &z.stage));
    z.stage_bytes = stage_bytes;
#undef SETUP
    zesort_status st = zesort_ze_create(z.ctx, z.device, &z.sorter);
    if (st != ZESORT_OK)
        return dup_printf("interop set-up: zesort_ze_create: %s: %s", zesort_status_name(st),
                          zesort_ze_last_error(NULL));
    return NULL;
}

static void ze_teardown(void)
{
    /* Lists first: a regular list refers to the sorter's kernels. */
    if (z.regular)
        zeCommandListDestroy(z.regular);
    if (z.imm)
        zeCommandListDestroy(z.imm);
    if (z.queue)
        zeCommandQueueDestroy(z.queue);
    zesort_ze_destroy(z.sorter);
    if (z.stage)
        zeMemFree(z.ctx, z.stage);
    if (z.copied)
        zeEventDestroy(z.copied);
    if (z.sorted)
        zeEventDestroy(z.sorted);
    if (z.pool)
        zeEventPoolDestroy(z.pool);
    if (z.ctx)
        zeContextDestroy(z.ctx);
}

/* Copies bytes (<= z.stage_bytes) between host memory and device memory
 * through the staging buffer, on the immediate list, and waits. */
static ze_result_t ze_copy(void *dst, const void *src, size_t bytes, int to_device)
{
    if (bytes == 0)
        return ZE_RESULT_SUCCESS;
    if (to_device)
        memcpy(z.stage, src, bytes);
    ze_result_t r = zeCommandListAppendBarrier(z.imm, NULL, 0, NULL);
    if (r == ZE_RESULT_SUCCESS)
        r = zeCommandListAppendMemoryCopy(z.imm, to_device ? dst : z.stage,
                                          to_device ? z.stage : src, bytes, z.copied, 0, NULL);
    if (r == ZE_RESULT_SUCCESS)
        r = zeEventHostSynchronize(z.copied, UINT64_MAX);
    if (r == ZE_RESULT_SUCCESS)
        r = zeEventHostReset(z.copied);
    if (r == ZE_RESULT_SUCCESS && !to_device)
        memcpy(dst, z.stage, bytes);
    return r;
}

static const unsigned char TAIL_BYTE = 0x5A; /* keys/values past n in indirect sorts */

static uint64_t indirect_max_n(uint64_t n)
{
    uint64_t m = n + n / 16 + 3;
    return m > ZESORT_MAX_KEYS ? ZESORT_MAX_KEYS : m;
}

static result run_interop(const run_case *c)
{
    result r = {R_PASS, 0, NULL};
    const int indirect = variant_indirect(c->variant), immediate = variant_immediate(c->variant);
    const unsigned kb = key_bytes(c->type);
    const uint64_t n = c->n, max_n = indirect ? indirect_max_n(n) : n;
    zesort_options o;
    fill_options(&o, c);
    void *dkeys = NULL, *dvalues = NULL, *dcount = NULL, *temp = NULL;
    uint64_t temp_bytes = 0;
    ze_result_t zr = ZE_RESULT_SUCCESS;
    const char *what = NULL;
#define ZE_STEP(call)                       \
    do {                                    \
        if ((zr = (call)) != ZE_RESULT_SUCCESS) { \
            what = #call;                   \
            goto done;                      \
        }                                   \
    } while (0)

    zesort_status st = zesort_ze_temp_bytes(z.sorter, max_n, cfg.pairs, &o, &temp_bytes);
    if (st != ZESORT_OK) {
        r.verdict = st == ZESORT_ERROR_UNSUPPORTED ? R_SKIP : R_ERROR;
        r.message = dup_printf("zesort_ze_temp_bytes: %s: %s", zesort_status_name(st),
                               zesort_ze_last_error(z.sorter));
        return r;
    }
    ze_device_mem_alloc_desc_t dd = {.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    ZE_STEP(zeMemAllocDevice(z.ctx, &dd, max_n * kb + 8, 256, z.device, &dkeys));
    ZE_STEP(zeMemAllocDevice(z.ctx, &dd, temp_bytes + 8, 256, z.device, &temp));
    if (cfg.pairs)
        ZE_STEP(zeMemAllocDevice(z.ctx, &dd, max_n * 4 + 8, 256, z.device, &dvalues));
    if (indirect)
        ZE_STEP(zeMemAllocDevice(z.ctx, &dd, 4, 4, z.device, &dcount));

    /* Keys and values in (past n: the tail pattern, which must survive). */
    memcpy(keys, input, n * kb);
    memset(keys + n * kb, TAIL_BYTE, (max_n - n) * kb);
    ZE_STEP(ze_copy(dkeys, keys, max_n * kb, 1));
    if (cfg.pairs) {
        memset(values + n, TAIL_BYTE, (max_n - n) * 4);
        ZE_STEP(ze_copy(dvalues, values, max_n * 4, 1));
    }
    if (indirect) {
        uint32_t n32 = (uint32_t)n;
        ZE_STEP(ze_copy(dcount, &n32, 4, 1));
    }

    ze_command_list_handle_t list = immediate ? z.imm : z.regular;
    ze_event_handle_t signal = immediate ? z.sorted : NULL;
    double t0 = now_ms();
    if (!immediate)
        ZE_STEP(zeCommandListReset(z.regular));
    st = indirect ? zesort_ze_append_sort_indirect(z.sorter, list, dkeys, dvalues, dcount, max_n,
                                                   temp, temp_bytes, &o, signal, 0, NULL)
                  : zesort_ze_append_sort(z.sorter, list, dkeys, dvalues, n, temp, temp_bytes, &o,
                                          signal, 0, NULL);
    if (st != ZESORT_OK) {
        r.ms = now_ms() - t0;
        r.verdict = st == ZESORT_ERROR_UNSUPPORTED ? R_SKIP : R_ERROR;
        r.message = dup_printf("%s: %s: %s",
                               indirect ? "zesort_ze_append_sort_indirect" : "zesort_ze_append_sort",
                               zesort_status_name(st), zesort_ze_last_error(z.sorter));
        if (immediate) /* a failed append appends nothing: nothing will signal */
            goto done;
        zeCommandListClose(z.regular);
        goto done;
    }
    if (immediate) {
        ZE_STEP(zeEventHostSynchronize(z.sorted, UINT64_MAX));
        ZE_STEP(zeEventHostReset(z.sorted));
    } else {
        ZE_STEP(zeCommandListClose(z.regular));
        ZE_STEP(zeCommandQueueExecuteCommandLists(z.queue, 1, &z.regular, NULL));
        ZE_STEP(zeCommandQueueSynchronize(z.queue, UINT64_MAX));
    }
    r.ms = now_ms() - t0;

    ZE_STEP(ze_copy(keys, dkeys, max_n * kb, 0));
    if (cfg.pairs)
        ZE_STEP(ze_copy(values, dvalues, max_n * 4, 0));
    for (uint64_t i = n * kb; i < max_n * kb; i++)
        if (keys[i] != TAIL_BYTE) {
            r.verdict = R_FAIL;
            r.message = dup_printf("key %" PRIu64 " past the count n (max_n %" PRIu64 ") changed",
                                   i / kb, max_n);
            goto done;
        }
    if (cfg.pairs)
        for (uint64_t i = n * 4; i < max_n * 4; i++)
            if (((unsigned char *)values)[i] != TAIL_BYTE) {
                r.verdict = R_FAIL;
                r.message = dup_printf("value %" PRIu64 " past the count n (max_n %" PRIu64
                                       ") changed", i / 4, max_n);
                goto done;
            }
done:
    if (what) {
        r.verdict = R_ERROR;
        free(r.message);
        r.message = dup_printf("%s failed (0x%x)", what, (unsigned)zr);
    }
#undef ZE_STEP
    if (dkeys)
        zeMemFree(z.ctx, dkeys);
    if (dvalues)
        zeMemFree(z.ctx, dvalues);
    if (dcount)
        zeMemFree(z.ctx, dcount);
    if (temp)
        zeMemFree(z.ctx, temp);
    return r;
}

/* ---- main ---------------------------------------------------------------- */

int main(int argc, char **argv)
{
    int apis[MAX_LIST] = {0, 1}, napis = 2;
    int variants_interop[MAX_LIST] = {0, 1, 2, 3}, ninterop = NINTEROP;
    int algos[MAX_LIST] = {1, 2, 3}, nalgos = 3, algos_given = 0;
    int scans[MAX_LIST] = {0, 1}, nscans = 2;
    int dists[MAX_LIST], ndists = NDISTS;
    int types[MAX_LIST] = {0}, ntypes = 1;
    int list_only = 0;
    uint64_t seed = 1, device_index = 0, corrupt = 0;
    int device_given = 0;
    const char *junit_path = NULL, *bits_arg = NULL;
    uint64_t sizes[MAX_LIST];
    int nsizes = (int)(sizeof default_sizes / sizeof default_sizes[0]);
    memcpy(sizes, default_sizes, sizeof default_sizes);
    for (int i = 0; i < ndists; i++)
        dists[i] = i;
    char options[1024] = ""; /* the command line, for the JUnit properties */

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        snprintf(options + strlen(options), sizeof options - strlen(options), "%s%s",
                 i > 1 ? " " : "", a);
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            print_help();
            return 0;
        }
        if (strcmp(a, "--pairs") == 0) {
            cfg.pairs = 1;
            continue;
        }
        if (strcmp(a, "--descending") == 0) {
            cfg.descending = 1;
            continue;
        }
        if (strcmp(a, "--list") == 0) {
            list_only = 1;
            continue;
        }
        if (strcmp(a, "--tap") == 0) {
            tap_mode = 1;
            continue;
        }
        static const char *const with_value[] = {"--api", "--interop", "--algo", "--scan",
                                                 "--sizes", "--dists", "--types", "--bits",
                                                 "--seed", "--device", "--junit", "--corrupt"};
        size_t w = 0;
        while (w < sizeof with_value / sizeof with_value[0] && strcmp(a, with_value[w]) != 0)
            w++;
        if (w == sizeof with_value / sizeof with_value[0]) {
            if (a[0] == '-')
                usage_error("unknown option '%s'", a);
            usage_error("unexpected argument '%s'", a);
        }
        if (i + 1 >= argc)
            usage_error("missing value for %s", a);
        const char *v = argv[++i];
        snprintf(options + strlen(options), sizeof options - strlen(options), " %s", v);
        if (strcmp(a, "--api") == 0)
            parse_names(a, v, api_names, NAPIS, apis, &napis);
        else if (strcmp(a, "--interop") == 0)
            parse_names(a, v, interop_names, NINTEROP, variants_interop, &ninterop);
        else if (strcmp(a, "--algo") == 0)
            parse_names(a, v, algo_names, NALGOS, algos, &nalgos), algos_given = 1;
        else if (strcmp(a, "--scan") == 0)
            parse_names(a, v, scan_names, NSCANS, scans, &nscans);
        else if (strcmp(a, "--dists") == 0)
            parse_names(a, v, dist_names, NDISTS, dists, &ndists);
        else if (strcmp(a, "--types") == 0)
            parse_names(a, v, type_names, NTYPES, types, &ntypes);
        else if (strcmp(a, "--sizes") == 0)
            parse_sizes(v, sizes, &nsizes);
        else if (strcmp(a, "--bits") == 0)
            bits_arg = v;
        else if (strcmp(a, "--seed") == 0) {
            if (parse_u64(v, UINT64_MAX, &seed) != 0)
                usage_error("bad --seed value '%s': expected a decimal integer 0..%" PRIu64, v,
                            UINT64_MAX);
        } else if (strcmp(a, "--device") == 0) {
            if (parse_u64(v, 65535, &device_index) != 0)
                usage_error("bad --device value '%s': expected a device index 0..65535", v);
            device_given = 1;
        } else if (strcmp(a, "--junit") == 0) {
            if (!*v)
                usage_error("bad --junit value '': expected a file name");
            junit_path = v;
        } else {
            if (parse_u64(v, UINT64_MAX, &corrupt) != 0 || corrupt == 0)
                usage_error("bad --corrupt value '%s': expected a case number 1..N", v);
        }
    }
    if (bits_arg) {
        /* LO:HI, both decimal, 0 <= LO < HI <= the narrowest selected type */
        const char *colon = strchr(bits_arg, ':');
        char lo_s[32] = "", hi_s[32] = "";
        uint64_t lo = 0, hi = 0;
        if (!colon || (size_t)(colon - bits_arg) >= sizeof lo_s || strlen(colon + 1) >= sizeof hi_s)
            usage_error("bad --bits value '%s': expected LO:HI", bits_arg);
        memcpy(lo_s, bits_arg, (size_t)(colon - bits_arg));
        snprintf(hi_s, sizeof hi_s, "%s", colon + 1);
        if (parse_u64(lo_s, 64, &lo) != 0 || parse_u64(hi_s, 64, &hi) != 0 || lo >= hi)
            usage_error("bad --bits value '%s': expected LO:HI with 0 <= LO < HI <= 64", bits_arg);
        for (int t = 0; t < ntypes; t++)
            if (hi > 8 * key_bytes(types[t]))
                usage_error("bad --bits value '%s': HI exceeds the %u bits of type %s", bits_arg,
                            8 * key_bytes(types[t]), type_names[types[t]]);
        cfg.bits_given = 1;
        cfg.bit_lo = (unsigned)lo;
        cfg.bit_hi = (unsigned)hi;
    }

    /* The cases, in output order. */
    int use_host = 0, use_interop = 0;
    for (int i = 0; i < napis; i++)
        use_host |= apis[i] == 0, use_interop |= apis[i] == 1;
    int variants[1 + MAX_LIST], nvariants = 0;
    if (use_host)
        variants[nvariants++] = 0;
    if (use_interop)
        for (int i = 0; i < ninterop; i++)
            variants[nvariants++] = 1 + variants_interop[i];
    size_t max_cases = (size_t)nvariants * ntypes * nalgos * nscans * ndists * nsizes;
    run_case *cases = malloc((max_cases ? max_cases : 1) * sizeof *cases);
    if (!cases) {
        fprintf(stderr, PROG ": out of host memory\n");
        return 1;
    }
    int ncases = 0;
    for (int v = 0; v < nvariants; v++)
        for (int t = 0; t < ntypes; t++)
            for (int a = 0; a < nalgos; a++)
                for (int s = 0; s < nscans; s++) {
                    int onesweep = algo_ids[algos[a]] == ZESORT_ALGO_ONESWEEP;
                    if (onesweep && s > 0)
                        continue; /* no scan step: once */
                    if (variants[v] && !onesweep && scans[s] == 0)
                        continue; /* appended sorts have no host scan */
                    for (int d = 0; d < ndists; d++)
                        for (int k = 0; k < nsizes; k++)
                            cases[ncases++] = (run_case){variants[v], types[t], algos[a],
                                                         onesweep ? -1 : scans[s], dists[d],
                                                         sizes[k]};
                }
    if (ncases == 0) /* only interop variants, no onesweep, --scan host */
        usage_error("bad --scan value: appended (interop) sorts have no host scan: the options "
                    "select no case");
    if (corrupt > (uint64_t)ncases)
        usage_error("bad --corrupt value '%" PRIu64 "': there are only %d cases", corrupt, ncases);

    char desc[256];
    if (list_only) {
        for (int i = 0; i < ncases; i++) {
            describe(&cases[i], desc, sizeof desc);
            printf("%s\n", desc);
        }
        free(cases);
        return 0;
    }

    /* Host memory: input + keys (8 bytes each), values (4), reference (16). */
    uint64_t max_n = 1;
    for (int i = 0; i < nsizes; i++) {
        uint64_t m = use_interop ? indirect_max_n(sizes[i]) : sizes[i];
        if (m > max_n)
            max_n = m;
    }
    {
        long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
        uint64_t need = max_n * (8 + 8 + 4 + sizeof(ref_item)) + (use_interop ? max_n * 8 : 0);
        if (pages > 0 && page > 0 && need > (uint64_t)pages * (uint64_t)page)
            usage_error("bad --sizes value: the largest size needs %" PRIu64
                        " MiB of host memory, this machine has %" PRIu64 " MiB",
                        need >> 20, ((uint64_t)pages * (uint64_t)page) >> 20);
    }
    /* Devices: the interop device (an index that does not exist is a usage
     * error), then the host API's context. No driver: every case is skipped;
     * a failed set-up: every case fails (the counts stay those of --list). */
    zesort_context *ctx = NULL;
    int skip_all = 0, fail_all = 0, exit_status = 0;
    char all_reason[512] = "", device_desc[600] = "";
    if (use_interop || device_given) {
        int64_t ndev = 0;
        int f = ze_find_device(device_index, &ndev, all_reason, sizeof all_reason);
        if (f == 77)
            skip_all = 1;
        else if (f < 0)
            usage_error("bad --device value '%" PRIu64 "': there are %" PRId64
                        " Level Zero devices (0..%" PRId64 ")", device_index, ndev, ndev - 1);
    }
    FILE *junit = NULL;
    if (junit_path) {
        junit = fopen(junit_path, "w");
        if (!junit)
            usage_error("bad --junit value '%s': cannot write: %s", junit_path, strerror(errno));
    }
    time_t started = time(NULL);
    if (tap_mode)
        printf("TAP version 13\n");
    if (!skip_all && use_host) {
        zesort_status st = zesort_create(ZESORT_BACKEND_LEVEL_ZERO, &ctx);
        if (st == ZESORT_ERROR_NO_DEVICE) {
            skip_all = 1;
            snprintf(all_reason, sizeof all_reason, "no Level Zero device: %s",
                     zesort_last_error(NULL));
        } else if (st != ZESORT_OK) {
            fail_all = 1;
            snprintf(all_reason, sizeof all_reason, "zesort_create(level-zero): %s: %s",
                     zesort_status_name(st), zesort_last_error(NULL));
        } else {
            snprintf(device_desc, sizeof device_desc, "host: %s", zesort_context_device(ctx));
            note("host API device: %s, flavor %s", zesort_context_device(ctx),
                 zesort_context_flavor(ctx));
        }
    }
    if (!skip_all && !fail_all && use_interop) {
        note("interop device %" PRIu64 ": %s, %s", device_index, z.device_name,
             has_sub_groups_of_32(z.device) ? "sub-groups of 32 (sg flavor)"
                                            : "no sub-groups of 32 (portable flavor)");
        snprintf(device_desc + strlen(device_desc), sizeof device_desc - strlen(device_desc),
                 "%sinterop: %s", device_desc[0] ? "; " : "", z.device_name);
    } else if (!skip_all && !fail_all && device_given) {
        note("note: --device applies to interop cases only; the host API uses the default device");
    }

    input = malloc(max_n * 8);
    keys = malloc(max_n * 8);
    values = malloc(max_n * sizeof *values);
    ref = malloc(max_n * sizeof *ref);
    result *results = calloc((size_t)(ncases ? ncases : 1), sizeof *results);
    if (!results) {
        fprintf(stderr, PROG ": out of host memory\n");
        return 1;
    }
    if (!skip_all && !fail_all && (!input || !keys || !values || !ref)) {
        fail_all = 1;
        snprintf(all_reason, sizeof all_reason, "out of host memory for %" PRIu64 " keys", max_n);
    }
    if (!skip_all && !fail_all && use_interop) {
        char *err = ze_setup((size_t)max_n * 8 + 64);
        if (err) {
            fail_all = 1;
            snprintf(all_reason, sizeof all_reason, "%s", err);
            free(err);
        }
    }
    if (skip_all)
        note("SKIP: %s", all_reason);
    if (fail_all) {
        fprintf(stderr, PROG ": %s\n", all_reason);
        note("FAIL: %s", all_reason);
    }
    note("seed %" PRIu64 ", %s%s%s, %d cases", seed, cfg.pairs ? "key/value pairs" : "keys only",
         cfg.descending ? ", descending" : "", cfg.bits_given ? ", bit range" : "", ncases);
    if (tap_mode)
        printf("1..%d\n", ncases);

    /* Table header and rows: a row is a run of cases that differ only in n. */
    int failures = 0, skips = 0, first_failure = -1;
    if (!tap_mode && !skip_all && !fail_all) {
        printf("%-26s %-4s %-8s %-6s %-10s", "api", "type", "algo", "scan", "dist");
        for (int s = 0; s < nsizes; s++)
            printf(" %8" PRIu64, sizes[s]);
        printf("\n");
    }
    for (int i = 0; i < ncases; i++) {
        const run_case *c = &cases[i];
        result *r = &results[i];
        if (skip_all || fail_all) {
            r->verdict = skip_all ? R_SKIP : R_ERROR;
            r->message = strdup(all_reason);
            failures += fail_all;
        } else {
            int row_start = i % nsizes == 0;
            if (!tap_mode && row_start) {
                char api[64];
                snprintf(api, sizeof api, "%s%s", c->variant ? "interop " : "host",
                         c->variant ? interop_names[c->variant - 1] : "");
                printf("%-26s %-4s %-8s %-6s %-10s", api, type_names[c->type], algo_names[c->algo],
                       c->scan < 0 ? "-" : scan_names[c->scan], dist_names[c->dist]);
                fflush(stdout);
            }
            unsigned kb = key_bytes(c->type);
            fill(input, c->n, c->type, (unsigned)c->dist, seed);
            memcpy(keys, input, c->n * kb);
            for (uint64_t k = 0; k < c->n; k++)
                values[k] = (uint32_t)k;
            *r = c->variant ? run_interop(c) : run_host(ctx, c);
            if (r->verdict == R_SKIP && algos_given) {
                r->verdict = R_ERROR; /* an algorithm asked for must work */
            }
            if (r->verdict == R_PASS) {
                if ((uint64_t)i + 1 == corrupt) {
                    if (c->n)
                        keys[0] ^= 1;
                    else
                        r->message = strdup("--corrupt: no keys to corrupt; reported as failed");
                }
                make_reference(c->n, c->type);
                if (!r->message)
                    r->message = check_output(c->n, c->type);
                if (r->message)
                    r->verdict = R_FAIL;
            }
            if (r->verdict == R_FAIL || r->verdict == R_ERROR) {
                failures++;
                if (first_failure < 0)
                    first_failure = i;
            }
            skips += r->verdict == R_SKIP;
            if (!tap_mode) {
                printf(" %8s", verdict_names[r->verdict]);
                if ((i + 1) % nsizes == 0)
                    printf("\n");
                fflush(stdout);
            }
        }
        if (tap_mode) {
            describe(c, desc, sizeof desc);
            tap_case(i + 1, desc, r);
        }
    }

    if (skip_all) {
        exit_status = 77;
    } else if (fail_all) {
        exit_status = 1;
    } else {
        note("%d of %d cases passed%s", ncases - failures - skips, ncases,
             skips ? ", some skipped (algorithm unsupported on this device)" : "");
        if (skips)
            note("%d skipped", skips);
        if (failures) {
            describe(&cases[first_failure], desc, sizeof desc);
            note("first failure: %s: %s", desc, results[first_failure].message);
            exit_status = 1;
        }
    }
    if (junit) {
        if (write_junit(junit, cases, results, ncases, device_desc[0] ? device_desc : "none", seed,
                        options, started) != 0 || fclose(junit) != 0) {
            fprintf(stderr, PROG ": writing %s failed\n", junit_path);
            exit_status = 1;
        }
    }
    for (int i = 0; i < ncases; i++)
        free(results[i].message);
    free(results);
    free(input);
    free(values);
    free(ref);
    free(keys);
    free(cases);
    if (use_interop && !skip_all)
        ze_teardown();
    zesort_destroy(ctx);
    return exit_status;
}
