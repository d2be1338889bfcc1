/* kernels/x86/refract_index8_sse2.c - SSE2 refraction into INDEX8: 8 pixels a step, texels (and shade
 * table entries) fetched by scalar loads and inserted in pairs with pinsrw. */
#include <assert.h>
#include <emmintrin.h>

#include "kernels/x86/simd.h"

/*
 * Offsets and coordinates are computed as in kernels/x86/refract_sse2.c (see the
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
    __m128i xbias, ybias, yv, pair, mul;
    __m128i zero, dmax, dmin, two, rowbias; /* shading */
} consts_t;

/* Pixels x..x+7 of a row (1 <= x, x + 8 <= w - 1). */
RPL_FORCE_INLINE void step8(const consts_t *c, const uint8_t *bg, const uint8_t *shade,
                            const uint8_t *bgrow, uint8_t *out, const int16_t *h,
                            const int16_t *hu, const int16_t *hd, int x, __m128i xv,
                            const int mode, const int shading)
{
    const __m128i l = _mm_loadu_si128((const __m128i *)(h + x - 1));
    const __m128i r = _mm_loadu_si128((const __m128i *)(h + x + 1));
    const __m128i u = _mm_loadu_si128((const __m128i *)(hu + x));
    const __m128i d = _mm_loadu_si128((const __m128i *)(hd + x));
    const __m128i nx = _mm_sub_epi16(r, l), ny = _mm_sub_epi16(d, u);
    /* level water: the background's own pixels, through the table's
     * level-0 row when shading (that row need not be the identity) */
    const __m128i any = _mm_or_si128(nx, ny);
    if (_mm_movemask_epi8(_mm_cmpeq_epi16(any, c->zero)) == 0xFFFF) {
        if (!shading) {
            _mm_storel_epi64((__m128i *)(out + x), _mm_loadl_epi64((const __m128i *)(bgrow + x)));
            return;
        }
        const uint8_t *lv = shade + RPL_SHADE_STEPS * 256;
        const uint8_t *b = bgrow + x;
        __m128i p = _mm_cvtsi32_si128(lv[b[0]] | lv[b[1]] << 8);
        p = _mm_insert_epi16(p, lv[b[2]] | lv[b[3]] << 8, 1);
        p = _mm_insert_epi16(p, lv[b[4]] | lv[b[5]] << 8, 2);
        p = _mm_insert_epi16(p, lv[b[6]] | lv[b[7]] << 8, 3);
        _mm_storel_epi64((__m128i *)(out + x), p);
        return;
    }
    __m128i sx, sy;
    if (mode == ONE) {
        sx = _mm_subs_epi16(xv, nx);
        sy = _mm_subs_epi16(c->yv, ny);
    } else {
        __m128i tx = nx, ty = ny;
        for (int i = 0; i < mode; i++) {
            tx = _mm_adds_epi16(tx, tx);
            ty = _mm_adds_epi16(ty, ty);
        }
        sx = _mm_adds_epi16(xv, _mm_mulhi_epi16(tx, c->mul));
        sy = _mm_adds_epi16(c->yv, _mm_mulhi_epi16(ty, c->mul));
    }
    sx = _mm_subs_epu16(sx, c->xbias);
    sy = _mm_subs_epu16(sy, c->ybias);
    uint32_t ix[8];
    _mm_storeu_si128((__m128i *)ix, _mm_madd_epi16(_mm_unpacklo_epi16(sx, sy), c->pair));
    _mm_storeu_si128((__m128i *)(ix + 4), _mm_madd_epi16(_mm_unpackhi_epi16(sx, sy), c->pair));
    RPL_OPAQUE(ix);
    __m128i p;
    if (!shading) {
        p = _mm_cvtsi32_si128(bg[ix[0]] | bg[ix[1]] << 8);
        p = _mm_insert_epi16(p, bg[ix[2]] | bg[ix[3]] << 8, 1);
        p = _mm_insert_epi16(p, bg[ix[4]] | bg[ix[5]] << 8, 2);
        p = _mm_insert_epi16(p, bg[ix[6]] | bg[ix[7]] << 8, 3);
    } else {
        /* d = clamp((nx + ny) >> 2); the table row (q + STEPS) * 256 with
         * q = (d + 2) >> 2, in [0, 48 * 256]: fits int16 */
        __m128i dv = _mm_srai_epi16(_mm_add_epi16(nx, ny), 2);
        dv = _mm_max_epi16(_mm_min_epi16(dv, c->dmax), c->dmin);
        const __m128i q = _mm_srai_epi16(_mm_add_epi16(dv, c->two), 2);
        uint16_t rw[8];
        _mm_storeu_si128((__m128i *)rw, _mm_slli_epi16(_mm_add_epi16(q, c->rowbias), 8));
        RPL_OPAQUE(rw);
#define SH(i) shade[rw[i] + bg[ix[i]]]
        p = _mm_cvtsi32_si128(SH(0) | SH(1) << 8);
        p = _mm_insert_epi16(p, SH(2) | SH(3) << 8, 1);
        p = _mm_insert_epi16(p, SH(4) | SH(5) << 8, 2);
        p = _mm_insert_epi16(p, SH(6) | SH(7) << 8, 3);
#undef SH
    }
    _mm_storel_epi64((__m128i *)(out + x), p);
}

RPL_FORCE_INLINE void render(const rpl_refract_job_t *j, int x0, int x1, int y0, int y1,
                             const int mode, const int shading)
{
    const int w = j->w;
    const int s = j->strength;
    const int xbias = 32767 - (w - 1);
    consts_t c;
    c.zero = _mm_setzero_si128();
    c.xbias = _mm_set1_epi16((short)xbias);
    c.ybias = _mm_set1_epi16((short)(32767 - (j->hgt - 1)));
    c.pair = _mm_set1_epi32((int)(((uint32_t)w << 16) | 1u));
    c.mul = _mm_set1_epi16((short)(mode == ONE ? 0 : -(s << (12 - mode))));
    c.dmax = _mm_set1_epi16(RPL_SHADE_MAX);
    c.dmin = _mm_set1_epi16(-RPL_SHADE_MAX);
    c.two = _mm_set1_epi16(2);
    c.rowbias = _mm_set1_epi16(RPL_SHADE_STEPS);
    c.yv = c.zero;
    const __m128i iota = _mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7);
    const __m128i stride = _mm_set1_epi16(8);

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
        if (xb - xa >= 8) {
            c.yv = _mm_add_epi16(_mm_set1_epi16((short)y), c.ybias);
            __m128i xv = _mm_add_epi16(iota, _mm_set1_epi16((short)(xa + xbias)));
            int x = xa;
            for (; x <= xb - 8; x += 8) {
                step8(&c, bg, shade, bgrow, out, h, hu, hd, x, xv, mode, shading);
                xv = _mm_add_epi16(xv, stride);
            }
            /* the tail: one more step ending at xb (same values again) */
            if (x < xb)
                step8(&c, bg, shade, bgrow, out, h, hu, hd, xb - 8,
                      _mm_add_epi16(iota, _mm_set1_epi16((short)(xb - 8 + xbias))), mode, shading);
        } else {
            for (int x = xa; x < xb; x++)
                out[x] = texel(j, x, y, h[x - 1] - h[x + 1], hu[x] - hd[x]);
        }
        if (x1 == w && x0 < w)
            out[w - 1] = texel(j, w - 1, y, h[w - 2], hu[w - 1] - hd[w - 1]);
    }
}

void rpl_refract_index8_sse2(const rpl_refract_job_t *job, int x0, int x1, int y0, int y1)
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
