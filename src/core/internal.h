/* core/internal.h - helpers shared by the core's files, not part of the API. */
#ifndef RPL_INTERNAL_H
#define RPL_INTERNAL_H

#include "ripple.h"

/* Stores a detail message in sim->err and returns st. */
rpl_status rpl_fail(rpl_sim_t *sim, rpl_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

uint64_t rpl_seed_mix(uint64_t seed);
uint32_t rpl_rng_next(uint64_t *state);
/* Uniform-ish integer in [lo, hi]. */
int rpl_rng_range(uint64_t *state, int lo, int hi);

/* Activity bits of a tile: a nonzero cell in the current / previous
 * buffer, and in each of its edges (left and right column, top and bottom
 * row) of the current buffer, which is all a neighbour tile's rule reads. */
#define RPL_ACT_CUR 1
#define RPL_ACT_PREV 2
#define RPL_EDGE_L 4
#define RPL_EDGE_R 8
#define RPL_EDGE_T 16
#define RPL_EDGE_B 32
#define RPL_EDGES (RPL_EDGE_L | RPL_EDGE_R | RPL_EDGE_T | RPL_EDGE_B)

/* A neighbour's current cells reach into tile t: the edge facing it. */
static inline int rpl_edges_touch(const rpl_sim_t *sim, const uint8_t *a, int tx, int ty)
{
    return (tx > 0 && (a[-1] & RPL_EDGE_R)) ||
           (tx + 1 < sim->tiles_x && (a[1] & RPL_EDGE_L)) ||
           (ty > 0 && (a[-sim->tiles_x] & RPL_EDGE_B)) ||
           (ty + 1 < sim->tiles_y && (a[sim->tiles_x] & RPL_EDGE_T));
}

/* The edge bits of the tile (tx, ty) in buffer b. */
uint8_t rpl_tile_edges(const rpl_sim_t *sim, const int16_t *b, int tx, int ty);

/* Below this many tiles of work, threads cost more than they save. */
#define RPL_POOL_MIN_TILES 128

/* Rebuilds the tiles' activity bits after the buffers changed wholesale. */
void rpl_sim_rescan(rpl_sim_t *sim);

/* Checks a w*h buffer against the height contract. */
rpl_status rpl_check_buffer(rpl_sim_t *sim, const int16_t *b, int w, int h,
                            const char *what);

#endif
