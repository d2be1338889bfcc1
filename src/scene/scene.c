/* scene/scene.c - the side scene: bodies of water joined to Chipmunk2D's rigid bodies in fixed steps, splashes, autoplay, drawing. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/dmath.h"
#include "scene/internal.h"

#define SPRING_PX 10.0      /* one spring per this many pixels of water */
#define GRAVITY 900.0       /* pixels / s^2 at 640x480 */
#define LEAP 0.12           /* a body rising at the cap leaves the water by this
                               fraction of the screen's height at most */
#define BOB RPL_D(0.06)     /* waves a floating body makes: this fraction of its
                               speed against the surface's, per step (RPL_D: a
                               double on the x87 too, see dmath.h) */
#define BOB_WAVE 0.25        /* analytic waves: a ring of this fraction of the body's */
#define BOB_WAVE_STEPS 60    /* travel over this many steps, if it is over BOB_WAVE_MIN */
#define BOB_WAVE_MIN RPL_D(0.4) /* pixels at 640x480 */
#define IMPACT_MIN 20.0      /* pixels / s at 640x480: slower crossings are no impact */
#define SPLASH_SPEED 70.0   /* pixels / s at 640x480: slower entries do not splash */
#define DRAG 4.0            /* the water's drag rate per second (the core's 0.6 lets a
                               floating body bob for half a minute, and a light ball
                               that went deep leap clear of the water) */
#define IMPACT_GAIN 3.0     /* the scene's impacts against the core's defaults: a
                               body the size of ours moves a lot of water */
#define PICTURE_MAX_PIXELS 100000000L

/* ---- errors ------------------------------------------------------------------- */

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void put_err(char *err, size_t len, const char *fmt, ...)
{
    if (!err || len == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
}

/* The water refuses only what the scene never asks of it (x is kept
 * inside the body, the numbers are finite); should it refuse, the scene's
 * error says so and the step goes on. */
static void water_said(side_scene_t *s, int k, rpl_status st)
{
    if (st != RPL_OK)
        snprintf(s->err, sizeof s->err, "the water refused: %s", rpl_water_error(s->water[k]));
}

/* ---- the water's parameters ------------------------------------------------------ */

/*
 * One basin's water.  The core's defaults are for steps of 1/60 s at
 * 640x480; the scene steps at SIDE_STEP and any size, so what is per step
 * is rescaled by r = SIDE_STEP / step (a spring's pull, a force per step
 * of velocity, by r^2 and r, so that an oscillation takes the same
 * seconds and an impact lifts the surface as high), and what is in
 * pixels by the size unit u.
 */
/* Checks water parameters the library's one way, a body made from them:
 * 0, or -1 with the reason it gives in why (len bytes, may be NULL). */
static int water_ok(const rpl_water_params_t *p, char *why, size_t len)
{
    rpl_water_t *w;
    rpl_status st = rpl_water_create(p, &w);
    if (st != RPL_OK)
        put_err(why, len, "%s", w ? rpl_water_error(w) : rpl_strerror(st));
    rpl_water_destroy(w);
    return st == RPL_OK ? 0 : -1;
}

static int water_params(const side_scene_t *s, int i, rpl_surface_kind kind, rpl_water_params_t *p,
                        char *why, size_t len)
{
    const side_basin_t *b = &s->lv.basin[i];
    rpl_water_params_t d;
    rpl_water_defaults(&d);
    *p = d;
    double r = SIDE_STEP / d.step;
    /* the springs asked for, per their own step */
    const rpl_water_params_t *k = &s->springs;
    double rk = k->step > 0 && k->step <= 0.1 ? SIDE_STEP / k->step : 1;
    p->stiffness = k->stiffness * rk * rk;
    p->damping = k->damping * rk;
    p->spread = k->spread * rk;
    p->passes = k->passes;
    p->ends = k->ends;
    double lim = rpl_water_spread_limit(p);
    if (p->spread >= 0.95 * lim)
        p->spread = 0.9 * lim;

    p->kind = kind;
    p->x0 = b->x0;
    p->x1 = b->x1;
    p->level = b->level;
    p->bottom = b->floor;
    p->step = SIDE_STEP;
    p->max_steps = SIDE_MAX_STEPS;
    int n = (int)lround((b->x1 - b->x0) / SPRING_PX) + 1;
    p->springs = n < RPL_SPRINGS_MIN ? RPL_SPRINGS_MIN : n > RPL_SPRINGS_MAX ? RPL_SPRINGS_MAX : n;
    if (kind == RPL_SURFACE_SPRINGS) {
        p->force_min = IMPACT_GAIN * d.force_min * s->u * r;
        p->force_max = IMPACT_GAIN * d.force_max * s->u * r;
    } else {
        /* a ring's amplitude, in pixels */
        p->force_min = IMPACT_GAIN * d.force_min * s->u;
        p->force_max = IMPACT_GAIN * d.force_max * s->u;
    }
    p->speed_max = d.speed_max * s->u;
    p->wavelength = d.wavelength * s->u;
    p->sleep_epsilon = d.sleep_epsilon * s->u;
    p->sleep_steps = (int)lround(d.sleep_steps / r);
    p->max_dv = d.max_dv * s->u;
    p->drag = DRAG;
    return water_ok(p, why, len);
}

/* ---- bodies ----------------------------------------------------------------------- */

static double water_density(const side_scene_t *s)
{
    return rpl_water_params(s->water[0])->density;
}

static double ngon_area(double r)
{
    return 0.5 * SIDE_BALL_SIDES * r * r * rpl_sin(2 * SIDE_PI / SIDE_BALL_SIDES);
}

static uint32_t body_colour(side_scene_t *s, side_shape kind, double density)
{
    static const uint32_t bright[] = { 0xFFE04040u, 0xFFF09030u, 0xFFF0D040u, 0xFF50C050u,
                                       0xFF40B0E0u, 0xFF5060E0u, 0xFFC050D0u };
    uint64_t v = side_rand(&s->rng);
    int tint = (int)(v % 21) - 10;
    if (density >= 1) {
        /* metal, darker the heavier */
        int g = (int)(150 - 30 * fmin(3, density - 1)) + tint;
        return 0xFF000000u | (uint32_t)(g - 4) << 16 | (uint32_t)(g + 2) << 8 | (uint32_t)(g + 10);
    }
    if (kind == SIDE_CRATE)
        return 0xFF000000u | (uint32_t)(160 + tint) << 16 | (uint32_t)(112 + tint) << 8 |
               (uint32_t)(60 + tint / 2);
    return bright[(v >> 8) % (sizeof bright / sizeof bright[0])];
}

static void body_free(side_scene_t *s, side_body_t *b)
{
    cpSpaceRemoveShape(s->space, b->shape);
    cpSpaceRemoveBody(s->space, b->body);
    cpShapeFree(b->shape);
    cpBodyFree(b->body);
}

/* Removes the i-th body; the others keep their order (oldest first). */
static void body_remove(side_scene_t *s, int i)
{
    body_free(s, &s->body[i]);
    memmove(&s->body[i], &s->body[i + 1], (size_t)(s->nbodies - i - 1) * sizeof s->body[0]);
    s->nbodies--;
}

static int body_add(side_scene_t *s, double x, double y, side_shape kind, double hw, double hh,
                    double density)
{
    if (s->nbodies >= SIDE_BODIES_MAX)
        return -1;
    side_body_t *b = &s->body[s->nbodies];
    memset(b, 0, sizeof *b);
    b->kind = kind;
    b->hw = hw;
    b->hh = kind == SIDE_BALL ? hw : hh;
    b->density = density;
    b->area = kind == SIDE_CRATE ? 4 * hw * hh : ngon_area(hw);
    b->colour = body_colour(s, kind, density);
    double mass = density * water_density(s) * b->area;
    /* a hair of rounding on the crates' corners, inside their outline */
    double round = fmin(0.5, RPL_D(0.1) * fmin(hw, hh));
    double moment = kind == SIDE_CRATE ? cpMomentForBox(mass, 2 * hw, 2 * hh)
                                       : cpMomentForCircle(mass, 0, hw, cpvzero);
    b->body = cpSpaceAddBody(s->space, cpBodyNew(mass, moment));
    cpBodySetPosition(b->body, cpv(x, y));
    b->shape = kind == SIDE_CRATE
                   ? cpBoxShapeNew(b->body, 2 * (hw - round), 2 * (hh - round), round)
                   : cpCircleShapeNew(b->body, hw, cpvzero);
    cpSpaceAddShape(s->space, b->shape);
    cpShapeSetFriction(b->shape, 0.6);
    cpShapeSetElasticity(b->shape, 0.15);
    b->prev_p = cpv(x, y);
    b->prev_rot = cpBodyGetRotation(b->body);
    s->nbodies++;
    return 0;
}

/* ---- creating ----------------------------------------------------------------------- */

static int picture_ok(const uint32_t *px, int w, int h)
{
    return !px || (w > 0 && h > 0 && w <= 65536 && h <= 65536 &&
                   (long long)w * h <= PICTURE_MAX_PIXELS);
}

static void add_static(side_scene_t *s, cpShape *sh)
{
    cpShapeSetFriction(sh, 0.8);
    cpShapeSetElasticity(sh, 0.2);
    cpSpaceAddShape(s->space, sh);
    s->statics[s->nstatics++] = sh;
}

static void make_space(side_scene_t *s)
{
    s->space = scene_space_new_quietly();
    cpSpaceSetGravity(s->space, cpv(0, s->g));
    cpSpaceSetIterations(s->space, 10);
    cpSpaceSetCollisionSlop(s->space, 0.25 * s->u);
    cpBody *ground = cpSpaceGetStaticBody(s->space);
    for (int i = 0; i < s->lv.nrects; i++) {
        const side_rect_t *r = &s->lv.rect[i];
        add_static(s, cpBoxShapeNew2(ground, cpBBNew(r->x0, r->y0, r->x1, r->y1), 0));
    }
    /* the screen's sides, up to well above it, their faces at x = 0 and w */
    double t = 8 * s->u + 4;
    add_static(s, cpSegmentShapeNew(ground, cpv(-t, -3.0 * s->h), cpv(-t, s->h), t));
    add_static(s, cpSegmentShapeNew(ground, cpv(s->w + t, -3.0 * s->h), cpv(s->w + t, s->h), t));
}

/* Everything a scene holds but itself and its error: what a failed
 * scene lets go of, so that it only reports and is destroyed. */
static void scene_release(side_scene_t *s)
{
    if (s->space) {
        while (s->nbodies > 0)
            body_remove(s, s->nbodies - 1);
        for (int i = 0; i < s->nstatics; i++) {
            cpSpaceRemoveShape(s->space, s->statics[i]);
            cpShapeFree(s->statics[i]);
        }
        cpSpaceFree(s->space);
        s->space = NULL;
    }
    s->nstatics = 0;
    for (int i = 0; i < s->nwaters; i++)
        rpl_water_destroy(s->water[i]);
    s->nwaters = 0;
    rpl_splash_destroy(s->splash);
    rpl_side_renderer_destroy(s->rend);
    free(s->body);
    free(s->bdrawn);
    free(s->art);
    free(s->work);
    free(s->surf);
    s->splash = NULL;
    s->rend = NULL;
    s->body = NULL;
    s->bdrawn = NULL;
    s->art = s->work = NULL;
    s->surf = NULL;
}

void side_scene_destroy(side_scene_t *s)
{
    if (!s)
        return;
    scene_release(s);
    free(s);
}

/* A scene made whole: a failed one answers like NULL. */
static int usable(const side_scene_t *s)
{
    return s && s->ready;
}

/* Records why the making failed and returns st. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static rpl_status refuse(side_scene_t *s, rpl_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->err, sizeof s->err, fmt, ap);
    va_end(ap);
    return st;
}

/* The configuration checked, then every part of the scene made. */
static rpl_status scene_make(side_scene_t *s, const side_config_t *cfg)
{
    if (!cfg)
        return refuse(s, RPL_EINVAL, "no configuration");
    if (cfg->w < SIDE_W_MIN || cfg->h < SIDE_H_MIN || cfg->w > SIDE_DIM_MAX ||
        cfg->h > SIDE_DIM_MAX)
        return refuse(s, RPL_EINVAL, "size %dx%d is outside %dx%d .. %dx%d", cfg->w, cfg->h,
                      SIDE_W_MIN, SIDE_H_MIN, SIDE_DIM_MAX, SIDE_DIM_MAX);
    if (rpl_format_bytes(cfg->format) == 0)
        return refuse(s, RPL_EINVAL, "format %d is not XRGB8888, RGB565 or INDEX8",
                      (int)cfg->format);
    if (cfg->surface != RPL_SURFACE_SPRINGS && cfg->surface != RPL_SURFACE_WAVES)
        return refuse(s, RPL_EINVAL, "surface %d is not springs or waves", (int)cfg->surface);
    if (!picture_ok(cfg->sky, cfg->sky_w, cfg->sky_h) ||
        !picture_ok(cfg->stone, cfg->stone_w, cfg->stone_h)) {
        int sky = picture_ok(cfg->sky, cfg->sky_w, cfg->sky_h);
        return refuse(s, RPL_EINVAL, "the %s picture's size %dx%d is out of range",
                      sky ? "stone" : "sky", sky ? cfg->stone_w : cfg->sky_w,
                      sky ? cfg->stone_h : cfg->sky_h);
    }

    s->w = cfg->w;
    s->h = cfg->h;
    s->format = cfg->format;
    s->u = fmin(s->w / 640.0, s->h / 480.0);
    s->g = GRAVITY * s->u;
    s->rise_max = sqrt(2 * s->g * LEAP * s->h);
    s->surface = cfg->surface;
    s->rng = cfg->seed ^ 0x5CE7E5EEDull;
    s->all = 1; /* the first render draws everything */
    s->autoplay = 1;
    s->next_drop = 30;
    /* the springs' settings, checked as given (at their own step) */
    rpl_water_defaults(&s->springs);
    char why[160] = "";
    if (cfg->springs) {
        const rpl_water_params_t *k = cfg->springs;
        s->springs.stiffness = k->stiffness;
        s->springs.damping = k->damping;
        s->springs.spread = k->spread;
        s->springs.passes = k->passes;
        s->springs.ends = k->ends;
        s->springs.step = k->step;
        if (water_ok(&s->springs, why, sizeof why) != 0)
            return refuse(s, RPL_EINVAL, "bad springs: %s", why);
    }
    side_level_layout(&s->lv, s->w, s->h);

    rpl_status st = RPL_OK;
    for (int i = 0; i < s->lv.nbasins; i++) {
        rpl_water_params_t p;
        if (water_params(s, i, s->surface, &p, why, sizeof why) != 0)
            return refuse(s, RPL_EINVAL, "bad springs: %s", why);
        st = rpl_water_create(&p, &s->water[i]);
        if (st != RPL_OK) {
            rpl_water_destroy(s->water[i]);
            s->water[i] = NULL;
            return refuse(s, st, "cannot make the water: %s", rpl_strerror(st));
        }
        s->nwaters++;
        if (cfg->kern && (st = rpl_water_set_kernels(s->water[i], cfg->kern)) != RPL_OK)
            return refuse(s, st, "cannot set the water's kernels: %s", rpl_strerror(st));
    }
    size_t px = (size_t)s->w * s->h;
    s->body = calloc(SIDE_BODIES_MAX, sizeof *s->body);
    s->bdrawn = calloc(SIDE_BODIES_MAX, sizeof *s->bdrawn);
    s->art = malloc(px * sizeof *s->art);
    s->work = malloc(px * sizeof *s->work);
    s->surf = malloc((size_t)s->w * s->nwaters * sizeof *s->surf);
    if (rpl_splash_create(SIDE_SPLASH_CAP, cfg->seed ^ 0xD809ull, &s->splash) != RPL_OK) {
        rpl_splash_destroy(s->splash);
        s->splash = NULL;
    }
    if (!s->body || !s->bdrawn || !s->art || !s->work || !s->surf || !s->splash)
        return refuse(s, RPL_ENOMEM, "out of memory");
    side_level_paint(&s->lv, cfg, s->art);
    uint32_t *pal = s->format == RPL_INDEX8 ? side_level_palette_art(s->art, s->w, s->h) : NULL;
    if (s->format == RPL_INDEX8 && !pal)
        return refuse(s, RPL_ENOMEM, "out of memory");
    st = rpl_side_renderer_create(pal ? pal : s->art, s->w, s->h, s->format, &s->rend);
    free(pal);
    s->kern = cfg->kern;
    if (st == RPL_OK && s->kern)
        st = rpl_side_renderer_set_kernels(s->rend, s->kern);
    if (st != RPL_OK)
        return refuse(s, st, "cannot make the renderer: %s", rpl_strerror(st));
    make_space(s);
    return RPL_OK;
}

rpl_status side_scene_create(const side_config_t *cfg, side_scene_t **out)
{
    if (!out)
        return RPL_EINVAL;
    side_scene_t *s = *out = calloc(1, sizeof *s);
    if (!s)
        return RPL_ENOMEM;
    rpl_status st = scene_make(s, cfg);
    if (st != RPL_OK)
        scene_release(s); /* a failed scene keeps nothing but its message */
    s->ready = st == RPL_OK;
    return st;
}

/* ---- one step ------------------------------------------------------------------------- */

/* Whether a body's bounding box can reach the i-th water (its surface may
 * rise a little above the level). */
static int near_water(const side_scene_t *s, int i, const double *xy, int n)
{
    const rpl_water_params_t *p = rpl_water_params(s->water[i]);
    double xmin = xy[0], xmax = xy[0], ymax = xy[1];
    for (int k = 1; k < n; k++) {
        xmin = fmin(xmin, xy[2 * k]);
        xmax = fmax(xmax, xy[2 * k]);
        ymax = fmax(ymax, xy[2 * k + 1]);
    }
    return xmax > p->x0 && xmin < p->x1 && ymax > p->level - RPL_D(0.1) * s->h;
}

/* The water's pull on every body, and the small waves a floating body
 * makes where it cuts the surface. */
static void water_forces(side_scene_t *s)
{
    double xy[2 * SIDE_BALL_SIDES];
    for (int i = 0; i < s->nbodies; i++) {
        side_body_t *b = &s->body[i];
        b->submerged = 0;
        int n = side_body_outline(b, xy);
        cpVect p = cpBodyGetPosition(b->body), v = cpBodyGetVelocity(b->body);
        double w = cpBodyGetAngularVelocity(b->body);
        rpl_body_t rb = { xy, n, p.x, p.y, v.x, v.y, w, cpBodyGetMass(b->body),
                          cpBodyGetMoment(b->body) };
        for (int k = 0; k < s->nwaters; k++) {
            if (!near_water(s, k, xy, n))
                continue;
            rpl_water_force_t f;
            if (rpl_water_forces(s->water[k], &rb, s->g, SIDE_STEP, &f) != RPL_OK ||
                !(f.sub.area > 0))
                continue;
            b->submerged += f.sub.area;
            cpBodyApplyForceAtWorldPoint(b->body, cpv(f.fx, f.fy), cpv(f.px, f.py));
            cpBodySetTorque(b->body, cpBodyGetTorque(b->body) + f.torque);
            /* cutting the surface: the water it pushes aside rises just
             * outside its waterline as it goes down (and falls as it comes
             * up), which makes small waves run off.  Not under it: that
             * would lower the surface its buoyancy is measured against. */
            if (f.sub.area < RPL_D(0.995) * b->area && f.sub.x_max > f.sub.x_min) {
                const rpl_water_params_t *wp = rpl_water_params(s->water[k]);
                double xc = 0.5 * (f.sub.x_min + f.sub.x_max);
                double vy = v.y + w * (xc - p.x) - rpl_water_velocity(s->water[k], xc);
                double gap = (wp->x1 - wp->x0) / (wp->springs - 1);
                double xa = fmax(wp->x0, fmin(wp->x1, f.sub.x_min - gap));
                double xb = fmax(wp->x0, fmin(wp->x1, f.sub.x_max + gap));
                if (wp->kind == RPL_SURFACE_SPRINGS) {
                    double dv = -BOB * vy * SIDE_STEP;
                    if (fabs(dv) > RPL_D(1e-3) * s->u) {
                        water_said(s, k, rpl_water_disturb(s->water[k], xa, 0.5 * dv));
                        water_said(s, k, rpl_water_disturb(s->water[k], xb, 0.5 * dv));
                    }
                } else {
                    /* a ring for every step would be hundreds of tiny rings:
                     * the motion is gathered and sent off as one now and then */
                    b->bob += vy * SIDE_STEP;
                    if (++b->bob_steps >= BOB_WAVE_STEPS) {
                        double amp = -BOB_WAVE * b->bob;
                        if (fabs(amp) > BOB_WAVE_MIN * s->u)
                            water_said(s, k, rpl_water_disturb(s->water[k], 0.5 * (xa + xb), amp));
                        b->bob = 0;
                        b->bob_steps = 0;
                    }
                }
            }
        }
    }
}

/* Going in or out of the water since the last step, found on the path
 * of the body's lowest point however far it went: an impact on the
 * surface and a splash. */
static void crossings(side_scene_t *s)
{
    double xy[2 * SIDE_BALL_SIDES];
    double slow = SPLASH_SPEED * s->u;
    for (int i = 0; i < s->nbodies; i++) {
        side_body_t *b = &s->body[i];
        cpVect p = cpBodyGetPosition(b->body), rot = cpBodyGetRotation(b->body);
        cpVect now, before;
        if (b->kind == SIDE_BALL) {
            now = cpvadd(p, cpv(0, b->hw));
            before = cpvadd(b->prev_p, cpv(0, b->hw));
        } else {
            int n = side_body_outline(b, xy), low = 0;
            for (int k = 1; k < n; k++)
                if (xy[2 * k + 1] > xy[2 * low + 1])
                    low = k;
            now = cpv(xy[2 * low], xy[2 * low + 1]);
            /* the same corner where the body was a step ago */
            cpVect local = cpvunrotate(cpvsub(now, p), rot);
            before = cpvadd(b->prev_p, cpvrotate(local, b->prev_rot));
        }
        b->prev_p = p;
        b->prev_rot = rot;
        for (int k = 0; k < s->nwaters; k++) {
            double x;
            int c = rpl_water_crossing(s->water[k], before.x, before.y, now.x, now.y, &x);
            if (!c)
                continue;
            const rpl_water_params_t *wp = rpl_water_params(s->water[k]);
            x = fmax(wp->x0, fmin(wp->x1, x));
            double vy = cpBodyGetVelocity(b->body).y;
            /* a floating body's keel dipping in and out as waves pass is
             * no impact: that would make waves of waves without end */
            if (fabs(vy - rpl_water_velocity(s->water[k], x)) < IMPACT_MIN * s->u)
                continue;
            water_said(s, k, rpl_water_impact(s->water[k], x, vy, NULL));
            double speed = fabs(vy) * (c > 0 ? 1.0 : 0.5);
            if (speed > slow) {
                double y = rpl_water_height(s->water[k], x);
                rpl_splash_emit(s->splash, x, y, speed);
                if (s->on_splash)
                    s->on_splash(s->splash_user, x, y, speed);
            }
        }
    }
}

/* A body at random above a basin, now and then. */
static void autoplay(side_scene_t *s)
{
    if (!s->autoplay || s->steps < s->next_drop)
        return;
    s->next_drop = s->steps + 144 + side_rand(&s->rng) % 97; /* every 1.2 .. 2 s */
    while (s->nbodies >= SIDE_AUTOPLAY_BODIES)
        body_remove(s, 0);
    const side_basin_t *b = &s->lv.basin[side_uniform(&s->rng, 0, 1) < RPL_D(0.65) ? 0 : 1];
    double m = RPL_D(0.12) * (b->x1 - b->x0);
    double x = side_uniform(&s->rng, b->x0 + m, b->x1 - m);
    double y = side_uniform(&s->rng, 0.04, 0.22) * s->h;
    side_shape kind = side_rand(&s->rng) & 1 ? SIDE_BALL : SIDE_CRATE;
    double density = side_uniform(&s->rng, 0.3, 1.6);
    side_scene_drop(s, x, y, kind, density, 1);
}

/* One step, called under rpl_double_precision: Chipmunk2D's and the
 * water's arithmetic give the same bits on the x87 as elsewhere. */
static void step_fn(void *arg)
{
    side_scene_t *s = arg;
    water_forces(s);
    cpSpaceStep(s->space, SIDE_STEP);
    /* nothing comes up through the water faster than rise_max, so a body
     * let go deep down does not leap out */
    for (int i = 0; i < s->nbodies; i++) {
        side_body_t *b = &s->body[i];
        cpVect v = cpBodyGetVelocity(b->body);
        if (b->submerged > 0 && v.y < -s->rise_max)
            cpBodySetVelocity(b->body, cpv(v.x, -s->rise_max));
    }
    for (int k = 0; k < s->nwaters; k++)
        rpl_water_step(s->water[k]);
    crossings(s);
    rpl_splash_step(s->splash, SIDE_STEP, s->g, s->water, s->nwaters);
    /* what fell off the level */
    for (int i = s->nbodies - 1; i >= 0; i--) {
        cpVect p = cpBodyGetPosition(s->body[i].body);
        if (!(p.y < s->h * 1.25 && p.x > -0.25 * s->w && p.x < 1.25 * s->w))
            body_remove(s, i);
    }
    s->steps++;
    autoplay(s);
}

void side_scene_step(side_scene_t *s)
{
    if (usable(s))
        rpl_double_precision(step_fn, s);
}

int side_scene_advance(side_scene_t *s, double seconds)
{
    if (!usable(s) || !isfinite(seconds) || seconds < 0)
        return 0;
    s->acc += seconds;
    int n = 0;
    /* a hair of tolerance, so that 1/30 s is 4 steps every time and not
     * now 3, now 5 from rounding */
    while (s->acc >= SIDE_STEP * (1 - 1e-9)) {
        if (n == SIDE_MAX_STEPS) {
            s->acc = 0; /* a stall: the rest is dropped */
            break;
        }
        side_scene_step(s);
        s->acc -= SIDE_STEP;
        n++;
    }
    return n;
}

uint64_t side_scene_steps(const side_scene_t *s)
{
    return usable(s) ? s->steps : 0;
}

/* ---- dropping, clearing, settings ------------------------------------------------------ */

static int place_ok(const side_scene_t *s, double x, double y)
{
    return isfinite(x) && isfinite(y) && x >= 0 && x < s->w && y >= -s->h && y < s->h &&
           !side_level_solid(&s->lv, x, y);
}

static int make_room(side_scene_t *s, int recycle)
{
    if (s->nbodies < SIDE_BODIES_MAX)
        return 0;
    if (!recycle)
        return -1;
    body_remove(s, 0);
    return 0;
}

/* A drop's work, under rpl_double_precision as the step's. */
struct drop_call {
    side_scene_t *s;
    double x, y, density;
    side_shape shape;
    int recycle, result;
};

static void drop_fn(void *arg)
{
    struct drop_call *c = arg;
    side_scene_t *s = c->s;
    double u = s->u, x = c->x, y = c->y, density = c->density;
    c->result = -1;
    if (make_room(s, c->recycle) != 0)
        return;
    if (c->shape == SIDE_BALL) {
        c->result = body_add(s, x, y, c->shape, u * side_uniform(&s->rng, 7, 15), 0, density);
        return;
    }
    double side = u * side_uniform(&s->rng, 9, 17);
    double hw = side * side_uniform(&s->rng, 0.8, 1.5), hh = side * side_uniform(&s->rng, 0.7, 1.1);
    c->result = body_add(s, x, y, c->shape, hw, hh, density);
}

int side_scene_drop(side_scene_t *s, double x, double y, side_shape shape, double density,
                    int recycle)
{
    if (!usable(s) || !place_ok(s, x, y) || (shape != SIDE_CRATE && shape != SIDE_BALL) ||
        !(density >= 0.1 && density <= 5))
        return -1;
    struct drop_call c = { s, x, y, density, shape, recycle, -1 };
    rpl_double_precision(drop_fn, &c);
    return c.result;
}

int side_scene_drop_box(side_scene_t *s, double x, double y, double w, double h, double density)
{
    if (!usable(s) || !place_ok(s, x, y) || !(w >= 1 && w <= s->w / 2.0) || !(h >= 1 && h <= s->h / 2.0) ||
        !(density >= 0.1 && density <= 5) || make_room(s, 0) != 0)
        return -1;
    return body_add(s, x, y, SIDE_CRATE, w / 2, h / 2, density);
}

int side_scene_remove(side_scene_t *s, int i)
{
    if (!usable(s) || i < 0 || i >= s->nbodies)
        return -1;
    body_remove(s, i);
    return 0;
}

void side_scene_clear(side_scene_t *s)
{
    if (!usable(s))
        return;
    while (s->nbodies > 0)
        body_remove(s, s->nbodies - 1);
    rpl_splash_clear(s->splash);
    for (int k = 0; k < s->nwaters; k++)
        rpl_water_reset(s->water[k]);
    s->next_drop = s->steps + 60;
}

void side_scene_set_surface(side_scene_t *s, rpl_surface_kind kind)
{
    if (!usable(s) || (kind != RPL_SURFACE_SPRINGS && kind != RPL_SURFACE_WAVES))
        return;
    rpl_water_params_t p[SIDE_WATERS_MAX];
    for (int k = 0; k < s->nwaters; k++)
        if (water_params(s, k, kind, &p[k], NULL, 0) != 0)
            return; /* cannot be: the same settings made the water */
    for (int k = 0; k < s->nwaters; k++) {
        water_said(s, k, rpl_water_set_params(s->water[k], &p[k]));
        rpl_water_reset(s->water[k]);
    }
    s->surface = kind;
}

rpl_surface_kind side_scene_surface(const side_scene_t *s)
{
    return usable(s) ? s->surface : RPL_SURFACE_SPRINGS;
}

void side_scene_set_autoplay(side_scene_t *s, int on)
{
    if (!usable(s))
        return;
    if (on && !s->autoplay)
        s->next_drop = s->steps + 60;
    s->autoplay = on != 0;
}

void side_scene_set_splash_hook(side_scene_t *s, side_splash_fn fn, void *user)
{
    if (!usable(s))
        return;
    s->on_splash = fn;
    s->splash_user = user;
}

double side_scene_rise_max(const side_scene_t *s)
{
    return usable(s) ? s->rise_max : 0;
}

/* ---- drawing ---------------------------------------------------------------------------- */

/* The surface of water k at every column of its basin (asleep, its rest
 * level, which is what it reads then, without reading).  Analytic waves
 * are a sum of up to 256 rings and their images at each point: they are
 * read every WAVES_SAMPLE_PX columns and joined by straight lines (their
 * wavelength is 15 times that; the renderer reads the slope over 9
 * columns anyway), which costs a quarter of reading every column. */
#define WAVES_SAMPLE_PX 4
static void sample_surface(side_scene_t *s, int k, float *surf)
{
    const side_basin_t *b = &s->lv.basin[k];
    int n = b->x1 - b->x0;
    if (!rpl_water_awake(s->water[k])) { /* asleep it is exactly flat: nothing to read */
        float level = (float)rpl_water_params(s->water[k])->level;
        for (int x = 0; x < n; x++)
            surf[x] = level;
        return;
    }
    if (side_scene_surface(s) != RPL_SURFACE_WAVES || n <= 2 * WAVES_SAMPLE_PX) {
        water_said(s, k, rpl_water_sample(s->water[k], b->x0 + 0.5, 1.0, n, surf));
        return;
    }
    float coarse[SIDE_DIM_MAX / WAVES_SAMPLE_PX + 2];
    int m = (n - 1) / WAVES_SAMPLE_PX + 2; /* points 0, 4, ... past the last column */
    water_said(s, k, rpl_water_sample(s->water[k], b->x0 + 0.5, WAVES_SAMPLE_PX, m, coarse));
    for (int x = 0; x < n; x++) {
        int i = x / WAVES_SAMPLE_PX;
        float t = (float)(x - i * WAVES_SAMPLE_PX) / WAVES_SAMPLE_PX;
        surf[x] = coarse[i] + (coarse[i + 1] - coarse[i]) * t;
    }
}

/* ---- what changed ------------------------------------------------------------- */

/* Puts rectangle a into r (n of them, room for max).  When r is full, a
 * is merged into the rectangle whose bounding box with it adds the least
 * area, and rectangles that box then holds wholly are dropped: the list
 * still covers all that was put in, and not much more, however much moves. */
static void put_rect(rpl_rect_t *r, int *n, int max, rpl_rect_t a)
{
    if (*n < max) {
        r[(*n)++] = a;
        return;
    }
    int best = 0;
    long long least = 0;
    rpl_rect_t hull = a;
    for (int i = 0; i < *n; i++) {
        int x0 = a.x < r[i].x ? a.x : r[i].x, y0 = a.y < r[i].y ? a.y : r[i].y;
        int x1 = a.x + a.w > r[i].x + r[i].w ? a.x + a.w : r[i].x + r[i].w;
        int y1 = a.y + a.h > r[i].y + r[i].h ? a.y + a.h : r[i].y + r[i].h;
        long long grow = (long long)(x1 - x0) * (y1 - y0) - (long long)r[i].w * r[i].h;
        if (i == 0 || grow < least) {
            least = grow, best = i;
            hull = (rpl_rect_t){ x0, y0, x1 - x0, y1 - y0 };
        }
    }
    r[best] = hull;
    for (int i = 0; i < *n; i++)
        if (i != best && r[i].x >= hull.x && r[i].y >= hull.y &&
            r[i].x + r[i].w <= hull.x + hull.w && r[i].y + r[i].h <= hull.y + hull.h) {
            r[i] = r[--*n]; /* held by the hull: gone (the last takes its place) */
            best = best == *n ? i : best;
            i--;
        }
}

/* Puts the rectangle [x0, x1) x [y0, y1), grown by a margin and clipped
 * to the frame, into r (n of them, room for max). */
/* The rectangle [x0, x1) x [y0, y1) grown by a margin and clipped to the
 * frame, into *out; 0 if empty. */
static int margin_rect(const side_scene_t *s, double x0, double y0, double x1, double y1,
                       rpl_rect_t *out)
{
    const double m = 3; /* outlines, the foam's anti-aliased top, rounding */
    int a = (int)floor(fmax(0, x0 - m)), b = (int)ceil(fmin(s->w, x1 + m));
    int c = (int)floor(fmax(0, y0 - m)), d = (int)ceil(fmin(s->h, y1 + m));
    *out = (rpl_rect_t){ a, c, b - a, d - c };
    return a < b && c < d;
}

static void add_rect(const side_scene_t *s, rpl_rect_t *r, int *n, int max, double x0,
                     double y0, double x1, double y1)
{
    rpl_rect_t a;
    if (margin_rect(s, x0, y0, x1, y1, &a))
        put_rect(r, n, max, a);
}

/* A body's box, all it draws lies in it, into *out; 0 if empty: a ball's
 * is its disc's (its outline's 16 corners would cost a sine and a cosine
 * each). */
static int body_box(const side_scene_t *s, const side_body_t *b, rpl_rect_t *out)
{
    if (b->kind != SIDE_CRATE) {
        cpVect p = cpBodyGetPosition(b->body);
        double rad = b->hw;
        return margin_rect(s, p.x - rad, p.y - rad, p.x + rad, p.y + rad, out);
    }
    double xy[2 * SIDE_BALL_SIDES];
    int m = side_body_outline(b, xy);
    double x0 = xy[0], x1 = xy[0], y0 = xy[1], y1 = xy[1];
    for (int j = 1; j < m; j++) {
        x0 = fmin(x0, xy[2 * j]), x1 = fmax(x1, xy[2 * j]);
        y0 = fmin(y0, xy[2 * j + 1]), y1 = fmax(y1, xy[2 * j + 1]);
    }
    return margin_rect(s, x0, y0, x1, y1, out);
}

/* Puts every body's box into r (n of them, room for max): as the last
 * prepare_frame found them, the bodies unmoved since. */
static void body_rects(const side_scene_t *s, rpl_rect_t *r, int *n, int max)
{
    for (int i = 0; i < s->nbodies && i < s->nbdrawn; i++)
        if (s->bdrawn[i].box_ok)
            put_rect(r, n, max, s->bdrawn[i].box);
}

/* After a render: where what moves lies now (each water from its highest
 * surface point down, for its caustics always move; every body; the
 * droplets), and what changed since the render before, which is that and
 * where they lay then.  Everything else is the art, the same bytes. */
static void note_changes(side_scene_t *s)
{
    rpl_rect_t now[SIDE_DIRTY_MAX];
    int n = 0;
    for (int k = 0; k < s->nwaters; k++) {
        const side_basin_t *b = &s->lv.basin[k];
        const float *surf = s->surf + (size_t)k * s->w;
        double top = b->level;
        for (int x = 0; x < b->x1 - b->x0; x++)
            top = fmin(top, surf[x]);
        add_rect(s, now, &n, SIDE_DIRTY_MAX, b->x0, top, b->x1, b->floor);
    }
    body_rects(s, now, &n, SIDE_DIRTY_MAX);
    int nd = rpl_splash_count(s->splash);
    const rpl_droplet_t *d = rpl_splash_droplets(s->splash);
    if (nd > 0) {
        double x0 = d[0].x, x1 = d[0].x, y0 = d[0].y, y1 = d[0].y, r = d[0].size;
        for (int j = 1; j < nd; j++) {
            x0 = fmin(x0, d[j].x), x1 = fmax(x1, d[j].x);
            y0 = fmin(y0, d[j].y), y1 = fmax(y1, d[j].y);
            r = fmax(r, d[j].size);
        }
        add_rect(s, now, &n, SIDE_DIRTY_MAX, x0 - r, y0 - r, x1 + r, y1 + r);
    }
    if (s->all || s->ndrawn < 0) {
        s->nchanged = -1;
    } else {
        memcpy(s->changed, now, (size_t)n * sizeof *now);
        memcpy(s->changed + n, s->drawn, (size_t)s->ndrawn * sizeof *now);
        s->nchanged = n + s->ndrawn;
    }
    s->all = 0;
    memcpy(s->drawn, now, (size_t)n * sizeof *now);
    s->ndrawn = n;
}

/* Body b as it would be drawn now, its box too. */
static side_drawn_body_t drawn_now(const side_scene_t *s, const side_body_t *b)
{
    side_drawn_body_t d = { b->body, b->kind, b->hw, b->hh, b->density, b->colour,
                            cpBodyGetPosition(b->body), cpBodyGetRotation(b->body),
                            { 0, 0, 0, 0 }, 0 };
    d.box_ok = body_box(s, b, &d.box);
    return d;
}

/* Whether body b would be drawn now as d has it: the same body, moved by
 * not a bit. */
static int same_drawing(const side_drawn_body_t *d, const side_body_t *b)
{
    cpVect p = cpBodyGetPosition(b->body), rot = cpBodyGetRotation(b->body);
    return d->body == b->body && d->kind == b->kind && d->colour == b->colour &&
           memcmp(&d->hw, &b->hw, sizeof d->hw) == 0 && memcmp(&d->hh, &b->hh, sizeof d->hh) == 0 &&
           memcmp(&d->density, &b->density, sizeof d->density) == 0 &&
           memcmp(&d->p, &p, sizeof p) == 0 && memcmp(&d->rot, &rot, sizeof rot) == 0;
}

static rpl_rect_t hull(const rpl_rect_t *a, const rpl_rect_t *b)
{
    int x0 = a->x < b->x ? a->x : b->x, y0 = a->y < b->y ? a->y : b->y;
    int x1 = a->x + a->w > b->x + b->w ? a->x + a->w : b->x + b->w;
    int y1 = a->y + a->h > b->y + b->h ? a->y + a->h : b->y + b->h;
    return (rpl_rect_t){ x0, y0, x1 - x0, y1 - y0 };
}

/*
 * Makes work the art with the bodies drawn in, and sw the waters as the
 * renderer takes them.  Once work holds the bodies as bdrawn lists them,
 * only where a body moved (or came or went) changes: those boxes, where
 * it was and where it is (s->dirty), get the art back, and the renderer
 * is told of them alone; when none moved, nothing is drawn.
 */
static void prepare_frame(side_scene_t *s, rpl_side_water_t *sw)
{
    if (s->work_ready) {
        /* bodies keep their order, the new ones come last: a record
         * that is not the next body's is of a body gone */
        int n = 0, j = 0;
        for (int i = 0; i < s->nbodies; i++) {
            const side_body_t *b = &s->body[i];
            for (; j < s->nbdrawn && s->bdrawn[j].body != b->body; j++)
                if (s->bdrawn[j].box_ok)
                    put_rect(s->dirty, &n, SIDE_DIRTY_MAX, s->bdrawn[j].box);
            side_drawn_body_t was = { 0 };
            if (j < s->nbdrawn) {
                was = s->bdrawn[j++];
                if (same_drawing(&was, b)) {
                    s->bdrawn[i] = was;
                    continue;
                }
            }
            /* where it was and where it is: one box, as it moves little */
            side_drawn_body_t *d = &s->bdrawn[i];
            *d = drawn_now(s, b);
            if (was.box_ok || d->box_ok)
                put_rect(s->dirty, &n, SIDE_DIRTY_MAX,
                         !was.box_ok ? d->box : !d->box_ok ? was.box : hull(&was.box, &d->box));
        }
        for (; j < s->nbdrawn; j++)
            if (s->bdrawn[j].box_ok)
                put_rect(s->dirty, &n, SIDE_DIRTY_MAX, s->bdrawn[j].box);
        for (int k = 0; k < n; k++) {
            const rpl_rect_t *r = &s->dirty[k];
            for (int y = r->y; y < r->y + r->h; y++) {
                size_t o = (size_t)y * (size_t)s->w + (size_t)r->x;
                memcpy(s->work + o, s->art + o, (size_t)r->w * sizeof *s->work);
            }
        }
        /* Every body drawn again, in order, over the art put back there:
         * outside those boxes only bodies that stayed put lie, drawn
         * again the same.  (Drawing just the bodies that reach into the
         * boxes, and only there, would write less, but floating bodies
         * bob all the time: it never pays in water.) */
        for (int i = 0; i < s->nbodies && n > 0; i++)
            side_bodies_draw_one(s, &s->body[i]);
        s->ndirty = n;
    } else {
        memcpy(s->work, s->art, (size_t)s->w * s->h * sizeof *s->work);
        for (int i = 0; i < s->nbodies; i++) {
            side_bodies_draw_one(s, &s->body[i]);
            s->bdrawn[i] = drawn_now(s, &s->body[i]);
        }
        s->ndirty = -1;
    }
    s->nbdrawn = s->nbodies;
    s->work_ready = 1;
    for (int k = 0; k < s->nwaters; k++) {
        const side_basin_t *b = &s->lv.basin[k];
        float *surf = s->surf + (size_t)k * s->w;
        sample_surface(s, k, surf);
        sw[k] = (rpl_side_water_t){ b->x0, b->x1, surf, (float)b->floor,
                                    rpl_water_awake(s->water[k]) };
    }
}

static rpl_status render_frame(side_scene_t *s, rpl_side_renderer_t *rend,
                               const rpl_side_water_t *sw, void *fb, ptrdiff_t pitch)
{
    return rpl_side_render(rend, s->work, (ptrdiff_t)s->w * 4, sw, s->nwaters,
                           rpl_splash_droplets(s->splash), rpl_splash_count(s->splash),
                           (double)s->steps * SIDE_STEP, fb, pitch);
}

int side_scene_render(side_scene_t *s, void *fb, ptrdiff_t pitch)
{
    if (!usable(s))
        return -1;
    if (!fb || pitch < (ptrdiff_t)s->w * rpl_format_bytes(s->format)) {
        snprintf(s->err, sizeof s->err, "no framebuffer, or its pitch %td is under a row",
                 pitch);
        return -1;
    }
    const int part = s->work_ready && s->ndrawn >= 0;
    rpl_side_water_t sw[SIDE_WATERS_MAX];
    prepare_frame(s, sw);
    /* drawing over its last frame (the same fb, nothing else drawn there
     * since), the renderer writes only the water, the droplets and what
     * changed in work: the art put back, the bodies drawn now */
    if (part && !s->all && s->ndirty >= 0) {
        /* refused, the render draws the whole frame: the same bytes */
        if (rpl_side_renderer_changed(s->rend, s->dirty, s->ndirty) != RPL_OK)
            snprintf(s->err, sizeof s->err, "%s", rpl_side_renderer_error(s->rend));
    }
    rpl_status st = render_frame(s, s->rend, sw, fb, pitch);
    if (st != RPL_OK) {
        snprintf(s->err, sizeof s->err, "%s", rpl_side_renderer_error(s->rend));
        s->all = 1; /* fb lacks what work changed: the next render draws it whole */
        return -1;
    }
    note_changes(s);
    return 0;
}

uint32_t *side_scene_picture(side_scene_t *s)
{
    if (!usable(s))
        return NULL;
    uint32_t *px = malloc((size_t)s->w * (size_t)s->h * sizeof *px);
    rpl_side_renderer_t *rend = NULL;
    rpl_status st = px ? rpl_side_renderer_create(NULL, s->w, s->h, RPL_XRGB8888, &rend)
                       : RPL_ENOMEM;
    if (st == RPL_OK && s->kern)
        st = rpl_side_renderer_set_kernels(rend, s->kern);
    rpl_side_water_t sw[SIDE_WATERS_MAX];
    if (st == RPL_OK) {
        prepare_frame(s, sw);
        st = render_frame(s, rend, sw, px, (ptrdiff_t)s->w * 4);
    }
    /* work has the bodies where they are now, which the rectangles of the
     * last render need not list: the next one makes it anew */
    s->work_ready = 0;
    if (st != RPL_OK) {
        snprintf(s->err, sizeof s->err, "cannot draw the picture: %s",
                 rend ? rpl_side_renderer_error(rend) : rpl_strerror(st));
        free(px);
        px = NULL;
    }
    rpl_side_renderer_destroy(rend);
    return px;
}

int side_scene_changed(const side_scene_t *s, rpl_rect_t *rects, int max)
{
    if (!usable(s) || !rects || max < 1)
        return 0;
    if (s->nchanged < 0) {
        rects[0] = (rpl_rect_t){ 0, 0, s->w, s->h };
        return 1;
    }
    int n = 0;
    for (int i = 0; i < s->nchanged; i++)
        put_rect(rects, &n, max, s->changed[i]);
    return n;
}

void side_scene_invalidate(side_scene_t *s)
{
    if (usable(s)) {
        s->all = 1;
        s->work_ready = 0; /* and is drawn whole: work too is made again from the art */
    }
}

const uint32_t *side_scene_palette(const side_scene_t *s)
{
    return usable(s) ? rpl_side_renderer_palette(s->rend) : NULL;
}

rpl_status side_scene_set_kernels(side_scene_t *s, const rpl_kernels_t *k)
{
    if (!usable(s))
        return RPL_EINVAL;
    rpl_status st = rpl_side_renderer_set_kernels(s->rend, k);
    if (st != RPL_OK) {
        snprintf(s->err, sizeof s->err, "%s", rpl_side_renderer_error(s->rend));
        return st;
    }
    for (int i = 0; i < s->nwaters && st == RPL_OK; i++) /* its sums on the same path */
        st = rpl_water_set_kernels(s->water[i], k);
    return st;
}

void side_scene_bake(side_scene_t *s)
{
    if (usable(s))
        rpl_side_renderer_bake(s->rend);
}

const rpl_kernels_t *side_scene_kernels(const side_scene_t *s)
{
    return usable(s) ? rpl_side_renderer_kernels(s->rend) : NULL;
}

const char *side_scene_error(const side_scene_t *s)
{
    return s ? s->err : "no scene";
}

/* ---- looking in ------------------------------------------------------------------------- */

void side_scene_stats(const side_scene_t *s, side_stats_t *st)
{
    if (!st)
        return;
    memset(st, 0, sizeof *st);
    if (!usable(s))
        return;
    st->bodies = s->nbodies;
    for (int i = 0; i < s->nbodies; i++)
        st->floating += s->body[i].submerged > 0;
    st->waters = s->nwaters;
    for (int k = 0; k < s->nwaters; k++)
        st->awake += rpl_water_awake(s->water[k]) != 0;
    st->droplets = rpl_splash_count(s->splash);
    st->steps = s->steps;
}

rpl_water_t *side_scene_water(side_scene_t *s, int i)
{
    return usable(s) && i >= 0 && i < s->nwaters ? s->water[i] : NULL;
}

int side_scene_body(const side_scene_t *s, int i, double *x, double *y, double *angle,
                    double *submerged)
{
    if (!usable(s) || i < 0 || i >= s->nbodies)
        return -1;
    const side_body_t *b = &s->body[i];
    cpVect p = cpBodyGetPosition(b->body);
    if (x)
        *x = p.x;
    if (y)
        *y = p.y;
    if (angle)
        *angle = cpBodyGetAngle(b->body);
    if (submerged) {
        double xy[2 * SIDE_BALL_SIDES], area = 0;
        int n = side_body_outline(b, xy);
        for (int k = 0; k < s->nwaters; k++) {
            rpl_submerged_t sub;
            if (rpl_water_submerged(s->water[k], xy, n, &sub) == RPL_OK)
                area += sub.area;
        }
        *submerged = fmin(1, area / b->area);
    }
    return 0;
}

int side_scene_body_velocity(const side_scene_t *s, int i, double *vx, double *vy)
{
    if (!usable(s) || i < 0 || i >= s->nbodies)
        return -1;
    cpVect v = cpBodyGetVelocity(s->body[i].body);
    if (vx)
        *vx = v.x;
    if (vy)
        *vy = v.y;
    return 0;
}
