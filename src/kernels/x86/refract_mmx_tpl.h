/* kernels/x86/refract_mmx_tpl.h - the MMX refraction kernel, 8 pixels a step in two vectors of 4, once for every pixel format. */

/*
 * Included by one file per pixel format (refract_{xrgb8888,rgb565,index8}_mmx.c).
 * Before the #include, that file defines
 *   RPL_REFRACT_FN  the name of the kernel (declared in kernels/kernels.h)
 *   px_t            the framebuffer and background pixel
 *   fmt_t           the format's own constants
 * and after it the fmt_* functions declared below.  The offsets, the clamp
 * and the indices follow refract_sse2_tpl.h, in 4 lanes; MMX (a Pentium
 * MMX or II) lacks what SSE added to the 64-bit registers (pminsw, pmaxsw,
 * pmovmskb, pinsrw), so:
 *
 *   - the test for level water packs the 16-bit lanes to bytes with
 *     signed saturation (a nonzero word stays a nonzero byte) and reads
 *     the four bytes as one 32-bit value;
 *   - the light's clamp to [-M, M] (M = RPL_SHADE_MAX) is made of two
 *     saturations, as in step_mmx.c: v = (nx + ny) >> 2 lies in
 *     [-8192, 8191], so paddsw(v, 32767 - M) is min(v, M) + 32767 - M,
 *     positive, and psubusw of 32767 - 2M from it leaves
 *     clamp(v, -M, M) + M, the light biased by M (light_biased());
 *   - the texels are read one by one by scalar loads from the indices
 *     stored to memory (the gather MMX lacks), as the SSE2 kernels do.
 *
 * Every kernel ends with emms (_mm_empty) before it returns: its caller may
 * use the x87 FPU, which shares the registers.
 */
#ifndef RPL_REFRACT_FN
#error "define RPL_REFRACT_FN, px_t and fmt_t before including refract_mmx_tpl.h"
#endif

#include <assert.h>
#include <mmintrin.h>
#include <string.h>

#include "kernels/simd.h"
#include "kernels/x86/mmx_mem.h"

/* Everything the step needs besides the format's own. */
typedef struct {
    __m64 xbias, ybias; /* B of x and of y (refract_sse2_tpl.h) */
    __m64 yv;           /* y + B */
    __m64 pair;         /* int16 pairs (1, w), for pmaddwd */
    __m64 mul;          /* -(s << (12 - k)) */
    __m64 four, eight;  /* lane steps of x */
    __m64 lsat, lsub;   /* the light's clamp: 32767 - M, 32767 - 2M */
    __m64 zero;
} consts_t;

/* o[i] = bg[ix[i]] for i in 0..3: the texels one by one. */
RPL_FORCE_INLINE void gather4(px_t *o, const px_t *bg, const uint32_t *ix)
{
    o[0] = bg[ix[0]];
    o[1] = bg[ix[1]];
    o[2] = bg[ix[2]];
    o[3] = bg[ix[3]];
}

/* o[0..7] = b[0..7], by movq (written out: as a loop, compilers make
 * scalar moves of it). */
RPL_FORCE_INLINE void copy8(px_t *o, const px_t *b)
{
    unsigned char *d = (unsigned char *)o;
    const unsigned char *s = (const unsigned char *)b;
    mmx_st64(d, mmx_ld64(s));
    if (sizeof(px_t) >= 2)
        mmx_st64(d + 8, mmx_ld64(s + 8));
    if (sizeof(px_t) == 4) {
        mmx_st64(d + 16, mmx_ld64(s + 16));
        mmx_st64(d + 24, mmx_ld64(s + 24));
    }
}

/* What each format defines; inlined into every instance of render(), where
 * `shading` is a constant. */

/* Sets up f (and asserts what it reads of j). */
RPL_FORCE_INLINE void fmt_init(fmt_t *f, const rpl_refract_job_t *j, const int shading);
/* The background in the format. */
RPL_FORCE_INLINE const px_t *fmt_bg(const rpl_refract_job_t *j);
/* One pixel by the scalar rule (kernels/scalar.h). */
RPL_FORCE_INLINE px_t fmt_texel(const rpl_refract_job_t *j, int x, int y, int xoff, int yoff);
/* o[0..7] where the water is level (no offset, no light): what the
 * background b[0..7] shows there. */
RPL_FORCE_INLINE void fmt_level(const fmt_t *f, px_t *o, const px_t *b, const int shading);
/* o[i] = bg[ix[i]] for i in 0..3, lit when shading by light_biased(c, nx,
 * ny) of the negated differences nx, ny. */
RPL_FORCE_INLINE void fmt_pixels(const consts_t *c, const fmt_t *f, px_t *o, const px_t *bg,
                                 const uint32_t *ix, __m64 nx, __m64 ny, const int shading);

/* The light's d + M per lane, d = clamp(-(xoff + yoff) >> 2, -M, M), from
 * the negated differences: -(xoff + yoff) = nx + ny, |.| <= 32766. */
RPL_FORCE_INLINE __m64 light_biased(const consts_t *c, __m64 nx, __m64 ny)
{
    const __m64 v = _mm_srai_pi16(_mm_add_pi16(nx, ny), 2);
    return _mm_subs_pu16(_mm_adds_pi16(v, c->lsat), c->lsub);
}

/* One pixel the scalar way (edges, short spans): one shared copy. */
static RPL_NOINLINE px_t texel(const rpl_refract_job_t *j, int x, int y, int xoff, int yoff)
{
    return fmt_texel(j, x, y, xoff, yoff);
}

/* Four pixels at o with the negated differences nx, ny; xv holds x + i + B. */
RPL_FORCE_INLINE void step4(const consts_t *c, const fmt_t *f, const px_t *bg, px_t *o,
                            __m64 nx, __m64 ny, __m64 xv, const int mode, const int shading)
{
    __m64 sx, sy;
    if (mode == ONE) {
        sx = _mm_subs_pi16(xv, nx);
        sy = _mm_subs_pi16(c->yv, ny);
    } else {
        __m64 tx = nx, ty = ny;
        for (int i = 0; i < mode; i++) {
            tx = _mm_adds_pi16(tx, tx);
            ty = _mm_adds_pi16(ty, ty);
        }
        sx = _mm_adds_pi16(xv, _mm_mulhi_pi16(tx, c->mul));
        sy = _mm_adds_pi16(c->yv, _mm_mulhi_pi16(ty, c->mul));
    }
    sx = _mm_subs_pu16(sx, c->xbias);
    sy = _mm_subs_pu16(sy, c->ybias);
    /* sy * w + sx in one pmaddwd per two pixels */
    uint32_t ix[4];
    mmx_st64(ix, _mm_madd_pi16(_mm_unpacklo_pi16(sx, sy), c->pair));
    mmx_st64(ix + 2, _mm_madd_pi16(_mm_unpackhi_pi16(sx, sy), c->pair));
    RPL_OPAQUE(ix);
    fmt_pixels(c, f, o, bg, ix, nx, ny, shading);
}

/* Pixels x..x+7 of a row (1 <= x, x + 8 <= w - 1); hu and hd are the rows
 * above and below, xv holds x + i + B for the first four. */
RPL_FORCE_INLINE void step8(const consts_t *c, const fmt_t *f, const px_t *bg,
                            const px_t *bgrow, px_t *out, const int16_t *h, const int16_t *hu,
                            const int16_t *hd, int x, __m64 xv, const int mode,
                            const int shading)
{
    const __m64 nx0 = _mm_sub_pi16(mmx_ld64(h + x + 1), mmx_ld64(h + x - 1));
    const __m64 ny0 = _mm_sub_pi16(mmx_ld64(hd + x), mmx_ld64(hu + x));
    const __m64 nx1 = _mm_sub_pi16(mmx_ld64(h + x + 5), mmx_ld64(h + x + 3));
    const __m64 ny1 = _mm_sub_pi16(mmx_ld64(hd + x + 4), mmx_ld64(hu + x + 4));
    /* level water: every offset and shade 0, nothing to compute */
    const __m64 any = _mm_or_si64(_mm_or_si64(nx0, ny0), _mm_or_si64(nx1, ny1));
    if (_mm_cvtsi64_si32(_mm_packs_pi16(any, any)) == 0) {
        fmt_level(f, out + x, bgrow + x, shading);
        return;
    }
    step4(c, f, bg, out + x, nx0, ny0, xv, mode, shading);
    step4(c, f, bg, out + x + 4, nx1, ny1, _mm_add_pi16(xv, c->four), mode, shading);
}

RPL_FORCE_INLINE void render(const rpl_refract_job_t *j, int x0, int x1, int y0, int y1,
                             const int mode, const int shading)
{
    const int w = j->w;
    const int s = j->strength;
    const int xbias = 32767 - (w - 1);
    consts_t c;
    c.zero = _mm_setzero_si64();
    c.xbias = _mm_set1_pi16((short)xbias);
    c.ybias = _mm_set1_pi16((short)(32767 - (j->hgt - 1)));
    c.yv = c.zero;
    c.pair = _mm_set_pi16((short)w, 1, (short)w, 1);
    c.mul = _mm_set1_pi16((short)(mode == ONE ? 0 : -(s << (12 - mode))));
    c.four = _mm_set1_pi16(4);
    c.eight = _mm_set1_pi16(8);
    c.lsat = _mm_set1_pi16(32767 - RPL_SHADE_MAX);
    c.lsub = _mm_set1_pi16(32767 - 2 * RPL_SHADE_MAX);
    fmt_t f;
    fmt_init(&f, j, shading);
    const __m64 iota = _mm_setr_pi16(0, 1, 2, 3);

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
            c.yv = _mm_add_pi16(_mm_set1_pi16((short)y), c.ybias);
            __m64 xv = _mm_add_pi16(iota, _mm_set1_pi16((short)(xa + xbias)));
            int x = xa;
            for (; x <= xb - 8; x += 8) {
                step8(&c, &f, bg, bgrow, out, h, hu, hd, x, xv, mode, shading);
                xv = _mm_add_pi16(xv, c.eight);
            }
            /* the tail: one more step ending at xb, redoing a few pixels
             * (same values) instead of a slow scalar loop */
            if (x < xb)
                step8(&c, &f, bg, bgrow, out, h, hu, hd, xb - 8,
                      _mm_add_pi16(iota, _mm_set1_pi16((short)(xb - 8 + xbias))), mode, shading);
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
    _mm_empty();
}
