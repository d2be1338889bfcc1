/* kernels/x86/side_foam_mmx.c - MMX side-view foam: two pixels a step, shaded as the water near the surface (side_mmx.h), then whitened and anti-aliased in 16-bit lanes. */
#include <mmintrin.h>

#include "kernels/kernels.h"
#include "kernels/x86/side_mmx.h"

typedef struct {
    __m64 zero, alpha, white, k256;
    __m64 k220, k60, sat256, m31; /* the pairs' (foam_pair) */
} foam_t;

/* v (16-bit lanes) blended toward t by fa, then over the scene's o by cv:
 * the foam's rule after its shading.  Both keep to 16 bits: v * (256 - fa)
 * + t * fa <= 255 * 256 with v, t <= 255, and so the cover's. */
RPL_FORCE_INLINE __m64 foam_blend(const foam_t *c, __m64 v, __m64 t, __m64 fa, __m64 o, __m64 cv)
{
    v = _mm_add_pi16(_mm_mullo_pi16(v, _mm_sub_pi16(c->k256, fa)), _mm_mullo_pi16(t, fa));
    v = _mm_srli_pi16(v, 8);
    v = _mm_add_pi16(_mm_mullo_pi16(o, _mm_sub_pi16(c->k256, cv)), _mm_mullo_pi16(v, cv));
    return _mm_srli_pi16(v, 8);
}

/* Pixel x at depth d (0..4) of the foam, water its shaded channels
 * (side_near_mmx); the white is made in bytes, 236 + s and 250 + s by a
 * saturating add (min(255, ...)). */
RPL_FORCE_INLINE __m64 foam_pixel(const rpl_side_shallow_job_t *job, const foam_t *c, int x,
                                  int d, __m64 water)
{
    const int f = job->fwq[x] - 256 * d;
    int fa = (f < 0 ? 0 : f > 256 ? 256 : f) * 220 >> 8;
    if (d == 0)
        fa += (256 - fa) * 60 >> 8;
    const int s = job->light[(unsigned)(x + job->lx) & 255] >> 3;
    const __m64 t = _mm_unpacklo_pi8(_mm_adds_pu8(c->white, _mm_cvtsi32_si64(s * 0x010101)), c->zero);
    const int cv = d == 0 ? job->cov[x] : 256;
    const __m64 fav = side_spread(fa), cvv = side_spread(cv);
    /* min(255, c): through bytes and back */
    const __m64 v = _mm_unpacklo_pi8(_mm_packs_pu16(water, water), c->zero);
    const __m64 o = _mm_unpacklo_pi8(mmx_ld32(job->src + x), c->zero);
    return _mm_or_si64(_mm_packs_pu16(foam_blend(c, v, t, fav, o, cvv), c->zero), c->alpha);
}

/* The four lanes of w (16-bit) spread: pixel 0's (w0) and pixel 1's (w1). */
RPL_FORCE_INLINE void foam_spread(__m64 w, __m64 *a, __m64 *b)
{
    const __m64 ww = _mm_unpacklo_pi16(w, w);
    *a = _mm_unpacklo_pi32(ww, ww);
    *b = _mm_unpackhi_pi32(ww, ww);
}

/*
 * Pixels x and x + 1 of the foam at depths d (32-bit lanes; those not
 * drawn any value), shaded p0 and p1: the foam's width, the top's share
 * and cover, and the sparkle worked out for both at once in 16-bit lanes.
 */
RPL_FORCE_INLINE __m64 foam_pair(const rpl_side_shallow_job_t *job, const foam_t *c, int x,
                                 __m64 d, __m64 p0, __m64 p1)
{
    const __m64 f = _mm_sub_pi32(mmx_ld64(job->fwq + x), _mm_slli_pi32(d, 8));
    __m64 fa = side_clamp16(_mm_packs_pi32(f, f), c->zero, c->sat256);
    fa = _mm_srli_pi16(_mm_mullo_pi16(fa, c->k220), 8);
    const __m64 d0 = _mm_cmpeq_pi32(d, c->zero);
    const __m64 top = _mm_packs_pi32(d0, d0);
    const __m64 more = _mm_srli_pi16(_mm_mullo_pi16(_mm_sub_pi16(c->k256, fa), c->k60), 8);
    fa = _mm_add_pi16(fa, _mm_and_si64(top, more));
    const __m64 cov = mmx_ld64(job->cov + x);
    const __m64 cv = _mm_or_si64(_mm_and_si64(top, _mm_packs_pi32(cov, cov)),
                                 _mm_andnot_si64(top, c->k256));
    /* the sparkle, light >> 3 in each byte of the pixel (the bytes'
     * shift by a word shift and a mask), onto the white by paddusb */
    const __m64 l = mmx_ld32(job->light + ((unsigned)(x + job->lx) & 255));
    const __m64 ll = _mm_unpacklo_pi8(l, l);
    const __m64 s = _mm_and_si64(_mm_srli_pi16(_mm_unpacklo_pi16(ll, ll), 3), c->m31);
    const __m64 t = _mm_adds_pu8(c->white, s);
    __m64 fa0, fa1, cv0, cv1;
    foam_spread(fa, &fa0, &fa1);
    foam_spread(cv, &cv0, &cv1);
    /* min(255, c): through bytes and back */
    const __m64 w = _mm_packs_pu16(p0, p1), o = mmx_ld64(job->src + x);
    const __m64 v0 = foam_blend(c, _mm_unpacklo_pi8(w, c->zero), _mm_unpacklo_pi8(t, c->zero), fa0,
                                _mm_unpacklo_pi8(o, c->zero), cv0);
    const __m64 v1 = foam_blend(c, _mm_unpackhi_pi8(w, c->zero), _mm_unpackhi_pi8(t, c->zero), fa1,
                                _mm_unpackhi_pi8(o, c->zero), cv1);
    return _mm_or_si64(_mm_packs_pu16(v0, v1), c->alpha);
}

void rpl_side_foam_mmx(const rpl_side_shallow_job_t *jp, int x0, int x1)
{
    /* a copy the row's stores cannot reach: its fields stay in registers */
    const rpl_side_shallow_job_t copy = *jp, *job = &copy;
    const int D = RPL_SIDE_DEPTHS, y = job->y;
    const __m64 kba = _mm_setr_pi16(230, 256, 200, 0);
    foam_t c;
    c.zero = _mm_setzero_si64();
    c.alpha = _mm_set1_pi32((int)0xFF000000u);
    c.white = _mm_set1_pi32(0x00ECFAFF); /* r 236, g 250, b 255 */
    c.k256 = _mm_set1_pi16(256);
    c.k220 = _mm_set1_pi16(220);
    c.k60 = _mm_set1_pi16(60);
    c.sat256 = _mm_set1_pi16(32767 - 256);
    c.m31 = _mm_set1_pi8(31);
    int x = x0;
    if (job->w <= SIDE_MMX_W_MAX) {
        side_mmx_t n;
        side_mmx_init(&n, job);
        const __m64 two = _mm_set1_pi32(2), five = _mm_set1_pi32(5), none = _mm_set1_pi32(-1);
        __m64 xv = _mm_setr_pi32(x, x + 1);
        for (; x + 2 <= x1; x += 2, xv = _mm_add_pi32(xv, two)) {
            const __m64 d = _mm_sub_pi32(n.yv, mmx_ld64(job->ys + x));
            const __m64 draw = _mm_and_si64(_mm_cmpgt_pi32(d, none), _mm_cmpgt_pi32(five, d));
            if (!side_any2(draw))
                continue;
            __m64 p0, p1;
            side_near2_mmx(job, &n, x, xv, d, 1, &p0, &p1);
            side_put2(job->out + x, draw, foam_pair(job, &c, x, d, p0, p1));
        }
    }
    for (; x < x1; x++) {
        const unsigned d = (unsigned)(y - job->ys[x]);
        if (d >= 5)
            continue;
        int dg = (int)d + (job->shift[x] * (int)d >> 4);
        dg = dg < 0 ? 0 : dg < D ? dg : D - 1;
        const __m64 water = side_near_mmx(job, x, (int)d, dg, c.zero, kba);
        job->out[x] = side_lo32(foam_pixel(job, &c, x, (int)d, water));
    }
    _mm_empty();
}
