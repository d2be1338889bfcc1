/* kernels/x86/side_shallow_sse2.c - SSE2 side-view water near its surface: four pixels at a time, tables, scene and texels read one by one. */
#include <emmintrin.h>

#include "kernels/kernels.h"
#include "kernels/x86/side_sse2.h"

/* SSE2 has neither 32-bit min, max nor blends: by compares and masks. */
static inline __m128i sel(__m128i m, __m128i a, __m128i b) /* m ? a : b */
{
    return _mm_or_si128(_mm_and_si128(m, a), _mm_andnot_si128(m, b));
}

static inline __m128i clamp32(__m128i v, __m128i lo, __m128i hi)
{
    v = sel(_mm_cmplt_epi32(v, lo), lo, v);
    return sel(_mm_cmpgt_epi32(v, hi), hi, v);
}

/* a * b for 32-bit lanes whose values both fit int16, b >= 0: pmaddwd
 * adds the low halves' product (signed) to the high halves' (b's is 0). */
static inline __m128i mul16(__m128i a, __m128i b)
{
    return _mm_madd_epi16(a, b);
}

typedef union {
    __m128i v;
    int32_t i[4];
} lanes_t;

/*
 * As the AVX2 kernel (side_shallow_avx2.c) on four pixels: the indices in
 * vectors, stored, the table entries, pixels and texels read by scalar
 * loads; the 32-bit products (all of values within int16) by pmaddwd.
 */
void rpl_side_shallow_sse2(const rpl_side_shallow_job_t *job, int x0, int x1)
{
    const __m128i lane = _mm_setr_epi32(0, 1, 2, 3);
    const __m128i m255 = _mm_set1_epi32(255), m16 = _mm_set1_epi32(0xFFFF);
    const __m128i zero = _mm_setzero_si128(), four = _mm_set1_epi32(4);
    const __m128i sixteen = _mm_set1_epi32(16), dmax = _mm_set1_epi32(RPL_SIDE_DEPTHS - 1);
    const __m128i wmax = _mm_set1_epi32(job->w - 1), yv = _mm_set1_epi32(job->y);
    const __m128i k200 = _mm_set1_epi32(200), k230 = _mm_set1_epi32(230);
    const __m128i k256 = _mm_set1_epi32(256), alpha = _mm_set1_epi32((int)0xFF000000u);
    int x = x0;
    for (; x + 4 <= x1; x += 4) {
#define LD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
        const __m128i xv = _mm_add_epi32(_mm_set1_epi32(x), lane);
        const __m128i d = _mm_sub_epi32(yv, LD(job->ys + x));
        const __m128i draw = _mm_cmpgt_epi32(d, four);
        if (_mm_movemask_epi8(draw) == 0)
            continue;
        lanes_t de, dg, sx;
        de.v = clamp32(d, zero, dmax);
        const __m128i e = _mm_setr_epi32((int)job->te[de.i[0]], (int)job->te[de.i[1]],
                                         (int)job->te[de.i[2]], (int)job->te[de.i[3]]);
        const __m128i refr = _mm_and_si128(e, _mm_set1_epi32(2047));
        const __m128i ew = _mm_and_si128(_mm_srli_epi32(e, 11), _mm_set1_epi32(511));
        const __m128i dk = _mm_and_si128(_mm_srli_epi32(e, 20), _mm_set1_epi32(511));
        /* d < 16 only matters where d < 16: there it fits int16 */
        const __m128i dnear =
            _mm_add_epi32(de.v, _mm_srai_epi32(mul16(LD(job->shift + x), _mm_and_si128(de.v, m255)), 4));
        const __m128i dfar = _mm_sub_epi32(yv, LD(job->gbase + x));
        dg.v = clamp32(sel(_mm_cmplt_epi32(d, sixteen), dnear, dfar), zero, dmax);
        const __m128i bg = _mm_setr_epi32((int)job->tbg[dg.i[0]], (int)job->tbg[dg.i[1]],
                                          (int)job->tbg[dg.i[2]], (int)job->tbg[dg.i[3]]);
        const __m128i rc = _mm_setr_epi32((int)job->tr[dg.i[0]], (int)job->tr[dg.i[1]],
                                          (int)job->tr[dg.i[2]], (int)job->tr[dg.i[3]]);
        const __m128i ia = _mm_setr_epi32((int)job->tia[dg.i[0]], (int)job->tia[dg.i[1]],
                                          (int)job->tia[dg.i[2]], (int)job->tia[dg.i[3]]);
        const __m128i wb = LD(job->wob + job->phase + (x & 255));
        sx.v = _mm_add_epi32(mul16(LD(job->sfx + x), refr), mul16(wb, ew));
        sx.v = clamp32(_mm_add_epi32(xv, _mm_srai_epi32(sx.v, 16)), zero, wmax);
        const uint32_t *src = job->src;
        const __m128i p = _mm_setr_epi32((int)src[sx.i[0]], (int)src[sx.i[1]], (int)src[sx.i[2]],
                                         (int)src[sx.i[3]]);
        const __m128i light =
            side_light_sse2(job->caus, job->warpv, x, xv, job->c1x, job->c1y, job->c2x, job->c2y);
        const __m128i add = _mm_srli_epi32(_mm_mullo_epi16(light, _mm_srli_epi32(rc, 16)), 8);
        const __m128i ar = _mm_srli_epi32(_mm_mullo_epi16(add, k200), 8);
        const __m128i ab = _mm_srli_epi32(_mm_mullo_epi16(add, k230), 8);
        const __m128i k = _mm_sub_epi32(k256, _mm_srli_epi32(mul16(LD(job->dcol + x), dk), 8));
        const __m128i ia2 = _mm_or_si128(ia, _mm_slli_epi32(ia, 16));
        const __m128i k2 = _mm_slli_epi32(_mm_or_si128(k, _mm_slli_epi32(k, 16)), 1);
        const __m128i pr = _mm_and_si128(rc, m16);
        const __m128i abg = _mm_or_si128(ab, _mm_slli_epi32(add, 16));
        __m128i lo = _mm_unpacklo_epi8(p, zero), hi = _mm_unpackhi_epi8(p, zero);
        lo = _mm_add_epi16(_mm_mullo_epi16(lo, _mm_unpacklo_epi32(ia2, ia2)), _mm_unpacklo_epi32(bg, pr));
        hi = _mm_add_epi16(_mm_mullo_epi16(hi, _mm_unpackhi_epi32(ia2, ia2)), _mm_unpackhi_epi32(bg, pr));
        lo = _mm_add_epi16(_mm_srli_epi16(lo, 8), _mm_unpacklo_epi32(abg, ar));
        hi = _mm_add_epi16(_mm_srli_epi16(hi, 8), _mm_unpackhi_epi32(abg, ar));
        lo = _mm_mulhi_epu16(_mm_slli_epi16(lo, 7), _mm_unpacklo_epi32(k2, k2));
        hi = _mm_mulhi_epu16(_mm_slli_epi16(hi, 7), _mm_unpackhi_epi32(k2, k2));
        const __m128i out = _mm_or_si128(_mm_packus_epi16(lo, hi), alpha);
        __m128i *o = (__m128i *)(void *)(job->out + x);
        _mm_storeu_si128(o, sel(draw, out, _mm_loadu_si128(o)));
#undef LD
    }
    rpl_side_shallow_c(job, x, x1);
}
