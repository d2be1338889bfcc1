/* core/field/tiles.h - the field's face to the renderer: its size, heights, tiles and workers
 * (the renderer sees these and never struct rpl_sim); not part of the API. */
#ifndef RPL_CORE_FIELD_TILES_H
#define RPL_CORE_FIELD_TILES_H

#include "ripple/field.h"
#include "core/base/error.h"
#include "kernels/kernels.h"

struct rpl_pool;

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

/* Below this many tiles of work, threads cost more than they save. */
#define RPL_POOL_MIN_TILES 128

/* What a renderer reads of a field, valid until the field next steps or
 * changes. */
typedef struct rpl_field_view {
    int w, h;                  /* cells */
    int tiles_x, tiles_y;      /* tiles across and down */
    const int16_t *cur;        /* the heights to show, w*h */
    const uint8_t *act;        /* per tile: its activity bits */
    int sleeping;              /* 1: tiles at rest are skipped (act is kept) */
    const rpl_kernels_t *kern; /* the field's kernel table */
    struct rpl_pool *pool;     /* its workers, NULL with one thread */
    const int32_t *rows;       /* where each row starts, clamped (rpl_refract_job_t) */
} rpl_field_view_t;

/* Fills *v from a usable field and returns 1; 0 for NULL or a failed one. */
int rpl_field_view(const rpl_sim_t *sim, rpl_field_view_t *v);
/* The field's error slot, where a one-off render tells why it failed. */
rpl_err_t *rpl_field_err(rpl_sim_t *sim);
/* Tells the field how many tiles the last render drew (rpl_sim_stats). */
void rpl_field_drew(rpl_sim_t *sim, unsigned tiles);

/* A neighbour's current cells reach into tile t (whose bits are at a):
 * the edge facing it. */
static inline int rpl_edges_touch(int tiles_x, int tiles_y, const uint8_t *a, int tx, int ty)
{
    return (tx > 0 && (a[-1] & RPL_EDGE_R)) ||
           (tx + 1 < tiles_x && (a[1] & RPL_EDGE_L)) ||
           (ty > 0 && (a[-tiles_x] & RPL_EDGE_B)) ||
           (ty + 1 < tiles_y && (a[tiles_x] & RPL_EDGE_T));
}

#endif
