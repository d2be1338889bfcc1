/* core/render.c - drawing the refracted frame in any format: whole, or only the tiles that changed, on one or more threads. */
#include <stdatomic.h>

#include "core/internal.h"
#include "kernels/kernels.h"
#include "core/pool.h"

typedef struct render_job {
    rpl_sim_t *sim;
    rpl_refract_job_t k;
    rpl_refract_fn refract; /* the kernel of the format */
    int all;          /* draw every tile */
    atomic_int next;  /* next strip (tile row) to take */
    atomic_uint drawn;
} render_job_t;

/* A tile shows the bare background when it and the edges of its four
 * neighbours are 0: every offset and shade in it is then 0. */
static int tile_calm(const rpl_sim_t *sim, int tx, int ty)
{
    const uint8_t *a = sim->act + (size_t)ty * sim->tiles_x + tx;
    return !((a[0] & RPL_ACT_CUR) || rpl_edges_touch(sim, a, tx, ty));
}

static unsigned render_strip(render_job_t *job, int ty)
{
    rpl_sim_t *sim = job->sim;
    int y0 = ty * RPL_TILE_H, y1 = y0 + RPL_TILE_H > sim->h ? sim->h : y0 + RPL_TILE_H;
    if (!sim->sleeping) {
        job->refract(&job->k, 0, sim->w, y0, y1);
        return (unsigned)sim->tiles_x;
    }
    unsigned drawn = 0;
    uint8_t *shown = sim->drawn + (size_t)ty * sim->tiles_x;
    for (int tx = 0; tx < sim->tiles_x; tx++) {
        int calm = tile_calm(sim, tx, ty);
        if (!job->all && calm && shown[tx])
            continue;
        /* draw runs of neighbouring tiles with one call */
        int tx1 = tx + 1;
        while (tx1 < sim->tiles_x && (job->all || !(tile_calm(sim, tx1, ty) && shown[tx1])))
            tx1++;
        for (int i = tx; i < tx1; i++)
            shown[i] = (uint8_t)tile_calm(sim, i, ty);
        int x1 = tx1 * RPL_TILE_W > sim->w ? sim->w : tx1 * RPL_TILE_W;
        job->refract(&job->k, tx * RPL_TILE_W, x1, y0, y1);
        drawn += (unsigned)(tx1 - tx);
        tx = tx1 - 1;
    }
    return drawn;
}

static void render_worker(void *arg, int thread)
{
    (void)thread;
    render_job_t *job = arg;
    unsigned drawn = 0;
    for (int ty; (ty = atomic_fetch_add(&job->next, 1)) < job->sim->tiles_y;)
        drawn += render_strip(job, ty);
    atomic_fetch_add(&job->drawn, drawn);
}

/* What a frame is drawn from: a raw XRGB8888 background or a backdrop. */
typedef struct source {
    rpl_format format;
    const void *key; /* the background or the backdrop, for sim->shown */
    unsigned id;     /* 0, or the backdrop's serial */
    const uint32_t *bg;
    const uint16_t *bg16;
    const uint8_t *bg8, *shade8;
} source_t;

/* The one implementation behind rpl_refract, rpl_render and their
 * changed-only forms. */
static rpl_status render(rpl_sim_t *sim, const source_t *src, void *fb, ptrdiff_t pitch,
                         const rpl_view_t *view, int changed_only)
{
    const int bytes = rpl_format_bytes(src->format);
    if (!fb || !view)
        return rpl_fail(sim, RPL_EINVAL, "render: %s is NULL", fb ? "the view" : "fb");
    if (view->strength < 0 || view->strength > RPL_STRENGTH_MAX)
        return rpl_fail(sim, RPL_EINVAL, "render: strength %d is not in 0..%d", view->strength,
                        RPL_STRENGTH_MAX);
    if (pitch < (ptrdiff_t)sim->w * bytes || pitch % bytes != 0)
        return rpl_fail(sim, RPL_EINVAL,
                        "render: pitch %td is not a multiple of %d bytes of at least %td",
                        pitch, bytes, (ptrdiff_t)sim->w * bytes);
    const rpl_kernels_t *kern = sim->kern;
    rpl_refract_fn refract = src->format == RPL_RGB565  ? kern->refract_rgb565
                             : src->format == RPL_INDEX8 ? kern->refract_index8
                                                         : kern->refract_xrgb8888;
    int shading = view->shading ? 1 : 0;
    int same = sim->shown.valid && sim->shown.fb == fb && sim->shown.bg == src->key &&
               sim->shown.bg_id == src->id && sim->shown.pitch == pitch &&
               sim->shown.format == (int)src->format &&
               sim->shown.strength == view->strength && sim->shown.shading == shading;
    render_job_t job;
    job.sim = sim;
    job.k = (rpl_refract_job_t){ sim->cur, src->bg, fb, pitch, sim->w, sim->h, view->strength,
                                 shading, src->bg16, src->bg8, src->shade8 };
    job.refract = refract;
    job.all = !(changed_only && same);
    atomic_init(&job.next, 0);
    atomic_init(&job.drawn, 0);
    if (sim->pool && (job.all || !sim->sleeping || sim->rendered >= RPL_POOL_MIN_TILES))
        rpl_pool_run(sim->pool, render_worker, &job);
    else
        render_worker(&job, 0);
    sim->rendered = atomic_load(&job.drawn);
    sim->shown.fb = fb;
    sim->shown.bg = src->key;
    sim->shown.bg_id = src->id;
    sim->shown.pitch = pitch;
    sim->shown.format = (int)src->format;
    sim->shown.strength = view->strength;
    sim->shown.shading = shading;
    sim->shown.valid = sim->sleeping; /* the drawn[] bits are kept only then */
    return RPL_OK;
}

static rpl_status refract_raw(rpl_sim_t *sim, const uint32_t *bg, void *fb, ptrdiff_t pitch,
                              rpl_format format, const rpl_view_t *view, int changed_only)
{
    if (!sim)
        return RPL_EINVAL;
    if (!bg)
        return rpl_fail(sim, RPL_EINVAL, "render: bg is NULL");
    if (format != RPL_XRGB8888)
        return rpl_fail(sim, RPL_EINVAL, "render: a raw background draws only XRGB8888 (format "
                        "%d needs a backdrop)", (int)format);
    source_t src = { RPL_XRGB8888, bg, 0, bg, NULL, NULL, NULL };
    return render(sim, &src, fb, pitch, view, changed_only);
}

static rpl_status render_backdrop(rpl_sim_t *sim, const rpl_backdrop_t *bd, void *fb,
                                  ptrdiff_t pitch, const rpl_view_t *view, int changed_only)
{
    if (!sim)
        return RPL_EINVAL;
    if (!bd)
        return rpl_fail(sim, RPL_EINVAL, "render: the backdrop is NULL");
    if (bd->w != sim->w || bd->h != sim->h)
        return rpl_fail(sim, RPL_EINVAL, "render: the backdrop is %dx%d, the field %dx%d", bd->w,
                        bd->h, sim->w, sim->h);
    source_t src = { bd->format, bd, bd->id, NULL, NULL, NULL, NULL };
    switch (bd->format) {
    case RPL_RGB565: src.bg16 = bd->px; break;
    case RPL_INDEX8: src.bg8 = bd->px, src.shade8 = bd->shade; break;
    default: src.bg = bd->px; break;
    }
    return render(sim, &src, fb, pitch, view, changed_only);
}

rpl_status rpl_refract(rpl_sim_t *sim, const uint32_t *bg, void *fb, ptrdiff_t pitch,
                       rpl_format format, const rpl_view_t *view)
{
    return refract_raw(sim, bg, fb, pitch, format, view, 0);
}

rpl_status rpl_refract_changed(rpl_sim_t *sim, const uint32_t *bg, void *fb, ptrdiff_t pitch,
                               rpl_format format, const rpl_view_t *view)
{
    return refract_raw(sim, bg, fb, pitch, format, view, 1);
}

rpl_status rpl_render(rpl_sim_t *sim, const rpl_backdrop_t *bd, void *fb, ptrdiff_t pitch,
                      const rpl_view_t *view)
{
    return render_backdrop(sim, bd, fb, pitch, view, 0);
}

rpl_status rpl_render_changed(rpl_sim_t *sim, const rpl_backdrop_t *bd, void *fb,
                              ptrdiff_t pitch, const rpl_view_t *view)
{
    return render_backdrop(sim, bd, fb, pitch, view, 1);
}
