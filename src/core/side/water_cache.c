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
    if (w->tm)
        rpl_sintab_init(&w->tm->sintab);
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
    double slack = dx + RPL_D(1e-12) * (fabs(p->x0) + fabs(p->x1));
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
