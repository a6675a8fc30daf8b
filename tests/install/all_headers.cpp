// all_headers.cpp — a C++17 translation unit that includes every installed
// public header of zesort (found through pkg-config only), as a C++ user of
// the library would; built and run by tests/install/check_install.sh.
#include <zesort.h>
#include <zesort_ze.h>
#include <zesort_cl.h>

#include <cstdio>
#include <cstring>

static_assert(ZESORT_VERSION_MAJOR >= 0 && ZESORT_VERSION_MINOR >= 0 && ZESORT_VERSION_PATCH >= 0,
              "version macros are numbers");

int main()
{
    // The headers and the library agree on the version.
    if (std::strcmp(zesort_version(), ZESORT_VERSION_STRING) != 0) {
        std::fprintf(stderr, "header version %s, library version %s\n", ZESORT_VERSION_STRING,
                     zesort_version());
        return 1;
    }
    zesort_options opts;
    zesort_options_default(&opts);
    zesort_ze_sorter *sorter = nullptr;
    // A C++ caller gets C linkage and the documented argument checks.
    if (zesort_ze_create(nullptr, nullptr, &sorter) != ZESORT_ERROR_INVALID_ARGUMENT || sorter) {
        std::fprintf(stderr, "zesort_ze_create(NULL, NULL) was accepted\n");
        return 1;
    }
    std::printf("zesort %s from C++17: %s\n", zesort_version(), zesort_status_name(ZESORT_OK));
    return 0;
}
