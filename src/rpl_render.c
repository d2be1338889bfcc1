/* rpl_render.c - drawing the refracted frame: whole, or only the tiles that changed, on one or more threads. */
#include <stdatomic.h>

#include "rpl_internal.h"
#include "rpl_kernels.h"
#include "rpl_pool.h"

typedef struct render_job {
    rpl_sim_t *sim;
    rpl_refract_job_t k;
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
        sim->kern->refract_xrgb8888(&job->k, 0, sim->w, y0, y1);
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
        sim->kern->refract_xrgb8888(&job->k, tx * RPL_TILE_W, x1, y0, y1);
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

static rpl_status render(rpl_sim_t *sim, const uint32_t *bg, void *fb, ptrdiff_t pitch,
                         rpl_format format, const rpl_view_t *view, int changed_only)
{
    if (!sim || !bg || !fb || !view || format != RPL_XRGB8888 || view->strength < 0 ||
        view->strength > RPL_STRENGTH_MAX || pitch < (ptrdiff_t)sim->w * 4 || pitch % 4 != 0)
        return RPL_EINVAL;
    int shading = view->shading ? 1 : 0;
    int same = sim->shown.valid && sim->shown.fb == fb && sim->shown.bg == bg &&
               sim->shown.pitch == pitch && sim->shown.format == (int)format &&
               sim->shown.strength == view->strength && sim->shown.shading == shading;
    render_job_t job;
    job.sim = sim;
    job.k = (rpl_refract_job_t){ sim->cur, bg, fb, pitch, sim->w, sim->h, view->strength, shading };
    job.all = !(changed_only && same);
    atomic_init(&job.next, 0);
    atomic_init(&job.drawn, 0);
    if (sim->pool && (job.all || !sim->sleeping || sim->rendered >= RPL_POOL_MIN_TILES))
        rpl_pool_run(sim->pool, render_worker, &job);
    else
        render_worker(&job, 0);
    sim->rendered = atomic_load(&job.drawn);
    sim->shown.fb = fb;
    sim->shown.bg = bg;
    sim->shown.pitch = pitch;
    sim->shown.format = (int)format;
    sim->shown.strength = view->strength;
    sim->shown.shading = shading;
    sim->shown.valid = sim->sleeping; /* the drawn[] bits are kept only then */
    return RPL_OK;
}

rpl_status rpl_refract(rpl_sim_t *sim, const uint32_t *bg, void *fb, ptrdiff_t pitch,
                       rpl_format format, const rpl_view_t *view)
{
    return render(sim, bg, fb, pitch, format, view, 0);
}

rpl_status rpl_refract_changed(rpl_sim_t *sim, const uint32_t *bg, void *fb, ptrdiff_t pitch,
                               rpl_format format, const rpl_view_t *view)
{
    return render(sim, bg, fb, pitch, format, view, 1);
}
