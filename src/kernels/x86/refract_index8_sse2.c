/* kernels/x86/refract_index8_sse2.c - SSE2 refraction into INDEX8: texels and shade table entries by scalar loads, inserted in pairs with pinsrw. */
#include <assert.h>
#include <emmintrin.h>
#include <stdint.h>

#define RPL_REFRACT_FN rpl_refract_index8_sse2
#define RPL_FMT_INDEX8
#include "kernels/refract_fmt.h"

typedef struct {
    const uint8_t *shade; /* the light's table, NULL without light; a local,
                           * as stores to the bytes of fb could change job */
    int level_same;       /* its level-0 row is the identity */
    __m128i two, rowbias;
} fmt_t;

#include "kernels/x86/refract_sse2_tpl.h"

RPL_FORCE_INLINE void fmt_init(fmt_t *f, const rpl_refract_job_t *j, const int shading)
{
    assert(!shading || j->shade8);
    f->shade = shading ? j->shade8 : NULL;
    f->level_same = shading && fmt_level_same(j->shade8);
    f->two = _mm_set1_epi16(2);
    f->rowbias = _mm_set1_epi16(RPL_SHADE_STEPS);
}

/* Through the table's level-0 row when shading, unless it is the
 * identity: that row need not be. */
RPL_FORCE_INLINE void fmt_level(const fmt_t *f, px_t *o, const px_t *b, const int shading)
{
    if (!shading || f->level_same) {
        _mm_storel_epi64((__m128i *)o, _mm_loadl_epi64((const __m128i *)b));
        return;
    }
    const uint8_t *lv = f->shade + RPL_SHADE_STEPS * 256;
    __m128i p = _mm_cvtsi32_si128(lv[b[0]] | lv[b[1]] << 8);
    p = _mm_insert_epi16(p, lv[b[2]] | lv[b[3]] << 8, 1);
    p = _mm_insert_epi16(p, lv[b[4]] | lv[b[5]] << 8, 2);
    p = _mm_insert_epi16(p, lv[b[6]] | lv[b[7]] << 8, 3);
    _mm_storel_epi64((__m128i *)o, p);
}

RPL_FORCE_INLINE void fmt_pixels(const consts_t *c, const fmt_t *f, px_t *o, const px_t *bg,
                                 __m128i i0, __m128i i1, __m128i nx, __m128i ny,
                                 const int shading)
{
    uint32_t ix[8];
    _mm_storeu_si128((__m128i *)ix, i0);
    _mm_storeu_si128((__m128i *)(ix + 4), i1);
    RPL_OPAQUE(ix);
    __m128i p;
    if (!shading) {
        p = _mm_cvtsi32_si128(bg[ix[0]] | bg[ix[1]] << 8);
        p = _mm_insert_epi16(p, bg[ix[2]] | bg[ix[3]] << 8, 1);
        p = _mm_insert_epi16(p, bg[ix[4]] | bg[ix[5]] << 8, 2);
        p = _mm_insert_epi16(p, bg[ix[6]] | bg[ix[7]] << 8, 3);
    } else {
        /* the table row (q + STEPS) * 256 with q = (d + 2) >> 2, in
         * [0, 48 * 256]: fits int16 */
        const __m128i q = _mm_srai_epi16(_mm_add_epi16(light(c, nx, ny), f->two), 2);
        uint16_t rw[8];
        _mm_storeu_si128((__m128i *)rw, _mm_slli_epi16(_mm_add_epi16(q, f->rowbias), 8));
        RPL_OPAQUE(rw);
        const uint8_t *shade = f->shade;
#define SH(i) shade[rw[i] + bg[ix[i]]]
        p = _mm_cvtsi32_si128(SH(0) | SH(1) << 8);
        p = _mm_insert_epi16(p, SH(2) | SH(3) << 8, 1);
        p = _mm_insert_epi16(p, SH(4) | SH(5) << 8, 2);
        p = _mm_insert_epi16(p, SH(6) | SH(7) << 8, 3);
#undef SH
    }
    _mm_storel_epi64((__m128i *)o, p);
}
