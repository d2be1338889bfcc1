/* core/field/field.h - the field's insides, shared by the field room's files
 * only (the renderer reads core/field/tiles.h); not part of the API. */
#ifndef RPL_CORE_FIELD_H
#define RPL_CORE_FIELD_H

#include "ripple/field.h"
#include "core/base/base.h"
#include "kernels/kernels.h"
#include "core/field/tiles.h"

struct rpl_pool;

/* The strongest damping of absorbing edges, at the border, in 1/256 of
 * a height per step (core/field/walls.c). */
#define RPL_ABSORB_K 96
/* Changes of the walls remembered one by one before they merge. */
#define RPL_WALLS_LOG 16

/* The field (opaque in ripple.h). */
struct rpl_sim {
    int w, h;
    int16_t *cur;
    int16_t *prev;
    uint64_t steps;            /* steps taken since create/reset */
    uint64_t rng;              /* state of the rain's random generator */
    const rpl_kernels_t *kern; /* kernel table used by step and render */
    rpl_err_t err;             /* detail of the last failure */

    /* threads and sleeping tiles */
    int threads;               /* threads used by step and render, >= 1 */
    struct rpl_pool *pool;     /* workers when threads > 1 */
    int sleeping;              /* 1: tiles at rest are skipped */
    int tiles_x, tiles_y;      /* tiles across and down */
    uint8_t *act, *act_next;   /* per tile: which buffers hold a nonzero */
    unsigned stepped;          /* tiles computed by the last step */
    unsigned rendered;         /* tiles drawn by the last render, by any renderer */
    int32_t *rows_mem;         /* the scalar refraction's row table (kernels.h), its
                                * row 0 at RPL_ROW_PAD */

    /* walls, edges and the drop hook (core/field/walls.c) */
    uint8_t *walls;            /* w*h, 1 = solid; NULL: no walls */
    uint16_t *wall_tiles;      /* per tile: its solid cells (with walls) */
    uint64_t walls_serial;     /* counts changes of the walls */
    /* where the walls changed, oldest first: entry i covers the changes
     * after entry i-1's serial (after 0 for the first) up to its own;
     * when full, the oldest two merge, so every change stays covered */
    struct { uint64_t serial; int x0, y0, x1, y1; } walls_log[RPL_WALLS_LOG];
    int walls_logged;
    /* the walls as runs of solid cells, made before a step after they
     * changed: row y's are wall_span[2*i], [2*i+1] (x0, x1) for i in
     * wall_row[y] .. wall_row[y+1]-1; NULL: not made (the mask is read) */
    uint32_t *wall_row;
    uint16_t *wall_span;
    int walls_dirty;           /* the runs are out of date */
    rpl_edges edges;           /* RPL_EDGES_REFLECT or RPL_EDGES_ABSORB */
    int band;                  /* absorbing: the band's width in cells */
    uint16_t absorb[RPL_ABSORB_BAND + 1]; /* absorbing: k(d) in 1/256, d = 1..band */
    rpl_drop_fn drop_fn;       /* told about every stone; NULL: none */
    void *drop_user;

    /* the model (core/field/wave.c) */
    rpl_model model;           /* RPL_MODEL_CLASSIC or RPL_MODEL_WAVE */
    int wave_set;              /* wave and coef hold parameters once set */
    rpl_wave_params_t wave;    /* the wave model's parameters, last set */
    rpl_wave_coef_t coef;      /* and what they come to */
};

/* A field that can be used: created whole (a failed handle only reports
 * its error and is destroyed). */
static inline int rpl_sim_usable(const rpl_sim_t *sim)
{
    return sim && sim->cur;
}

/* After the step of the cells x in [x0, x1), y in [y0, y1) (within one
 * tile row) from `cur` into `next`: damps the absorbing band and zeroes
 * the walls there.  Each cell's result depends on its own place and its
 * own heights (new and before the step) only.  Returns nonzero if a cell
 * of the band is nonzero after it (which the kernel may have made 0). */
int rpl_post_step(const rpl_sim_t *sim, int16_t *next, const int16_t *cur, int x0, int x1,
                  int y0, int y1);

/* Whether rpl_post_step has anything to do. */
static inline int rpl_post_needed(const rpl_sim_t *sim)
{
    return sim->walls != NULL || sim->edges == RPL_EDGES_ABSORB;
}

/* Zeroes the wall cells of both buffers (after they were replaced). */
void rpl_walls_apply(rpl_sim_t *sim);

/* Before a step: the runs of the walls, if they changed. */
void rpl_walls_prepare(rpl_sim_t *sim);
/* Frees the walls (core/field/field.c, destroying the field). */
void rpl_walls_free(rpl_sim_t *sim);

/* The edge bits of the tile (tx, ty) in buffer b. */
uint8_t rpl_tile_edges(const rpl_sim_t *sim, const int16_t *b, int tx, int ty);

/* Rebuilds the tiles' activity bits after the buffers changed wholesale. */
void rpl_sim_rescan(rpl_sim_t *sim);
/* Both buffers times num/den (0 <= num <= den), towards 0, in integers:
 * the same on every machine (a show's `calm`). */
void rpl_sim_scale(rpl_sim_t *sim, int32_t num, int32_t den);

/* Checks a w*h buffer against the height contract. */
rpl_status rpl_check_buffer(rpl_sim_t *sim, const int16_t *b, int w, int h,
                            const char *what);

#endif
