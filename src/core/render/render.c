/* core/render/render.c - drawing the refracted frame in any format: whole, or only the tiles that changed, on one or more threads. */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/field/tiles.h"
#include "core/render/render.h"
#include "kernels/kernels.h"
#include "core/base/pool.h"

/* A renderer (opaque in ripple.h): what it last drew into, so the next
 * draw redraws only the tiles that may have changed there. */
struct rpl_renderer {
    rpl_sim_t *sim;
    int w, h, tiles_x, tiles_y; /* the field's size and tiles, fixed for its life */
    size_t tiles;
    uint8_t *drawn;            /* per tile: the framebuffer shows the bare background */
    uint8_t *fresh;            /* per tile: the last draw drew it */
    rpl_rect_t *rects;         /* room for rpl_renderer_changed's merging */
    int *open;                 /* and for two rows of its rectangles' indices */
    struct {                   /* what the last draw drew into */
        const void *fb;
        unsigned bd_id;        /* the backdrop's serial */
        ptrdiff_t pitch;
        int strength, shading, valid;
    } shown;
    unsigned rendered;         /* tiles drawn by the last draw */
    rpl_err_t err;             /* detail of the last failure */
};

typedef struct render_job {
    rpl_field_view_t f; /* the field drawn */
    uint8_t *drawn;   /* the renderer's bits, NULL for a one-off render */
    uint8_t *fresh;   /* the renderer's tiles drawn by this draw, or NULL */
    rpl_refract_job_t k;
    rpl_refract_fn refract; /* the kernel of the format */
    int all;          /* draw every tile */
    atomic_int next;  /* next strip (tile row) to take */
    atomic_uint count;
} render_job_t;

/* A tile shows the bare background when it and the edges of its four
 * neighbours are 0: every offset and shade in it is then 0. */
static int tile_calm(const rpl_field_view_t *f, int tx, int ty)
{
    const uint8_t *a = f->act + (size_t)ty * f->tiles_x + tx;
    return !((a[0] & RPL_ACT_CUR) || rpl_edges_touch(f->tiles_x, f->tiles_y, a, tx, ty));
}

static unsigned render_strip(render_job_t *job, int ty)
{
    const rpl_field_view_t *sim = &job->f;
    int y0 = ty * RPL_TILE_H, y1 = y0 + RPL_TILE_H > sim->h ? sim->h : y0 + RPL_TILE_H;
    uint8_t *fresh = job->fresh ? job->fresh + (size_t)ty * sim->tiles_x : NULL;
    if (!sim->sleeping || !job->drawn) {
        job->refract(&job->k, 0, sim->w, y0, y1);
        if (fresh)
            memset(fresh, 1, (size_t)sim->tiles_x);
        return (unsigned)sim->tiles_x;
    }
    if (fresh)
        memset(fresh, 0, (size_t)sim->tiles_x);
    unsigned count = 0;
    uint8_t *shown = job->drawn + (size_t)ty * sim->tiles_x;
    for (int tx = 0; tx < sim->tiles_x; tx++) {
        int calm = tile_calm(sim, tx, ty);
        if (!job->all && calm && shown[tx])
            continue;
        /* draw runs of neighbouring tiles with one call */
        int tx1 = tx + 1;
        while (tx1 < sim->tiles_x && (job->all || !(tile_calm(sim, tx1, ty) && shown[tx1])))
            tx1++;
        for (int i = tx; i < tx1; i++) {
            shown[i] = (uint8_t)tile_calm(sim, i, ty);
            if (fresh)
                fresh[i] = 1;
        }
        int x1 = tx1 * RPL_TILE_W > sim->w ? sim->w : tx1 * RPL_TILE_W;
        job->refract(&job->k, tx * RPL_TILE_W, x1, y0, y1);
        count += (unsigned)(tx1 - tx);
        tx = tx1 - 1;
    }
    return count;
}

static void render_worker(void *arg, int thread)
{
    (void)thread;
    render_job_t *job = arg;
    unsigned count = 0;
    for (int ty; (ty = atomic_fetch_add(&job->next, 1)) < job->f.tiles_y;)
        count += render_strip(job, ty);
    atomic_fetch_add(&job->count, count);
}

/* What a frame is drawn from: a raw XRGB8888 background or a backdrop. */
typedef struct source {
    rpl_format format;
    unsigned id;     /* the backdrop's serial, 0 for a raw background */
    const uint32_t *bg;
    const uint16_t *bg16;
    const uint8_t *bg8, *shade8;
} source_t;

/* Where a failure is told: the renderer's slot (nothing was drawn), or
 * the field's. */
static rpl_err_t *err_slot(rpl_sim_t *sim, rpl_renderer_t *r)
{
    if (!r)
        return rpl_field_err(sim);
    memset(r->fresh, 0, r->tiles);
    return &r->err;
}

/* The one implementation behind rpl_refract, rpl_render and
 * rpl_renderer_draw: with a renderer, only the tiles that may have
 * changed since its last draw into the same place. */
static rpl_status render(rpl_sim_t *sim, const rpl_field_view_t *fv, rpl_renderer_t *r,
                         const source_t *src, void *fb,
                         ptrdiff_t pitch, const rpl_view_t *view)
{
    const int bytes = rpl_format_bytes(src->format);
    render_job_t job;
    job.f = *fv;
    const rpl_field_view_t *f = &job.f;
    if (!fb || !view)
        return rpl_err_set(err_slot(sim, r), RPL_EINVAL, "render: %s is NULL", fb ? "the view" : "fb");
    if (view->strength < 0 || view->strength > RPL_STRENGTH_MAX)
        return rpl_err_set(err_slot(sim, r), RPL_EINVAL, "render: strength %d is not in 0..%d", view->strength,
                    RPL_STRENGTH_MAX);
    if (pitch < (ptrdiff_t)f->w * bytes || pitch % bytes != 0)
        return rpl_err_set(err_slot(sim, r), RPL_EINVAL,
                    "render: pitch %td is not a multiple of %d bytes of at least %td", pitch,
                    bytes, (ptrdiff_t)f->w * bytes);
    if ((uintptr_t)fb % (uintptr_t)bytes != 0)
        return rpl_err_set(err_slot(sim, r), RPL_EINVAL, "render: fb is not aligned for %d-byte pixels", bytes);
    const rpl_kernels_t *kern = f->kern;
    rpl_refract_fn refract = src->format == RPL_RGB565  ? kern->refract_rgb565
                             : src->format == RPL_INDEX8 ? kern->refract_index8
                                                         : kern->refract_xrgb8888;
    int shading = view->shading ? 1 : 0;
    int same = r && r->shown.valid && r->shown.fb == fb && r->shown.bd_id == src->id &&
               r->shown.pitch == pitch && r->shown.strength == view->strength &&
               r->shown.shading == shading;
    job.drawn = r ? r->drawn : NULL;
    job.fresh = r ? r->fresh : NULL;
    job.k = (rpl_refract_job_t){ f->cur, src->bg, fb, pitch, f->w, f->h, view->strength,
                                 shading, src->bg16, src->bg8, src->shade8, f->rows };
    job.refract = refract;
    job.all = !same;
    atomic_init(&job.next, 0);
    atomic_init(&job.count, 0);
    unsigned last = r ? r->rendered : (unsigned)-1;
    if (f->pool && (job.all || !f->sleeping || last >= RPL_POOL_MIN_TILES))
        rpl_pool_run(f->pool, render_worker, &job);
    else
        render_worker(&job, 0);
    unsigned drew = atomic_load(&job.count);
    rpl_field_drew(sim, drew);
    if (r) {
        r->rendered = drew;
        r->shown.fb = fb;
        r->shown.bd_id = src->id;
        r->shown.pitch = pitch;
        r->shown.strength = view->strength;
        r->shown.shading = shading;
        r->shown.valid = f->sleeping; /* the drawn[] bits are kept only then */
    }
    return RPL_OK;
}

rpl_status rpl_refract(rpl_sim_t *sim, const uint32_t *bg, void *fb, ptrdiff_t pitch,
                       rpl_format format, const rpl_view_t *view)
{
    rpl_field_view_t f;
    if (!rpl_field_view(sim, &f))
        return RPL_EINVAL;
    if (!bg)
        return rpl_err_set(rpl_field_err(sim), RPL_EINVAL, "render: bg is NULL");
    if (format != RPL_XRGB8888)
        return rpl_err_set(rpl_field_err(sim), RPL_EINVAL, "render: a raw background draws only XRGB8888 (format "
                        "%d needs a backdrop)", (int)format);
    source_t src = { RPL_XRGB8888, 0, bg, NULL, NULL, NULL };
    return render(sim, &f, NULL, &src, fb, pitch, view);
}

static rpl_status render_backdrop(rpl_sim_t *sim, const rpl_field_view_t *f, rpl_renderer_t *r,
                                  const rpl_backdrop_t *bd, void *fb, ptrdiff_t pitch,
                                  const rpl_view_t *view)
{
    if (!bd || !bd->px)
        return rpl_err_set(err_slot(sim, r), RPL_EINVAL, "render: the backdrop is %s",
                           bd ? "a failed one (see rpl_backdrop_error)" : "NULL");
    if (bd->w != f->w || bd->h != f->h)
        return rpl_err_set(err_slot(sim, r), RPL_EINVAL, "render: the backdrop is %dx%d, the field %dx%d", bd->w,
                    bd->h, f->w, f->h);
    source_t src = { bd->format, bd->id, NULL, NULL, NULL, NULL };
    switch (bd->format) {
    case RPL_RGB565: src.bg16 = bd->px; break;
    case RPL_INDEX8: src.bg8 = bd->px, src.shade8 = bd->shade; break;
    default: src.bg = bd->px; break;
    }
    return render(sim, f, r, &src, fb, pitch, view);
}

rpl_status rpl_render(rpl_sim_t *sim, const rpl_backdrop_t *bd, void *fb, ptrdiff_t pitch,
                      const rpl_view_t *view)
{
    rpl_field_view_t f;
    if (!rpl_field_view(sim, &f))
        return RPL_EINVAL;
    return render_backdrop(sim, &f, NULL, bd, fb, pitch, view);
}

/* ---- renderers ------------------------------------------------------------ */

/* A failed renderer keeps nothing but its message. */
static void release(rpl_renderer_t *r)
{
    free(r->drawn);
    free(r->fresh);
    free(r->rects);
    free(r->open);
    r->drawn = r->fresh = NULL;
    r->rects = NULL;
    r->open = NULL;
}

/* A renderer that can draw: created whole (a failed handle only reports
 * its error and is destroyed). */
static int usable(const rpl_renderer_t *r)
{
    return r && r->sim;
}

rpl_status rpl_renderer_create(rpl_sim_t *sim, rpl_renderer_t **out)
{
    if (!out)
        return RPL_EINVAL;
    rpl_renderer_t *r = *out = calloc(1, sizeof *r);
    if (!r)
        return RPL_ENOMEM;
    rpl_field_view_t f;
    if (!rpl_field_view(sim, &f))
        return rpl_err_set(&r->err, RPL_EINVAL, "no field to draw (%s)",
                           sim ? "it failed to be created" : "NULL");
    size_t tiles = (size_t)f.tiles_x * (size_t)f.tiles_y;
    r->drawn = calloc(tiles, 1);
    r->fresh = calloc(tiles, 1);
    r->rects = calloc(tiles, sizeof *r->rects);
    r->open = calloc((size_t)f.tiles_x * 2, sizeof *r->open);
    if (!r->drawn || !r->fresh || !r->rects || !r->open) {
        release(r);
        return rpl_err_set(&r->err, RPL_ENOMEM, "out of memory for a renderer of %zu tiles",
                           tiles);
    }
    r->sim = sim;
    r->w = f.w, r->h = f.h, r->tiles_x = f.tiles_x, r->tiles_y = f.tiles_y;
    r->tiles = tiles;
    return RPL_OK;
}

void rpl_renderer_destroy(rpl_renderer_t *r)
{
    if (!r)
        return;
    release(r);
    free(r);
}

rpl_status rpl_renderer_draw(rpl_renderer_t *r, const rpl_backdrop_t *bd, void *fb,
                             ptrdiff_t pitch, const rpl_view_t *view)
{
    if (!usable(r))
        return RPL_EINVAL;
    rpl_field_view_t f;
    rpl_field_view(r->sim, &f); /* a usable renderer's field is usable */
    return render_backdrop(r->sim, &f, r, bd, fb, pitch, view);
}

void rpl_renderer_invalidate(rpl_renderer_t *r)
{
    if (usable(r))
        r->shown.valid = 0;
}

void rpl_renderer_invalidate_rect(rpl_renderer_t *r, int x, int y, int w, int h)
{
    if (!usable(r) || w <= 0 || h <= 0)
        return;
    /* clipped to the field, in 64-bit so no sum overflows */
    long long x0 = x < 0 ? 0 : x, y0 = y < 0 ? 0 : y;
    long long x1 = (long long)x + w, y1 = (long long)y + h;
    x1 = x1 > r->w ? r->w : x1;
    y1 = y1 > r->h ? r->h : y1;
    if (x1 <= x0 || y1 <= y0)
        return;
    int tx0 = (int)(x0 / RPL_TILE_W), tx1 = (int)((x1 - 1) / RPL_TILE_W);
    int ty0 = (int)(y0 / RPL_TILE_H), ty1 = (int)((y1 - 1) / RPL_TILE_H);
    for (int ty = ty0; ty <= ty1; ty++)
        memset(r->drawn + (size_t)ty * r->tiles_x + tx0, 0, (size_t)(tx1 - tx0 + 1));
}

int rpl_renderer_changed(const rpl_renderer_t *r, rpl_rect_t *rects, int max)
{
    if (!usable(r))
        return 0;
    rpl_rect_t *out = r->rects;
    int *open = r->open, *next = r->open + r->tiles_x; /* rectangles ending at this row */
    int n = 0, n_open = 0;
    for (int ty = 0; ty < r->tiles_y; ty++) {
        const uint8_t *f = r->fresh + (size_t)ty * r->tiles_x;
        int y0 = ty * RPL_TILE_H, y1 = y0 + RPL_TILE_H > r->h ? r->h : y0 + RPL_TILE_H;
        int n_next = 0;
        for (int tx = 0; tx < r->tiles_x; tx++) {
            if (!f[tx])
                continue;
            int tx1 = tx + 1;
            while (tx1 < r->tiles_x && f[tx1])
                tx1++;
            int x0 = tx * RPL_TILE_W, x1 = tx1 * RPL_TILE_W > r->w ? r->w : tx1 * RPL_TILE_W;
            /* a run exactly as wide as one ending on the row above lengthens it */
            int i = 0;
            while (i < n_open && !(out[open[i]].x == x0 && out[open[i]].w == x1 - x0))
                i++;
            if (i < n_open) {
                out[open[i]].h += y1 - y0;
                next[n_next++] = open[i];
            } else {
                out[n] = (rpl_rect_t){ x0, y0, x1 - x0, y1 - y0 };
                next[n_next++] = n++;
            }
            tx = tx1 - 1;
        }
        int *t = open;
        open = next, next = t;
        n_open = n_next;
    }
    for (int i = 0; i < n && i < max && rects; i++)
        rects[i] = out[i];
    return n;
}

unsigned rpl_renderer_drawn(const rpl_renderer_t *r)
{
    return usable(r) ? r->rendered : 0;
}

rpl_sim_t *rpl_renderer_field(const rpl_renderer_t *r)
{
    return usable(r) ? r->sim : NULL;
}

const char *rpl_renderer_error(const rpl_renderer_t *r)
{
    if (!r)
        return "no renderer (NULL)";
    return rpl_err_text(&r->err);
}
