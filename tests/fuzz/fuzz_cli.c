/*
 * fuzz_cli.c — libFuzzer harness: the command line's argument handling and
 * key-file reading (src/cli). The input is split at NUL bytes into up to 16
 * arguments, walked by the tokenizer (cli_args_*) as a command would, every
 * flag value tried with each value parser (count, key type, scan, bit range,
 * comma lists); the last piece is written to a file and read back with
 * cli_read_file, then checked as a key file of every type (whole keys only,
 * as `zesort sort` requires). No command is run: paths from the input never
 * reach the file system, only the harness's own temporary file.
 * Parsers must not crash, overrun, or accept what they document as invalid.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_ARGS = 16 };

static void try_parsers(const char *v)
{
    uint64_t count;
    if (cli_parse_count(v, &count) == 0 && v[0] == '\0')
        abort(); /* an empty count is not a count */
    zesort_key_type type;
    if (cli_parse_key_type(v, &type) == 0 && strcmp(cli_key_type_name(type), v) != 0)
        abort(); /* a parsed type prints back as its name */
    zesort_scan scan;
    (void)cli_parse_scan(v, &scan);
    for (unsigned bits = 32; bits <= 64; bits += 32) {
        unsigned lo = 0, hi = 0;
        if (cli_parse_bits(v, bits, &lo, &hi) == 0 && !(lo < hi && hi <= bits))
            abort(); /* documented: 0 <= LO < HI <= key bits */
    }
    size_t len = strlen(v);
    char *storage = malloc(len + 1);
    const char *pieces[32];
    if (!storage)
        abort();
    int k = cli_split_list(v, storage, pieces, 32);
    if (k > 32)
        abort();
    for (int i = 0; i < k; i++)
        if (pieces[i][0] == '\0' || strchr(pieces[i], ','))
            abort(); /* no empty piece, no comma left in a piece */
    free(storage);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    static int quiet = -1, loud = -1;
    if (!path[0]) {
        snprintf(path, sizeof path, "/tmp/zesort-fuzz-cli-%d.bin", (int)getpid());
        quiet = open("/dev/null", O_WRONLY);
        loud = dup(2);
    }
    /* The parsers report usage errors on stderr: silenced while they run,
       restored for libFuzzer's own reports. */
    fflush(stderr);
    dup2(quiet, 2);
    char *text = malloc(size + 1);
    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';
    char *argv[MAX_ARGS + 1];
    int argc = 0;
    for (char *p = text; argc < MAX_ARGS && p <= text + size; p += strlen(p) + 1)
        argv[argc++] = p;
    argv[argc] = NULL;

    (void)cli_wants_help(argc, argv);
    cli_args a;
    cli_args_init(&a, argc, argv);
    const char *operand, *value;
    int kind, steps = 0;
    while ((kind = cli_args_next(&a, &operand)) != CLI_ARG_END) {
        if (++steps > MAX_ARGS + 1)
            abort(); /* every step consumes an argument */
        if (kind == CLI_ARG_OPERAND) {
            try_parsers(operand);
        } else if (cli_args_value(&a, "sort", &value) == 0) {
            try_parsers(value);
        }
    }

    /* the last piece as a key file */
    const char *last = argv[argc - 1];
    size_t last_len = (size_t)(text + size - last);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(last, 1, last_len, f) != last_len || fclose(f) != 0)
        abort();
    void *keys = NULL;
    size_t bytes = 0;
    if (cli_read_file(path, &keys, &bytes) != 0 || bytes != last_len || !keys)
        abort();
    if (memcmp(keys, last, bytes) != 0)
        abort();
    for (int t = 0; t < 6; t++) {
        size_t kb = cli_key_size((zesort_key_type)t);
        if (bytes % kb == 0)
            (void)cli_first_unsorted(keys, bytes / kb, (zesort_key_type)t, t & 1);
    }
    free(keys);
    free(text);
    fflush(stderr);
    dup2(loud, 2);
    return 0;
}
