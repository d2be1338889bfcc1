/* ripple/show.h - libripple: the autopilot, shows and their players (part of ripple.h). */
#ifndef RIPPLE_SHOW_H
#define RIPPLE_SHOW_H

#include <stddef.h>
#include <stdint.h>

#include "base.h"
#include "field.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- autopilot -------------------------------------------------------- */

/* Scripted drops that play by themselves (opaque): shapes drawn with
 * trails and stones, one scene after another.  Deterministic for a given
 * seed and field size. */
typedef struct rpl_autopilot rpl_autopilot_t;

/* An autopilot at its start into *out (see the constructor rule in
 * ripple/base.h; only memory can run out). */
RPL_NODISCARD rpl_status rpl_autopilot_create(uint64_t seed, rpl_autopilot_t **out);
void rpl_autopilot_destroy(rpl_autopilot_t *ap); /* NULL is fine */
/* Detail of the last failure ("" if none). */
const char *rpl_autopilot_error(const rpl_autopilot_t *ap);
/* Advances the script one step, dropping into sim (nothing for a NULL
 * or failed field). */
void rpl_autopilot_tick(rpl_autopilot_t *ap, rpl_sim_t *sim);

/* How the autopilot's stones meet the water (since 1.1.0): flat discs
 * set into it (rpl_sim_drop, the default, as before 1.1.0: the same
 * heights), or smooth bumps added to it (rpl_sim_bump), wider than the
 * discs and weighing in proportion to the field's shorter side, so that
 * the refracted picture reads as water and not as coloured noise at a
 * low refraction strength (a quarter: docs/look.md) on any size.  The
 * script (its scenes, places and times) is the same for both.  Takes
 * effect from the next tick; RPL_EINVAL for NULL or another value (the
 * kind stays, rpl_autopilot_error says why). */
typedef enum rpl_stones { RPL_STONES_DISCS = 0, RPL_STONES_BUMPS = 1 } rpl_stones;
RPL_NODISCARD rpl_status rpl_autopilot_set_stones(rpl_autopilot_t *ap, rpl_stones kind);
/* The kind in use (RPL_STONES_DISCS for NULL). */
rpl_stones rpl_autopilot_stones(const rpl_autopilot_t *ap);

/* ---- shows ------------------------------------------------------------ */

/*
 * A show is a timed script read from text: stones, trails, rings, text
 * written in stones, rain, walls, edges, cuts, and settings for the front
 * end (light, refraction strength, the user's stone size, the picture).
 * The format, "ripple-show 1", in short (docs/shows.md has it all):
 *
 *   ripple-show 1                     the first line that is not blank or a comment
 *   # a comment (also after a command)
 *   @120  drop 0.5 0.5 0.012 300      @T: at step T of the show (60 steps = 1 s)
 *   +30   drop 100px 80px 6px 300     +T: T after the line before; no time: at the same step
 *   @2.5s ring 0.5 0.5 0.2 0.01 250 count=16 over=1s
 *         wait 2s                     moves the clock on
 *   @60s  loop                        or `end`; without either the show ends after its last stone
 *
 * Times are whole steps ("120") or seconds ("2.5s", rounded to the nearest
 * step) and never go back.  A position is a fraction of the field's width
 * (x) or height (y), or cells with "px"; a length (radius, spacing,
 * thickness, cell) a fraction of the field's shorter side, or cells with
 * "px"; so a show plays alike on any field size.  Commands:
 *   drop X Y R W                        one stone of radius R, weight W
 *   ring X Y RR R W                     stones around a circle of radius RR
 *   trail R W SPACING X0 Y0 X1 Y1 ...   stones along a polyline (2..256 points)
 *   text "STRING" X Y CELL W            the built-in font's dots as stones,
 *                                       centred on X Y, CELL apart
 *   rain on | off | RATE RMIN RMAX WMIN WMAX   (RATE stones per second)
 *   light on | off      strength S (0..4, 1 is 1:1)      stone R
 *   stones smooth | classic   the kind of the front end's own stones (1.1.0)
 *   weights F [wave=G]  stones and rain laid from here weigh F times what is
 *                       written (G times on the wave model)
 *   wall rect|open X0 Y0 X1 Y1 | line X0 Y0 X1 Y1 THICKNESS | clear
 *   edges reflect | absorb      picture NAME      cut      wait T      loop      end
 * Options NAME=VALUE after a command: over=T (lay its stones over T
 * instead of at once), every=T and times=N (repeat it), count=N (ring),
 * radius=R (text), wave=G (weights).  A command or option written with
 * a leading '?' is optional: one this version does not know is skipped,
 * so later shows still play here; an unknown command or option without it
 * is an error.
 * Weights are whole numbers in [-8192, 8192]; radii are clamped into
 * [1, RPL_RADIUS_MAX] cells when played.
 *
 * Errors name the place: "NAME:LINE:COLUMN: message" (columns count
 * bytes from 1), NAME being the name given to rpl_show_parse (the path
 * for rpl_show_read).  Limits: RPL_SHOW_BYTES_MAX bytes of text, lines of
 * RPL_SHOW_LINE_MAX bytes, RPL_SHOW_EVENTS_MAX commands, RPL_SHOW_TEXT_MAX
 * bytes of text per "text", RPL_SHOW_POINTS_MAX points per trail,
 * RPL_SHOW_ACTIVE_MAX commands laying stones at once, times up to
 * RPL_SHOW_STEPS_MAX.
 *
 * The work budget: no step of a show may cost more than RPL_SHOW_WORK_MAX
 * units (the cells of one 1920x1080 field), or it is refused when read,
 * naming the command that takes its step over.  A unit is about a cell
 * touched: every command costs RPL_SHOW_WORK_COMMAND for each step it
 * runs (one laying stones: every step from its start to the end of its
 * last repeat, or to `loop` or `end`, as much as at its heaviest step;
 * a trail RPL_SHOW_WORK_POINT more a point, and, with its spacing in
 * fractions, a stone a cell along its path, or all RPL_SHOW_STONES_MAX
 * when its points and spacing are not all fractions or all px); a stone
 * of radius R (cells,
 * 1..RPL_RADIUS_MAX) (2R+1)^2 + RPL_SHOW_WORK_STONE; `wall rect`, `open`
 * and `line` the cells of the rectangle around them widened by a tile
 * (RPL_TILE_W x RPL_TILE_H) on every side; `cut` and `picture` the cells
 * of the whole field; the rain, each step it is on, its most stones a
 * step at its largest radius.  Positions and lengths given as fractions
 * of the field are counted on a field of RPL_SHOW_WORK_W x
 * RPL_SHOW_WORK_H cells, those in "px" as the cells they are (at most
 * RPL_DIM_MAX a side).  So on a field of up to 960x540 no step touches
 * more than RPL_SHOW_WORK_MAX cells, whatever the show; on a wider or
 * taller field what is given in fractions grows with the field, as the
 * field's own step does: by s^2 at most, s the larger of W/960 and H/540
 * (4 at 1920x1080).
 */
#define RPL_SHOW_VERSION 1
#define RPL_SHOW_BYTES_MAX (1L << 20)
#define RPL_SHOW_LINE_MAX 4096
#define RPL_SHOW_EVENTS_MAX 65536
#define RPL_SHOW_TEXT_MAX 64
#define RPL_SHOW_POINTS_MAX 256
#define RPL_SHOW_ACTIVE_MAX 256
#define RPL_SHOW_STEPS_MAX 100000000L
/* Most stones one command lays in one repetition (more are spread out). */
#define RPL_SHOW_STONES_MAX 4096
#define RPL_SHOW_CARD_MAX 256
/* The work budget (above): units a step, a command's own cost, and the
 * field on which fractions are counted. */
#define RPL_SHOW_WORK_MAX 2073600L
#define RPL_SHOW_WORK_COMMAND 64
#define RPL_SHOW_WORK_STONE 48
#define RPL_SHOW_WORK_POINT 8
#define RPL_SHOW_WORK_W 960
#define RPL_SHOW_WORK_H 540

typedef struct rpl_show rpl_show_t;

/* Parses len bytes of show text (need not end in a NUL; a NUL byte in it
 * is an error).  name (NULL: "show") prefixes the error messages.  Like
 * rpl_snapshot_parse, it gives a handle even when it fails (NULL only
 * when memory runs out: RPL_ENOMEM), so rpl_show_error can say why;
 * always destroy it.  RPL_EFORMAT: not a valid show; RPL_EINVAL: NULL out,
 * or NULL text with len > 0. */
RPL_NODISCARD rpl_status rpl_show_parse(const char *text, size_t len, const char *name,
                                        rpl_show_t **out);
/* Reads a show file once, front to back (a pipe or a FIFO works), and
 * parses it.  RPL_EIO: cannot open or read it, or it is larger than
 * RPL_SHOW_BYTES_MAX; RPL_EINVAL: a NULL or empty path; else as parse. */
RPL_NODISCARD rpl_status rpl_show_read(const char *path, rpl_show_t **out);
/* Why parsing failed, in one line ("" if it did not). */
const char *rpl_show_error(const rpl_show_t *show);
void rpl_show_destroy(rpl_show_t *show); /* NULL is fine */
/* Commands in a valid show (0 for a failed one or NULL). */
int rpl_show_events(const rpl_show_t *show);
/* Steps of one pass: the step of its `loop` or `end`, else the step after
 * its last stone or command (or where a last `wait` ends); 0 for one that
 * repeats a command forever without either, for a failed show or NULL. */
uint64_t rpl_show_length(const rpl_show_t *show);
/* 1 if the show ends in `loop`. */
int rpl_show_loops(const rpl_show_t *show);
/* The work of its heaviest step in units of the budget (above), at most
 * RPL_SHOW_WORK_MAX, and that step into *step (if not NULL; after a `loop`
 * the step it plays as step 0 counts as 0); 0 for a failed show or NULL. */
uint64_t rpl_show_work(const rpl_show_t *show, uint64_t *step);
/* Its `picture` commands, in order: how many, and the i-th one's name
 * (NULL past the end), with where it was written (line, column; either
 * pointer may be NULL), so a front end can check every picture before it
 * plays. */
int rpl_show_pictures(const rpl_show_t *show);
const char *rpl_show_picture(const rpl_show_t *show, int i, int *line, int *column);

/*
 * A player plays a valid show into a field, one tick per step: the caller
 * ticks it and then steps the field.  Tick k of a pass applies, in the
 * order written, the commands at step k: stones (and the stones due now
 * of commands still laying theirs), walls, edges, cuts (rpl_sim_reset with
 * the player's seed); then, while the show's rain is on, its rain, drawn
 * as rpl_sim_rain draws it.  A show's stones are smooth bumps, not discs,
 * and weigh in proportion to the field's size (docs/shows.md).  At
 * `loop` the pass starts again at step 0 in the same tick (commands still
 * laying stones stop); at `end`, or after the last stone of a show
 * without `loop` or `end`, it is over: nothing more happens but its rain,
 * which falls on while it is on.  The same show, seed and
 * field give the same heights whatever the kernels, threads or sleeping
 * tiles.  The settings for the front end are kept in a view.  A player
 * refers to its show: destroy the show after the player.  It is used from
 * the field's thread.
 */
typedef struct rpl_show_player rpl_show_player_t;

/* What the show has set for the front end.  Until set: light 1, strength
 * RPL_STRENGTH_ONE, stone 0 (not set), rain off, picture "" (none),
 * stones RPL_STONES_BUMPS.  The library makes the view and hands out a
 * pointer to it, so fields are only ever added at its end (stones in
 * 1.1.0). */
typedef struct rpl_show_view {
    int light;        /* 0 or 1 */
    int strength;     /* 0..RPL_STRENGTH_MAX */
    int stone;        /* radius of the user's stones in cells */
    int rain_on;      /* 0 or 1 */
    rpl_rain_t rain;  /* in cells for the field of the last tick */
    const char *picture; /* a name for the front end to resolve; "default": its own */
    rpl_stones stones;   /* how the front end's own stones (the user's, an
                          * autopilot's) meet the water; the show's are bumps */
    int fade;            /* since 1.1.0: how far the picture is faded to
                          * fade_colour, 0 (not) .. 256 (all the colour) */
    uint32_t fade_colour; /* 0xRRGGBB */
    const char *card;    /* since 1.1.0: a card of text over the picture
                          * ("": none; lines split by '\n', the first a
                          * heading) */
    int card_level;      /* how far it has come in, 0..256 */
} rpl_show_view_t;

/* What the last tick changed (rpl_show_player_changed): the view's fields,
 * a cut, a loop back to step 0, the end.  A command sets its bit even when
 * the value stays the same, so a front end can reassert the show's view. */
#define RPL_SHOW_LIGHT    0x01u
#define RPL_SHOW_STRENGTH 0x02u
#define RPL_SHOW_STONE    0x04u
#define RPL_SHOW_RAIN     0x08u
#define RPL_SHOW_PICTURE  0x10u
#define RPL_SHOW_CUT      0x20u
#define RPL_SHOW_LOOPED   0x40u
#define RPL_SHOW_ENDED    0x80u
#define RPL_SHOW_STONES   0x100u /* since 1.1.0 */
#define RPL_SHOW_FADE     0x200u /* since 1.1.0 */
#define RPL_SHOW_CARD     0x400u /* since 1.1.0 */

/* A player at step 0 of a valid show into *out (see the constructor rule
 * in ripple/base.h): RPL_EINVAL for a NULL or failed show, RPL_ENOMEM. */
RPL_NODISCARD rpl_status rpl_show_player_create(const rpl_show_t *show, uint64_t seed,
                                                rpl_show_player_t **out);
void rpl_show_player_destroy(rpl_show_player_t *p); /* NULL is fine */
/* Detail of the last failure ("" if none). */
const char *rpl_show_player_error(const rpl_show_player_t *p);
/* Plays one step into sim (see above); after the end, only the rain.
 * RPL_EINVAL for NULL or a failed field; a failure of the field (detail in rpl_sim_error)
 * is returned after the rest of the step was played. */
RPL_NODISCARD rpl_status rpl_show_player_tick(rpl_show_player_t *p, rpl_sim_t *sim);
/* RPL_SHOW_* bits of what the last tick changed (0 for NULL). */
unsigned rpl_show_player_changed(const rpl_show_player_t *p);
/* The view (NULL for NULL); valid while the player lives. */
const rpl_show_view_t *rpl_show_player_view(const rpl_show_player_t *p);
/* The step the next tick plays, in the current pass (before the tick of
 * a `loop`, its step, which that tick plays as step 0); the passes started
 * again by `loop`; 1 once the show is over.  0 for NULL. */
uint64_t rpl_show_player_time(const rpl_show_player_t *p);
uint64_t rpl_show_player_loops(const rpl_show_player_t *p);
int rpl_show_player_done(const rpl_show_player_t *p);
/* Back to step 0 with the view as at creation. */
void rpl_show_player_rewind(rpl_show_player_t *p);
/* on 0: the show's rain is not dropped (its settings still reach the
 * view), for a front end whose user asked for no rain.  On by default. */
void rpl_show_player_set_rain(rpl_show_player_t *p, int on);

#ifdef __cplusplus
}
#endif

#endif
