/*
 * names.h — names the library's messages use that zesort.h does not export
 * (names.c): the key types, as the CLI's --type spells them.
 */
#ifndef ZESORT_NAMES_H
#define ZESORT_NAMES_H

#include "zesort.h"

/* "u32", "i32", ... "bf16"; "unknown" for a value outside the enum. */
const char *zs_key_type_name(zesort_key_type t);

#endif
