/* kernels/arm/step_neon.c - the wave step with NEON, eight cells per vector (four for narrow areas), bit-exact with rpl_step_c. */
#include <arm_neon.h>

#define RPL_ROWS_FN rpl_step_neon
#define RPL_ROWS_LANES 8
#define RPL_ROWS_HALF
typedef int16x8_t vec_t;
typedef int16x4_t half_t; /* a D register, for areas 4 to 7 wide */
typedef struct {
    char none; /* the classic rule has no coefficients */
} rule_t;

#include "kernels/rows_tpl.h"
#include "kernels/arm/neon.h"

RPL_FORCE_INLINE void rule_init(rule_t *r, const rpl_wave_coef_t *k)
{
    (void)k;
    r->none = 0;
}

/*
 * The rule for the eight cells at c[0..7] / p[0..7].  With heights in the
 * contract (ripple.h), l + r and u + d lie in [-16384, 16382], and the
 * halving add (vhadd: (a + b) >> 1 computed in 17 bits) of the two is
 * (l + r + u + d) >> 1 exactly, whatever the sum; n = that - prev lies in
 * [-24575, 24574], and the damping n - (n >> 5) wraps nowhere.  The
 * horizontal neighbours are unaligned loads at -1 and +1.
 */
RPL_FORCE_INLINE int16x8_t rule_vec(const int16_t *c, const int16_t *p, ptrdiff_t w,
                                    const rule_t *r)
{
    (void)r;
    int16x8_t h = vhaddq_s16(vaddq_s16(load8(c - 1), load8(c + 1)),
                             vaddq_s16(load8(c - w), load8(c + w)));
    int16x8_t n = vsubq_s16(h, load8(p));
    return clamp8(vsubq_s16(n, vshrq_n_s16(n, 5)));
}

/* The same with four cells. */
RPL_FORCE_INLINE int16x4_t rule_half(const int16_t *c, const int16_t *p, ptrdiff_t w,
                                     const rule_t *r)
{
    (void)r;
    int16x4_t h = vhadd_s16(vadd_s16(load4(c - 1), load4(c + 1)),
                            vadd_s16(load4(c - w), load4(c + w)));
    int16x4_t n = vsub_s16(h, load4(p));
    return clamp4(vsub_s16(n, vshr_n_s16(n, 5)));
}
