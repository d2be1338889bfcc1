/* rpl_step_c.c - scalar reference of the wave step: the specification every other path must match. */
#include "rpl_kernels.h"

/*
 * Why ((l + r + u + d) >> 1) - prev works: look for a next height
 *   x' = a (x1 + x2 + x3 + x4) + b x0
 * that keeps the total height of an undamped pool constant.  Summing over
 * the pool, every cell appears once as x0 and four times as a neighbour,
 * so 4a + b = 1.  a = 1/2, b = -1 is the solution with no multiply: half
 * the neighbours minus where the cell stood one step before, which makes
 * it a leapfrog scheme for the wave equation (the "- prev" term carries
 * the velocity).  Damping then takes 1/32 off every step: n -= n >> 5.
 *
 * >> is an arithmetic shift (floor division by a power of two) on every
 * compiler we build with; the rounding of negative values is part of the
 * specification, and SIMD paths reproduce it with psraw.  Inputs keep to
 * the height contract (ripple.h), so the sum fits int16 and nothing wraps.
 */
static void step_row(int16_t *restrict p, const int16_t *restrict c,
                     const int16_t *restrict up, const int16_t *restrict dn, int w)
{
    for (int x = 1; x < w - 1; x++) {
        int n = ((c[x - 1] + c[x + 1] + up[x] + dn[x]) >> 1) - p[x];
        n -= n >> 5;
        n = n < RPL_HEIGHT_MIN ? RPL_HEIGHT_MIN : n;
        n = n > RPL_HEIGHT_MAX ? RPL_HEIGHT_MAX : n;
        p[x] = (int16_t)n;
    }
}

void rpl_step_c(int16_t *prev, const int16_t *cur, int w, int y0, int y1)
{
    for (int y = y0; y < y1; y++) {
        const int16_t *c = cur + (ptrdiff_t)y * w;
        step_row(prev + (ptrdiff_t)y * w, c, c - w, c + w, w);
    }
}
