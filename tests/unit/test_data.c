/* test_data.c — see test_data.h. */
#include "test_data.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const uint64_t td_sizes[] = {0, 1, 31, 32, 255, 256, 257, 4097, 65537, 1000003};
const size_t td_size_count = sizeof td_sizes / sizeof td_sizes[0];

const char *td_dist_name(td_dist d)
{
    static const char *const names[TD_DIST_COUNT] = {
        "uniform", "all-equal", "sorted", "reversed", "few-unique", "high-bits", "low-bits"};
    return d < TD_DIST_COUNT ? names[d] : "?";
}

/* splitmix64: tiny, good enough, and identical on every platform */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

void td_fill(uint32_t *keys, uint64_t n, td_dist d, uint64_t seed)
{
    uint64_t state = seed * 1000003u + n * 31u + (uint64_t)d;
    uint32_t few[7];
    for (int i = 0; i < 7; i++)
        few[i] = (uint32_t)next_random(&state);
    const uint32_t constant = (uint32_t)next_random(&state);

    for (uint64_t i = 0; i < n; i++) {
        uint32_t r = (uint32_t)(next_random(&state) >> 16);
        switch (d) {
        case TD_UNIFORM: keys[i] = r; break;
        case TD_ALL_EQUAL: keys[i] = constant; break;
        /* spread over the whole range so that every digit position varies */
        case TD_SORTED: keys[i] = (uint32_t)(i * (UINT64_C(0xFFFFFFFF) / (n ? n : 1))); break;
        case TD_REVERSED: keys[i] = (uint32_t)((n - 1 - i) * (UINT64_C(0xFFFFFFFF) / (n ? n : 1))); break;
        case TD_FEW_UNIQUE: keys[i] = few[r % 7]; break;
        case TD_HIGH_BITS: keys[i] = r & 0xFF000000u; break;
        case TD_LOW_BITS: keys[i] = r & 0xFFu; break;
        default: keys[i] = 0; break;
        }
    }
}

/* Live td_alloc arrays; a test holds a handful at a time. */
#define TD_MAX_LIVE 64
static void *live[TD_MAX_LIVE];

uint32_t *td_alloc(uint64_t n)
{
    uint32_t *p = malloc((n ? n : 1) * sizeof *p);
    ck_assert_msg(p != NULL, "test out of host memory (%llu keys)", (unsigned long long)n);
    for (int i = 0; i < TD_MAX_LIVE; i++)
        if (!live[i]) {
            live[i] = p;
            return p;
        }
    free(p);
    ck_abort_msg("more than %d test arrays alive", TD_MAX_LIVE);
    return NULL;
}

void td_free(void *p)
{
    for (int i = 0; p && i < TD_MAX_LIVE; i++)
        if (live[i] == p)
            live[i] = NULL;
    free(p);
}

void td_free_all(void)
{
    for (int i = 0; i < TD_MAX_LIVE; i++) {
        free(live[i]);
        live[i] = NULL;
    }
}

uint32_t *td_copy(const uint32_t *keys, uint64_t n)
{
    uint32_t *p = td_alloc(n);
    if (n)
        memcpy(p, keys, n * sizeof *p);
    return p;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

uint32_t *td_qsorted(const uint32_t *keys, uint64_t n)
{
    uint32_t *p = td_copy(keys, n);
    qsort(p, n, sizeof *p, cmp_u32);
    return p;
}

int64_t td_first_diff(const uint32_t *a, const uint32_t *b, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return (int64_t)i;
    return -1;
}

int td_skip_opencl(void)
{
    const char *skip = getenv("ZESORT_TEST_SKIP_OPENCL");
    if (!skip || strcmp(skip, "1") != 0)
        return 0;
    printf("opencl tests skipped (ZESORT_TEST_SKIP_OPENCL=1)\n");
    return 1;
}

int td_run_suite(Suite *s)
{
    SRunner *sr = srunner_create(s);
    if (!getenv("CK_FORK"))
        srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    td_free_all();
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
