/* core/show/autopilot.c - scripted drops and trails that draw shapes on the water, demoscene style. */
#include <math.h>
#include <stdlib.h>

#include "core/base/base.h"
#include "ripple/show.h"

/* The autopilot (opaque in ripple/show.h). */
struct rpl_autopilot {
    uint64_t rng;
    uint32_t t;       /* steps into the current scene */
    int scene;        /* index of the current scene */
    int len;          /* length of the current scene in steps */
    int cx, cy;       /* scene centre */
    int size;         /* scene size in cells */
    int lastx, lasty; /* previous pen position, for trails */
    int pen;          /* 1 if lastx/lasty are valid */
    rpl_stones stones;
    rpl_err_t err;
};

#define TAU 6.283185307179586

enum { SCENE_RING, SCENE_SPIRAL, SCENE_LISSAJOUS, SCENE_STAR, SCENE_TWINS, SCENE_BURST, SCENE_COUNT };

static const int scene_len[SCENE_COUNT] = { 200, 260, 300, 240, 300, 150 };

/* The field's shorter side, in cells. */
static int side(const rpl_sim_t *sim)
{
    return rpl_sim_width(sim) < rpl_sim_height(sim) ? rpl_sim_width(sim) : rpl_sim_height(sim);
}

/* Disc sizes scale with the field so small and large windows look alike. */
static int unit(const rpl_sim_t *sim)
{
    int u = side(sim) / 160;
    return u < 1 ? 1 : u;
}

rpl_status rpl_autopilot_create(uint64_t seed, rpl_autopilot_t **out)
{
    if (!out)
        return RPL_EINVAL;
    rpl_autopilot_t *ap = *out = calloc(1, sizeof *ap);
    if (!ap)
        return RPL_ENOMEM;
    ap->rng = rpl_seed_mix(seed ^ 0xA5A5A5A5u);
    ap->t = 0;
    ap->scene = -1;
    ap->len = 0;
    ap->pen = 0;
    ap->stones = RPL_STONES_DISCS;
    return RPL_OK;
}

rpl_status rpl_autopilot_set_stones(rpl_autopilot_t *ap, rpl_stones kind)
{
    if (!ap)
        return RPL_EINVAL;
    if (kind != RPL_STONES_DISCS && kind != RPL_STONES_BUMPS)
        return rpl_err_set(&ap->err, RPL_EINVAL, "no such kind of stones (%d)", (int)kind);
    ap->stones = kind;
    return RPL_OK;
}

rpl_stones rpl_autopilot_stones(const rpl_autopilot_t *ap)
{
    return ap ? ap->stones : RPL_STONES_DISCS;
}

void rpl_autopilot_destroy(rpl_autopilot_t *ap)
{
    free(ap);
}

const char *rpl_autopilot_error(const rpl_autopilot_t *ap)
{
    return ap ? rpl_err_text(&ap->err) : "no autopilot (NULL)";
}

static void next_scene(rpl_autopilot_t *ap, const rpl_sim_t *sim)
{
    int s = SCENE_BURST; /* the opening: one heavy stone */
    if (ap->scene >= 0)
        do
            s = rpl_rng_range(&ap->rng, 0, SCENE_COUNT - 1);
        while (s == ap->scene);
    ap->scene = s;
    ap->t = 0;
    ap->len = scene_len[s];
    ap->pen = 0;
    int m = rpl_sim_width(sim) < rpl_sim_height(sim) ? rpl_sim_width(sim) : rpl_sim_height(sim);
    ap->size = m / 4 + rpl_rng_range(&ap->rng, 0, m / 8);
    ap->cx = rpl_sim_width(sim) / 2 + rpl_rng_range(&ap->rng, -rpl_sim_width(sim) / 6, rpl_sim_width(sim) / 6);
    ap->cy = rpl_sim_height(sim) / 2 + rpl_rng_range(&ap->rng, -rpl_sim_height(sim) / 6, rpl_sim_height(sim) / 6);
}

/*
 * A stone of k size units: a disc of k units (the field's shorter side /
 * 160, at least a cell) and weight w, or a bump three times as wide (a
 * bump's slopes lie in its inner half; 3k/160 of the shorter side,
 * rounded) weighing wb on a field 480 cells high and in proportion to
 * the shorter side on others (so its slopes, and the look, are the same
 * on every size), seven tenths of that on the wave model, which speckles
 * more for the same slopes (docs/look.md).  Integers only: the same
 * water on every machine.  A stone the field refuses (wider than
 * RPL_RADIUS_MAX, as on a field over 6800 cells across for a disc, 2270
 * for a bump) is left out and named in the autopilot's error, and the
 * script goes on.
 */
static void stone(rpl_autopilot_t *ap, rpl_sim_t *sim, int x, int y, int k, int w, int wb)
{
    rpl_status st;
    if (ap->stones == RPL_STONES_BUMPS) {
        int64_t s = side(sim), g = rpl_sim_model(sim) == RPL_MODEL_WAVE ? 7 : 10;
        int r = (int)((3 * k * s + 80) / 160);
        int bw = (int)((wb * g * s + 2400) / 4800);
        st = rpl_sim_bump(sim, x, y, r < 1 ? 1 : r, bw);
    } else {
        st = rpl_sim_drop(sim, x, y, k * unit(sim), w);
    }
    if (st != RPL_OK)
        rpl_err_set(&ap->err, st, "a stone was left out: %s", rpl_sim_error(sim));
}

/* Moves the pen to (x, y): a bead of the shape being drawn.  Beads a few
 * steps apart read as a crisp chain of rings; a continuous trail would
 * smear the shape into a noisy wake. */
static void pen_to(rpl_autopilot_t *ap, rpl_sim_t *sim, double x, double y, int k, int w, int wb)
{
    ap->lastx = (int)lround(x);
    ap->lasty = (int)lround(y);
    ap->pen = 1;
    stone(ap, sim, ap->lastx, ap->lasty, k, w, wb);
}

void rpl_autopilot_tick(rpl_autopilot_t *ap, rpl_sim_t *sim)
{
    if (!ap || rpl_sim_width(sim) < 1)
        return;
    if (ap->scene < 0 || ap->t >= (uint32_t)ap->len + 90) /* 90 quiet steps between scenes */
        next_scene(ap, sim);
    uint32_t t = ap->t++;
    if (t >= (uint32_t)ap->len)
        return;
    const double R = ap->size, cx = ap->cx, cy = ap->cy;
    const double f = (double)t / ap->len; /* 0..1 through the scene */

    switch (ap->scene) {
    case SCENE_RING: /* stones around a circle, like a clock face */
        if (t % 10 == 0) {
            double a = TAU * t / 120.0;
            stone(ap, sim, (int)lround(cx + R * cos(a)), (int)lround(cy + R * sin(a)), 3, 200, 360);
        }
        break;
    case SCENE_SPIRAL: /* a pen winding outwards */
        if (t % 3 == 0) {
            double a = TAU * 3.0 * f, r = R * (0.1 + 0.9 * f);
            pen_to(ap, sim, cx + r * cos(a), cy + r * sin(a), 2, 120, 200);
        }
        break;
    case SCENE_LISSAJOUS: /* a 3:2 Lissajous figure */
        if (t % 3 == 0) {
            double a = TAU * f;
            pen_to(ap, sim, cx + 1.3 * R * sin(3 * a + 0.5), cy + R * sin(2 * a), 2, 110, 200);
        }
        break;
    case SCENE_STAR: { /* a five-pointed star, drawn point to point */
        if (t % 3 == 0) {
            double k = 5.0 * f, seg = floor(k), g = k - seg;
            double a0 = -TAU / 4 + TAU * 2.0 * seg / 5.0, a1 = a0 + TAU * 2.0 / 5.0;
            double x = cx + R * ((1 - g) * cos(a0) + g * cos(a1));
            double y = cy + R * ((1 - g) * sin(a0) + g * sin(a1));
            pen_to(ap, sim, x, y, 2, 120, 200);
        }
        break;
    }
    case SCENE_TWINS: /* two sources beating in step: interference fringes */
        if (t % 14 == 0) {
            int d = (int)(R * 0.6);
            stone(ap, sim, (int)cx - d, (int)cy, 2, 220, 400);
            stone(ap, sim, (int)cx + d, (int)cy, 2, 220, 400);
        }
        break;
    case SCENE_BURST: /* one heavy stone, then a crown of small ones */
        if (t == 0)
            stone(ap, sim, (int)cx, (int)cy, 6, 320, 300);
        else if (t == 40 || t == 80) {
            for (int i = 0; i < 8; i++) {
                double a = TAU * i / 8 + (t == 80 ? TAU / 16 : 0);
                double r = R * (t == 40 ? 0.5 : 0.9);
                stone(ap, sim, (int)lround(cx + r * cos(a)), (int)lround(cy + r * sin(a)), 2,
                      260, 200);
            }
        }
        break;
    }
}
