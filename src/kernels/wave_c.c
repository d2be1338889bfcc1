/* kernels/wave_c.c - scalar reference of the wave model's step (the damped wave equation): the specification every other path must match. */
#include "kernels/scalar.h"

/*
 * The damped 2D wave equation z_tt + u z_t = c^2 (z_xx + z_yy), with
 * central differences in time (step t) and space (spacing d), solved for
 * the next height:
 *   z' = A z + B z_prev + C (l + r + u + d),
 *   A = (4 - 8k) / (ut + 2),  B = (ut - 2) / (ut + 2),  C = 2k / (ut + 2),
 *   k = c^2 t^2 / d^2,
 * then an attenuation factor alpha on the result.  A + B + 4C = 1: a level
 * pool stays level.
 *
 * Fixed point (rpl_wave_info in core/field/wave.c makes the coefficients): the
 * heights stay int16; a, b, c are A, B, C in units of 2^-RPL_WAVE_SHIFT
 * and m is 1 - alpha in 256ths.  One int32 sum, with a rounding term (rp
 * when the sum is positive, rn otherwise), one arithmetic shift (floor,
 * like the classic rule's >> 1: with a = 0, b = -2^13, c = 2^12 and no
 * rounding term the shift gives exactly ((l + r + u + d) >> 1) - prev),
 * then n -= (n * m) >> 8 (m = 8 is the classic n -= n >> 5), then the
 * clamp into the height contract.  core/field/wave.c says how the rounding
 * terms bring calm water to exactly 0.
 */
int rpl_step_wave_c(int16_t *prev, const int16_t *cur, int w, int x0, int x1, int y0, int y1,
                    const rpl_wave_coef_t *k)
{
    int any = 0;
    for (int y = y0; y < y1; y++) {
        ptrdiff_t row = (ptrdiff_t)y * w;
        for (int x = x0; x < x1; x++) {
            int16_t n = rpl_wave_cell(cur, prev, row + x, w, k);
            prev[row + x] = n;
            any |= n;
        }
    }
    return any != 0;
}
