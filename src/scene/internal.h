/* scene/internal.h - what the side scene's files share: the level's layout and art, the scene's state, the seeded generator. */
#ifndef RPL_SCENE_INTERNAL_H
#define RPL_SCENE_INTERNAL_H

#include <stdint.h>

#include "scene/chipmunk_det.h" /* before chipmunk.h: its maths macros */
#include <chipmunk/chipmunk.h>

#include "scene/scene.h"

#define SIDE_WATERS_MAX 4
#define SIDE_RECTS_MAX 12
#define SIDE_AUTOPLAY_BODIES 24 /* autoplay keeps at most this many */
#define SIDE_SPLASH_CAP 2048
#define SIDE_BALL_SIDES 16      /* a ball's outline for the water */
#define SIDE_DIRTY_MAX 48       /* rectangles of what moves; more: merged (put_rect) */
#define SIDE_HINTS_MAX 64       /* what rpl_side_renderer_changed keeps */
#define SIDE_PI 0x1.921fb54442d18p+1 /* in hex: on the x87 a decimal pi keeps more bits */

/* A solid block of stone, [x0, x1) x [y0, y1) in whole pixels. */
typedef struct side_rect {
    int x0, y0, x1, y1;
    int grass; /* its top is open ground under the sky */
} side_rect_t;

/* A basin's inside, which its water fills up to `level` (all pixels). */
typedef struct side_basin {
    int x0, x1;   /* the walls' inner faces */
    int rim;      /* the top of the walls */
    int floor;    /* the basin's floor */
    double level; /* the water's rest height */
} side_basin_t;

typedef struct side_level {
    int nrects;
    side_rect_t rect[SIDE_RECTS_MAX];
    int nbasins;
    side_basin_t basin[SIDE_WATERS_MAX];
} side_level_t;

/* level.c: the layout for a w x h scene, and its picture (sky and stone,
 * no water, no bodies) into art (w*h XRGB8888). */
void side_level_layout(side_level_t *lv, int w, int h);
int side_level_solid(const side_level_t *lv, double x, double y);
void side_level_paint(const side_level_t *lv, const side_config_t *cfg, uint32_t *art);
/* A copy of art with swatches of the bodies' colours along its bottom,
 * for the INDEX8 palette (w*h, malloc'ed; NULL when out of memory). */
uint32_t *side_level_palette_art(const uint32_t *art, int w, int h);

/* One rigid body of the scene. */
typedef struct side_body {
    cpBody *body;
    cpShape *shape;
    side_shape kind;
    double hw, hh;       /* crate: half width and height; ball: both the radius */
    double density;      /* times the water's */
    double area;         /* of the outline the water sees */
    uint32_t colour;
    cpVect prev_p;       /* position and rotation at the end of the last step */
    cpVect prev_rot;
    double submerged;    /* area under water in the last step */
    double bob;          /* analytic waves: its rise and fall at the waterline
                            not yet made into a ring (pixels) */
    int bob_steps;
} side_body_t;

/* A body as work has it drawn: what its picture depends on. */
typedef struct side_drawn_body {
    const cpBody *body;
    side_shape kind;
    double hw, hh, density;
    uint32_t colour;
    cpVect p, rot;
    rpl_rect_t box;  /* all it drew lies in it */
    int box_ok;      /* 0: the box is empty (the body off the frame) */
} side_drawn_body_t;

struct side_scene {
    int w, h;
    rpl_format format;
    double u;              /* the size unit: 1 at 640x480 */
    double g;              /* gravity, pixels / s^2 */
    double rise_max;       /* the fastest a body comes up through water, pixels / s */
    side_level_t lv;
    rpl_water_params_t springs; /* the springs' settings asked for (per SIDE_STEP) */
    rpl_surface_kind surface;
    int nwaters;
    rpl_water_t *water[SIDE_WATERS_MAX];
    rpl_splash_t *splash;
    rpl_side_renderer_t *rend;
    const rpl_kernels_t *kern; /* the renderer's, NULL: its own choice */
    cpSpace *space;
    int nstatics;
    cpShape *statics[SIDE_RECTS_MAX + 2]; /* the level's shapes and the screen's sides */
    int nbodies;           /* oldest first */
    side_body_t *body;     /* SIDE_BODIES_MAX */
    uint64_t rng;
    uint64_t steps;
    double acc;            /* time not yet stepped */
    int autoplay;
    uint64_t next_drop;    /* the step of autoplay's next drop */
    uint32_t *art;         /* the level without water and bodies */
    uint32_t *work;        /* art with the bodies: what the water refracts */
    float *surf;           /* the surfaces sampled per column, w per water */
    char err[160];
    int ready;             /* made whole; a failed scene only reports and is destroyed */
    /* what the last render changed against the one before: where bodies,
     * droplets and water (whose caustics always move) are now and were */
    rpl_rect_t drawn[SIDE_DIRTY_MAX];  /* what moves, as the last render drew it */
    int ndrawn;
    int work_ready;                    /* work is art plus the bodies as bdrawn has them */
    side_drawn_body_t *bdrawn;         /* SIDE_BODIES_MAX */
    int nbdrawn;
    /* where work changed in the last prepare_frame (-1: all of it) */
    rpl_rect_t dirty[SIDE_DIRTY_MAX];
    int ndirty;
    rpl_rect_t changed[2 * SIDE_DIRTY_MAX];
    int nchanged;                      /* -1: the whole frame */
    int all;                           /* the next render changes everything */
    side_splash_fn on_splash; /* told about every splash; NULL: none */
    void *splash_user;
};

/* A seeded generator (splitmix64): the scene's only randomness (rand.c). */
uint64_t side_rand(uint64_t *s);
/* Uniform in [lo, hi). */
double side_uniform(uint64_t *s, double lo, double hi);

/* bodies.c: the outline the water sees (crate 4 corners, ball a 16-gon)
 * into xy (room for 2 * SIDE_BALL_SIDES), the point count returned. */
int side_body_outline(const side_body_t *b, double *xy);
/* Draws body b into s->work. */
void side_bodies_draw_one(side_scene_t *s, const side_body_t *b);

/* quiet.c (quiet_win.c on Windows): cpSpaceNew with stdout silenced. */
cpSpace *scene_space_new_quietly(void);

#endif
