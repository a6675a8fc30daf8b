/*
 * test_cm_reference.c — the oracle itself is checked: hand-computed count and
 * prefix tables and bucket outputs (literal numbers), bucket = stable
 * partition by digit, and the full sort equal to qsort on every size and
 * distribution of the contract.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "cm_reference.h"
#include "test_data.h"

/* ---- hand-checked tables ---- */

START_TEST(count_prefix_one_partial_chunk)
{
    /* 7 keys, 2-bit digits at shift 0: digits 3 1 2 1 0 3 3 */
    const uint32_t keys[7] = {3, 1, 2, 1, 0, 3, 3};
    uint32_t table[4];
    cmref_count(keys, 7, 2, 0, table);
    const uint32_t count[4] = {1, 2, 1, 3};
    ck_assert_mem_eq(table, count, sizeof count);
    cmref_prefix(table, 4);
    const uint32_t prefix[4] = {0, 1, 3, 4};
    ck_assert_mem_eq(table, prefix, sizeof prefix);
}
END_TEST

START_TEST(count_prefix_two_chunks_bin_major)
{
    /* 300 keys, digit = i % 4 placed at bits 30..31: chunk 0 (256 keys) has
     * 64 of each digit, chunk 1 (44 keys) 11 of each. Bin-major table. */
    uint32_t keys[300];
    for (uint32_t i = 0; i < 300; i++)
        keys[i] = ((i % 4) << 30) | (i & 0x3FFFFFFFu);
    ck_assert_uint_eq(cmref_chunks(300), 2);
    uint32_t table[8];
    cmref_count(keys, 300, 2, 30, table);
    const uint32_t count[8] = {64, 11, 64, 11, 64, 11, 64, 11};
    ck_assert_mem_eq(table, count, sizeof count);
    cmref_prefix(table, 8);
    const uint32_t prefix[8] = {0, 64, 75, 139, 150, 214, 225, 289};
    ck_assert_mem_eq(table, prefix, sizeof prefix);
}
END_TEST

START_TEST(count_four_bit_digits_at_shift)
{
    /* 4-bit digit at shift 12 of 0x0000A000 is 10; of 0x0000F123 is 15. */
    const uint32_t keys[5] = {0xA000, 0xF123, 0xA0FF, 0x0FFF, 0xFFFFF000};
    uint32_t table[16];
    cmref_count(keys, 5, 4, 12, table);
    uint32_t count[16] = {0};
    count[0] = 1;  /* 0x0FFF */
    count[10] = 2; /* 0xA000, 0xA0FF */
    count[15] = 2; /* 0xF123, 0xFFFFF000 */
    ck_assert_mem_eq(table, count, sizeof count);
}
END_TEST

START_TEST(prefix_wraps_like_uint32)
{
    uint32_t table[3] = {0xFFFFFFFFu, 2, 5};
    cmref_prefix(table, 3);
    ck_assert_uint_eq(table[0], 0);
    ck_assert_uint_eq(table[1], 0xFFFFFFFFu);
    ck_assert_uint_eq(table[2], 1);
}
END_TEST

START_TEST(bucket_small_is_stable)
{
    /* 4-bit digits at shift 0: 2 1 1 2 0 -> 0x10 | 0x01 0x11 | 0x12 0x02 */
    const uint32_t in[5] = {0x12, 0x01, 0x11, 0x02, 0x10};
    uint32_t table[16], out[5];
    cmref_count(in, 5, 4, 0, table);
    cmref_prefix(table, 16);
    cmref_bucket(in, out, 5, 4, 0, table);
    const uint32_t expect[5] = {0x10, 0x01, 0x11, 0x12, 0x02};
    ck_assert_mem_eq(out, expect, sizeof expect);
}
END_TEST

START_TEST(sort_small_literal)
{
    uint32_t keys[6] = {0xDEADBEEFu, 7, 0, 0xFFFFFFFFu, 7, 0x80000000u};
    const uint32_t expect[6] = {0, 7, 7, 0x80000000u, 0xDEADBEEFu, 0xFFFFFFFFu};
    ck_assert_int_eq(cmref_sort_u32(keys, 6, 2), 0);
    ck_assert_mem_eq(keys, expect, sizeof expect);
}
END_TEST

START_TEST(sort_rejects_bad_bits)
{
    uint32_t keys[2] = {2, 1};
    ck_assert_int_eq(cmref_sort_u32(keys, 2, 3), -1);
    ck_assert_uint_eq(keys[0], 2);
}
END_TEST

/* ---- bucket == stable partition by digit (an independent second model) ---- */

static void stable_partition(const uint32_t *in, uint32_t *out, uint64_t n, unsigned bits,
                             unsigned shift)
{
    uint64_t o = 0;
    for (uint32_t d = 0; d < (1u << bits); d++)
        for (uint64_t i = 0; i < n; i++)
            if (((in[i] >> shift) & ((1u << bits) - 1u)) == d)
                out[o++] = in[i];
}

START_TEST(bucket_equals_stable_partition)
{
    static const uint64_t sizes[] = {1, 31, 32, 33, 255, 256, 257, 1000, 4097};
    static const unsigned shifts2[] = {0, 14, 30}, shifts4[] = {0, 12, 28};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        for (int dist = 0; dist < TD_DIST_COUNT; dist++) {
            for (unsigned bits = 2; bits <= 4; bits += 2) {
                for (int k = 0; k < 3; k++) {
                    unsigned shift = bits == 2 ? shifts2[k] : shifts4[k];
                    uint64_t n = sizes[s];
                    uint32_t *in = td_alloc(n), *out = td_alloc(n), *want = td_alloc(n);
                    uint32_t *table = td_alloc((1u << bits) * cmref_chunks(n));
                    td_fill(in, n, (td_dist)dist, 1);
                    cmref_count(in, n, bits, shift, table);
                    cmref_prefix(table, (1u << bits) * cmref_chunks(n));
                    cmref_bucket(in, out, n, bits, shift, table);
                    stable_partition(in, want, n, bits, shift);
                    int64_t d = td_first_diff(out, want, n);
                    ck_assert_msg(d < 0, "n=%llu %s bits=%u shift=%u: first diff at %lld",
                                  (unsigned long long)n, td_dist_name((td_dist)dist), bits, shift,
                                  (long long)d);
                    td_free(in), td_free(out), td_free(want), td_free(table);
                }
            }
        }
    }
}
END_TEST

/* ---- full sort vs qsort: loop index = size * DIST_COUNT + distribution ---- */

static void check_sort(int loop, unsigned bits)
{
    uint64_t n = td_sizes[loop / TD_DIST_COUNT];
    td_dist dist = (td_dist)(loop % TD_DIST_COUNT);
    uint32_t *keys = td_alloc(n);
    td_fill(keys, n, dist, 7);
    uint32_t *want = td_qsorted(keys, n);
    ck_assert_int_eq(cmref_sort_u32(keys, n, bits), 0);
    int64_t d = td_first_diff(keys, want, n);
    ck_assert_msg(d < 0, "cm%u n=%llu %s: first diff at %lld", bits, (unsigned long long)n,
                  td_dist_name(dist), (long long)d);
    td_free(keys);
    td_free(want);
}

START_TEST(sort_cm2_vs_qsort) { check_sort(_i, 2); }
END_TEST
START_TEST(sort_cm4_vs_qsort) { check_sort(_i, 4); }
END_TEST

static Suite *cm_reference_suite(void)
{
    Suite *s = suite_create("cm_reference");
    TCase *tables = tcase_create("tables");
    tcase_add_test(tables, count_prefix_one_partial_chunk);
    tcase_add_test(tables, count_prefix_two_chunks_bin_major);
    tcase_add_test(tables, count_four_bit_digits_at_shift);
    tcase_add_test(tables, prefix_wraps_like_uint32);
    tcase_add_test(tables, bucket_small_is_stable);
    tcase_add_test(tables, sort_small_literal);
    tcase_add_test(tables, sort_rejects_bad_bits);
    tcase_add_test(tables, bucket_equals_stable_partition);
    tcase_add_checked_fixture(tables, NULL, td_free_all);
    suite_add_tcase(s, tables);

    TCase *sorts = tcase_create("sort_vs_qsort");
    tcase_set_timeout(sorts, 300);
    tcase_add_checked_fixture(sorts, NULL, td_free_all);
    int loops = (int)td_size_count * TD_DIST_COUNT;
    tcase_add_loop_test(sorts, sort_cm2_vs_qsort, 0, loops);
    tcase_add_loop_test(sorts, sort_cm4_vs_qsort, 0, loops);
    suite_add_tcase(s, sorts);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(cm_reference_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
