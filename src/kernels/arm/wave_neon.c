/* kernels/arm/wave_neon.c - the wave model's step with NEON, eight cells per vector (four for narrow areas), bit-exact with rpl_step_wave_c. */
#include <arm_neon.h>

#define RPL_ROWS_FN rpl_step_wave_neon
#define RPL_ROWS_WAVE 1
#define RPL_ROWS_LANES 8
#define RPL_ROWS_HALF
typedef int16x8_t vec_t;
typedef int16x4_t half_t; /* a D register, for areas 4 to 7 wide */
/* The coefficients: a, b, c and the attenuation's multiplier as the four
 * lanes of one D register, for multiplies by lane; the rounding terms rp
 * and rn in int32 lanes. */
typedef struct {
    int16x4_t abcm;
    int32x4_t rp, rn;
} rule_t;

#include "kernels/rows_tpl.h"
#include "kernels/arm/neon.h"

/*
 * kernels/kernels.h keeps a, b and c inside int16.  The attenuation
 * (n * m) >> 8 is vqdmulh(n, m << 7): the high half of 2 * n * (m << 7),
 * floor(n * m / 256) exactly (it saturates only for -32768 * -32768, and
 * |n| <= 24576).  m << 7 fits int16 for m <= 255; m = 256 makes every
 * cell n - n = 0 (clamped: 0), which the rule gives with a, b, c and the
 * multiplier all 0: s = 0 is not positive, and 0 <= rn < 2^RPL_WAVE_SHIFT
 * shifts to 0.
 */
RPL_FORCE_INLINE void rule_init(rule_t *r, const rpl_wave_coef_t *k)
{
    int16_t v[4] = { 0, 0, 0, 0 };
    if (k->m < 256) {
        v[0] = (int16_t)k->a;
        v[1] = (int16_t)k->b;
        v[2] = (int16_t)k->c;
        v[3] = (int16_t)(k->m << 7);
    }
    r->abcm = vld1_s16(v);
    r->rp = vdupq_n_s32(k->rp);
    r->rn = vdupq_n_s32(k->rn);
}

/* Four cells in int32 lanes, from the cell z, its previous height pv and
 * the neighbours' sum s: the sum of products, its rounding term (rp where
 * it is positive, rn elsewhere), the shift, narrowed to int16 (|n| <=
 * 24576 fits). */
RPL_FORCE_INLINE int16x4_t wave4(int16x4_t z, int16x4_t pv, int16x4_t s, const rule_t *k)
{
    int32x4_t t = vmull_lane_s16(z, k->abcm, 0);
    t = vmlal_lane_s16(t, pv, k->abcm, 1);
    t = vmlal_lane_s16(t, s, k->abcm, 2);
    uint32x4_t pos = vcgtq_s32(t, vdupq_n_s32(0));
    t = vaddq_s32(t, vbslq_s32(pos, k->rp, k->rn));
    return vshrn_n_s32(t, RPL_WAVE_SHIFT);
}

/* The attenuation n - ((n * m) >> 8), then the clamp. */
RPL_FORCE_INLINE int16x8_t atten8(int16x8_t n, const rule_t *k)
{
    return clamp8(vsubq_s16(n, vqdmulhq_lane_s16(n, k->abcm, 3)));
}

/*
 * The rule for the eight cells at c[0..7] / p[0..7].  The neighbours' sum
 * fits int16 (the height contract), so it is added in 16 bits; the sum of
 * products is exact in int32 lanes (kernels/kernels.h bounds it).
 */
RPL_FORCE_INLINE int16x8_t rule_vec(const int16_t *c, const int16_t *p, ptrdiff_t w,
                                    const rule_t *k)
{
    int16x8_t s = vaddq_s16(vaddq_s16(load8(c - 1), load8(c + 1)),
                            vaddq_s16(load8(c - w), load8(c + w)));
    int16x8_t z = load8(c), pv = load8(p);
    int16x4_t lo = wave4(vget_low_s16(z), vget_low_s16(pv), vget_low_s16(s), k);
    int16x4_t hi = wave4(vget_high_s16(z), vget_high_s16(pv), vget_high_s16(s), k);
    return atten8(vcombine_s16(lo, hi), k);
}

/* Four cells. */
RPL_FORCE_INLINE int16x4_t rule_half(const int16_t *c, const int16_t *p, ptrdiff_t w,
                                     const rule_t *k)
{
    int16x4_t s = vadd_s16(vadd_s16(load4(c - 1), load4(c + 1)),
                           vadd_s16(load4(c - w), load4(c + w)));
    int16x4_t n = wave4(load4(c), load4(p), s, k);
    return clamp4(vsub_s16(n, vqdmulh_lane_s16(n, k->abcm, 3)));
}
