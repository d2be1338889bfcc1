/* kernels/x86/refract_sse2_tpl.h - the SSE2 refraction kernel, 8 pixels a step, once for every pixel format. */

/*
 * Included by one file per pixel format (refract_{xrgb8888,rgb565,index8}_sse2.c).
 * Before the #include, that file defines
 *   RPL_REFRACT_FN  the name of the kernel (declared in kernels/kernels.h)
 *   px_t            the framebuffer and background pixel
 *   fmt_t           the format's own constants, held in registers across a row
 * and after it the fmt_* functions declared below: the fetch, the light and
 * the store, which are all that differ between the formats.  The row loop
 * with its edges and tail, the offsets, the clamped coordinates and the
 * texel indices are here, once.
 */
#ifndef RPL_REFRACT_FN
#error "define RPL_REFRACT_FN, px_t and fmt_t before including refract_sse2_tpl.h"
#endif

#include <assert.h>
#include <emmintrin.h>

#include "kernels/simd.h"

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

/* Everything the step needs besides the format's own, held in registers
 * across a row. */
typedef struct {
    __m128i xbias, ybias; /* B of x and of y */
    __m128i yv;           /* y + B */
    __m128i pair;         /* int16 pairs (1, w), for pmaddwd */
    __m128i mul;          /* -(s << (12 - k)) */
    __m128i zero, dmax, dmin;
} consts_t;

/* What each format defines.  They are inlined into every instance of
 * render(), where `shading` is a constant. */

/* Sets up f (and asserts what it reads of j). */
RPL_FORCE_INLINE void fmt_init(fmt_t *f, const rpl_refract_job_t *j, const int shading);
/* The background in the format. */
RPL_FORCE_INLINE const px_t *fmt_bg(const rpl_refract_job_t *j);
/* One pixel by the scalar rule (kernels/scalar.h). */
RPL_FORCE_INLINE px_t fmt_texel(const rpl_refract_job_t *j, int x, int y, int xoff, int yoff);
/* o[0..7] where the water is level (no offset, no light): what the
 * background b[0..7] shows there. */
RPL_FORCE_INLINE void fmt_level(const fmt_t *f, px_t *o, const px_t *b, const int shading);
/* o[i] = bg[index of pixel i] for i in 0..7, the indices of pixels 0-3 in
 * the int32 lanes of i0, of 4-7 in i1; lit when shading by light(c, nx, ny)
 * of the negated differences.
 *
 * A format that loads its texels one by one stores the indices to an array
 * and reads them back past RPL_OPAQUE: one load each, where compilers left
 * to themselves extract them from the registers with a shuffle and a move
 * each.  The array is the format's own, declared where it is read: filled
 * here and read through a pointer, it cost GCC a register for the row (one
 * more load per level step). */
RPL_FORCE_INLINE void fmt_pixels(const consts_t *c, const fmt_t *f, px_t *o, const px_t *bg,
                                 __m128i i0, __m128i i1, __m128i nx, __m128i ny,
                                 const int shading);

/* The light's d = clamp(-(xoff + yoff) >> 2) per lane, from the negated
 * differences: -(xoff + yoff) = nx + ny, |.| <= 32766.  The formats call
 * it after their fetch: computed before it, here, it cost the RGB565
 * kernel 1% more instructions with GCC 12. */
RPL_FORCE_INLINE __m128i light(const consts_t *c, __m128i nx, __m128i ny)
{
    const __m128i d = _mm_srai_epi16(_mm_add_epi16(nx, ny), 2);
    return _mm_max_epi16(_mm_min_epi16(d, c->dmax), c->dmin);
}

/* One pixel the scalar way (edges, short spans): a single shared copy
 * rather than one inlined into every instance of render(). */
static RPL_NOINLINE px_t texel(const rpl_refract_job_t *j, int x, int y, int xoff, int yoff)
{
    return fmt_texel(j, x, y, xoff, yoff);
}

/* Pixels x..x+7 of a row (1 <= x, x + 8 <= w - 1); hu and hd are the rows
 * above and below, xv holds x + i + B. */
RPL_FORCE_INLINE void step8(const consts_t *c, const fmt_t *f, const px_t *bg,
                            const px_t *bgrow, px_t *out, const int16_t *h, const int16_t *hu,
                            const int16_t *hd, int x, __m128i xv, const int mode,
                            const int shading)
{
    const __m128i l = _mm_loadu_si128((const __m128i *)(h + x - 1));
    const __m128i r = _mm_loadu_si128((const __m128i *)(h + x + 1));
    const __m128i u = _mm_loadu_si128((const __m128i *)(hu + x));
    const __m128i d = _mm_loadu_si128((const __m128i *)(hd + x));
    const __m128i nx = _mm_sub_epi16(r, l), ny = _mm_sub_epi16(d, u);
    /* Where the water is level every offset and shade is 0: no index to
     * compute, no texel to fetch one by one. */
    const __m128i any = _mm_or_si128(nx, ny);
    if (_mm_movemask_epi8(_mm_cmpeq_epi16(any, c->zero)) == 0xFFFF) {
        fmt_level(f, out + x, bgrow + x, shading);
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
    const __m128i i0 = _mm_madd_epi16(_mm_unpacklo_epi16(sx, sy), c->pair);
    const __m128i i1 = _mm_madd_epi16(_mm_unpackhi_epi16(sx, sy), c->pair);
    fmt_pixels(c, f, out + x, bg, i0, i1, nx, ny, shading);
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
    c.yv = c.zero;
    c.pair = _mm_set1_epi32((int)(((uint32_t)w << 16) | 1u));
    c.mul = _mm_set1_epi16((short)(mode == ONE ? 0 : -(s << (12 - mode))));
    c.dmax = _mm_set1_epi16(RPL_SHADE_MAX);
    c.dmin = _mm_set1_epi16(-RPL_SHADE_MAX);
    fmt_t f;
    fmt_init(&f, j, shading);
    const __m128i iota = _mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7);
    const __m128i stride = _mm_set1_epi16(8);

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
        if (xb - xa >= 8) {
            c.yv = _mm_add_epi16(_mm_set1_epi16((short)y), c.ybias);
            __m128i xv = _mm_add_epi16(iota, _mm_set1_epi16((short)(xa + xbias)));
            int x = xa;
            for (; x <= xb - 8; x += 8) {
                step8(&c, &f, bg, bgrow, out, h, hu, hd, x, xv, mode, shading);
                xv = _mm_add_epi16(xv, stride);
            }
            /* the tail: one more step ending at xb, redoing a few pixels
             * (same values) instead of a slow scalar loop */
            if (x < xb)
                step8(&c, &f, bg, bgrow, out, h, hu, hd, xb - 8,
                      _mm_add_epi16(iota, _mm_set1_epi16((short)(xb - 8 + xbias))), mode, shading);
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
