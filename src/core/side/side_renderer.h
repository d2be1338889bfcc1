/* core/side/side_renderer.h - the side-view renderer's insides shared by its
 * files: the renderer (side_render.c), its shading of the water
 * (side_shade.c) and its 8-bit palette (side_palette.c); not part of the API. */
#ifndef RPL_CORE_SIDE_RENDERER_H
#define RPL_CORE_SIDE_RENDERER_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/base/error.h"
#include "kernels/kernels.h"
#include "ripple/side.h"

/*
 * Everything is drawn in XRGB8888 (straight into an XRGB8888 framebuffer,
 * else into a frame kept in the renderer, only where water or droplets
 * reach, the rest converted from the scene), so that the water is
 * computed once whatever the format, and an INDEX8 frame is the XRGB8888
 * one mapped through a palette made for the scene.
 *
 * The water of a column is shaded from tables: a depth table made per
 * body and frame (colour, opacity, caustic light, refraction and
 * darkening by the depth under the surface), and per column the slope and
 * curvature of the surface (refraction, darkening, foam).  The shading is
 * integer arithmetic on one pixel of the scene and the caustics' light
 * there, read from a looping animation baked once (side_caustic.c), done
 * by the kernel table's rows: near the surface, its foam, and deep water,
 * where only the colour varies with depth.
 */

#define CAUS_BITS 8
#define CAUS (1 << CAUS_BITS)      /* the caustic pattern's side, a power of two */
#define CAUS_GRID 8                /* Voronoi cells across the first layer */
#define CAUS_GRID2 6               /* and across the second */
#define CAUS_FRAMES 64             /* the caustics' loop (side_caustic.c) */
#define CAUS_RATE 20               /* its frames a second: 3.2 s a loop */
#define CAUS_WRAP 2560             /* steps after which the loop and its drift start again */
#define CAUS_ROW (CAUS + TABLE_PAD) /* a row of a frame of the loop: periodic, TABLE_PAD past CAUS */
#define CAUSTIC_BYTES (2 * CAUS * CAUS + 256 * 256)
#define DEPTHS RPL_SIDE_DEPTHS     /* depth table entries (deeper uses the last), 512 */
#define DEPTH_SPAN_MIN 48.0        /* the gradient spans at least this depth */
#define DEPTH_SPAN_MAX 320.0       /* and at most this (then it stays deep) */
#define DROP_RADIUS_MAX 32.0       /* droplets bigger than this are drawn this big */
#define CUBE_BITS 5                /* INDEX8: bits per channel of the lookup cube */
#define PAL_W 256                  /* INDEX8: the palette picture's size */
#define PAL_ART_H 192
#define PAL_WATER_H 128
#define SEED 0x51DE5EEDu
#define BLOCK 16                   /* pixels of water shaded together (see shade_block) */
#define HINTS_MAX 64               /* changed rectangles a renderer keeps (more: all of it) */
#define TABLE_PAD 32               /* periodic tables run this far past 256 (kernels.h) */

/* One depth's shading, for a body: out = (scene * inva + pre) >> 8, then
 * caustic light caus/256 of the loop's (at most RPL_SIDE_CW_MAX), refraction refr/256 of the
 * slope in pixels, darkening of steep water weighted dk/256, the
 * underwater shimmer's amplitude wob/256 px. */
typedef struct depth_entry {
    int32_t inva;
    int32_t pr, pg, pb;
    uint32_t prb;   /* pr << 16 | pb: red and blue blended in one multiply */
    int32_t caus;
    int32_t refr;
    int32_t dk;
    int32_t wob;
} depth_entry_t;

/* A depth table made for a gradient's span, with what the kernels and
 * the deep rows read of it: made once for a span and kept while bodies
 * of that span are drawn (a few of them, the least recently used given
 * up first), since making one takes longer than drawing many rows. */
typedef struct depth_set {
    int span;                  /* whole pixels, DEPTH_SPAN_MIN..DEPTH_SPAN_MAX; 0: none yet */
    unsigned used;             /* the cache's clock when last drawn with */
    int fast;                  /* fast_ok: the kernels' 16-bit arithmetic holds */
    int dmid, dstart;          /* deep_from(, 0) and deep_from(, 1) */
    int32_t refr_max;          /* the largest |refr| from dmid on */
    depth_entry_t e[DEPTHS];
    uint32_t te[DEPTHS], tbg[DEPTHS], tr[DEPTHS], tia[DEPTHS]; /* as kernels.h has them */
} depth_set_t;

#define DEPTH_SETS 4

typedef struct depth_cache {
    depth_set_t set[DEPTH_SETS];
    unsigned clock;
} depth_cache_t;

/* What a frame knows of each column of a body (arrays of the renderer's
 * width, or the palette picture's). */
typedef struct columns {
    int32_t *ys;     /* the row of the surface's top pixel */
    int32_t *cov;    /* that pixel's share under water, 1/256 */
    int32_t *sfx;    /* the slope, 1/256 (its sign as the refraction's) */
    int32_t *dcol;   /* darkening of steep water, 1/256 */
    int32_t *fwq;    /* foam width, 1/256 px */
    int32_t *shift;  /* how far the surface lies under the body's mean there */
    int32_t *gbase;  /* deeper than 16 px the gradient's depth is y - gbase */
    int32_t *rdeep;  /* the refraction's slope term in deep water, 1/65536 px */
    int32_t *rrow;   /* the same for the row being drawn, where it varies by depth */
    int32_t *rstep;  /* what rrow gains a row deeper while the weight still falls */
    int32_t *runs;   /* a body's runs of columns whose deep gradient is its mean level's */
} columns_t;

#define COLUMN_ARRAYS 11

/* A droplet's radius, opacity and box (rpl_side_drop_box); alpha 0: not drawn. */
typedef struct drop_box {
    double rad;
    int alpha, box[4];
} drop_box_t;

struct rpl_side_renderer {
    int w, h;
    rpl_format format;
    uint32_t *frame;            /* w*h XRGB8888, what is drawn before converting (not for XRGB8888) */
    uint8_t *caustic;           /* CAUSTIC_BYTES: the caustics' two tileable light networks, and
                                   the light of a pair of their values (256 x 256) */
    uint8_t *loop;              /* CAUS_FRAMES frames of CAUS rows of CAUS_ROW: their light */
    int16_t *shimmer;           /* CAUS_FRAMES x 256: the scene's shimmer with each */
    unsigned char baked[CAUS_FRAMES]; /* the loop's frames made so far */
    uint8_t *cube;              /* INDEX8: 32^3 nearest palette entries */
    uint32_t palette[256];      /* INDEX8 */
    int32_t *span;              /* per row, the columns [x0, x1) drawn over the scene (2*h) */
    drop_box_t *dbox;           /* the droplets' boxes of the frame being drawn (ndbox of them) */
    int ndbox;
    /* The last frame drawn, so that the next one into the same framebuffer
     * writes only what changed (rpl_side_renderer_changed): where it was
     * drawn, and where it drew over the scene (per row, as span). */
    const void *last_fb;
    ptrdiff_t last_pitch, last_spitch;
    const uint32_t *last_scene;
    int32_t *last_span;         /* 2*h */
    int have_last;              /* last_* describe a frame drawn whole or in part */
    int nhint;                  /* the scene's changes since it, declared; -1: none */
    rpl_rect_t hint[HINTS_MAX];
    depth_cache_t depth;
    columns_t col;              /* per column of a body, max(w, PAL_W) each */
    int32_t *colmem;
    const rpl_kernels_t *kern;  /* the deep water's kernel */
    int ok;                     /* created whole */
    rpl_err_t err;
};

/* A renderer that can draw: created whole (a failed handle only reports
 * its error and is destroyed). */
static inline int side_usable(const rpl_side_renderer_t *r)
{
    return r && r->ok;
}

static inline int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static inline double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}


/* INDEX8: the lookup cube's cell of a colour. */
static inline int cube_index(uint32_t c)
{
    return (int)((c >> (24 - CUBE_BITS) & 0x1F) << (2 * CUBE_BITS) |
                 (c >> (16 - CUBE_BITS) & 0x1F) << CUBE_BITS | (c >> (8 - CUBE_BITS) & 0x1F));
}

/* What one frame's time gives the caustics and the shimmer: the light
 * at pixel (x, y) is light[((y + ly) & 255) * CAUS_ROW + ((x + lx) & 255)]. */
typedef struct anim {
    long step;                 /* the caustics' step, 0..CAUS_WRAP-1 */
    const uint8_t *light;      /* a frame of the loop */
    int lx, ly;                /* its drift, 0..255 */
    const int16_t *wob;        /* shimmer in 1/256 px, by (x + 2y) & 255 */
} anim_t;

/* Where a body's water goes this frame, known before anything is drawn:
 * its columns clipped to the frame, the rows any of them is drawn in, and
 * the rows from which on all of them are (there the water covers the
 * scene wholly, which then need not be copied first). */
typedef struct body_rows {
    int x0, x1;  /* columns */
    int y0, y1;  /* rows drawn in; y0 >= y1: none */
    int yfull;   /* rows yfull .. y1-1: every column is water */
} body_rows_t;

/* side_caustic.c: the networks and their light (CAUSTIC_BYTES), the anim of a
 * time, which bakes the loop's frame it shows if not yet made, and the
 * whole loop baked at once. */
void rpl_side_make_caustic(uint8_t *out);
void rpl_side_make_anim(rpl_side_renderer_t *r, anim_t *a, double time);
void rpl_side_bake_loop(rpl_side_renderer_t *r);

/* side_shade.c */
void rpl_side_body_rows(const rpl_side_water_t *wb, int w, int h, body_rows_t *br);
void rpl_side_draw_water(uint32_t *frame, ptrdiff_t fpitch, const uint32_t *scene, ptrdiff_t spitch,
                       int w, int h, const rpl_side_water_t *wb, const anim_t *an,
                       depth_cache_t *depths, const columns_t *col, const rpl_kernels_t *kern);
int rpl_side_drop_box(const rpl_droplet_t *dp, int w, int h, double *rad_out, int *alpha_out,
                    int box[4]);
void rpl_side_draw_drop(uint32_t *frame, ptrdiff_t fpitch, int w, int h, const rpl_droplet_t *dp);
/* The same with what rpl_side_drop_box said of it (when it said 1). */
void rpl_side_draw_drop_in(uint32_t *frame, ptrdiff_t fpitch, const rpl_droplet_t *dp,
                           const drop_box_t *db, const rpl_kernels_t *kern);

/* side_palette.c: the INDEX8 palette and its cube, made from the art. */
rpl_status rpl_side_make_palette(rpl_side_renderer_t *r, const uint32_t *art);

#endif
