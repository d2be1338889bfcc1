/* ripple.h - public API of libripple, the platform-free ripple core (no SDL, no printing). */
#ifndef RIPPLE_H
#define RIPPLE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Conventions, for every function below.
 *
 * Errors: a function that can fail returns an rpl_status (or NULL with a
 * status through a pointer) and, on failure, leaves its objects as they
 * were.  The detail of the last failure, one line naming what was wrong,
 * is kept by the object it happened on and read with its getter
 * (rpl_sim_error, rpl_renderer_error, rpl_snapshot_error,
 * rpl_show_error); rpl_strerror names a status.  The library never
 * prints and never exits.
 *
 * NULL: any handle may be NULL.  A function that returns a status then
 * gives RPL_EINVAL; a getter gives 0 or NULL as documented, and an error
 * getter a message saying the handle is NULL; destroy and other void
 * functions do nothing.  Sizes, radii, strengths and pitches
 * out of range give RPL_EINVAL, never a crash.
 *
 * Ownership: a create function's object belongs to the caller until its
 * destroy (or free) function; pointers the library returns (buffers,
 * strings) belong to the object they came from and stay valid while it
 * lives, unless said otherwise.  Data passed in is copied unless said
 * otherwise.
 *
 * Threads: a field, and the renderers, autopilots and show players that
 * use it, belong to one thread at a time (the field runs its own worker threads inside
 * step and render).  Different fields are independent.  A backdrop is
 * never changed after creation and may be shared by any threads and
 * fields.  The functions without a handle (kernels, image fitting,
 * strings) may be called from any thread.
 */

#define RPL_VERSION_MAJOR 1
#define RPL_VERSION_MINOR 0
#define RPL_VERSION_PATCH 0
#define RPL_VERSION "1.0.0"

/* The library's version as "MAJOR.MINOR.PATCH": that of the library
 * running, which may be newer than the RPL_VERSION compiled against. */
const char *rpl_version(void);

/*
 * The height contract.
 *
 * Every height stored in a field lies in [RPL_HEIGHT_MIN, RPL_HEIGHT_MAX].
 * The step clamps its result into that range, drops clamp their weight into
 * it and a snapshot holding anything outside it is refused.  With inputs in
 * range every intermediate of the rule fits in int16:
 *   l + r + u + d        in [-32768, 32764]
 *   (...) >> 1           in [-16384, 16382]
 *   ... - prev           in [-24575, 24574]
 * so a 16-bit SIMD lane computes exactly what the scalar code does and no
 * value ever wraps around.
 */
#define RPL_HEIGHT_MIN (-8192)
#define RPL_HEIGHT_MAX 8191

/* Field sizes accepted by rpl_sim_create (each side). */
#define RPL_DIM_MIN 3
#define RPL_DIM_MAX 8192

/* Largest stone radius accepted by rpl_sim_drop / rpl_sim_trail. */
#define RPL_RADIUS_MAX 256

/* Refraction strength is fixed point with 4 fraction bits: the pixel offset
 * is (height difference * strength) >> 4.  16 is the classic 1:1 mapping. */
#define RPL_STRENGTH_ONE 16
#define RPL_STRENGTH_MAX 64

typedef enum rpl_status {
    RPL_OK = 0,
    RPL_EINVAL,  /* an argument is out of range or NULL */
    RPL_ENOMEM,  /* allocation failed */
    RPL_EIO,     /* a file could not be opened, read or written */
    RPL_EFORMAT, /* a file's contents are not a valid snapshot or show */
    RPL_ESIZE,   /* a snapshot's size does not match the field */
    RPL_ENOTSUP  /* a requested kernel path is not available here */
} rpl_status;

/* A short English phrase for a status code; never NULL. */
const char *rpl_strerror(rpl_status status);

/* ---- kernels ---------------------------------------------------------- */

typedef struct rpl_kernels rpl_kernels_t; /* defined in kernels/kernels.h */

/* Finds the kernel table of a path: "c" (the scalar reference, always
 * there), "mmx", "sse2", "avx2", or NULL / "auto" for the best one this
 * CPU runs (from CPUID), unless the environment variable RIPPLE_SIMD
 * names a path, which "auto" then means.  RPL_EINVAL: no such path;
 * RPL_ENOTSUP: a path this build or this CPU lacks. */
rpl_status rpl_kernels_find(const char *name, const rpl_kernels_t **out);
/* The same, NULL on failure. */
const rpl_kernels_t *rpl_kernels_get(const char *name);
const char *rpl_kernels_name(const rpl_kernels_t *k);
/* The i-th path name ripple knows (built here or not), NULL past the end. */
const char *rpl_kernels_known(int i);

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

/* Creates a still field using the "auto" kernels.  w, h in
 * [RPL_DIM_MIN, RPL_DIM_MAX].  On failure returns NULL and sets *status
 * (if status is not NULL): RPL_EINVAL, RPL_ENOMEM, or RPL_ENOTSUP when
 * RIPPLE_SIMD asks for a path this machine lacks. */
rpl_sim_t *rpl_sim_create(int w, int h, uint64_t seed, rpl_status *status);
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
rpl_status rpl_sim_set_kernels(rpl_sim_t *sim, const rpl_kernels_t *k);

/* Threads for step and render: 1..RPL_THREADS_MAX (results are the same
 * bytes for any count).  On failure the field keeps its old count. */
#define RPL_THREADS_MAX 64
rpl_status rpl_sim_set_threads(rpl_sim_t *sim, int threads);
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
rpl_status rpl_sim_drop(rpl_sim_t *sim, int x, int y, int radius, int weight);

/* Drops stones along the segment (x0,y0)-(x1,y1), both ends included,
 * spaced max(1, radius/2) cells apart. Same arguments rules as drop. */
rpl_status rpl_sim_trail(rpl_sim_t *sim, int x0, int y0, int x1, int y1,
                         int radius, int weight);

/* Rain: on each call, drops per_kilostep/1000 stones on average (so 1000
 * is one stone per step), placed, sized in [rmin, rmax] and weighted in
 * [wmin, wmax] by the field's seeded generator: the same seed and calls
 * give the same rain.  Arguments out of range: RPL_EINVAL. */
typedef struct rpl_rain {
    int per_kilostep;
    int rmin, rmax;
    int wmin, wmax;
} rpl_rain_t;
rpl_status rpl_sim_rain(rpl_sim_t *sim, const rpl_rain_t *rain);

/* Next value of the field's generator (xorshift64*), for callers that want
 * randomness reproducible with the field's seed. */
uint32_t rpl_sim_random(rpl_sim_t *sim);

/* Sum of |height| over the current buffer: a measure of how much the water
 * moves (0 when at rest). */
uint64_t rpl_sim_energy(const rpl_sim_t *sim);

/* Replaces both buffers (which may be the field's own), checking the
 * contract (range, zero border).  On failure (RPL_EINVAL, detail in
 * rpl_sim_error) nothing changes. */
rpl_status rpl_sim_set_state(rpl_sim_t *sim, const int16_t *cur,
                             const int16_t *prev);

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
rpl_status rpl_wave_info(const rpl_wave_params_t *params, rpl_wave_info_t *info);

/* Chooses the field's rule.  RPL_MODEL_WAVE needs params (checked as by
 * rpl_wave_info; refused: RPL_EINVAL, the reason in rpl_sim_error, the
 * field as it was); RPL_MODEL_CLASSIC ignores them (the last wave
 * parameters are kept).  The heights are not touched: the water goes on
 * under the new rule from the next step.  Another model: RPL_EINVAL.  The
 * model stays through rpl_sim_reset; a snapshot carries it. */
rpl_status rpl_sim_set_model(rpl_sim_t *sim, rpl_model model, const rpl_wave_params_t *params);
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
rpl_status rpl_sim_set_walls(rpl_sim_t *sim, const uint8_t *mask);
/* Makes the cells of a rectangle, x..x+w-1 by y..y+h-1 clipped to the
 * field, solid (solid nonzero) or open (0).  w or h negative: RPL_EINVAL;
 * 0 or wholly off the field: nothing. */
rpl_status rpl_sim_wall_rect(rpl_sim_t *sim, int x, int y, int w, int h, int solid);
/* Makes a thick segment solid (solid nonzero) or open (0): every cell
 * whose centre lies within thickness/2 of the segment (x0,y0)-(x1,y1),
 * ends included (so a thickness-1 line is watertight even on a diagonal;
 * a single point is a round blot).  Ends may lie anywhere in int range
 * (ends farther than RPL_DIM_MAX cells off the field are first cut to
 * that reach, to the nearest cell).  thickness in 1..RPL_WALL_THICK_MAX,
 * else RPL_EINVAL. */
#define RPL_WALL_THICK_MAX 16384
rpl_status rpl_sim_wall_line(rpl_sim_t *sim, int x0, int y0, int x1, int y1, int thickness,
                             int solid);
/* The field's wall mask (w*h bytes, 1 = solid), NULL if no cell is solid
 * (clearing the last solid cell lets the mask go).  Valid until the walls
 * next change. */
const uint8_t *rpl_sim_walls(const rpl_sim_t *sim);
/* A count of changes to the walls: it moves on with every call that set
 * cells of the mask (set, rectangle, line, a snapshot loaded), so a front
 * end that draws the walls knows when to draw them again.  0 for NULL. */
uint64_t rpl_sim_walls_serial(const rpl_sim_t *sim);

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
rpl_status rpl_sim_set_edges(rpl_sim_t *sim, rpl_edges edges);
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
rpl_status rpl_sim_save(rpl_sim_t *sim, const char *path);
rpl_status rpl_sim_load(rpl_sim_t *sim, const char *path);

/*
 * A snapshot read into memory and checked, before any field is touched:
 * read it, look at its size (to create a field that fits), then
 * rpl_sim_set_snapshot.  A file is opened once and read front to back, so
 * a pipe, a FIFO or /dev/stdin works like a file.  Reading gives a
 * handle even when it fails (NULL only when memory runs out: RPL_ENOMEM),
 * so that rpl_snapshot_error can say why; always free it.
 * RPL_EIO (cannot open or read), RPL_EFORMAT (not a valid snapshot),
 * RPL_EINVAL (NULL or empty path).
 */
typedef struct rpl_snapshot rpl_snapshot_t;
rpl_status rpl_snapshot_read(const char *path, rpl_snapshot_t **out);
/* The same checks on len bytes in memory (NULL data with len > 0:
 * RPL_EINVAL; too few bytes, len 0 included: RPL_EFORMAT). */
rpl_status rpl_snapshot_parse(const void *data, size_t len, rpl_snapshot_t **out);
/* The size of a valid snapshot (0x0 for a failed one or NULL). */
void rpl_snapshot_size(const rpl_snapshot_t *snap, int *w, int *h);
/* Why reading failed, in one line ("" if it did not). */
const char *rpl_snapshot_error(const rpl_snapshot_t *snap);
void rpl_snapshot_free(rpl_snapshot_t *snap); /* NULL is fine */
/* Replaces the field's state (heights, walls and edges) with a valid
 * snapshot's: RPL_ESIZE if the sizes differ, RPL_EINVAL for NULL or a
 * failed snapshot, RPL_ENOMEM; on failure the field is unchanged. */
rpl_status rpl_sim_set_snapshot(rpl_sim_t *sim, const rpl_snapshot_t *snap);

/* ---- refraction renderer --------------------------------------------- */

/*
 * For each pixel (x, y):
 *   xoff = H(x-1, y) - H(x+1, y),  yoff = H(x, y-1) - H(x, y+1)
 * with H = 0 outside the field; the source texel is
 *   (clamp(x + (xoff*strength >> 4), 0, w-1), clamp(y + (yoff*strength >> 4), 0, h-1))
 * of the background, which has the field's size (>> is an arithmetic
 * shift, rounding towards minus infinity).  The pixel written is that
 * texel of the background prepared for the framebuffer's format (see
 * rpl_backdrop_create), with shading on changed by a light from the top
 * left that brightens slopes facing it by
 *   d = clamp((-(xoff + yoff)) >> 2, -RPL_SHADE_MAX, RPL_SHADE_MAX)
 * (negative d darkens), in each format natively:
 *
 *   RPL_XRGB8888  R, G and B bytes each get a saturating add of d (clamped
 *                 to [0, 255]); the top byte is copied.
 *   RPL_RGB565    each channel in its own width, clamped to its range:
 *                   r5 = clamp(r5 + (d >> 3), 0, 31)
 *                   g6 = clamp(g6 + (d >> 2), 0, 63)
 *                   b5 = clamp(b5 + (d >> 3), 0, 31)
 *                 (arithmetic shifts: d >> 3 in [-12, 12], d >> 2 in [-24, 24]).
 *   RPL_INDEX8    through the palette: d is quantised to the level
 *                   q = (d + 2) >> 2   in [-RPL_SHADE_STEPS, RPL_SHADE_STEPS]
 *                 and the index i becomes shade[q + RPL_SHADE_STEPS][i] of the
 *                 backdrop's table (rpl_backdrop_shade_table): the palette
 *                 entry nearest to entry i shaded the XRGB8888 way by 4 * q;
 *                 row q = 0 is the identity.
 *
 * Flat water therefore reproduces the backdrop exactly in every format,
 * with or without shading.
 */
#define RPL_SHADE_MAX 96
#define RPL_SHADE_STEPS 24                        /* INDEX8 levels each side of 0 */
#define RPL_SHADE_LEVELS (2 * RPL_SHADE_STEPS + 1) /* rows of the INDEX8 shade table */

typedef enum rpl_format {
    RPL_XRGB8888 = 0, /* uint32 per pixel, 0xXXRRGGBB */
    RPL_RGB565 = 1,   /* uint16 per pixel, rrrrrggggggbbbbb (native byte order) */
    RPL_INDEX8 = 2    /* uint8 per pixel, an index into the backdrop's palette */
} rpl_format;

/* Bytes per pixel of a format: 4, 2 or 1; 0 for a value that is none. */
int rpl_format_bytes(rpl_format format);

/* Nearest-neighbour upscale by a whole factor, for showing a small field
 * big: each of the w x h pixels at src (rows spitch bytes apart, `bytes`
 * = 1, 2 or 4 bytes a pixel) becomes a scale x scale block at dst (rows
 * dpitch bytes apart), with the kernels of k (NULL: the best this CPU
 * runs; every path writes the same bytes).  Pitches at least a row and
 * multiples of the pixel size, pointers aligned for it, scale
 * 1..RPL_UPSCALE_MAX; otherwise RPL_EINVAL and dst untouched.  Pass a
 * rectangle of a larger picture by offsetting src and dst. */
#define RPL_UPSCALE_MAX 16
rpl_status rpl_upscale(const rpl_kernels_t *k, const void *src, ptrdiff_t spitch, void *dst,
                       ptrdiff_t dpitch, int w, int h, int bytes, int scale);

/*
 * A background prepared once for one framebuffer format.
 *
 * Created from w*h XRGB8888 pixels, tightly packed (w, h in
 * [RPL_DIM_MIN, RPL_DIM_MAX]); the pixels are copied, so the caller may
 * free them.  In each format the backdrop holds:
 *   RPL_XRGB8888  the pixels as given (top bytes included).
 *   RPL_RGB565    each pixel converted once, rounding to the nearest level:
 *                   r5 = (r*31 + 127) / 255, g6 = (g*63 + 127) / 255,
 *                   b5 = (b*31 + 127) / 255   (integer division).
 *   RPL_INDEX8    a palette of 256 XRGB8888 entries (top bytes 0xFF) built
 *                 from the picture and every pixel's index into it:
 *                 - a picture of at most 256 distinct colours (R, G, B; the
 *                   top byte ignored) gets exactly those colours, in
 *                   ascending order of 0xRRGGBB, and is reproduced exactly;
 *                 - any other picture: median cut over a histogram of 6
 *                   bits per channel, into at most 256 boxes: the box of
 *                   the largest squared error (pixels weighted by count)
 *                   is cut across the channel of its largest squared
 *                   error, at the place where the two halves' squared
 *                   errors along it add up least; each entry is the mean
 *                   colour of its box's pixels, rounded;
 *                 entries past rpl_backdrop_colors() repeat the last one in
 *                 use.  Each pixel gets its nearest entry: least squared
 *                 distance in R, G, B, ties to the lowest index (no
 *                 dithering).  The shade table is built likewise
 *                 (see above).  All integer arithmetic: the same picture
 *                 gives the same bytes on every machine.
 * On failure returns NULL and sets *status (if not NULL): RPL_EINVAL for a
 * NULL picture, a size out of range or an unknown format, RPL_ENOMEM.
 */
typedef struct rpl_backdrop rpl_backdrop_t;

rpl_backdrop_t *rpl_backdrop_create(const uint32_t *xrgb, int w, int h, rpl_format format,
                                    rpl_status *status);
void rpl_backdrop_destroy(rpl_backdrop_t *bd); /* NULL is fine */
/* The format and size given at creation (NULL: RPL_XRGB8888 and 0x0). */
rpl_format rpl_backdrop_format(const rpl_backdrop_t *bd);
void rpl_backdrop_size(const rpl_backdrop_t *bd, int *w, int *h);
/* The prepared pixels: w*h of the format, tightly packed (what flat water
 * shows; NULL for NULL). */
const void *rpl_backdrop_pixels(const rpl_backdrop_t *bd);
/* INDEX8: the 256 palette entries, XRGB8888 (NULL for other formats). */
const uint32_t *rpl_backdrop_palette(const rpl_backdrop_t *bd);
/* INDEX8: palette entries in use, 1..256 (0 for other formats). */
int rpl_backdrop_colors(const rpl_backdrop_t *bd);
/* INDEX8: the shade table, RPL_SHADE_LEVELS rows of 256 indices, row
 * q + RPL_SHADE_STEPS for level q (NULL for other formats). */
const uint8_t *rpl_backdrop_shade_table(const rpl_backdrop_t *bd);

typedef struct rpl_view {
    int strength; /* 0..RPL_STRENGTH_MAX, RPL_STRENGTH_ONE is 1:1 */
    int shading;  /* 0 off, 1 on */
} rpl_view_t;

/* Renders the whole field into fb in the backdrop's format: w x h pixels,
 * rows `pitch` bytes apart (pitch at least w pixels and a multiple of the
 * pixel size, fb aligned for it).  The backdrop must have the field's
 * size.  Any bad argument: RPL_EINVAL, fb untouched, detail in
 * rpl_sim_error (NULL sim: RPL_EINVAL only).  Keeps nothing between calls:
 * for a frame kept and redrawn only where it changed, use a renderer. */
rpl_status rpl_render(rpl_sim_t *sim, const rpl_backdrop_t *bd, void *fb, ptrdiff_t pitch,
                      const rpl_view_t *view);

/* The XRGB8888 renderer on a raw background, no backdrop needed: bg is
 * w*h XRGB8888 pixels, tightly packed, and `format` must be RPL_XRGB8888
 * (the other formats need a backdrop: RPL_EINVAL).  Same pixels as
 * rpl_render with an XRGB8888 backdrop of bg. */
rpl_status rpl_refract(rpl_sim_t *sim, const uint32_t *bg, void *fb,
                       ptrdiff_t pitch, rpl_format format,
                       const rpl_view_t *view);

/*
 * A renderer (opaque) keeps one framebuffer of a field up to date: it
 * remembers what it last drew and where, and its next draw into the same
 * framebuffer with the same backdrop, pitch and view redraws only the
 * tiles that may have changed since (with sleeping tiles on; otherwise,
 * or with anything else changed, it draws everything).  The pixels are
 * those of rpl_render, byte for byte.  One field may have several
 * renderers, each keeping its own framebuffer (a window and a thumbnail,
 * say).  A renderer refers to its field: destroy it before the field.  It
 * is used from the field's thread, like the field.
 */
typedef struct rpl_renderer rpl_renderer_t;

/* A renderer of sim; NULL on failure with *status (if not NULL) set:
 * RPL_EINVAL for a NULL field, RPL_ENOMEM. */
rpl_renderer_t *rpl_renderer_create(rpl_sim_t *sim, rpl_status *status);
void rpl_renderer_destroy(rpl_renderer_t *r); /* NULL is fine */
/* Brings fb up to date (arguments as rpl_render).  On failure, RPL_EINVAL
 * with the detail in rpl_renderer_error, fb untouched. */
rpl_status rpl_renderer_draw(rpl_renderer_t *r, const rpl_backdrop_t *bd, void *fb,
                             ptrdiff_t pitch, const rpl_view_t *view);
/* The next draw draws everything: call it when the framebuffer's pixels
 * were changed by someone else (an overlay drawn into it, say). */
void rpl_renderer_invalidate(rpl_renderer_t *r);
/* Tiles drawn by the last draw (0 for NULL). */
unsigned rpl_renderer_drawn(const rpl_renderer_t *r);

/* A rectangle of pixels (or cells): x, y its top left corner. */
typedef struct rpl_rect {
    int x, y, w, h;
} rpl_rect_t;

/* What the last draw changed, as rectangles of the framebuffer to show
 * again (the changed tiles, clipped to the field; runs of tiles on a row
 * merged, and a run as wide as one on the row above lengthening it):
 * writes the first `max` of them to rects (NULL with max 0 only counts)
 * and returns how many there are, at most the field's tile count; 0 for
 * NULL or after a failed draw.  Every rectangle outside them shows what it
 * showed before the draw. */
int rpl_renderer_changed(const rpl_renderer_t *r, rpl_rect_t *rects, int max);

/* The next draw redraws the tiles under a rectangle of the framebuffer
 * (clipped to the field; nothing if empty): call it when something else
 * drew there, such as an overlay, that must not outlive its own frame. */
void rpl_renderer_invalidate_rect(rpl_renderer_t *r, int x, int y, int w, int h);
/* The field it draws (NULL for NULL). */
rpl_sim_t *rpl_renderer_field(const rpl_renderer_t *r);
/* Detail of the last failure ("" if none). */
const char *rpl_renderer_error(const rpl_renderer_t *r);

/* Tiles in the field, and those the last step and the last render (by
 * any renderer or rpl_render) worked on; all 0 for a NULL field. */
typedef struct rpl_stats {
    unsigned tiles, stepped, rendered;
} rpl_stats_t;
void rpl_sim_stats(const rpl_sim_t *sim, rpl_stats_t *stats);

/* ---- images ----------------------------------------------------------- */

/* Fits an XRGB8888 picture of any size to dw x dh by scaling it to cover
 * the target (aspect kept) and cropping the centre: box-filtered when
 * shrinking, bilinear when enlarging.  However thin the picture (a
 * 100000x1 line), its short side fills the target and the crop keeps the
 * middle of its long side.  Output top bytes are 0xFF; dw, dh 1..65536.
 * spitch is in bytes, a multiple of 4 of at least sw pixels; src and dst
 * aligned for uint32_t.  RPL_EINVAL for anything else. */
rpl_status rpl_image_fit(const uint32_t *src, int sw, int sh, ptrdiff_t spitch,
                         uint32_t *dst, int dw, int dh);

/* ---- autopilot -------------------------------------------------------- */

/* Scripted drops that play by themselves: shapes drawn with trails and
 * stones, one scene after another.  Deterministic for a given seed and
 * field size. */
typedef struct rpl_autopilot {
    uint64_t rng;
    uint32_t t;       /* steps into the current scene */
    int scene;        /* index of the current scene */
    int len;          /* length of the current scene in steps */
    int cx, cy;       /* scene centre */
    int size;         /* scene size in cells */
    int lastx, lasty; /* previous pen position, for trails */
    int pen;          /* 1 if lastx/lasty are valid */
} rpl_autopilot_t;

void rpl_autopilot_init(rpl_autopilot_t *ap, uint64_t seed);
/* Advances the script one step, dropping into sim. */
void rpl_autopilot_tick(rpl_autopilot_t *ap, rpl_sim_t *sim);

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
 *   wall rect|open X0 Y0 X1 Y1 | line X0 Y0 X1 Y1 THICKNESS | clear
 *   edges reflect | absorb      picture NAME      cut      wait T      loop      end
 * Options NAME=VALUE after a command: over=T (lay its stones over T
 * instead of at once), every=T and times=N (repeat it), count=N (ring),
 * radius=R (text).  A command or option written with a leading '?' is
 * optional: one this version does not know is skipped, so later shows
 * still play here; an unknown command or option without it is an error.
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
 * always free it.  RPL_EFORMAT: not a valid show; RPL_EINVAL: NULL out,
 * or NULL text with len > 0. */
rpl_status rpl_show_parse(const char *text, size_t len, const char *name, rpl_show_t **out);
/* Reads a show file once, front to back (a pipe or a FIFO works), and
 * parses it.  RPL_EIO: cannot open or read it, or it is larger than
 * RPL_SHOW_BYTES_MAX; RPL_EINVAL: a NULL or empty path; else as parse. */
rpl_status rpl_show_read(const char *path, rpl_show_t **out);
/* Why parsing failed, in one line ("" if it did not). */
const char *rpl_show_error(const rpl_show_t *show);
void rpl_show_free(rpl_show_t *show); /* NULL is fine */
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
 * refers to its show: free the show after the player.  It is used from
 * the field's thread.
 */
typedef struct rpl_show_player rpl_show_player_t;

/* What the show has set for the front end.  Until set: light 1, strength
 * RPL_STRENGTH_ONE, stone 0 (not set), rain off, picture "" (none). */
typedef struct rpl_show_view {
    int light;        /* 0 or 1 */
    int strength;     /* 0..RPL_STRENGTH_MAX */
    int stone;        /* radius of the user's stones in cells */
    int rain_on;      /* 0 or 1 */
    rpl_rain_t rain;  /* in cells for the field of the last tick */
    const char *picture; /* a name for the front end to resolve; "default": its own */
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

/* A player at step 0 of a valid show; NULL on failure with *status (if
 * not NULL): RPL_EINVAL for a NULL or failed show, RPL_ENOMEM. */
rpl_show_player_t *rpl_show_player_create(const rpl_show_t *show, uint64_t seed,
                                          rpl_status *status);
void rpl_show_player_destroy(rpl_show_player_t *p); /* NULL is fine */
/* Plays one step into sim (see above); after the end, only the rain.
 * RPL_EINVAL for NULL; a failure of the field (detail in rpl_sim_error)
 * is returned after the rest of the step was played. */
rpl_status rpl_show_player_tick(rpl_show_player_t *p, rpl_sim_t *sim);
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

/* ---- sound ------------------------------------------------------------ */

/*
 * A software mixer of drip sounds (opaque), with no audio device of its
 * own: the caller asks it for samples (interleaved stereo, signed 16-bit,
 * left first) and plays or saves them.  Tell it about stones with
 * rpl_sound_drip, typically from a drop hook (rpl_sim_set_drop_hook).
 *
 * A drip is a water drop's "plip": a sine whose pitch glides up towards
 * 7/4 of where it starts (a little under an octave; time constant 6 ms +
 * radius / 2, at most 24 ms), with a 1.5 ms attack and an exponential
 * decay, and a faint burst of filtered noise at its start (the splash).
 * Small stones sound higher and shorter: the pitch starts at
 * 8400 / (radius + 3) Hz (2.1 kHz for radius 1, 560 Hz for radius 12,
 * never under 200 Hz; +-8% at random) and the decay's time constant is
 * 20 + 2 * radius ms (at most 140); heavier stones are louder (as the
 * square root of the weight), and each is panned slightly by x (at most
 * 30% to a side).  The bed, off until rpl_sound_set_ambient turns it on,
 * is a soft low rumble of filtered noise (about -47 dBFS RMS, below
 * 400 Hz), slowly swelling and ebbing.  At most RPL_SOUND_VOICES drips sound at once: a new one steals
 * the quietest (the oldest among equals), which fades out over a few
 * milliseconds rather than stop; drips that arrive together are spread
 * over one sixtieth of a second.  Every start and end is enveloped, the
 * bed and the volume glide when changed, and a limiter followed by a
 * soft saturation keeps every sample strictly inside (-32767, 32767), so
 * there are neither clicks nor clipping however many stones fall.
 *
 * Exactness: all integer arithmetic, the random parts from the seed.  The
 * same rate, seed and sequence of calls (the same drips between the same
 * numbers of frames mixed) give the same samples on every machine, build
 * and compiler; how the frames are split among rpl_sound_mix calls does
 * not matter.
 *
 * A sound belongs to one thread at a time, like a field; guard it with a
 * lock if an audio callback mixes while another thread adds drips.
 */
typedef struct rpl_sound rpl_sound_t;

#define RPL_SOUND_RATE_MIN 8000   /* sample rates accepted, frames per second */
#define RPL_SOUND_RATE_MAX 192000
#define RPL_SOUND_VOICES 24       /* drips sounding at once, at most */
#define RPL_SOUND_VOLUME_ONE 256  /* full volume (the default) */

/* A silent mixer at sample_rate (RPL_SOUND_RATE_MIN..MAX) whose random
 * parts (pitch jitter, noise) come from seed.  NULL on failure with
 * *status (if not NULL): RPL_EINVAL for a rate out of range, RPL_ENOMEM. */
rpl_sound_t *rpl_sound_create(int sample_rate, uint64_t seed, rpl_status *status);
void rpl_sound_destroy(rpl_sound_t *snd); /* NULL is fine */

/* Queues the drip of a stone of radius 1..RPL_RADIUS_MAX and weight
 * (its magnitude, at most 8192, sets the loudness; 0 is silent and
 * queues nothing) at x of a field field_w cells wide (x is clamped into
 * the field for the pan; y is not used yet).  It starts at the next frame
 * mixed (within 1/60 s when several come at once).  RPL_EINVAL for a NULL
 * sound, a radius out of range or field_w < 1, detail in
 * rpl_sound_error. */
rpl_status rpl_sound_drip(rpl_sound_t *snd, int x, int y, int radius, int weight, int field_w);

/* Renders the next `frames` frames (2 * frames int16 values, left then
 * right) into out and moves time on by as much.  frames 0 does nothing;
 * frames < 0, or a NULL out with frames > 0: RPL_EINVAL, out untouched. */
rpl_status rpl_sound_mix(rpl_sound_t *snd, int16_t *out, int frames);

/* The ambient bed on (1) or off (0); it fades in or out over half a
 * second. */
void rpl_sound_set_ambient(rpl_sound_t *snd, int on);
/* Master volume 0..RPL_SOUND_VOLUME_ONE (0 mutes), reached over 20 ms;
 * RPL_EINVAL out of range. */
rpl_status rpl_sound_set_volume(rpl_sound_t *snd, int volume);

/* The rate; drips sounding now (fading ones included); drips waiting to
 * start; frames mixed since creation.  0 for NULL. */
int rpl_sound_rate(const rpl_sound_t *snd);
int rpl_sound_voices(const rpl_sound_t *snd);
int rpl_sound_pending(const rpl_sound_t *snd);
uint64_t rpl_sound_frames(const rpl_sound_t *snd);
/* Detail of the last failure ("" if none). */
const char *rpl_sound_error(const rpl_sound_t *snd);

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

typedef struct rpl_water_params {
    rpl_surface_kind kind;
    double x0, x1;          /* left and right edge, x0 < x1 */
    double level;           /* rest height of the surface (y) */
    double bottom;          /* the floor, bottom > level */
    rpl_water_ends ends;
    double step;            /* seconds per step, (0, 0.1] */
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
    double sleep_epsilon;   /* >= 0 */
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

/* Checks parameters: RPL_OK, or RPL_EINVAL with a one-line reason in
 * why (why may be NULL; len includes the terminating 0).  Every value
 * must be finite and in its range. */
rpl_status rpl_water_check(const rpl_water_params_t *p, char *why, size_t len);

typedef struct rpl_water rpl_water_t;

/* A flat, sleeping body.  NULL on failure with *status (if not NULL)
 * RPL_EINVAL (see rpl_water_check) or RPL_ENOMEM. */
rpl_water_t *rpl_water_create(const rpl_water_params_t *p, rpl_status *status);
void rpl_water_destroy(rpl_water_t *w); /* NULL is fine */
const char *rpl_water_error(const rpl_water_t *w);
/* The parameters in use (NULL for NULL). */
const rpl_water_params_t *rpl_water_params(const rpl_water_t *w);
/* New parameters, the surface kept where it can be (resampled when the
 * spring count changes; the rings are dropped when the model changes).
 * On failure nothing changes. */
rpl_status rpl_water_set_params(rpl_water_t *w, const rpl_water_params_t *p);
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
/* The surface's y at n points x0 + i*dx (n >= 1), into out: the cheap way
 * to draw it (one spline segment is found per run, not per point). */
rpl_status rpl_water_sample(const rpl_water_t *w, double x0, double dx, int n, float *out);
/* The springs: their count, and their displacements and velocities
 * (NULL for the waves model). */
int rpl_water_springs(const rpl_water_t *w);
const double *rpl_water_spring_y(const rpl_water_t *w);
const double *rpl_water_spring_v(const rpl_water_t *w);
/* Rings alive (waves model). */
int rpl_water_rings(const rpl_water_t *w);

/* Adds dv (units per step, finite) to the surface's velocity at x, split
 * between the two nearest springs by distance (waves: starts a ring of
 * amplitude dv).  Wakes the body.  x outside [x0, x1]: RPL_EINVAL. */
rpl_status rpl_water_disturb(rpl_water_t *w, double x, double dv);
/* Something crossing the surface at x with vertical speed vy (world units
 * per second, + down): disturbs by the force the speed maps to (see
 * force_min..force_max), in the direction of vy.  Returns the force used
 * through *force (may be NULL). */
rpl_status rpl_water_impact(rpl_water_t *w, double x, double vy, double *force);

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
 * rpl_water_crossing write to the body: call them on one body from one
 * thread at a time. */
typedef struct rpl_submerged {
    double area;
    double cx, cy;
    double x_min, x_max;   /* the submerged part's extent across */
} rpl_submerged_t;
rpl_status rpl_water_submerged(const rpl_water_t *w, const double *xy, int n, rpl_submerged_t *out);

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
rpl_status rpl_water_forces(const rpl_water_t *w, const rpl_body_t *b, double g, double dt,
                            rpl_water_force_t *out);

/* Sweep detection: did a point moving from (ax, ay) to (bx, by) during the
 * last step cross the surface?  Returns 1 going in (down), -1 coming out,
 * 0 neither, and where through *x (may be NULL).  Checks the whole path,
 * so a fast body is caught however far it moved.  The first crossing
 * along the path counts, over [x0, x1] only, against the same piecewise
 * linear surface as rpl_water_submerged; a point on the surface is out.
 * *x is written only on a crossing; NULL or non-finite arguments give 0. */
int rpl_water_crossing(const rpl_water_t *w, double ax, double ay, double bx, double by,
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

/* Room for `capacity` droplets (1..RPL_SPLASH_MAX), randomness from seed. */
rpl_splash_t *rpl_splash_create(int capacity, uint64_t seed, rpl_status *status);
void rpl_splash_destroy(rpl_splash_t *s); /* NULL is fine */
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
 * may be NULL for the other formats).  w, h in [RPL_DIM_MIN, RPL_DIM_MAX]. */
rpl_side_renderer_t *rpl_side_renderer_create(const uint32_t *art, int w, int h,
                                              rpl_format format, rpl_status *status);
void rpl_side_renderer_destroy(rpl_side_renderer_t *r); /* NULL is fine */
const char *rpl_side_renderer_error(const rpl_side_renderer_t *r);
/* INDEX8: the 256 palette entries (NULL for other formats). */
const uint32_t *rpl_side_renderer_palette(const rpl_side_renderer_t *r);
/* Draws one frame: scene is w x h XRGB8888 (rows spitch bytes apart), fb
 * w x h of the renderer's format (rows pitch bytes apart, not overlapping
 * the scene); time in seconds animates the caustics.  Columns of a body
 * outside the frame are clipped (its surface is read only at the columns
 * drawn and four beside them).  A bad argument (NULL, a pitch below a row
 * or not a multiple of the pixel size, nwaters or ndrops < 0, x1 < x0, a
 * value read that is not finite): RPL_EINVAL, fb untouched, the detail in
 * rpl_side_renderer_error. */
rpl_status rpl_side_render(rpl_side_renderer_t *r, const uint32_t *scene, ptrdiff_t spitch,
                           const rpl_side_water_t *waters, int nwaters,
                           const rpl_droplet_t *drops, int ndrops, double time, void *fb,
                           ptrdiff_t pitch);

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
