/* play/play.h - the pool's play, written once for every front end: the field and its renderer, the show or the autopilot and rain, stones by size, the picture and walls behind the water, the wave keys, the timedemo's pool scenes. */
#ifndef PLAY_PLAY_H
#define PLAY_PLAY_H

#include <stddef.h>
#include <stdint.h>

#include "ripple.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A front end (the window demo, the web page, and those to come) opens a
 * window or a canvas, reads its input, keeps time and presents frames;
 * everything the pool does between those is here, without SDL, so every
 * front end plays the same water from the same seed.  The loop stays in
 * the front end: it decides how many steps of 1/PLAY_STEP_HZ s are due
 * (at most PLAY_MAX_CATCHUP a frame) and whether the user has left the
 * water alone for PLAY_IDLE_MS, and calls play_step that many times.
 *
 * Errors take the library's form (ripple/base.h): a status, and
 * play_error's line saying why.  Nothing here prints.
 */
typedef struct play play_t;

/* ---- the numbers of the play, the same in every front end --------------- */

#define PLAY_STEP_HZ 60      /* steps a second of the water's time */
#define PLAY_MAX_CATCHUP 4   /* most steps a front end takes in one frame */
#define PLAY_IDLE_MS 6000    /* the show or the autopilot waits this long after input */
#define PLAY_STRENGTH_MAX RPL_STRENGTH_MAX

/* The user's stones (their weight; their radius in cells, PLAY_STONE_UNITS
 * size units at the start), the rain (stones a thousand steps, weights;
 * rain and stones are sized for a 240-line field and scale with it) and
 * the wave model's settings when nothing sets them (speed, viscosity,
 * spacing, dt, attenuation: slower, thicker water than the classic
 * rule's, k 0.16 against 1/2, u t 0.02).  The timedemo's busy scene is
 * played with them in every front end: a change here changes its CRC, in
 * all alike. */
#define PLAY_STONE_WEIGHT 300
#define PLAY_STONE_MIN 1
#define PLAY_STONE_MAX 40
#define PLAY_STONE_UNITS 4
#define PLAY_RAIN_PER_KILOSTEP 120
#define PLAY_RAIN_WEIGHT_MIN 24
#define PLAY_RAIN_WEIGHT_MAX 80
#define PLAY_WAVE_DEFAULTS { 24.0, 1.2, 1.0, 1.0 / 60, 0.985 }

/* The smooth stones (PLAY_STONES_SMOOTH, below), chosen with
 * rpl_look_measure so that a person's play and the autopilot with the
 * rain bend the picture by 2 px or more where the water moves and
 * speckle under 5% (docs/look.md): the refraction strength they start
 * with (sixteenths; the classic stones' is RPL_STRENGTH_ONE); a user's
 * stone of size s is a bump of radius PLAY_BUMP_SPREAD s weighing
 * PLAY_BUMP_WEIGHT a cell of that radius (so its slopes are alike at
 * every size, and its weight grows with the field as the size does), a
 * drag's beads of half that size PLAY_TRAIL_WEIGHT a cell, laid every
 * PLAY_TRAIL_SPACING quarters of their radius along the path; the rain's
 * radii are thousandths of the field's shorter side and its weights
 * those on a field 480 cells high, in proportion to the shorter side on
 * others; on the wave model, which speckles more for the same slopes,
 * every weight is PLAY_BUMP_WAVE thousandths of that. */
#define PLAY_STRENGTH_SMOOTH 4
#define PLAY_BUMP_SPREAD 3
#define PLAY_BUMP_WEIGHT 18
#define PLAY_TRAIL_WEIGHT 9
#define PLAY_TRAIL_SPACING 2
#define PLAY_BUMP_WAVE 700
#define PLAY_RAIN_BUMP_RMIN 55
#define PLAY_RAIN_BUMP_RMAX 80
#define PLAY_RAIN_BUMP_WMIN 250
#define PLAY_RAIN_BUMP_WMAX 430

/* A w x h field's size unit: its shorter side / 240, at least 1 cell. */
int play_unit(int w, int h);
/* The rain the play starts with on a w x h field: of the classic stones,
 * radii of 1 to 2 units; of the smooth (on the classic water's weights). */
rpl_rain_t play_rain(int w, int h);
rpl_rain_t play_rain_smooth(int w, int h);
/* A stone radius r held to PLAY_STONE_MIN..PLAY_STONE_MAX. */
int play_stone_size(int r);
/* The wave settings a step up (+1) or down (-1) as the wave keys change
 * them: the speed a tenth faster or slower; the viscosity half as much
 * again (from 0: u*dt 0.001) or a third less (0 at u*dt 0.001 and below).
 * Whether the core takes the result is rpl_wave_info's to say. */
rpl_wave_params_t play_wave_nudge(rpl_wave_params_t p, int speed, int viscosity);

/* Draws the walls of mask (w*h bytes, nonzero solid) into the XRGB8888
 * picture px (w*h words) as grey-brown stone with a bevel lit from the
 * top left, as the water's shading is, and a soft shadow on the water
 * below and right of a wall; open cells are left as they are. */
void play_walls_paint(uint32_t *px, const uint8_t *mask, int w, int h);
/* The same for the pixels [x0, x1) x [y0, y1) only (within the picture):
 * each reads the mask at its own cell and its four neighbours, so after
 * the walls changed in a box, the box grown by a cell each way is all
 * that needs painting again, on the bare picture. */
void play_walls_paint_rect(uint32_t *px, const uint8_t *mask, int w, int h, int x0, int y0, int x1,
                           int y1);

/* ---- the pool --------------------------------------------------------- */

/* The backdrop's red and blue swapped, so that the frame's XRGB8888
 * words lie in little-endian memory as R, G, B, A bytes (a canvas's
 * ImageData). */
#define PLAY_SWAP_RB 1u

typedef struct play_config {
    int w, h;                     /* the field, RPL_DIM_MIN..RPL_DIM_MAX */
    uint64_t seed;                /* the field's, the autopilot's and the show's */
    rpl_format format;            /* the frame's pixels: XRGB8888, RGB565, INDEX8 */
    unsigned flags;               /* PLAY_SWAP_RB, or 0 */
    const rpl_kernels_t *kernels; /* NULL: the best this machine has */
    int rain;      /* rain at the start; a show's weather is the user's when it changes */
    int autopilot; /* the show (or the autopilot) plays while the user is idle */
    /* Something went wrong in play that does not stop it (a show's tick
     * failed, the walls could not be drawn): a line for the user.  NULL:
     * play_error keeps it alone. */
    void (*note)(void *user, const char *msg);
    /* The show asks for a picture by name ("default": the one the front
     * end started with): the front end finds and decodes it and hands it
     * over with play_set_picture (from inside the hook is fine), returning
     * 0; nonzero keeps the picture shown (the hook says why itself).
     * NULL: a show's pictures are not shown. */
    int (*picture)(void *user, const char *name);
    void *user; /* for the hooks */
} play_config_t;

/* A pool of cfg's size playing from its seed: the field calm, the rain
 * and the autopilot as cfg says, the light on at strength 1:1, the
 * user's stones PLAY_STONE_UNITS units, no picture until
 * play_set_picture, no show until play_set_show.  RPL_EINVAL for a size
 * or format out of range, RPL_ENOMEM; *out is a handle whenever memory
 * allows, even on failure, for play_error; always play_destroy it. */
RPL_NODISCARD rpl_status play_create(const play_config_t *cfg, play_t **out);
void play_destroy(play_t *p); /* NULL is fine */
/* The last failure in one line ("" if none; "out of memory" for NULL). */
const char *play_error(const play_t *p);

/* The field and the renderer, for what stays in front ends (its threads,
 * a snapshot, walls and edges from files, the drop hook for sound,
 * statistics, saving); the pool repaints its backdrop when the walls
 * change, whoever changed them. */
rpl_sim_t *play_sim(const play_t *p);
rpl_renderer_t *play_renderer(const play_t *p);

/* ---- the picture behind the water ------------------------------------ */

/* The picture (XRGB8888, w x h, rows pitch bytes apart) fitted to the
 * field (cover, centre cropped), with the walls drawn in, prepared for
 * the frame's format: shown from the next draw.  On failure the old one
 * stays (RPL_EINVAL, RPL_ENOMEM; play_error). */
RPL_NODISCARD rpl_status play_set_picture(play_t *p, const uint32_t *px, int w, int h,
                                         ptrdiff_t pitch);
/* Whether play_set_picture would take it, without showing it (a show's
 * pictures are checked before it plays): RPL_OK, or the status it would
 * fail with. */
RPL_NODISCARD rpl_status play_check_picture(const play_t *p, const uint32_t *px, int w, int h,
                                           ptrdiff_t pitch);
/* Draws the walls in again if they or the picture changed since the
 * backdrop was made (once per change, nothing otherwise): play_step and
 * play_draw call it; a front end that changes the walls between steps
 * may call it too. */
void play_update(play_t *p);
/* Pixels of the backdrop made again for the walls since play_create: the
 * whole field for each backdrop made anew, the box around the changed
 * walls for each updated in place (INDEX8 may still map every pixel
 * again when the palette changes, see rpl_backdrop_update).  What moving
 * walls cost, for tests and benchmarks; 0 for NULL. */
uint64_t play_repainted(const play_t *p);
/* The backdrop shown (NULL before the first picture): its palette in
 * INDEX8. */
const rpl_backdrop_t *play_backdrop(const play_t *p);
/* The water refracting the backdrop into dst (the frame's format, rows
 * pitch bytes apart), only the tiles that changed since the last draw
 * into dst; RPL_EINVAL before the first picture. */
RPL_NODISCARD rpl_status play_draw(play_t *p, void *dst, ptrdiff_t pitch);

/* ---- the show ------------------------------------------------------------ */

/* The show that plays from now on while the user is idle (NULL: none, the
 * autopilot plays), taken over by the pool (freed by it, even on
 * failure); it starts at its beginning with the picture "default", the
 * rain left to it.  RPL_ENOMEM keeps the show that played. */
RPL_NODISCARD rpl_status play_set_show(play_t *p, rpl_show_t *show);
/* The show playing (NULL: none). */
const rpl_show_t *play_show(const play_t *p);

/* ---- a step --------------------------------------------------------------- */

/* One step of 1/PLAY_STEP_HZ s: when idle (the user has left the water
 * alone), the show's tick, its view handed to the pool (light, strength,
 * stone size, rain, picture), or the rain and the autopilot; when not, the
 * rain alone; then the walls the show moved drawn in, then the water's
 * step.  RPL_OK, or the rain's refusal (play_error says why; the step
 * is taken all the same); RPL_EINVAL for a pool that was not made. */
RPL_NODISCARD rpl_status play_step(play_t *p, int idle);

/* The user's stone at cell (x, y) (big: twice the size, as heavy again),
 * a trail of half-size stones from (x0, y0) to (x1, y1) (a drag):
 * RPL_OK, or the field's refusal with play_error saying why (the water
 * is as it was). */
RPL_NODISCARD rpl_status play_stone(play_t *p, int x, int y, int big);
RPL_NODISCARD rpl_status play_trail(play_t *p, int x0, int y0, int x1, int y1);
/* Calm water again from the seed (the walls, the show's place and the
 * settings stay). */
void play_reset(play_t *p);

/* ---- settings -------------------------------------------------------------- */

/* How the play's own stones (the user's, the autopilot's and the rain)
 * meet the water: smooth bumps (rpl_sim_bump; PLAY_BUMP_* above), or the
 * flat discs of the 1990s (rpl_sim_drop), which is how the timedemo's
 * busy-1 and wave-1 scenes play, byte for byte as before the smooth
 * stones.  Each kind has its refraction strength to start with
 * (PLAY_STRENGTH_SMOOTH, RPL_STRENGTH_ONE): a switch moves a strength at
 * the one kind's to the other's, and leaves one the user (or a show) set
 * to anything else as it is.  A show's own stones are bumps whatever
 * this says. */
enum { PLAY_STONES_SMOOTH = 0, PLAY_STONES_CLASSIC = 1 };

typedef enum play_setting {
    PLAY_RAIN = 0,     /* 0/1 */
    PLAY_AUTO = 1,     /* 0/1: the show or the autopilot plays when idle */
    PLAY_LIGHT = 2,    /* 0/1: the shading */
    PLAY_STRENGTH = 3, /* 0..PLAY_STRENGTH_MAX (RPL_STRENGTH_ONE is 1:1) */
    PLAY_STONE = 4,    /* the user's stone radius, PLAY_STONE_MIN..PLAY_STONE_MAX */
    PLAY_MODEL = 5,    /* 0 classic, 1 wave (refused: stays, play_error says why) */
    PLAY_SHOW = 6,     /* read only: 1 while a show is loaded */
    PLAY_STONES = 7    /* PLAY_STONES_SMOOTH or PLAY_STONES_CLASSIC */
} play_setting;
/* A setting (-1 for no pool or an unknown one). */
int play_get(const play_t *p, play_setting what);
/* Sets it, held to its range; returns the value it has now. */
int play_set(play_t *p, play_setting what, int value);
/* The view the water is drawn with. */
rpl_view_t play_view(const play_t *p);

/* ---- the water's rule ------------------------------------------------------ */

/* The wave model's settings for when the wave water is next chosen (a
 * snapshot's or the command line's at the start; PLAY_WAVE_DEFAULTS
 * until set): kept as they are, the water left alone. */
void play_set_wave(play_t *p, const rpl_wave_params_t *w);
const rpl_wave_params_t *play_wave(const play_t *p);
/* The wave settings a step up or down (play_wave_nudge), taken only if
 * the core takes them: RPL_EINVAL keeps them and the water as they were,
 * play_error says why. */
RPL_NODISCARD rpl_status play_wave_step(play_t *p, int speed, int viscosity);
/* The rule in a line: "classic water" or "wave k 0.160  u*dt 0.020". */
void play_model_text(const play_t *p, char *buf, size_t len);
/* The water's keys: 'w' (classic or wave water), 'z' 'x' (wave speed
 * down, up), 'v' 'b' (viscosity down, up), 'd' (smooth or classic
 * stones, PLAY_STONES).  A line for the user in msg: what the water or
 * the stones are now, or why the change was refused (and nothing
 * changed).  Returns 1 for those keys, 0 for any other (msg untouched). */
int play_key(play_t *p, int key, char *msg, size_t len);

/* ---- the timedemo's pool scenes ------------------------------------------- */

/* A frame's input as the timedemo plays it, whatever the user settings:
 * with a show (show-1) its tick and the walls it moved; without (busy-1,
 * wave-1) a tick of the rain and of the autopilot.  Then play_bench_step,
 * the water's step, 1/60 s.  RPL_OK, or the rain's refusal (play_error). */
RPL_NODISCARD rpl_status play_bench_input(play_t *p);
void play_bench_step(play_t *p);
/* The pool back where the timedemo starts, for its next round: the
 * water calm from the seed, the autopilot and the rain from their start,
 * a show from its beginning, and what a show changes (walls, edges, the
 * view, the stone size, the rain, the picture) as play_create and
 * play_set_show left them; the settings the user does not play with (the
 * model, PLAY_STONES, the threads) stay.  Every round then plays the
 * same bytes.  RPL_OK, or RPL_ENOMEM (play_error) with the pool as
 * calm water. */
RPL_NODISCARD rpl_status play_bench_restart(play_t *p);

/* ---- the timedemo's scenes -------------------------------------------------- */

/* What a timedemo scene plays: the top-down pool or the side view. */
enum { PLAY_BENCH_POOL = 0, PLAY_BENCH_SIDE = 1 };

/* The timedemo's scenes (the window's --benchmark, the page's
 * ?benchmark): each named and versioned, so that a report says what it
 * measured and a changed scene gets a new version rather than a figure
 * that no longer compares; a bare name is its newest version.  A pool
 * scene plays the autopilot's stones and rain (busy, wave: version 1
 * with the flat discs of the 1990s, 2 with smooth stones) or the default
 * show (show); a side scene drops bodies on its own fixed schedule
 * (src/scene: side_scene_bench_input), and from version 3 on its CRC
 * covers what it draws as well as its state. */
typedef struct play_bench_scene {
    const char *name;         /* "busy": --bench-scene busy or busy-1 */
    int version;              /* 1: the report says busy-1 */
    const char *what;         /* a line for --list and the report */
    int scene;                /* PLAY_BENCH_POOL or PLAY_BENCH_SIDE */
    rpl_model model;          /* the pool's water */
    rpl_surface_kind surface; /* the side view's water */
    int show;                 /* the pool plays the default show, its sound mixed */
    int stones;               /* the pool's own stones: PLAY_STONES_SMOOTH or _CLASSIC */
    const char *show_file;    /* with show: the show's file in assets/shows */
    int picture;              /* the side view's CRC takes in its last picture too
                               * (side_scene_bench_crc_picture) */
} play_bench_scene_t;

/* The scene of that name ("busy-1", or "busy" for its newest version),
 * NULL if none (or for NULL). */
const play_bench_scene_t *play_bench_scene_find(const char *name);
/* The table's i-th scene, the newest version of a name before its older
 * ones; NULL past the end. */
const play_bench_scene_t *play_bench_scene_at(size_t i);
/* Why a scene of that name ("side-1") is no longer played, NULL for a
 * name that was never retired. */
const char *play_bench_scene_retired(const char *name);

/* ---- the scripted person --------------------------------------------------- */

/* A person playing the pool, the same every time (src/play/person.c):
 * clicks, quick taps, the right button's stone and drags of a few hundred
 * pixels at a mouse's pace, placed in shares of the field, over
 * PLAY_PERSON_STEPS steps and then again.  play_person_tick plays what
 * the person does at step `step` (0 the first) through play_stone and
 * play_trail, as a front end would, before that step's play_step (not
 * idle: the person is busy).  RPL_OK, a stone's refusal (play_error), or
 * RPL_EINVAL for no pool or a step below 0.  ripple --person,
 * ripple-bench --look --person and test_look play it. */
#define PLAY_PERSON_STEPS 1800
RPL_NODISCARD rpl_status play_person_tick(play_t *p, long step);

#ifdef __cplusplus
}
#endif

#endif
