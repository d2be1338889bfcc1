/* kernels/x86/refract_rgb565_avx2.c - AVX2 refraction into RGB565: 16 pixels a step, texels fetched by
 * scalar loads from the computed indices. */
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

static RPL_NOINLINE uint16_t texel(const rpl_refract_job_t *j, int x, int y, int xoff, int yoff)
{
    return rpl_texel565(j, x, y, xoff, yoff);
}

typedef struct {
    __m256i xbias, ybias, yv, pair, mul;
    __m256i zero, dmax, dmin, m5, m6; /* shading */
} consts_t;

/* Pixels x..x+15 of a row (1 <= x, x + 16 <= w - 1).  xv holds x + i + B
 * in the lane order vpermq 0xD8 leaves, pixels 0-3, 8-11 | 4-7, 12-15. */
RPL_FORCE_INLINE void step16(const consts_t *c, const uint16_t *bg, const uint16_t *bgrow,
                             uint16_t *out, const int16_t *h, const int16_t *hu,
                             const int16_t *hd, int x, __m256i xv, const int mode,
                             const int shading)
{
    const __m256i l = _mm256_loadu_si256((const __m256i *)(h + x - 1));
    const __m256i r = _mm256_loadu_si256((const __m256i *)(h + x + 1));
    const __m256i u = _mm256_loadu_si256((const __m256i *)(hu + x));
    const __m256i d = _mm256_loadu_si256((const __m256i *)(hd + x));
    const __m256i dx = _mm256_sub_epi16(r, l), dy = _mm256_sub_epi16(d, u);
    /* level water: the background's own pixels, no gather */
    const __m256i any = _mm256_or_si256(dx, dy);
    if (_mm256_testz_si256(any, any)) {
        _mm256_storeu_si256((__m256i *)(out + x),
                            _mm256_loadu_si256((const __m256i *)(bgrow + x)));
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
    /* into the order of nx: 0-3, 8-11 | 4-7, 12-15 */
    __m256i p = _mm256_permute4x64_epi64(_mm256_set_m128i(b, a), 0xD8);
    if (shading) {
        /* d = clamp((nx + ny) >> 2), then d >> 3 on R and B, d >> 2 on G,
         * each clamped to its channel (small values: no lane overflows) */
        __m256i dv = _mm256_srai_epi16(_mm256_add_epi16(nx, ny), 2);
        dv = _mm256_max_epi16(_mm256_min_epi16(dv, c->dmax), c->dmin);
        const __m256i d3 = _mm256_srai_epi16(dv, 3), d2 = _mm256_srai_epi16(dv, 2);
        __m256i rr = _mm256_add_epi16(_mm256_srli_epi16(p, 11), d3);
        __m256i gg = _mm256_add_epi16(_mm256_and_si256(_mm256_srli_epi16(p, 5), c->m6), d2);
        __m256i bb = _mm256_add_epi16(_mm256_and_si256(p, c->m5), d3);
        rr = _mm256_min_epi16(_mm256_max_epi16(rr, c->zero), c->m5);
        gg = _mm256_min_epi16(_mm256_max_epi16(gg, c->zero), c->m6);
        bb = _mm256_min_epi16(_mm256_max_epi16(bb, c->zero), c->m5);
        p = _mm256_or_si256(_mm256_or_si256(_mm256_slli_epi16(rr, 11), _mm256_slli_epi16(gg, 5)),
                            bb);
    }
    _mm256_storeu_si256((__m256i *)(out + x), _mm256_permute4x64_epi64(p, 0xD8));
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
    c.m5 = _mm256_set1_epi16(31);
    c.m6 = _mm256_set1_epi16(63);
    const __m256i iota = _mm256_setr_epi16(0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15);
    const __m256i stride = _mm256_set1_epi16(16);

    const uint16_t *const bg = j->bg16;
    for (int y = y0; y < y1; y++) {
        uint16_t *out = rpl_fb_row16(j, y);
        const int16_t *h = j->h + (ptrdiff_t)y * w;
        const uint16_t *bgrow = bg + (ptrdiff_t)y * w;
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
                step16(&c, bg, bgrow, out, h, hu, hd, x, xv, mode, shading);
                xv = _mm256_add_epi16(xv, stride);
            }
            /* the tail: one more step ending at xb (same values again) */
            if (x < xb)
                step16(&c, bg, bgrow, out, h, hu, hd, xb - 16,
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

void rpl_refract_rgb565_avx2(const rpl_refract_job_t *job, int x0, int x1, int y0, int y1)
{
    assert(job && job->h && job->bg16 && job->fb);
    assert(job->w >= RPL_DIM_MIN && job->w <= RPL_DIM_MAX);
    assert(job->hgt >= RPL_DIM_MIN && job->hgt <= RPL_DIM_MAX);
    assert(job->strength >= 0 && job->strength <= RPL_STRENGTH_MAX);
    assert(job->shading == 0 || job->shading == 1);
    assert(job->pitch % 2 == 0 && job->pitch >= (ptrdiff_t)job->w * 2);
    assert(0 <= x0 && x0 <= x1 && x1 <= job->w);
    assert(0 <= y0 && y0 <= y1 && y1 <= job->hgt);

    RPL_RENDER_BY_CLASS(render, job, x0, x1, y0, y1);
}
