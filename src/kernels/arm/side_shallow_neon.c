/* kernels/arm/side_shallow_neon.c - NEON side-view water near its surface: four pixels at a time, tables and scene read lane by lane (side_neon.h). */
#include <arm_neon.h>

#include "kernels/arm/side_neon.h"
#include "kernels/kernels.h"

void rpl_side_shallow_neon(const rpl_side_shallow_job_t *jp, int x0, int x1)
{
    /* a copy the row's stores cannot reach (its address kept to itself): its
     * fields stay in registers */
    const rpl_side_shallow_job_t copy = *jp, *job = &copy;
    const int32x4_t four = vdupq_n_s32(4), yv = vdupq_n_s32(job->y);
    int x = x0;
    for (; x + 4 <= x1; x += 4) {
        const int32x4_t d = vsubq_s32(yv, vld1q_s32(job->ys + x));
        const uint32x4_t draw = vcgtq_s32(d, four);
        if (!side_any(draw))
            continue;
        uint16x4_t c[3];
        side_near_neon(job, x, d, c);
        const uint32x4_t px = side_pack4(c[2], c[1], c[0]);
        uint32_t *o = job->out + x;
        vst1q_u32(o, vbslq_u32(draw, px, vld1q_u32(o)));
    }
    rpl_side_shallow_c(jp, x, x1);
}
