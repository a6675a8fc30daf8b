/*
 * sort_report.c — the public report of a host sort, path by path
 * (sort_report.h).
 */
#include "dispatch/sort_report.h"

#include <string.h>

void zs_report_one(zesort_sort_report *report, uint64_t n, double ms)
{
    *report = (zesort_sort_report){.devices = 1, .parts = 1, .sort_ms = ms, .total_ms = ms};
    report->device_parts[0] = 1, report->device_keys[0] = n, report->device_ms[0] = ms;
}

void zs_group_report(zesort_sort_report *out, const zs_split_report *r, unsigned devices,
                     double total_ms)
{
    memset(out, 0, sizeof *out);
    out->devices = devices;
    out->parts = r->parts;
    out->partition_ms = r->partition_ms;
    out->sort_ms = r->sort_ms;
    out->gather_ms = r->gather_ms;
    out->total_ms = total_ms;
    for (unsigned d = 0; d < devices && d < ZESORT_MAX_DEVICES; d++) {
        out->device_parts[d] = r->device_parts[d];
        out->device_keys[d] = r->device_keys[d];
        out->device_ms[d] = r->device_ms[d];
    }
}

void zs_report_add(zesort_sort_report *to, const zesort_sort_report *r)
{
    to->parts += r->parts;
    to->partition_ms += r->partition_ms;
    to->gather_ms += r->gather_ms;
    for (uint32_t d = 0; d < r->devices && d < ZESORT_MAX_DEVICES; d++) {
        to->device_parts[d] += r->device_parts[d];
        to->device_keys[d] += r->device_keys[d];
        to->device_ms[d] += r->device_ms[d];
    }
}
