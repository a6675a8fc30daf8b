/*
 * memory_budget.c — how much host memory zesort can use. `bench`, `demo` and
 * `mpi-bench` (its ranks on one machine together) refuse an n whose data
 * cannot fit in this machine before making any (a demo of 2^32 keys
 * allocated 3 x 16 GiB and was OOM-killed); `sort` stops
 * reading an input beyond half of what is available now (an endless
 * /dev/zero grew to 6 GB and was OOM-killed). "Available" is the least of
 * the kernel's estimate (MemAvailable), what this process's memory cgroup
 * still allows, and what its address-space limit (ulimit -v) leaves.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cli.h"

uint64_t cli_host_memory_total(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
}

int cli_host_memory_excess(const char *what, uint64_t n, uint64_t bytes, char *msg, size_t cap)
{
    uint64_t phys = cli_host_memory_total();
    if (!phys || bytes <= phys)
        return 0;
    snprintf(msg, cap, "%s n=%llu: its data takes %.1f GiB of host memory, more than this "
             "machine has (%.1f GiB)", what, (unsigned long long)n, (double)bytes / (1u << 30),
             (double)phys / (1u << 30));
    return 1;
}

int cli_check_host_memory(const char *what, uint64_t n, uint64_t bytes)
{
    char msg[256];
    return cli_host_memory_excess(what, n, bytes, msg, sizeof msg) ? cli_fail("%s", msg) : 0;
}

/* The first number in the file at path (times `scale`), or UINT64_MAX when
 * there is none ("max" in a cgroup file: no limit). */
static uint64_t read_number(const char *path, const char *key, uint64_t scale)
{
    FILE *f = fopen(path, "re");
    if (!f)
        return UINT64_MAX;
    char line[256];
    uint64_t v = UINT64_MAX;
    size_t klen = key ? strlen(key) : 0;
    while (fgets(line, sizeof line, f)) {
        if (key && strncmp(line, key, klen) != 0)
            continue;
        uint64_t x;
        if (sscanf(line + klen, " %" SCNu64, &x) == 1)
            v = x * scale;
        break;
    }
    fclose(f);
    return v;
}

/* What this process's memory cgroup (v2, or v1's memory controller) still
 * allows: its limit minus its use, or UINT64_MAX without a limit. */
static uint64_t cgroup_room(void)
{
    FILE *f = fopen("/proc/self/cgroup", "re");
    if (!f)
        return UINT64_MAX;
    char line[512], limit[640], usage[640];
    uint64_t room = UINT64_MAX;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        const char *path;
        if (strncmp(line, "0::", 3) == 0) {
            path = line + 3;
            snprintf(limit, sizeof limit, "/sys/fs/cgroup%s/memory.max", path);
            snprintf(usage, sizeof usage, "/sys/fs/cgroup%s/memory.current", path);
        } else if ((path = strstr(line, ":memory:")) != NULL) {
            path += 8;
            snprintf(limit, sizeof limit, "/sys/fs/cgroup/memory%s/memory.limit_in_bytes", path);
            snprintf(usage, sizeof usage, "/sys/fs/cgroup/memory%s/memory.usage_in_bytes", path);
        } else {
            continue;
        }
        uint64_t max = read_number(limit, NULL, 1), used = read_number(usage, NULL, 1);
        if (max != UINT64_MAX && used != UINT64_MAX) {
            uint64_t r = max > used ? max - used : 0;
            room = r < room ? r : room;
        }
    }
    fclose(f);
    return room;
}

/* What the address-space limit (ulimit -v) leaves, or UINT64_MAX. */
static uint64_t address_space_room(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return UINT64_MAX;
    long page = sysconf(_SC_PAGE_SIZE);
    uint64_t used = read_number("/proc/self/statm", NULL, page > 0 ? (uint64_t)page : 4096);
    if (used == UINT64_MAX)
        used = 0;
    return (uint64_t)rl.rlim_cur > used ? (uint64_t)rl.rlim_cur - used : 0;
}

uint64_t cli_host_memory_available(void)
{
    uint64_t avail = read_number("/proc/meminfo", "MemAvailable:", 1024);
    if (avail == UINT64_MAX) {
        long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
        avail = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : UINT64_MAX;
    }
    uint64_t cg = cgroup_room(), as = address_space_room();
    avail = cg < avail ? cg : avail;
    return as < avail ? as : avail;
}
