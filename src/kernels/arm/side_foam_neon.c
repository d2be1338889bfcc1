/* kernels/arm/side_foam_neon.c - NEON side-view foam: four pixels at a time, shaded as the water near the surface (side_neon.h), then whitened and anti-aliased in 16-bit lanes. */
#include <arm_neon.h>

#include "kernels/arm/side_neon.h"
#include "kernels/kernels.h"

/*
 * Every blend here is (a * (256 - f) + b * f) >> 8 with a, b <= 255 and
 * 0 <= f <= 256: at most 255 * 256, so each is taken in 16-bit lanes.
 */
void rpl_side_foam_neon(const rpl_side_shallow_job_t *jp, int x0, int x1)
{
    /* a copy the row's stores cannot reach (its address kept to itself): its
     * fields stay in registers */
    const rpl_side_shallow_job_t copy = *jp, *job = &copy;
    const int32x4_t yv = vdupq_n_s32(job->y), zero = vdupq_n_s32(0);
    const int32x4_t k256 = vdupq_n_s32(256);
    const uint16x4_t m255 = vdup_n_u16(255), n256 = vdup_n_u16(256);
    int x = x0;
    for (; x + 4 <= x1; x += 4) {
        const int32x4_t d = vsubq_s32(yv, vld1q_s32(job->ys + x));
        /* 0 <= d < 5: d under 5 taken unsigned */
        const uint32x4_t draw = vcltq_u32(vreinterpretq_u32_s32(d), vdupq_n_u32(5));
        if (!side_any(draw))
            continue;
        uint16x4_t c[3];
        side_near_neon(job, x, d, c);
        int32x4_t f = vsubq_s32(vld1q_s32(job->fwq + x), vshlq_n_s32(d, 8));
        f = vminq_s32(vmaxq_s32(f, zero), k256);
        uint16x4_t fa = vshrn_n_u32(vmulq_n_u32(vreinterpretq_u32_s32(f), 220), 8);
        const uint16x4_t top = vmovn_u32(vceqq_s32(d, zero));
        const uint16x4_t more = vshrn_n_u32(vmull_n_u16(vsub_u16(n256, fa), 60), 8);
        fa = vadd_u16(fa, vand_u16(top, more));
        const uint16x4_t nfa = vsub_u16(n256, fa);
        const uint16x4_t cov = vmovn_u32(vreinterpretq_u32_s32(vld1q_s32(job->cov + x)));
        const uint16x4_t cv = vbsl_u16(top, cov, n256), ncv = vsub_u16(n256, cv);
        const uint16x4_t s = vshr_n_u16(side_light4(job->light, job->lx, x), 3);
        const uint16x4_t t[3] = { vmin_u16(vadd_u16(s, vdup_n_u16(236)), m255),
                                  vmin_u16(vadd_u16(s, vdup_n_u16(250)), m255), m255 };
        const uint32x4_t o = vld1q_u32(job->src + x);
        uint16x4_t v[3];
        for (int i = 0; i < 3; i++) {
            uint16x4_t w = vmin_u16(c[i], m255);
            w = vshr_n_u16(vmla_u16(vmul_u16(w, nfa), t[i], fa), 8);
            v[i] = vshr_n_u16(vmla_u16(vmul_u16(side_channel(o, 2 - i), ncv), w, cv), 8);
        }
        uint32_t *dst = job->out + x;
        vst1q_u32(dst, vbslq_u32(draw, side_pack4(v[2], v[1], v[0]), vld1q_u32(dst)));
    }
    rpl_side_foam_c(jp, x, x1);
}
