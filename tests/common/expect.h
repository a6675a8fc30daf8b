/*
 * expect.h — the checks of the test programs that run without Check (those
 * that start threads or need no fork): EXPECT counts a failure and goes on,
 * so one run reports every broken case. The program declares
 * `static int failures;` and exits non-zero when it is not 0.
 */
#ifndef ZESORT_TESTS_EXPECT_H
#define ZESORT_TESTS_EXPECT_H

#include <stdio.h>

#define EXPECT(cond, ...)                                                                      \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            failures++;                                                                        \
            fprintf(stderr, "%s:%d: FAIL %s: ", __FILE__, __LINE__, #cond);                   \
            fprintf(stderr, __VA_ARGS__);                                                      \
            fputc('\n', stderr);                                                               \
        }                                                                                      \
    } while (0)

#endif
