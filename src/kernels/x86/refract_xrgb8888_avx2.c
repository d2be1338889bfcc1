/* kernels/x86/refract_xrgb8888_avx2.c - AVX2 refraction into XRGB8888: texels fetched with vpgatherdd, the light by a saturating byte add. */
#include <immintrin.h>
#include <stdint.h>

#define RPL_REFRACT_FN rpl_refract_xrgb8888_avx2
#define RPL_FMT_XRGB8888
#include "kernels/refract_fmt.h"

typedef struct {
    __m256i bias;           /* 0x80 in R, G and B: the light's clamp as a signed add */
    __m256i sel_lo, sel_hi; /* vpshufb: the light's d into the pixels of i0, of i1 */
} fmt_t;

#include "kernels/x86/refract_avx2_tpl.h"

RPL_FORCE_INLINE void fmt_init(fmt_t *f, const rpl_refract_job_t *j, const int shading)
{
    (void)j;
    (void)shading;
    f->bias = _mm256_set1_epi32(0x00808080);
    /* per 128-bit lane: pixel i takes the low byte of word i (sel_lo) or of
     * word 4 + i (sel_hi); -1 writes a zero byte */
    f->sel_lo = _mm256_setr_epi8(0, 0, 0, -1, 2, 2, 2, -1, 4, 4, 4, -1, 6, 6, 6, -1,
                                 0, 0, 0, -1, 2, 2, 2, -1, 4, 4, 4, -1, 6, 6, 6, -1);
    f->sel_hi = _mm256_setr_epi8(8, 8, 8, -1, 10, 10, 10, -1, 12, 12, 12, -1, 14, 14, 14, -1,
                                 8, 8, 8, -1, 10, 10, 10, -1, 12, 12, 12, -1, 14, 14, 14, -1);
}

RPL_FORCE_INLINE void fmt_level(const fmt_t *f, px_t *o, const px_t *b, const int shading)
{
    (void)f;
    (void)shading;
    _mm256_storeu_si256((__m256i *)o, _mm256_loadu_si256((const __m256i *)b));
    _mm256_storeu_si256((__m256i *)(o + 8), _mm256_loadu_si256((const __m256i *)(b + 8)));
}

RPL_FORCE_INLINE void fmt_pixels(const consts_t *c, const fmt_t *f, px_t *o, const px_t *bg,
                                 __m256i i0, __m256i i1, __m256i nx, __m256i ny, __m256i dx,
                                 __m256i dy, const int shading)
{
    (void)dx;
    (void)dy;
    /* the indices are clamped into bg.  Scalar loads from a stored index
     * array ran no faster (AMD Zen 5) at 2.6 times the instructions. */
    __m256i p0 = _mm256_i32gather_epi32((const int *)bg, i0, 4);
    __m256i p1 = _mm256_i32gather_epi32((const int *)bg, i1, 4);
    if (shading) {
        /* d's low byte (its int8 value) into bytes 0-2 of each pixel, 0 in
         * byte 3; biasing the channels by 0x80 turns the clamp to 0..255
         * into a signed saturating add */
        const __m256i dv = light(c, nx, ny);
        const __m256i m0 = _mm256_shuffle_epi8(dv, f->sel_lo);
        const __m256i m1 = _mm256_shuffle_epi8(dv, f->sel_hi);
        p0 = _mm256_xor_si256(_mm256_adds_epi8(_mm256_xor_si256(p0, f->bias), m0), f->bias);
        p1 = _mm256_xor_si256(_mm256_adds_epi8(_mm256_xor_si256(p1, f->bias), m1), f->bias);
    }
    _mm256_storeu_si256((__m256i *)o, p0);
    _mm256_storeu_si256((__m256i *)(o + 8), p1);
}
