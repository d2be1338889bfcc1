/* web/web.h - what the page's WebAssembly module exports: the pool's play (src/play), the side view (src/scene) and their sound, driven from JavaScript (engine.js). */
#ifndef WEB_WEB_H
#define WEB_WEB_H

#include <stdint.h>

/*
 * One pool: the pool's play (src/play/play.h: the field, its renderer,
 * the picture, the show or the autopilot and rain, stones by size, the
 * wave keys), the drips' sound.  JavaScript calls these through
 * the module (Module._web_create and so on); every pointer returned points
 * into the module's memory and stays valid until the next call that may
 * allocate (re-read HEAPU8 after any call: memory can grow).
 *
 * The frame is RGBA bytes, w*h*4, as a canvas's ImageData wants them:
 * the picture goes into the core with red and blue swapped, so that the
 * core's XRGB8888 words, little-endian in memory, read as R, G, B, A.
 */
typedef struct web web_t;

/* A pool of w x h cells (3..RPL_DIM_MAX) playing from seed into *out,
 * its sound mixed at rate Hz (8000..192000), a plain blue picture until
 * web_picture.  Returns the library's status (ripple/base.h: 0 is
 * RPL_OK); a size or rate refused is RPL_EINVAL.  As the library's
 * constructors, *out is a pool even on failure, for web_error to say
 * why, unless memory ran out (NULL); always web_destroy it. */
int web_create(int w, int h, int seed, int rate, web_t **out);
void web_destroy(web_t *p);
/* Calm water again (the walls, the show's place and the settings stay);
 * the side view's bodies taken away. */
void web_reset(web_t *p);

/*
 * The side view (the window's Tab, src/scene): a level of w x h pixels
 * (at least SIDE_W_MIN x SIDE_H_MIN) seen from the side, basins of water,
 * crates and balls, from seed, its splashes' sound mixed at rate Hz.  It
 * answers the pool's calls where they mean something: web_steps (steps
 * of 1/60 s; the scene plays itself, WEB_AUTO, while idle), web_draw,
 * web_stone (a click: a body of what K chose, big an iron ball),
 * web_key ('k' what a click drops, 'w' springs or waves, 'c' or 8
 * clears), web_reset, web_text (the window's overlay lines), web_mix,
 * the music's calls, web_get (WEB_WIDTH, WEB_HEIGHT, WEB_AUTO, WEB_AWAKE:
 * per cent of the waters, WEB_BODIES, WEB_SIDE and the sound's) and
 * web_set (WEB_AUTO and the sound's); the others do nothing or return
 * -1.  As web_create for the rest. */
int web_side_create(int w, int h, int seed, int rate, web_t **out);
/* Its pictures, RGBA bytes of any size (NULL: none): the sky behind and
 * the stone the basins are built of.  The scene is made again with them
 * (calm water, no bodies).  0, or -1 with web_error saying why. */
int web_side_art(web_t *p, const uint8_t *sky, int sky_w, int sky_h, const uint8_t *stone,
                 int stone_w, int stone_h);

/* The picture the water bends, from w*h*4 RGBA bytes (the browser decodes
 * it), fitted to the pool (cover, centre cropped): sides 1..65536 and at
 * most RPL_IMAGE_MAX_PIXELS (ripple_support.h: 100 million) pixels, as
 * the demo loads, so its bytes fit a 32-bit size_t.  0, or -1 with the
 * reason in web_error (the old picture stays). */
int web_picture(web_t *p, const uint8_t *rgba, int w, int h);
/* The show from its text ("" or NULL: none; the autopilot and rain play).
 * 0, or -1 with the reason in web_error ("NAME:LINE:COL: message"; the
 * pool is left as it was). */
int web_show(web_t *p, const char *text, const char *name);
const char *web_error(const web_t *p);

/* steps steps of 1/60 s: the show (or the rain and the autopilot) while
 * the user leaves the water alone, the walls the show moves, the step,
 * the drips queued for the sound.  idle: nonzero when the user has not
 * touched the water for a while (the show and autopilot play only then). */
void web_steps(web_t *p, int steps, int idle);
/* The frame brought up to date; returns its RGBA bytes. */
uint8_t *web_draw(web_t *p);
/* The heights now (w*h int16, little-endian in memory), for a checksum. */
const int16_t *web_heights(const web_t *p);

/* A drop from code: a smooth stone (a bump, rpl_sim_bump) at cell (x, y) of
 * radius cells (1..RPL_DIM_MAX), weighing permille thousandths of twice
 * the user's stone of that radius (500: as heavy as a click's; 1..4000),
 * lighter on the wave water as the play's own stones are.  0, or -1 with
 * web_error saying why (the water is as it was). */
int web_drop(web_t *p, int x, int y, int radius, int permille);
/* The wave water's speed (c, waves of cells a second at 60 steps a second
 * on cells 1 apart) and viscosity (u) from now on, the play's other
 * settings kept; the water goes on under them at once if it is wave
 * water: 0, or -1 when the core refuses them (web_error says why). */
int web_wave_set(web_t *p, double speed, double viscosity);

/* A stone at cell (x, y) of the user's size (big: twice as big and heavy);
 * a trail of stones from (x0, y0) to (x1, y1) (a drag). */
void web_stone(web_t *p, int x, int y, int big);
void web_trail(web_t *p, int x0, int y0, int x1, int y1);

/* frames of sound (stereo int16, left then right): returns them. */
const int16_t *web_mix(web_t *p, int frames);

/*
 * The music (ripple/sound.h's synthesizer), as the window plays
 * assets/music/default.score: mixed with the drips under the one limiter.
 * Its clock is the water's: while the page does not play the sound
 * (WEB_HEARD 0: before the first gesture, or with the sound off) each of
 * web_steps's steps mixes its 1/60 s (rate / 60 frames) and lets it go,
 * as the window mixes a step's sound after each step whether it is heard
 * or not; so a score given with the show starts with it, at 0, and is
 * where the show is when the page begins to play it.  While the page
 * plays (WEB_HEARD 1) web_mix moves it on, at the page's audio clock.
 *
 * web_music gives the score's text ("" or NULL: no music): it starts at
 * its beginning, now, at the volume the settings give (WEB_MUSIC on and
 * WEB_HEARD: full; else silenced, keeping time).  0, or -1 with the
 * reason in web_error ("NAME:LINE:COL: why" for a score refused; the
 * music that played plays on, the rest of the sound untouched). */
int web_music(web_t *p, const char *text, const char *name);

/* p (the side view) plays with's sound from now on: its drips go to
 * with's mixer, web_mix(p) mixes it and the sound's settings are with's,
 * so that the music goes on across the two views as in the window, where
 * one mixer serves both.  with must outlive the sharing (share with
 * another, or with NULL for p's own again, before destroying it).  0, or
 * -1 (web_error says why) for a pool not made or a with that shares
 * another's. */
int web_share_sound(web_t *p, web_t *with);

/* The sound's exactness, for the tests: steps steps played as web_steps
 * plays them idle, each followed by its 1/60 s of sound (rate / 60
 * frames) mixed, as the window mixes them after each step and
 * --audio-out writes them; returns the CRC-32 (zlib's) of those samples
 * as a WAV file's data holds them (16-bit little-endian, left then
 * right).  It goes on from where the pool is, and leaves it there. */
uint32_t web_sound_crc(web_t *p, int steps);

/* Settings, read and written by number (enum below).  web_set returns the
 * new value (what was refused keeps the old one; web_error says why).
 * The sound's (WEB_AMBIENT, WEB_MUSIC, WEB_HEARD, WEB_SCORE,
 * WEB_MUSIC_AT) are those of the sound played (web_share_sound). */
enum {
    WEB_RAIN = 0,     /* 0/1 */
    WEB_AUTO = 1,     /* 0/1: the show or the autopilot plays when idle */
    WEB_LIGHT = 2,    /* 0/1 */
    WEB_STRENGTH = 3, /* 0..RPL_STRENGTH_MAX (16 is 1:1) */
    WEB_STONE = 4,    /* the user's stone radius, cells (1..40) */
    WEB_MODEL = 5,    /* 0 classic, 1 wave */
    WEB_AMBIENT = 6,  /* sound 0/1: the drips queued and the ambient bed (0 at first) */
    WEB_SHOW = 7,     /* read only: 1 when a show is loaded */
    WEB_WIDTH = 8,    /* read only */
    WEB_HEIGHT = 9,   /* read only */
    WEB_AWAKE = 10,   /* read only: per cent of the tiles stepped last step */
    WEB_EDGES = 11,   /* 0 reflecting, 1 absorbing (ripple/field.h rpl_edges) */
    WEB_BODIES = 12,  /* read only: the side view's bodies (-1 for a pool) */
    WEB_SIDE = 13,    /* read only: 1 for the side view, 0 for a pool */
    WEB_MUSIC = 14,   /* 0/1: the music wanted (1 at first, the window's --music on) */
    WEB_HEARD = 15,   /* 0/1: the page plays the sound it mixes (0 at first) */
    WEB_SCORE = 16,   /* read only: 1 when a score is loaded */
    WEB_MUSIC_AT = 17 /* read only: frames into the music's loop (0 without) */
};
int web_get(const web_t *p, int what);
int web_set(web_t *p, int what, int value);
/* The wave model's speed and viscosity a step up (+1) or down (-1):
 * 0, or -1 when refused (web_error says why). */
int web_wave(web_t *p, int speed, int viscosity);

/* A wave key, as its character code ('w' classic or wave water, 'z' 'x'
 * wave speed, 'v' 'b' viscosity, as the demo has them): played, and the
 * line to show (what the water is now, or why the change was refused);
 * "" for any other key. */
const char *web_key(web_t *p, int key);

/* One line on the water: the rule ("classic water" or
 * "wave k 0.480  u*dt 0.020"). */
const char *web_text(web_t *p);
/* The kernel path in use ("sse2" in the SIMD module, "c" in the scalar). */
const char *web_path(const web_t *p);
const char *web_version(void);
/* The play's numbers and the settings' above, by name, for the page's
 * JavaScript, which copies none of them: "STEP_HZ" (steps a second),
 * "MAX_STEPS" (most steps a frame), "IDLE_MS" (the show waits this long
 * after input), "STONE_MIN", "STONE_MAX", "STRENGTH_MAX", "BENCH_FRAMES"
 * (the timedemo's frames a round), and each
 * setting's number by its name without WEB_ ("RAIN" .. "EDGES"); -1 for
 * any other name. */
int web_constant(const char *name);

/* The timedemo's scenes, as the native --benchmark plays them (the one
 * table, play/play.h), those the page has: a pool of 640x480 from seed 1
 * without a show, the rain and the autopilot on, each frame one tick of
 * both, one step, one draw, busy-2 laying their stones as smooth bumps,
 * busy-1 as flat discs (PLAY_STONES); and the side view of 640x480 from
 * seed 1 dropping the timedemo's bodies (side-3 on springs, side-waves-3
 * on analytic waves: scene/scene.h side_scene_bench_input; side-2 the
 * same on springs with a CRC of the state alone).
 * web_bench_create makes the scene named ("busy-2", "side-3"; "busy",
 * "" or NULL: busy-2), its pictures still to be given as web_create and
 * web_side_create do (an unknown name, or one of the window demo's
 * alone: RPL_EINVAL, web_error lists the page's names); web_bench_frame
 * plays one frame's input and step (the draw is web_draw);
 * web_bench_restart starts the scene again for the next round, so that
 * every round plays the same bytes (0, or -1 with web_error saying why).
 * A round is web_constant("BENCH_FRAMES") frames.  A pool's CRC is its
 * heights' (web_heights); web_bench_crc gives the side view's (its state
 * and, from version 3 on, its picture), the native report's "state
 * crc32" (0 for a pool).  web_bench_scene names
 * the scene ("busy-2"; "" for one that is not a timedemo's) until the
 * next call that returns text, and web_bench_about says what it plays. */
int web_bench_create(const char *scene, web_t **out);
void web_bench_frame(web_t *p);
int web_bench_restart(web_t *p);
uint32_t web_bench_crc(web_t *p);
const char *web_bench_scene(web_t *p);
const char *web_bench_about(const web_t *p);

#endif
