/* fuzz_parse.c - libFuzzer target: the strict number and size parsers, the picture header probe and the whole-file check on any input. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ripple.h"
#include "ripple_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The first byte picks the parser; the rest is its input. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned which = data[0] % 5;
    data++, size--;
    if (which == 4) {
        rpl_image_kind kind;
        int w = -1, h = -1;
        if (rpl_image_probe(data, size, &kind, &w, &h) == RPL_OK && (w < 1 || h < 1))
            __builtin_trap();
        /* never reads past size (ASan); a whole picture has a known kind */
        if (rpl_image_complete(data, size) == RPL_OK && kind == RPL_IMAGE_UNKNOWN)
            __builtin_trap();
        return 0;
    }
    char *s = malloc(size + 1); /* the text parsers take C strings */
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    long long i = 0;
    uint64_t u = 0;
    double d = 0;
    int w = 0, h = 0;
    switch (which) {
    case 0:
        if (rpl_parse_int(s, -1000000, 1000000, &i) == RPL_OK && (i < -1000000 || i > 1000000))
            __builtin_trap();
        break;
    case 1:
        if (rpl_parse_u64(s, &u) != RPL_OK && u != 0) /* a refusal leaves *out alone */
            __builtin_trap();
        break;
    case 2:
        if (rpl_parse_real(s, -1e6, 1e6, &d) == RPL_OK && !(d >= -1e6 && d <= 1e6))
            __builtin_trap();
        break;
    default:
        if (rpl_parse_size(s, RPL_DIM_MIN, RPL_DIM_MAX, &w, &h) == RPL_OK &&
            (w < RPL_DIM_MIN || h > RPL_DIM_MAX || h < RPL_DIM_MIN || w > RPL_DIM_MAX))
            __builtin_trap();
        break;
    }
    free(s);
    return 0;
}
