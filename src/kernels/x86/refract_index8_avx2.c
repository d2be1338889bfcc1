/* kernels/x86/refract_index8_avx2.c - AVX2 refraction into INDEX8: texels and shade table entries by scalar loads from the stored indices. */
#include <assert.h>
#include <immintrin.h>
#include <stdint.h>

#define RPL_REFRACT_FN rpl_refract_index8_avx2
#define RPL_FMT_INDEX8
#include "kernels/refract_fmt.h"

typedef struct {
    const uint8_t *shade; /* the light's table, NULL without light; a local,
                           * as stores to the bytes of fb could change job */
    int level_same;       /* its level-0 row is the identity */
    __m256i two, rowbias;
} fmt_t;

#include "kernels/x86/refract_avx2_tpl.h"

RPL_FORCE_INLINE void fmt_init(fmt_t *f, const rpl_refract_job_t *j, const int shading)
{
    assert(!shading || j->shade8);
    f->shade = shading ? j->shade8 : NULL;
    f->level_same = shading && fmt_level_same(j->shade8);
    f->two = _mm256_set1_epi16(2);
    f->rowbias = _mm256_set1_epi16(RPL_SHADE_STEPS);
}

/* Through the table's level-0 row when shading, unless it is the
 * identity: that row need not be. */
RPL_FORCE_INLINE void fmt_level(const fmt_t *f, px_t *o, const px_t *b, const int shading)
{
    if (!shading || f->level_same) {
        _mm_storeu_si128((__m128i *)o, _mm_loadu_si128((const __m128i *)b));
        return;
    }
    const uint8_t *lv = f->shade + RPL_SHADE_STEPS * 256;
#define LV(i) (lv[b[i]] | lv[b[i + 1]] << 8)
    __m128i v = _mm_cvtsi32_si128(LV(0));
    v = _mm_insert_epi16(v, LV(2), 1); v = _mm_insert_epi16(v, LV(4), 2);
    v = _mm_insert_epi16(v, LV(6), 3); v = _mm_insert_epi16(v, LV(8), 4);
    v = _mm_insert_epi16(v, LV(10), 5); v = _mm_insert_epi16(v, LV(12), 6);
    v = _mm_insert_epi16(v, LV(14), 7);
#undef LV
    _mm_storeu_si128((__m128i *)o, v);
}

RPL_FORCE_INLINE void fmt_pixels(const consts_t *c, const fmt_t *f, px_t *o, const px_t *bg,
                                 __m256i i0, __m256i i1, __m256i nx, __m256i ny, __m256i dx,
                                 __m256i dy, const int shading)
{
    (void)nx;
    (void)ny;
    /* scalar loads from the stored indices, in byte pairs inserted with
     * vpinsrw: on AMD Zen faster than vpgatherdd of 32-bit words (which for
     * bytes also needs a shift, a mask, two packs and care at the ends of
     * bg and of the table) */
    uint32_t ix[16];
    _mm256_storeu_si256((__m256i *)ix, i0);
    _mm256_storeu_si256((__m256i *)(ix + 8), i1);
    RPL_OPAQUE(ix);
    __m128i v;
    if (!shading) {
#define PX(i) (bg[ix[i]] | bg[ix[i + 1]] << 8)
        v = _mm_cvtsi32_si128(PX(0));
        v = _mm_insert_epi16(v, PX(2), 1); v = _mm_insert_epi16(v, PX(4), 2);
        v = _mm_insert_epi16(v, PX(6), 3); v = _mm_insert_epi16(v, PX(8), 4);
        v = _mm_insert_epi16(v, PX(10), 5); v = _mm_insert_epi16(v, PX(12), 6);
        v = _mm_insert_epi16(v, PX(14), 7);
#undef PX
    } else {
        /* in pixel order, as ix: the table row (q + STEPS) * 256 with
         * q = (d + 2) >> 2, in [0, 48 * 256] */
        const __m256i q = _mm256_srai_epi16(_mm256_add_epi16(light(c, dx, dy), f->two), 2);
        uint16_t rw[16];
        _mm256_storeu_si256((__m256i *)rw, _mm256_slli_epi16(_mm256_add_epi16(q, f->rowbias), 8));
        RPL_OPAQUE(rw);
        const uint8_t *shade = f->shade;
#define SH(i) (shade[rw[i] + bg[ix[i]]] | shade[rw[i + 1] + bg[ix[i + 1]]] << 8)
        v = _mm_cvtsi32_si128(SH(0));
        v = _mm_insert_epi16(v, SH(2), 1); v = _mm_insert_epi16(v, SH(4), 2);
        v = _mm_insert_epi16(v, SH(6), 3); v = _mm_insert_epi16(v, SH(8), 4);
        v = _mm_insert_epi16(v, SH(10), 5); v = _mm_insert_epi16(v, SH(12), 6);
        v = _mm_insert_epi16(v, SH(14), 7);
#undef SH
    }
    _mm_storeu_si128((__m128i *)o, v);
}
