/*
 * main.c — entry point of the `zesort` command-line tool: picks the command,
 * answers --help and --version, and returns the command's exit status
 * (0 success, 1 failure, 2 usage error; see cli.h).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

typedef int (*command_fn)(int argc, char **argv);

static const struct {
    const char *name;
    command_fn run;
} commands[] = {
    {"sort", cli_cmd_sort},
    {"argsort", cli_cmd_argsort},
    {"topk", cli_cmd_topk},
    {"bench", cli_cmd_bench},
    {"info", cli_cmd_info},
    {"demo", cli_cmd_demo},
    {"mpi-sort", cli_cmd_mpi_sort},   /* run zesort-mpi (cmd_mpi.c) */
    {"mpi-bench", cli_cmd_mpi_bench},
};

static int finish_stdout(int rc)
{
    /* A full disk or closed pipe on stdout is an error, not silent success. */
    if (fflush(stdout) != 0 && rc == 0)
        return cli_fail("cannot write to standard output");
    return rc;
}

int main(int argc, char **argv)
{
    /* Before any backend: what is installed now (a sanitizer's handler, an
     * inherited "ignore") is respected, what a driver installs later is not. */
    cli_signals_init();
    if (argc < 2)
        return cli_usage(NULL, "missing command (sort, argsort, topk, bench, info, demo, "
                               "mpi-sort, mpi-bench, help)");
    const char *cmd = argv[1];

    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0)
        return finish_stdout(cli_print_help(NULL) == 0 ? 0 : 1);
    if (strcmp(cmd, "--version") == 0) {
        printf("zesort %s\n", zesort_version());
        return finish_stdout(0);
    }
    if (strcmp(cmd, "help") == 0) {
        if (argc > 3)
            return cli_usage(NULL, "help takes at most one command name");
        if (cli_print_help(argc == 3 ? argv[2] : NULL) != 0)
            return cli_usage(NULL, "unknown command '%s'", argv[2]);
        return finish_stdout(0);
    }

    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i) {
        if (strcmp(cmd, commands[i].name) != 0)
            continue;
        /* Help wins over everything else on the line, even bad flags. */
        if (cli_wants_help(argc - 2, argv + 2)) {
            cli_print_help(cmd);
            return finish_stdout(0);
        }
        return finish_stdout(commands[i].run(argc - 2, argv + 2));
    }
    if (cmd[0] == '-')
        return cli_usage(NULL, "unknown option '%s'", cmd);
    return cli_usage(NULL, "unknown command '%s'", cmd);
}
