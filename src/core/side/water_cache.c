/* core/side/water_cache.c - the cache of a waves surface's heights at the coupling's grid: made, attached, and marked stale where a ring reaches. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/side/water_grid.h"
#include "core/side/water_state.h"

/* The grid cache's intervals for parameters p: 0 for springs (no cache). */
long rpl_water_grid_last(const rpl_water_params_t *p)
{
    return p->kind == RPL_SURFACE_WAVES ? rpl_wave_grid_last(p->x0, p->x1) : 0;
}

/* One block for last + 1 heights, last + 1 stamps (0: stale) and the
 * rings' terms; NULL when out of memory. */
double *rpl_water_grid_alloc(long last)
{
    return calloc(1, ((size_t)last + 1) * (sizeof(double) + sizeof(uint64_t)) + sizeof(terms_t));
}

void rpl_water_grid_attach(rpl_water_t *w, double *block, long last)
{
    w->glast = last;
    w->gh = block;
    w->gstamp = block ? (uint64_t *)(block + last + 1) : NULL;
    w->tm = block ? (terms_t *)(w->gstamp + last + 1) : NULL;
}

/* A disturbance changes one ring only (made stronger, started, or
 * dropped to make room), and where none of its sources reaches, rings_eval
 * skips it before and after: only the samples it reaches go stale, a few
 * for a young ring, so the cache outlives the many small rings bodies and
 * droplets start while the forces on the others are read.  The index range
 * is widened by a sample and more than the rounding of x0 + k * dx. */
void rpl_water_grid_stale_ring(rpl_water_t *w, const ring_t *g)
{
    if (!w->gh)
        return;
    const rpl_water_params_t *p = &w->p;
    double reach = p->frequency * p->wavelength * ((double)(w->steps - g->born) * p->step);
    double span = p->x1 - p->x0, dx = span / (double)w->glast;
    double slack = dx + 1e-12 * (fabs(p->x0) + fabs(p->x1));
    double src[RING_SOURCES_MAX];
    int ns = rpl_water_ring_sources(p, g->x, src);
    for (int i = 0; i < ns; i++) {
        double lo = (src[i] - reach - slack - p->x0) / dx, hi = (src[i] + reach + slack - p->x0) / dx;
        if (!(hi >= 0 && lo <= (double)w->glast))
            continue; /* off the grid, or not a number: see below */
        long a = lo <= 0 ? 0 : (long)floor(lo), b = hi >= (double)w->glast ? w->glast : (long)ceil(hi);
        for (long k = a; k <= b; k++)
            w->gstamp[k] = 0;
    }
    if (!isfinite(reach) || !isfinite(g->amp))
        w->gen++; /* never expected; the whole cache then, to be safe */
}

/* ---- the rings' terms (water_state.h) ------------------------------------- */

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

/* The buckets term e goes into, *a .. *b; 0 when none (its wave cannot
 * reach the basin). */
static int term_buckets(const terms_t *tm, const rpl_water_params_t *p, const term_t *e, int *a,
                        int *b)
{
    if (tm->nb == 1) {
        *a = *b = 0;
        return 1;
    }
    double lo = floor((e->src - e->reach - p->x0) / tm->bw) - 1;
    double hi = floor((e->src + e->reach - p->x0) / tm->bw) + 1;
    if (!(hi >= 0 && lo <= tm->nb - 1))
        return 0;
    *a = lo <= 0 ? 0 : (int)lo;
    *b = hi >= tm->nb - 1 ? tm->nb - 1 : (int)hi;
    return 1;
}

/* Ring r's terms after the others, worked out as rpl_water_rings_eval's
 * sum does (the same expressions, for the same bits); none when dead. */
static void ring_terms(rpl_water_t *w, terms_t *tm, int r, uint64_t lives)
{
    const rpl_water_params_t *p = &w->p;
    const ring_t *g = &w->rings[r];
    tm->first[r] = tm->n;
    tm->count[r] = 0;
    if (w->steps - g->born >= lives)
        return;
    double c = p->frequency * p->wavelength;
    double age = (double)(w->steps - g->born) * p->step;
    double reach = c * age, src[RING_SOURCES_MAX];
    double fade = 1 - age / p->life, env = g->amp * fade * fade;
    int ns = rpl_water_ring_sources(p, g->x, src);
    for (int i = 0; i < ns; i++) {
        term_t e = {src[i], reach, age, fade, env, r};
        int a, b;
        if (!term_buckets(tm, p, &e, &a, &b))
            continue; /* never reaches the basin */
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
    uint64_t lives = rpl_water_life_steps(p);
    for (int r = 0; r < w->nrings; r++)
        ring_terms(w, tm, r, lives);
    int *start = tm->start;
    memset(start, 0, sizeof tm->start);
    for (int k = 0; k < tm->n; k++) {
        int a, b;
        term_buckets(tm, p, &tm->t[k], &a, &b);
        for (int j = a; j <= b; j++)
            start[j + 1]++;
    }
    for (int j = 0; j < tm->nb; j++)
        start[j + 1] += start[j];
    int fill[TERM_BUCKETS_MAX];
    memcpy(fill, start, sizeof fill);
    for (int k = 0; k < tm->n; k++) {
        int a, b;
        term_buckets(tm, p, &tm->t[k], &a, &b);
        for (int j = a; j <= b; j++)
            tm->in[fill[j]++] = (uint16_t)k;
    }
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
