/* kernels/x86/refract_index8_avx2.c - AVX2 refraction into INDEX8: 16 pixels a step, texels and shade
 * table entries fetched by scalar loads from the computed indices. */
#include <assert.h>
#include <immintrin.h>

#include "kernels/x86/simd.h"

/*
 * Offsets and coordinates are computed as in kernels/x86/refract_avx2.c (see the
 * comment there): negated differences in int16 lanes, the offset as a
 * pmulhw per strength class K0..K3 (ONE: strength 16, no multiply), the
 * coordinates biased by 32767 - (size - 1) and clamped by a signed and an
 * unsigned saturation, the index sy * w + sx by pmaddwd.
 */

static RPL_NOINLINE uint8_t texel(const rpl_refract_job_t *j, int x, int y, int xoff, int yoff)
{
    return rpl_texel8(j, x, y, xoff, yoff);
}

typedef struct {
    __m256i xbias, ybias, yv, pair, mul;
    __m256i zero, dmax, dmin, two, rowbias; /* shading */
} consts_t;

/* Pixels x..x+15 of a row (1 <= x, x + 16 <= w - 1).  xv holds x + i + B
 * in the lane order vpermq 0xD8 leaves, pixels 0-3, 8-11 | 4-7, 12-15. */
RPL_FORCE_INLINE void step16(const consts_t *c, const uint8_t *bg, const uint8_t *shade,
                             const uint8_t *bgrow, uint8_t *out, const int16_t *h,
                             const int16_t *hu, const int16_t *hd, int x, __m256i xv,
                             const int mode, const int shading)
{
    const __m256i l = _mm256_loadu_si256((const __m256i *)(h + x - 1));
    const __m256i r = _mm256_loadu_si256((const __m256i *)(h + x + 1));
    const __m256i u = _mm256_loadu_si256((const __m256i *)(hu + x));
    const __m256i d = _mm256_loadu_si256((const __m256i *)(hd + x));
    const __m256i dx = _mm256_sub_epi16(r, l), dy = _mm256_sub_epi16(d, u);
    /* level water: the background's own pixels, through the table's
     * level-0 row when shading (that row need not be the identity) */
    const __m256i any = _mm256_or_si256(dx, dy);
    if (_mm256_testz_si256(any, any)) {
        const __m128i b = _mm_loadu_si128((const __m128i *)(bgrow + x));
        if (!shading) {
            _mm_storeu_si128((__m128i *)(out + x), b);
            return;
        }
        const uint8_t *lv = shade + RPL_SHADE_STEPS * 256, *bb = bgrow + x;
#define LV(i) (lv[bb[i]] | lv[bb[i + 1]] << 8)
        __m128i v = _mm_cvtsi32_si128(LV(0));
        v = _mm_insert_epi16(v, LV(2), 1); v = _mm_insert_epi16(v, LV(4), 2);
        v = _mm_insert_epi16(v, LV(6), 3); v = _mm_insert_epi16(v, LV(8), 4);
        v = _mm_insert_epi16(v, LV(10), 5); v = _mm_insert_epi16(v, LV(12), 6);
        v = _mm_insert_epi16(v, LV(14), 7);
#undef LV
        _mm_storeu_si128((__m128i *)(out + x), v);
        return;
    }
    const __m256i nx = _mm256_permute4x64_epi64(dx, 0xD8);
    const __m256i ny = _mm256_permute4x64_epi64(dy, 0xD8);
    __m256i sx, sy;
    if (mode == ONE) {
        sx = _mm256_subs_epi16(xv, nx);
        sy = _mm256_subs_epi16(c->yv, ny);
    } else {
        __m256i tx = nx, ty = ny;
        for (int i = 0; i < mode; i++) {
            tx = _mm256_adds_epi16(tx, tx);
            ty = _mm256_adds_epi16(ty, ty);
        }
        sx = _mm256_adds_epi16(xv, _mm256_mulhi_epi16(tx, c->mul));
        sy = _mm256_adds_epi16(c->yv, _mm256_mulhi_epi16(ty, c->mul));
    }
    sx = _mm256_subs_epu16(sx, c->xbias);
    sy = _mm256_subs_epu16(sy, c->ybias);
    /* pixels 0-7 and 8-15 */
    const __m256i i0 = _mm256_madd_epi16(_mm256_unpacklo_epi16(sx, sy), c->pair);
    const __m256i i1 = _mm256_madd_epi16(_mm256_unpackhi_epi16(sx, sy), c->pair);
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
        /* d = clamp((dx + dy) >> 2) (dx, dy: pixels in order); the table
         * row (q + STEPS) * 256 with q = (d + 2) >> 2, in [0, 48 * 256] */
        __m256i dv = _mm256_srai_epi16(_mm256_add_epi16(dx, dy), 2);
        dv = _mm256_max_epi16(_mm256_min_epi16(dv, c->dmax), c->dmin);
        const __m256i q = _mm256_srai_epi16(_mm256_add_epi16(dv, c->two), 2);
        uint16_t rw[16];
        _mm256_storeu_si256((__m256i *)rw, _mm256_slli_epi16(_mm256_add_epi16(q, c->rowbias), 8));
        RPL_OPAQUE(rw);
#define SH(i) (shade[rw[i] + bg[ix[i]]] | shade[rw[i + 1] + bg[ix[i + 1]]] << 8)
        v = _mm_cvtsi32_si128(SH(0));
        v = _mm_insert_epi16(v, SH(2), 1); v = _mm_insert_epi16(v, SH(4), 2);
        v = _mm_insert_epi16(v, SH(6), 3); v = _mm_insert_epi16(v, SH(8), 4);
        v = _mm_insert_epi16(v, SH(10), 5); v = _mm_insert_epi16(v, SH(12), 6);
        v = _mm_insert_epi16(v, SH(14), 7);
#undef SH
    }
    _mm_storeu_si128((__m128i *)(out + x), v);
}

RPL_FORCE_INLINE void render(const rpl_refract_job_t *j, int x0, int x1, int y0, int y1,
                             const int mode, const int shading)
{
    const int w = j->w;
    const int s = j->strength;
    const int xbias = 32767 - (w - 1);
    consts_t c;
    c.zero = _mm256_setzero_si256();
    c.xbias = _mm256_set1_epi16((short)xbias);
    c.ybias = _mm256_set1_epi16((short)(32767 - (j->hgt - 1)));
    c.yv = c.zero;
    c.pair = _mm256_set1_epi32((int)(((uint32_t)w << 16) | 1u));
    c.mul = _mm256_set1_epi16((short)(mode == ONE ? 0 : -(s << (12 - mode))));
    c.dmax = _mm256_set1_epi16(RPL_SHADE_MAX);
    c.dmin = _mm256_set1_epi16(-RPL_SHADE_MAX);
    c.two = _mm256_set1_epi16(2);
    c.rowbias = _mm256_set1_epi16(RPL_SHADE_STEPS);
    const __m256i iota = _mm256_setr_epi16(0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15);
    const __m256i stride = _mm256_set1_epi16(16);

    const uint8_t *const bg = j->bg8;
    const uint8_t *const shade = shading ? j->shade8 : NULL;
    for (int y = y0; y < y1; y++) {
        uint8_t *out = rpl_fb_row8(j, y);
        const int16_t *h = j->h + (ptrdiff_t)y * w;
        const uint8_t *bgrow = bg + (ptrdiff_t)y * w;
        const int16_t *hu = y > 0 ? h - w : rpl_zero_row;
        const int16_t *hd = y < j->hgt - 1 ? h + w : rpl_zero_row;
        if (x0 == 0 && x1 > 0)
            out[0] = texel(j, 0, y, -h[1], hu[0] - hd[0]);
        const int xa = x0 > 1 ? x0 : 1, xb = x1 < w - 1 ? x1 : w - 1;
        if (xb - xa >= 16) {
            c.yv = _mm256_add_epi16(_mm256_set1_epi16((short)y), c.ybias);
            __m256i xv = _mm256_add_epi16(iota, _mm256_set1_epi16((short)(xa + xbias)));
            int x = xa;
            for (; x <= xb - 16; x += 16) {
                step16(&c, bg, shade, bgrow, out, h, hu, hd, x, xv, mode, shading);
                xv = _mm256_add_epi16(xv, stride);
            }
            /* the tail: one more step ending at xb (same values again) */
            if (x < xb)
                step16(&c, bg, shade, bgrow, out, h, hu, hd, xb - 16,
                       _mm256_add_epi16(iota, _mm256_set1_epi16((short)(xb - 16 + xbias))),
                       mode, shading);
        } else {
            for (int x = xa; x < xb; x++)
                out[x] = texel(j, x, y, h[x - 1] - h[x + 1], hu[x] - hd[x]);
        }
        if (x1 == w && x0 < w)
            out[w - 1] = texel(j, w - 1, y, h[w - 2], hu[w - 1] - hd[w - 1]);
    }
}

void rpl_refract_index8_avx2(const rpl_refract_job_t *job, int x0, int x1, int y0, int y1)
{
    assert(job && job->h && job->bg8 && job->fb);
    assert(!job->shading || job->shade8);
    assert(job->w >= RPL_DIM_MIN && job->w <= RPL_DIM_MAX);
    assert(job->hgt >= RPL_DIM_MIN && job->hgt <= RPL_DIM_MAX);
    assert(job->strength >= 0 && job->strength <= RPL_STRENGTH_MAX);
    assert(job->shading == 0 || job->shading == 1);
    assert(job->pitch >= (ptrdiff_t)job->w);
    assert(0 <= x0 && x0 <= x1 && x1 <= job->w);
    assert(0 <= y0 && y0 <= y1 && y1 <= job->hgt);

    RPL_RENDER_BY_CLASS(render, job, x0, x1, y0, y1);
}
