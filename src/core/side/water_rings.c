/* core/side/water_rings.c - the side-view water's analytic rings: their sources, the surface they make, their ageing. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* Displacement, d/dt (per second) and d/dx at x of the rings alive, from
 * the rings themselves: the sum as the header describes it. */
static void rings_sum_all(const rpl_water_t *w, double x, double *h, double *dt, double *dx)
{
    const rpl_water_params_t *p = &w->p;
    double omega = 2 * M_PI * p->frequency, c = p->frequency * p->wavelength;
    double sh = 0, sdt = 0, sdx = 0;
    uint64_t lives = rpl_water_life_steps(p);
    for (int r = 0; r < w->nrings; r++) {
        const ring_t *g = &w->rings[r];
        if (w->steps - g->born >= lives)
            continue;
        double age = (double)(w->steps - g->born) * p->step;
        /* a wave has gone c * age from its source: further away it has not
         * arrived, and that costs a compare, not a sine */
        double reach = c * age, src[RING_SOURCES_MAX];
        int ns = rpl_water_ring_sources(p, g->x, src);
        for (int i = 0; i < ns; i++) {
            double dist = x - src[i], s = fabs(dist);
            if (s > reach)
                continue;
            double fade = 1 - age / p->life, env = g->amp * fade * fade;
            double phase = omega * (age - s / c);
            double sn = sin(phase), cs = cos(phase);
            sh += env * sn;
            if (dt)
                sdt += g->amp * (-2 / p->life * fade * sn) + env * omega * cs;
            if (dx)
                sdx += env * cs * (-omega / c) * (dist < 0 ? -1 : dist > 0 ? 1 : 0);
        }
    }
    *h = sh;
    if (dt)
        *dt = sdt;
    if (dx)
        *dx = sdx;
}

/* The same sum from the terms of x's bucket (water_state.h): the terms
 * left out of it are ones the sum skips at x, as their wave has not got
 * there (|x - src| > reach by more than a bucket's width, against
 * rounding below 1e-9 of one: water_cache.c), and the rest come in the
 * sum's order through the sum's own test and arithmetic: the same bits
 * (tests/test_water.c checks them against the full sum).  The height
 * alone takes a sine, not a sine and a cosine (the C library gives the
 * same sine either way).  x outside the basin, or no terms: rings_sum_all. */
void rpl_water_rings_eval(const rpl_water_t *w, double x, double *h, double *dt, double *dx)
{
    const rpl_water_params_t *p = &w->p;
    const terms_t *tm = w->tm;
    if (!tm || !(x >= p->x0 && x <= p->x1)) {
        rings_sum_all(w, x, h, dt, dx);
        return;
    }
    double omega = 2 * M_PI * p->frequency, c = p->frequency * p->wavelength;
    int b = 0;
    if (tm->nb > 1) {
        double u = floor((x - p->x0) / tm->bw);
        b = u <= 0 ? 0 : u >= tm->nb - 1 ? tm->nb - 1 : (int)u;
    }
    const uint16_t *in = tm->in + tm->start[b], *end = tm->in + tm->start[b + 1];
    double sh = 0;
    if (!dt && !dx) {
        for (; in < end; in++) {
            const term_t *e = &tm->t[*in];
            double s = fabs(x - e->src);
            if (s > e->reach)
                continue;
            sh += e->env * sin(omega * (e->age - s / c));
        }
        *h = sh;
        return;
    }
    double sdt = 0, sdx = 0;
    for (; in < end; in++) {
        const term_t *e = &tm->t[*in];
        double dist = x - e->src, s = fabs(dist);
        if (s > e->reach)
            continue;
        double phase = omega * (e->age - s / c);
        double sn = sin(phase), cs = cos(phase);
        sh += e->env * sn;
        if (dt)
            sdt += w->rings[e->ring].amp * (-2 / p->life * e->fade * sn) + e->env * omega * cs;
        if (dx)
            sdx += e->env * cs * (-omega / c) * (dist < 0 ? -1 : dist > 0 ? 1 : 0);
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
