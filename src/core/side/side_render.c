/* core/side/side_render.c - the side-view water renderer: created for a format, it draws a scene's water and droplets and converts the frame (shading in side_shade.c, the INDEX8 palette in side_palette.c). */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/side/side_renderer.h"

/* ---- the renderer ------------------------------------------------------------- */

/* A failed renderer keeps nothing but its message. */
static void release(rpl_side_renderer_t *r)
{
    free(r->frame);
    free(r->caustic);
    free(r->loop);
    free(r->shimmer);
    free(r->cube);
    free(r->colmem);
    free(r->span);
    free(r->last_span);
    free(r->dbox);
    r->dbox = NULL;
    r->ndbox = 0;
    r->frame = NULL;
    r->span = NULL;
    r->last_span = NULL;
    r->caustic = NULL;
    r->loop = NULL;
    r->shimmer = NULL;
    r->cube = NULL;
    r->colmem = NULL;
}

rpl_status rpl_side_renderer_create(const uint32_t *art, int w, int h, rpl_format format,
                                    rpl_side_renderer_t **out)
{
    if (!out)
        return RPL_EINVAL;
    rpl_side_renderer_t *r = *out = calloc(1, sizeof *r);
    if (!r)
        return RPL_ENOMEM;
    rpl_status st = RPL_OK;
    if (w < RPL_DIM_MIN || w > RPL_DIM_MAX || h < RPL_DIM_MIN || h > RPL_DIM_MAX)
        return rpl_err_set(&r->err, RPL_EINVAL, "size %dx%d: each side must be %d..%d", w, h,
                           RPL_DIM_MIN, RPL_DIM_MAX);
    if (rpl_format_bytes(format) == 0)
        return rpl_err_set(&r->err, RPL_EINVAL, "unknown format %d", (int)format);
    if (format == RPL_INDEX8 && !art)
        return rpl_err_set(&r->err, RPL_EINVAL, "INDEX8 needs the scene's art (NULL)");
    r->w = w;
    r->h = h;
    r->format = format;
    if (format != RPL_XRGB8888) /* XRGB8888 draws straight into the framebuffer */
        r->frame = malloc((size_t)w * (size_t)h * sizeof *r->frame);
    r->caustic = malloc(CAUSTIC_BYTES);
    /* the loop's frames are made when first shown: most of it stays untouched
     * (and unbacked by the system) in a renderer that draws a frame or two */
    r->loop = malloc((size_t)CAUS_FRAMES * CAUS * CAUS_ROW);
    r->shimmer = malloc((size_t)CAUS_FRAMES * 256 * sizeof *r->shimmer);
    size_t ncol = (size_t)(w > PAL_W ? w : PAL_W);
    r->colmem = malloc(COLUMN_ARRAYS * ncol * sizeof *r->colmem);
    r->span = malloc(2 * (size_t)h * sizeof *r->span);
    r->last_span = malloc(2 * (size_t)h * sizeof *r->last_span);
    r->nhint = -1;
    if ((format != RPL_XRGB8888 && !r->frame) || !r->span || !r->last_span || !r->caustic ||
        !r->loop || !r->shimmer || !r->colmem) {
        release(r);
        return rpl_err_set(&r->err, RPL_ENOMEM, "out of memory for a %dx%d side renderer", w, h);
    }
    r->col.ys = r->colmem;
    r->col.cov = r->colmem + ncol;
    r->col.sfx = r->colmem + 2 * ncol;
    r->col.dcol = r->colmem + 3 * ncol;
    r->col.fwq = r->colmem + 4 * ncol;
    r->col.shift = r->colmem + 5 * ncol;
    r->col.gbase = r->colmem + 6 * ncol;
    r->col.rdeep = r->colmem + 7 * ncol;
    r->col.rrow = r->colmem + 8 * ncol;
    r->col.rstep = r->colmem + 9 * ncol;
    r->col.runs = r->colmem + 10 * ncol;
    if ((st = rpl_kernels_find(NULL, &r->kern)) != RPL_OK) {
        release(r);
        return rpl_err_set(&r->err, st, "no kernels for the side renderer (RIPPLE_SIMD?)");
    }
    rpl_side_make_caustic(r->caustic);
    if (format == RPL_INDEX8)
        st = rpl_side_make_palette(r, art);
    if (st != RPL_OK) {
        release(r);
        return st;
    }
    r->ok = 1;
    return RPL_OK;
}

void rpl_side_renderer_destroy(rpl_side_renderer_t *r)
{
    if (!r)
        return;
    release(r);
    free(r);
}

const char *rpl_side_renderer_error(const rpl_side_renderer_t *r)
{
    return r ? rpl_err_text(&r->err) : "no side renderer (NULL)";
}

const uint32_t *rpl_side_renderer_palette(const rpl_side_renderer_t *r)
{
    return side_usable(r) && r->format == RPL_INDEX8 ? r->palette : NULL;
}

rpl_status rpl_side_renderer_set_kernels(rpl_side_renderer_t *r, const rpl_kernels_t *k)
{
    if (!side_usable(r))
        return RPL_EINVAL;
    if (!k)
        return rpl_err_set(&r->err, RPL_EINVAL, "no kernel table (NULL)");
    r->kern = k;
    return RPL_OK;
}

const rpl_kernels_t *rpl_side_renderer_kernels(const rpl_side_renderer_t *r)
{
    return side_usable(r) ? r->kern : NULL;
}

void rpl_side_renderer_bake(rpl_side_renderer_t *r)
{
    if (side_usable(r))
        rpl_side_bake_loop(r);
}

rpl_status rpl_side_renderer_changed(rpl_side_renderer_t *r, const rpl_rect_t *rects, int n)
{
    if (!side_usable(r))
        return RPL_EINVAL;
    if (n < 0 || (n > 0 && !rects)) {
        r->nhint = -1;
        return rpl_err_set(&r->err, RPL_EINVAL, "changed: %d rectangles%s", n,
                           n > 0 ? " but the array is NULL" : ", fewer than 0");
    }
    if (n > HINTS_MAX) { /* too many to keep: the next frame is drawn whole */
        r->nhint = -1;
        return RPL_OK;
    }
    int k = 0;
    for (int i = 0; i < n; i++) {
        /* clipped to the frame, in wide arithmetic (any int is allowed) */
        long long x0 = rects[i].x, y0 = rects[i].y;
        long long x1 = x0 + rects[i].w, y1 = y0 + rects[i].h;
        x0 = x0 < 0 ? 0 : x0;
        y0 = y0 < 0 ? 0 : y0;
        x1 = x1 > r->w ? r->w : x1;
        y1 = y1 > r->h ? r->h : y1;
        if (x0 < x1 && y0 < y1)
            r->hint[k++] = (rpl_rect_t){ (int)x0, (int)y0, (int)(x1 - x0), (int)(y1 - y0) };
    }
    r->nhint = k;
    return RPL_OK;
}

static int finite_f(float v)
{
    return isfinite(v);
}

/* Checks everything a frame reads before anything is written. */
static rpl_status check_frame(rpl_side_renderer_t *r, const uint32_t *scene, ptrdiff_t spitch,
                              const rpl_side_water_t *waters, int nwaters,
                              const rpl_droplet_t *drops, int ndrops, double time, const void *fb,
                              ptrdiff_t pitch)
{
    int bytes = rpl_format_bytes(r->format);
    if (!scene)
        return rpl_err_set(&r->err, RPL_EINVAL, "no scene (NULL)");
    if (!fb)
        return rpl_err_set(&r->err, RPL_EINVAL, "no framebuffer (NULL)");
    if (spitch < (ptrdiff_t)r->w * 4 || spitch % 4 != 0 || (uintptr_t)scene % 4 != 0)
        return rpl_err_set(&r->err, RPL_EINVAL,
                         "scene pitch %td: must be at least %d bytes and a multiple of 4, the scene aligned",
                         spitch, r->w * 4);
    if (pitch < (ptrdiff_t)r->w * bytes || pitch % bytes != 0 || (uintptr_t)fb % (unsigned)bytes != 0)
        return rpl_err_set(&r->err, RPL_EINVAL,
                         "framebuffer pitch %td: must be at least %d bytes and a multiple of %d, fb aligned",
                         pitch, r->w * bytes, bytes);
    if (!isfinite(time))
        return rpl_err_set(&r->err, RPL_EINVAL, "time is not finite");
    if (nwaters < 0 || (nwaters > 0 && !waters))
        return rpl_err_set(&r->err, RPL_EINVAL, "waters: %d bodies%s", nwaters,
                         nwaters > 0 ? " but the array is NULL" : ", fewer than 0");
    if (ndrops < 0 || (ndrops > 0 && !drops))
        return rpl_err_set(&r->err, RPL_EINVAL, "droplets: %d%s", ndrops,
                         ndrops > 0 ? " but the array is NULL" : ", fewer than 0");
    for (int k = 0; k < nwaters; k++) {
        const rpl_side_water_t *wb = &waters[k];
        if (wb->x1 < wb->x0)
            return rpl_err_set(&r->err, RPL_EINVAL, "water %d: x1 %d is left of x0 %d", k, wb->x1, wb->x0);
        if (wb->x1 > wb->x0 && !wb->surface)
            return rpl_err_set(&r->err, RPL_EINVAL, "water %d: no surface (NULL)", k);
        if (!finite_f(wb->bottom))
            return rpl_err_set(&r->err, RPL_EINVAL, "water %d: bottom is not finite", k);
        /* the columns drawn and their neighbours (for the slope) */
        long long a = wb->x0 > 0 ? wb->x0 : 0, b = wb->x1 < r->w ? wb->x1 : r->w;
        a = a - 4 > wb->x0 ? a - 4 : wb->x0; /* the slope reads four columns out */
        b = b + 4 < wb->x1 ? b + 4 : wb->x1;
        for (long long x = a; x < b; x++)
            if (!finite_f(wb->surface[x - wb->x0]))
                return rpl_err_set(&r->err, RPL_EINVAL, "water %d: surface at x %lld is not finite", k, x);
    }
    for (int k = 0; k < ndrops; k++) {
        const rpl_droplet_t *d = &drops[k];
        if (!finite_f(d->x) || !finite_f(d->y) || !finite_f(d->size) || !finite_f(d->age) ||
            !finite_f(d->life))
            return rpl_err_set(&r->err, RPL_EINVAL, "droplet %d: a value is not finite", k);
    }
    return RPL_OK;
}

/* At most this many bodies have the rows their water covers wholly left
 * out of the copy of the scene (those of any more are copied, then drawn
 * over: the same picture). */
#define SKIP_MAX 8

/* Copies columns x0..x1-1 of a row of the scene into the frame but for
 * those that the water of a body in sk covers wholly in this row (it
 * writes them and never reads them). */
static void copy_row(uint32_t *dst, const uint32_t *src, int x0, int x1, int y,
                     const body_rows_t *sk, int nsk)
{
    int a[SKIP_MAX], b[SKIP_MAX], n = 0;
    for (int k = 0; k < nsk; k++) {
        if (y < sk[k].yfull || y >= sk[k].y1)
            continue;
        int i = n++; /* sorted by their first column */
        while (i > 0 && a[i - 1] > sk[k].x0) {
            a[i] = a[i - 1];
            b[i] = b[i - 1];
            i--;
        }
        a[i] = sk[k].x0;
        b[i] = sk[k].x1;
    }
    int cur = x0;
    for (int i = 0; i < n; i++) {
        int e = a[i] < x1 ? a[i] : x1;
        if (e > cur)
            memcpy(dst + cur, src + cur, (size_t)(e - cur) * sizeof *dst);
        if (b[i] > cur)
            cur = b[i];
    }
    if (cur < x1)
        memcpy(dst + cur, src + cur, (size_t)(x1 - cur) * sizeof *dst);
}

/* RGB565 as the backdrop converts: each channel (v * 31 + 127) / 255 (63
 * for green), the division as (n + 1 + (n >> 8)) >> 8, exact for n below
 * 65535: plain arithmetic, which compilers do on several pixels at once. */
static inline uint16_t pixel_565(uint32_t v)
{
    uint32_t r = (v >> 16 & 0xFF) * 31 + 127, g = (v >> 8 & 0xFF) * 63 + 127, b = (v & 0xFF) * 31 + 127;
    r = (r + 1 + (r >> 8)) >> 8;
    g = (g + 1 + (g >> 8)) >> 8;
    b = (b + 1 + (b >> 8)) >> 8;
    return (uint16_t)(r << 11 | g << 5 | b);
}

/* Pixels x0..x1-1 of a row; in blocks of a fixed count, which a
 * compiler vectorizes even where it would not for a loop of unknown
 * length. */
static void to_565(uint16_t *restrict o, const uint32_t *restrict px, int x0, int x1)
{
    int x = x0;
    for (; x + 16 <= x1; x += 16)
        for (int i = 0; i < 16; i++)
            o[x + i] = pixel_565(px[x + i]);
    for (; x < x1; x++)
        o[x] = pixel_565(px[x]);
}

/* The cube's indices of a block first (vectorized), then the lookups. */
static void to_index8(uint8_t *restrict o, const uint32_t *restrict px, int x0, int x1,
                      const uint8_t *restrict cube)
{
    int x = x0;
    for (; x + 16 <= x1; x += 16) {
        uint32_t idx[16];
        for (int i = 0; i < 16; i++)
            idx[i] = (uint32_t)cube_index(px[x + i]);
        for (int i = 0; i < 16; i++)
            o[x + i] = cube[idx[i]];
    }
    for (; x < x1; x++)
        o[x] = cube[cube_index(px[x])];
}

/* Converts columns a..b-1 of row y into the framebuffer: those of the
 * frame's span from the frame, the rest straight from the scene. */
static void convert_part(const rpl_side_renderer_t *r, unsigned char *row, const uint32_t *srow,
                         const uint32_t *frow, int s0, int s1, int a, int b)
{
    int m0 = s0 < a ? a : s0 > b ? b : s0, m1 = s1 < m0 ? m0 : s1 > b ? b : s1;
    if (r->format == RPL_RGB565) {
        uint16_t *o = (uint16_t *)(void *)row;
        to_565(o, srow, a, m0);
        to_565(o, frow, m0, m1);
        to_565(o, srow, m1, b);
    } else {
        to_index8(row, srow, a, m0, r->cube);
        to_index8(row, frow, m0, m1, r->cube);
        to_index8(row, srow, m1, b, r->cube);
    }
}

/*
 * XRGB8888 is drawn straight into the framebuffer: the scene copied but
 * where water will cover it, then the water and the droplets.  The other
 * formats draw into the frame only the columns of each row that water or
 * droplets reach (the span), and convert the rest of the row straight
 * from the scene: every pixel is converted once, and rows without water
 * are never copied.
 *
 * Into the framebuffer of the last frame, told what changed in the scene
 * since (rpl_side_renderer_changed), only what may differ is written:
 * the water and droplets of this frame, and the scene where it changed or
 * where the last frame drew over it (its span); everywhere else the
 * framebuffer already holds the scene's pixel.  The same bytes as a whole
 * frame.
 */
rpl_status rpl_side_render(rpl_side_renderer_t *r, const uint32_t *scene, ptrdiff_t spitch,
                           const rpl_side_water_t *waters, int nwaters,
                           const rpl_droplet_t *drops, int ndrops, double time, void *fb,
                           ptrdiff_t pitch)
{
    if (!side_usable(r))
        return RPL_EINVAL;
    const int nhint = r->nhint;
    r->nhint = -1; /* a declaration holds for the next frame only */
    rpl_status st = check_frame(r, scene, spitch, waters, nwaters, drops, ndrops, time, fb, pitch);
    if (st != RPL_OK)
        return st;
    rpl_err_clear(&r->err);
    const int w = r->w, h = r->h;
    const ptrdiff_t sp = spitch / 4;
    const int direct = r->format == RPL_XRGB8888;
    const int part = nhint >= 0 && r->have_last && fb == r->last_fb && pitch == r->last_pitch &&
                     scene == r->last_scene && spitch == r->last_spitch;
    uint32_t *frame = direct ? fb : r->frame;
    ptrdiff_t fp = direct ? pitch / 4 : w;
    int32_t *span0 = r->span, *span1 = r->span + h;
    const int32_t *last0 = r->last_span, *last1 = r->last_span + h;
    for (int y = 0; y < h; y++) {
        span0[y] = w;
        span1[y] = 0;
    }
    body_rows_t skip[SKIP_MAX];
    int nskip = 0;
    for (int k = 0; k < nwaters; k++) {
        body_rows_t br;
        rpl_side_body_rows(&waters[k], w, h, &br);
        if (br.y0 >= br.y1)
            continue;
        if (nskip < SKIP_MAX && br.yfull < br.y1)
            skip[nskip++] = br;
        for (int y = br.y0; y < br.y1; y++) {
            span0[y] = br.x0 < span0[y] ? br.x0 : span0[y];
            span1[y] = br.x1 > span1[y] ? br.x1 : span1[y];
        }
    }
    /* the droplets' boxes kept for drawing them (found once: a square
     * root and a few roundings each) when there is room */
    if (ndrops > r->ndbox) {
        drop_box_t *nb = realloc(r->dbox, (size_t)ndrops * sizeof *nb);
        if (nb) {
            r->dbox = nb;
            r->ndbox = ndrops;
        }
    }
    const int keep = ndrops <= r->ndbox;
    for (int k = 0; k < ndrops; k++) {
        drop_box_t b;
        if (!rpl_side_drop_box(&drops[k], w, h, &b.rad, &b.alpha, b.box))
            b.alpha = 0;
        if (keep)
            r->dbox[k] = b;
        if (b.alpha <= 0)
            continue;
        const int *box = b.box;
        for (int y = box[2]; y <= box[3]; y++) {
            span0[y] = box[0] < span0[y] ? box[0] : span0[y];
            span1[y] = box[1] + 1 > span1[y] ? box[1] + 1 : span1[y];
        }
    }
    if (!direct) {
        /* the frame holds what water and droplets are drawn over */
        for (int y = 0; y < h; y++)
            if (span0[y] < span1[y])
                copy_row(frame + y * fp, scene + y * sp, span0[y], span1[y], y, skip, nskip);
    } else if (!part) {
        for (int y = 0; y < h; y++)
            copy_row(frame + y * fp, scene + y * sp, 0, w, y, skip, nskip);
    } else {
        /* the scene back where the last frame drew over it, and where it changed */
        for (int y = 0; y < h; y++)
            if (last0[y] < last1[y])
                copy_row(frame + y * fp, scene + y * sp, last0[y], last1[y], y, skip, nskip);
        for (int i = 0; i < nhint; i++) {
            const rpl_rect_t *c = &r->hint[i];
            for (int y = c->y; y < c->y + c->h; y++)
                copy_row(frame + y * fp, scene + y * sp, c->x, c->x + c->w, y, skip, nskip);
        }
    }
    anim_t an;
    rpl_side_make_anim(r, &an, time);
    for (int k = 0; k < nwaters; k++)
        rpl_side_draw_water(frame, fp, scene, sp, w, h, &waters[k], &an, &r->depth, &r->col,
                            r->kern);
    for (int k = 0; k < ndrops; k++) {
        drop_box_t b;
        if (!keep) { /* no room to keep them: found again */
            if (rpl_side_drop_box(&drops[k], w, h, &b.rad, &b.alpha, b.box))
                rpl_side_draw_drop_in(frame, fp, &drops[k], &b, r->kern);
        } else if (r->dbox[k].alpha > 0)
            rpl_side_draw_drop_in(frame, fp, &drops[k], &r->dbox[k], r->kern);
    }

    if (!direct) {
        for (int y = 0; y < h; y++) {
            unsigned char *row = (unsigned char *)fb + (ptrdiff_t)y * pitch;
            const uint32_t *srow = scene + y * sp, *frow = r->frame + (ptrdiff_t)y * w;
            int s0 = span0[y] < span1[y] ? span0[y] : w, s1 = span0[y] < span1[y] ? span1[y] : w;
            if (!part) {
                convert_part(r, row, srow, frow, s0, s1, 0, w);
                continue;
            }
            /* the spans of both frames (their hull), and the changes below */
            int a = s0 < s1 ? s0 : w, b = s0 < s1 ? s1 : 0;
            if (last0[y] < last1[y]) {
                a = a < last0[y] ? a : last0[y];
                b = b > last1[y] ? b : last1[y];
            }
            if (a < b)
                convert_part(r, row, srow, frow, s0, s1, a, b);
        }
        for (int i = 0; part && i < nhint; i++) {
            const rpl_rect_t *c = &r->hint[i];
            for (int y = c->y; y < c->y + c->h; y++) {
                int s0 = span0[y] < span1[y] ? span0[y] : w, s1 = span0[y] < span1[y] ? span1[y] : w;
                convert_part(r, (unsigned char *)fb + (ptrdiff_t)y * pitch, scene + y * sp,
                             r->frame + (ptrdiff_t)y * w, s0, s1, c->x, c->x + c->w);
            }
        }
    }
    /* what the next frame may redraw from */
    memcpy(r->last_span, r->span, 2 * (size_t)h * sizeof *r->span);
    r->last_fb = fb;
    r->last_pitch = pitch;
    r->last_scene = scene;
    r->last_spitch = spitch;
    r->have_last = 1;
    return RPL_OK;
}
