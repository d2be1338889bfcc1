/* kernels/x86/side_shallow_mmx.c - MMX side-view water near its surface: two pixels a step, their indices in vectors, tables and scene read by scalar loads (side_mmx.h). */
#include <mmintrin.h>

#include "kernels/kernels.h"
#include "kernels/x86/side_mmx.h"

/* One pixel at a time: the row's last odd pixel, and rows too wide for
 * the pairs' 16-bit clamps. */
static void shallow_pixels(const rpl_side_shallow_job_t *job, int x0, int x1)
{
    const int D = RPL_SIDE_DEPTHS, y = job->y;
    const __m64 zero = _mm_setzero_si64(), kba = _mm_setr_pi16(230, 256, 200, 0);
    const __m64 alpha = _mm_set1_pi32((int)0xFF000000u);
    for (int x = x0; x < x1; x++) {
        const int d = y - job->ys[x];
        if (d < 5)
            continue;
        int dg = d < 16 ? d + (job->shift[x] * d >> 4) : y - job->gbase[x];
        dg = dg < 0 ? 0 : dg < D ? dg : D - 1;
        const __m64 v = side_near_mmx(job, x, d, dg, zero, kba);
        job->out[x] = (uint32_t)_mm_cvtsi64_si32(_mm_or_si64(_mm_packs_pu16(v, v), alpha));
    }
}

void rpl_side_shallow_mmx(const rpl_side_shallow_job_t *jp, int x0, int x1)
{
    /* a copy the row's stores cannot reach: its fields stay in registers */
    const rpl_side_shallow_job_t copy = *jp, *job = &copy;
    int x = x0;
    if (job->w <= SIDE_MMX_W_MAX) {
        side_mmx_t c;
        side_mmx_init(&c, job);
        const __m64 four = _mm_set1_pi32(4), two = _mm_set1_pi32(2);
        const __m64 alpha = _mm_set1_pi32((int)0xFF000000u);
        __m64 xv = _mm_setr_pi32(x, x + 1);
        for (; x + 2 <= x1; x += 2, xv = _mm_add_pi32(xv, two)) {
            const __m64 d = _mm_sub_pi32(c.yv, mmx_ld64(job->ys + x));
            const __m64 draw = _mm_cmpgt_pi32(d, four);
            if (!side_any2(draw))
                continue;
            __m64 p0, p1;
            side_near2_mmx(job, &c, x, xv, d, 0, &p0, &p1);
            side_put2(job->out + x, draw, _mm_or_si64(_mm_packs_pu16(p0, p1), alpha));
        }
    }
    shallow_pixels(job, x, x1);
    _mm_empty();
}
