/* ripple/field.h - libripple: the field, wave model, walls, snapshots (part of ripple.h). */
#ifndef RIPPLE_FIELD_H
#define RIPPLE_FIELD_H

#include <stddef.h>
#include <stdint.h>

#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- simulation ------------------------------------------------------- */

/*
 * The field (opaque): two int16 height buffers of w*h cells, row-major, no
 * padding, the heights now and one step ago, with the field's random
 * generator, kernels, threads and sleeping tiles.  Border rows and columns
 * are a fixed wall and always 0.  Read it through the accessors below;
 * it changes only through these functions, which keep the height
 * contract.  A field (and the renderers drawing it) is used by one thread
 * at a time; it runs its own worker threads inside step and render.
 */
typedef struct rpl_sim rpl_sim_t;

/* The tiles of sleeping (see rpl_sim_set_sleeping). */
#define RPL_TILE_W 64
#define RPL_TILE_H 32

/* Creates a still field using the "auto" kernels into *out (see the
 * constructor rule in ripple/base.h).  w, h in [RPL_DIM_MIN, RPL_DIM_MAX].
 * RPL_EINVAL, RPL_ENOMEM, or RPL_ENOTSUP when RIPPLE_SIMD asks for a path
 * this machine lacks. */
RPL_NODISCARD rpl_status rpl_sim_create(int w, int h, uint64_t seed, rpl_sim_t **out);
void rpl_sim_destroy(rpl_sim_t *sim);

/* What the field is: its size, the heights now (w*h, row-major) and one
 * step ago, steps taken since create or reset, threads, whether sleeping
 * tiles are on, the kernels in use.  The buffers stay valid until the
 * field is destroyed (step swaps which is which: read them again after a
 * step).  NULL gives 0 or NULL. */
int rpl_sim_width(const rpl_sim_t *sim);
int rpl_sim_height(const rpl_sim_t *sim);
const int16_t *rpl_sim_heights(const rpl_sim_t *sim);
const int16_t *rpl_sim_previous(const rpl_sim_t *sim);
uint64_t rpl_sim_steps(const rpl_sim_t *sim);
int rpl_sim_threads(const rpl_sim_t *sim);
int rpl_sim_sleeping(const rpl_sim_t *sim);
const rpl_kernels_t *rpl_sim_kernels(const rpl_sim_t *sim);

/* Detail of the last failure on this field ("" if none). */
const char *rpl_sim_error(const rpl_sim_t *sim);

/* Uses another kernel table for rpl_sim_step (NULL: RPL_EINVAL). */
RPL_NODISCARD rpl_status rpl_sim_set_kernels(rpl_sim_t *sim, const rpl_kernels_t *k);

/* Threads for step and render: 1..RPL_THREADS_MAX (results are the same
 * bytes for any count).  On failure the field keeps its old count. */
#define RPL_THREADS_MAX 64
RPL_NODISCARD rpl_status rpl_sim_set_threads(rpl_sim_t *sim, int threads);
/* The number of processors online (at least 1). */
int rpl_cpu_count(void);

/*
 * Sleeping tiles (on by default).  The field is cut into RPL_TILE_W x
 * RPL_TILE_H tiles.  A tile whose cells are all 0 in both buffers, and
 * whose four neighbour tiles are all 0 in the current buffer, stays 0 under
 * the rule (every input of every cell is 0), so its step is skipped; its
 * pixels show the bare background, so a renderer need not redraw
 * them.  Results are the same bytes as with sleeping off.
 */
void rpl_sim_set_sleeping(rpl_sim_t *sim, int on);

/* Flattens the water (both buffers to 0) and reseeds the rain; walls,
 * edges and the drop hook stay. */
void rpl_sim_reset(rpl_sim_t *sim, uint64_t seed);

/* One step of the wave rule over every interior cell, then swaps buffers. */
void rpl_sim_step(rpl_sim_t *sim);

/*
 * Drops a stone: every interior cell strictly inside the circle of `radius`
 * around (x, y), that is (cx-x)^2 + (cy-y)^2 < radius^2, is set to -weight
 * (clamped into the height range) in the current buffer.  Parts outside
 * the interior are clipped; the centre may lie off the field.
 * radius in [1, RPL_RADIUS_MAX], else RPL_EINVAL and nothing changes.
 */
RPL_NODISCARD rpl_status rpl_sim_drop(rpl_sim_t *sim, int x, int y, int radius, int weight);

/* Drops stones along the segment (x0,y0)-(x1,y1), both ends included,
 * spaced max(1, radius/2) cells apart. Same arguments rules as drop. */
RPL_NODISCARD rpl_status rpl_sim_trail(rpl_sim_t *sim, int x0, int y0, int x1, int y1, int radius,
                                       int weight);

/* Rain: on each call, drops per_kilostep/1000 stones on average (so 1000
 * is one stone per step), placed, sized in [rmin, rmax] and weighted in
 * [wmin, wmax] by the field's seeded generator: the same seed and calls
 * give the same rain.  Arguments out of range: RPL_EINVAL. */
typedef struct rpl_rain {
    int per_kilostep;
    int rmin, rmax;
    int wmin, wmax;
} rpl_rain_t;
RPL_NODISCARD rpl_status rpl_sim_rain(rpl_sim_t *sim, const rpl_rain_t *rain);

/*
 * Smooth stones: as rpl_sim_drop and rpl_sim_rain (same checks, the drop
 * hook called alike), but each stone is a bump added to the water rather
 * than a flat disc set into it: every interior cell closer than the
 * radius r to the centre gets v * (1 - d^2/r^2)^3 added, v the weight
 * negated and clamped as rpl_sim_drop's, d the cell's distance from the
 * centre; the quotient rounds towards 0 and the sum is clamped to the
 * height range; walls stay 0.  Without the disc's step at its rim the
 * water keeps no ripples a cell or two long, which the refraction would
 * show as coloured noise: the stones to use where the water is busy.
 * Integer arithmetic only: the same heights on every machine and path.
 * The show player lays its stones and its rain with these.
 */
RPL_NODISCARD rpl_status rpl_sim_bump(rpl_sim_t *sim, int x, int y, int radius, int weight);
RPL_NODISCARD rpl_status rpl_sim_rain_bumps(rpl_sim_t *sim, const rpl_rain_t *rain);

/* Next value of the field's generator (xorshift64*), for callers that want
 * randomness reproducible with the field's seed. */
uint32_t rpl_sim_random(rpl_sim_t *sim);

/* Sum of |height| over the current buffer: a measure of how much the water
 * moves (0 when at rest). */
uint64_t rpl_sim_energy(const rpl_sim_t *sim);

/* Replaces both buffers (which may be the field's own), checking the
 * contract (range, zero border).  On failure (RPL_EINVAL, detail in
 * rpl_sim_error) nothing changes. */
RPL_NODISCARD rpl_status rpl_sim_set_state(rpl_sim_t *sim, const int16_t *cur, const int16_t *prev);

/* ---- wave models ------------------------------------------------------ */

/*
 * A field steps by one of two rules (its model), on the same int16
 * heights, tiles, threads, walls and edges, and draws the same way:
 *
 *   RPL_MODEL_CLASSIC  the classic rule, n = ((l + r + u + d) >> 1) - prev,
 *                      n -= n >> 5 (the default);
 *   RPL_MODEL_WAVE     the damped 2D wave equation z_tt + u z_t = c^2 lap(z),
 *                      differenced with time step t and grid spacing d:
 *                        z' = A z + B z_prev + C (l + r + u + d), then * alpha,
 *                        A = (4 - 8k) / (ut + 2), B = (ut - 2) / (ut + 2),
 *                        C = 2k / (ut + 2),  k = c^2 t^2 / d^2.
 *
 * Only k, u*t and alpha shape the water: c, d and t matter through k and u
 * through u*t (the front end decides how often it steps).  k sets the
 * speed of the waves (cells per step, at most 1/sqrt(2)), u*t how fast
 * their motion dies away (viscosity), alpha how much of the height each
 * step keeps.
 *
 * Fixed point, computed once when the model is set: with S = 2^13
 * (RPL_WAVE_SHIFT 13),
 *   b = round(B S), c = min(round(C S), floor((S - b) / 4)), a = S - b - 4c,
 *   m = round(256 (1 - alpha))          (round: half away from zero)
 * so a + b + 4c = S exactly (a level pool stays level, as in the
 * equation) and a >= 0.  Each cell, with int32 intermediates:
 *   s = a z + b z_prev + c (l + r + u + d)
 *   n = (s + (s > 0 ? rp : rn)) >> 13                 (arithmetic shift: floor)
 *   n -= (n * m) >> 8                                  (floor again)
 *   z' = clamp(n, RPL_HEIGHT_MIN, RPL_HEIGHT_MAX)
 * with the rounding terms
 *   rp = 0,  rn = 0        when a = 0 (k = 1/2): plain floors, as the classic rule;
 *   rp = -S, rn = 0        when a > 0 and m > 0: a positive sum is taken one
 *                          unit lower, so every nonzero height loses at least
 *                          1 a step (negative ones to the attenuation);
 *   rp = 0,  rn = S - 1    when m = 0 (alpha 1): towards zero, so rounding
 *                          never adds to a height (a floor would sink the
 *                          level half a unit a step).
 * Every kernel path, thread count and sleeping setting gives the same
 * bytes.  With k = 1/2, u = 0 and alpha = 1 - 1/32 the coefficients are
 * a = 0, b = -S, c = S/2, m = 8, and the wave model computes exactly the
 * classic rule's bytes (the attenuation is then n - (n >> 5)).  Alpha acts
 * in 256ths (m = 0 is alpha 1, none).
 *
 * Stability (von Neumann, for the equation and for these integers alike):
 * the step needs k < 1/2, that is c t / d < 1/sqrt(2), with u >= 0; at
 * k = 1/2 the checkerboard pattern's factor is -1 whatever u (with u = 0
 * a double root: it grows), so k = 1/2 is allowed only with m >= 1
 * (alpha at most 1 - 1/512).  k within 1e-6 of 1/2 counts as 1/2.
 *
 * Rest: with m >= 1 calm water comes to exactly 0 and its tiles sleep:
 * the rounding above leaves no small oscillation alive (core/wave.c tells
 * what the plain floor left; tests/test_wave.c runs a grid of settings to
 * rest).  With m = 0 only the viscosity and the rounding towards zero take
 * energy away: viscous water (u > 0) comes to rest in the same way but
 * for rare settings with u t near 0.001, where a small oscillation can
 * stay, and water with u = 0 as well keeps moving (as it should: nothing
 * damps it), never beyond the height range.
 */
typedef enum rpl_model { RPL_MODEL_CLASSIC = 0, RPL_MODEL_WAVE = 1 } rpl_model;

#define RPL_WAVE_SHIFT 13

/* The wave model's parameters, in any consistent units (only k = c^2 t^2 /
 * d^2, u*t and alpha matter). */
typedef struct rpl_wave_params {
    double speed;       /* c, > 0 */
    double viscosity;   /* u, >= 0 */
    double spacing;     /* d, > 0 */
    double dt;          /* t, > 0 */
    double attenuation; /* alpha, in (0, 1]: what each step keeps */
} rpl_wave_params_t;

/* What parameters come to: k, u*t, the integer coefficients, and when
 * they are refused, why, in one line of plain ASCII. */
typedef struct rpl_wave_info {
    double k;     /* c^2 t^2 / d^2 (as used: 0.5 within 1e-6 of it) */
    double ut;    /* u * t */
    int a, b, c;  /* in 2^-RPL_WAVE_SHIFT */
    int rp, rn;   /* the sum's rounding terms (see above) */
    int m;        /* 1 - alpha in 256ths */
    char why[200]; /* "" if the parameters are accepted */
} rpl_wave_info_t;

/* Checks the parameters and works out what they come to (no field
 * needed; any thread).  RPL_OK, or RPL_EINVAL with info->why saying why:
 * NULL params, a value that is not finite, speed, spacing or dt not above
 * 0, viscosity below 0, attenuation outside (0, 1], k over 1/2 (unstable),
 * k = 1/2 with alpha rounding to 1, or k and u*t so small that the
 * neighbours' weight c rounds to 0.  NULL info: RPL_EINVAL. */
RPL_NODISCARD rpl_status rpl_wave_info(const rpl_wave_params_t *params, rpl_wave_info_t *info);

/* Chooses the field's rule.  RPL_MODEL_WAVE needs params (checked as by
 * rpl_wave_info; refused: RPL_EINVAL, the reason in rpl_sim_error, the
 * field as it was); RPL_MODEL_CLASSIC ignores them (the last wave
 * parameters are kept).  The heights are not touched: the water goes on
 * under the new rule from the next step.  Another model: RPL_EINVAL.  The
 * model stays through rpl_sim_reset; a snapshot carries it. */
RPL_NODISCARD rpl_status rpl_sim_set_model(rpl_sim_t *sim, rpl_model model,
                                           const rpl_wave_params_t *params);
/* The field's model (RPL_MODEL_CLASSIC for NULL). */
rpl_model rpl_sim_model(const rpl_sim_t *sim);
/* The wave parameters last set on the field (in use when its model is
 * RPL_MODEL_WAVE); NULL if none were ever set, or for NULL.  The field
 * holds them: the values change when the model is next set. */
const rpl_wave_params_t *rpl_sim_wave_params(const rpl_sim_t *sim);

/* ---- walls and edges --------------------------------------------------- */

/*
 * Walls: solid cells that stay 0 in both buffers after every step, so
 * waves reflect off them and pass through gaps (diffraction).  The mask
 * has one byte per cell, row-major, w*h, nonzero = solid; the field keeps
 * its own copy (as 0/1).  Setting walls zeroes the heights under them at
 * once, and stones never raise a wall cell (walls win); replacing the
 * heights (rpl_sim_set_state) zeroes the wall cells of the new ones.  NULL
 * clears every wall.  Walls stay through rpl_sim_reset.  After the step's
 * kernel, each wall cell of the new buffer is set to 0: results stay the
 * same bytes on every kernel path, thread count and sleeping setting.
 * RPL_ENOMEM (the mask is w*h bytes, made on first use) leaves the walls
 * as they were.
 */
RPL_NODISCARD rpl_status rpl_sim_set_walls(rpl_sim_t *sim, const uint8_t *mask);
/* Makes the cells of a rectangle, x..x+w-1 by y..y+h-1 clipped to the
 * field, solid (solid nonzero) or open (0).  w or h negative: RPL_EINVAL;
 * 0 or wholly off the field: nothing. */
RPL_NODISCARD rpl_status rpl_sim_wall_rect(rpl_sim_t *sim, int x, int y, int w, int h, int solid);
/* Makes a thick segment solid (solid nonzero) or open (0): every cell
 * whose centre lies within thickness/2 of the segment (x0,y0)-(x1,y1),
 * ends included (so a thickness-1 line is watertight even on a diagonal;
 * a single point is a round blot).  Ends may lie anywhere in int range
 * (ends farther than RPL_DIM_MAX cells off the field are first cut to
 * that reach, to the nearest cell).  thickness in 1..RPL_WALL_THICK_MAX,
 * else RPL_EINVAL. */
#define RPL_WALL_THICK_MAX 16384
RPL_NODISCARD rpl_status rpl_sim_wall_line(rpl_sim_t *sim, int x0, int y0, int x1, int y1,
                                           int thickness, int solid);
/* The field's wall mask (w*h bytes, 1 = solid), NULL if no cell is solid
 * (clearing the last solid cell lets the mask go).  Valid until the walls
 * next change. */
const uint8_t *rpl_sim_walls(const rpl_sim_t *sim);
/* A count of changes to the walls: it moves on with every call that set
 * cells of the mask (set, rectangle, line, a snapshot loaded), so a front
 * end that draws the walls knows when to draw them again.  0 for NULL. */
uint64_t rpl_sim_walls_serial(const rpl_sim_t *sim);
/* Where the walls changed since their serial was `since`: a box of cells
 * (box[0], box[1] its top left corner, box[2] x box[3] its size) holding
 * every cell set since then, so a front end draws the walls again there
 * only.  The box may be larger than the cells changed (the field keeps
 * the last few changes apart, older ones merged); the whole field for a
 * serial it never had.  Returns nonzero if anything changed (else box is
 * 0, 0, 0x0, and so for NULL). */
int rpl_sim_walls_changed(const rpl_sim_t *sim, uint64_t since, int box[4]);

/*
 * Edges of the field: reflecting (the default: the border cells stay 0, as
 * ever, and waves bounce back) or absorbing (waves are damped in a band
 * along the border, a sponge layer, so they leave the picture instead of
 * bouncing back).  The band is RPL_ABSORB_BAND cells wide, or a quarter
 * of the field's shorter side when that is less (at least 1).  After the
 * step's kernel, each cell of the band at distance d from the border
 * (d = min(x, y, w-1-x, h-1-y), 1..band) whose height was u and is now n
 * has its change cut by k(d) 256ths (the division rounding towards 0),
 *     n -= (n - u) * k(d) / 256,
 *     k(d) = round(96 * (band + 1 - d)^4 / (band + 1)^4),
 * so k rises smoothly from 0 at the band's inner side to 75 (with the
 * full band) next to the border.  Per cell, integers only: the same bytes
 * on every path, thread count and sleeping setting; the result lies
 * between u and n, within the height contract.  A ring that meets an
 * absorbing edge sends back less than a tenth of the energy a reflecting
 * one does (4 to 6%, measured by tests/test_walls.c), and water in the
 * band comes to rest as it does elsewhere.  Edges other than
 * these two: RPL_EINVAL, nothing changes.
 */
typedef enum rpl_edges { RPL_EDGES_REFLECT = 0, RPL_EDGES_ABSORB = 1 } rpl_edges;
#define RPL_ABSORB_BAND 16
RPL_NODISCARD rpl_status rpl_sim_set_edges(rpl_sim_t *sim, rpl_edges edges);
/* The field's edges (RPL_EDGES_REFLECT for NULL). */
rpl_edges rpl_sim_edges(const rpl_sim_t *sim);

/*
 * A function told about every stone dropped on the field, after it landed:
 * by rpl_sim_drop (and so the rain, the autopilot or a show, which drop
 * through it) and by rpl_sim_trail (once for each of its stones).  It gets
 * the stone's centre, radius and weight as applied (clamped so that -weight
 * is a height); a stone wholly off the field's interior is not told.  It is
 * called on the field's thread, inside the dropping call: it must not
 * drop stones itself.  One hook per field; NULL fn removes it (user is
 * then forgotten).  For sound, say.
 */
typedef void (*rpl_drop_fn)(void *user, int x, int y, int radius, int weight);
void rpl_sim_set_drop_hook(rpl_sim_t *sim, rpl_drop_fn fn, void *user);

/* ---- snapshots -------------------------------------------------------- */

/*
 * File format "RPL2" (written), every number little-endian:
 *   "RPL2", uint32 format version (1; a reader refuses a version it does
 *   not know), then sections to the end of the file, each
 *     4-byte tag (four ASCII letters), uint32 length, `length` bytes:
 *   HGHT  (first, exactly once) uint32 width, uint32 height, then the
 *         current and the previous buffer, each w*h int16, row-major;
 *         length 8 + 4*w*h.
 *   WALL  (at most once; absent: no walls) the wall mask as run lengths
 *         over the cells in row-major order: runs of open and solid cells
 *         alternating, open first, each an unsigned LEB128 number (7 bits
 *         a byte, low first, the top bit set on all but the last byte);
 *         only the first run may be 0, and they add up to w*h exactly.
 *   EDGE  (at most once; absent: reflecting) uint32 rpl_edges value.
 *   wave  (optional, at most once; absent: the classic rule) the model:
 *         uint32 RPL_MODEL_WAVE, then its parameters as five IEEE 754
 *         doubles, speed, viscosity, spacing, dt, attenuation; length 44.
 *         A reader that knows it refuses parameters rpl_wave_info
 *         refuses; one that does not skips it and steps by the classic
 *         rule.
 *   DONE  (last, exactly once) empty: a file cut short, even between
 *         sections, is refused rather than taken for a whole one.
 * Later contents come as new sections, not a new format.  A tag whose
 * first letter is lower case is optional: a reader that does not know it
 * skips it.  An unknown tag starting with an upper-case letter is
 * critical: the snapshot is refused, naming the tag.  A section longer
 * than the heights of the largest field, a repeated section, or bytes
 * after the last section are refused as well.
 * "RPL1" files (read, no longer written) are "RPL1", uint32 width, uint32
 * height and the two buffers as in HGHT: no walls, reflecting edges.
 *
 * Saving writes HGHT, WALL (if the field has walls), wave (if its model is
 * RPL_MODEL_WAVE), EDGE and DONE to a temporary file created beside
 * `path`, synced and renamed over it (a FIFO or a character device, such
 * as /dev/stdout, is written in place; a directory, a symbolic link to a
 * regular file or a file the user may not write is refused and left as it
 * is), so `path` is either the old file or the whole new one.  Loading
 * checks everything (magic, version, every section's tag and length
 * against what it can hold, size, height range, zero border, the runs)
 * before it touches the field, reading one pass front to back and never
 * allocating more than the size in HGHT needs: on any failure the field
 * is unchanged and rpl_sim_error tells why.  A loaded snapshot replaces
 * the heights, the walls, the edges and the model together (heights under
 * walls are zeroed: walls win).
 */
RPL_NODISCARD rpl_status rpl_sim_save(rpl_sim_t *sim, const char *path);
RPL_NODISCARD rpl_status rpl_sim_load(rpl_sim_t *sim, const char *path);

/*
 * A snapshot read into memory and checked, before any field is touched:
 * read it, look at its size (to create a field that fits), then
 * rpl_sim_set_snapshot.  A file is opened once and read front to back, so
 * a pipe, a FIFO or /dev/stdin works like a file.  Reading gives a
 * handle even when it fails (NULL only when memory runs out: RPL_ENOMEM),
 * so that rpl_snapshot_error can say why; always destroy it.
 * RPL_EIO (cannot open or read), RPL_EFORMAT (not a valid snapshot),
 * RPL_EINVAL (NULL or empty path).
 */
typedef struct rpl_snapshot rpl_snapshot_t;
RPL_NODISCARD rpl_status rpl_snapshot_read(const char *path, rpl_snapshot_t **out);
/* The same checks on len bytes in memory (NULL data with len > 0:
 * RPL_EINVAL; too few bytes, len 0 included: RPL_EFORMAT). */
RPL_NODISCARD rpl_status rpl_snapshot_parse(const void *data, size_t len, rpl_snapshot_t **out);
/* The size of a valid snapshot (0x0 for a failed one or NULL). */
void rpl_snapshot_size(const rpl_snapshot_t *snap, int *w, int *h);
/* Why reading failed, in one line ("" if it did not). */
const char *rpl_snapshot_error(const rpl_snapshot_t *snap);
void rpl_snapshot_destroy(rpl_snapshot_t *snap); /* NULL is fine */
/* Replaces the field's state (heights, walls and edges) with a valid
 * snapshot's: RPL_ESIZE if the sizes differ, RPL_EINVAL for NULL or a
 * failed snapshot, RPL_ENOMEM; on failure the field is unchanged. */
RPL_NODISCARD rpl_status rpl_sim_set_snapshot(rpl_sim_t *sim, const rpl_snapshot_t *snap);

#ifdef __cplusplus
}
#endif

#endif
