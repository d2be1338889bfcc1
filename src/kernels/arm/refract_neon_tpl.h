/* kernels/arm/refract_neon_tpl.h - the NEON refraction kernel, 8 pixels a step, once for every pixel format. */

/*
 * Included by one file per pixel format (refract_{xrgb8888,rgb565,index8}_neon.c).
 * Before the #include, that file defines
 *   RPL_REFRACT_FN  the name of the kernel (declared in kernels/kernels.h)
 *   px_t            the framebuffer and background pixel (kernels/refract_fmt.h)
 *   fmt_t           the format's own constants, held in registers across a row
 * and after it the fmt_* functions declared below: the fetch, the light and
 * the store, which are all that differ between the formats.  The row loop
 * with its edges and tail, the offsets, the clamped coordinates and the
 * texel indices are here, once, for AArch64 and for ARMv7 alike.
 */
#ifndef RPL_REFRACT_FN
#error "define RPL_REFRACT_FN, px_t and fmt_t before including refract_neon_tpl.h"
#endif

#include <arm_neon.h>
#include <assert.h>
#include <string.h>

#include "kernels/simd.h"

/*
 * How the offsets stay in 16-bit lanes (the scheme of the SSE2 kernel,
 * kernels/x86/refract_sse2_tpl.h, with NEON's doubling multiply).
 *
 * The differences are taken negated, n = -diff (exact: |diff| <= 16383).
 * The offset (diff * s) >> 4 is vqdmulh((n << k), -(s << (11 - k))): the
 * doubled product is -n * s << 12, its high half floor(diff * s / 16).  k
 * is the class's shift, 0 to 3 for K0 to K3 (s <= 8, 16, 32, 64), which
 * keeps the multiplier within [-16384, 0] and so |offset| <= 16384, as
 * the clamp below needs.  n << k fits int16 for k <= 1; for k >= 2 it is
 * taken with saturation: a saturated lane gives |offset| >= 8192 while the
 * exact one is as large, and both clamp the coordinate to the same edge
 * (sizes are <= 8192).  Strength 16 (offset = diff) skips the multiply:
 * class ONE.
 *
 * Coordinates carry a bias B = 32767 - (size - 1), so the clamp to
 * [0, size - 1] is two saturations: the signed add of the offset stops at
 * 32767 (size - 1), and the unsigned subtraction of B stops at 0.  The sum
 * never goes negative before that: B >= 24576 and |offset| <= 16384.
 *
 * The texel index sy * w + sx is a widening multiply-add (vmlal_u16);
 * NEON has no gather, so the texels are then loaded one by one.
 */

/* Everything the step needs besides the format's own, held in registers
 * across a row. */
typedef struct {
    uint16x8_t xbias, ybias; /* B of x and of y */
    int16x8_t yv;            /* y + B */
    int16x8_t mul;           /* -(s << (11 - k)) */
    int16x8_t dmax, dmin;    /* the light's range */
    uint16x4_t w;            /* the field's row in bytes, for the offsets */
} consts_t;

/* log2 of the pixel's size */
#define PX_SHIFT (sizeof(px_t) == 4 ? 2 : sizeof(px_t) == 2 ? 1 : 0)

/* The texel at byte offset off of bg. */
RPL_FORCE_INLINE px_t texel_at(const px_t *bg, uint32_t off)
{
    return *(const px_t *)(const void *)((const unsigned char *)bg + off);
}

/* The four texels at the byte offsets in the lanes of v, into p.  The
 * offsets are taken out of the vector first, all four, then the texels
 * read.  AArch64 stores the offsets and reads them back in pairs (ldp):
 * cheaper than a move for each lane.  ARMv7 moves them out two at a time,
 * a d register into two core registers. */
RPL_FORCE_INLINE void fetch4(px_t *p, const px_t *bg, uint32x4_t v)
{
#if defined(__aarch64__)
    uint32_t ix[4];
    vst1q_u32(ix, v);
    RPL_OPAQUE(ix);
    const uint32_t i0 = ix[0], i1 = ix[1], i2 = ix[2], i3 = ix[3];
#else
    const uint64_t a = vgetq_lane_u64(vreinterpretq_u64_u32(v), 0);
    const uint64_t b = vgetq_lane_u64(vreinterpretq_u64_u32(v), 1);
    const uint32_t i0 = (uint32_t)a, i1 = (uint32_t)(a >> 32);
    const uint32_t i2 = (uint32_t)b, i3 = (uint32_t)(b >> 32);
#endif
    p[0] = texel_at(bg, i0);
    p[1] = texel_at(bg, i1);
    p[2] = texel_at(bg, i2);
    p[3] = texel_at(bg, i3);
}

/* Four pixels t[0..3] to o[0..3]: RGB565 ones packed in pairs into
 * 32-bit words, as 16-bit stores do not pair (stp, strd). */
RPL_FORCE_INLINE void store4(px_t *o, const px_t *t)
{
    if (sizeof(px_t) == 2) {
        const uint32_t w2[2] = { t[0] | (uint32_t)t[1] << 16, t[2] | (uint32_t)t[3] << 16 };
        memcpy(o, w2, sizeof w2);
    } else {
        memcpy(o, t, 4 * sizeof(px_t));
    }
}

/* o[0..7] = the texels at the byte offsets in i0 (pixels 0-3) and i1
 * (4-7), unlit.  AArch64 stores the offsets at once and reads all eight
 * texels before it stores them, ARMv7 four at a time: it has the
 * registers for no more. */
RPL_FORCE_INLINE void copy8(px_t *o, const px_t *bg, uint32x4_t i0, uint32x4_t i1)
{
    px_t t[8];
#if defined(__aarch64__)
    uint32_t ix[8];
    vst1q_u32(ix, i0);
    vst1q_u32(ix + 4, i1);
    RPL_OPAQUE(ix);
    const uint32_t a0 = ix[0], a1 = ix[1], a2 = ix[2], a3 = ix[3];
    const uint32_t a4 = ix[4], a5 = ix[5], a6 = ix[6], a7 = ix[7];
    t[0] = texel_at(bg, a0);
    t[1] = texel_at(bg, a1);
    t[2] = texel_at(bg, a2);
    t[3] = texel_at(bg, a3);
    t[4] = texel_at(bg, a4);
    t[5] = texel_at(bg, a5);
    t[6] = texel_at(bg, a6);
    t[7] = texel_at(bg, a7);
    store4(o, t);
    store4(o + 4, t + 4);
#else
    fetch4(t, bg, i0);
    store4(o, t);
    fetch4(t + 4, bg, i1);
    store4(o + 4, t + 4);
#endif
}

/* What each format defines.  They are inlined into every instance of
 * render(), where `shading` is a constant. */

/* Sets up f (and asserts what it reads of j). */
RPL_FORCE_INLINE void fmt_init(fmt_t *f, const rpl_refract_job_t *j, const int shading);
/* o[0..7] where the water is level (no offset, no light): what the
 * background b[0..7] shows there. */
RPL_FORCE_INLINE void fmt_level(const fmt_t *f, px_t *o, const px_t *b, const int shading);
/* o[0..7] = the texels at the byte offsets of bg in the lanes of i0
 * (pixels 0-3) and i1 (4-7), read by copy8 or fetch4; lit when shading by
 * light(c, nx, ny) of the negated differences. */
RPL_FORCE_INLINE void fmt_pixels(const consts_t *c, const fmt_t *f, px_t *o, const px_t *bg,
                                 uint32x4_t i0, uint32x4_t i1, int16x8_t nx, int16x8_t ny,
                                 const int shading);

/* The light's d = clamp(-(xoff + yoff) >> 2) per lane, from the negated
 * differences: -(xoff + yoff) = nx + ny, |.| <= 32766. */
RPL_FORCE_INLINE int16x8_t light(const consts_t *c, int16x8_t nx, int16x8_t ny)
{
    const int16x8_t d = vshrq_n_s16(vaddq_s16(nx, ny), 2);
    return vmaxq_s16(vminq_s16(d, c->dmax), c->dmin);
}

/* Whether every lane of v is 0: its lanes narrowed with saturation (a
 * lane that is not 0 stays so) and read as one 64-bit word. */
RPL_FORCE_INLINE int all_zero(int16x8_t v)
{
    const uint8x8_t b = vqmovn_u16(vreinterpretq_u16_s16(v));
    return vget_lane_u64(vreinterpret_u64_u8(b), 0) == 0;
}

/* (n << k) with saturation, k the class's shift (a constant). */
RPL_FORCE_INLINE int16x8_t class_shift(int16x8_t n, const int mode)
{
    switch (mode) {
    case K1:
        return vqshlq_n_s16(n, 1);
    case K2:
        return vqshlq_n_s16(n, 2);
    case K3:
        return vqshlq_n_s16(n, 3);
    default:
        return n;
    }
}

/* One pixel the scalar way (edges, short spans): a single shared copy
 * rather than one inlined into every instance of render(). */
static RPL_NOINLINE px_t texel(const rpl_refract_job_t *j, int x, int y, int xoff, int yoff)
{
    return fmt_texel(j, x, y, xoff, yoff);
}

/* Pixels x..x+7 of a row (1 <= x, x + 8 <= w - 1), given from x on: the
 * heights hx of the row, hu and hd of the rows above and below, the
 * background b of the row and its output o; xv holds x + i + B. */
RPL_FORCE_INLINE void step8(const consts_t *c, const fmt_t *f, const px_t *bg, const px_t *b,
                            px_t *o, const int16_t *hx, const int16_t *hu, const int16_t *hd,
                            int16x8_t xv, const int mode, const int shading)
{
    const int16x8_t l = vld1q_s16(hx - 1);
    const int16x8_t r = vld1q_s16(hx + 1);
    const int16x8_t u = vld1q_s16(hu);
    const int16x8_t d = vld1q_s16(hd);
    const int16x8_t nx = vsubq_s16(r, l), ny = vsubq_s16(d, u);
    /* Where the water is level every offset and shade is 0: no index to
     * compute, no texel to fetch one by one. */
    if (all_zero(vorrq_s16(nx, ny))) {
        fmt_level(f, o, b, shading);
        return;
    }
    int16x8_t sx, sy;
    if (mode == ONE) {
        sx = vqsubq_s16(xv, nx);
        sy = vqsubq_s16(c->yv, ny);
    } else {
        sx = vqaddq_s16(xv, vqdmulhq_s16(class_shift(nx, mode), c->mul));
        sy = vqaddq_s16(c->yv, vqdmulhq_s16(class_shift(ny, mode), c->mul));
    }
    const uint16x8_t ux = vqsubq_u16(vreinterpretq_u16_s16(sx), c->xbias);
    const uint16x8_t uy = vqsubq_u16(vreinterpretq_u16_s16(sy), c->ybias);
    /* (sy * w + sx) * sizeof(px_t), widened to 32 bits: byte offsets,
     * which every load can add to its base (ARMv7's ldrh cannot scale) */
    const uint32x4_t i0 = vmlal_u16(vshll_n_u16(vget_low_u16(ux), PX_SHIFT), vget_low_u16(uy), c->w);
    const uint32x4_t i1 = vmlal_u16(vshll_n_u16(vget_high_u16(ux), PX_SHIFT), vget_high_u16(uy), c->w);
    fmt_pixels(c, f, o, bg, i0, i1, nx, ny, shading);
}

RPL_FORCE_INLINE void render(const rpl_refract_job_t *j, int x0, int x1, int y0, int y1,
                             const int mode, const int shading)
{
    const int w = j->w;
    const int s = j->strength;
    const int xbias = 32767 - (w - 1), ybias = 32767 - (j->hgt - 1);
    const int k = mode == ONE ? 0 : mode; /* the class's shift */
    consts_t c;
    c.xbias = vdupq_n_u16((uint16_t)xbias);
    c.ybias = vdupq_n_u16((uint16_t)ybias);
    c.yv = vdupq_n_s16(0);
    c.mul = vdupq_n_s16((int16_t)(mode == ONE ? 0 : -(s << (11 - k))));
    c.dmax = vdupq_n_s16(RPL_SHADE_MAX);
    c.dmin = vdupq_n_s16(-RPL_SHADE_MAX);
    c.w = vdup_n_u16((uint16_t)(w << PX_SHIFT)); /* <= 32768 */
    fmt_t f;
    fmt_init(&f, j, shading);
    static const int16_t iota_[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
    const int16x8_t iota = vld1q_s16(iota_);
    const int16x8_t stride = vdupq_n_s16(8);

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
            c.yv = vdupq_n_s16((int16_t)(y + ybias));
            int16x8_t xv = vaddq_s16(iota, vdupq_n_s16((int16_t)(xa + xbias)));
            /* pointers that move on, not an index: fewer registers.  The
             * loop ends on the pointer on AArch64, on a count on ARMv7:
             * what leaves clang 14 the fewest instructions on each. */
            const int16_t *hp = h + xa, *up = hu + xa, *dp = hd + xa;
            const px_t *bp = bgrow + xa;
            px_t *op = out + xa;
#if defined(__aarch64__)
            for (const int16_t *end = h + xb - 8; hp <= end;) {
#else
            for (int n = (xb - xa) >> 3; n > 0; n--) {
#endif
                step8(&c, &f, bg, bp, op, hp, up, dp, xv, mode, shading);
                hp += 8, up += 8, dp += 8, bp += 8, op += 8;
                xv = vaddq_s16(xv, stride);
            }
            /* the tail: one more step ending at xb, redoing a few pixels
             * (same values) instead of a slow scalar loop */
            if ((xb - xa) & 7) {
                const int x = xb - 8;
                step8(&c, &f, bg, bgrow + x, out + x, h + x, hu + x, hd + x,
                      vaddq_s16(iota, vdupq_n_s16((int16_t)(x + xbias))), mode, shading);
            }
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
