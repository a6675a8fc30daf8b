/* ze_cl_driver: SPIR-V -> SPIR 1.2 LLVM bitcode with llvm-spirv.
 *
 * PoCL (Debian 12) has no SPIR-V consumer but builds SPIR 1.2 bitcode
 * (cl_khr_spir); `llvm-spirv-15 -r --spirv-target-env=CL1.2` turns the
 * SPIR-V that `ocloc -spv_only` emits into such bitcode (LLVM 15, the LLVM
 * PoCL is built on). The tool runs in a private temporary directory; its
 * output becomes the build log on failure. Results are cached in memory by
 * content, so a module built twice runs the tool once. */
#include "zecl_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

struct cache_entry {
    struct cache_entry *next;
    unsigned char *spirv;
    size_t spirv_size;
    unsigned char *bc;
    size_t bc_size;
};

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cache_entry *cache;

/* ZE_CL_DRIVER_LLVM_SPIRV, else llvm-spirv-15 on PATH, else /usr/bin. */
static char *find_tool(void)
{
    const char *env = getenv("ZE_CL_DRIVER_LLVM_SPIRV");
    if (env && *env)
        return zecl_strdup(env);
    const char *path = getenv("PATH");
    if (path) {
        char *copy = zecl_strdup(path);
        for (char *save = NULL, *dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
            char *cand = zecl_asprintf("%s/llvm-spirv-15", dir);
            if (cand && access(cand, X_OK) == 0) {
                free(copy);
                return cand;
            }
            free(cand);
        }
        free(copy);
    }
    return zecl_strdup("/usr/bin/llvm-spirv-15");
}

static int write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    int ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok;
}

static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? 2 * cap : 65536;
            unsigned char *nb = realloc(buf, cap + 1);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    buf[n] = 0; /* text files (the log) are used as strings */
    *size = n;
    return buf;
}

static int run_tool(const void *spirv, size_t size, unsigned char **bc, size_t *bc_size, char **log)
{
    const char *tmp = getenv("TMPDIR");
    char *dir = zecl_asprintf("%s/ze_cl_driver.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!dir || !mkdtemp(dir)) {
        *log = zecl_asprintf("ze_cl_driver: cannot create a temporary directory: %s", strerror(errno));
        free(dir);
        return 0;
    }
    char *in = zecl_asprintf("%s/in.spv", dir);
    char *out = zecl_asprintf("%s/out.bc", dir);
    char *logf = zecl_asprintf("%s/log.txt", dir);
    char *tool = find_tool();
    int ok = 0;
    if (!in || !out || !logf || !tool) {
        *log = zecl_strdup("ze_cl_driver: out of host memory");
        goto done;
    }
    if (!write_file(in, spirv, size)) {
        *log = zecl_asprintf("ze_cl_driver: cannot write %s: %s", in, strerror(errno));
        goto done;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, logf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    char *argv[] = {tool, "-r", "--spirv-target-env=CL1.2", in, "-o", out, NULL};
    pid_t pid;
    int err = posix_spawn(&pid, tool, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (err != 0) {
        *log = zecl_asprintf("ze_cl_driver: cannot run %s: %s (install llvm-spirv-15 or set "
                             "ZE_CL_DRIVER_LLVM_SPIRV)", tool, strerror(err));
        goto done;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    size_t log_size = 0;
    char *tool_log = (char *)read_file(logf, &log_size);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && (*bc = read_file(out, bc_size)) != NULL) {
        ok = 1;
    } else {
        *log = zecl_asprintf("ze_cl_driver: SPIR-V -> LLVM bitcode translation by %s failed "
                             "(status %d):\n%s", tool, status, tool_log ? tool_log : "");
    }
    free(tool_log);
done:
    if (in) unlink(in);
    if (out) unlink(out);
    if (logf) unlink(logf);
    rmdir(dir);
    free(in);
    free(out);
    free(logf);
    free(tool);
    free(dir);
    return ok;
}

int zecl_spirv_to_bitcode(const void *spirv, size_t size, unsigned char **bc, size_t *bc_size, char **log)
{
    *bc = NULL;
    *log = NULL;
    pthread_mutex_lock(&cache_lock);
    for (struct cache_entry *e = cache; e; e = e->next) {
        if (e->spirv_size == size && memcmp(e->spirv, spirv, size) == 0) {
            *bc = malloc(e->bc_size);
            if (*bc) {
                memcpy(*bc, e->bc, e->bc_size);
                *bc_size = e->bc_size;
            }
            pthread_mutex_unlock(&cache_lock);
            if (!*bc)
                *log = zecl_strdup("ze_cl_driver: out of host memory");
            return *bc != NULL;
        }
    }
    pthread_mutex_unlock(&cache_lock);

    if (!run_tool(spirv, size, bc, bc_size, log))
        return 0;

    struct cache_entry *e = calloc(1, sizeof *e);
    if (e && (e->spirv = malloc(size)) && (e->bc = malloc(*bc_size))) {
        memcpy(e->spirv, spirv, size);
        e->spirv_size = size;
        memcpy(e->bc, *bc, *bc_size);
        e->bc_size = *bc_size;
        pthread_mutex_lock(&cache_lock);
        e->next = cache;
        cache = e;
        pthread_mutex_unlock(&cache_lock);
    } else if (e) {
        free(e->spirv);
        free(e);
    }
    return 1;
}
