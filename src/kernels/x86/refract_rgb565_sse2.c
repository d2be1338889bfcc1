/* kernels/x86/refract_rgb565_sse2.c - SSE2 refraction into RGB565: texels inserted with pinsrw, the light per 5-6-5 channel. */
#include <emmintrin.h>
#include <stdint.h>

#define RPL_REFRACT_FN rpl_refract_rgb565_sse2
#define RPL_FMT_RGB565
#include "kernels/refract_fmt.h"

typedef struct {
    __m128i m5, m6; /* the channel masks and maxima */
} fmt_t;

#include "kernels/x86/refract_sse2_tpl.h"

RPL_FORCE_INLINE void fmt_init(fmt_t *f, const rpl_refract_job_t *j, const int shading)
{
    (void)j;
    (void)shading;
    f->m5 = _mm_set1_epi16(31);
    f->m6 = _mm_set1_epi16(63);
}

RPL_FORCE_INLINE void fmt_level(const fmt_t *f, px_t *o, const px_t *b, const int shading)
{
    (void)f;
    (void)shading;
    _mm_storeu_si128((__m128i *)o, _mm_loadu_si128((const __m128i *)b));
}

RPL_FORCE_INLINE void fmt_pixels(const consts_t *c, const fmt_t *f, px_t *o, const px_t *bg,
                                 __m128i i0, __m128i i1, __m128i nx, __m128i ny,
                                 const int shading)
{
    uint32_t ix[8];
    _mm_storeu_si128((__m128i *)ix, i0);
    _mm_storeu_si128((__m128i *)(ix + 4), i1);
    RPL_OPAQUE(ix);
    __m128i p = _mm_cvtsi32_si128(bg[ix[0]]);
    p = _mm_insert_epi16(p, bg[ix[1]], 1);
    p = _mm_insert_epi16(p, bg[ix[2]], 2);
    p = _mm_insert_epi16(p, bg[ix[3]], 3);
    p = _mm_insert_epi16(p, bg[ix[4]], 4);
    p = _mm_insert_epi16(p, bg[ix[5]], 5);
    p = _mm_insert_epi16(p, bg[ix[6]], 6);
    p = _mm_insert_epi16(p, bg[ix[7]], 7);
    if (shading) {
        /* d >> 3 on R and B, d >> 2 on G, each clamped to its channel
         * (small values: no lane overflows) */
        const __m128i dv = light(c, nx, ny);
        const __m128i d3 = _mm_srai_epi16(dv, 3), d2 = _mm_srai_epi16(dv, 2);
        __m128i rr = _mm_add_epi16(_mm_srli_epi16(p, 11), d3);
        __m128i gg = _mm_add_epi16(_mm_and_si128(_mm_srli_epi16(p, 5), f->m6), d2);
        __m128i bb = _mm_add_epi16(_mm_and_si128(p, f->m5), d3);
        rr = _mm_min_epi16(_mm_max_epi16(rr, c->zero), f->m5);
        gg = _mm_min_epi16(_mm_max_epi16(gg, c->zero), f->m6);
        bb = _mm_min_epi16(_mm_max_epi16(bb, c->zero), f->m5);
        p = _mm_or_si128(_mm_or_si128(_mm_slli_epi16(rr, 11), _mm_slli_epi16(gg, 5)), bb);
    }
    _mm_storeu_si128((__m128i *)o, p);
}
