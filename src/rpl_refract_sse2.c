/* rpl_refract_sse2.c - SSE2 refraction into XRGB8888: 8 pixels a step, texels fetched by scalar loads. */
#include <assert.h>
#include <emmintrin.h>

#include "rpl_scalar.h"

/* The step below is instantiated per strength class and shading; forcing
 * the inlining lets those flags fold away in every copy. */
#if defined(__GNUC__)
#define RPL_FORCE_INLINE static inline __attribute__((always_inline))
#else
#define RPL_FORCE_INLINE static inline
#endif

/* Strength classes.  Offsets come from pmulhw: (n << k) * -(s << (12-k))
 * >> 16 == (-n * s) >> 4, with k the least shift that keeps the multiplier
 * within int16 (it may be -32768, hence the negated n = -diff).  For k >= 2,
 * n << k is taken with saturation: a saturated lane yields |offset| > 8191,
 * which clamps the coordinate to the same edge the exact offset does.
 * Strength 16 (offset = diff) skips the multiply. */
enum { K0, K1, K2, K3, ONE };

/* Everything the step needs, held in registers across a row. */
typedef struct {
    __m128i zero, wmax, hmax, yv, pair; /* pair: int16 (1, w), for pmaddwd */
    __m128i mul, bias, dmax, dmin, keep; /* keep: 0x00FFFFFF */
} consts_t;

/* Four texels by index, as one vector (movd loads need no store to be
 * forwarded into a wider load, unlike a gather through memory). */
RPL_FORCE_INLINE __m128i fetch4(const uint32_t *bg, const uint32_t *ix)
{
    const __m128i a = _mm_cvtsi32_si128((int)bg[ix[0]]);
    const __m128i b = _mm_cvtsi32_si128((int)bg[ix[1]]);
    const __m128i c = _mm_cvtsi32_si128((int)bg[ix[2]]);
    const __m128i d = _mm_cvtsi32_si128((int)bg[ix[3]]);
    return _mm_unpacklo_epi64(_mm_unpacklo_epi32(a, b), _mm_unpacklo_epi32(c, d));
}

/* Pixels x..x+7 of an interior row (1 <= x, x + 8 <= w - 1); xv = x + i. */
RPL_FORCE_INLINE void step8(const consts_t *c, const uint32_t *bg, uint32_t *out,
                            const int16_t *h, ptrdiff_t w, int x, __m128i xv, const int mode,
                            const int shading)
{
    const __m128i l = _mm_loadu_si128((const __m128i *)(h + x - 1));
    const __m128i r = _mm_loadu_si128((const __m128i *)(h + x + 1));
    const __m128i u = _mm_loadu_si128((const __m128i *)(h + x - w));
    const __m128i d = _mm_loadu_si128((const __m128i *)(h + x + w));
    /* negated differences: exact in int16 (|diff| <= 16383) */
    const __m128i nx = _mm_sub_epi16(r, l), ny = _mm_sub_epi16(d, u);
    __m128i sx, sy;
    if (mode == ONE) {
        /* |x - nx| <= 24574: no saturation at all */
        sx = _mm_sub_epi16(xv, nx);
        sy = _mm_sub_epi16(c->yv, ny);
    } else {
        __m128i tx = nx, ty = ny;
        for (int i = 0; i < mode; i++) {
            tx = _mm_adds_epi16(tx, tx);
            ty = _mm_adds_epi16(ty, ty);
        }
        /* |offset| <= 16384: the add cannot saturate */
        sx = _mm_add_epi16(xv, _mm_mulhi_epi16(tx, c->mul));
        sy = _mm_add_epi16(c->yv, _mm_mulhi_epi16(ty, c->mul));
    }
    sx = _mm_min_epi16(_mm_max_epi16(sx, c->zero), c->wmax);
    sy = _mm_min_epi16(_mm_max_epi16(sy, c->zero), c->hmax);
    /* sy * w + sx in one pmaddwd: both factors fit int16, the sum int32 */
    uint32_t ix[8];
    _mm_storeu_si128((__m128i *)ix, _mm_madd_epi16(_mm_unpacklo_epi16(sx, sy), c->pair));
    _mm_storeu_si128((__m128i *)(ix + 4), _mm_madd_epi16(_mm_unpackhi_epi16(sx, sy), c->pair));
    if (!shading) {
        for (int i = 0; i < 8; i++)
            out[x + i] = bg[ix[i]];
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
    consts_t c;
    c.zero = _mm_setzero_si128();
    c.wmax = _mm_set1_epi16((short)(w - 1));
    c.hmax = _mm_set1_epi16((short)(j->hgt - 1));
    c.pair = _mm_set1_epi32((int)(((uint32_t)w << 16) | 1u));
    c.mul = _mm_set1_epi16((short)(mode == ONE ? 0 : -(s << (12 - mode))));
    c.bias = _mm_set1_epi32(0x00808080);
    c.dmax = _mm_set1_epi16(RPL_SHADE_MAX);
    c.dmin = _mm_set1_epi16(-RPL_SHADE_MAX);
    const __m128i iota = _mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7);
    const __m128i eight = _mm_set1_epi16(8);

    for (int y = y0; y < y1; y++) {
        uint32_t *out = rpl_fb_row(j, y);
        if (y == 0 || y == j->hgt - 1) {
            for (int x = x0; x < x1; x++)
                out[x] = rpl_refract_px(j, x, y);
            continue;
        }
        const int xa = x0 > 1 ? x0 : 1, xb = x1 < w - 1 ? x1 : w - 1;
        if (x0 == 0 && x1 > 0)
            out[0] = rpl_refract_px(j, 0, y);
        const int16_t *h = j->h + (ptrdiff_t)y * w;
        if (xb - xa >= 8) {
            c.yv = _mm_set1_epi16((short)y);
            __m128i xv = _mm_add_epi16(iota, _mm_set1_epi16((short)xa));
            int x = xa;
            for (; x <= xb - 8; x += 8) {
                step8(&c, j->bg, out, h, w, x, xv, mode, shading);
                xv = _mm_add_epi16(xv, eight);
            }
            /* the tail: one more step ending at xb, redoing a few pixels
             * (same values) instead of a slow scalar loop */
            if (x < xb)
                step8(&c, j->bg, out, h, w, xb - 8,
                      _mm_add_epi16(iota, _mm_set1_epi16((short)(xb - 8))), mode, shading);
        } else {
            for (int x = xa; x < xb; x++)
                out[x] = rpl_texel(j, x, y, h[x - 1] - h[x + 1], h[x - w] - h[x + w]);
        }
        if (x1 == w && x0 < w)
            out[w - 1] = rpl_refract_px(j, w - 1, y);
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

    const int s = job->strength;
    const int mode = s == RPL_STRENGTH_ONE ? ONE : s <= 8 ? K0 : s <= 16 ? K1 : s <= 32 ? K2 : K3;
    switch (mode * 2 + (job->shading != 0)) {
    case K0 * 2: render(job, x0, x1, y0, y1, K0, 0); break;
    case K0 * 2 + 1: render(job, x0, x1, y0, y1, K0, 1); break;
    case K1 * 2: render(job, x0, x1, y0, y1, K1, 0); break;
    case K1 * 2 + 1: render(job, x0, x1, y0, y1, K1, 1); break;
    case K2 * 2: render(job, x0, x1, y0, y1, K2, 0); break;
    case K2 * 2 + 1: render(job, x0, x1, y0, y1, K2, 1); break;
    case K3 * 2: render(job, x0, x1, y0, y1, K3, 0); break;
    case K3 * 2 + 1: render(job, x0, x1, y0, y1, K3, 1); break;
    case ONE * 2: render(job, x0, x1, y0, y1, ONE, 0); break;
    default: render(job, x0, x1, y0, y1, ONE, 1); break;
    }
}
