/* core/show/show.h - a show as read (core/show/show_read.c) and as the player
 * plays it (core/show/show_play.c): its commands, and the shapes both the
 * reader's work budget and the player compute from them; not part of the API. */
#ifndef RPL_CORE_SHOW_H
#define RPL_CORE_SHOW_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/error.h"
#include "ripple/show.h"

/* What a line asks for.  The first four lay stones over time ("actions"). */
enum {
    C_DROP, C_RING, C_TRAIL, C_TEXT,
    C_RAIN_ON, C_RAIN_OFF, C_RAIN_SET, C_LIGHT, C_STRENGTH, C_STONE, C_WEIGHTS,
    C_WALL_RECT, C_WALL_OPEN, C_WALL_LINE, C_WALL_CLEAR, C_EDGES, C_PICTURE, C_CUT,
    C_WAIT, C_LOOP, C_END, C_STONES, C_CALM, C_FADE, C_CARD
};

static inline int is_action(int cmd)
{
    return cmd <= C_TEXT;
}

/* A position or a length as written: a fraction of the field, or cells. */
typedef struct coord {
    double v;
    int px;
} coord_t;

/* One command at its step. */
typedef struct ev {
    uint64_t at;          /* step of the pass */
    int cmd;
    int line, col;        /* where it was written */
    uint64_t over;        /* lay the stones over this many steps (0, 1: at once) */
    uint64_t every;       /* repeat every this many steps (0: once) */
    uint64_t times;       /* repetitions (0 with every: until loop or end) */
    int count;            /* ring: stones; light, edges: the value; strength:
                             sixteenths; rain: per_kilostep */
    int w0, w1;           /* weight; rain: weights; fade: the colour, 0xRRGGBB */
    int wf[2];            /* weights: the factors in thousandths, on the
                             classic water and on the wave model */
    coord_t c[5];         /* positions and lengths, in the order written */
    coord_t radius;       /* text: radius of its stones */
    size_t first, n;      /* trail: its first coordinate in pts, and its points
                             (x, y pairs); text: its first dot and its dots
                             (column, row pairs in dots); picture: the
                             offset of its name in strs */
    int tw, th;           /* text: the block's size in dots */
    int quiet;            /* sound=off: its stones tell no drop hook */
} ev_t;

struct rpl_show {
    ev_t *ev;
    size_t n, cap;
    coord_t *pts;         /* trails' points, x and y */
    size_t npts, cap_pts;
    int16_t *dots;        /* texts' dots, column and row */
    size_t ndots, cap_dots;
    char *strs;           /* pictures' names, each ending in a NUL */
    size_t nstrs, cap_strs;
    size_t *pics;         /* the picture commands' places in ev, in order */
    size_t npics;
    uint64_t length;
    uint64_t work, work_step; /* the heaviest step's work (the budget) */
    int ending;           /* 0, C_END or C_LOOP */
    int ok;
    rpl_err_t err;
};

/* Positions and lengths in cells of the field. */
static inline double pos(coord_t c, int n)
{
    return c.px ? c.v : c.v * n;
}

static inline double len_wh(coord_t c, int w, int h)
{
    return c.px ? c.v : c.v * (w < h ? w : h);
}

static inline int cell(double v)
{
    return (int)lround(v < -1e9 ? -1e9 : v > 1e9 ? 1e9 : v);
}

static inline int radius(double v)
{
    int r = cell(v);
    return r < 1 ? 1 : r > RPL_RADIUS_MAX ? RPL_RADIUS_MAX : r;
}

/* A trail's polyline in cells, with the length along it at each point. */
typedef struct path {
    double x[RPL_SHOW_POINTS_MAX], y[RPL_SHOW_POINTS_MAX], at[RPL_SHOW_POINTS_MAX];
    size_t n;
    int segs; /* stone gaps along it: the stones are segs + 1 */
} path_t;

void rpl_show_trail_path(const rpl_show_t *s, const ev_t *e, int w, int h, path_t *pa);

/* Stones the command lays in one repetition, on this field. */
size_t rpl_show_stone_count(const ev_t *e, const path_t *pa);

#endif
