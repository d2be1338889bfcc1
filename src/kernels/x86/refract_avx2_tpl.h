/* kernels/x86/refract_avx2_tpl.h - the AVX2 refraction kernel, 16 pixels a step, once for every pixel format. */

/*
 * Included by one file per pixel format (refract_{xrgb8888,rgb565,index8}_avx2.c),
 * in the way of kernels/x86/refract_sse2_tpl.h: before the #include that
 * file defines RPL_REFRACT_FN, px_t and fmt_t, after it the fmt_* functions
 * declared below.  The arithmetic is that of the SSE2 template (see the
 * comment there on how the offsets stay in 16-bit lanes) on twice the
 * lanes, with one twist: AVX2's unpacks work within 128-bit lanes, so the
 * step permutes the differences first (see step16).
 */
#ifndef RPL_REFRACT_FN
#error "define RPL_REFRACT_FN, px_t and fmt_t before including refract_avx2_tpl.h"
#endif

#include <assert.h>
#include <immintrin.h>

#include "kernels/simd.h"

/* Everything the step needs besides the format's own, held in registers
 * across a row. */
typedef struct {
    __m256i xbias, ybias; /* B of x and of y */
    __m256i yv;           /* y + B */
    __m256i pair;         /* int16 pairs (1, w), for pmaddwd */
    __m256i mul;          /* -(s << (12 - k)) */
    __m256i zero, dmax, dmin;
} consts_t;

/* What each format defines, as for the SSE2 template, for 16 pixels. */
RPL_FORCE_INLINE void fmt_init(fmt_t *f, const rpl_refract_job_t *j, const int shading);
RPL_FORCE_INLINE const px_t *fmt_bg(const rpl_refract_job_t *j);
RPL_FORCE_INLINE px_t fmt_texel(const rpl_refract_job_t *j, int x, int y, int xoff, int yoff);
RPL_FORCE_INLINE void fmt_level(const fmt_t *f, px_t *o, const px_t *b, const int shading);
/* The indices of pixels 0-7 are in the int32 lanes of i0, of 8-15 in i1.
 * The light's differences come in two orders: nx and ny in the step's
 * (pixels 0-3, 8-11 | 4-7, 12-15), dx and dy in pixel order; the format
 * takes light() of the pair that suits its store. */
RPL_FORCE_INLINE void fmt_pixels(const consts_t *c, const fmt_t *f, px_t *o, const px_t *bg,
                                 __m256i i0, __m256i i1, __m256i nx, __m256i ny, __m256i dx,
                                 __m256i dy, const int shading);

/* The light's d per lane from a pair of negated differences, as in the
 * SSE2 template. */
RPL_FORCE_INLINE __m256i light(const consts_t *c, __m256i a, __m256i b)
{
    const __m256i d = _mm256_srai_epi16(_mm256_add_epi16(a, b), 2);
    return _mm256_max_epi16(_mm256_min_epi16(d, c->dmax), c->dmin);
}

/* One pixel the scalar way (edges, short spans): a single shared copy
 * rather than one inlined into every instance of render(). */
static RPL_NOINLINE px_t texel(const rpl_refract_job_t *j, int x, int y, int xoff, int yoff)
{
    return fmt_texel(j, x, y, xoff, yoff);
}

/* Pixels x..x+15 of a row (1 <= x, x + 16 <= w - 1); hu and hd are the
 * rows above and below.  xv holds x + i + B in the lane order vpermq 0xD8
 * leaves, pixels 0-3, 8-11 | 4-7, 12-15, which the in-lane unpacks below
 * turn back into 0-7 and 8-15. */
RPL_FORCE_INLINE void step16(const consts_t *c, const fmt_t *f, const px_t *bg,
                             const px_t *bgrow, px_t *out, const int16_t *h, const int16_t *hu,
                             const int16_t *hd, int x, __m256i xv, const int mode,
                             const int shading)
{
    const __m256i l = _mm256_loadu_si256((const __m256i *)(h + x - 1));
    const __m256i r = _mm256_loadu_si256((const __m256i *)(h + x + 1));
    const __m256i u = _mm256_loadu_si256((const __m256i *)(hu + x));
    const __m256i d = _mm256_loadu_si256((const __m256i *)(hd + x));
    const __m256i dx = _mm256_sub_epi16(r, l), dy = _mm256_sub_epi16(d, u);
    /* Where the water is level every offset and shade is 0: no index to
     * compute, no texel to fetch.  Most of a frame is like that between
     * ripples. */
    const __m256i any = _mm256_or_si256(dx, dy);
    if (_mm256_testz_si256(any, any)) {
        fmt_level(f, out + x, bgrow + x, shading);
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
    fmt_pixels(c, f, out + x, bg, i0, i1, nx, ny, dx, dy, shading);
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
    c.zero = _mm256_setzero_si256();
    c.yv = c.zero;
    c.pair = _mm256_set1_epi32((int)(((uint32_t)w << 16) | 1u));
    c.mul = _mm256_set1_epi16((short)(mode == ONE ? 0 : -(s << (12 - mode))));
    c.dmax = _mm256_set1_epi16(RPL_SHADE_MAX);
    c.dmin = _mm256_set1_epi16(-RPL_SHADE_MAX);
    fmt_t f;
    fmt_init(&f, j, shading);
    const __m256i iota = _mm256_setr_epi16(0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15);
    const __m256i stride = _mm256_set1_epi16(16);

    const px_t *const bg = fmt_bg(j); /* a local: stores to fb cannot change it */
    for (int y = y0; y < y1; y++) {
        px_t *out = (px_t *)((unsigned char *)j->fb + (ptrdiff_t)y * j->pitch);
        const int16_t *h = j->h + (ptrdiff_t)y * w;
        const px_t *bgrow = bg + (ptrdiff_t)y * w;
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
                step16(&c, &f, bg, bgrow, out, h, hu, hd, x, xv, mode, shading);
                xv = _mm256_add_epi16(xv, stride);
            }
            /* the tail: one more step ending at xb, redoing a few pixels
             * (same values) instead of a slow scalar loop */
            if (x < xb)
                step16(&c, &f, bg, bgrow, out, h, hu, hd, xb - 16,
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

void RPL_REFRACT_FN(const rpl_refract_job_t *job, int x0, int x1, int y0, int y1)
{
    assert(job);
    rpl_refract_check(job, fmt_bg(job), (int)sizeof(px_t), x0, x1, y0, y1);
    RPL_RENDER_BY_CLASS(render, job, x0, x1, y0, y1);
}
