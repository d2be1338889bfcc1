/* kernels/x86/side_mmx.h - what the side view's MMX kernels share: moves, the caustics' light over a pixel's channels, a pixel of water near the surface one and two at a time. */
#ifndef RPL_SIDE_MMX_H
#define RPL_SIDE_MMX_H

/*
 * MMX as a Pentium MMX or II has it: no pmulhuw, pminsw, pmovmskb or
 * pshufw (SSE's), so the kernels keep to 16-bit products (pmullw, and
 * pmulhw on values it reads as positive), saturations for the clamps,
 * masks for the choices, and the scene's pixels and the tables' entries
 * are read by scalar loads (no gather).  Each kernel ends with emms
 * (_mm_empty): its caller may use the x87 FPU, which shares the registers.
 */
#include <mmintrin.h>
#include <stdint.h>
#include <string.h>

#include "kernels/kernels.h"
#include "kernels/simd.h"
#include "kernels/x86/mmx_mem.h"

/*
 * The light a pixel's channels get, in 16-bit lanes (blue, green, red,
 * alpha) from a, the pixel's light in its four lanes:
 * (a * 230 >> 8, a, a * 200 >> 8, 0), kba holding (230, 256, 200, 0).
 * a <= 255 * RPL_SIDE_CW_MAX >> 8 keeps every product under 2^16.
 */
RPL_FORCE_INLINE __m64 side_light_rgb(__m64 a, __m64 kba)
{
    return _mm_srli_pi16(_mm_mullo_pi16(a, kba), 8);
}

/* (b, b, b, b) from b's low 16 bits. */
RPL_FORCE_INLINE __m64 side_spread(int b)
{
    const __m64 v = _mm_cvtsi32_si64(b);
    const __m64 v2 = _mm_unpacklo_pi16(v, v);
    return _mm_unpacklo_pi32(v2, v2);
}

/*
 * Pixel x of water near the surface at depth d >= 0, its gradient's
 * depth dg already clamped (kernels.h, the shallow water's rule), in
 * 16-bit lanes (blue, green, red, and a lane of no meaning where alpha
 * goes), each channel before its clamp to 255.  The indices and the
 * per-pixel factors in scalar registers, the channels in one MMX
 * register.  The last multiply, v * k >> 8 with v up to 255 + 191 and
 * k up to 256, overflows 16 bits: pmulhw of v << 6 (under 2^15) and
 * k << 2 (up to 1024) gives it, both positive.
 */
RPL_FORCE_INLINE __m64 side_near_mmx(const rpl_side_shallow_job_t *job, int x, int d, int dg,
                                     __m64 zero, __m64 kba)
{
    const int D = RPL_SIDE_DEPTHS;
    const uint32_t e = job->te[d < D ? d : D - 1];
    const int refr = (int)(e & 2047), ew = (int)(e >> 11 & 511), dk = (int)(e >> 20 & 511);
    int sx = x + ((job->sfx[x] * refr + job->wob[(x + job->phase) & 255] * ew) >> 16);
    sx = sx < 0 ? 0 : sx >= job->w ? job->w - 1 : sx;
    const unsigned add = job->light[(unsigned)(x + job->lx) & 255] * (job->tr[dg] >> 16) >> 8;
    const int k4 = 1024 - ((job->dcol[x] * dk >> 8) << 2);
    /* (pb, pg, pr, cw): cw's lane is the alpha's, whose result is dropped */
    const __m64 pre = _mm_unpacklo_pi32(mmx_ld32(job->tbg + dg), mmx_ld32(job->tr + dg));
    __m64 v = _mm_unpacklo_pi8(mmx_ld32(job->src + sx), zero);
    v = _mm_srli_pi16(_mm_add_pi16(_mm_mullo_pi16(v, side_spread((int)job->tia[dg])), pre), 8);
    v = _mm_add_pi16(v, side_light_rgb(side_spread((int)add), kba));
    return _mm_mulhi_pi16(_mm_slli_pi16(v, 6), side_spread(k4));
}

/* What the two-pixel rule (side_near2_mmx) keeps in registers. */
typedef struct {
    __m64 zero, kba, yv;
    __m64 m255, m511, m2047, k1024, sixteen;
    __m64 dsat;  /* 32767 - (D - 1): the depths' clamp (side_clamp16) */
    __m64 wsat;  /* 32767 - (w - 1): the columns' */
} side_mmx_t;

/* The row's width up to which the columns fit the clamp's 16-bit lanes. */
#define SIDE_MMX_W_MAX 32768

RPL_FORCE_INLINE void side_mmx_init(side_mmx_t *c, const rpl_side_shallow_job_t *job)
{
    c->zero = _mm_setzero_si64();
    c->kba = _mm_setr_pi16(230, 256, 200, 0);
    c->yv = _mm_set1_pi32(job->y);
    c->m255 = _mm_set1_pi32(255);
    c->m511 = _mm_set1_pi32(511);
    c->m2047 = _mm_set1_pi32(2047);
    c->k1024 = _mm_set1_pi32(1024);
    c->sixteen = _mm_set1_pi32(16);
    c->dsat = _mm_set1_pi16((short)(32767 - (RPL_SIDE_DEPTHS - 1)));
    c->wsat = _mm_set1_pi16((short)(32767 - (job->w - 1)));
}

/* Each 16-bit lane v to [0, m], sat = 32767 - m: max(v, 0) by a compare
 * and a mask, then paddsw saturates at 32767 exactly when v >= m. */
RPL_FORCE_INLINE __m64 side_clamp16(__m64 v, __m64 zero, __m64 sat)
{
    v = _mm_and_si64(v, _mm_cmpgt_pi16(v, zero));
    return _mm_sub_pi16(_mm_adds_pi16(v, sat), sat);
}

/* The low and the high 32 bits of v. */
RPL_FORCE_INLINE uint32_t side_lo32(__m64 v)
{
    return (uint32_t)_mm_cvtsi64_si32(v);
}

RPL_FORCE_INLINE uint32_t side_hi32(__m64 v)
{
    return (uint32_t)_mm_cvtsi64_si32(_mm_srli_si64(v, 32));
}

/*
 * Pixels x and x + 1 near the surface at depths d (two 32-bit lanes) as
 * side_near_mmx gives each, into *p0 and *p1; with foam, by the near
 * rows' gradient alone (the foam's rule).  The indices in vectors: the
 * 32-bit products of pmaddwd (the shift, slope and shimmer within int16,
 * the second factors' high halves 0), the clamps in 16-bit lanes after a
 * saturating pack (clamp(v) of an int32 is clamp of its saturation to
 * int16), each read back two at a time by a movd for the scalar loads.  Lanes the caller does not
 * draw read only clamped entries.  Needs w <= SIDE_MMX_W_MAX.
 */
RPL_FORCE_INLINE void side_near2_mmx(const rpl_side_shallow_job_t *job, const side_mmx_t *c,
                                     int x, __m64 xv, __m64 d, const int foam, __m64 *p0,
                                     __m64 *p1)
{
    const __m64 slope = _mm_madd_pi16(mmx_ld64(job->shift + x), _mm_and_si64(d, c->m255));
    __m64 dg = _mm_add_pi32(d, _mm_srai_pi32(slope, 4));
    if (!foam) {
        const __m64 near = _mm_cmpgt_pi32(c->sixteen, d);
        const __m64 far = _mm_sub_pi32(c->yv, mmx_ld64(job->gbase + x));
        dg = _mm_or_si64(_mm_and_si64(near, dg), _mm_andnot_si64(near, far));
    }
    /* (d, d, dg, dg) clamped */
    const __m64 ix = side_clamp16(_mm_packs_pi32(d, dg), c->zero, c->dsat);
    const uint32_t de = side_lo32(ix), gg = side_hi32(ix);
    const __m64 e = _mm_unpacklo_pi32(mmx_ld32(job->te + (de & 0xFFFF)),
                                      mmx_ld32(job->te + (de >> 16)));
    const __m64 refr = _mm_and_si64(e, c->m2047);
    const __m64 ew = _mm_and_si64(_mm_srli_pi32(e, 11), c->m511);
    const __m64 dk = _mm_and_si64(_mm_srli_pi32(e, 20), c->m511);
    const __m64 wb = mmx_ld64(job->wob + job->phase + (x & 255));
    __m64 s = _mm_add_pi32(_mm_madd_pi16(mmx_ld64(job->sfx + x), refr), _mm_madd_pi16(wb, ew));
    s = _mm_add_pi32(xv, _mm_srai_pi32(s, 16));
    const uint32_t sx = side_lo32(side_clamp16(_mm_packs_pi32(s, s), c->zero, c->wsat));
    const uint32_t *tr = job->tr, *tbg = job->tbg;
    const uint32_t g0 = gg & 0xFFFF, g1 = gg >> 16;
    const __m64 tr0 = _mm_cvtsi32_si64((int)tr[g0]), tr1 = _mm_cvtsi32_si64((int)tr[g1]);
    /* the light, l * cw < 2^16 in each 32-bit lane's low half */
    const __m64 l = _mm_unpacklo_pi16(
        _mm_unpacklo_pi8(mmx_ld32(job->light + ((unsigned)(x + job->lx) & 255)), c->zero), c->zero);
    const __m64 a = _mm_srli_pi32(_mm_mullo_pi16(l, _mm_srli_pi32(_mm_unpacklo_pi32(tr0, tr1), 16)), 8);
    const __m64 k4 = _mm_sub_pi32(
        c->k1024, _mm_slli_pi32(_mm_srli_pi32(_mm_madd_pi16(mmx_ld64(job->dcol + x), dk), 8), 2));
    /* (a0, a1, k0, k1) spread: each pixel's four lanes */
    const __m64 ak = _mm_packs_pi32(a, k4);
    const __m64 aa = _mm_unpacklo_pi16(ak, ak), kk = _mm_unpackhi_pi16(ak, ak);
    const uint32_t *src = job->src;
    __m64 v0 = _mm_unpacklo_pi8(mmx_ld32(src + (sx & 0xFFFF)), c->zero);
    __m64 v1 = _mm_unpacklo_pi8(mmx_ld32(src + (sx >> 16)), c->zero);
    v0 = _mm_mullo_pi16(v0, side_spread((int)job->tia[g0]));
    v1 = _mm_mullo_pi16(v1, side_spread((int)job->tia[g1]));
    v0 = _mm_srli_pi16(_mm_add_pi16(v0, _mm_unpacklo_pi32(mmx_ld32(tbg + g0), tr0)), 8);
    v1 = _mm_srli_pi16(_mm_add_pi16(v1, _mm_unpacklo_pi32(mmx_ld32(tbg + g1), tr1)), 8);
    v0 = _mm_add_pi16(v0, side_light_rgb(_mm_unpacklo_pi32(aa, aa), c->kba));
    v1 = _mm_add_pi16(v1, side_light_rgb(_mm_unpackhi_pi32(aa, aa), c->kba));
    *p0 = _mm_mulhi_pi16(_mm_slli_pi16(v0, 6), _mm_unpacklo_pi32(kk, kk));
    *p1 = _mm_mulhi_pi16(_mm_slli_pi16(v1, 6), _mm_unpackhi_pi32(kk, kk));
}

/* out[x], out[x + 1] = px where the 32-bit lanes of m are set. */
RPL_FORCE_INLINE void side_put2(uint32_t *out, __m64 m, __m64 px)
{
    const __m64 old = mmx_ld64(out);
    mmx_st64(out, _mm_or_si64(_mm_and_si64(m, px), _mm_andnot_si64(m, old)));
}

/* Nonzero when any lane of the mask m (0 or all ones per 32 bits) is set. */
RPL_FORCE_INLINE int side_any2(__m64 m)
{
    return _mm_cvtsi64_si32(_mm_packs_pi32(m, m)) != 0;
}

#endif
