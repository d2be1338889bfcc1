/* kernels/arm/neon.h - what the NEON step kernels share: loads, stores and the "any lane set" test on eight and four int16 cells. */
#ifndef RPL_NEON_H
#define RPL_NEON_H

/*
 * Included after kernels/rows_tpl.h by kernels/arm/{step,wave}_neon.c:
 * the vector operations the row loop declares, on int16x8_t (vec_t, a Q
 * register) and int16x4_t (half_t, a D register: areas four to seven
 * wide).  NEON loads and stores need no alignment.
 */
#include <arm_neon.h>

RPL_FORCE_INLINE int16x8_t load8(const int16_t *p)
{
    return vld1q_s16(p);
}

RPL_FORCE_INLINE int16x4_t load4(const int16_t *p)
{
    return vld1_s16(p);
}

RPL_FORCE_INLINE void vec_store(int16_t *p, int16x8_t v)
{
    vst1q_s16(p, v);
}

RPL_FORCE_INLINE int16x8_t vec_zero(void)
{
    return vdupq_n_s16(0);
}

RPL_FORCE_INLINE int16x8_t vec_or(int16x8_t a, int16x8_t b)
{
    return vorrq_s16(a, b);
}

RPL_FORCE_INLINE void half_store(int16_t *p, int16x4_t v)
{
    vst1_s16(p, v);
}

RPL_FORCE_INLINE int16x4_t half_zero(void)
{
    return vdup_n_s16(0);
}

RPL_FORCE_INLINE int16x4_t half_or(int16x4_t a, int16x4_t b)
{
    return vorr_s16(a, b);
}

/* Whether any of the four lanes (64 bits) is not 0. */
RPL_FORCE_INLINE int half_any(int16x4_t acc)
{
    return vget_lane_u64(vreinterpret_u64_s16(acc), 0) != 0;
}

RPL_FORCE_INLINE int vec_any(int16x8_t acc)
{
#if defined(__aarch64__)
    return vmaxvq_u16(vreinterpretq_u16_s16(acc)) != 0;
#else
    return half_any(vorr_s16(vget_low_s16(acc), vget_high_s16(acc)));
#endif
}

/*
 * The clamp into [RPL_HEIGHT_MIN, RPL_HEIGHT_MAX] = [-8192, 8191] of n in
 * int16 lanes, by a saturating shift left by 2 and an arithmetic shift
 * back: 4n saturates to -32768 or 32767 exactly when n is outside the
 * range, and those shift back to -8192 and 8191; inside, 4n fits and the
 * shift back gives n.  No constants to hold in registers.
 */
#if RPL_HEIGHT_MIN != -8192 || RPL_HEIGHT_MAX != 8191
#error "neon.h's clamp assumes the height contract [-8192, 8191]"
#endif
RPL_FORCE_INLINE int16x8_t clamp8(int16x8_t n)
{
    return vshrq_n_s16(vqshlq_n_s16(n, 2), 2);
}

RPL_FORCE_INLINE int16x4_t clamp4(int16x4_t n)
{
    return vshr_n_s16(vqshl_n_s16(n, 2), 2);
}

#endif
