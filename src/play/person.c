/* play/person.c - the scripted person: clicks, right clicks and drags at fixed steps, as a user plays the pool, for the look's bench and tests. */
#include "play/play.h"

/*
 * What a person does in the first PLAY_PERSON_STEPS steps of using the
 * pool, then again: places in thousandths of the field's width and
 * height, so it plays alike on every size.  A drag is pressed at its
 * start (a stone, as a press does in the window) and moved along a
 * quadratic curve from (x0, y0) bent towards (cx, cy) to (x1, y1), one
 * motion a step, as a mouse reports it: a few hundred pixels (at
 * 640x480) in half a second to a second and a half, 4 to 12 px a step.
 */
enum { CLICK, BIG, DRAG };

static const struct move {
    int at, kind;
    int x0, y0, cx, cy, x1, y1; /* thousandths; the curve's for DRAG */
    int steps;                  /* DRAG: steps from press to the last motion */
} moves[] = {
    { 30, CLICK, 300, 400, 0, 0, 0, 0, 0 },
    { 75, CLICK, 620, 520, 0, 0, 0, 0, 0 },
    { 110, CLICK, 450, 300, 0, 0, 0, 0, 0 },
    { 170, DRAG, 200, 650, 450, 700, 700, 600, 45 },
    { 260, BIG, 500, 450, 0, 0, 0, 0, 0 },
    { 330, CLICK, 250, 250, 0, 0, 0, 0, 0 },
    { 345, CLICK, 280, 262, 0, 0, 0, 0, 0 },
    { 360, CLICK, 312, 280, 0, 0, 0, 0, 0 },
    { 420, DRAG, 750, 200, 600, 500, 350, 750, 40 },
    { 520, CLICK, 700, 700, 0, 0, 0, 0, 0 },
    { 560, BIG, 300, 600, 0, 0, 0, 0, 0 },
    { 640, DRAG, 150, 300, 400, 50, 650, 300, 55 },
    { 760, CLICK, 500, 200, 0, 0, 0, 0, 0 },
    { 800, CLICK, 520, 780, 0, 0, 0, 0, 0 },
    { 850, DRAG, 100, 500, 500, 150, 900, 480, 70 },
    { 980, BIG, 800, 350, 0, 0, 0, 0, 0 },
    { 1050, CLICK, 480, 480, 0, 0, 0, 0, 0 },
    { 1058, CLICK, 540, 470, 0, 0, 0, 0, 0 },
    { 1066, CLICK, 560, 530, 0, 0, 0, 0, 0 },
    { 1074, CLICK, 500, 560, 0, 0, 0, 0, 0 },
    { 1082, CLICK, 450, 520, 0, 0, 0, 0, 0 },
    { 1150, DRAG, 200, 200, 500, 900, 800, 250, 90 },
    { 1300, CLICK, 650, 400, 0, 0, 0, 0, 0 },
    { 1340, BIG, 350, 350, 0, 0, 0, 0, 0 },
    { 1420, DRAG, 850, 750, 600, 600, 300, 800, 35 },
    { 1500, CLICK, 200, 450, 0, 0, 0, 0, 0 },
    { 1560, CLICK, 780, 500, 0, 0, 0, 0, 0 },
};
#define NMOVES (sizeof moves / sizeof moves[0])

/* Thousandths of a side of n cells, as a cell. */
static int at(int v, int n)
{
    return (int)((long)v * (n - 1) / 1000);
}

/* Step k of a drag's s steps along its curve, in cells (integers only:
 * the same places on every machine). */
static void drag_at(const struct move *m, int k, int w, int h, int *x, int *y)
{
    long s = m->steps, a = (s - k) * (s - k), b = 2L * k * (s - k), c = (long)k * k;
    *x = at((int)((a * m->x0 + b * m->cx + c * m->x1) / (s * s)), w);
    *y = at((int)((a * m->y0 + b * m->cy + c * m->y1) / (s * s)), h);
}

rpl_status play_person_tick(play_t *p, long step)
{
    const rpl_sim_t *sim = play_sim(p);
    if (!sim || step < 0)
        return RPL_EINVAL;
    int w = rpl_sim_width(sim), h = rpl_sim_height(sim);
    long t = step % PLAY_PERSON_STEPS;
    rpl_status st = RPL_OK;
    for (size_t i = 0; i < NMOVES && st == RPL_OK; i++) {
        const struct move *m = &moves[i];
        if (m->kind != DRAG) {
            if (t == m->at)
                st = play_stone(p, at(m->x0, w), at(m->y0, h), m->kind == BIG);
            continue;
        }
        long k = t - m->at;
        if (k < 0 || k > m->steps)
            continue;
        int x, y, px, py;
        drag_at(m, (int)k, w, h, &x, &y);
        if (k == 0) {
            st = play_stone(p, x, y, 0);
            continue;
        }
        drag_at(m, (int)k - 1, w, h, &px, &py);
        st = play_trail(p, px, py, x, y);
    }
    return st;
}
