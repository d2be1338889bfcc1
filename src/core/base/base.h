/* core/base/base.h - the library-wide helpers every room may lean on (core/base/);
 * not part of the API. */
#ifndef RPL_CORE_BASE_H
#define RPL_CORE_BASE_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "core/base/error.h"
#include "ripple/base.h"

/* The random generator (xorshift64*) and its seeding (splitmix64). */
uint64_t rpl_seed_mix(uint64_t seed);
uint32_t rpl_rng_next(uint64_t *state);
/* Uniform-ish integer in [lo, hi]. */
int rpl_rng_range(uint64_t *state, int lo, int hi);

/* A small fast generator (xorshift32, state nonzero, kept by the caller)
 * for noise where the main one's quality is not needed: the sound's hiss,
 * the caustics' cells. */
static inline uint32_t rpl_xorshift32(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

/* Liang-Barsky on one axis: narrows [*t0, *t1] to where p + t*d lies in
 * [lo, hi]; 0 when nothing is left.  Segments are clipped with it before
 * they are walked cell by cell (stones along a trail, walls, shows). */
static inline int rpl_clip_axis(double p, double d, double lo, double hi, double *t0,
                                double *t1)
{
    if (d == 0)
        return p >= lo && p <= hi;
    double a = (lo - p) / d, b = (hi - p) / d;
    if (a > b) {
        double t = a;
        a = b;
        b = t;
    }
    if (a > *t0)
        *t0 = a;
    if (b < *t1)
        *t1 = b;
    return *t0 <= *t1;
}

/* The built-in font's glyph of byte c (core/base/font.c): RPL_FONT_GLYPH_ROWS
 * rows, top first, the 5 columns in the low bits (0x10 the leftmost);
 * bytes outside 32..126 give the box glyph.  Shows write text in stones
 * with it. */
#define RPL_FONT_GLYPH_ROWS 9
const uint8_t *rpl_font_glyph(unsigned char c);

#endif
