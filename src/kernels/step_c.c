/* kernels/step_c.c - scalar reference of the wave step: the specification every other path must match. */
#include "kernels/scalar.h"

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
int rpl_step_c(int16_t *prev, const int16_t *cur, int w, int x0, int x1, int y0, int y1)
{
    int any = 0;
    for (int y = y0; y < y1; y++) {
        const int16_t *c = cur + (ptrdiff_t)y * w, *u = c - w, *d = c + w;
        int16_t *p = prev + (ptrdiff_t)y * w;
        /* The clamp is rare, so each n is stored as it is (with heights in
         * the contract, |n| <= 24575 fits int16) and `out` gathers
         * n - RPL_HEIGHT_MIN, which has a bit above RPL_HEIGHT_MAX -
         * RPL_HEIGHT_MIN set just when n is outside [RPL_HEIGHT_MIN,
         * RPL_HEIGHT_MAX]: such a row is clamped after. */
        unsigned out = 0;
        for (int x = x0; x < x1; x++) {
            int n = ((c[x - 1] + c[x + 1] + u[x] + d[x]) >> 1) - p[x];
            n -= n >> 5;
            p[x] = (int16_t)n;
            out |= (unsigned)(n - RPL_HEIGHT_MIN);
            any |= n;
        }
        if (out > (unsigned)(RPL_HEIGHT_MAX - RPL_HEIGHT_MIN))
            for (int x = x0; x < x1; x++)
                p[x] = (int16_t)rpl_clampi(p[x], RPL_HEIGHT_MIN, RPL_HEIGHT_MAX);
    }
    return any != 0;
}
