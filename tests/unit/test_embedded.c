/*
 * test_embedded.c — the kernels embedded at build time (kernel_blobs.h).
 *
 *   test_embedded SPIRV_VAL     path of spirv-val (meson: find_program('spirv-val'))
 *
 * Checks: the native target list contains skl, tgllp and dg2; every listed
 * target has a non-empty native binary (ELF, as ocloc emits) of every program,
 * compiled from the sg flavor, that names the program's kernels and (for CM)
 * was built for the right digit width; every embedded SPIR-V is accepted by
 * spirv-val; the public build facts agree with the blob table.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "programs/kernel_blobs.h"
#include "programs/kernel_select.h"
#include "zesort.h"

static const char *g_spirv_val;

static const char *program_name(zs_program p) { return zs_program_name(p); }

/* Does the blob contain `s` (a kernel name, an option)? */
/* The blob's decompressed bytes (kernel_frames.c); the test fails if its frame is corrupt. */
static const unsigned char *blob_bytes(const zs_blob *b)
{
    const unsigned char *data = NULL;
    zs_error e = {""};
    ck_assert_msg(zs_blob_data(b, &data, &e) == ZESORT_OK, "%s/%s: %s",
                  program_name(b->program), b->target, e.text);
    return data;
}

static int blob_contains(const zs_blob *b, const char *s)
{
    const unsigned char *data = blob_bytes(b);
    size_t len = strlen(s);
    for (size_t i = 0; len <= b->size && i <= b->size - len; i++)
        if (memcmp(data + i, s, len) == 0)
            return 1;
    return 0;
}

/* The programs' kernels (plan.h). */
static void assert_kernels_named(const zs_blob *b)
{
    for (int k = 0; k < ZS_K_COUNT; k++) {
        if (zs_kernel_program((zs_kernel)k) != b->program)
            continue;
        ck_assert_msg(blob_contains(b, zs_kernel_name((zs_kernel)k)),
                      "%s blob for %s lacks kernel %s", program_name(b->program), b->target,
                      zs_kernel_name((zs_kernel)k));
    }
}

/* Native binaries are compiled from the sg flavor, for every program (the
 * generator tags the flavor independent SCAN program sg too). */
static const zs_blob *native_blob(zs_program p, const char *target)
{
    return zs_find_blob(p, ZS_FLAVOR_SG, target);
}

/* Calls fn(target) for every name in the comma separated zs_aot_target_list. */
static int for_each_target(void (*fn)(const char *target))
{
    int count = 0;
    const char *p = zs_aot_target_list;
    while (*p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char target[64];
        ck_assert_msg(len > 0 && len < sizeof target, "bad target list \"%s\"",
                      zs_aot_target_list);
        memcpy(target, p, len);
        target[len] = '\0';
        fn(target);
        count++;
        p += len + (end ? 1 : 0);
    }
    return count;
}

static void check_native_target(const char *target)
{
    for (int p = 0; p < ZS_PROG_COUNT; p++) {
        const zs_blob *b = native_blob((zs_program)p, target);
        ck_assert_msg(b != NULL, "no native %s blob for target %s", program_name(p), target);
        ck_assert_str_eq(b->target, target);
        ck_assert_int_eq(b->program, p);
        ck_assert_msg(blob_bytes(b) != NULL && b->size > 64, "%s/%s: blob of %zu bytes",
                      program_name(p), target, b->size);
        ck_assert_msg(memcmp(blob_bytes(b), "\x7f" "ELF", 4) == 0, "%s/%s: not an ELF binary",
                      program_name(p), target);
        assert_kernels_named(b);
        /* ocloc records the build options in the binary: the flavor and the
         * digit width must match */
        ck_assert_msg(blob_contains(b, "ZS_FLAVOR_SG=1"), "%s/%s not built from the sg flavor",
                      program_name(p), target);
        if (p == ZS_PROG_CM2)
            ck_assert_msg(blob_contains(b, "RADIX_BITS=2"), "cm2/%s not built with RADIX_BITS=2",
                          target);
        if (p == ZS_PROG_CM4)
            ck_assert_msg(blob_contains(b, "RADIX_BITS=4"), "cm4/%s not built with RADIX_BITS=4",
                          target);
    }
}

static int g_seen_mask;
static void note_required(const char *target)
{
    static const char *const required[] = {"skl", "tgllp", "dg2"};
    for (int i = 0; i < 3; i++)
        if (strcmp(target, required[i]) == 0)
            g_seen_mask |= 1 << i;
}

START_TEST(target_list_has_skl_tgllp_dg2)
{
    g_seen_mask = 0;
    for_each_target(note_required);
    ck_assert_msg(g_seen_mask == 7, "zs_aot_target_list \"%s\" lacks one of skl,tgllp,dg2",
                  zs_aot_target_list);
}
END_TEST

START_TEST(native_blob_for_every_target_and_program)
{
    int n = for_each_target(check_native_target);
    ck_assert_int_ge(n, 3);
}
END_TEST

START_TEST(public_facts_match_blobs)
{
    ck_assert_str_eq(zesort_aot_targets(), zs_aot_target_list);
    /* "sg,portable": a SPIR-V of each CM program for each flavor named */
    const char *flavors = zesort_spirv_flavors();
    for (int p = ZS_PROG_CM2; p <= ZS_PROG_CM4; p++) {
        if (strstr(flavors, "sg"))
            ck_assert_msg(zs_find_blob((zs_program)p, ZS_FLAVOR_SG, "spirv") != NULL,
                          "no sg SPIR-V of %s", program_name(p));
        if (strstr(flavors, "portable"))
            ck_assert_msg(zs_find_blob((zs_program)p, ZS_FLAVOR_PORTABLE, "spirv") != NULL,
                          "no portable SPIR-V of %s", program_name(p));
    }
    ck_assert_msg(zs_find_blob(ZS_PROG_SCAN, ZS_FLAVOR_SG, "spirv") != NULL,
                  "no sg SPIR-V of scan");
    ck_assert_msg(zs_find_blob(ZS_PROG_SCAN, ZS_FLAVOR_PORTABLE, "spirv") != NULL,
                  "no portable SPIR-V of scan");
    ck_assert_ptr_null(zs_find_blob(ZS_PROG_CM2, ZS_FLAVOR_SG, "no-such-target"));
}
END_TEST

START_TEST(sources_embedded)
{
    for (int p = 0; p < ZS_PROG_COUNT; p++) {
        const char *src = NULL;
        zs_error e = {""};
        ck_assert_msg(zs_program_source((zs_program)p, &src, &e) == ZESORT_OK, "%s", e.text);
        ck_assert_ptr_nonnull(src);
        ck_assert_msg(strstr(src, "__kernel") != NULL, "%s source has no kernel", program_name(p));
        /* headers are inlined: no #include left for the run-time compiler */
        ck_assert_msg(strstr(src, "#include \"") == NULL, "%s source still #includes",
                      program_name(p));
        ck_assert_ptr_nonnull(zs_program_options((zs_program)p, ZS_FLAVOR_PORTABLE));
        ck_assert_ptr_nonnull(zs_program_options((zs_program)p, ZS_FLAVOR_SG));
        ck_assert_ptr_nonnull(strstr(zs_program_options((zs_program)p, ZS_FLAVOR_SG_NV),
                                     "-DZS_FLAVOR_SG=1 -DZS_SG_NV=1"));
    }
    ck_assert_ptr_nonnull(strstr(zs_program_options(ZS_PROG_CM2, ZS_FLAVOR_SG), "RADIX_BITS=2"));
    ck_assert_ptr_nonnull(strstr(zs_program_options(ZS_PROG_CM4, ZS_FLAVOR_SG), "RADIX_BITS=4"));
    /* the OpenCL C version is the backend's choice per device (CL3.0 or 2.0 for sg) */
    ck_assert_ptr_null(strstr(zs_program_options(ZS_PROG_CM4, ZS_FLAVOR_SG), "-cl-std"));
}
END_TEST

/* The flavor rules of kernel_select.h, by device facts and ZESORT_FLAVOR. */
START_TEST(flavor_by_capability)
{
    static const struct {
        zs_device_api api;
        int sg32, cpu, nv;
        const char *forced;
        int ok;
        zs_flavor want;
    } cases[] = {
        {ZS_API_OPENCL, 1, 0, 0, NULL, 1, ZS_FLAVOR_SG},          /* Intel GPU */
        {ZS_API_OPENCL, 0, 0, 0, NULL, 1, ZS_FLAVOR_PORTABLE},    /* other GPU */
        {ZS_API_OPENCL, 0, 1, 0, NULL, 1, ZS_FLAVOR_SERIAL},      /* PoCL 3.1 */
        {ZS_API_OPENCL, 1, 1, 0, NULL, 1, ZS_FLAVOR_SERIAL},      /* PoCL 6: AUTO by speed */
        {ZS_API_OPENCL, 1, 1, 0, "sg", 1, ZS_FLAVOR_SG},          /* ... sg when asked */
        {ZS_API_OPENCL, 0, 1, 0, "sg", 0, ZS_FLAVOR_SG},          /* no sub-groups: refused */
        {ZS_API_OPENCL, 1, 0, 0, "portable", 1, ZS_FLAVOR_PORTABLE},
        {ZS_API_OPENCL, 1, 0, 0, "simd", 0, ZS_FLAVOR_SG},
        {ZS_API_LEVEL_ZERO, 1, 1, 0, NULL, 1, ZS_FLAVOR_SG},      /* test driver on PoCL 6 */
        {ZS_API_LEVEL_ZERO, 0, 1, 0, NULL, 1, ZS_FLAVOR_PORTABLE},
        {ZS_API_LEVEL_ZERO, 1, 0, 0, "serial", 0, ZS_FLAVOR_SG},  /* no serial flavor there */
        {ZS_API_OPENCL, 0, 0, 1, NULL, 1, ZS_FLAVOR_SG_NV},       /* NVIDIA GPU, warps of 32 */
        {ZS_API_OPENCL, 0, 0, 1, "sg", 1, ZS_FLAVOR_SG_NV},       /* sg there is sg (nv) */
        {ZS_API_OPENCL, 0, 0, 1, "portable", 1, ZS_FLAVOR_PORTABLE},
        {ZS_API_OPENCL, 0, 1, 1, NULL, 1, ZS_FLAVOR_SERIAL},      /* a CPU stays serial */
        {ZS_API_LEVEL_ZERO, 0, 0, 1, NULL, 1, ZS_FLAVOR_PORTABLE}, /* OpenCL only */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        zs_device_facts facts = {.api = cases[i].api, .has_sg32 = cases[i].sg32,
                                 .is_cpu = cases[i].cpu, .nv_warp32 = cases[i].nv};
        zs_flavor got = ZS_FLAVOR_PORTABLE;
        char msg[160] = "";
        int rc = zs_select_flavor(&facts, cases[i].forced, &got, msg, sizeof msg);
        ck_assert_msg((rc == 0) == cases[i].ok, "case %zu: rc %d (%s)", i, rc, msg);
        if (cases[i].ok)
            ck_assert_msg(got == cases[i].want, "case %zu: flavor %s", i, zs_flavor_name(got));
        else
            ck_assert_msg(strstr(msg, "ZESORT_FLAVOR") != NULL, "case %zu: %s", i, msg);
    }
}
END_TEST

/* Writes the blob to a temporary file and returns spirv-val's exit status. */
static int run_spirv_val(const zs_blob *b)
{
    char path[] = "/tmp/zesort-test-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_msg(fd >= 0, "mkstemp failed");
    const unsigned char *data = blob_bytes(b);
    size_t done = 0;
    while (done < b->size) {
        ssize_t w = write(fd, data + done, b->size - done);
        ck_assert_msg(w > 0, "write to %s failed", path);
        done += (size_t)w;
    }
    close(fd);
    pid_t pid = fork();
    if (pid == 0) {
        execl(g_spirv_val, g_spirv_val, path, (char *)NULL);
        _exit(127);
    }
    int status = -1;
    ck_assert_msg(pid > 0 && waitpid(pid, &status, 0) == pid, "could not run %s", g_spirv_val);
    unlink(path);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

START_TEST(every_spirv_passes_spirv_val)
{
    ck_assert_msg(g_spirv_val != NULL, "pass the path of spirv-val as argv[1]");
    int seen = 0;
    for (size_t i = 0; i < zs_blob_count; i++) {
        const zs_blob *b = &zs_blobs[i];
        if (strcmp(b->target, "spirv") != 0)
            continue;
        seen++;
        ck_assert_msg(b->size >= 20 && b->size % 4 == 0, "%s SPIR-V has %zu bytes",
                      program_name(b->program), b->size);
        const uint32_t magic = 0x07230203u;
        ck_assert_msg(memcmp(blob_bytes(b), &magic, 4) == 0, "%s SPIR-V: bad magic",
                      program_name(b->program));
        assert_kernels_named(b);
        int rc = run_spirv_val(b);
        ck_assert_msg(rc == 0, "spirv-val rejects the %s SPIR-V (flavor %d): exit %d",
                      program_name(b->program), (int)b->flavor, rc);
    }
    ck_assert_int_ge(seen, 6); /* 3 programs x 2 flavors */
}
END_TEST

int main(int argc, char **argv)
{
    g_spirv_val = argc > 1 ? argv[1] : getenv("SPIRV_VAL");
    Suite *s = suite_create("embedded");
    TCase *tc = tcase_create("blobs");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, target_list_has_skl_tgllp_dg2);
    tcase_add_test(tc, native_blob_for_every_target_and_program);
    tcase_add_test(tc, public_facts_match_blobs);
    tcase_add_test(tc, sources_embedded);
    tcase_add_test(tc, flavor_by_capability);
    tcase_add_test(tc, every_spirv_passes_spirv_val);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
