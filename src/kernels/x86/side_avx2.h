/* kernels/x86/side_avx2.h - what the side view's AVX2 kernels share: the scene's pixels of a row by permutes where they lie near, the caustics' light, a pixel of water near the surface. */
#ifndef RPL_SIDE_AVX2_H
#define RPL_SIDE_AVX2_H

#include <immintrin.h>
#include <stdint.h>

#include "kernels/kernels.h"

#define SIDE_LD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))

/* The scene's pixels at columns sx (each lane's), x the first lane's:
 * from the sixteen pixels about x by two permutes where every sx lies
 * among them and they lie in the row, else by a gather. */
static inline __m256i row_pixels(const uint32_t *src, int w, int x, __m256i sx)
{
    const __m256i idx = _mm256_sub_epi32(sx, _mm256_set1_epi32(x - 4));
    if (x >= 4 && x + 12 <= w && _mm256_testz_si256(idx, _mm256_set1_epi32(~15))) {
        const __m256i lo = SIDE_LD(src + x - 4);
        const __m256i hi = SIDE_LD(src + x + 4);
        return _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(lo, idx),
                                  _mm256_permutevar8x32_epi32(hi, idx),
                                  _mm256_cmpgt_epi32(idx, _mm256_set1_epi32(7)));
    }
    return _mm256_i32gather_epi32((const int *)(const void *)src, sx, 4);
}

/* The caustics' light at the eight columns from x (kernels.h): eight
 * bytes of the periodic row, which runs 32 bytes past its 256. */
static inline __m256i side_light_avx2(const uint8_t *light, int lx, int x)
{
    return _mm256_cvtepu8_epi32(_mm_loadl_epi64(
        (const __m128i *)(const void *)(light + ((unsigned)(x + lx) & 255))));
}

/*
 * Eight pixels from x of water near the surface at depths d (kernels.h,
 * the shallow water's rule), each lane's depth clamped so that every
 * gather stays in the tables: the channels in 16-bit lanes as
 * _mm256_unpack{lo,hi}_epi8 spread a pixel vector, before their clamp to
 * 255, into *lo and *hi.  Products of 16-bit values whose result fits 16
 * bits are taken with _mm256_mullo_epi16 on 32-bit lanes (their high
 * halves 0); darkening is the high half of (c << 7) * (k << 1), which is
 * c * k >> 8.
 */
static inline void side_near_avx2(const rpl_side_shallow_job_t *job, int x, __m256i d,
                                  __m256i *lo_out, __m256i *hi_out)
{
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i m16 = _mm256_set1_epi32(0xFFFF), zero = _mm256_setzero_si256();
    const __m256i dmax = _mm256_set1_epi32(RPL_SIDE_DEPTHS - 1);
    const __m256i yv = _mm256_set1_epi32(job->y);
    const int *te = (const int *)(const void *)job->te, *tbg = (const int *)(const void *)job->tbg;
    const int *tr = (const int *)(const void *)job->tr, *tia = (const int *)(const void *)job->tia;
    const __m256i xv = _mm256_add_epi32(_mm256_set1_epi32(x), lane);
    const __m256i de = _mm256_min_epi32(_mm256_max_epi32(d, zero), dmax);
    const __m256i e = _mm256_i32gather_epi32(te, de, 4);
    const __m256i refr = _mm256_and_si256(e, _mm256_set1_epi32(2047));
    const __m256i ew = _mm256_and_si256(_mm256_srli_epi32(e, 11), _mm256_set1_epi32(511));
    const __m256i dk = _mm256_and_si256(_mm256_srli_epi32(e, 20), _mm256_set1_epi32(511));
    const __m256i dnear =
        _mm256_add_epi32(de, _mm256_srai_epi32(_mm256_mullo_epi32(SIDE_LD(job->shift + x), de), 4));
    const __m256i dfar = _mm256_sub_epi32(yv, SIDE_LD(job->gbase + x));
    __m256i dg = _mm256_blendv_epi8(dfar, dnear, _mm256_cmpgt_epi32(_mm256_set1_epi32(16), d));
    dg = _mm256_min_epi32(_mm256_max_epi32(dg, zero), dmax);
    const __m256i bg = _mm256_i32gather_epi32(tbg, dg, 4);
    const __m256i rc = _mm256_i32gather_epi32(tr, dg, 4);
    const __m256i ia = _mm256_i32gather_epi32(tia, dg, 4);
    const __m256i wb = SIDE_LD(job->wob + job->phase + (x & 255));
    __m256i sx = _mm256_add_epi32(_mm256_mullo_epi32(SIDE_LD(job->sfx + x), refr),
                                  _mm256_mullo_epi32(wb, ew));
    sx = _mm256_add_epi32(xv, _mm256_srai_epi32(sx, 16));
    sx = _mm256_min_epi32(_mm256_max_epi32(sx, zero), _mm256_set1_epi32(job->w - 1));
    const __m256i p = row_pixels(job->src, job->w, x, sx);
    const __m256i light = side_light_avx2(job->light, job->lx, x);
    const __m256i add = _mm256_srli_epi32(_mm256_mullo_epi16(light, _mm256_srli_epi32(rc, 16)), 8);
    const __m256i ar = _mm256_srli_epi32(_mm256_mullo_epi16(add, _mm256_set1_epi32(200)), 8);
    const __m256i ab = _mm256_srli_epi32(_mm256_mullo_epi16(add, _mm256_set1_epi32(230)), 8);
    const __m256i k = _mm256_sub_epi32(_mm256_set1_epi32(256),
                                       _mm256_srli_epi32(_mm256_mullo_epi32(SIDE_LD(job->dcol + x), dk), 8));
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
    *lo_out = _mm256_mulhi_epu16(_mm256_slli_epi16(lo, 7), _mm256_unpacklo_epi32(k2, k2));
    *hi_out = _mm256_mulhi_epu16(_mm256_slli_epi16(hi, 7), _mm256_unpackhi_epi32(k2, k2));
}

#endif
