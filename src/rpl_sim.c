/* rpl_sim.c - the height field: creation, stepping, stones, trails and rain. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rpl_kernels.h"
#include "rpl_internal.h"

const char *rpl_strerror(rpl_status status)
{
    switch (status) {
    case RPL_OK: return "success";
    case RPL_EINVAL: return "invalid argument";
    case RPL_ENOMEM: return "out of memory";
    case RPL_EIO: return "input/output error";
    case RPL_EFORMAT: return "not a valid ripple snapshot";
    case RPL_ESIZE: return "snapshot size does not match the field";
    case RPL_ENOTSUP: return "not supported on this machine";
    }
    return "unknown error";
}

rpl_status rpl_fail(rpl_sim_t *sim, rpl_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sim->err, sizeof sim->err, fmt, ap);
    va_end(ap);
    return st;
}

/* Seeds are mixed (splitmix64) so that nearby seeds give unrelated
 * sequences and seed 0 is as good as any other. */
uint64_t rpl_seed_mix(uint64_t seed)
{
    uint64_t z = seed + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return z ? z : 0x2545F4914F6CDD1Dull;
}

uint32_t rpl_rng_next(uint64_t *s)
{
    /* xorshift64* */
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return (uint32_t)((x * 0x2545F4914F6CDD1Dull) >> 32);
}

int rpl_rng_range(uint64_t *s, int lo, int hi)
{
    if (hi <= lo)
        return lo;
    uint64_t span = (uint64_t)((int64_t)hi - lo) + 1; /* up to 2^32 */
    return (int)((int64_t)lo + (int64_t)(rpl_rng_next(s) % span));
}

rpl_sim_t *rpl_sim_create(int w, int h, uint64_t seed, rpl_status *status)
{
    rpl_status st = RPL_OK;
    rpl_sim_t *sim = NULL;
    if (w < RPL_DIM_MIN || h < RPL_DIM_MIN || w > RPL_DIM_MAX || h > RPL_DIM_MAX) {
        st = RPL_EINVAL;
        goto out;
    }
    sim = calloc(1, sizeof *sim);
    if (sim) {
        size_t n = (size_t)w * (size_t)h;
        sim->cur = calloc(n, sizeof *sim->cur);
        sim->prev = calloc(n, sizeof *sim->prev);
    }
    if (!sim || !sim->cur || !sim->prev) {
        rpl_sim_destroy(sim);
        sim = NULL;
        st = RPL_ENOMEM;
        goto out;
    }
    sim->w = w;
    sim->h = h;
    st = rpl_kernels_find(NULL, &sim->kern);
    if (st != RPL_OK) {
        rpl_sim_destroy(sim);
        sim = NULL;
        goto out;
    }
    sim->rng = rpl_seed_mix(seed);
out:
    if (status)
        *status = st;
    return sim;
}

void rpl_sim_destroy(rpl_sim_t *sim)
{
    if (!sim)
        return;
    free(sim->cur);
    free(sim->prev);
    free(sim);
}

const char *rpl_sim_error(const rpl_sim_t *sim)
{
    return sim ? sim->err : "no field";
}

rpl_status rpl_sim_set_kernels(rpl_sim_t *sim, const rpl_kernels_t *k)
{
    if (!sim || !k)
        return RPL_EINVAL;
    sim->kern = k;
    return RPL_OK;
}

void rpl_sim_reset(rpl_sim_t *sim, uint64_t seed)
{
    size_t n = (size_t)sim->w * (size_t)sim->h;
    memset(sim->cur, 0, n * sizeof *sim->cur);
    memset(sim->prev, 0, n * sizeof *sim->prev);
    sim->steps = 0;
    sim->rng = rpl_seed_mix(seed);
    sim->err[0] = '\0';
}

void rpl_sim_step(rpl_sim_t *sim)
{
    sim->kern->step(sim->prev, sim->cur, sim->w, 1, sim->w - 1, 1, sim->h - 1);
    int16_t *t = sim->cur;
    sim->cur = sim->prev;
    sim->prev = t;
    sim->steps++;
}

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Stamps the circle with no argument checks (callers checked them). */
static void stamp(rpl_sim_t *sim, int x, int y, int r, int16_t v)
{
    /* Clip the bounding box to the interior before the loop, so a drop
     * that overlaps an edge keeps its inner part. Offsets stay small. */
    int x0 = clampi(x - r + 1, 1, sim->w - 2), x1 = clampi(x + r - 1, 1, sim->w - 2);
    int y0 = clampi(y - r + 1, 1, sim->h - 2), y1 = clampi(y + r - 1, 1, sim->h - 2);
    if (x - r + 1 > sim->w - 2 || x + r - 1 < 1 || y - r + 1 > sim->h - 2 || y + r - 1 < 1)
        return;
    int r2 = r * r;
    for (int cy = y0; cy <= y1; cy++) {
        int dy = cy - y;
        int16_t *row = sim->cur + (ptrdiff_t)cy * sim->w;
        for (int cx = x0; cx <= x1; cx++) {
            int dx = cx - x;
            if (dx * dx + dy * dy < r2)
                row[cx] = v;
        }
    }
}

static rpl_status check_stone(rpl_sim_t *sim, int radius, int weight, int16_t *v)
{
    if (radius < 1 || radius > RPL_RADIUS_MAX)
        return rpl_fail(sim, RPL_EINVAL, "stone radius %d is outside 1..%d",
                        radius, RPL_RADIUS_MAX);
    /* -weight, clamped, without overflowing on INT_MIN */
    long nv = -(long)weight;
    *v = (int16_t)(nv < RPL_HEIGHT_MIN ? RPL_HEIGHT_MIN : nv > RPL_HEIGHT_MAX ? RPL_HEIGHT_MAX : nv);
    return RPL_OK;
}

/* Centres far off the field are pulled in to where they cannot matter
 * any more, so the squared distances below never overflow. */
static int pull_in(int v, int r, int n)
{
    return clampi(v, -r - 1, n + r);
}

rpl_status rpl_sim_drop(rpl_sim_t *sim, int x, int y, int radius, int weight)
{
    int16_t v = 0;
    if (!sim)
        return RPL_EINVAL;
    rpl_status st = check_stone(sim, radius, weight, &v);
    if (st != RPL_OK)
        return st;
    stamp(sim, pull_in(x, radius, sim->w), pull_in(y, radius, sim->h), radius, v);
    return RPL_OK;
}

/* Liang-Barsky: narrows [*t0, *t1] to where p + t*d stays within
 * [lo, hi] on one axis.  Returns 0 if nothing is left. */
static int clip_axis(double p, double d, double lo, double hi, double *t0, double *t1)
{
    if (d == 0)
        return p >= lo && p <= hi;
    double a = (lo - p) / d, b = (hi - p) / d;
    if (a > b) {
        double t = a;
        a = b;
        b = t;
    }
    if (a > *t0)
        *t0 = a;
    if (b < *t1)
        *t1 = b;
    return *t0 <= *t1;
}

rpl_status rpl_sim_trail(rpl_sim_t *sim, int x0, int y0, int x1, int y1,
                         int radius, int weight)
{
    int16_t v = 0;
    if (!sim)
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
        if (!clip_axis(x0, dx, (double)lo, (double)hix, &t0, &t1) ||
            !clip_axis(y0, dy, (double)lo, (double)hiy, &t0, &t1))
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
        stamp(sim, px, py, radius, v);
    }
    return RPL_OK;
}

rpl_status rpl_sim_rain(rpl_sim_t *sim, const rpl_rain_t *rain)
{
    if (!sim || !rain)
        return RPL_EINVAL;
    if (rain->per_kilostep < 0 || rain->per_kilostep > 1000000 ||
        rain->rmin < 1 || rain->rmax < rain->rmin || rain->rmax > RPL_RADIUS_MAX ||
        rain->wmax < rain->wmin)
        return rpl_fail(sim, RPL_EINVAL, "rain settings out of range");
    int n = rain->per_kilostep / 1000;
    if ((int)(rpl_rng_next(&sim->rng) % 1000u) < rain->per_kilostep % 1000)
        n++;
    for (int i = 0; i < n; i++) {
        int x = rpl_rng_range(&sim->rng, 1, sim->w - 2);
        int y = rpl_rng_range(&sim->rng, 1, sim->h - 2);
        int r = rpl_rng_range(&sim->rng, rain->rmin, rain->rmax);
        int wt = rpl_rng_range(&sim->rng, rain->wmin, rain->wmax);
        rpl_sim_drop(sim, x, y, r, wt);
    }
    return RPL_OK;
}

uint32_t rpl_sim_random(rpl_sim_t *sim)
{
    return rpl_rng_next(&sim->rng);
}

uint64_t rpl_sim_energy(const rpl_sim_t *sim)
{
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
                return rpl_fail(sim, RPL_EFORMAT,
                                "%s height %d at (%d, %d) is outside %d..%d",
                                what, v, x, y, RPL_HEIGHT_MIN, RPL_HEIGHT_MAX);
            if (v != 0 && (x == 0 || y == 0 || x == w - 1 || y == h - 1))
                return rpl_fail(sim, RPL_EFORMAT,
                                "%s border cell (%d, %d) is %d, must be 0",
                                what, x, y, v);
        }
    return RPL_OK;
}

rpl_status rpl_sim_set_state(rpl_sim_t *sim, const int16_t *cur, const int16_t *prev)
{
    if (!sim || !cur || !prev)
        return RPL_EINVAL;
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
        return rpl_fail(sim, RPL_ENOMEM, "out of memory");
    memcpy(tmp, cur, n * sizeof *tmp);
    memcpy(tmp + n, prev, n * sizeof *tmp);
    memcpy(sim->cur, tmp, n * sizeof *tmp);
    memcpy(sim->prev, tmp + n, n * sizeof *tmp);
    free(tmp);
    return RPL_OK;
}

rpl_status rpl_refract(const rpl_sim_t *sim, const uint32_t *bg, void *fb,
                       ptrdiff_t pitch, rpl_format format, const rpl_view_t *view)
{
    if (!sim || !bg || !fb || !view || format != RPL_XRGB8888 ||
        view->strength < 0 || view->strength > RPL_STRENGTH_MAX ||
        pitch < (ptrdiff_t)sim->w * 4 || pitch % 4 != 0)
        return RPL_EINVAL;
    rpl_refract_job_t job = {
        sim->cur, bg, fb, pitch, sim->w, sim->h, view->strength, view->shading ? 1 : 0,
    };
    sim->kern->refract_xrgb8888(&job, 0, sim->w, 0, sim->h);
    return RPL_OK;
}
