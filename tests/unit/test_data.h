/*
 * test_data.h — key generators and helpers shared by the unit tests: the
 * sizes and distributions every sort is checked on, and the qsort oracle.
 */
#ifndef ZESORT_TEST_DATA_H
#define ZESORT_TEST_DATA_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

/* Key distributions that stress different parts of a radix sort. */
typedef enum td_dist {
    TD_UNIFORM,    /* every bit random */
    TD_ALL_EQUAL,  /* one value: every key lands in one bin of every pass */
    TD_SORTED,     /* already ascending */
    TD_REVERSED,   /* descending */
    TD_FEW_UNIQUE, /* 7 distinct random values: long runs of equal digits */
    TD_HIGH_BITS,  /* key & 0xFF000000: low passes see only digit 0 */
    TD_LOW_BITS,   /* key & 0xFF: high passes see only digit 0 */
    TD_DIST_COUNT
} td_dist;

const char *td_dist_name(td_dist d);

/* Fills keys[0..n) with distribution d; same (n, d, seed) gives the same keys. */
void td_fill(uint32_t *keys, uint64_t n, td_dist d, uint64_t seed);

/* The sizes of the contract: around the sub-group (32), the chunk (256), and large. */
extern const uint64_t td_sizes[];
extern const size_t td_size_count;

/* malloc that fails the test on OOM (never returns NULL; n == 0 gives a
 * valid 1-element allocation so pointers are never NULL). The arrays are
 * tracked: the runners do not fork, so a failed assertion leaves a test
 * half way and td_free_all() then releases what it held (no leak reports
 * from LeakSanitizer on top of the real failure). */
uint32_t *td_alloc(uint64_t n);
uint32_t *td_copy(const uint32_t *keys, uint64_t n);
void td_free(void *p);
void td_free_all(void);

/* Sorts a copy with qsort: the independent oracle. */
uint32_t *td_qsorted(const uint32_t *keys, uint64_t n);

/* Index of the first difference, or -1 when equal. */
int64_t td_first_diff(const uint32_t *a, const uint32_t *b, uint64_t n);

/* Exit status of a skipped test (meson: 77). */
#define TD_SKIP_EXIT 77

/* 1 when ZESORT_TEST_SKIP_OPENCL=1 asks the opencl runs to be skipped (says
 * so on stdout), else 0. */
int td_skip_opencl(void);

/* Runs suite s in this process (CK_NOFORK unless CK_FORK is set: the runners
 * keep one device context, and a forked child would inherit the OpenCL
 * runtime's threads), then td_free_all(). Returns EXIT_SUCCESS when every
 * test passed, else EXIT_FAILURE. */
int td_run_suite(Suite *s);

#endif
