/*
 * api_version.c — zesort_version(): the version the library was built as,
 * from the same generated header the installed zesort.h includes.
 */
#include "zesort.h"

const char *zesort_version(void)
{
    return ZESORT_VERSION_STRING;
}
