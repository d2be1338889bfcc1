/* kernels/x86/side_shallow_mmx.c - MMX side-view water near its surface: a pixel's channels a register, tables and scene read by scalar loads (side_mmx.h). */
#include <mmintrin.h>

#include "kernels/kernels.h"
#include "kernels/x86/side_mmx.h"

/* Pixel by pixel, as the rule's pixels are drawn or left: what costs is
 * the channels' arithmetic, one register a pixel. */
void rpl_side_shallow_mmx(const rpl_side_shallow_job_t *jp, int x0, int x1)
{
    /* a copy the row's stores cannot reach: its fields stay in registers */
    const rpl_side_shallow_job_t copy = *jp, *job = &copy;
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
    _mm_empty();
}
