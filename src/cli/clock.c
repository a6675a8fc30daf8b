/* clock.c — monotonic wall clock for the CLI's progress figures (benchmark
 * numbers themselves are device times from the library). */
#include <time.h>

#include "cli.h"

double cli_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}
