/* kernels/x86/refract_xrgb8888_sse2.c - SSE2 refraction into XRGB8888: texels by scalar loads, the light by a saturating byte add. */
#include <emmintrin.h>
#include <stdint.h>

#define RPL_REFRACT_FN rpl_refract_xrgb8888_sse2
#define RPL_FMT_XRGB8888
#include "kernels/refract_fmt.h"

typedef struct {
    __m128i bias; /* 0x80 in R, G and B: the light's clamp as a signed add */
} fmt_t;

#include "kernels/x86/refract_sse2_tpl.h"

RPL_FORCE_INLINE void fmt_init(fmt_t *f, const rpl_refract_job_t *j, const int shading)
{
    (void)j;
    (void)shading;
    f->bias = _mm_set1_epi32(0x00808080);
}

RPL_FORCE_INLINE void fmt_level(const fmt_t *f, px_t *o, const px_t *b, const int shading)
{
    (void)f;
    (void)shading;
    _mm_storeu_si128((__m128i *)o, _mm_loadu_si128((const __m128i *)b));
    _mm_storeu_si128((__m128i *)(o + 4), _mm_loadu_si128((const __m128i *)(b + 4)));
}

/* Four texels by index, as one vector: movd loads and unpacks, as a
 * vector load of texels just stored one by one would stall on the failed
 * store forwarding. */
RPL_FORCE_INLINE __m128i fetch4(const px_t *bg, const uint32_t *ix)
{
    const __m128i a = _mm_cvtsi32_si128((int)bg[ix[0]]);
    const __m128i b = _mm_cvtsi32_si128((int)bg[ix[1]]);
    const __m128i c = _mm_cvtsi32_si128((int)bg[ix[2]]);
    const __m128i d = _mm_cvtsi32_si128((int)bg[ix[3]]);
    return _mm_unpacklo_epi64(_mm_unpacklo_epi32(a, b), _mm_unpacklo_epi32(c, d));
}

RPL_FORCE_INLINE void fmt_pixels(const consts_t *c, const fmt_t *f, px_t *o, const px_t *bg,
                                 __m128i i0, __m128i i1, __m128i nx, __m128i ny,
                                 const int shading)
{
    uint32_t ix[8];
    _mm_storeu_si128((__m128i *)ix, i0);
    _mm_storeu_si128((__m128i *)(ix + 4), i1);
    RPL_OPAQUE(ix);
    if (!shading) {
        /* written out: compilers keep a loop here, at twice the cost */
        o[0] = bg[ix[0]];
        o[1] = bg[ix[1]];
        o[2] = bg[ix[2]];
        o[3] = bg[ix[3]];
        o[4] = bg[ix[4]];
        o[5] = bg[ix[5]];
        o[6] = bg[ix[6]];
        o[7] = bg[ix[7]];
        return;
    }
    /* d into bytes 0-2 of each pixel, 0 in byte 3: words (d, d) and (d, 0)
     * interleaved; biasing the channels by 0x80 turns the clamp to 0..255
     * into a signed saturating add */
    const __m128i dv = light(c, nx, ny);
    const __m128i b = _mm_packs_epi16(dv, dv);
    const __m128i dd = _mm_unpacklo_epi8(b, b), d0 = _mm_unpacklo_epi8(b, c->zero);
    const __m128i m0 = _mm_unpacklo_epi16(dd, d0), m1 = _mm_unpackhi_epi16(dd, d0);
    __m128i p0 = fetch4(bg, ix), p1 = fetch4(bg, ix + 4);
    p0 = _mm_xor_si128(_mm_adds_epi8(_mm_xor_si128(p0, f->bias), m0), f->bias);
    p1 = _mm_xor_si128(_mm_adds_epi8(_mm_xor_si128(p1, f->bias), m1), f->bias);
    _mm_storeu_si128((__m128i *)o, p0);
    _mm_storeu_si128((__m128i *)(o + 4), p1);
}
