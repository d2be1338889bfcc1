/* kernels/arm/refract_index8_neon.c - NEON refraction into INDEX8: texels and shade table entries by scalar loads. */
#include <arm_neon.h>
#include <assert.h>
#include <stdint.h>

#define RPL_REFRACT_FN rpl_refract_index8_neon
#define RPL_FMT_INDEX8
#include "kernels/refract_fmt.h"

typedef struct {
    const uint8_t *shade; /* the light's table, NULL without light; a local,
                           * as stores to the bytes of fb could change job */
    int level_same;       /* its level-0 row is the identity */
    int16x8_t rowbias;    /* 2 + 4 * RPL_SHADE_STEPS: see fmt_pixels */
#if !defined(__aarch64__)
    uint32x4_t base;      /* shade as a 32-bit address */
#endif
} fmt_t;

#include "kernels/arm/refract_neon_tpl.h"

RPL_FORCE_INLINE void fmt_init(fmt_t *f, const rpl_refract_job_t *j, const int shading)
{
    assert(!shading || j->shade8);
    f->shade = shading ? j->shade8 : NULL;
    f->level_same = shading && fmt_level_same(j->shade8);
    f->rowbias = vdupq_n_s16(2 + 4 * RPL_SHADE_STEPS);
#if !defined(__aarch64__)
    f->base = vdupq_n_u32((uint32_t)(uintptr_t)f->shade);
#endif
}

/* Through the table's level-0 row when shading, unless it is the
 * identity: that row need not be. */
RPL_FORCE_INLINE void fmt_level(const fmt_t *f, px_t *o, const px_t *b, const int shading)
{
    if (!shading || f->level_same) {
        vst1_u8(o, vld1_u8(b));
        return;
    }
    const uint8_t *lv = f->shade + RPL_SHADE_STEPS * 256;
    o[0] = lv[b[0]];
    o[1] = lv[b[1]];
    o[2] = lv[b[2]];
    o[3] = lv[b[3]];
    o[4] = lv[b[4]];
    o[5] = lv[b[5]];
    o[6] = lv[b[6]];
    o[7] = lv[b[7]];
}

RPL_FORCE_INLINE void fmt_pixels(const consts_t *c, const fmt_t *f, px_t *o, const px_t *bg,
                                 uint32x4_t i0, uint32x4_t i1, int16x8_t nx, int16x8_t ny,
                                 const int shading)
{
    if (!shading) {
        copy8(o, bg, i0, i1);
        return;
    }
    /* The table row of pixel i, q + STEPS with q = (d + 2) >> 2, is
     * (d + 2 + 4 * STEPS) >> 2, in [0, 48]. */
    const uint16x8_t row = vreinterpretq_u16_s16(vshrq_n_s16(vaddq_s16(light(c, nx, ny), f->rowbias), 2));
    const uint8_t *shade = f->shade;
    px_t t[8];
#if defined(__aarch64__)
    /* the rows' offsets in the table, stored and read back */
    uint16_t rw[8];
    vst1q_u16(rw, vshlq_n_u16(row, 8));
    RPL_OPAQUE(rw);
    fetch4(t, bg, i0);
    fetch4(t + 4, bg, i1);
    const uint16_t r0 = rw[0], r1 = rw[1], r2 = rw[2], r3 = rw[3];
    const uint16_t r4 = rw[4], r5 = rw[5], r6 = rw[6], r7 = rw[7];
    o[0] = shade[r0 + t[0]];
    o[1] = shade[r1 + t[1]];
    o[2] = shade[r2 + t[2]];
    o[3] = shade[r3 + t[3]];
    o[4] = shade[r4 + t[4]];
    o[5] = shade[r5 + t[5]];
    o[6] = shade[r6 + t[6]];
    o[7] = shade[r7 + t[7]];
#else
    /* ARMv7's addresses are 32 bits: the rows' addresses shade + row * 256
     * in vectors, moved out two at a time, spare an add per pixel */
    (void)shade;
    for (int h = 0; h < 2; h++) {
        const uint16x4_t r = h ? vget_high_u16(row) : vget_low_u16(row);
        const uint32x4_t a = vaddq_u32(vshll_n_u16(r, 8), f->base);
        const uint64_t a01 = vgetq_lane_u64(vreinterpretq_u64_u32(a), 0);
        const uint64_t a23 = vgetq_lane_u64(vreinterpretq_u64_u32(a), 1);
        fetch4(t, bg, h ? i1 : i0);
        o[4 * h + 0] = ((const uint8_t *)(uintptr_t)(uint32_t)a01)[t[0]];
        o[4 * h + 1] = ((const uint8_t *)(uintptr_t)(uint32_t)(a01 >> 32))[t[1]];
        o[4 * h + 2] = ((const uint8_t *)(uintptr_t)(uint32_t)a23)[t[2]];
        o[4 * h + 3] = ((const uint8_t *)(uintptr_t)(uint32_t)(a23 >> 32))[t[3]];
    }
#endif
}
