/* ripple/render.h - libripple: formats, backdrops, renderers, upscaling (part of ripple.h). */
#ifndef RIPPLE_RENDER_H
#define RIPPLE_RENDER_H

#include <stddef.h>
#include <stdint.h>

#include "base.h"
#include "field.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- refraction renderer --------------------------------------------- */

/*
 * For each pixel (x, y):
 *   xoff = H(x-1, y) - H(x+1, y),  yoff = H(x, y-1) - H(x, y+1)
 * with H = 0 outside the field; the source texel is
 *   (clamp(x + (xoff*strength >> 4), 0, w-1), clamp(y + (yoff*strength >> 4), 0, h-1))
 * of the background, which has the field's size (>> is an arithmetic
 * shift, rounding towards minus infinity).  The pixel written is that
 * texel of the background prepared for the framebuffer's format (see
 * rpl_backdrop_create), with shading on changed by a light from the top
 * left that brightens slopes facing it by
 *   d = clamp((-(xoff + yoff)) >> 2, -RPL_SHADE_MAX, RPL_SHADE_MAX)
 * (negative d darkens), in each format natively:
 *
 *   RPL_XRGB8888  R, G and B bytes each get a saturating add of d (clamped
 *                 to [0, 255]); the top byte is copied.
 *   RPL_RGB565    each channel in its own width, clamped to its range:
 *                   r5 = clamp(r5 + (d >> 3), 0, 31)
 *                   g6 = clamp(g6 + (d >> 2), 0, 63)
 *                   b5 = clamp(b5 + (d >> 3), 0, 31)
 *                 (arithmetic shifts: d >> 3 in [-12, 12], d >> 2 in [-24, 24]).
 *   RPL_INDEX8    through the palette: d is quantised to the level
 *                   q = (d + 2) >> 2   in [-RPL_SHADE_STEPS, RPL_SHADE_STEPS]
 *                 and the index i becomes shade[q + RPL_SHADE_STEPS][i] of the
 *                 backdrop's table (rpl_backdrop_shade_table): the palette
 *                 entry nearest to entry i shaded the XRGB8888 way by 4 * q;
 *                 row q = 0 is the identity.
 *
 * Flat water therefore reproduces the backdrop exactly in every format,
 * with or without shading.
 */
#define RPL_SHADE_MAX 96
#define RPL_SHADE_STEPS 24                        /* INDEX8 levels each side of 0 */
#define RPL_SHADE_LEVELS (2 * RPL_SHADE_STEPS + 1) /* rows of the INDEX8 shade table */

typedef enum rpl_format {
    RPL_XRGB8888 = 0, /* uint32 per pixel, 0xXXRRGGBB */
    RPL_RGB565 = 1,   /* uint16 per pixel, rrrrrggggggbbbbb (native byte order) */
    RPL_INDEX8 = 2    /* uint8 per pixel, an index into the backdrop's palette */
} rpl_format;

/* Bytes per pixel of a format: 4, 2 or 1; 0 for a value that is none. */
int rpl_format_bytes(rpl_format format);

/* Nearest-neighbour upscale by a whole factor, for showing a small field
 * big: each of the w x h pixels at src (rows spitch bytes apart, `bytes`
 * = 1, 2 or 4 bytes a pixel) becomes a scale x scale block at dst (rows
 * dpitch bytes apart), with the kernels of k (NULL: the best this CPU
 * runs; every path writes the same bytes).  Pitches at least a row and
 * multiples of the pixel size, pointers aligned for it, scale
 * 1..RPL_UPSCALE_MAX; otherwise RPL_EINVAL and dst untouched.  Pass a
 * rectangle of a larger picture by offsetting src and dst. */
#define RPL_UPSCALE_MAX 16
RPL_NODISCARD rpl_status rpl_upscale(const rpl_kernels_t *k, const void *src, ptrdiff_t spitch,
                                     void *dst, ptrdiff_t dpitch, int w, int h, int bytes,
                                     int scale);

/*
 * A background prepared once for one framebuffer format.
 *
 * Created from w*h XRGB8888 pixels, tightly packed (w, h in
 * [RPL_DIM_MIN, RPL_DIM_MAX]); the pixels are copied, so the caller may
 * free them.  In each format the backdrop holds:
 *   RPL_XRGB8888  the pixels as given (top bytes included).
 *   RPL_RGB565    each pixel converted once, rounding to the nearest level:
 *                   r5 = (r*31 + 127) / 255, g6 = (g*63 + 127) / 255,
 *                   b5 = (b*31 + 127) / 255   (integer division).
 *   RPL_INDEX8    a palette of 256 XRGB8888 entries (top bytes 0xFF) built
 *                 from the picture and every pixel's index into it:
 *                 - a picture of at most 256 distinct colours (R, G, B; the
 *                   top byte ignored) gets exactly those colours, in
 *                   ascending order of 0xRRGGBB, and is reproduced exactly;
 *                 - any other picture: median cut over a histogram of 6
 *                   bits per channel, into at most 256 boxes: the box of
 *                   the largest squared error (pixels weighted by count)
 *                   is cut across the channel of its largest squared
 *                   error, at the place where the two halves' squared
 *                   errors along it add up least; each entry is the mean
 *                   colour of its box's pixels, rounded;
 *                 entries past rpl_backdrop_colors() repeat the last one in
 *                 use.  Each pixel gets its nearest entry: least squared
 *                 distance in R, G, B, ties to the lowest index (no
 *                 dithering).  The shade table is built likewise
 *                 (see above).  All integer arithmetic: the same picture
 *                 gives the same bytes on every machine.
 * Into *out (see the constructor rule in ripple/base.h): RPL_EINVAL for
 * a NULL picture, a size out of range or an unknown format, RPL_ENOMEM.
 */
typedef struct rpl_backdrop rpl_backdrop_t;

RPL_NODISCARD rpl_status rpl_backdrop_create(const uint32_t *xrgb, int w, int h, rpl_format format,
                                             rpl_backdrop_t **out);
void rpl_backdrop_destroy(rpl_backdrop_t *bd); /* NULL is fine */
/* Updates the backdrop in place after its picture changed within a
 * rectangle (x, y, w x h, clipped to the picture): xrgb is the whole
 * picture as it is now, w*h of the backdrop's size, the same as the one
 * the backdrop was made (or last updated) from outside the rectangle.
 * The backdrop becomes, byte for byte, what rpl_backdrop_create would
 * make of xrgb.  XRGB8888 and RGB565 cost by the rectangle.  INDEX8's
 * palette comes from the whole picture: the first update keeps a copy of
 * it and its histogram (w*h*4 bytes and about 7 MB) so later ones find
 * the palette without reading it all; while the palette holds only the
 * rectangle is mapped again, and when it changes every pixel is (and a
 * renderer, seeing a new palette, draws the whole frame again).  Tell a
 * renderer of the change (rpl_renderer_invalidate_rect).  RPL_EINVAL:
 * NULL or failed backdrop, NULL xrgb, negative w or h; RPL_ENOMEM: the
 * backdrop becomes a failed one (destroy it, make it anew). */
RPL_NODISCARD rpl_status rpl_backdrop_update(rpl_backdrop_t *bd, const uint32_t *xrgb, int x,
                                             int y, int w, int h);
/* Why creating it failed ("" if it did not). */
const char *rpl_backdrop_error(const rpl_backdrop_t *bd);
/* The format and size given at creation (NULL: RPL_XRGB8888 and 0x0). */
rpl_format rpl_backdrop_format(const rpl_backdrop_t *bd);
void rpl_backdrop_size(const rpl_backdrop_t *bd, int *w, int *h);
/* The prepared pixels: w*h of the format, tightly packed (what flat water
 * shows; NULL for NULL). */
const void *rpl_backdrop_pixels(const rpl_backdrop_t *bd);
/* INDEX8: the 256 palette entries, XRGB8888 (NULL for other formats). */
const uint32_t *rpl_backdrop_palette(const rpl_backdrop_t *bd);
/* INDEX8: palette entries in use, 1..256 (0 for other formats). */
int rpl_backdrop_colors(const rpl_backdrop_t *bd);
/* INDEX8: the shade table, RPL_SHADE_LEVELS rows of 256 indices, row
 * q + RPL_SHADE_STEPS for level q (NULL for other formats). */
const uint8_t *rpl_backdrop_shade_table(const rpl_backdrop_t *bd);

typedef struct rpl_view {
    int strength; /* 0..RPL_STRENGTH_MAX, RPL_STRENGTH_ONE is 1:1 */
    int shading;  /* 0 off, 1 on */
} rpl_view_t;

/* Renders the whole field into fb in the backdrop's format: w x h pixels,
 * rows `pitch` bytes apart (pitch at least w pixels and a multiple of the
 * pixel size, fb aligned for it).  The backdrop must have the field's
 * size.  Any bad argument: RPL_EINVAL, fb untouched, detail in
 * rpl_sim_error (NULL sim: RPL_EINVAL only).  Keeps nothing between calls:
 * for a frame kept and redrawn only where it changed, use a renderer. */
RPL_NODISCARD rpl_status rpl_render(rpl_sim_t *sim, const rpl_backdrop_t *bd, void *fb,
                                    ptrdiff_t pitch, const rpl_view_t *view);

/* The XRGB8888 renderer on a raw background, no backdrop needed: bg is
 * w*h XRGB8888 pixels, tightly packed, and `format` must be RPL_XRGB8888
 * (the other formats need a backdrop: RPL_EINVAL).  Same pixels as
 * rpl_render with an XRGB8888 backdrop of bg. */
RPL_NODISCARD rpl_status rpl_refract(rpl_sim_t *sim, const uint32_t *bg, void *fb, ptrdiff_t pitch,
                                     rpl_format format, const rpl_view_t *view);

/*
 * A renderer (opaque) keeps one framebuffer of a field up to date: it
 * remembers what it last drew and where, and its next draw into the same
 * framebuffer with the same backdrop, pitch and view redraws only the
 * tiles that may have changed since (with sleeping tiles on; otherwise,
 * or with anything else changed, it draws everything).  The pixels are
 * those of rpl_render, byte for byte.  One field may have several
 * renderers, each keeping its own framebuffer (a window and a thumbnail,
 * say).  A renderer refers to its field: destroy it before the field.  It
 * is used from the field's thread, like the field.
 */
typedef struct rpl_renderer rpl_renderer_t;

/* A renderer of sim into *out (see the constructor rule in ripple/base.h):
 * RPL_EINVAL for a NULL or failed field, RPL_ENOMEM. */
RPL_NODISCARD rpl_status rpl_renderer_create(rpl_sim_t *sim, rpl_renderer_t **out);
void rpl_renderer_destroy(rpl_renderer_t *r); /* NULL is fine */
/* Brings fb up to date (arguments as rpl_render).  On failure, RPL_EINVAL
 * with the detail in rpl_renderer_error, fb untouched. */
RPL_NODISCARD rpl_status rpl_renderer_draw(rpl_renderer_t *r, const rpl_backdrop_t *bd, void *fb,
                                           ptrdiff_t pitch, const rpl_view_t *view);
/* The next draw draws everything: call it when the framebuffer's pixels
 * were changed by someone else (an overlay drawn into it, say). */
void rpl_renderer_invalidate(rpl_renderer_t *r);
/* Tiles drawn by the last draw (0 for NULL). */
unsigned rpl_renderer_drawn(const rpl_renderer_t *r);

/* A rectangle of pixels (or cells): x, y its top left corner. */
typedef struct rpl_rect {
    int x, y, w, h;
} rpl_rect_t;

/* What the last draw changed, as rectangles of the framebuffer to show
 * again (the changed tiles, clipped to the field; runs of tiles on a row
 * merged, and a run as wide as one on the row above lengthening it):
 * writes the first `max` of them to rects (NULL with max 0 only counts)
 * and returns how many there are, at most the field's tile count; 0 for
 * NULL or after a failed draw.  Every rectangle outside them shows what it
 * showed before the draw. */
int rpl_renderer_changed(const rpl_renderer_t *r, rpl_rect_t *rects, int max);

/* The next draw redraws the tiles under a rectangle of the framebuffer
 * (clipped to the field; nothing if empty): call it when something else
 * drew there, such as an overlay, that must not outlive its own frame. */
void rpl_renderer_invalidate_rect(rpl_renderer_t *r, int x, int y, int w, int h);
/* The field it draws (NULL for NULL). */
rpl_sim_t *rpl_renderer_field(const rpl_renderer_t *r);
/* Detail of the last failure ("" if none). */
const char *rpl_renderer_error(const rpl_renderer_t *r);

/* Tiles in the field, and those the last step and the last render (by
 * any renderer or rpl_render) worked on; all 0 for a NULL field. */
typedef struct rpl_stats {
    unsigned tiles, stepped, rendered;
} rpl_stats_t;
void rpl_sim_stats(const rpl_sim_t *sim, rpl_stats_t *stats);

/* ---- images ----------------------------------------------------------- */

/* Fits an XRGB8888 picture of any size to dw x dh by scaling it to cover
 * the target (aspect kept) and cropping the centre: box-filtered when
 * shrinking, bilinear when enlarging.  However thin the picture (a
 * 100000x1 line), its short side fills the target and the crop keeps the
 * middle of its long side.  Output top bytes are 0xFF; dw, dh 1..65536.
 * spitch is in bytes, a multiple of 4 of at least sw pixels; src and dst
 * aligned for uint32_t.  RPL_EINVAL for anything else. */
RPL_NODISCARD rpl_status rpl_image_fit(const uint32_t *src, int sw, int sh, ptrdiff_t spitch,
                                       uint32_t *dst, int dw, int dh);

#ifdef __cplusplus
}
#endif

#endif
