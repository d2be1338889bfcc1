/* ripple/side.h - libripple: side-view water, splashes, side renderer (part of ripple.h). */
#ifndef RIPPLE_SIDE_H
#define RIPPLE_SIDE_H

#include <stddef.h>
#include <stdint.h>

#include "base.h"
#include "render.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- side-view water for 2D games ------------------------------------- */

/*
 * A body of water seen from the side, as a 2D game shows it: a rectangle
 * [x0, x1] x [level, bottom] of world units (the demo's are pixels; y
 * grows downwards, as on screen) whose top is a moving surface.  Each body
 * is its own rpl_water_t; a scene holds as many as it likes.  Nothing here
 * knows about a physics engine: the coupling below answers geometry
 * (surface height, slope and velocity at x, the part of a polygon under
 * the surface) and takes disturbances, so a game on any engine can use it.
 *
 * Two surface models:
 *   RPL_SURFACE_SPRINGS  `springs` springs spaced evenly from x0 to x1, each
 *                        a displacement y (down positive) and a velocity v.
 *                        One step, all in units per step:
 *                          v += -stiffness * y - damping * v;  y += v;
 *                        then `passes` spread passes, each computing for
 *                        every spring the deltas to its neighbours,
 *                          l_i = spread * (y_i - y_{i-1}),
 *                          r_i = spread * (y_i - y_{i+1}),
 *                        from the positions before the pass, and then adding
 *                        them to the neighbours' velocities and positions
 *                        (v_{i-1} += l_i, y_{i-1} += l_i, and the same for
 *                        r_i and i+1): velocities first, then positions.
 *                        The surface between springs is the Catmull-Rom
 *                        spline through them (beyond an end the springs
 *                        are mirrored for REFLECT, else continued in a
 *                        straight line).
 *   RPL_SURFACE_WAVES    analytic waves: each impact starts a ring at x0'
 *                        whose height at distance s and age t is
 *                          A (1 - t/life)^2 sin(2 pi f (t - s / c)),
 *                        c = f * wavelength, for s <= c t and t < life
 *                        (0 elsewhere); the surface is the sum of the rings.
 *                        The sine is read from a table, within 4.71e-6 of
 *                        the true one (the same bits on every platform),
 *                        and a ring fainter than sleep_epsilon
 *                        (|A| (1 - t/life)^2 below it) is left out.
 *                        With FREE or REFLECT ends a ring also sends the
 *                        same wave (amplitude, birth) from its images in
 *                        the walls, so that waves bounce off them: from
 *                        2 x0 - x0' and 2 x1 - x0' (reflected once), and
 *                        from 2 x1 - (2 x0 - x0') and 2 x0 - (2 x1 - x0')
 *                        (off both walls), in that order after the ring
 *                        itself; later reflections are left out.  ABSORB:
 *                        no images, waves leave.
 *
 * Time: a body advances in fixed steps of `step` seconds.  rpl_water_advance
 * adds real time to an accumulator and takes as many whole steps as it
 * holds, at most `max_steps` per call (the rest of the time is dropped,
 * so a stall does not make the water race), so what happens depends on
 * the steps taken and not on the frame rate.
 *
 * Sleeping: after `sleep_steps` steps in a row with every |y| and |v|
 * below `sleep_epsilon` (springs) or no ring alive (waves), the surface is
 * set exactly flat and the body sleeps: it no longer steps, and
 * rpl_water_awake says 0 so a renderer may skip it, until a disturbance,
 * an impact or a change of parameters wakes it.
 */
typedef enum rpl_surface_kind {
    RPL_SURFACE_SPRINGS = 0,
    RPL_SURFACE_WAVES = 1
} rpl_surface_kind;

/* What the end springs do: FREE ends have one neighbour and move like the
 * others; REFLECT ends are held as if mirrored (a wave bounces back
 * upright); ABSORB ends let a wave leave (a damping band near the ends
 * takes it out with little reflection).  Analytic waves: FREE and REFLECT
 * both bounce off the walls (image rings, above), ABSORB lets them go. */
typedef enum rpl_water_ends {
    RPL_ENDS_FREE = 0,
    RPL_ENDS_REFLECT = 1,
    RPL_ENDS_ABSORB = 2
} rpl_water_ends;

#define RPL_SPRINGS_MIN 4
#define RPL_SPRINGS_MAX 4096
#define RPL_PASSES_MAX 32
#define RPL_WAVES_MAX 256    /* rings alive at once (the oldest goes first); a
                                disturbance within a quarter wavelength of a ring
                                started at most 0.1 s before adds to that ring
                                instead of starting one (a splash's droplets
                                landing together make one ring, not dozens) */

/* The shortest step: a ring's life (at most 600 s) is then at most 6e8
 * steps, which the step count holds exactly (a shorter step once let the
 * count overflow and the rings die at once). */
#define RPL_WATER_STEP_MIN 1e-6

typedef struct rpl_water_params {
    rpl_surface_kind kind;
    double x0, x1;          /* left and right edge, x0 < x1 */
    double level;           /* rest height of the surface (y) */
    double bottom;          /* the floor, bottom > level */
    rpl_water_ends ends;
    double step;            /* seconds per step, [RPL_WATER_STEP_MIN, 0.1] */
    int max_steps;          /* steps per advance at most, 1..1000 */
    /* springs */
    int springs;            /* RPL_SPRINGS_MIN..RPL_SPRINGS_MAX */
    double stiffness;       /* per step, [0, 1] */
    double damping;         /* per step, [0, 1] */
    double spread;          /* per pass, [0, rpl_water_spread_limit()) */
    int passes;             /* 1..RPL_PASSES_MAX */
    /* waves */
    double frequency;       /* Hz, (0, 100] */
    double wavelength;      /* world units, (0, 1e6] */
    double life;            /* seconds, (0, 600] */
    /* impacts (both models): an impact at speed s moves the surface by a
     * force from force_min (at speed 0) to force_max (at speed_max and
     * above), linear between; in units per step of spring velocity, or
     * the amplitude of a ring in world units */
    double force_min, force_max, speed_max;
    /* sleeping */
    double sleep_epsilon;   /* >= 0; waves: fainter rings are left out */
    int sleep_steps;        /* >= 1 */
    /* the water as a fluid, for rpl_water_forces */
    double density;         /* mass per square world unit, > 0 */
    double drag;            /* linear drag, per second, >= 0 (see rpl_water_forces) */
    double angular_drag;    /* per second, >= 0 */
    double max_dv;          /* the most one step's force may change a body's
                               velocity, world units per second, > 0 */
} rpl_water_params_t;

/* The demo's water: springs k = 0.02, damping 0.04, spread 0.05 and 8
 * passes at 60 steps a second, reflecting ends, over [0, 640] x [300, 480]. */
void rpl_water_defaults(rpl_water_params_t *p);

/* The least spread at which the spring surface becomes unstable with
 * these stiffness, damping and passes (the parameters' other fields are
 * not read); see the derivation where it is computed (just above 1/2 for
 * an even number of passes, 0.3362 for one pass with the defaults' k and
 * damping; at most 2, which stiffness = damping = 1 give).  0 for NULL or
 * those three out of range. */
double rpl_water_spread_limit(const rpl_water_params_t *p);

typedef struct rpl_water rpl_water_t;

/* A flat, sleeping body into *out (see the constructor rule in
 * ripple/base.h).  Every parameter must be finite and in its range, else
 * RPL_EINVAL with a one-line reason in rpl_water_error (so a failed create
 * is also the way to check parameters); RPL_ENOMEM. */
RPL_NODISCARD rpl_status rpl_water_create(const rpl_water_params_t *p, rpl_water_t **out);
void rpl_water_destroy(rpl_water_t *w); /* NULL is fine */
/* Detail of the last failure ("" if none). */
const char *rpl_water_error(const rpl_water_t *w);
/* The parameters in use (NULL for NULL). */
const rpl_water_params_t *rpl_water_params(const rpl_water_t *w);
/* New parameters, the surface kept where it can be (resampled when the
 * spring count changes; the rings are dropped when the model changes).
 * On failure nothing changes (the reason in rpl_water_error). */
RPL_NODISCARD rpl_status rpl_water_set_params(rpl_water_t *w, const rpl_water_params_t *p);
/* Flat and asleep, the accumulator and time emptied. */
void rpl_water_reset(rpl_water_t *w);

/* Adds `seconds` (>= 0, finite) to the accumulator and takes the whole
 * steps it holds, at most max_steps.  Returns the steps taken; -1 for a bad
 * argument. */
int rpl_water_advance(rpl_water_t *w, double seconds);
/* One step now, outside the accumulator (asleep: nothing, and the step
 * is not counted; advance likewise drains the accumulator without
 * stepping a sleeping body, and returns 0). */
void rpl_water_step(rpl_water_t *w);
uint64_t rpl_water_steps(const rpl_water_t *w);
/* Seconds of simulated time (steps * step). */
double rpl_water_time(const rpl_water_t *w);
int rpl_water_awake(const rpl_water_t *w);
/* Sum of y^2 + v^2 over the springs, or of the rings' amplitudes squared
 * now; 0 when flat and still. */
double rpl_water_energy(const rpl_water_t *w);

/* The surface at x: its y (level + displacement), its slope dy/dx and its
 * vertical velocity in world units per second.  x is clamped into
 * [x0, x1].  NULL: 0. */
double rpl_water_height(const rpl_water_t *w, double x);
double rpl_water_slope(const rpl_water_t *w, double x);
double rpl_water_velocity(const rpl_water_t *w, double x);
/* The instruction set the analytic waves are summed with: the kernel
 * path's ("auto", RIPPLE_SIMD's if set, from creation; another table from
 * rpl_kernels_get for a count of one path), the same bits on every one.
 * RPL_EINVAL for NULL. */
RPL_NODISCARD rpl_status rpl_water_set_kernels(rpl_water_t *w, const rpl_kernels_t *k);
/* The surface's y at n points x0 + i*dx (n >= 1), into out: the cheap way
 * to draw it (one spline segment is found per run, not per point). */
RPL_NODISCARD rpl_status rpl_water_sample(const rpl_water_t *w, double x0, double dx, int n,
                                          float *out);
/* The springs: their count, and their displacements and velocities
 * (NULL for the waves model). */
int rpl_water_springs(const rpl_water_t *w);
const double *rpl_water_spring_y(const rpl_water_t *w);
const double *rpl_water_spring_v(const rpl_water_t *w);
/* Rings alive (waves model). */
int rpl_water_rings(const rpl_water_t *w);

/* Adds dv (units per step, finite) to the surface's velocity at x, split
 * between the two nearest springs by distance (waves: starts a ring of
 * amplitude dv).  Wakes the body.  x outside [x0, x1]: RPL_EINVAL.
 * The surface is bounded, however it is disturbed: with depth = bottom -
 * level, a spring's displacement stays within RPL_WATER_REACH * depth of
 * the level (one that reaches it stops there) and its velocity within
 * depth per step, and a ring's amplitude within RPL_WATER_REACH * depth.
 * An ordinary scene's waves stay well inside; the bounds keep the energy
 * finite when something pushes the water without end (hundreds of bodies
 * bobbing on a short surface). */
#define RPL_WATER_REACH 2.0
RPL_NODISCARD rpl_status rpl_water_disturb(rpl_water_t *w, double x, double dv);
/* Something crossing the surface at x with vertical speed vy (world units
 * per second, + down): disturbs by the force the speed maps to (see
 * force_min..force_max), in the direction of vy.  Returns the force used
 * through *force (may be NULL). */
RPL_NODISCARD rpl_status rpl_water_impact(rpl_water_t *w, double x, double vy, double *force);

/* The part of a convex polygon (n points xy[2i], xy[2i+1], 3..64, either
 * winding, |coordinates| <= 1e9) under the surface, above the floor and
 * within [x0, x1], with the surface taken piecewise linear between the
 * samples at every spring (or, for waves, evenly at most 4 units apart,
 * at most 65536 intervals across: x0 + k (x1 - x0) / m, k = 0..m, m =
 * min(ceil((x1 - x0) / 4), 65536)): its area, centroid and extent across,
 * exact for that surface; all 0 when it is dry.  A simple non-convex
 * polygon is handled exactly too (even-odd), a self-crossing one
 * approximately.  For waves the heights at those samples are kept in the
 * body until its surface changes (they are what rpl_water_height says
 * there, bit for bit), so rpl_water_submerged, rpl_water_forces and
 * rpl_water_crossing write to the body (they take it non-const): call
 * them on one body from one thread at a time. */
typedef struct rpl_submerged {
    double area;
    double cx, cy;
    double x_min, x_max;   /* the submerged part's extent across */
} rpl_submerged_t;
RPL_NODISCARD rpl_status rpl_water_submerged(rpl_water_t *w, const double *xy, int n,
                                             rpl_submerged_t *out);

/* A body for rpl_water_forces: its convex outline in world space, centre
 * of mass, velocity (world units per second), angular velocity (radians
 * per second), mass and moment of inertia. */
typedef struct rpl_body {
    const double *xy;
    int n;
    double cx, cy;
    double vx, vy;
    double w;
    double mass, moment;
} rpl_body_t;

/* What the water does to a body over one step of dt seconds with gravity
 * g (world units per second^2, + down): buoyancy density * g * area at the
 * submerged centroid, upward; drag against the body's velocity relative to
 * the surface's own velocity there; angular drag; the total capped so that
 * it changes the velocity by at most max_dv (and the spin likewise).
 * Force (fx, fy) applied at (px, py), plus torque.
 * In detail, with A the submerged area, (px, py) its centroid, c = (cx,
 * cy) the centre of mass, r = p - c and v_rel = v + w x r - (0, rpl_water_velocity(px)) (w x r = (-w ry,
 * w rx), Chipmunk's sense):
 *   drag      -density * drag * A * v_rel, at most what stops v_rel in
 *             one step (so drag is a rate: a body as dense as the water,
 *             fully under, loses its relative speed at `drag` per second);
 *   angular   -density * angular_drag * J * w, J the submerged area's
 *             polar second moment about its centroid (the same rate for
 *             spin), at most what stops the spin in one step;
 *   caps      |F| dt / mass <= max_dv, and the whole torque about c,
 *             (r x F) + torque, at most max_dv * sqrt(mass * moment) / dt
 *             (max_dv over the radius of gyration, as a spin).
 * `torque` is the pure torque to add to F applied at (px, py).  A dry body
 * gets all zeros.  The body's fields must be finite (positions, velocities
 * and g within 1e9), mass and moment > 0, dt > 0: RPL_EINVAL otherwise. */
typedef struct rpl_water_force {
    double fx, fy;
    double px, py;
    double torque;
    rpl_submerged_t sub;
} rpl_water_force_t;
RPL_NODISCARD rpl_status rpl_water_forces(rpl_water_t *w, const rpl_body_t *b, double g, double dt,
                                          rpl_water_force_t *out);

/* Sweep detection: did a point moving from (ax, ay) to (bx, by) during the
 * last step cross the surface?  Returns 1 going in (down), -1 coming out,
 * 0 neither, and where through *x (may be NULL).  Checks the whole path,
 * so a fast body is caught however far it moved.  The first crossing
 * along the path counts, over [x0, x1] only, against the same piecewise
 * linear surface as rpl_water_submerged; a point on the surface is out.
 * *x is written only on a crossing; NULL or non-finite arguments give 0. */
int rpl_water_crossing(rpl_water_t *w, double ax, double ay, double bx, double by,
                       double *x);

/*
 * Splashes: droplets thrown up where something hits the water, falling
 * under gravity, and making a tiny ripple where they land.  The number of
 * droplets, their speed and their life grow with the impact's speed s:
 * 3 + 37 min(s / 1000, 1) droplets (3 to 40), each at (40 + 0.5 min(s,
 * 2000)) times a random 0.6..1 within 0.6 radians of straight up, living
 * (0.4 + 0.8 min(s / 1000, 1)) s times a random 0.85..1, of radius 1..3,
 * from x spread by up to 1 + 4 min(s / 1000, 1) either side.
 * A step is semi-implicit Euler (vy += g dt, then x += vx dt, y += vy dt).
 * A falling droplet (vy > 0 after the step) that is then inside a body's
 * [x0, x1] at or under its surface (having been above its floor) lands:
 * it disturbs that body at its x by 0.05 * force_max * size / 3 *
 * min(1, |v| / speed_max), downwards, and is gone (NULL entries in the
 * list of bodies are skipped).  Bad arguments give -1 from emit and step.
 */
#define RPL_SPLASH_MAX 4096
typedef struct rpl_droplet {
    float x, y, vx, vy;
    float age, life;  /* seconds */
    float size;       /* radius, world units */
} rpl_droplet_t;
typedef struct rpl_splash rpl_splash_t;

/* Room for `capacity` droplets (1..RPL_SPLASH_MAX), randomness from seed,
 * into *out (see the constructor rule in ripple/base.h). */
RPL_NODISCARD rpl_status rpl_splash_create(int capacity, uint64_t seed, rpl_splash_t **out);
void rpl_splash_destroy(rpl_splash_t *s); /* NULL is fine */
/* Detail of the last failure ("" if none). */
const char *rpl_splash_error(const rpl_splash_t *s);
/* Throws droplets at (x, y) for an impact at speed (world units per
 * second, >= 0); returns how many were thrown (the oldest make room). */
int rpl_splash_emit(rpl_splash_t *s, double x, double y, double speed);
/* Moves the droplets dt seconds under gravity g; a droplet falling into
 * one of the n bodies of water disturbs it where it lands and is gone;
 * an old one fades out.  Returns the landings. */
int rpl_splash_step(rpl_splash_t *s, double dt, double g, rpl_water_t *const *waters, int n);
int rpl_splash_count(const rpl_splash_t *s);
const rpl_droplet_t *rpl_splash_droplets(const rpl_splash_t *s);
void rpl_splash_clear(rpl_splash_t *s);

/*
 * Drawing a side scene.  A side renderer draws into a framebuffer of
 * any rpl_format: the scene (an XRGB8888 picture the caller composes: sky,
 * level art and the bodies in it) with the water over it, each body of
 * water from its surface line down: the scene behind refracted through
 * the surface's slope, a colour gradient with depth, animated caustics, a
 * bright foam edge along the surface, darker water where it is steep; the
 * droplets on top.  For RPL_INDEX8 it makes a palette for the scene (from
 * its art and the water's colours) at creation.
 */
typedef struct rpl_side_renderer rpl_side_renderer_t;

/* One body of water as the renderer sees it: columns x0..x1-1 of the
 * framebuffer, the surface's y at each (x1 - x0 values, fractional), the
 * floor's y, whether it is awake (asleep bodies are drawn flat). */
typedef struct rpl_side_water {
    int x0, x1;
    const float *surface;
    float bottom;
    int awake;
} rpl_side_water_t;

/* art: w x h XRGB8888 (the level without water, for the INDEX8 palette;
 * may be NULL for the other formats).  w, h in [RPL_DIM_MIN, RPL_DIM_MAX].
 * Into *out (see the constructor rule in ripple/base.h). */
RPL_NODISCARD rpl_status rpl_side_renderer_create(const uint32_t *art, int w, int h,
                                                  rpl_format format, rpl_side_renderer_t **out);
void rpl_side_renderer_destroy(rpl_side_renderer_t *r); /* NULL is fine */
const char *rpl_side_renderer_error(const rpl_side_renderer_t *r);
/* INDEX8: the 256 palette entries (NULL for other formats). */
const uint32_t *rpl_side_renderer_palette(const rpl_side_renderer_t *r);
/* The kernel path the water is drawn with: "auto" (RIPPLE_SIMD's, if set)
 * from creation; another table (rpl_kernels_get), whose kernels draw the
 * same bytes, for a count or a comparison of one path (NULL: RPL_EINVAL).
 * The reader gives NULL for NULL or a failed renderer. */
RPL_NODISCARD rpl_status rpl_side_renderer_set_kernels(rpl_side_renderer_t *r,
                                                       const rpl_kernels_t *k);
const rpl_kernels_t *rpl_side_renderer_kernels(const rpl_side_renderer_t *r);
/* The caustics are a looping animation (64 frames, 3.2 s) whose frames a
 * render makes as it first shows them, one a twentieth of a second for the
 * first 3.2 s of play.  This makes every one of them now, for a program
 * that would rather pay at load time than in those frames (about 0.3 ms
 * each on a desktop, a few on a Pentium II); rendering gives the same bytes
 * either way.  NULL or a failed renderer: nothing. */
void rpl_side_renderer_bake(rpl_side_renderer_t *r);
/* Draws one frame: scene is w x h XRGB8888 (rows spitch bytes apart), fb
 * w x h of the renderer's format (rows pitch bytes apart, not overlapping
 * the scene); time in seconds animates the caustics.  Columns of a body
 * outside the frame are clipped (its surface is read only at the columns
 * drawn and four beside them).  A bad argument (NULL, a pitch below a row
 * or not a multiple of the pixel size, nwaters or ndrops < 0, x1 < x0, a
 * value read that is not finite): RPL_EINVAL, fb untouched, the detail in
 * rpl_side_renderer_error. */
RPL_NODISCARD rpl_status rpl_side_render(rpl_side_renderer_t *r, const uint32_t *scene,
                                         ptrdiff_t spitch, const rpl_side_water_t *waters,
                                         int nwaters, const rpl_droplet_t *drops, int ndrops,
                                         double time, void *fb, ptrdiff_t pitch);

/* Before drawing into the framebuffer of the last rpl_side_render again
 * (the same fb, pitch, scene and spitch, fb left as that render wrote
 * it): the rectangles of the scene that changed since (n of them, 0:
 * none; clipped to the frame).  The next render then writes only what can
 * differ (the water and droplets of both frames, and those rectangles):
 * the same bytes as a whole frame, for much less work.  It holds for the
 * next render only; without it, or with more than 64 rectangles, a render
 * draws the whole frame.  RPL_EINVAL for n < 0 or NULL rects with n > 0. */
RPL_NODISCARD rpl_status rpl_side_renderer_changed(rpl_side_renderer_t *r, const rpl_rect_t *rects,
                                                   int n);

/* Fills a convex polygon (n points, 3..64) into an XRGB8888 picture,
 * clipped, with a colour, an outline of `edge` (0: none) one pixel wide,
 * and `shade` (0..255) of darkening from its top to its bottom; a circle
 * likewise.  For a scene's bodies. */
void rpl_draw_polygon(uint32_t *px, ptrdiff_t pitch, int w, int h, const double *xy, int n,
                      uint32_t fill, uint32_t edge, int shade);
void rpl_draw_circle(uint32_t *px, ptrdiff_t pitch, int w, int h, double cx, double cy,
                     double r, uint32_t fill, uint32_t edge, int shade);

#ifdef __cplusplus
}
#endif

#endif
