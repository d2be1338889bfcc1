/* kernels/x86/side_mmx.h - what the side view's MMX kernels share: 32- and 64-bit moves, the caustics' light spread over a pixel's channels. */
#ifndef RPL_SIDE_MMX_H
#define RPL_SIDE_MMX_H

/*
 * MMX as a Pentium MMX or II has it: no pmulhuw, pminsw, pmovmskb or
 * pshufw (SSE's), so the kernels keep to 16-bit products (pmullw, and
 * pmulhw on values it reads as positive) and saturating packs for the
 * clamps, and the indices are worked out in scalar registers, which the
 * CPU has for that anyway.  Each kernel ends with emms (_mm_empty): its
 * caller may use the x87 FPU, which shares the registers.
 */
#include <mmintrin.h>
#include <stdint.h>
#include <string.h>

#include "kernels/kernels.h"
#include "kernels/simd.h"

RPL_FORCE_INLINE __m64 side_ld64(const void *p)
{
    __m64 v;
    memcpy(&v, p, sizeof v);
    return v;
}

RPL_FORCE_INLINE void side_st64(void *p, __m64 v)
{
    memcpy(p, &v, sizeof v);
}

/* 32 bits from p into the low half by a movd of its own: left alone,
 * compilers fold the load into a following punpckldq, which qemu (7.2)
 * reads as 64 bits, past the end of the row (refract_mmx_tpl.h). */
RPL_FORCE_INLINE __m64 side_ld32(const void *p)
{
    int32_t v;
    memcpy(&v, p, sizeof v);
    __m64 r = _mm_cvtsi32_si64(v);
#if defined(__GNUC__)
    __asm__("" : "+y"(r));
#endif
    return r;
}

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
    const __m64 pre = _mm_unpacklo_pi32(side_ld32(job->tbg + dg), side_ld32(job->tr + dg));
    __m64 v = _mm_unpacklo_pi8(side_ld32(job->src + sx), zero);
    v = _mm_srli_pi16(_mm_add_pi16(_mm_mullo_pi16(v, side_spread((int)job->tia[dg])), pre), 8);
    v = _mm_add_pi16(v, side_light_rgb(side_spread((int)add), kba));
    return _mm_mulhi_pi16(_mm_slli_pi16(v, 6), side_spread(k4));
}

#endif
