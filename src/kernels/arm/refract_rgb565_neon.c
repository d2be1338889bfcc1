/* kernels/arm/refract_rgb565_neon.c - NEON refraction into RGB565: texels by scalar loads into lanes, the light per 5-6-5 channel. */
#include <arm_neon.h>
#include <stdint.h>

#define RPL_REFRACT_FN rpl_refract_rgb565_neon
#define RPL_FMT_RGB565
#include "kernels/refract_fmt.h"

typedef struct {
    char none; /* the format needs no constant of its own */
} fmt_t;

#include "kernels/arm/refract_neon_tpl.h"

RPL_FORCE_INLINE void fmt_init(fmt_t *f, const rpl_refract_job_t *j, const int shading)
{
    (void)j;
    (void)shading;
    f->none = 0;
}

RPL_FORCE_INLINE void fmt_level(const fmt_t *f, px_t *o, const px_t *b, const int shading)
{
    (void)f;
    (void)shading;
    vst1q_u16(o, vld1q_u16(b));
}

RPL_FORCE_INLINE void fmt_pixels(const consts_t *c, const fmt_t *f, px_t *o, const px_t *bg,
                                 uint32x4_t i0, uint32x4_t i1, int16x8_t nx, int16x8_t ny,
                                 const int shading)
{
    (void)f;
    if (!shading) {
        copy8(o, bg, i0, i1);
        return;
    }
    px_t t[8];
    fetch4(t, bg, i0);
    fetch4(t + 4, bg, i1);
    const uint16x8_t p = vld1q_u16(t);
    /* each channel plus its share of d (d >> 3 on R and B, d >> 2 on G),
     * small values in int16 lanes; R and B from the top of the lane */
    const int16x8_t dv = light(c, nx, ny);
    const uint16x8_t d3 = vreinterpretq_u16_s16(vshrq_n_s16(dv, 3));
    const uint16x8_t d2 = vreinterpretq_u16_s16(vshrq_n_s16(dv, 2));
    const int16x8_t rr = vreinterpretq_s16_u16(vsraq_n_u16(d3, p, 11));
    const int16x8_t gg = vreinterpretq_s16_u16(vsraq_n_u16(d2, vshlq_n_u16(p, 5), 10));
    const int16x8_t bb = vreinterpretq_s16_u16(vsraq_n_u16(d3, vshlq_n_u16(p, 11), 11));
    /* Clamped to the channel by a saturating shift to the top of the lane
     * (below 0 gives 0, above the maximum all ones), then packed by
     * shifts and inserts: R's top 5 bits, G's top 6 below them, B's top 5
     * at the bottom. */
    const uint16x8_t r16 = vqshluq_n_s16(rr, 11);
    const uint16x8_t g16 = vqshluq_n_s16(gg, 10);
    const uint16x8_t b16 = vqshluq_n_s16(bb, 11);
    vst1q_u16(o, vsriq_n_u16(vsriq_n_u16(r16, g16, 5), b16, 11));
}
