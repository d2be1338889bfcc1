/* core/side/water_rings.c - the side-view water's analytic rings: their sources, their terms (each source with what its wave needs, listed by the stretches of the basin it reaches), the surface they make, their ageing. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/dmath.h"
#include "core/side/water_grid.h"
#include "core/side/water_state.h"

/* A ring lives while its age in whole steps is below life / step, counted
 * in steps so that rounding of age = steps * step never decides it. */
uint64_t rpl_water_life_steps(const rpl_water_params_t *p)
{
    return (uint64_t)ceil(p->life / p->step - 1e-9);
}

/* Where a ring's waves come from: the ring itself, and with FREE or
 * REFLECT ends its images in the walls, to second order: mirrored in x0
 * (the wave once reflected off the left wall), in x1, and the images of
 * those in the other wall (reflected off both, left then right and right
 * then left).  An image's wave is the ring's own (same amplitude and
 * birth) from that place, so on the wall a ring and its image meet in
 * phase and the surface there has no slope: the upright bounce of a
 * mirrored spring chain.  Third and later reflections are left out (a
 * wave that has crossed the basin three times runs on through the wall);
 * ABSORB has no images, its waves leave. */
int rpl_water_ring_sources(const rpl_water_params_t *p, double xr, double *src)
{
    src[0] = xr;
    if (p->ends == RPL_ENDS_ABSORB)
        return 1;
    double left = 2 * p->x0 - xr, right = 2 * p->x1 - xr;
    src[1] = left;
    src[2] = right;
    src[3] = 2 * p->x1 - left;  /* off the left wall, then the right */
    src[4] = 2 * p->x0 - right; /* off the right wall, then the left */
    return RING_SOURCES_MAX;
}

/* ---- the rings' terms (water_state.h) ------------------------------------------ */

/* A term goes into the buckets its reach meets and one more on each side,
 * which covers any rounding smaller than a bucket in where its reach ends
 * and in which bucket a height's x falls.  The rounding is far smaller:
 * a bucket is at least an eighth of a wavelength and 1e-3 of |x0| + |x1|
 * wide, a reach at most c * life = f * life wavelengths <= 6e4 of them,
 * and the sources lie within a few |x0| + |x1|, so the sums and quotients
 * below are off by less than 1e-9 of a bucket.  A basin too narrow for
 * that has one bucket, which holds every term. */
static int bucket_count(const rpl_water_params_t *p)
{
    double span = p->x1 - p->x0;
    double nb = floor(span / (p->wavelength / 8));
    if (!(nb >= 2))
        return 1;
    if (nb > TERM_BUCKETS_MAX)
        nb = TERM_BUCKETS_MAX;
    if (!(span / nb >= 1e-3 * (fabs(p->x0) + fabs(p->x1))))
        return 1;
    return (int)nb;
}

/* The buckets term e goes into, in e->lo .. e->hi; 0 when none (its
 * wave cannot reach the basin). */
static int term_buckets(const terms_t *tm, const rpl_water_params_t *p, term_t *e)
{
    e->lo = e->hi = 0;
    if (tm->nb == 1)
        return 1;
    double lo = floor((e->src - e->reach - p->x0) / tm->bw) - 1;
    double hi = floor((e->src + e->reach - p->x0) / tm->bw) + 1;
    if (!(hi >= 0 && lo <= tm->nb - 1))
        return 0;
    e->lo = (uint8_t)(lo <= 0 ? 0 : lo);
    e->hi = (uint8_t)(hi >= tm->nb - 1 ? tm->nb - 1 : hi);
    return 1;
}

/* Source src of ring r as a term: what the sum works out for it (the
 * same expressions in both ways of summing, for the same bits). */
static term_t term_of(const rpl_water_t *w, int r, double src)
{
    const rpl_water_params_t *p = &w->p;
    const ring_t *g = &w->rings[r];
    double age = (double)(w->steps - g->born) * p->step;
    double fade = 1 - age / p->life;
    /* a wave has gone c * age from its source: further away it has not
     * arrived, and that costs a compare, not a sine */
    return (term_t){src, p->frequency * p->wavelength * age, age, fade, g->amp * fade * fade, r, 0, 0};
}

/* Ring r's terms after the others, counted into their buckets
 * (start[b + 1]); none when dead. */
static void ring_terms(rpl_water_t *w, terms_t *tm, int r, uint64_t lives)
{
    tm->first[r] = tm->n;
    tm->count[r] = 0;
    if (w->steps - w->rings[r].born >= lives)
        return;
    double src[RING_SOURCES_MAX];
    int ns = rpl_water_ring_sources(&w->p, w->rings[r].x, src);
    for (int i = 0; i < ns; i++) {
        term_t e = term_of(w, r, src[i]);
        if (!term_buckets(tm, &w->p, &e))
            continue; /* never reaches the basin */
        for (int j = e.lo; j <= e.hi; j++)
            tm->start[j + 1]++;
        tm->t[tm->n++] = e;
        tm->count[r]++;
    }
}

/* Every term again, and the buckets: counted, then filled in the terms'
 * order, so each bucket lists its terms in the sum's order. */
void rpl_water_terms_build(rpl_water_t *w)
{
    terms_t *tm = w->tm;
    if (!tm)
        return;
    const rpl_water_params_t *p = &w->p;
    tm->n = 0;
    tm->nb = bucket_count(p);
    tm->bw = (p->x1 - p->x0) / tm->nb;
    memset(tm->start, 0, sizeof tm->start);
    uint64_t lives = rpl_water_life_steps(p);
    for (int r = 0; r < w->nrings; r++)
        ring_terms(w, tm, r, lives);
    int fill[TERM_BUCKETS_MAX];
    for (int j = 0; j < tm->nb; j++)
        fill[j] = tm->start[j + 1] += tm->start[j];
    for (int k = tm->n - 1; k >= 0; k--) /* from the back: each bucket fills down to its start */
        for (int j = tm->t[k].lo; j <= tm->t[k].hi; j++)
            tm->in[--fill[j]] = (uint16_t)k;
}

/* Ring r's amplitude changed (a disturbance merged into it): its terms'
 * envelope again, the rest stays. */
void rpl_water_terms_amp(rpl_water_t *w, int r)
{
    terms_t *tm = w->tm;
    if (!tm)
        return;
    double amp = w->rings[r].amp;
    for (int k = tm->first[r]; k < tm->first[r] + tm->count[r]; k++) {
        term_t *e = &tm->t[k];
        e->env = amp * e->fade * e->fade;
    }
}

/* ---- the surface ------------------------------------------------------------- */

/* Term e's wave at x, if it has got there, added to the height, d/dt
 * (per second, when sdt) and d/dx (when sdx). */
static void term_add(const rpl_water_t *w, const term_t *e, double x, double *sh, double *sdt,
                     double *sdx)
{
    const rpl_water_params_t *p = &w->p;
    double omega = 2 * M_PI * p->frequency, c = p->frequency * p->wavelength;
    double dist = x - e->src, s = fabs(dist);
    if (s > e->reach)
        return;
    double phase = omega * (e->age - s / c);
    double sn = rpl_sin(phase), cs = rpl_cos(phase);
    *sh += e->env * sn;
    if (sdt)
        *sdt += w->rings[e->ring].amp * (-2 / p->life * e->fade * sn) + e->env * omega * cs;
    if (sdx)
        *sdx += e->env * cs * (-omega / c) * (dist < 0 ? -1 : dist > 0 ? 1 : 0);
}

/* Displacement, d/dt and d/dx at x of the rings alive, from the rings
 * themselves: every source of every ring, the sum as the header has it. */
static void rings_sum_all(const rpl_water_t *w, double x, double *h, double *dt, double *dx)
{
    double sh = 0, sdt = 0, sdx = 0;
    uint64_t lives = rpl_water_life_steps(&w->p);
    for (int r = 0; r < w->nrings; r++) {
        if (w->steps - w->rings[r].born >= lives)
            continue;
        double src[RING_SOURCES_MAX];
        int ns = rpl_water_ring_sources(&w->p, w->rings[r].x, src);
        for (int i = 0; i < ns; i++) {
            term_t e = term_of(w, r, src[i]);
            term_add(w, &e, x, &sh, dt ? &sdt : NULL, dx ? &sdx : NULL);
        }
    }
    *h = sh;
    if (dt)
        *dt = sdt;
    if (dx)
        *dx = sdx;
}

/* Displacement, d/dt (per second) and d/dx at x of the rings alive: the
 * same sum from the terms of x's bucket (water_state.h).  The terms left
 * out of it are ones the sum skips at x, as their wave has not got there
 * (|x - src| > reach by more than a bucket's width, against rounding below
 * 1e-9 of one: bucket_count), and the rest come in the sum's order through
 * the sum's own test and arithmetic: the same bits (tests/test_water.c
 * checks them against the full sum).  The height alone takes a sine, not
 * a sine and a cosine (the C library gives the same sine either way).  x
 * outside the basin, or no terms: rings_sum_all. */
void rpl_water_rings_eval(const rpl_water_t *w, double x, double *h, double *dt, double *dx)
{
    const rpl_water_params_t *p = &w->p;
    const terms_t *tm = w->tm;
    if (!tm || !(x >= p->x0 && x <= p->x1)) {
        rings_sum_all(w, x, h, dt, dx);
        return;
    }
    int b = 0;
    if (tm->nb > 1) {
        double u = floor((x - p->x0) / tm->bw);
        b = u <= 0 ? 0 : u >= tm->nb - 1 ? tm->nb - 1 : (int)u;
    }
    const uint16_t *in = tm->in + tm->start[b], *end = tm->in + tm->start[b + 1];
    double sh = 0, sdt = 0, sdx = 0;
    if (!dt && !dx) {
        double omega = 2 * M_PI * p->frequency, c = p->frequency * p->wavelength;
        for (; in < end; in++) {
            const term_t *e = &tm->t[*in];
            double s = fabs(x - e->src);
            if (s > e->reach)
                continue;
            sh += e->env * rpl_sin(omega * (e->age - s / c));
        }
    } else {
        for (; in < end; in++)
            term_add(w, &tm->t[*in], x, &sh, dt ? &sdt : NULL, dx ? &sdx : NULL);
    }
    *h = sh;
    if (dt)
        *dt = sdt;
    if (dx)
        *dx = sdx;
}

void rpl_water_rings_step(rpl_water_t *w)
{
    w->steps++;
    w->gen++; /* every ring is a step older */
    /* All rings live equally long, so the dead ones are the oldest. */
    int dead = 0;
    uint64_t lives = rpl_water_life_steps(&w->p);
    while (dead < w->nrings && w->steps - w->rings[dead].born >= lives)
        dead++;
    if (dead) {
        memmove(w->rings, w->rings + dead, (size_t)(w->nrings - dead) * sizeof *w->rings);
        w->nrings -= dead;
    }
    w->calm = w->nrings == 0 ? w->calm + 1 : 0;
    rpl_water_terms_build(w);
}
