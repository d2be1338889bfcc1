/* kernels/x86/side_shallow_avx2.c - AVX2 side-view water near its surface: eight pixels at a time, tables and caustic texels by gathers, the scene by permutes where it can (side_avx2.h). */
#include <immintrin.h>

#include "kernels/kernels.h"
#include "kernels/x86/side_avx2.h"

/*
 * Per pixel in 32-bit lanes: the depth and the gradient's depth, clamped
 * so that every lane's gathers stay in the tables (lanes of pixels left
 * alone are computed too, then the old pixel is kept), the table entries,
 * the source column, the caustics and the darkening.  The channels are
 * done in 16-bit lanes, pixel values spread over their four channels by
 * unpacks: blend, light added, darkened as the high half of
 * (c << 7) * (k << 1) (which is c * k >> 8), packed with saturation.
 */
void rpl_side_shallow_avx2(const rpl_side_shallow_job_t *job, int x0, int x1)
{
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i m16 = _mm256_set1_epi32(0xFFFF);
    const __m256i zero = _mm256_setzero_si256(), four = _mm256_set1_epi32(4);
    const __m256i sixteen = _mm256_set1_epi32(16), dmax = _mm256_set1_epi32(RPL_SIDE_DEPTHS - 1);
    const __m256i wmax = _mm256_set1_epi32(job->w - 1), yv = _mm256_set1_epi32(job->y);
    const __m256i k200 = _mm256_set1_epi32(200), k230 = _mm256_set1_epi32(230);
    const __m256i k256 = _mm256_set1_epi32(256), alpha = _mm256_set1_epi32((int)0xFF000000u);
    const int *te = (const int *)(const void *)job->te, *tbg = (const int *)(const void *)job->tbg;
    const int *tr = (const int *)(const void *)job->tr, *tia = (const int *)(const void *)job->tia;
    int x = x0;
    for (; x + 8 <= x1; x += 8) {
#define LD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
        const __m256i xv = _mm256_add_epi32(_mm256_set1_epi32(x), lane);
        const __m256i d = _mm256_sub_epi32(yv, LD(job->ys + x));
        const __m256i draw = _mm256_cmpgt_epi32(d, four); /* d >= 5 */
        if (_mm256_testz_si256(draw, draw))
            continue;
        const __m256i de = _mm256_min_epi32(_mm256_max_epi32(d, zero), dmax);
        const __m256i e = _mm256_i32gather_epi32(te, de, 4);
        const __m256i refr = _mm256_and_si256(e, _mm256_set1_epi32(2047));
        const __m256i ew = _mm256_and_si256(_mm256_srli_epi32(e, 11), _mm256_set1_epi32(511));
        const __m256i dk = _mm256_and_si256(_mm256_srli_epi32(e, 20), _mm256_set1_epi32(511));
        const __m256i dnear = _mm256_add_epi32(
            de, _mm256_srai_epi32(_mm256_mullo_epi32(LD(job->shift + x), de), 4));
        const __m256i dfar = _mm256_sub_epi32(yv, LD(job->gbase + x));
        __m256i dg = _mm256_blendv_epi8(dfar, dnear, _mm256_cmpgt_epi32(sixteen, d));
        dg = _mm256_min_epi32(_mm256_max_epi32(dg, zero), dmax);
        const __m256i bg = _mm256_i32gather_epi32(tbg, dg, 4);
        const __m256i rc = _mm256_i32gather_epi32(tr, dg, 4);
        const __m256i ia = _mm256_i32gather_epi32(tia, dg, 4);
        const __m256i wb = LD(job->wob + job->phase + (x & 255));
        __m256i sx = _mm256_add_epi32(_mm256_mullo_epi32(LD(job->sfx + x), refr),
                                      _mm256_mullo_epi32(wb, ew));
        sx = _mm256_add_epi32(xv, _mm256_srai_epi32(sx, 16));
        sx = _mm256_min_epi32(_mm256_max_epi32(sx, zero), wmax);
        const __m256i p = row_pixels(job->src, job->w, x, sx);
        const __m256i light =
            side_light_avx2(job->caus, job->warpv, x, xv, job->c1x, job->c1y, job->c2x, job->c2y);
        const __m256i add =
            _mm256_srli_epi32(_mm256_mullo_epi16(light, _mm256_srli_epi32(rc, 16)), 8);
        const __m256i ar = _mm256_srli_epi32(_mm256_mullo_epi16(add, k200), 8);
        const __m256i ab = _mm256_srli_epi32(_mm256_mullo_epi16(add, k230), 8);
        const __m256i k = _mm256_sub_epi32(
            k256, _mm256_srli_epi32(_mm256_mullo_epi32(LD(job->dcol + x), dk), 8));
        /* per pixel, spread over its channels (b, g, r, x) */
        const __m256i ia2 = _mm256_or_si256(ia, _mm256_slli_epi32(ia, 16));
        const __m256i k2 = _mm256_slli_epi32(_mm256_or_si256(k, _mm256_slli_epi32(k, 16)), 1);
        const __m256i pr = _mm256_and_si256(rc, m16);
        const __m256i abg = _mm256_or_si256(ab, _mm256_slli_epi32(add, 16));
        __m256i lo = _mm256_unpacklo_epi8(p, zero), hi = _mm256_unpackhi_epi8(p, zero);
        lo = _mm256_add_epi16(_mm256_mullo_epi16(lo, _mm256_unpacklo_epi32(ia2, ia2)),
                              _mm256_unpacklo_epi32(bg, pr));
        hi = _mm256_add_epi16(_mm256_mullo_epi16(hi, _mm256_unpackhi_epi32(ia2, ia2)),
                              _mm256_unpackhi_epi32(bg, pr));
        lo = _mm256_add_epi16(_mm256_srli_epi16(lo, 8), _mm256_unpacklo_epi32(abg, ar));
        hi = _mm256_add_epi16(_mm256_srli_epi16(hi, 8), _mm256_unpackhi_epi32(abg, ar));
        lo = _mm256_mulhi_epu16(_mm256_slli_epi16(lo, 7), _mm256_unpacklo_epi32(k2, k2));
        hi = _mm256_mulhi_epu16(_mm256_slli_epi16(hi, 7), _mm256_unpackhi_epi32(k2, k2));
        const __m256i out = _mm256_or_si256(_mm256_packus_epi16(lo, hi), alpha);
        __m256i *o = (__m256i *)(void *)(job->out + x);
        _mm256_storeu_si256(o, _mm256_blendv_epi8(_mm256_loadu_si256(o), out, draw));
#undef LD
    }
    rpl_side_shallow_c(job, x, x1);
}
