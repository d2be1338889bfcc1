/* core/side/water_grid.h - side-view water's internals shared by water.c, water_cache.c and buoyancy.c: the grid a waves surface is sampled on, and its cached heights. */
#ifndef RPL_CORE_WATER_GRID_H
#define RPL_CORE_WATER_GRID_H

#include <math.h>

#include "ripple/side.h"

/* A waves surface as the coupling sees it: samples k = 0..last at
 * x0 + k * dx, dx = (x1 - x0) / last, the last one exactly at x1, at most
 * RPL_WAVE_SPACING apart and at most RPL_WAVE_SAMPLES_MAX intervals across
 * (ripple.h, rpl_water_submerged). */
#define RPL_WAVE_SPACING 4.0
#define RPL_WAVE_SAMPLES_MAX 65536L

/* The number of intervals, last >= 1, for x0 < x1. */
static inline long rpl_wave_grid_last(double x0, double x1)
{
    double m = ceil((x1 - x0) / RPL_WAVE_SPACING);
    return m < 1 ? 1 : m > (double)RPL_WAVE_SAMPLES_MAX ? RPL_WAVE_SAMPLES_MAX : (long)m;
}

/* Sample k's x: one formula for both files, so that the cache holds the
 * surface at the very points the coupling asks for. */
static inline double rpl_wave_grid_x(double x0, double x1, long last, long k)
{
    double dx = (x1 - x0) / (double)last;
    return k >= last ? x1 : x0 + (double)k * dx;
}

/* rpl_water_height(w, rpl_wave_grid_x(x0, x1, last, k)) bit for bit, for a
 * waves body (any other body: that read itself), from a cache kept in w
 * and filled point by point as asked for, until the surface there changes
 * (a step, a disturbance whose ring reaches it, new parameters, a reset).  It
 * writes to w's cache, hence not for two threads at once on one body.
 * k is clamped into 0..last. */
double rpl_water_grid_height(rpl_water_t *w, long k);

#endif
