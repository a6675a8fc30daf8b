/*
 * sort_report.h — the public report of a host sort (zesort_sort_report,
 * zesort_last_sort_report) as each path of the dispatcher fills it
 * (sort_report.c): one device in one go, a split over parts and devices, and a
 * sort made of several (a segmented sort's long segments).
 */
#ifndef ZESORT_DISPATCH_SORT_REPORT_H
#define ZESORT_DISPATCH_SORT_REPORT_H

#include <stdint.h>

#include "dispatch/split_sort.h"
#include "zesort.h"

/* The report of one sort of n keys on one device, in one go, that took ms. */
void zs_report_one(zesort_sort_report *report, uint64_t n, double ms);

/* The report of a split on `devices` devices that took total_ms in all. */
void zs_group_report(zesort_sort_report *out, const zs_split_report *r, unsigned devices,
                     double total_ms);

/* r's parts, keys and device times added to *to (a sort made of several):
 * its devices are to's or fewer. */
void zs_report_add(zesort_sort_report *to, const zesort_sort_report *r);

#endif
