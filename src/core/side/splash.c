/* core/side/splash.c - splash droplets: thrown up by impacts, falling under gravity, rippling the water where they land. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/dmath.h"
#include "core/base/error.h"
#include "ripple/side.h"

/*
 * How an impact's speed s (world units per second) shapes a splash, with
 * f = min(s / SPEED_FULL, 1):
 *   droplets   3 + 37 f, so 3 for a touch and 40 from SPEED_FULL up;
 *   speed      (SPEED_BASE + SPEED_GAIN * min(s, SPEED_TOP)) times a
 *              random 0.6..1, in a cone CONE radians either side of up;
 *   life       (0.4 + 0.8 f) seconds times a random 0.85..1;
 *   size       a radius of 1..3 units;
 *   place      x spread by up to 1 + 4 f either side.
 * A droplet falling into water disturbs it by RIPPLE * force_max * (size
 * / 3) * min(1, speed / speed_max) (the body's own impact scale, so a
 * droplet's ripple is a small fraction of a body's), downwards.
 */
#define SPEED_FULL 1000.0
#define SPEED_BASE 40.0
#define SPEED_GAIN 0.5
#define SPEED_TOP 2000.0
#define CONE RPL_D(0.6)
#define LIFE_MIN RPL_D(0.4)
#define LIFE_GAIN RPL_D(0.8)
#define RIPPLE RPL_D(0.05)
#define COUNT_MIN 3
#define COUNT_MAX 40
#define COORD_MAX 1e9

struct rpl_splash {
    int capacity, count;
    uint64_t rng;      /* xorshift64* state, never 0 */
    rpl_droplet_t *d;  /* count droplets, oldest first; NULL in a failed handle */
    rpl_err_t err;
};

/* A splash that can be used: created whole (a failed handle only reports
 * its error and is destroyed). */
static int usable(const rpl_splash_t *s)
{
    return s && s->d;
}

static uint64_t rng_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1Dull;
}

/* Uniform in [0, 1). */
static double rng_unit(uint64_t *s)
{
    return (double)(rng_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

rpl_status rpl_splash_create(int capacity, uint64_t seed, rpl_splash_t **out)
{
    if (!out)
        return RPL_EINVAL;
    rpl_splash_t *s = *out = calloc(1, sizeof *s);
    if (!s)
        return RPL_ENOMEM;
    if (capacity < 1 || capacity > RPL_SPLASH_MAX)
        return rpl_err_set(&s->err, RPL_EINVAL, "capacity %d: must be in 1..%d", capacity,
                           RPL_SPLASH_MAX);
    rpl_droplet_t *d = calloc((size_t)capacity, sizeof *d);
    if (!d)
        return rpl_err_set(&s->err, RPL_ENOMEM, "out of memory for %d droplets", capacity);
    s->capacity = capacity;
    s->d = d;
    /* splitmix64 of the seed: nearby seeds give unrelated streams, and
     * the state is never the fixed point 0 */
    uint64_t z = seed + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    s->rng = z ? z : 0x2545F4914F6CDD1Dull;
    return RPL_OK;
}

const char *rpl_splash_error(const rpl_splash_t *s)
{
    return s ? rpl_err_text(&s->err) : "no splash (NULL)";
}

void rpl_splash_destroy(rpl_splash_t *s)
{
    if (!s)
        return;
    free(s->d);
    free(s);
}

int rpl_splash_emit(rpl_splash_t *s, double x, double y, double speed)
{
    if (!usable(s) || !isfinite(x) || !isfinite(y) || fabs(x) > COORD_MAX || fabs(y) > COORD_MAX ||
        !isfinite(speed) || speed < 0)
        return -1;
    double f = speed / SPEED_FULL;
    if (f > 1)
        f = 1;
    int n = COUNT_MIN + (int)lround((COUNT_MAX - COUNT_MIN) * f);
    if (n > s->capacity)
        n = s->capacity;
    if (s->count + n > s->capacity) {
        /* the oldest make room: they are at the front */
        int drop = s->count + n - s->capacity;
        memmove(s->d, s->d + drop, (size_t)(s->count - drop) * sizeof *s->d);
        s->count -= drop;
    }
    double base = SPEED_BASE + SPEED_GAIN * fmin(speed, SPEED_TOP);
    double life = LIFE_MIN + LIFE_GAIN * f, spread = 1 + 4 * f;
    for (int i = 0; i < n; i++) {
        double a = (2 * rng_unit(&s->rng) - 1) * CONE;
        double v = base * (RPL_D(0.6) + RPL_D(0.4) * rng_unit(&s->rng));
        rpl_droplet_t *d = &s->d[s->count++];
        d->x = (float)(x + (2 * rng_unit(&s->rng) - 1) * spread);
        d->y = (float)y;
        d->vx = (float)(v * rpl_sin(a));
        d->vy = (float)(-v * rpl_cos(a)); /* up is -y */
        d->age = 0;
        d->life = (float)(life * (RPL_D(0.85) + RPL_D(0.15) * rng_unit(&s->rng)));
        d->size = (float)(1 + 2 * rng_unit(&s->rng));
    }
    return n;
}

/* The body of water a droplet now at (x, y), falling, has entered (it was
 * above the floor at y0), or NULL. */
static rpl_water_t *landed_in(rpl_water_t *const *waters, int n, double x, double y, double y0)
{
    for (int i = 0; i < n; i++) {
        const rpl_water_params_t *p = rpl_water_params(waters[i]);
        if (!p || x < p->x0 || x > p->x1 || y0 > p->bottom)
            continue;
        if (y >= rpl_water_height(waters[i], x))
            return waters[i];
    }
    return NULL;
}

int rpl_splash_step(rpl_splash_t *s, double dt, double g, rpl_water_t *const *waters, int n)
{
    if (!usable(s) || !isfinite(dt) || dt < 0 || !isfinite(g) || fabs(g) > COORD_MAX || n < 0 ||
        (n > 0 && !waters))
        return -1;
    int landings = 0, kept = 0;
    for (int i = 0; i < s->count; i++) {
        rpl_droplet_t d = s->d[i];
        double y0 = d.y;
        double vx = d.vx, vy = d.vy + g * dt; /* semi-implicit Euler */
        double x = d.x + vx * dt, y = d.y + vy * dt;
        double age = d.age + dt;
        if (vy > 0) {
            rpl_water_t *w = landed_in(waters, n, x, y, y0);
            if (w) {
                const rpl_water_params_t *p = rpl_water_params(w);
                double share = rpl_hypot(vx, vy) / p->speed_max;
                double dv = RIPPLE * p->force_max * (d.size / 3.0) * (share > 1 ? 1 : share);
                /* landed_in found x inside the body: a refusal cannot be */
                if (rpl_water_disturb(w, x, dv) == RPL_OK)
                    landings++;
                continue;
            }
        }
        if (!(age < d.life) || !isfinite(x) || !isfinite(y) || fabs(x) > COORD_MAX ||
            fabs(y) > COORD_MAX)
            continue; /* faded out, or flown off beyond any world */
        d.x = (float)x;
        d.y = (float)y;
        d.vx = (float)vx;
        d.vy = (float)vy;
        d.age = (float)age;
        s->d[kept++] = d;
    }
    s->count = kept;
    return landings;
}

int rpl_splash_count(const rpl_splash_t *s)
{
    return usable(s) ? s->count : 0;
}

const rpl_droplet_t *rpl_splash_droplets(const rpl_splash_t *s)
{
    return usable(s) ? s->d : NULL;
}

void rpl_splash_clear(rpl_splash_t *s)
{
    if (usable(s))
        s->count = 0;
}
