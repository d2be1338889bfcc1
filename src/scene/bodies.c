/* scene/bodies.c - the side scene's rigid bodies as the water sees them (outlines) and as the screen shows them (crates, balls). */
#include <math.h>

#include "core/base/dmath.h"
#include "scene/internal.h"

int side_body_outline(const side_body_t *b, double *xy)
{
    cpVect p = cpBodyGetPosition(b->body), rot = cpBodyGetRotation(b->body);
    if (b->kind == SIDE_CRATE) {
        static const double cx[4] = { -1, 1, 1, -1 }, cy[4] = { -1, -1, 1, 1 };
        for (int i = 0; i < 4; i++) {
            cpVect l = cpv(cx[i] * b->hw, cy[i] * b->hh);
            cpVect v = cpvadd(p, cpvrotate(l, rot));
            xy[2 * i] = v.x;
            xy[2 * i + 1] = v.y;
        }
        return 4;
    }
    /* the ball's polygon turns with it; its area is what side_body_t.area
     * holds, so the fraction under water is exact for the polygon */
    for (int i = 0; i < SIDE_BALL_SIDES; i++) {
        double a = 2 * SIDE_PI * i / SIDE_BALL_SIDES;
        cpVect v = cpvadd(p, cpvrotate(cpv(b->hw * rpl_cos(a), b->hw * rpl_sin(a)), rot));
        xy[2 * i] = v.x;
        xy[2 * i + 1] = v.y;
    }
    return SIDE_BALL_SIDES;
}

static uint32_t shade(uint32_t c, int d)
{
    int r = (int)(c >> 16 & 0xFF) + d, g = (int)(c >> 8 & 0xFF) + d, b = (int)(c & 0xFF) + d;
    r = r < 0 ? 0 : r > 255 ? 255 : r;
    g = g < 0 ? 0 : g > 255 ? 255 : g;
    b = b < 0 ? 0 : b > 255 ? 255 : b;
    return 0xFF000000u | (uint32_t)r << 16 | (uint32_t)g << 8 | (uint32_t)b;
}

/* A straight band from local (ax, ay) to (bx, by) of a body, `t` pixels
 * thick, drawn as a thin quad. */
static void band(side_scene_t *s, cpVect p, cpVect rot, double ax, double ay, double bx, double by,
                 double t, uint32_t c)
{
    cpVect a = cpvadd(p, cpvrotate(cpv(ax, ay), rot)), b = cpvadd(p, cpvrotate(cpv(bx, by), rot));
    cpVect d = cpvsub(b, a);
    double len = cpvlength(d);
    if (len <= 0)
        return;
    cpVect n = cpvmult(cpvperp(d), 0.5 * t / len);
    double xy[8] = { a.x + n.x, a.y + n.y, b.x + n.x, b.y + n.y,
                     b.x - n.x, b.y - n.y, a.x - n.x, a.y - n.y };
    rpl_draw_polygon(s->work, (ptrdiff_t)s->w * 4, s->w, s->h, xy, 4, c, 0, 0);
}

static void draw_crate(side_scene_t *s, const side_body_t *b)
{
    double xy[8];
    side_body_outline(b, xy);
    cpVect p = cpBodyGetPosition(b->body), rot = cpBodyGetRotation(b->body);
    double hw = b->hw, hh = b->hh, t = fmax(1, 0.12 * fmin(hw, hh));
    uint32_t dark = shade(b->colour, -60);
    rpl_draw_polygon(s->work, (ptrdiff_t)s->w * 4, s->w, s->h, xy, 4, b->colour, dark, 50);
    if (b->density < 1) {
        /* wood: planks across, a frame and a diagonal brace */
        double in = t;
        band(s, p, rot, -hw + in, -hh / 3, hw - in, -hh / 3, fmax(1, t * 0.5), shade(b->colour, -35));
        band(s, p, rot, -hw + in, hh / 3, hw - in, hh / 3, fmax(1, t * 0.5), shade(b->colour, -35));
        band(s, p, rot, -hw + in, -hh + in / 2, hw - in, -hh + in / 2, t, shade(b->colour, 18));
        band(s, p, rot, -hw + in, hh - in / 2, hw - in, hh - in / 2, t, shade(b->colour, -20));
        band(s, p, rot, -hw + in, hh - in, hw - in, -hh + in, t, shade(b->colour, -8));
    } else {
        /* metal: a cross and rivets */
        band(s, p, rot, -hw + t, -hh + t, hw - t, hh - t, t, shade(b->colour, -25));
        band(s, p, rot, -hw + t, hh - t, hw - t, -hh + t, t, shade(b->colour, -25));
        double r = fmax(1, 0.6 * t);
        static const double cx[4] = { -1, 1, 1, -1 }, cy[4] = { -1, -1, 1, 1 };
        for (int i = 0; i < 4; i++) {
            cpVect v = cpvadd(p, cpvrotate(cpv(cx[i] * (hw - 1.6 * t), cy[i] * (hh - 1.6 * t)), rot));
            rpl_draw_circle(s->work, (ptrdiff_t)s->w * 4, s->w, s->h, v.x, v.y, r,
                            shade(b->colour, 50), 0, 0);
        }
    }
}

static void draw_ball(side_scene_t *s, const side_body_t *b)
{
    cpVect p = cpBodyGetPosition(b->body), rot = cpBodyGetRotation(b->body);
    double r = b->hw;
    ptrdiff_t pitch = (ptrdiff_t)s->w * 4;
    rpl_draw_circle(s->work, pitch, s->w, s->h, p.x, p.y, r, b->colour, shade(b->colour, -70), 90);
    /* a mark that turns with the ball, so its rolling shows */
    cpVect m = cpvadd(p, cpvrotate(cpv(0.55 * r, 0), rot));
    rpl_draw_circle(s->work, pitch, s->w, s->h, m.x, m.y, fmax(1, 0.22 * r),
                    shade(b->colour, -45), 0, 0);
    /* the highlight stays where the light is, top left */
    rpl_draw_circle(s->work, pitch, s->w, s->h, p.x - 0.35 * r, p.y - 0.38 * r,
                    fmax(1, 0.28 * r), shade(b->colour, 70), 0, 0);
    rpl_draw_circle(s->work, pitch, s->w, s->h, p.x - 0.40 * r, p.y - 0.43 * r,
                    fmax(0.6, 0.12 * r), 0xFFFFFFFFu, 0, 0);
}

void side_bodies_draw_one(side_scene_t *s, const side_body_t *b)
{
    if (b->kind == SIDE_CRATE)
        draw_crate(s, b);
    else
        draw_ball(s, b);
}
