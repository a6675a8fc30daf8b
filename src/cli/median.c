/*
 * median.c — the median of a benchmark's timings.
 */
#include <stdlib.h>

#include "cli.h"

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

double cli_median(double *v, int count)
{
    qsort(v, (size_t)count, sizeof *v, cmp_double);
    return count % 2 ? v[count / 2] : 0.5 * (v[count / 2 - 1] + v[count / 2]);
}

double cli_median_high(double *v, int count)
{
    qsort(v, (size_t)count, sizeof *v, cmp_double);
    return v[count / 2];
}
