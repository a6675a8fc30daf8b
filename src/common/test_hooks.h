/*
 * test_hooks.h — hooks that exist for tests only (not installed, not
 * exported by the shared library): run the pieces of one CM pass on a
 * context's device so tests can compare the count table and the prefix
 * table with cm_reference bit for bit (debug_pass.c), and the state the
 * layers note into or read (test_hooks.c): -D options for the OpenCL kernel
 * builds, counters, faults and budgets.
 */
#ifndef ZESORT_TEST_HOOKS_H
#define ZESORT_TEST_HOOKS_H

#include <stdint.h>

#include "zesort.h"

/* One CM pass over `keys` (n u32 keys, host memory) with digit width
 * radix_bits (2|4) at bit `shift`, on ctx's device backend (OpenCL or Level Zero;
 * UNSUPPORTED on the cpu backend). Fills, when non-NULL:
 *   count_table  bins*chunks entries, bin-major, as written by cm_count
 *   prefix_table bins*chunks entries after the scan (host or device per `scan`)
 *   out_keys     n keys after cm_bucket
 * chunks = ceil(n/ZS_CHUNK_KEYS), bins = 1 << radix_bits. n must be >= 1. */
zesort_status zs_debug_cm_pass(zesort_context *ctx, int radix_bits, zesort_scan scan,
                               const uint32_t *keys, uint64_t n, unsigned shift,
                               uint32_t *count_table, uint32_t *prefix_table, uint32_t *out_keys);

/* Extra -D options for every OpenCL program built from source by contexts
 * created afterwards (NULL: none). The string is borrowed. Not thread-safe;
 * tests/unit/test_onesweep.c forces the look-back fallback with it. */
void zs_opencl_test_defines(const char *defines);

/* What the OpenCL backend appends to its build options (NULL: nothing). */
const char *zs_test_opencl_defines(void);

/* ZESORT_TEST_OPENCL_PLAIN_GPU=1 in the environment (read at every question
 * below, so a test may setenv before it opens a device; scripts and CLI tests
 * set it like any variable): the OpenCL backend and the OpenCL interop
 * (backends/opencl/opencl_common.c, which both build through) see every
 * OpenCL device as a plain OpenCL 1.2 GPU of another vendor, as NVIDIA's
 * driver presents one: device type GPU, so zesort_create's
 * default device, AUTO (OpenCL GPUs before the C fallback) and "all" devices
 * take it as they would that GPU; no Intel sub-groups; no OpenCL C 3.0
 * features; vendor not Intel, so no native binaries are tried; discrete (no
 * CL_DEVICE_HOST_UNIFIED_MEMORY: results are read back and inputs uploaded,
 * never mapped or borrowed, whatever their size). The device
 * therefore runs the portable flavor, built from the embedded source with
 * -cl-std=CL1.2. Its limits are enforced at every launch, failing it as that
 * GPU would: more than ZS_PLAIN_GPU_MAX_WG work-items in a work-group
 * (CL_INVALID_WORK_GROUP_SIZE), a kernel's CL_KERNEL_LOCAL_MEM_SIZE over
 * ZS_PLAIN_GPU_LOCAL_BYTES (CL_OUT_OF_RESOURCES). PoCL on the CPU plays the
 * GPU in the tests (tests/unit/test_plain_gpu.c, tests/cl, tests/cli). */
#define ZS_PLAIN_GPU_MAX_WG 1024u
#define ZS_PLAIN_GPU_LOCAL_BYTES (48u * 1024u)
int zs_test_opencl_plain_gpu(void);

/* ZESORT_TEST_OPENCL_PLAIN_GPU=nv: the plain GPU above, made by NVIDIA with
 * warps of 32, so it runs the sg (nv) flavor; its programs are built with
 * ZS_SG_NV_EMULATE=1 (kernels/zesort_warp.h: the four warp instructions
 * taken from Intel sub-groups), which only a device with Intel sub-groups of
 * 32 builds: PoCL 6, in the Debian 13 stage. Everything else of the flavor
 * runs as on that GPU: its choice, name, source, options and limits. */
int zs_test_opencl_nv_gpu(void);

/* ZESORT_TEST_CORRUPT_KERNELS=1 in the environment (read whenever an
 * embedded kernel frame is decompressed, kernel_frames.c): one byte of the
 * compressed frame is flipped first, as in a damaged library file, so the
 * request that needed it fails with ZESORT_ERROR_BACKEND. Frames already
 * decompressed stay as they are. */
int zs_test_corrupt_kernels(void);

/* Every module / program build attempt of the library (zeModuleCreate,
 * clBuildProgram) counts one: tests check that an append after a prepare
 * builds nothing. Thread-safe. */
void zs_test_count_build(void);
unsigned long zs_test_builds(void);

/* Every top-k that ran the device's radix select (plan/plan_topk.h: a host
 * top-k on a device, or one appended or enqueued by an interop API) counts
 * one; one that sorted every key instead (k close to n, segments, the C
 * fallback) counts none. Tests check that the select ran. Thread-safe. */
void zs_test_count_select(void);
unsigned long zs_test_selects(void);

/* The top-k candidates' slack for every plan from now on (plan_topk.h,
 * zs_topk_room: the room is k + slack; 0, the default: max(n / 32, 4096)):
 * tests run the select, its tie cut and its passes at small n with 1.
 * Thread-safe. */
void zs_test_topk_slack(uint64_t keys);
uint64_t zs_test_slack(void);

/* Every sort a device runs (the host runner: run_plan.c) or that is appended
 * to a caller's list or queue (the interop APIs) is noted with its API
 * ("opencl", "level-zero", "opencl-interop", "level-zero-interop") and the
 * name of its kernel flavor (zs_flavor_name): when the environment variable
 * ZESORT_TEST_SORT_LOG names a file, one line "<api> <flavor>" is appended
 * to it (O_APPEND: several processes may share the file). The Debian 13
 * stage counts its sg sorts this way (tests/debian13/run-in-root, totals by
 * tests/debian13/summary). Nothing when the variable is unset. */
void zs_test_note_sort(const char *api, const char *flavor);

/* The C fallback's keys-only, all-bits strategy for every sort from now on
 * (backend_cpu.c): 1 partitions and vqsorted ranges (where vqsort is
 * available), 0 the radix passes, -1 (the default) whichever was measured
 * faster for the key width. Thread-safe. */
void zs_test_cpu_vqsort(int mode);

/* The most keys the C fallback's radix passes take in one sort from now on
 * (zs_cpu_max_keys; 0, the default: 2^32 - 1, their 32-bit counts): tests
 * exercise what lies beyond that limit (a sort split into parts, a long
 * segment sorted as a sort of its own) at small n. Thread-safe. */
void zs_test_cpu_radix_max(uint64_t keys);

/* A device budget in bytes for every host sort from now on (0: none, the
 * default): a sort bigger than the budget (or the device) is split on the
 * host into parts that fit it (src/dispatch/split_sort.h), on every backend,
 * the C fallback included (a part of it needs 2 * (key + value bytes) a
 * key). Tests exercise splits at small n with it. Thread-safe. */
void zs_test_device_budget(uint64_t bytes);
uint64_t zs_test_budget(void);

/* Device buffers the host runner has allocated since the process started,
 * on any context (buffer_cache.c): a sort whose buffers a context kept from
 * its last sort allocates none. Thread-safe. */
uint64_t zs_test_device_allocations(void);

/* Host views of device buffers (device_backend.h: view / unview, the
 * OpenCL backend's maps): the n-th view or unview call from now (1-based,
 * counted across contexts) fails once, as a failing driver call would;
 * 0 (the default): none. zs_test_view_fault is the backend's question
 * before each such call. Thread-safe. */
void zs_test_fail_view(unsigned n);
int zs_test_view_fault(void);

/* Borrowed input (device_backend.h: borrow, the OpenCL backend's
 * CL_MEM_USE_HOST_PTR buffers): the n-th borrow from now fails once, as
 * zs_test_fail_view. The runner then uploads the input. Thread-safe. */
void zs_test_fail_borrow(unsigned n);
int zs_test_borrow_fault(void);

#endif
