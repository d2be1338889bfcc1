/* scene/scene.h - the side scene: bodies of water from the core joined to Chipmunk2D's rigid bodies, splashes and the level; no SDL, no printing. */
#ifndef RPL_SCENE_H
#define RPL_SCENE_H

#include <stddef.h>
#include <stdint.h>

#include "ripple.h"

/*
 * A level seen from the side, w x h pixels (y down): sky and level art,
 * basins of water (each an rpl_water_t), crates and balls that are
 * Chipmunk2D rigid bodies, splashes.  Everything advances in fixed steps
 * of SIDE_STEP seconds through an accumulator (at most SIDE_MAX_STEPS
 * per call), so the same input timed in steps gives the same state at
 * any frame rate.
 */
#define SIDE_STEP ((double)(1.0 / 120.0)) /* a double on the x87 too (dmath.h, RPL_D) */
#define SIDE_MAX_STEPS 12
#define SIDE_BODIES_MAX 400
/* The scene's smallest and largest framebuffer, each side. */
#define SIDE_W_MIN 160
#define SIDE_H_MIN 120
#define SIDE_DIM_MAX 8192

typedef enum side_shape {
    SIDE_CRATE = 0,
    SIDE_BALL = 1
} side_shape;

typedef struct side_config {
    int w, h;                 /* framebuffer size, 160x120 .. 8192x8192 */
    rpl_format format;        /* of the frames rpl_side_render draws */
    rpl_surface_kind surface; /* springs or analytic waves */
    /* the springs' parameters where the defaults won't do (NULL: the
     * demo's; only stiffness, damping, spread, passes and ends are read,
     * as per steps of its `step` seconds: they are rescaled to SIDE_STEP) */
    const rpl_water_params_t *springs;
    uint64_t seed;
    /* the pictures behind (XRGB8888, any size, scaled to fit; NULL: drawn
     * without): the sky, and a tile of the stone the basins are built of */
    const uint32_t *sky;
    int sky_w, sky_h;
    const uint32_t *stone;
    int stone_w, stone_h;
    /* the renderer's kernels (rpl_kernels_get; NULL: RIPPLE_SIMD's or the
     * CPU's best), the same bytes on every path */
    const rpl_kernels_t *kern;
} side_config_t;

typedef struct side_scene side_scene_t;

/* A scene into *out, the library's way (ripple/base.h): *out is set even
 * on failure, whenever memory allows, so that side_scene_error says why;
 * a failed scene answers every other call as NULL would; always destroy
 * it.  RPL_EINVAL for a configuration out of range, RPL_ENOMEM, or what
 * the water or the renderer gave. */
RPL_NODISCARD rpl_status side_scene_create(const side_config_t *cfg, side_scene_t **out);
void side_scene_destroy(side_scene_t *s); /* NULL is fine */

/* Adds real time and takes the whole fixed steps it holds (at most
 * SIDE_MAX_STEPS); returns the steps taken. */
int side_scene_advance(side_scene_t *s, double seconds);
/* One fixed step now. */
void side_scene_step(side_scene_t *s);
uint64_t side_scene_steps(const side_scene_t *s);

/* Drops a body at (x, y) (pixels), of `density` times the water's
 * (0.1..5).  Returns 0, or -1 when outside the level or the bodies are
 * full (the oldest is then removed first when `recycle` is set). */
int side_scene_drop(side_scene_t *s, double x, double y, side_shape shape, double density,
                    int recycle);
/* Removes the i-th body (0 is the oldest; the others keep their order):
 * 0, or -1 past the end. */
int side_scene_remove(side_scene_t *s, int i);
/* Removes every body and droplet, calms the water. */
void side_scene_clear(side_scene_t *s);
/* Springs or waves, the water flattened. */
void side_scene_set_surface(side_scene_t *s, rpl_surface_kind kind);
rpl_surface_kind side_scene_surface(const side_scene_t *s);
/* The scene plays itself: bodies dropped now and then, old ones taken
 * away (on by default; the demo turns it off while the user plays). */
void side_scene_set_autoplay(side_scene_t *s, int on);

/* Draws the frame into fb (w x h of the configured format, rows pitch
 * bytes apart). */
int side_scene_render(side_scene_t *s, void *fb, ptrdiff_t pitch);
/* The scene as it is now drawn into a new w x h XRGB8888 picture of its
 * own (rows w pixels apart), whatever the scene's format, by a renderer
 * made for it, without touching what the last render left; the caller
 * frees it.  NULL: out of memory (side_scene_error says). */
uint32_t *side_scene_picture(side_scene_t *s);
/* What the last render changed against the render before, as at most max
 * rectangles of the frame (where bodies, droplets and water are and were;
 * the rest is the same bytes; more than max are merged): the count, or
 * one rectangle of the whole frame after creation or
 * side_scene_invalidate.  0 for NULL or max < 1. */
int side_scene_changed(const side_scene_t *s, rpl_rect_t *rects, int max);
/* The next render draws, and counts as changing, the whole frame (after
 * another picture was shown in its place). */
void side_scene_invalidate(side_scene_t *s);

/* INDEX8: the frame's palette (256 XRGB8888 entries); NULL otherwise. */
const uint32_t *side_scene_palette(const side_scene_t *s);
/* The kernel path the water is drawn with (rpl_side_renderer_set_kernels:
 * "auto" from creation, every path the same bytes): what the bench counts
 * path by path.  RPL_EINVAL for NULL; the reader NULL for a failed scene. */
RPL_NODISCARD rpl_status side_scene_set_kernels(side_scene_t *s, const rpl_kernels_t *k);
const rpl_kernels_t *side_scene_kernels(const side_scene_t *s);
/* The renderer's caustics made whole now (rpl_side_renderer_bake), for a
 * count of frames that is not one of the first 3.2 s'. */
void side_scene_bake(side_scene_t *s);
/* Why the making, the last render or a refused step of the water failed
 * ("" if none; a message for NULL). */
const char *side_scene_error(const side_scene_t *s);

/* Called for every splash (a body going in or coming out fast enough),
 * with where and how fast (pixels, pixels per second): for the sound.
 * NULL turns it off. */
typedef void (*side_splash_fn)(void *user, double x, double y, double speed);
void side_scene_set_splash_hook(side_scene_t *s, side_splash_fn fn, void *user);

typedef struct side_stats {
    int bodies;        /* rigid bodies in the level */
    int floating;      /* of which touching water */
    int waters;        /* bodies of water */
    int awake;         /* of which awake */
    int droplets;      /* splash droplets in the air */
    uint64_t steps;
} side_stats_t;
void side_scene_stats(const side_scene_t *s, side_stats_t *st);

/* The i-th body of water (0 .. waters-1), NULL past the end: for tests,
 * the bench and the overlay. */
rpl_water_t *side_scene_water(side_scene_t *s, int i);

/* The i-th rigid body's centre, angle (radians) and submerged area
 * fraction (0..1); 0 on success, -1 past the end.  For tests. */
int side_scene_body(const side_scene_t *s, int i, double *x, double *y, double *angle,
                    double *submerged);
/* Its velocity (pixels per second, y down); 0 or -1 as above. */
int side_scene_body_velocity(const side_scene_t *s, int i, double *vx, double *vy);
/* The fastest anything comes up through the water (pixels per second): a
 * body let go deep down rises no faster, so it cannot leap out of the
 * pool higher than about an eighth of the screen. */
double side_scene_rise_max(const side_scene_t *s);
/* Drops a box of w x h pixels and density (times the water's) at (x, y):
 * what the tests float. */
int side_scene_drop_box(side_scene_t *s, double x, double y, double w, double h, double density);

/* ---- as the front ends play it (scene/play.c) -------------------------- */

/* What a click drops: SIDE_KIND_CRATE and SIDE_KIND_BALL (the left
 * button, K chooses), SIDE_KIND_IRON (the right button). */
enum { SIDE_KIND_CRATE = 0, SIDE_KIND_BALL = 1, SIDE_KIND_IRON = 2, SIDE_KINDS = 3 };
/* Its name ("crate", "ball", "iron ball"; "" for another number). */
const char *side_kind_name(int kind);
/* Drops one at (x, y), the oldest body taken away when they are full:
 * side_scene_drop's 0 or -1 (-1 too for another number). */
int side_scene_drop_kind(side_scene_t *s, double x, double y, int kind);

/*
 * The timedemo's side scenes (side-3, side-waves-3: play/play.h's table):
 * a scene made from the front end's seed and size with autoplay off; at
 * each frame (0 the first of a round) side_scene_bench_input, which drops
 * a body every SIDE_BENCH_DROP_EVERY frames, the oldest taken away first
 * once SIDE_BENCH_BODIES are in the level, then side_scene_bench_step,
 * the frame's 1/SIDE_BENCH_HZ s of steps.  side_scene_bench_crc sums the
 * state up: the number of bodies, each water's surface at every whole
 * pixel column of its basin (1/16 pixel), each body's centre (1/16 pixel)
 * and angle (1/1024 radian), oldest first, CRC-32 of those as 32-bit
 * little-endian integers.  What changes the play or the sum gives the
 * scenes a new version in the table.
 */
#define SIDE_BENCH_DROP_EVERY 15
#define SIDE_BENCH_BODIES 24
#define SIDE_BENCH_HZ 60
void side_scene_bench_input(side_scene_t *s, long frame);
void side_scene_bench_step(side_scene_t *s);
/* The scene's steps in one frame of 1/SIDE_BENCH_HZ s. */
int side_scene_bench_steps(void);
uint32_t side_scene_bench_crc(side_scene_t *s);
/* From version 3 on the scenes' CRC goes on over the picture of that
 * state: side_scene_picture's pixels as 32-bit little-endian integers,
 * row after row (out of memory for it: the state's CRC, inverted). */
uint32_t side_scene_bench_crc_picture(side_scene_t *s);

#endif
