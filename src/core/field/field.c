/* core/field/field.c - the height field: creation, stepping, stones, trails and rain. */
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/field/field.h"
#include "kernels/kernels.h"
#include "core/base/pool.h"
#include "core/base/thread.h"
#include "ripple_support.h"

/* A failed field keeps nothing but its message. */
static void release(rpl_sim_t *sim)
{
    rpl_pool_destroy(sim->pool);
    sim->pool = NULL;
    free(sim->cur);
    free(sim->prev);
    free(sim->act);
    free(sim->act_next);
    free(sim->rows_mem);
    sim->cur = sim->prev = NULL;
    sim->act = sim->act_next = NULL;
    sim->rows_mem = NULL;
    rpl_walls_free(sim);
}

rpl_status rpl_sim_create(int w, int h, uint64_t seed, rpl_sim_t **out)
{
    if (!out)
        return RPL_EINVAL;
    rpl_sim_t *sim = *out = calloc(1, sizeof *sim);
    if (!sim)
        return RPL_ENOMEM;
    if (w < RPL_DIM_MIN || h < RPL_DIM_MIN || w > RPL_DIM_MAX || h > RPL_DIM_MAX)
        return rpl_err_set(&sim->err, RPL_EINVAL, "field size %dx%d: each side must be %d..%d",
                           w, h, RPL_DIM_MIN, RPL_DIM_MAX);
    size_t n = (size_t)w * (size_t)h;
    sim->cur = calloc(n, sizeof *sim->cur);
    sim->prev = calloc(n, sizeof *sim->prev);
    sim->tiles_x = (w + RPL_TILE_W - 1) / RPL_TILE_W;
    sim->tiles_y = (h + RPL_TILE_H - 1) / RPL_TILE_H;
    size_t nt = (size_t)sim->tiles_x * (size_t)sim->tiles_y;
    sim->act = calloc(nt, 1);
    sim->act_next = calloc(nt, 1);
    sim->rows_mem = malloc(RPL_ROWS_LEN(h) * sizeof *sim->rows_mem);
    if (!sim->cur || !sim->prev || !sim->act || !sim->act_next || !sim->rows_mem) {
        release(sim);
        return rpl_err_set(&sim->err, RPL_ENOMEM, "out of memory for a %dx%d field", w, h);
    }
    rpl_refract_rows(sim->rows_mem, w, h);
    sim->w = w;
    sim->h = h;
    sim->threads = 1;
    sim->sleeping = 1;
    rpl_status st = rpl_kernels_find(NULL, &sim->kern);
    if (st != RPL_OK) {
        release(sim);
        sim->w = sim->h = 0;
        return rpl_err_set(&sim->err, st, "kernels: %s (RIPPLE_SIMD names a path this build or "
                           "this CPU lacks?)", rpl_strerror(st));
    }
    sim->rng = rpl_seed_mix(seed);
    return RPL_OK;
}

void rpl_sim_destroy(rpl_sim_t *sim)
{
    if (!sim)
        return;
    release(sim);
    free(sim);
}

const char *rpl_sim_error(const rpl_sim_t *sim)
{
    if (!sim)
        return "no field (NULL)";
    return rpl_err_text(&sim->err);
}

int rpl_sim_width(const rpl_sim_t *sim)
{
    return rpl_sim_usable(sim) ? sim->w : 0;
}

int rpl_sim_height(const rpl_sim_t *sim)
{
    return rpl_sim_usable(sim) ? sim->h : 0;
}

const int16_t *rpl_sim_heights(const rpl_sim_t *sim)
{
    return rpl_sim_usable(sim) ? sim->cur : NULL;
}

const int16_t *rpl_sim_previous(const rpl_sim_t *sim)
{
    return rpl_sim_usable(sim) ? sim->prev : NULL;
}

uint64_t rpl_sim_steps(const rpl_sim_t *sim)
{
    return rpl_sim_usable(sim) ? sim->steps : 0;
}

int rpl_sim_threads(const rpl_sim_t *sim)
{
    return rpl_sim_usable(sim) ? sim->threads : 0;
}

int rpl_sim_sleeping(const rpl_sim_t *sim)
{
    return rpl_sim_usable(sim) ? sim->sleeping : 0;
}

const rpl_kernels_t *rpl_sim_kernels(const rpl_sim_t *sim)
{
    return rpl_sim_usable(sim) ? sim->kern : NULL;
}

rpl_status rpl_sim_set_kernels(rpl_sim_t *sim, const rpl_kernels_t *k)
{
    if (!rpl_sim_usable(sim))
        return RPL_EINVAL;
    if (!k)
        return rpl_err_set(&sim->err, RPL_EINVAL, "no kernel table (NULL)");
    sim->kern = k;
    return RPL_OK;
}

void rpl_sim_reset(rpl_sim_t *sim, uint64_t seed)
{
    if (!rpl_sim_usable(sim))
        return;
    size_t n = (size_t)sim->w * (size_t)sim->h;
    memset(sim->cur, 0, n * sizeof *sim->cur);
    memset(sim->prev, 0, n * sizeof *sim->prev);
    memset(sim->act, 0, (size_t)sim->tiles_x * (size_t)sim->tiles_y);
    sim->steps = 0;
    sim->rng = rpl_seed_mix(seed);
    rpl_err_clear(&sim->err);
}

int rpl_cpu_count(void)
{
    int n = rpl_thread_cpus();
    return n > RPL_THREADS_MAX ? RPL_THREADS_MAX : n;
}

rpl_status rpl_sim_set_threads(rpl_sim_t *sim, int threads)
{
    if (!rpl_sim_usable(sim))
        return RPL_EINVAL;
    if (threads < 1 || threads > RPL_THREADS_MAX)
        return rpl_err_set(&sim->err, RPL_EINVAL, "%d threads is not in 1..%d", threads, RPL_THREADS_MAX);
    if (threads == sim->threads)
        return RPL_OK;
    rpl_pool_t *pool = NULL;
    if (threads > 1 && !(pool = rpl_pool_create(threads)))
        return rpl_err_set(&sim->err, RPL_ENOMEM, "cannot start %d threads", threads);
    rpl_pool_destroy(sim->pool);
    sim->pool = pool;
    sim->threads = threads;
    return RPL_OK;
}

/* Nonzero if any of the n heights at p is; whole words at a time (the
 * compiler vectorises this). */
static int any_nonzero(const int16_t *p, int n)
{
    uint64_t acc = 0;
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        uint64_t v;
        memcpy(&v, p + i, sizeof v);
        acc |= v;
    }
    for (; i < n; i++)
        acc |= (uint16_t)p[i];
    return acc != 0;
}

uint8_t rpl_tile_edges(const rpl_sim_t *sim, const int16_t *b, int tx, int ty)
{
    int x0 = tx * RPL_TILE_W, y0 = ty * RPL_TILE_H;
    int x1 = x0 + RPL_TILE_W < sim->w ? x0 + RPL_TILE_W : sim->w;
    int y1 = y0 + RPL_TILE_H < sim->h ? y0 + RPL_TILE_H : sim->h;
    const int16_t *top = b + (ptrdiff_t)y0 * sim->w + x0;
    const int16_t *bot = b + (ptrdiff_t)(y1 - 1) * sim->w + x0;
    int l = 0, r = 0;
    for (const int16_t *p = top; p <= bot; p += sim->w) {
        l |= p[0];
        r |= p[x1 - x0 - 1];
    }
    return (uint8_t)((any_nonzero(top, x1 - x0) ? RPL_EDGE_T : 0) |
                     (any_nonzero(bot, x1 - x0) ? RPL_EDGE_B : 0) | (l ? RPL_EDGE_L : 0) |
                     (r ? RPL_EDGE_R : 0));
}

/* Rebuilds every tile's activity bits from the buffers. */
void rpl_sim_rescan(rpl_sim_t *sim)
{
    for (int ty = 0; ty < sim->tiles_y; ty++)
        for (int tx = 0; tx < sim->tiles_x; tx++) {
            int y1 = (ty + 1) * RPL_TILE_H < sim->h ? (ty + 1) * RPL_TILE_H : sim->h;
            int x0 = tx * RPL_TILE_W;
            int x1 = x0 + RPL_TILE_W < sim->w ? x0 + RPL_TILE_W : sim->w;
            uint8_t a = 0;
            for (int y = ty * RPL_TILE_H; y < y1; y++)
                for (int x = x0; x < x1; x++) {
                    ptrdiff_t i = (ptrdiff_t)y * sim->w + x;
                    a |= (sim->cur[i] ? RPL_ACT_CUR : 0) | (sim->prev[i] ? RPL_ACT_PREV : 0);
                }
            if (a & RPL_ACT_CUR)
                a |= rpl_tile_edges(sim, sim->cur, tx, ty);
            sim->act[(size_t)ty * sim->tiles_x + tx] = a;
        }
}

void rpl_sim_set_sleeping(rpl_sim_t *sim, int on)
{
    if (!rpl_sim_usable(sim))
        return;
    if (on && !sim->sleeping)
        rpl_sim_rescan(sim);
    sim->sleeping = on ? 1 : 0;
}

void rpl_sim_stats(const rpl_sim_t *sim, rpl_stats_t *stats)
{
    if (!stats)
        return;
    if (!rpl_sim_usable(sim)) {
        *stats = (rpl_stats_t){ 0, 0, 0 };
        return;
    }
    stats->tiles = (unsigned)(sim->tiles_x * sim->tiles_y);
    stats->stepped = sim->stepped;
    stats->rendered = sim->rendered;
}

/* Work shared among threads: strips of one tile row each, taken in turn
 * from a counter so that busy and idle strips balance out. */
typedef struct step_job {
    rpl_sim_t *sim;
    atomic_int next;
    atomic_uint stepped;
} step_job_t;

/* Does tile t need its step?  Its own cells, or the neighbours' edges
 * that its rule reads. */
static int tile_awake(const rpl_sim_t *sim, int tx, int ty)
{
    const uint8_t *a = sim->act + (size_t)ty * sim->tiles_x + tx;
    return (a[0] & (RPL_ACT_CUR | RPL_ACT_PREV)) || rpl_edges_touch(sim->tiles_x, sim->tiles_y, a, tx, ty);
}

/* The field's rule (its model) over an area: a kernel of its table. */
static int step_area(rpl_sim_t *sim, int x0, int x1, int y0, int y1)
{
    if (sim->model == RPL_MODEL_WAVE)
        return sim->kern->step_wave(sim->prev, sim->cur, sim->w, x0, x1, y0, y1, &sim->coef);
    return sim->kern->step(sim->prev, sim->cur, sim->w, x0, x1, y0, y1);
}

static unsigned step_strip(rpl_sim_t *sim, int ty)
{
    int y0 = ty * RPL_TILE_H, y1 = y0 + RPL_TILE_H;
    y0 = y0 < 1 ? 1 : y0;
    y1 = y1 > sim->h - 1 ? sim->h - 1 : y1;
    if (!sim->sleeping) {
        if (y0 < y1) {
            step_area(sim, 1, sim->w - 1, y0, y1);
            if (rpl_post_needed(sim))
                rpl_post_step(sim, sim->prev, sim->cur, 1, sim->w - 1, y0, y1);
        }
        return (unsigned)sim->tiles_x;
    }
    unsigned stepped = 0;
    for (int tx = 0; tx < sim->tiles_x; tx++) {
        size_t t = (size_t)ty * sim->tiles_x + tx;
        /* what is now current becomes previous */
        uint8_t next = (sim->act[t] & RPL_ACT_CUR) ? RPL_ACT_PREV : 0;
        if (tile_awake(sim, tx, ty)) {
            int x0 = tx * RPL_TILE_W, x1 = x0 + RPL_TILE_W;
            x0 = x0 < 1 ? 1 : x0;
            x1 = x1 > sim->w - 1 ? sim->w - 1 : x1;
            if (x0 < x1 && y0 < y1) {
                int any = step_area(sim, x0, x1, y0, y1);
                /* walls only zero cells, but the band may leave a cell
                 * the kernel made 0 nonzero: its answer counts too */
                if (rpl_post_needed(sim))
                    any |= rpl_post_step(sim, sim->prev, sim->cur, x0, x1, y0, y1);
                if (any)
                    next |= RPL_ACT_CUR | rpl_tile_edges(sim, sim->prev, tx, ty);
            }
            stepped++;
        }
        /* A sleeping tile is 0 in both buffers, so its "new" cells (the
         * previous buffer, untouched) are already the right zeros. */
        sim->act_next[t] = next;
    }
    return stepped;
}

static void step_worker(void *arg, int thread)
{
    (void)thread;
    step_job_t *job = arg;
    unsigned stepped = 0;
    for (int ty; (ty = atomic_fetch_add(&job->next, 1)) < job->sim->tiles_y;)
        stepped += step_strip(job->sim, ty);
    atomic_fetch_add(&job->stepped, stepped);
}

void rpl_sim_step(rpl_sim_t *sim)
{
    if (!rpl_sim_usable(sim))
        return;
    rpl_walls_prepare(sim);
    step_job_t job;
    job.sim = sim;
    atomic_init(&job.next, 0);
    atomic_init(&job.stepped, 0);
    /* a few awake tiles are done sooner on one thread than handed out */
    if (sim->pool && (!sim->sleeping || sim->stepped >= RPL_POOL_MIN_TILES))
        rpl_pool_run(sim->pool, step_worker, &job);
    else
        step_worker(&job, 0);
    sim->stepped = atomic_load(&job.stepped);
    if (sim->sleeping) {
        uint8_t *t8 = sim->act;
        sim->act = sim->act_next;
        sim->act_next = t8;
    }
    int16_t *t = sim->cur;
    sim->cur = sim->prev;
    sim->prev = t;
    sim->steps++;
}

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Stamps the circle with no argument checks (callers checked them);
 * wall cells stay 0.  A disc sets its cells to v.  A bump (the shows'
 * smooth stone) adds v * (1 - d^2/r^2)^3 to every cell closer than r,
 * rounded towards 0 and clamped to the height range: its slope and
 * curvature fall to 0 at its rim, so it leaves no step in the water for
 * the rule to turn into ripples a cell long; integers only (v t^3 is
 * below 2^13 * 2^48), the same cells on every machine.  Returns 1 if the
 * circle reaches the interior (the stone landed), 0 if it fell wholly off
 * the field. */
static int stamp(rpl_sim_t *sim, int x, int y, int r, int16_t v, int bump)
{
    /* Clip the bounding box to the interior before the loop, so a drop
     * that overlaps an edge keeps its inner part. Offsets stay small. */
    int x0 = clampi(x - r + 1, 1, sim->w - 2), x1 = clampi(x + r - 1, 1, sim->w - 2);
    int y0 = clampi(y - r + 1, 1, sim->h - 2), y1 = clampi(y + r - 1, 1, sim->h - 2);
    if (x - r + 1 > sim->w - 2 || x + r - 1 < 1 || y - r + 1 > sim->h - 2 || y + r - 1 < 1)
        return 0;
    for (int ty = y0 / RPL_TILE_H; ty <= y1 / RPL_TILE_H; ty++)
        for (int tx = x0 / RPL_TILE_W; tx <= x1 / RPL_TILE_W; tx++)
            sim->act[(size_t)ty * sim->tiles_x + tx] |= RPL_ACT_CUR | RPL_EDGES;
    int r2 = r * r;
    int64_t den = (int64_t)r2 * r2 * r2;
    for (int cy = y0; cy <= y1; cy++) {
        int dy = cy - y;
        int16_t *row = sim->cur + (ptrdiff_t)cy * sim->w;
        const uint8_t *wall = sim->walls ? sim->walls + (ptrdiff_t)cy * sim->w : NULL;
        for (int cx = x0; cx <= x1; cx++) {
            int dx = cx - x, t = r2 - (dx * dx + dy * dy);
            if (t <= 0 || (wall && wall[cx]))
                continue;
            if (!bump) {
                row[cx] = v;
                continue;
            }
            int64_t n = row[cx] + (int64_t)v * t * t * t / den;
            row[cx] = (int16_t)(n < RPL_HEIGHT_MIN ? RPL_HEIGHT_MIN : n > RPL_HEIGHT_MAX ? RPL_HEIGHT_MAX : n);
        }
    }
    return 1;
}

static rpl_status check_stone(rpl_sim_t *sim, int radius, int weight, int16_t *v)
{
    if (radius < 1 || radius > RPL_RADIUS_MAX)
        return rpl_err_set(&sim->err, RPL_EINVAL, "stone radius %d is outside 1..%d",
                        radius, RPL_RADIUS_MAX);
    /* -weight, clamped, without overflowing on INT_MIN */
    long long nv = -(long long)weight;
    *v = (int16_t)(nv < RPL_HEIGHT_MIN ? RPL_HEIGHT_MIN : nv > RPL_HEIGHT_MAX ? RPL_HEIGHT_MAX : nv);
    return RPL_OK;
}

/* Centres far off the field are pulled in to where they cannot matter
 * any more, so the squared distances below never overflow. */
static int pull_in(int v, int r, int n)
{
    return clampi(v, -r - 1, n + r);
}

/* A stone, a disc or a bump, checked. */
static rpl_status stone(rpl_sim_t *sim, int x, int y, int radius, int weight, int bump)
{
    int16_t v = 0;
    if (!rpl_sim_usable(sim))
        return RPL_EINVAL;
    rpl_status st = check_stone(sim, radius, weight, &v);
    if (st != RPL_OK)
        return st;
    x = pull_in(x, radius, sim->w);
    y = pull_in(y, radius, sim->h);
    if (stamp(sim, x, y, radius, v, bump) && sim->drop_fn)
        sim->drop_fn(sim->drop_user, x, y, radius, -v);
    return RPL_OK;
}

rpl_status rpl_sim_drop(rpl_sim_t *sim, int x, int y, int radius, int weight)
{
    return stone(sim, x, y, radius, weight, 0);
}

rpl_status rpl_sim_bump(rpl_sim_t *sim, int x, int y, int radius, int weight)
{
    return stone(sim, x, y, radius, weight, 1);
}

rpl_status rpl_sim_trail(rpl_sim_t *sim, int x0, int y0, int x1, int y1,
                         int radius, int weight)
{
    int16_t v = 0;
    if (!rpl_sim_usable(sim))
        return RPL_EINVAL;
    rpl_status st = check_stone(sim, radius, weight, &v);
    if (st != RPL_OK)
        return st;
    /* A segment that reaches far outside is first cut to the part that can
     * touch the field (ends may be anywhere in int range); then stone i of
     * n sits at (x0, y0) + (x1 - x0, y1 - y0) * i / n. */
    int64_t lo = -radius - 1, hix = (int64_t)sim->w + radius, hiy = (int64_t)sim->h + radius;
    if (x0 < lo || x0 > hix || y0 < lo || y0 > hiy || x1 < lo || x1 > hix || y1 < lo || y1 > hiy) {
        double t0 = 0, t1 = 1, dx = (double)x1 - x0, dy = (double)y1 - y0;
        if (!rpl_clip_axis(x0, dx, (double)lo, (double)hix, &t0, &t1) ||
            !rpl_clip_axis(y0, dy, (double)lo, (double)hiy, &t0, &t1))
            return RPL_OK;
        double ax = x0 + dx * t0, ay = y0 + dy * t0, bx = x0 + dx * t1, by = y0 + dy * t1;
        x0 = (int)lround(ax);
        y0 = (int)lround(ay);
        x1 = (int)lround(bx);
        y1 = (int)lround(by);
    }
    int dx = x1 - x0, dy = y1 - y0;
    int len = abs(dx) > abs(dy) ? abs(dx) : abs(dy);
    int spacing = radius / 2 > 1 ? radius / 2 : 1;
    int n = (len + spacing - 1) / spacing; /* both ends, at most spacing apart */
    for (int i = 0; i <= n; i++) {
        int px = x0, py = y0;
        if (n > 0) {
            px += (int)((int64_t)dx * i / n);
            py += (int)((int64_t)dy * i / n);
        }
        if (stamp(sim, px, py, radius, v, 0) && sim->drop_fn)
            sim->drop_fn(sim->drop_user, px, py, radius, -v);
    }
    return RPL_OK;
}

/* The rain of rpl_sim_rain, its stones laid by drop. */
static rpl_status rain_of(rpl_sim_t *sim, const rpl_rain_t *rain,
                          rpl_status (*drop)(rpl_sim_t *, int, int, int, int))
{
    if (!rpl_sim_usable(sim))
        return RPL_EINVAL;
    if (!rain)
        return rpl_err_set(&sim->err, RPL_EINVAL, "no rain settings (NULL)");
    if (rain->per_kilostep < 0 || rain->per_kilostep > 1000000 ||
        rain->rmin < 1 || rain->rmax < rain->rmin || rain->rmax > RPL_RADIUS_MAX ||
        rain->wmax < rain->wmin)
        return rpl_err_set(&sim->err, RPL_EINVAL, "rain settings out of range");
    int n = rain->per_kilostep / 1000;
    if ((int)(rpl_rng_next(&sim->rng) % 1000u) < rain->per_kilostep % 1000)
        n++;
    for (int i = 0; i < n; i++) {
        int x = rpl_rng_range(&sim->rng, 1, sim->w - 2);
        int y = rpl_rng_range(&sim->rng, 1, sim->h - 2);
        int r = rpl_rng_range(&sim->rng, rain->rmin, rain->rmax);
        int wt = rpl_rng_range(&sim->rng, rain->wmin, rain->wmax);
        drop(sim, x, y, r, wt);
    }
    return RPL_OK;
}

rpl_status rpl_sim_rain(rpl_sim_t *sim, const rpl_rain_t *rain)
{
    return rain_of(sim, rain, rpl_sim_drop);
}

rpl_status rpl_sim_rain_bumps(rpl_sim_t *sim, const rpl_rain_t *rain)
{
    return rain_of(sim, rain, rpl_sim_bump);
}

uint32_t rpl_sim_random(rpl_sim_t *sim)
{
    if (!rpl_sim_usable(sim))
        return 0;
    return rpl_rng_next(&sim->rng);
}

uint64_t rpl_sim_energy(const rpl_sim_t *sim)
{
    if (!rpl_sim_usable(sim))
        return 0;
    uint64_t e = 0;
    size_t n = (size_t)sim->w * (size_t)sim->h;
    for (size_t i = 0; i < n; i++)
        e += (uint64_t)(sim->cur[i] < 0 ? -sim->cur[i] : sim->cur[i]);
    return e;
}

rpl_status rpl_check_buffer(rpl_sim_t *sim, const int16_t *b, int w, int h,
                            const char *what)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int v = b[(size_t)y * (size_t)w + (size_t)x];
            if (v < RPL_HEIGHT_MIN || v > RPL_HEIGHT_MAX)
                return rpl_err_set(&sim->err, RPL_EFORMAT,
                                "%s height %d at (%d, %d) is outside %d..%d",
                                what, v, x, y, RPL_HEIGHT_MIN, RPL_HEIGHT_MAX);
            if (v != 0 && (x == 0 || y == 0 || x == w - 1 || y == h - 1))
                return rpl_err_set(&sim->err, RPL_EFORMAT,
                                "%s border cell (%d, %d) is %d, must be 0",
                                what, x, y, v);
        }
    return RPL_OK;
}

rpl_status rpl_sim_set_state(rpl_sim_t *sim, const int16_t *cur, const int16_t *prev)
{
    if (!rpl_sim_usable(sim))
        return RPL_EINVAL;
    if (!cur || !prev)
        return rpl_err_set(&sim->err, RPL_EINVAL, "no %s buffer (NULL)", cur ? "previous" : "current");
    rpl_status st = rpl_check_buffer(sim, cur, sim->w, sim->h, "current");
    if (st == RPL_OK)
        st = rpl_check_buffer(sim, prev, sim->w, sim->h, "previous");
    if (st != RPL_OK)
        return RPL_EINVAL;
    /* Copy through a scratch buffer: the sources may be the field's own
     * buffers, even swapped. */
    size_t n = (size_t)sim->w * (size_t)sim->h;
    int16_t *tmp = malloc(2 * n * sizeof *tmp);
    if (!tmp)
        return rpl_err_set(&sim->err, RPL_ENOMEM, "out of memory");
    memcpy(tmp, cur, n * sizeof *tmp);
    memcpy(tmp + n, prev, n * sizeof *tmp);
    memcpy(sim->cur, tmp, n * sizeof *tmp);
    memcpy(sim->prev, tmp + n, n * sizeof *tmp);
    free(tmp);
    rpl_walls_apply(sim);
    rpl_sim_rescan(sim);
    return RPL_OK;
}

void rpl_sim_scale(rpl_sim_t *sim, int32_t num, int32_t den)
{
    if (!rpl_sim_usable(sim) || den <= 0 || num < 0 || num >= den) {
        if (rpl_sim_usable(sim) && num == 0) { /* nothing left */
            size_t n = (size_t)sim->w * (size_t)sim->h;
            memset(sim->cur, 0, n * sizeof *sim->cur);
            memset(sim->prev, 0, n * sizeof *sim->prev);
            rpl_sim_rescan(sim);
        }
        return;
    }
    size_t n = (size_t)sim->w * (size_t)sim->h;
    for (size_t i = 0; i < n; i++) {
        sim->cur[i] = (int16_t)((int64_t)sim->cur[i] * num / den);
        sim->prev[i] = (int16_t)((int64_t)sim->prev[i] * num / den);
    }
    rpl_sim_rescan(sim); /* tiles may have come to rest */
}

/* ---- the renderer's view (core/field/tiles.h) ------------------------------ */

int rpl_field_view(const rpl_sim_t *sim, rpl_field_view_t *v)
{
    if (!rpl_sim_usable(sim))
        return 0;
    *v = (rpl_field_view_t){ sim->w, sim->h, sim->tiles_x, sim->tiles_y, sim->cur, sim->act,
                             sim->sleeping, sim->kern, sim->pool,
                             sim->rows_mem + RPL_ROW_PAD };
    return 1;
}

rpl_err_t *rpl_field_err(rpl_sim_t *sim)
{
    return &sim->err;
}

void rpl_field_drew(rpl_sim_t *sim, unsigned tiles)
{
    sim->rendered = tiles;
}
