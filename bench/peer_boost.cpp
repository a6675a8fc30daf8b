/*
 * peer_boost.cpp — Boost.Compute peer for `zesort bench --peer boost`; the
 * contract is in peer_boost.h. Header-only Boost (Debian libboost-dev 1.74).
 *
 * Note on what boost::compute::sort runs: it dispatches on the device type —
 * radix sort on GPUs, merge sort (block insertion sort + merges) on CPU
 * devices such as PoCL. The peer calls the public sort() unchanged, so it
 * measures what a Boost.Compute user gets on that device.
 */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120 /* Boost.Compute 1.74 uses the 1.2 API */
#endif

#include "peer_boost.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include <boost/compute/algorithm/copy.hpp>
#include <boost/compute/algorithm/sort.hpp>
#include <boost/compute/command_queue.hpp>
#include <boost/compute/container/vector.hpp>
#include <boost/compute/context.hpp>
#include <boost/compute/system.hpp>

namespace bc = boost::compute;

namespace {

/* The device named by the hint ("platform: device" or "device"), else the
 * default device. */
bc::device pick_device(const char *hint)
{
    if (hint && *hint) {
        std::string want(hint);
        for (const bc::device &d : bc::system::devices()) {
            std::string name = d.name();
            std::string full = d.platform().name() + ": " + name;
            if (want == full || want == name)
                return d;
        }
        /* Platform names may differ between loaders; match the device part. */
        for (const bc::device &d : bc::system::devices()) {
            std::string name = d.name();
            if (want.size() > name.size() &&
                want.compare(want.size() - name.size(), name.size(), name) == 0)
                return d;
        }
    }
    return bc::system::default_device();
}

/* Milliseconds between the completion of two markers, or a negative value when
 * the device gives no profiling data for markers. */
double marker_span_ms(const bc::event &before, const bc::event &after)
{
    cl_ulong a = 0, b = 0;
    if (clGetEventProfilingInfo(before.get(), CL_PROFILING_COMMAND_END, sizeof a, &a, nullptr) !=
            CL_SUCCESS ||
        clGetEventProfilingInfo(after.get(), CL_PROFILING_COMMAND_END, sizeof b, &b, nullptr) !=
            CL_SUCCESS ||
        b < a)
        return -1.0;
    return static_cast<double>(b - a) / 1e6;
}

void set_error(char *err, size_t errlen, const std::string &msg)
{
    if (err && errlen) {
        std::snprintf(err, errlen, "%s", msg.c_str());
        for (char *p = err; *p; ++p) /* one-line messages (build logs have newlines) */
            if (*p == '\n' || *p == '\r')
                *p = ' ';
    }
}

} // namespace

extern "C" int zesort_peer_boost_sort(const uint32_t *keys, uint64_t n, const char *device_hint,
                                      int repeat, uint32_t *sorted, zesort_peer_result *result,
                                      char *err, size_t errlen)
{
    if (!keys || !sorted || !result || n == 0 || repeat < 1) {
        set_error(err, errlen, "Boost.Compute peer: bad arguments");
        return -1;
    }
    try {
        bc::device device = pick_device(device_hint);
        bc::context context(device);
        bc::command_queue queue(context, device, bc::command_queue::enable_profiling);
        const size_t count = static_cast<size_t>(n);
        bc::vector<uint32_t> data(count, context);

        /* Both clocks for every run; the device times are used when every run
         * has them, else the host clock for all (never a mixed series). */
        std::vector<double> device_ms, host_ms;
        for (int r = -1; r < repeat; ++r) { /* r == -1: warm-up (builds the kernels) */
            bc::copy(keys, keys + count, data.begin(), queue);
            queue.finish();
            auto t0 = std::chrono::steady_clock::now();
            bc::event before = queue.enqueue_marker();
            bc::sort(data.begin(), data.end(), queue);
            bc::event after = queue.enqueue_marker();
            queue.finish();
            auto t1 = std::chrono::steady_clock::now();
            if (r < 0)
                continue;
            double ms = marker_span_ms(before, after);
            if (ms >= 0)
                device_ms.push_back(ms);
            host_ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        }
        const int device_timed = device_ms.size() == host_ms.size();
        std::vector<double> &times = device_timed ? device_ms : host_ms;
        bc::copy(data.begin(), data.end(), sorted, queue);
        queue.finish();

        std::sort(times.begin(), times.end());
        size_t k = times.size();
        result->median_ms = k % 2 ? times[k / 2] : 0.5 * (times[k / 2 - 1] + times[k / 2]);
        result->device_timed = device_timed;
        std::snprintf(result->device, sizeof result->device, "%s: %s",
                      device.platform().name().c_str(), device.name().c_str());
        return 0;
    } catch (const bc::opencl_error &e) {
        set_error(err, errlen, std::string("Boost.Compute peer: OpenCL error: ") + e.what());
    } catch (const std::exception &e) {
        set_error(err, errlen, std::string("Boost.Compute peer: ") + e.what());
    } catch (...) {
        set_error(err, errlen, "Boost.Compute peer: unknown C++ exception");
    }
    return -1;
}
