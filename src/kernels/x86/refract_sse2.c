/* kernels/x86/refract_sse2.c - SSE2 refraction into XRGB8888: 8 pixels a step, texels fetched by scalar loads. */
#include <assert.h>
#include <emmintrin.h>

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
    __m128i xbias, ybias; /* B of x and of y */
    __m128i yv;           /* y + B */
    __m128i pair;         /* int16 pairs (1, w), for pmaddwd */
    __m128i mul;          /* -(s << (12 - k)) */
    __m128i zero, bias, dmax, dmin; /* shading */
} consts_t;

/* Four texels by index, as one vector: movd loads and unpacks, as a
 * vector load of texels just stored one by one would stall on the failed
 * store forwarding. */
RPL_FORCE_INLINE __m128i fetch4(const uint32_t *bg, const uint32_t *ix)
{
    const __m128i a = _mm_cvtsi32_si128((int)bg[ix[0]]);
    const __m128i b = _mm_cvtsi32_si128((int)bg[ix[1]]);
    const __m128i c = _mm_cvtsi32_si128((int)bg[ix[2]]);
    const __m128i d = _mm_cvtsi32_si128((int)bg[ix[3]]);
    return _mm_unpacklo_epi64(_mm_unpacklo_epi32(a, b), _mm_unpacklo_epi32(c, d));
}

/* Pixels x..x+7 of a row (1 <= x, x + 8 <= w - 1); hu and hd are the rows
 * above and below, xv holds x + i + B. */
RPL_FORCE_INLINE void step8(const consts_t *c, const uint32_t *bg, const uint32_t *bgrow,
                            uint32_t *out, const int16_t *h, const int16_t *hu,
                            const int16_t *hd, int x, __m128i xv, const int mode,
                            const int shading)
{
    const __m128i l = _mm_loadu_si128((const __m128i *)(h + x - 1));
    const __m128i r = _mm_loadu_si128((const __m128i *)(h + x + 1));
    const __m128i u = _mm_loadu_si128((const __m128i *)(hu + x));
    const __m128i d = _mm_loadu_si128((const __m128i *)(hd + x));
    const __m128i nx = _mm_sub_epi16(r, l), ny = _mm_sub_epi16(d, u);
    /* Where the water is level every offset and shade is 0 and the pixels
     * are the background's own: a straight copy. */
    const __m128i any = _mm_or_si128(nx, ny);
    if (_mm_movemask_epi8(_mm_cmpeq_epi16(any, _mm_setzero_si128())) == 0xFFFF) {
        _mm_storeu_si128((__m128i *)(out + x), _mm_loadu_si128((const __m128i *)(bgrow + x)));
        _mm_storeu_si128((__m128i *)(out + x + 4),
                         _mm_loadu_si128((const __m128i *)(bgrow + x + 4)));
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
    /* sy * w + sx in one pmaddwd: both factors fit int16, the sum int32 */
    uint32_t ix[8];
    _mm_storeu_si128((__m128i *)ix, _mm_madd_epi16(_mm_unpacklo_epi16(sx, sy), c->pair));
    _mm_storeu_si128((__m128i *)(ix + 4), _mm_madd_epi16(_mm_unpackhi_epi16(sx, sy), c->pair));
    /* Reading the indices back from memory costs one load each; left to
     * themselves, compilers extract them from the registers instead, with
     * a shuffle and a move each.  The empty asm hides the array's content. */
    RPL_OPAQUE(ix);
    if (!shading) {
        /* written out: compilers keep a loop here, at twice the cost */
        out[x] = bg[ix[0]];
        out[x + 1] = bg[ix[1]];
        out[x + 2] = bg[ix[2]];
        out[x + 3] = bg[ix[3]];
        out[x + 4] = bg[ix[4]];
        out[x + 5] = bg[ix[5]];
        out[x + 6] = bg[ix[6]];
        out[x + 7] = bg[ix[7]];
        return;
    }
    /* -(xoff + yoff) = nx + ny, |.| <= 32766 */
    __m128i dv = _mm_srai_epi16(_mm_add_epi16(nx, ny), 2);
    dv = _mm_max_epi16(_mm_min_epi16(dv, c->dmax), c->dmin);
    /* d into bytes 0-2 of each pixel, 0 in byte 3: words (d, d) and (d, 0)
     * interleaved; biasing the channels by 0x80 turns the clamp to 0..255
     * into a signed saturating add */
    const __m128i b = _mm_packs_epi16(dv, dv);
    const __m128i dd = _mm_unpacklo_epi8(b, b), d0 = _mm_unpacklo_epi8(b, c->zero);
    const __m128i m0 = _mm_unpacklo_epi16(dd, d0), m1 = _mm_unpackhi_epi16(dd, d0);
    __m128i p0 = fetch4(bg, ix), p1 = fetch4(bg, ix + 4);
    p0 = _mm_xor_si128(_mm_adds_epi8(_mm_xor_si128(p0, c->bias), m0), c->bias);
    p1 = _mm_xor_si128(_mm_adds_epi8(_mm_xor_si128(p1, c->bias), m1), c->bias);
    _mm_storeu_si128((__m128i *)(out + x), p0);
    _mm_storeu_si128((__m128i *)(out + x + 4), p1);
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
    c.bias = _mm_set1_epi32(0x00808080);
    c.dmax = _mm_set1_epi16(RPL_SHADE_MAX);
    c.dmin = _mm_set1_epi16(-RPL_SHADE_MAX);
    const __m128i iota = _mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7);
    const __m128i stride = _mm_set1_epi16(8);

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
        if (xb - xa >= 8) {
            c.yv = _mm_add_epi16(_mm_set1_epi16((short)y), c.ybias);
            __m128i xv = _mm_add_epi16(iota, _mm_set1_epi16((short)(xa + xbias)));
            int x = xa;
            for (; x <= xb - 8; x += 8) {
                step8(&c, bg, bgrow, out, h, hu, hd, x, xv, mode, shading);
                xv = _mm_add_epi16(xv, stride);
            }
            /* the tail: one more step ending at xb, redoing a few pixels
             * (same values) instead of a slow scalar loop */
            if (x < xb)
                step8(&c, bg, bgrow, out, h, hu, hd, xb - 8,
                      _mm_add_epi16(iota, _mm_set1_epi16((short)(xb - 8 + xbias))), mode, shading);
        } else {
            for (int x = xa; x < xb; x++)
                out[x] = texel(j, x, y, h[x - 1] - h[x + 1], hu[x] - hd[x]);
        }
        if (x1 == w && x0 < w)
            out[w - 1] = texel(j, w - 1, y, h[w - 2], hu[w - 1] - hd[w - 1]);
    }
}

void rpl_refract_xrgb8888_sse2(const rpl_refract_job_t *job, int x0, int x1, int y0, int y1)
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
