/* core/show/show_shape.c - the shapes of a show's commands in cells: a trail's
 * path and the stones a command lays, for the reader's budget and the player. */
#include <math.h>

#include "core/show/show.h"

void rpl_show_trail_path(const rpl_show_t *s, const ev_t *e, int w, int h, path_t *pa)
{
    pa->n = e->n;
    for (size_t i = 0; i < e->n; i++) {
        pa->x[i] = pos(s->pts[e->first + 2 * i], w);
        pa->y[i] = pos(s->pts[e->first + 2 * i + 1], h);
        pa->at[i] = i ? pa->at[i - 1] + hypot(pa->x[i] - pa->x[i - 1], pa->y[i] - pa->y[i - 1])
                      : 0;
    }
    double spacing = len_wh(e->c[1], w, h), total = pa->at[e->n - 1];
    if (spacing < 1)
        spacing = 1;
    double segs = ceil(total / spacing - 1e-9);
    pa->segs = segs < 0 ? 0 : segs > RPL_SHOW_STONES_MAX - 1 ? RPL_SHOW_STONES_MAX - 1 : (int)segs;
}

/* Stones the command lays in one repetition, on this field. */
size_t rpl_show_stone_count(const ev_t *e, const path_t *pa)
{
    switch (e->cmd) {
    case C_RING:
        return (size_t)e->count;
    case C_TRAIL:
        return (size_t)pa->segs + 1;
    case C_TEXT:
        return e->n;
    default:
        return 1;
    }
}
