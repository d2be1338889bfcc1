/* kernels/arm/side_neon.h - what the side view's NEON kernels share: loads by index, lane tests, a pixel of water near the surface in planar 16-bit channels. */
#ifndef RPL_SIDE_NEON_H
#define RPL_SIDE_NEON_H

#include <arm_neon.h>
#include <stdint.h>
#include <string.h>

#include "kernels/kernels.h"
#include "kernels/simd.h"

/* NEON has no gather: four table entries by index (each >= 0: unsigned,
 * so that each is a 32-bit lane move and an address by zero extension),
 * one load a lane. */
RPL_FORCE_INLINE uint32x4_t side_gather4(const uint32_t *t, int32x4_t i)
{
    const uint32x4_t u = vreinterpretq_u32_s32(i);
    uint32x4_t v = vld1q_dup_u32(t + vgetq_lane_u32(u, 0));
    v = vld1q_lane_u32(t + vgetq_lane_u32(u, 1), v, 1);
    v = vld1q_lane_u32(t + vgetq_lane_u32(u, 2), v, 2);
    v = vld1q_lane_u32(t + vgetq_lane_u32(u, 3), v, 3);
    /* taken as a whole: clang would otherwise build each 16-bit half the
     * kernels use by lane moves of its own (8 more an entry's table, seen
     * in its AArch64 output) */
    __asm__("" : "+w"(v));
    return v;
}

/* Whether any lane of a compare's mask is set. */
RPL_FORCE_INLINE int side_any(uint32x4_t m)
{
#if defined(__aarch64__)
    return vmaxvq_u32(m) != 0;
#else
    uint32x2_t h = vorr_u32(vget_low_u32(m), vget_high_u32(m));
    return vget_lane_u64(vreinterpret_u64_u32(h), 0) != 0;
#endif
}

/* The caustics' light at the four columns from x (kernels.h): four bytes
 * of the periodic row, which runs 32 bytes past its 256. */
RPL_FORCE_INLINE uint16x4_t side_light4(const uint8_t *light, int lx, int x)
{
    uint32_t four;
    memcpy(&four, light + ((unsigned)(x + lx) & 255), 4);
    return vget_low_u16(vmovl_u8(vreinterpret_u8_u32(vdup_n_u32(four))));
}

/* Channel ch (0 blue, 1 green, 2 red) of four pixels, in 16-bit lanes. */
RPL_FORCE_INLINE uint16x4_t side_channel(uint32x4_t p, int ch)
{
    const uint16x4_t m = vdup_n_u16(255);
    return ch == 0 ? vand_u16(vmovn_u32(p), m)
           : ch == 1 ? vand_u16(vshrn_n_u32(p, 8), m)
                     : vand_u16(vshrn_n_u32(p, 16), m);
}

/* Four pixels from channels b, g, r, each taken to min(255, c), alpha 255. */
RPL_FORCE_INLINE uint32x4_t side_pack4(uint16x4_t b, uint16x4_t g, uint16x4_t r)
{
    const uint8x8_t bg = vqmovn_u16(vcombine_u16(b, g));
    const uint8x8_t ra = vqmovn_u16(vcombine_u16(r, vdup_n_u16(255)));
    /* b0 r0 b1 r1 .. and g0 a g1 a ..: zipped again, b g r a per pixel */
    const uint8x8x2_t z = vzip_u8(bg, ra);
    const uint8x8x2_t px = vzip_u8(z.val[0], z.val[1]);
    return vreinterpretq_u32_u8(vcombine_u8(px.val[0], px.val[1]));
}

/*
 * Four pixels from x of water near the surface at depths d (kernels.h,
 * the shallow water's rule), each channel before its clamp to 255 into
 * rgb[0] (red), rgb[1], rgb[2] (blue), one pixel a 16-bit lane.  Each
 * lane's depth is clamped so that every table read stays in its table.
 * The sums that fit 16 bits are taken in 16-bit lanes: c * inva + p
 * (the callers' bound), its eighth bits plus the light (at most 446);
 * the darkening's product by k <= 256 is a widening multiply.
 */
RPL_FORCE_INLINE void side_near_neon(const rpl_side_shallow_job_t *job, int x, int32x4_t d,
                                     uint16x4_t rgb[3])
{
    static const int32_t lane_init[4] = { 0, 1, 2, 3 };
    const int32x4_t zero = vdupq_n_s32(0), dmax = vdupq_n_s32(RPL_SIDE_DEPTHS - 1);
    const int32x4_t xv = vaddq_s32(vdupq_n_s32(x), vld1q_s32(lane_init));
    const int32x4_t de = vminq_s32(vmaxq_s32(d, zero), dmax);
    const uint32x4_t e = side_gather4(job->te, de);
    const int32x4_t refr = vreinterpretq_s32_u32(vandq_u32(e, vdupq_n_u32(2047)));
    const int32x4_t ew = vreinterpretq_s32_u32(vandq_u32(vshrq_n_u32(e, 11), vdupq_n_u32(511)));
    const uint32x4_t dk = vandq_u32(vshrq_n_u32(e, 20), vdupq_n_u32(511));
    /* |shift| < 32768 and de <= 511: the product fits */
    const int32x4_t dnear = vaddq_s32(de, vshrq_n_s32(vmulq_s32(vld1q_s32(job->shift + x), de), 4));
    const int32x4_t dfar = vsubq_s32(vdupq_n_s32(job->y), vld1q_s32(job->gbase + x));
    int32x4_t dg = vbslq_s32(vcltq_s32(d, vdupq_n_s32(16)), dnear, dfar);
    dg = vminq_s32(vmaxq_s32(dg, zero), dmax);
    uint32x4_t bg, rc;
    uint16x4_t ia;
    const int32x4_t dg0 = vdupq_lane_s32(vget_low_s32(dg), 0);
    if (!side_any(vmvnq_u32(vceqq_s32(dg, dg0)))) {
        /* one gradient's depth for the four, as under water of one
         * gradient (a flat bed): one entry a table */
        const int i = vgetq_lane_s32(dg, 0);
        bg = vdupq_n_u32(job->tbg[i]);
        rc = vdupq_n_u32(job->tr[i]);
        ia = vdup_n_u16((uint16_t)job->tia[i]);
    } else {
        bg = side_gather4(job->tbg, dg);
        rc = side_gather4(job->tr, dg);
        ia = vmovn_u32(side_gather4(job->tia, dg));
    }
    const int32x4_t wb = vld1q_s32(job->wob + job->phase + (x & 255));
    int32x4_t sx = vmlaq_s32(vmulq_s32(vld1q_s32(job->sfx + x), refr), wb, ew);
    sx = vaddq_s32(xv, vshrq_n_s32(sx, 16));
    sx = vminq_s32(vmaxq_s32(sx, zero), vdupq_n_s32(job->w - 1));
    const uint32x4_t p = side_gather4(job->src, sx);
    const uint16x4_t add = vshrn_n_u32(vmull_u16(side_light4(job->light, job->lx, x),
                                                 vshrn_n_u32(rc, 16)), 8);
    const uint16x4_t ar = vshrn_n_u32(vmull_n_u16(add, 200), 8);
    const uint16x4_t ab = vshrn_n_u32(vmull_n_u16(add, 230), 8);
    /* dcol <= 256 and dk <= 256: the product fits, k in [0, 256] */
    const uint32x4_t dcol = vreinterpretq_u32_s32(vld1q_s32(job->dcol + x));
    const uint16x4_t k = vsub_u16(vdup_n_u16(256), vshrn_n_u32(vmulq_u32(dcol, dk), 8));
    const uint16x4_t pre[3] = { vmovn_u32(rc), vshrn_n_u32(bg, 16), vmovn_u32(bg) };
    const uint16x4_t light[3] = { ar, add, ab };
    for (int i = 0; i < 3; i++) {
        uint16x4_t c = vmla_u16(pre[i], side_channel(p, 2 - i), ia);
        c = vsra_n_u16(light[i], c, 8);
        rgb[i] = vshrn_n_u32(vmull_u16(c, k), 8);
    }
}

#endif
