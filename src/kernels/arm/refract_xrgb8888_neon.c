/* kernels/arm/refract_xrgb8888_neon.c - NEON refraction into XRGB8888: texels by scalar loads, the light by a saturating byte add. */
#include <arm_neon.h>
#include <stdint.h>

#define RPL_REFRACT_FN rpl_refract_xrgb8888_neon
#define RPL_FMT_XRGB8888
#include "kernels/refract_fmt.h"

typedef struct {
    /* table indices: d of pixel i (0-3, 4-7) into its bytes 0-2, 0 into byte 3 */
    uint8x16_t spread0, spread1;
#if !defined(__aarch64__)
    uint8x16_t bias; /* 0x80 in R, G and B: the light's clamp as a signed add */
#endif
} fmt_t;

#include "kernels/arm/refract_neon_tpl.h"

RPL_FORCE_INLINE void fmt_init(fmt_t *f, const rpl_refract_job_t *j, const int shading)
{
    (void)j;
    (void)shading;
    /* index 0xFF is out of any table: the lookup gives 0 */
    static const uint8_t spread[32] = { 0, 0, 0, 0xFF, 1, 1, 1, 0xFF, 2, 2, 2, 0xFF, 3, 3, 3, 0xFF,
                                        4, 4, 4, 0xFF, 5, 5, 5, 0xFF, 6, 6, 6, 0xFF, 7, 7, 7, 0xFF };
    f->spread0 = vld1q_u8(spread);
    f->spread1 = vld1q_u8(spread + 16);
#if !defined(__aarch64__)
    f->bias = vreinterpretq_u8_u32(vdupq_n_u32(0x00808080));
#endif
}

RPL_FORCE_INLINE void fmt_level(const fmt_t *f, px_t *o, const px_t *b, const int shading)
{
    (void)f;
    (void)shading;
    vst1q_u32(o, vld1q_u32(b));
    vst1q_u32(o + 4, vld1q_u32(b + 4));
}

/* The four texels at the byte offsets in v, as one vector. */
RPL_FORCE_INLINE uint8x16_t fetch4v(const px_t *bg, uint32x4_t v)
{
    px_t t[4];
    fetch4(t, bg, v);
    uint32x4_t p = vdupq_n_u32(t[0]);
    p = vsetq_lane_u32(t[1], p, 1);
    p = vsetq_lane_u32(t[2], p, 2);
    p = vsetq_lane_u32(t[3], p, 3);
    return vreinterpretq_u8_u32(p);
}

/* p + m per byte, clamped to 0..255, m signed. */
RPL_FORCE_INLINE uint8x16_t add_sat(const fmt_t *f, uint8x16_t p, int8x16_t m)
{
#if defined(__aarch64__)
    (void)f;
    return vsqaddq_u8(p, m);
#else
    /* biasing the channels by 0x80 turns the clamp into a signed
     * saturating add; byte 3 is unbiased and gets 0 */
    const int8x16_t q = vreinterpretq_s8_u8(veorq_u8(p, f->bias));
    return veorq_u8(vreinterpretq_u8_s8(vqaddq_s8(q, m)), f->bias);
#endif
}

/* The 16 bytes of table t (its first 8 the ones that matter) picked by the
 * indices i. */
RPL_FORCE_INLINE int8x16_t pick(int8x8_t t, uint8x16_t i)
{
#if defined(__aarch64__)
    return vqtbl1q_s8(vcombine_s8(t, t), i);
#else
    return vcombine_s8(vtbl1_s8(t, vreinterpret_s8_u8(vget_low_u8(i))),
                       vtbl1_s8(t, vreinterpret_s8_u8(vget_high_u8(i))));
#endif
}

RPL_FORCE_INLINE void fmt_pixels(const consts_t *c, const fmt_t *f, px_t *o, const px_t *bg,
                                 uint32x4_t i0, uint32x4_t i1, int16x8_t nx, int16x8_t ny,
                                 const int shading)
{
    if (!shading) {
        copy8(o, bg, i0, i1);
        return;
    }
    /* d of pixels 0-7 as bytes (|d| <= 96), spread over their R, G and B */
    const int8x8_t d8 = vmovn_s16(light(c, nx, ny));
    const int8x16_t m0 = pick(d8, f->spread0), m1 = pick(d8, f->spread1);
    vst1q_u8((uint8_t *)o, add_sat(f, fetch4v(bg, i0), m0));
    vst1q_u8((uint8_t *)(o + 4), add_sat(f, fetch4v(bg, i1), m1));
}
