/* kernels/arm/side_deep_neon.c - NEON side-view deep water: eight pixels at a time in planar channels, the scene's pixels by table lookups where they lie near. */
#include <arm_neon.h>

#include "kernels/arm/side_neon.h"
#include "kernels/kernels.h"

/*
 * The scene's pixels at x + j + sh[j], j = 0..7, as planes of bytes:
 * blue, green, red.  On AArch64, where every one of them lies among the
 * sixteen pixels from x - 4, two table lookups on those 64 bytes pick
 * them straight into planes; else (and on ARMv7, whose lookups reach
 * only 32 bytes) one load a pixel and a deinterleaving load.  The shift
 * is a 32-bit sum's top half, so it fits int16 exactly.
 */
RPL_FORCE_INLINE uint8x8x3_t deep_pixels(const uint32_t *src, int w, int x, int16x8_t sh)
{
    uint8x8x3_t c;
#if defined(__aarch64__)
    static const int16_t at_init[8] = { 4, 5, 6, 7, 8, 9, 10, 11 };
    const uint16x8_t t = vreinterpretq_u16_s16(vaddq_s16(sh, vld1q_s16(at_init)));
    if (x >= 4 && x + 12 <= w && vmaxvq_u16(t) < 16) {
        const uint8_t *b = (const uint8_t *)(const void *)(src + x - 4);
        const uint8x16x4_t win = { { vld1q_u8(b), vld1q_u8(b + 16), vld1q_u8(b + 32),
                                     vld1q_u8(b + 48) } };
        const uint8x8_t tb = vshl_n_u8(vmovn_u16(t), 2);
        const uint8x16_t bg = vqtbl4q_u8(win, vcombine_u8(tb, vadd_u8(tb, vdup_n_u8(1))));
        c.val[0] = vget_low_u8(bg);
        c.val[1] = vget_high_u8(bg);
        c.val[2] = vqtbl4_u8(win, vadd_u8(tb, vdup_n_u8(2)));
        return c;
    }
#else
    (void)w;
#endif
    int16_t s[8];
    uint32_t px[8];
    vst1q_s16(s, sh);
    for (int j = 0; j < 8; j++)
        px[j] = src[x + j + s[j]];
    const uint8x8x4_t p = vld4_u8((const uint8_t *)(const void *)px);
    c.val[0] = p.val[0];
    c.val[1] = p.val[1];
    c.val[2] = p.val[2];
    return c;
}

/*
 * Per channel ((c * inva + p) >> 8) + a saturated at 255: c * inva + p
 * fits 16 bits (kernels.h), its top byte and the light's share (at most
 * 191) are bytes, and a saturating byte add clamps exactly.
 */
void rpl_side_deep_neon(const rpl_side_deep_job_t *job, int x0, int x1)
{
    const uint32_t *src = job->src;
    uint32_t *out = job->out;
    const int32_t *rd = job->rd, *wob = job->wob + job->phase;
    const uint8_t *light = job->light;
    const int lx = job->lx, w = job->w;
    const uint16x8_t ia = vdupq_n_u16((uint16_t)job->inva);
    const uint16x8_t pre[3] = { vdupq_n_u16((uint16_t)job->pb), vdupq_n_u16((uint16_t)job->pg),
                                vdupq_n_u16((uint16_t)job->pr) };
    const uint8x8_t cw = vdup_n_u8((uint8_t)job->cw);
    int x = x0;
    for (; x + 8 <= x1; x += 8) {
        const int32x4_t s0 = vaddq_s32(vld1q_s32(rd + x), vld1q_s32(wob + (x & 255)));
        const int32x4_t s1 = vaddq_s32(vld1q_s32(rd + x + 4), vld1q_s32(wob + (x & 255) + 4));
        const int16x8_t sh = vcombine_s16(vshrn_n_s32(s0, 16), vshrn_n_s32(s1, 16));
        const uint8x8x3_t p = deep_pixels(src, w, x, sh);
        const uint8x8_t add = vshrn_n_u16(vmull_u8(vld1_u8(light + ((unsigned)(x + lx) & 255)), cw), 8);
        const uint8x8_t a[3] = { vshrn_n_u16(vmull_u8(add, vdup_n_u8(230)), 8), add,
                                 vshrn_n_u16(vmull_u8(add, vdup_n_u8(200)), 8) };
        uint8x8x4_t o;
        for (int i = 0; i < 3; i++)
            o.val[i] = vqadd_u8(vshrn_n_u16(vmlaq_u16(pre[i], vmovl_u8(p.val[i]), ia), 8), a[i]);
        o.val[3] = vdup_n_u8(255);
        vst4_u8((uint8_t *)(void *)(out + x), o);
    }
    rpl_side_deep_c(job, x, x1);
}
