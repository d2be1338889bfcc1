/* kernels/x86/refract_rgb565_avx2.c - AVX2 refraction into RGB565: texels by scalar loads from the stored indices, the light per 5-6-5 channel. */
#include <immintrin.h>
#include <stdint.h>

#define RPL_REFRACT_FN rpl_refract_rgb565_avx2
#define RPL_FMT_RGB565
#include "kernels/refract_fmt.h"

typedef struct {
    __m256i m5, m6; /* the channel masks and maxima */
} fmt_t;

#include "kernels/x86/refract_avx2_tpl.h"

RPL_FORCE_INLINE void fmt_init(fmt_t *f, const rpl_refract_job_t *j, const int shading)
{
    (void)j;
    (void)shading;
    f->m5 = _mm256_set1_epi16(31);
    f->m6 = _mm256_set1_epi16(63);
}

RPL_FORCE_INLINE void fmt_level(const fmt_t *f, px_t *o, const px_t *b, const int shading)
{
    (void)f;
    (void)shading;
    _mm256_storeu_si256((__m256i *)o, _mm256_loadu_si256((const __m256i *)b));
}

RPL_FORCE_INLINE void fmt_pixels(const consts_t *c, const fmt_t *f, px_t *o, const px_t *bg,
                                 __m256i i0, __m256i i1, __m256i nx, __m256i ny, __m256i dx,
                                 __m256i dy, const int shading)
{
    (void)dx;
    (void)dy;
    /* scalar loads from the stored indices, inserted with vpinsrw: on AMD
     * Zen faster than vpgatherdd of 32-bit words (which for 16-bit texels
     * also needs a shift, a mask and a pack, and care at the end of bg) */
    uint32_t ix[16];
    _mm256_storeu_si256((__m256i *)ix, i0);
    _mm256_storeu_si256((__m256i *)(ix + 8), i1);
    RPL_OPAQUE(ix);
    __m128i a = _mm_cvtsi32_si128(bg[ix[0]]), b = _mm_cvtsi32_si128(bg[ix[8]]);
    a = _mm_insert_epi16(a, bg[ix[1]], 1); b = _mm_insert_epi16(b, bg[ix[9]], 1);
    a = _mm_insert_epi16(a, bg[ix[2]], 2); b = _mm_insert_epi16(b, bg[ix[10]], 2);
    a = _mm_insert_epi16(a, bg[ix[3]], 3); b = _mm_insert_epi16(b, bg[ix[11]], 3);
    a = _mm_insert_epi16(a, bg[ix[4]], 4); b = _mm_insert_epi16(b, bg[ix[12]], 4);
    a = _mm_insert_epi16(a, bg[ix[5]], 5); b = _mm_insert_epi16(b, bg[ix[13]], 5);
    a = _mm_insert_epi16(a, bg[ix[6]], 6); b = _mm_insert_epi16(b, bg[ix[14]], 6);
    a = _mm_insert_epi16(a, bg[ix[7]], 7); b = _mm_insert_epi16(b, bg[ix[15]], 7);
    /* into the lane order of nx: 0-3, 8-11 | 4-7, 12-15 */
    __m256i p = _mm256_permute4x64_epi64(_mm256_set_m128i(b, a), 0xD8);
    if (shading) {
        /* d >> 3 on R and B, d >> 2 on G, each clamped to its channel
         * (small values: no lane overflows) */
        const __m256i dv = light(c, nx, ny);
        const __m256i d3 = _mm256_srai_epi16(dv, 3), d2 = _mm256_srai_epi16(dv, 2);
        __m256i rr = _mm256_add_epi16(_mm256_srli_epi16(p, 11), d3);
        __m256i gg = _mm256_add_epi16(_mm256_and_si256(_mm256_srli_epi16(p, 5), f->m6), d2);
        __m256i bb = _mm256_add_epi16(_mm256_and_si256(p, f->m5), d3);
        rr = _mm256_min_epi16(_mm256_max_epi16(rr, c->zero), f->m5);
        gg = _mm256_min_epi16(_mm256_max_epi16(gg, c->zero), f->m6);
        bb = _mm256_min_epi16(_mm256_max_epi16(bb, c->zero), f->m5);
        p = _mm256_or_si256(_mm256_or_si256(_mm256_slli_epi16(rr, 11), _mm256_slli_epi16(gg, 5)),
                            bb);
    }
    _mm256_storeu_si256((__m256i *)o, _mm256_permute4x64_epi64(p, 0xD8));
}
