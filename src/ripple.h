/* ripple.h - public API of the platform-free ripple core (no SDL, no printing). */
#ifndef RIPPLE_H
#define RIPPLE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RPL_VERSION "0.1.0"

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
    RPL_EFORMAT, /* a file's contents are not a valid snapshot */
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
 * The field: two int16 height buffers of w*h cells, row-major, no padding.
 * `cur` holds the heights now, `prev` those one step ago.  Border rows and
 * columns are a fixed wall and always 0.  Read the fields freely; write the
 * buffers only through the functions below (or keep to the contract).
 */
struct rpl_pool;

/* Per-tile activity bits (see rpl_sim_set_sleeping). */
#define RPL_TILE_W 64
#define RPL_TILE_H 32

typedef struct rpl_sim {
    int w, h;
    int16_t *cur;
    int16_t *prev;
    uint64_t steps;            /* steps taken since create/reset */
    uint64_t rng;              /* state of the rain's random generator */
    const rpl_kernels_t *kern; /* kernel table used by step and render */
    char err[160];             /* detail of the last failure, "" if none */

    /* threads and sleeping tiles (managed by the functions below) */
    int threads;               /* threads used by step and render, >= 1 */
    struct rpl_pool *pool;     /* workers when threads > 1 */
    int sleeping;              /* 1: tiles at rest are skipped */
    int tiles_x, tiles_y;      /* tiles across and down */
    uint8_t *act, *act_next;   /* per tile: which buffers hold a nonzero */
    uint8_t *drawn;            /* per tile: the framebuffer shows the bare background */
    struct {                   /* what the last render drew into */
        const void *fb;
        const void *bg;        /* the raw XRGB8888 background, or the backdrop */
        unsigned bg_id;        /* 0 for a raw background, else the backdrop's serial */
        ptrdiff_t pitch;
        int format, strength, shading, valid;
    } shown;
    unsigned stepped;          /* tiles computed by the last step */
    unsigned rendered;         /* tiles drawn by the last render */
} rpl_sim_t;

/* Creates a still field using the "auto" kernels.  w, h in
 * [RPL_DIM_MIN, RPL_DIM_MAX].  On failure returns NULL and sets *status
 * (if status is not NULL): RPL_EINVAL, RPL_ENOMEM, or RPL_ENOTSUP when
 * RIPPLE_SIMD asks for a path this machine lacks. */
rpl_sim_t *rpl_sim_create(int w, int h, uint64_t seed, rpl_status *status);
void rpl_sim_destroy(rpl_sim_t *sim);

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
 * pixels show the bare background, so rpl_refract_changed need not redraw
 * them.  Results are the same bytes as with sleeping off.
 */
void rpl_sim_set_sleeping(rpl_sim_t *sim, int on);

/* Flattens the water (both buffers to 0) and reseeds the rain. */
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

/* ---- snapshots -------------------------------------------------------- */

/*
 * File format: "RPL1", uint32 LE width, uint32 LE height, then the current
 * buffer and the previous buffer, each as w*h int16 LE, row-major.
 * Saving writes a temporary file beside `path` and renames it, so `path`
 * is either the old file or the whole new one.  Loading checks everything
 * (magic, size, length, height range, zero border) before it touches the
 * field: on any failure the field is unchanged and rpl_sim_error tells why.
 */
rpl_status rpl_sim_save(rpl_sim_t *sim, const char *path);
rpl_status rpl_sim_load(rpl_sim_t *sim, const char *path);

/* Reads only a snapshot's header.  On failure *w and *h are untouched and
 * `err` (if not NULL, of `errlen` bytes) says why. */
rpl_status rpl_snapshot_probe(const char *path, int *w, int *h, char *err,
                              size_t errlen);

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
/* The format and size given at creation (bd must not be NULL). */
rpl_format rpl_backdrop_format(const rpl_backdrop_t *bd);
void rpl_backdrop_size(const rpl_backdrop_t *bd, int *w, int *h);
/* The prepared pixels: w*h of the format, tightly packed (what flat water
 * shows; bd must not be NULL). */
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
 * size.  Any bad argument: RPL_EINVAL, fb untouched (detail in
 * rpl_sim_error when sim is not NULL). */
rpl_status rpl_render(rpl_sim_t *sim, const rpl_backdrop_t *bd, void *fb, ptrdiff_t pitch,
                      const rpl_view_t *view);

/* The same picture, but only redraws the tiles that may have changed since
 * the last render of this field into the same fb with the same backdrop,
 * pitch and view (with anything else, or with sleeping off, it draws
 * everything).  If the pixels of fb were changed behind ripple's back,
 * call rpl_sim_invalidate first. */
rpl_status rpl_render_changed(rpl_sim_t *sim, const rpl_backdrop_t *bd, void *fb,
                              ptrdiff_t pitch, const rpl_view_t *view);

/* The XRGB8888 renderer on a raw background, no backdrop needed: bg is
 * w*h XRGB8888 pixels, tightly packed, and `format` must be RPL_XRGB8888
 * (the other formats need a backdrop: RPL_EINVAL).  Same pixels as
 * rpl_render with an XRGB8888 backdrop of bg. */
rpl_status rpl_refract(rpl_sim_t *sim, const uint32_t *bg, void *fb,
                       ptrdiff_t pitch, rpl_format format,
                       const rpl_view_t *view);

/* rpl_render_changed for a raw background: redraws only what may have
 * changed since the last render of this field into the same fb with the
 * same bg, pitch, format and view.  If the pixels of fb or bg were changed
 * behind ripple's back, call rpl_sim_invalidate first. */
rpl_status rpl_refract_changed(rpl_sim_t *sim, const uint32_t *bg, void *fb,
                               ptrdiff_t pitch, rpl_format format,
                               const rpl_view_t *view);
void rpl_sim_invalidate(rpl_sim_t *sim);

/* Tiles in the field, and those the last step and render worked on. */
typedef struct rpl_stats {
    unsigned tiles, stepped, rendered;
} rpl_stats_t;
void rpl_sim_stats(const rpl_sim_t *sim, rpl_stats_t *stats);

/* ---- images ----------------------------------------------------------- */

/* Fits an XRGB8888 picture of any size to dw x dh by scaling it to cover
 * the target (aspect kept) and cropping the centre: box-filtered when
 * shrinking, bilinear when enlarging.  Output top bytes are 0xFF.
 * spitch is in bytes. */
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

#ifdef __cplusplus
}
#endif

#endif
