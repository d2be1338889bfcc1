/* kernels/x86/refract_avx2.c - AVX2 refraction into XRGB8888: 16 pixels a step, texels fetched with vpgatherdd. */
#include <assert.h>
#include <immintrin.h>

#include "kernels/x86/simd.h"

/*
 * How the offsets stay in 16-bit lanes.
 *
 * The differences are taken negated, n = -diff (exact: |diff| <= 16383).
 * The offset (diff * s) >> 4 is pmulhw((n << k), -(s << (12 - k))): the
 * product is -n * s << 12, its high half floor(diff * s / 16).  k is the
 * least shift keeping the multiplier in int16 (it may be -32768, the reason
 * for negating n), giving the classes K0..K3.  n << k fits int16 for
 * k <= 1; for k >= 2 it is taken with saturation: a saturated lane gives
 * |offset| >= 8192 while the exact one is as large, and both clamp the
 * coordinate to the same edge (sizes are <= 8192).  Strength 16
 * (offset = diff) skips the multiply: class ONE.
 *
 * Coordinates carry a bias B = 32767 - (size - 1), so the clamp to
 * [0, size - 1] is two saturations: the signed add of the offset stops at
 * 32767 (size - 1), and the unsigned subtraction of B stops at 0.  The sum
 * never goes negative before that: B >= 24576 and |offset| <= 16384.
 */

/* One pixel the scalar way (edges, short spans): a single shared copy
 * rather than one inlined into every instance of render(). */
static RPL_NOINLINE uint32_t texel(const rpl_refract_job_t *j, int x, int y, int xoff, int yoff)
{
    return rpl_texel(j, x, y, xoff, yoff);
}

/* Everything the step needs, held in registers across a row. */
typedef struct {
    __m256i xbias, ybias; /* B of x and of y */
    __m256i yv;           /* y + B */
    __m256i pair;         /* int16 pairs (1, w), for pmaddwd */
    __m256i mul;          /* -(s << (12 - k)) */
    __m256i bias, dmax, dmin, sel_lo, sel_hi; /* shading */
} consts_t;

/* Pixels x..x+15 of a row (1 <= x, x + 16 <= w - 1); hu and hd are the
 * rows above and below.  xv holds x + i + B in the lane order vpermq 0xD8
 * leaves, pixels 0-3, 8-11 | 4-7, 12-15, which the in-lane unpacks below
 * turn back into 0-7 and 8-15. */
RPL_FORCE_INLINE void step16(const consts_t *c, const uint32_t *bg, const uint32_t *bgrow,
                             uint32_t *out, const int16_t *h, const int16_t *hu,
                             const int16_t *hd, int x, __m256i xv, const int mode,
                             const int shading)
{
    const __m256i l = _mm256_loadu_si256((const __m256i *)(h + x - 1));
    const __m256i r = _mm256_loadu_si256((const __m256i *)(h + x + 1));
    const __m256i u = _mm256_loadu_si256((const __m256i *)(hu + x));
    const __m256i d = _mm256_loadu_si256((const __m256i *)(hd + x));
    const __m256i dx = _mm256_sub_epi16(r, l), dy = _mm256_sub_epi16(d, u);
    /* Where the water is level every offset and shade is 0 and the pixels
     * are the background's own: a straight copy, no gather.  Most of a
     * frame is like that between ripples. */
    const __m256i any = _mm256_or_si256(dx, dy);
    if (_mm256_testz_si256(any, any)) {
        _mm256_storeu_si256((__m256i *)(out + x),
                            _mm256_loadu_si256((const __m256i *)(bgrow + x)));
        _mm256_storeu_si256((__m256i *)(out + x + 8),
                            _mm256_loadu_si256((const __m256i *)(bgrow + x + 8)));
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
    /* sy * w + sx in one pmaddwd: both factors fit int16, the sum int32 */
    const __m256i i0 = _mm256_madd_epi16(_mm256_unpacklo_epi16(sx, sy), c->pair);
    const __m256i i1 = _mm256_madd_epi16(_mm256_unpackhi_epi16(sx, sy), c->pair);
    /* the indices are clamped into bg.  Scalar loads from a stored index
     * array ran no faster (AMD Zen 5) at 2.6 times the instructions. */
    __m256i p0 = _mm256_i32gather_epi32((const int *)bg, i0, 4);
    __m256i p1 = _mm256_i32gather_epi32((const int *)bg, i1, 4);
    if (shading) {
        /* -(xoff + yoff) = nx + ny, |.| <= 32766 */
        __m256i dv = _mm256_srai_epi16(_mm256_add_epi16(nx, ny), 2);
        dv = _mm256_max_epi16(_mm256_min_epi16(dv, c->dmax), c->dmin);
        /* d's low byte (its int8 value) into bytes 0-2 of each pixel, 0 in
         * byte 3; biasing the channels by 0x80 turns the clamp to 0..255
         * into a signed saturating add */
        const __m256i m0 = _mm256_shuffle_epi8(dv, c->sel_lo);
        const __m256i m1 = _mm256_shuffle_epi8(dv, c->sel_hi);
        p0 = _mm256_xor_si256(_mm256_adds_epi8(_mm256_xor_si256(p0, c->bias), m0), c->bias);
        p1 = _mm256_xor_si256(_mm256_adds_epi8(_mm256_xor_si256(p1, c->bias), m1), c->bias);
    }
    _mm256_storeu_si256((__m256i *)(out + x), p0);
    _mm256_storeu_si256((__m256i *)(out + x + 8), p1);
}

RPL_FORCE_INLINE void render(const rpl_refract_job_t *j, int x0, int x1, int y0, int y1,
                             const int mode, const int shading)
{
    const int w = j->w;
    const int s = j->strength;
    const int xbias = 32767 - (w - 1);
    consts_t c;
    c.xbias = _mm256_set1_epi16((short)xbias);
    c.ybias = _mm256_set1_epi16((short)(32767 - (j->hgt - 1)));
    c.pair = _mm256_set1_epi32((int)(((uint32_t)w << 16) | 1u));
    c.mul = _mm256_set1_epi16((short)(mode == ONE ? 0 : -(s << (12 - mode))));
    c.bias = _mm256_set1_epi32(0x00808080);
    c.dmax = _mm256_set1_epi16(RPL_SHADE_MAX);
    c.dmin = _mm256_set1_epi16(-RPL_SHADE_MAX);
    /* per 128-bit lane: pixel i takes the low byte of word i (sel_lo) or of
     * word 4 + i (sel_hi); -1 writes a zero byte */
    c.sel_lo = _mm256_setr_epi8(0, 0, 0, -1, 2, 2, 2, -1, 4, 4, 4, -1, 6, 6, 6, -1,
                                0, 0, 0, -1, 2, 2, 2, -1, 4, 4, 4, -1, 6, 6, 6, -1);
    c.sel_hi = _mm256_setr_epi8(8, 8, 8, -1, 10, 10, 10, -1, 12, 12, 12, -1, 14, 14, 14, -1,
                                8, 8, 8, -1, 10, 10, 10, -1, 12, 12, 12, -1, 14, 14, 14, -1);
    const __m256i iota = _mm256_setr_epi16(0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15);
    const __m256i stride = _mm256_set1_epi16(16);

    const uint32_t *const bg = j->bg; /* a local: stores to fb cannot change it */
    for (int y = y0; y < y1; y++) {
        uint32_t *out = rpl_fb_row(j, y);
        const int16_t *h = j->h + (ptrdiff_t)y * w;
        const uint32_t *bgrow = bg + (ptrdiff_t)y * w;
        /* the rows above and below; the wall outside the field reads 0 */
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
            /* the tail: one more step ending at xb, redoing a few pixels
             * (same values) instead of a slow scalar loop */
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

void rpl_refract_xrgb8888_avx2(const rpl_refract_job_t *job, int x0, int x1, int y0, int y1)
{
    assert(job && job->h && job->bg && job->fb);
    assert(job->w >= RPL_DIM_MIN && job->w <= RPL_DIM_MAX);
    assert(job->hgt >= RPL_DIM_MIN && job->hgt <= RPL_DIM_MAX);
    assert(job->strength >= 0 && job->strength <= RPL_STRENGTH_MAX);
    assert(job->shading == 0 || job->shading == 1);
    assert(job->pitch % 4 == 0 && job->pitch >= (ptrdiff_t)job->w * 4);
    assert(0 <= x0 && x0 <= x1 && x1 <= job->w);
    assert(0 <= y0 && y0 <= y1 && y1 <= job->hgt);

    RPL_RENDER_BY_CLASS(render, job, x0, x1, y0, y1);
}
