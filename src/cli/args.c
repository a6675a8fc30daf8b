/*
 * args.c — command-line tokenizer and value parsers. Parsing is strict: any
 * text that is not exactly a valid value is a usage error, so typos never run
 * a long sort with a silently different meaning.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void cli_args_init(cli_args *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    a->argc = argc;
    a->argv = argv;
}

int cli_args_next(cli_args *a, const char **operand)
{
    a->inline_value = NULL;
    a->flag[0] = '\0';
    while (a->pos < a->argc) {
        const char *arg = a->argv[a->pos++];
        if (!a->options_done && strcmp(arg, "--") == 0) {
            a->options_done = 1;
            continue;
        }
        /* "-" alone is an operand: standard input or output, as in sort(1)
         * (a file named "-" is "./-"). */
        if (a->options_done || arg[0] != '-' || arg[1] == '\0') {
            *operand = arg;
            return CLI_ARG_OPERAND;
        }
        const char *eq = strchr(arg, '=');
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        if (len >= sizeof a->flag)
            len = sizeof a->flag - 1; /* too long to be a known flag anyway */
        memcpy(a->flag, arg, len);
        a->flag[len] = '\0';
        a->inline_value = eq ? eq + 1 : NULL;
        return CLI_ARG_FLAG;
    }
    return CLI_ARG_END;
}

int cli_args_value(cli_args *a, const char *cmd, const char **value)
{
    if (a->inline_value) {
        *value = a->inline_value;
        return 0;
    }
    if (a->pos >= a->argc)
        return cli_usage(cmd, "option %s needs a value", a->flag);
    *value = a->argv[a->pos++];
    return 0;
}

int cli_args_no_value(cli_args *a, const char *cmd)
{
    if (a->inline_value)
        return cli_usage(cmd, "option %s takes no value", a->flag);
    return 0;
}

int cli_args_path(const char *cmd, const char *what, const char *path)
{
    if (path && !*path)
        return cli_usage(cmd, "empty file name for %s", what);
    return 0;
}

int cli_args_once(const char *cmd, const char *flag, const char *previous)
{
    if (previous)
        return cli_usage(cmd, "option %s given twice", flag);
    return 0;
}

int cli_wants_help(int argc, char **argv)
{
    for (int i = 0; i < argc; ++i) {
        if (strcmp(argv[i], "--") == 0)
            return 0;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return 1;
    }
    return 0;
}

static const char *const key_type_names[] = {"u32", "i32", "f32", "u64", "i64", "f64",
                                             "u8",  "i8",  "u16", "i16", "f16", "bf16"};

const char *cli_key_type_name(zesort_key_type type)
{
    if ((unsigned)type < sizeof key_type_names / sizeof key_type_names[0])
        return key_type_names[type];
    return "?";
}

int cli_parse_key_type(const char *text, zesort_key_type *out)
{
    for (unsigned i = 0; i < sizeof key_type_names / sizeof key_type_names[0]; ++i) {
        if (strcmp(text, key_type_names[i]) == 0) {
            *out = (zesort_key_type)i;
            return 0;
        }
    }
    return -1;
}

int cli_parse_backend(const char *text, zesort_backend *out)
{
    for (int i = ZESORT_BACKEND_AUTO; i <= ZESORT_BACKEND_CPU; ++i) {
        if (strcmp(text, zesort_backend_name((zesort_backend)i)) == 0) {
            *out = (zesort_backend)i;
            return 0;
        }
    }
    return -1;
}

int cli_parse_algo(const char *text, zesort_algo *out)
{
    for (int i = ZESORT_ALGO_AUTO; i <= ZESORT_ALGO_SMALL; ++i) {
        if (strcmp(text, zesort_algo_name((zesort_algo)i)) == 0) {
            *out = (zesort_algo)i;
            return 0;
        }
    }
    return -1;
}

zesort_context_info cli_context_info(const zesort_context *ctx)
{
    zesort_context_info info = {.size = sizeof info};
    if (ctx)
        (void)zesort_context_query(ctx, &info);
    return info;
}

static const char *const value_type_names[] = {"u32", "u64"};

const char *cli_value_type_name(zesort_value_type type)
{
    return (unsigned)type < 2 ? value_type_names[type] : "?";
}

size_t cli_value_size(zesort_value_type type)
{
    return type == ZESORT_VALUE_U64 ? 8 : 4;
}

int cli_parse_value_type(const char *text, zesort_value_type *out)
{
    for (unsigned i = 0; i < 2; ++i) {
        if (strcmp(text, value_type_names[i]) == 0) {
            *out = (zesort_value_type)i;
            return 0;
        }
    }
    return -1;
}

const char *cli_scan_name(zesort_scan scan)
{
    return scan == ZESORT_SCAN_HOST ? "host" : "device";
}

int cli_parse_scan(const char *text, zesort_scan *out)
{
    if (strcmp(text, "host") == 0)
        *out = ZESORT_SCAN_HOST;
    else if (strcmp(text, "device") == 0)
        *out = ZESORT_SCAN_DEVICE;
    else
        return -1;
    return 0;
}

/* Parses the leading decimal digits of text (no sign, no spaces). Returns how
 * many characters were consumed (0: none), or -1 on overflow. */
static int parse_decimal(const char *text, uint64_t *out)
{
    uint64_t v = 0;
    int i = 0;
    for (; text[i] >= '0' && text[i] <= '9'; ++i) {
        unsigned d = (unsigned)(text[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return i;
}

int cli_parse_bits(const char *text, unsigned key_bits, unsigned *lo, unsigned *hi)
{
    uint64_t l, h;
    int n1 = parse_decimal(text, &l);
    if (n1 <= 0 || text[n1] != ':')
        return -1;
    int n2 = parse_decimal(text + n1 + 1, &h);
    if (n2 <= 0 || text[n1 + 1 + n2] != '\0')
        return -1;
    if (!(l < h && h <= key_bits))
        return -1;
    *lo = (unsigned)l;
    *hi = (unsigned)h;
    return 0;
}

int cli_parse_count(const char *text, uint64_t *out)
{
    uint64_t v;
    int len = parse_decimal(text, &v);
    if (len <= 0)
        return -1;
    unsigned shift = 0;
    switch (text[len]) {
    case '\0': break;
    case 'k': case 'K': shift = 10; break;
    case 'm': case 'M': shift = 20; break;
    case 'g': case 'G': shift = 30; break;
    default: return -1;
    }
    if (shift && text[len + 1] != '\0')
        return -1;
    if (v > (UINT64_MAX >> shift))
        return -1;
    *out = v << shift;
    return 0;
}

int cli_split_list(const char *text, char *storage, const char **pieces, int max)
{
    strcpy(storage, text);
    int count = 0;
    char *p = storage;
    for (;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        if (*p == '\0')
            return -1;
        if (count == max)
            return -2;
        pieces[count++] = p;
        if (!comma)
            return count;
        p = comma + 1;
    }
}
