/* kernels/x86/side_foam_mmx.c - MMX side-view foam: a pixel's channels a register, shaded as the water near the surface (side_mmx.h), then whitened and anti-aliased in 16-bit lanes. */
#include <mmintrin.h>

#include "kernels/kernels.h"
#include "kernels/x86/side_mmx.h"

/*
 * Pixel by pixel, as the shallow kernel.  Both blends keep to 16 bits:
 * c * (256 - fa) + t * fa <= 255 * 256 with c, t <= 255, and so the
 * cover's; the white is made in bytes, 236 + s and 250 + s by a
 * saturating add (min(255, ...)).
 */
void rpl_side_foam_mmx(const rpl_side_shallow_job_t *jp, int x0, int x1)
{
    /* a copy the row's stores cannot reach: its fields stay in registers */
    const rpl_side_shallow_job_t copy = *jp, *job = &copy;
    const int D = RPL_SIDE_DEPTHS, y = job->y;
    const __m64 zero = _mm_setzero_si64(), kba = _mm_setr_pi16(230, 256, 200, 0);
    const __m64 alpha = _mm_set1_pi32((int)0xFF000000u);
    const __m64 white = _mm_cvtsi32_si64(0x00ECFAFF); /* r 236, g 250, b 255 */
    const __m64 k256 = _mm_set1_pi16(256);
    for (int x = x0; x < x1; x++) {
        const unsigned d = (unsigned)(y - job->ys[x]);
        if (d >= 5)
            continue;
        int dg = (int)d + (job->shift[x] * (int)d >> 4);
        dg = dg < 0 ? 0 : dg < D ? dg : D - 1;
        const __m64 water = side_near_mmx(job, x, (int)d, dg, zero, kba);
        const int f = job->fwq[x] - 256 * (int)d;
        int fa = (f < 0 ? 0 : f > 256 ? 256 : f) * 220 >> 8;
        if (d == 0)
            fa += (256 - fa) * 60 >> 8;
        const int s = job->light[(unsigned)(x + job->lx) & 255] >> 3;
        const __m64 t = _mm_unpacklo_pi8(_mm_adds_pu8(white, _mm_cvtsi32_si64(s * 0x010101)), zero);
        const int cv = d == 0 ? job->cov[x] : 256;
        const __m64 fav = side_spread(fa), cvv = side_spread(cv);
        /* min(255, c): through bytes and back */
        __m64 v = _mm_unpacklo_pi8(_mm_packs_pu16(water, water), zero);
        v = _mm_add_pi16(_mm_mullo_pi16(v, _mm_sub_pi16(k256, fav)), _mm_mullo_pi16(t, fav));
        v = _mm_srli_pi16(v, 8);
        const __m64 o = _mm_unpacklo_pi8(side_ld32(job->src + x), zero);
        v = _mm_add_pi16(_mm_mullo_pi16(o, _mm_sub_pi16(k256, cvv)), _mm_mullo_pi16(v, cvv));
        v = _mm_srli_pi16(v, 8);
        job->out[x] = (uint32_t)_mm_cvtsi64_si32(_mm_or_si64(_mm_packs_pu16(v, v), alpha));
    }
    _mm_empty();
}
