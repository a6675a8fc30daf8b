/*
 * test_hooks.c — exists for tests only: the state behind the hooks of
 * test_hooks.h (not installed, not exported by the shared library). The
 * sort path only counts builds, notes each sort for ZESORT_TEST_SORT_LOG,
 * and (OpenCL backend) reads the extra build options a test set and whether
 * its devices are to look like plain OpenCL 1.2 GPUs. Nothing
 * here calls into the library's layers, so every layer may note here; the
 * test entry point that runs a pass on a context is debug_pass.c, above.
 */
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/test_hooks.h"

/* ---- extra -D options for OpenCL source builds ---- */

static const char *g_test_defines;

static _Atomic unsigned long g_builds;

void zs_test_count_build(void) { g_builds++; }

static _Atomic uint64_t g_budget;

static _Atomic unsigned g_view_countdown;

void zs_test_fail_view(unsigned n) { g_view_countdown = n; }

static int countdown_hit(_Atomic unsigned *countdown);

int zs_test_view_fault(void) { return countdown_hit(&g_view_countdown); }

static _Atomic unsigned g_borrow_countdown;

void zs_test_fail_borrow(unsigned n) { g_borrow_countdown = n; }

/* 1 when the countdown reaches its call (shared by the fault hooks). */
static int countdown_hit(_Atomic unsigned *countdown)
{
    unsigned left = *countdown;
    while (left && !atomic_compare_exchange_weak(countdown, &left, left - 1))
        ;
    return left == 1;
}

int zs_test_borrow_fault(void) { return countdown_hit(&g_borrow_countdown); }

void zs_test_device_budget(uint64_t bytes) { g_budget = bytes; }

uint64_t zs_test_budget(void) { return g_budget; }

unsigned long zs_test_builds(void) { return g_builds; }

static _Atomic unsigned long g_selects;

void zs_test_count_select(void) { g_selects++; }

unsigned long zs_test_selects(void) { return g_selects; }

static _Atomic uint64_t g_topk_slack;

void zs_test_topk_slack(uint64_t keys) { g_topk_slack = keys; }

uint64_t zs_test_slack(void) { return g_topk_slack; }

void zs_test_note_sort(const char *api, const char *flavor)
{
    const char *path = getenv("ZESORT_TEST_SORT_LOG");
    if (!path || !*path)
        return;
    char line[64];
    int len = snprintf(line, sizeof line, "%s %s\n", api, flavor);
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return;
    if (write(fd, line, (size_t)len) != len) { /* a test log: nothing to report to */ }
    close(fd);
}

void zs_opencl_test_defines(const char *defines) { g_test_defines = defines; }

const char *zs_test_opencl_defines(void) { return g_test_defines; }

int zs_test_opencl_plain_gpu(void)
{
    const char *v = getenv("ZESORT_TEST_OPENCL_PLAIN_GPU");
    return v && (strcmp(v, "1") == 0 || strcmp(v, "nv") == 0);
}

int zs_test_opencl_nv_gpu(void)
{
    const char *v = getenv("ZESORT_TEST_OPENCL_PLAIN_GPU");
    return v && strcmp(v, "nv") == 0;
}

int zs_test_corrupt_kernels(void)
{
    const char *v = getenv("ZESORT_TEST_CORRUPT_KERNELS");
    return v && strcmp(v, "1") == 0;
}
