/*
 * peer_boost.h — the Boost.Compute peer of `zesort bench --peer boost`
 * (issue 5 item 2): times boost::compute::sort of u32 keys on an OpenCL
 * device, so zesort's sorts can be compared with a well-known library on the
 * same device and the same data. C interface to a C++ file (bench/
 * peer_boost.cpp), built only when the meson option boost_peer allows it and
 * Boost + a C++ compiler are found; then ZESORT_HAVE_BOOST_PEER is defined
 * for the CLI.
 */
#ifndef ZESORT_PEER_BOOST_H
#define ZESORT_PEER_BOOST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What one peer measurement found. */
typedef struct zesort_peer_result {
    double median_ms;  /* median of the timed runs */
    int device_timed;  /* 1: OpenCL profiling events (device time, see below);
                          0: host clock around the sort + clFinish */
    char device[256];  /* the OpenCL device the peer ran on */
} zesort_peer_result;

/*
 * Sorts the n u32 `keys` ascending with boost::compute::sort on the OpenCL
 * device whose name equals `device_hint` (the part after "platform: " is
 * matched when the hint has one, e.g. zesort_context_query's device), or on
 * Boost.Compute's default device when no device has that name or the hint is
 * NULL. One warm-up sort (it compiles Boost.Compute's kernels), then `repeat`
 * timed sorts of fresh copies of the keys already on the device; host<->device
 * copies are not timed.
 *
 * Device time: the command queue has profiling enabled; a marker before and
 * one after the sort bracket every command Boost.Compute enqueues, and the
 * time is the END of the second minus the END of the first (includes any host
 * work Boost.Compute does between its kernels, like zesort's first-start to
 * last-end span). If the device gives no profiling data for markers the host
 * clock is used instead, and device_timed says so.
 *
 * The last run's result is copied to `sorted` (n keys) for verification.
 * Returns 0, or -1 with a one-line reason in err (never throws).
 */
int zesort_peer_boost_sort(const uint32_t *keys, uint64_t n, const char *device_hint, int repeat,
                           uint32_t *sorted, zesort_peer_result *result, char *err,
                           size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
