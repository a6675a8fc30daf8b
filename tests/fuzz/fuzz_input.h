/*
 * fuzz_input.h — reading typed fields off a libFuzzer input, for the
 * harnesses in tests/fuzz: each take consumes bytes from the front and yields
 * 0 once the input is used up, so every input decodes to something.
 */
#ifndef ZESORT_FUZZ_INPUT_H
#define ZESORT_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct fuzz_input {
    const uint8_t *data;
    size_t size;
} fuzz_input;

/* The next `bytes` (<= 8) bytes as a little-endian integer. */
static inline uint64_t fuzz_take(fuzz_input *in, size_t bytes)
{
    uint64_t v = 0;
    for (size_t i = 0; i < bytes && in->size; i++, in->data++, in->size--)
        v |= (uint64_t)in->data[0] << (8 * i);
    return v;
}

#endif
