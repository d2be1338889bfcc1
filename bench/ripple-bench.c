/* ripple-bench.c - times the core's simulation and refraction on every kernel path, thread count and framebuffer format against the seed's literal code. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ripple.h"
#include "kernels/kernels.h" /* to tell which paths share a format's kernel */
#include "seed_baseline.h"

#define EXIT_USAGE 2

#define REPEATS 5              /* runs per busy measurement; the best counts */
#define MIN_RUN_NS 100000000u  /* each busy run lasts at least 0.1 s ... */
#define FRAMES_MAX 1000000     /* ... unless --frames N (1..FRAMES_MAX) says */
#define WARMUP_STEPS 150       /* steps of rain before anything busy is timed */
#define VERIFY_FRAMES 4        /* frames every variant renders to compare outputs */
#define MAX_PATHS 8
#define MAX_TCOUNTS 8          /* thread counts measured, at most */
#define MAX_SIZES 4
#define MAX_DROPS 64           /* stones per step, at most */
#define MAX_ENTRIES (1 + 2 * MAX_PATHS * MAX_TCOUNTS)
#define MAX_BPPS 3             /* framebuffer formats: 32, 16 and 8 bits per pixel */
#define MAX_ROWS (MAX_SIZES * 3 * MAX_ENTRIES + 2 * MAX_TCOUNTS + 2 * (MAX_BPPS - 1) * MAX_PATHS)

/* The calm scene: one stone every CALM_PERIOD frames (one a second at
 * 60 Hz), CALM_WARMUP frames before the CALM_FRAMES timed ones. */
#define CALM_PERIOD 60
#define CALM_WARMUP 300
#define CALM_FRAMES 600
#define CALM_REPEATS 3
#define CALM_WEIGHT 300        /* the demo's mouse stone */

/* Memory bandwidth: memcpy of a MEMCPY_MB buffer, best of MEMCPY_REPEATS. */
#define MEMCPY_MB 64
#define MEMCPY_REPEATS 5
#define MEMCPY_MIN_PX (1280L * 720) /* smaller frames skip the memory section */
/* Bytes a frame moves per pixel: step 6 (reads cur and prev, writes prev,
 * 2 bytes each), refraction 10 (reads the height 2 - neighbours come from
 * cache -, the background texel 4, writes the pixel 4). */
#define STEP_BYTES_PX 6
#define REFRACT_BYTES_PX 10
#define FRAME_BYTES_PX (STEP_BYTES_PX + REFRACT_BYTES_PX)

/* --instr-run defaults (bench/instr.sh) */
#define INSTR_W 640
#define INSTR_H 480
#define INSTR_FRAMES 4

enum { ST_SIM, ST_REFRACT, ST_FRAME, ST_CALM_SLEEP, ST_CALM_FULL, ST_COUNT };

static const char *const stage_names[ST_COUNT] = { "sim", "refract", "frame", "calm-sleep",
                                                   "calm-full" };

static const int default_sizes[MAX_SIZES][2] = {
    { 320, 200 }, { 640, 480 }, { 1280, 720 }, { 1920, 1080 },
};

typedef struct opts {
    int w, h;          /* --size; 0 means every default size */
    long frames;       /* --frames; -1 means time-based runs */
    int json;
    uint64_t seed;
    int threads;       /* --threads; 0 means every count */
    const char *path;  /* --path, resolved; NULL means every path */
    const char *instr; /* --instr-run PATH|seed */
    int bpp;           /* --bpp for --instr-run: 32, 16 or 8 */
    int list;          /* --list-paths */
} opts_t;

typedef struct path {
    const char *name;
    const rpl_kernels_t *k;
} path_t;

/* One variant to time: the seed (path NULL) or a path on some threads,
 * with sleeping tiles on or off, rendering into a framebuffer of bpp bits
 * per pixel (32 XRGB8888, 16 RGB565, 8 INDEX8; the seed has 32 only). */
typedef struct entry {
    const path_t *path;
    int threads, sleep;
    int bpp;
} entry_t;

static const int bpps[MAX_BPPS] = { 32, 16, 8 };

typedef struct row {
    int stage, w, h, threads;
    int bpp;                    /* 32, 16, 8; 0 for the simulation alone */
    int sleep;                  /* 1 on, 0 off, -1 the seed (has none) */
    const char *path;
    double ns_px, fps;
    double vs_seed, vs_1t;      /* < 0: not applicable */
    double awake, redrawn;      /* tile fractions per frame, < 0: not applicable */
    uint64_t frames;            /* frames in the best run */
} row_t;

typedef struct drop {
    int x, y, r, weight;
} drop_t;

/* The drop schedule: a deterministic stream of stones, one batch per step,
 * fed identically to the seed baseline and to every product path.  Busy:
 * steady rain like the demo's (radius unit..2 unit, weight 150..450,
 * density kept per area) plus a heavy stone every 10 steps like the
 * autopilot's.  Calm: one mouse-sized stone every CALM_PERIOD steps. */
typedef struct sched {
    uint64_t rng;
    uint32_t step;
    int w, h;
    int calm;
    int per_kilostep;  /* rain stones per 1000 steps */
    int unit, big;     /* rain radius unit, heavy stone radius */
} sched_t;

enum { BED_SIM = 1, BED_SEED = 2, BED_CALM = 4, BED_FORMATS = 8, BED_KEEP = 16 };

/* Everything for one field size and scene. */
typedef struct bed {
    int w, h;
    uint64_t seed_value;            /* of the drop schedule */
    int calm, formats, warmup;      /* BED_CALM, BED_FORMATS, warm-up steps */
    const rpl_kernels_t *k_warm;    /* the product's warm-up kernels */
    rpl_sim_t *sim;                 /* NULL when only the seed runs */
    unsigned char *pic;             /* the picture, laid out for the product or the seed */
    int pic_layout;                 /* PIC_* */
    uint32_t *bg, *fb;              /* bg: pic as the product's; fb: room for w*h pixels of
                                     * any format, and the seed's out page */
    rpl_backdrop_t *bd;             /* the backdrop of the 16- or 8-bit format measured */
    int bd_bpp;                     /* its bits per pixel, 0 when none */
    int has_seed, seed_owned;       /* seed_owned: the pool has its own buffers */
    int keep;                       /* BED_KEEP: copies of the warmed-up waters kept */
    int16_t *keep_sim;              /* the product's cur then prev, NULL until made */
    short *keep_seed;               /* the seed's buf1 then buf2, NULL until made */
    seed_pool_t seed;
    sched_t sched0;                 /* schedule state after the warm-up */
    rpl_view_t view;
} bed_t;

/* What one timed run gives. */
typedef struct result {
    uint64_t ns, frames, hash;
    double awake, redrawn; /* average tile fractions, < 0 when not measured */
} result_t;

typedef struct calm_sum {
    int done, w, h, radius;
    const char *path;
    long frames;
    double ratio[MAX_TCOUNTS]; /* full / sleep per thread count, < 0 n/a */
    double awake, redrawn;     /* of the sleeping run on the first thread count */
} calm_sum_t;

typedef struct mem_sum {
    int done, w, h;
    const char *path;
    double memcpy_gbps;
    double ns_frame[MAX_TCOUNTS]; /* best frame per thread count, < 0 n/a */
} mem_sum_t;

typedef struct run {
    opts_t o;
    path_t paths[MAX_PATHS];
    int npaths;
    const char *skipped[MAX_PATHS];
    const char *skip_why[MAX_PATHS];
    int nskipped;
    int tcounts[MAX_TCOUNTS];
    int ntcounts;
    int sizes[MAX_SIZES][2];
    int nsizes;
    row_t rows[MAX_ROWS];
    int nrows;
    uint64_t checksum;
    int agree;             /* 1 while every variant computes the same bytes */
    char disagree[240];    /* the first disagreement */
    calm_sum_t calm;
    mem_sum_t mem;
    double load_start, load_end; /* 1-minute load averages, -1 unknown */
} run_t;

/* ---- small helpers ----------------------------------------------------- */

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A fast 64-bit fold of a byte range (not cryptographic, just a witness). */
static uint64_t hash_bytes(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    while (n >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        h = (h ^ v) * 0x100000001B3ull;
        h ^= h >> 29;
        p += 8;
        n -= 8;
    }
    while (n--)
        h = (h ^ *p++) * 0x100000001B3ull;
    return h;
}

static int is_calm(int stage)
{
    return stage == ST_CALM_SLEEP || stage == ST_CALM_FULL;
}

/* ---- the drop schedule ------------------------------------------------- */

static void sched_init(sched_t *s, int w, int h, uint64_t seed, int calm)
{
    int m = w < h ? w : h;
    s->rng = mix64(seed + 0x9E3779B97F4A7C15ull);
    if (s->rng == 0)
        s->rng = 1;
    s->step = 0;
    s->w = w;
    s->h = h;
    s->calm = calm;
    s->per_kilostep = (int)(150.0 * ((double)w * h) / (640.0 * 480.0));
    if (s->per_kilostep < 150)
        s->per_kilostep = 150;
    s->unit = m / 240 > 1 ? m / 240 : 1;
    s->big = 3 * (m / 160 > 1 ? m / 160 : 1);
}

/* The calm scene's stone radius: the demo's mouse stone (4 units). */
static int calm_radius(const sched_t *s)
{
    return 4 * s->unit;
}

static uint32_t sched_rand(sched_t *s)
{
    /* xorshift64* */
    s->rng ^= s->rng >> 12;
    s->rng ^= s->rng << 25;
    s->rng ^= s->rng >> 27;
    return (uint32_t)((s->rng * 0x2545F4914F6CDD1Dull) >> 32);
}

static int sched_range(sched_t *s, int lo, int hi)
{
    return hi <= lo ? lo : lo + (int)(sched_rand(s) % (uint32_t)(hi - lo + 1));
}

/* The stones of the next step; returns how many. */
static int sched_next(sched_t *s, drop_t *out)
{
    int k = 0;
    if (s->calm) {
        if (s->step % CALM_PERIOD == 0) {
            out[0].x = sched_range(s, 1, s->w - 2);
            out[0].y = sched_range(s, 1, s->h - 2);
            out[0].r = calm_radius(s);
            out[0].weight = CALM_WEIGHT;
            k = 1;
        }
        s->step++;
        return k;
    }
    int n = s->per_kilostep / 1000;
    if ((int)(sched_rand(s) % 1000u) < s->per_kilostep % 1000)
        n++;
    if (n > MAX_DROPS - 1)
        n = MAX_DROPS - 1;
    for (int i = 0; i < n; i++, k++) {
        out[k].x = sched_range(s, 1, s->w - 2);
        out[k].y = sched_range(s, 1, s->h - 2);
        out[k].r = sched_range(s, s->unit, 2 * s->unit);
        out[k].weight = sched_range(s, 150, 450);
    }
    if (s->step % 10 == 0) {
        out[k].x = sched_range(s, 1, s->w - 2);
        out[k].y = sched_range(s, 1, s->h - 2);
        out[k].r = s->big;
        out[k].weight = 900;
        k++;
    }
    s->step++;
    return k;
}

/* ---- one field size: set-up, warm-up, timed runs ----------------------- */

/*
 * Memory: a bed holds one set of big buffers, shared by the product and the
 * seed, which never run at the same time (the bench is meant to fit old
 * machines with a few MB of RAM).  The field's two height buffers are also
 * the seed's buf1 and buf2; one picture buffer holds the background in the
 * layout of whoever runs next (tightly packed for the product, the seed's
 * padded page for the seed); one framebuffer is the product's fb and the
 * seed's out page.  No copy of the warmed-up water is kept: before every
 * run the water is rebuilt from still with the same stones and steps (the
 * product on the bed's warm-up kernels), which gives the same state every
 * time (the schedule is deterministic), untimed; large fields (BED_KEEP,
 * where the memory section's buffers are far bigger anyway) keep a copy of
 * each warmed-up water after the first instead, which saves the bench
 * minutes and gives the same state.  The 16- and 8-bit
 * backdrops exist one at a time, while their format is measured.
 */
enum { PIC_NONE, PIC_PRODUCT, PIC_SEED };

static void bed_drop_backdrop(bed_t *b)
{
    rpl_backdrop_destroy(b->bd);
    b->bd = NULL;
    b->bd_bpp = 0;
}

static void bed_free(bed_t *b)
{
    bed_drop_backdrop(b);
    rpl_sim_destroy(b->sim);
    if (b->has_seed && b->seed_owned)
        seed_pool_free(&b->seed);
    free(b->pic);
    free(b->fb);
    free(b->keep_sim);
    free(b->keep_seed);
    memset(b, 0, sizeof *b);
}

/* A picture with edges in every direction, so that refraction shows. */
static uint32_t backdrop(int x, int y, int w, int h)
{
    uint32_t r = (uint32_t)(x * 255 / (w - 1));
    uint32_t g = (uint32_t)(y * 255 / (h - 1));
    uint32_t b = ((x / 16 + y / 16) & 1) ? 0xE0u : 0x30u;
    return 0xFF000000u | r << 16 | g << 8 | b;
}

/* Lays the picture out for the product (w*h pixels, tightly packed: b->bg)
 * or for the seed (its page: pic_pitch bytes a row, the column and row past
 * the picture zero, as seed_pool_init leaves them). */
static void bed_picture(bed_t *b, int layout)
{
    if (b->pic_layout == layout)
        return;
    const int w = b->w, h = b->h;
    const size_t pitch = layout == PIC_SEED ? (size_t)b->seed.pic_pitch : (size_t)w * 4;
    unsigned char *pic = layout == PIC_SEED ? b->seed.pic : (unsigned char *)b->bg;
    for (int y = 0; y < h; y++) {
        unsigned char *row = pic + (size_t)y * pitch;
        for (int x = 0; x < w; x++) {
            uint32_t px = backdrop(x, y, w, h);
            memcpy(row + (size_t)x * 4, &px, 4);
        }
        if (layout == PIC_SEED)
            memset(row + (size_t)w * 4, 0, pitch - (size_t)w * 4);
    }
    if (layout == PIC_SEED)
        memset(pic + (size_t)h * pitch, 0, pitch);
    b->pic_layout = layout;
}

/* Stones and one step on whichever waters the bed warms up. */
static void step_both(bed_t *b, sched_t *s, int sim, int seed)
{
    drop_t d[MAX_DROPS];
    int n = sched_next(s, d);
    for (int i = 0; i < n; i++) {
        if (sim)
            rpl_sim_drop(b->sim, d[i].x, d[i].y, d[i].r, d[i].weight);
        if (seed)
            seed_dropstone(&b->seed, d[i].x, d[i].y, d[i].r, d[i].weight);
    }
    if (sim)
        rpl_sim_step(b->sim);
    if (seed)
        seed_ripplespread(&b->seed);
}

/* The schedule a bed's warm-up starts from. */
static void bed_sched_start(const bed_t *b, sched_t *s)
{
    sched_init(s, b->w, b->h, b->seed_value, b->calm);
}

/* Builds the field (BED_SIM) and/or the seed's pool (BED_SEED) on shared
 * buffers, for the busy or calm (BED_CALM) schedule with `warmup` steps
 * before every run (the product's on kernels k); BED_FORMATS allows the
 * 16- and 8-bit formats (bed_format).  The waters are warmed up by
 * bed_rewarm.  0, or -1 with a message. */
static int bed_init(bed_t *b, int w, int h, uint64_t seed, const rpl_kernels_t *k,
                    int flags, int warmup)
{
    rpl_status st = RPL_OK;
    size_t cells = (size_t)w * (size_t)h;
    int ok = 1;
    memset(b, 0, sizeof *b);
    b->w = w;
    b->h = h;
    b->seed_value = seed;
    b->calm = (flags & BED_CALM) != 0;
    b->formats = (flags & BED_FORMATS) != 0;
    b->keep = (flags & BED_KEEP) != 0;
    b->warmup = warmup;
    b->k_warm = k;
    b->view.strength = RPL_STRENGTH_ONE; /* 1:1 offsets, like the seed */
    b->view.shading = 0;                 /* the seed has no light */
    if (flags & BED_SIM) {
        size_t pic_bytes = cells * 4;
        if ((flags & BED_SEED) && seed_pool_pic_bytes(w, h) > pic_bytes)
            pic_bytes = seed_pool_pic_bytes(w, h);
        b->sim = rpl_sim_create(w, h, seed, &st);
        b->pic = malloc(pic_bytes);
        b->fb = calloc(cells, 4); /* room for w*h pixels of any format */
        ok = b->sim && b->pic && b->fb;
        b->bg = (uint32_t *)b->pic;
        if (ok && (flags & BED_SEED)) {
            seed_pool_attach(&b->seed, w, h, b->sim->cur, b->sim->prev, b->pic,
                             (unsigned char *)b->fb);
            b->has_seed = 1;
        }
    } else if (flags & BED_SEED) {
        b->has_seed = seed_pool_init(&b->seed, w, h) == 0;
        b->seed_owned = b->has_seed;
        ok = b->has_seed;
    }
    if (!ok) {
        fprintf(stderr, "ripple-bench: %dx%d: %s\n", w, h,
                rpl_strerror(st != RPL_OK ? st : RPL_ENOMEM));
        bed_free(b);
        return -1;
    }
    if (b->sim && k)
        rpl_sim_set_kernels(b->sim, k);
    /* the schedule after the warm-up, where every run goes on */
    sched_t s;
    drop_t d[MAX_DROPS];
    bed_sched_start(b, &s);
    for (int i = 0; i < warmup; i++)
        sched_next(&s, d);
    b->sched0 = s;
    return 0;
}

/* The backdrop of a format, NULL for 32 bpp (the raw background) or when
 * the bed has none of that format at the moment. */
static const rpl_backdrop_t *bed_backdrop(const bed_t *b, int bpp)
{
    return bpp != 32 && b->bd_bpp == bpp ? b->bd : NULL;
}

/* Makes the backdrop of a 16- or 8-bit format (dropping the other one);
 * nothing to do for 32 bpp.  0, or -1 with a message. */
static int bed_format(bed_t *b, int bpp)
{
    if (bpp == 32 || b->bd_bpp == bpp)
        return 0;
    bed_drop_backdrop(b);
    if (!b->sim || !b->formats) {
        fprintf(stderr, "ripple-bench: %dx%d: no backdrop for %d bpp\n", b->w, b->h, bpp);
        return -1;
    }
    rpl_status st = RPL_OK;
    bed_picture(b, PIC_PRODUCT);
    b->bd = rpl_backdrop_create(b->bg, b->w, b->h, bpp == 16 ? RPL_RGB565 : RPL_INDEX8, &st);
    if (!b->bd) {
        fprintf(stderr, "ripple-bench: %dx%d: backdrop: %s\n", b->w, b->h, rpl_strerror(st));
        return -1;
    }
    b->bd_bpp = bpp;
    return 0;
}

/* One render of the product into b->fb: 32 bpp with rpl_refract from the
 * raw background, as before formats; 16 and 8 bpp with rpl_render. */
static rpl_status render_frame(bed_t *b, int bpp, int changed)
{
    const rpl_backdrop_t *bd = bed_backdrop(b, bpp);
    ptrdiff_t pitch = (ptrdiff_t)b->w * (bpp / 8);
    if (bpp != 32 && !bd)
        return RPL_EINVAL;
    if (bd)
        return changed ? rpl_render_changed(b->sim, bd, b->fb, pitch, &b->view)
                       : rpl_render(b->sim, bd, b->fb, pitch, &b->view);
    return changed ? rpl_refract_changed(b->sim, b->bg, b->fb, pitch, RPL_XRGB8888, &b->view)
                   : rpl_refract(b->sim, b->bg, b->fb, pitch, RPL_XRGB8888, &b->view);
}

/* Brings the water of the product (seed 0) or of the seed (seed 1) to
 * where the warm-up leaves it, from still water: the same stones and
 * steps every time, and the picture in its layout.  The product warms up
 * on the bed's kernels with sleeping tiles on and the threads it has. */
static void bed_rewarm(bed_t *b, int seed)
{
    sched_t s;
    size_t cells = (size_t)b->w * (size_t)b->h;
    bed_sched_start(b, &s);
    if (seed) {
        if (!b->seed_owned) { /* the field's buffers, in whatever state */
            b->seed.buf1 = b->sim->cur;
            b->seed.buf2 = b->sim->prev;
        }
        /* the page as seed_pool_init leaves it: the seed never writes its
         * first and last rows nor the pixels whose source is outside */
        memset(b->seed.out, 0, (size_t)b->h * (size_t)b->seed.out_pitch);
        bed_picture(b, PIC_SEED);
        if (b->keep_seed) {
            memcpy(b->seed.buf1, b->keep_seed, cells * sizeof *b->seed.buf1);
            memcpy(b->seed.buf2, b->keep_seed + cells, cells * sizeof *b->seed.buf2);
            return;
        }
        memset(b->seed.buf1, 0, cells * sizeof *b->seed.buf1);
        memset(b->seed.buf2, 0, cells * sizeof *b->seed.buf2);
        for (int i = 0; i < b->warmup; i++)
            step_both(b, &s, 0, 1);
        if (b->keep && (b->keep_seed = malloc(2 * cells * sizeof *b->keep_seed)) != NULL) {
            memcpy(b->keep_seed, b->seed.buf1, cells * sizeof *b->seed.buf1);
            memcpy(b->keep_seed + cells, b->seed.buf2, cells * sizeof *b->seed.buf2);
        }
        return;
    }
    rpl_sim_invalidate(b->sim); /* the fb and picture may have been the seed's */
    bed_picture(b, PIC_PRODUCT);
    if (b->keep_sim && rpl_sim_set_state(b->sim, b->keep_sim, b->keep_sim + cells) == RPL_OK)
        return;
    rpl_sim_reset(b->sim, b->seed_value);
    if (b->k_warm)
        rpl_sim_set_kernels(b->sim, b->k_warm);
    rpl_sim_set_sleeping(b->sim, 1);
    for (int i = 0; i < b->warmup; i++)
        step_both(b, &s, 1, 0);
    if (b->keep && !b->keep_sim &&
        (b->keep_sim = malloc(2 * cells * sizeof *b->keep_sim)) != NULL) {
        memcpy(b->keep_sim, b->sim->cur, cells * sizeof *b->sim->cur);
        memcpy(b->keep_sim + cells, b->sim->prev, cells * sizeof *b->sim->prev);
    }
}

/* One timed run of a stage from the warmed-up state, on the seed baseline
 * or a product path.  Runs `fixed` frames, or as many as fill MIN_RUN_NS
 * when fixed is 0.  0, or -1 with a message. */
static int run_once(bed_t *b, int stage, const entry_t *e, long fixed, result_t *res)
{
    const rpl_kernels_t *k = e->path ? e->path->k : NULL;
    rpl_status st = RPL_OK;
    if (k && bed_format(b, e->bpp) != 0)
        return -1;
    if (k && rpl_sim_set_threads(b->sim, e->threads) != RPL_OK) {
        fprintf(stderr, "ripple-bench: %d threads: %s\n", e->threads, rpl_sim_error(b->sim));
        return -1;
    }
    /* untimed: the water (and picture) of the warm-up, every run alike */
    bed_rewarm(b, k == NULL);
    if (k) {
        rpl_sim_set_kernels(b->sim, k);
        rpl_sim_set_sleeping(b->sim, e->sleep);
        /* untimed: the persistent frame shows the restored water (which
         * the simulation alone also leaves in the frame it hashes) */
        if (is_calm(stage) || stage == ST_SIM)
            st = render_frame(b, e->bpp, 0);
    }
    const int changed = stage == ST_CALM_SLEEP;
    const int steps = stage != ST_REFRACT, renders = stage != ST_SIM;
    sched_t s = b->sched0;
    drop_t d[MAX_DROPS];
    rpl_stats_t ts = { 0, 0, 0 };
    uint64_t n = 0, stepped = 0, rendered = 0, t0 = now_ns(), t;
    do {
        if (steps) {
            int nd = sched_next(&s, d);
            if (k) {
                for (int i = 0; i < nd; i++)
                    rpl_sim_drop(b->sim, d[i].x, d[i].y, d[i].r, d[i].weight);
                rpl_sim_step(b->sim);
                rpl_sim_stats(b->sim, &ts);
                stepped += ts.stepped;
            } else {
                for (int i = 0; i < nd; i++)
                    seed_dropstone(&b->seed, d[i].x, d[i].y, d[i].r, d[i].weight);
                seed_ripplespread(&b->seed);
            }
        }
        if (renders) {
            if (k) {
                st |= render_frame(b, e->bpp, changed);
                rpl_sim_stats(b->sim, &ts);
                rendered += ts.rendered;
            } else {
                seed_renderripple(&b->seed);
            }
        }
        n++;
        t = now_ns();
    } while (fixed > 0 ? n < (uint64_t)fixed : t - t0 < MIN_RUN_NS);
    if (st != RPL_OK) {
        fprintf(stderr, "ripple-bench: %dx%d: rpl_refract failed\n", b->w, b->h);
        return -1;
    }
    size_t cells = (size_t)b->w * (size_t)b->h;
    uint64_t h = 0x6A09E667F3BCC908ull;
    if (k) {
        h = hash_bytes(h, b->sim->cur, cells * sizeof *b->sim->cur);
        h = hash_bytes(h, b->fb, cells * (size_t)(e->bpp / 8));
    } else {
        h = hash_bytes(h, b->seed.buf1, cells * sizeof *b->seed.buf1);
        h = hash_bytes(h, b->seed.out, (size_t)b->h * (size_t)b->seed.out_pitch);
    }
    double tiles = k ? (double)ts.tiles * (double)n : 0;
    res->ns = t > t0 ? t - t0 : 1;
    res->frames = n;
    res->hash = h;
    res->awake = k && steps ? (double)stepped / tiles : -1;
    res->redrawn = k && renders ? (double)rendered / tiles : -1;
    return 0;
}

static void note_disagree(run_t *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void note_disagree(run_t *r, const char *fmt, ...)
{
    if (!r->agree)
        return; /* the first one is the interesting one */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->disagree, sizeof r->disagree, fmt, ap);
    va_end(ap);
    r->agree = 0;
    fprintf(stderr, "ripple-bench: warning: %s\n", r->disagree);
}

static const char *entry_name(const entry_t *e)
{
    return e->path ? e->path->name : "seed";
}

/* Times every entry on one stage, runs of each interleaved so that noise
 * hits them alike, and appends one row per entry.  Fixed-length runs of
 * the product must all end with the same bytes. */
static int measure(run_t *r, bed_t *b, int stage, const entry_t *ents, int ne, int repeats,
                   long fixed)
{
    result_t best[MAX_ENTRIES];
    uint64_t ref_hash = 0;
    int have_ref = 0;
    for (int i = 0; i < ne; i++)
        best[i].ns = 0;
    for (int rep = 0; rep < repeats; rep++)
        for (int i = 0; i < ne; i++) {
            result_t res;
            if (run_once(b, stage, &ents[i], fixed, &res) != 0)
                return -1;
            r->checksum ^= mix64(res.hash + (uint64_t)i);
            if (fixed > 0 && ents[i].path) {
                if (!have_ref)
                    ref_hash = res.hash, have_ref = 1;
                else if (res.hash != ref_hash)
                    note_disagree(r, "%s %dx%d %d bpp: %s on %d threads, sleeping %s, differs "
                                  "from %s", stage_names[stage], b->w, b->h, ents[i].bpp,
                                  entry_name(&ents[i]), ents[i].threads,
                                  ents[i].sleep ? "on" : "off", entry_name(&ents[0]));
            }
            /* compare per frame: time-based runs differ in length */
            if (best[i].ns == 0 ||
                (double)res.ns / (double)res.frames < (double)best[i].ns / (double)best[i].frames)
                best[i] = res;
        }
    double px = (double)b->w * b->h;
    for (int i = 0; i < ne && r->nrows < MAX_ROWS; i++) {
        row_t *w = &r->rows[r->nrows++];
        w->stage = stage;
        w->w = b->w;
        w->h = b->h;
        w->threads = ents[i].path ? ents[i].threads : 1;
        w->bpp = stage == ST_SIM ? 0 : ents[i].bpp;
        w->sleep = ents[i].path ? ents[i].sleep : -1;
        w->path = entry_name(&ents[i]);
        w->ns_px = (double)best[i].ns / ((double)best[i].frames * px);
        w->fps = 1e9 / (w->ns_px * px);
        w->vs_seed = w->vs_1t = -1;
        w->awake = best[i].awake;
        w->redrawn = best[i].redrawn;
        w->frames = best[i].frames;
    }
    return 0;
}

/* The busy entries of a stage: the seed, then every path on every thread
 * count with sleeping on, and for the full frame with sleeping off too. */
static int busy_entries(const run_t *r, int stage, entry_t *ents)
{
    int n = 0;
    ents[n++] = (entry_t){ NULL, 1, 0, 32 };
    for (int p = 0; p < r->npaths; p++)
        for (int t = 0; t < r->ntcounts; t++)
            for (int sl = 1; sl >= (stage == ST_FRAME ? 0 : 1); sl--)
                ents[n++] = (entry_t){ &r->paths[p], r->tcounts[t], sl, 32 };
    return n;
}

/* The kernel a path renders a format with. */
static rpl_refract_fn path_kernel(const path_t *p, int bpp)
{
    return bpp == 16 ? p->k->refract_rgb565 : bpp == 8 ? p->k->refract_index8
                                                       : p->k->refract_xrgb8888;
}

/* The 16- and 8-bit entries of a stage: every path for the frame (the
 * step differs), for the refraction alone only the paths whose kernel of
 * that format no earlier path has; the first thread count, sleeping on. */
static int format_entries(const run_t *r, int stage, int bpp, entry_t *ents)
{
    int n = 0;
    for (int p = 0; p < r->npaths; p++) {
        int dup = 0;
        for (int q = 0; q < p && stage == ST_REFRACT; q++)
            dup |= path_kernel(&r->paths[q], bpp) == path_kernel(&r->paths[p], bpp);
        if (!dup)
            ents[n++] = (entry_t){ &r->paths[p], r->tcounts[0], 1, bpp };
    }
    return n;
}

/* Every path, thread count and sleeping mode must give the same water and
 * picture from the same start, in every format the bed has. */
static int verify_paths(run_t *r, bed_t *b)
{
    for (int f = 0; f < MAX_BPPS; f++) {
        if (bpps[f] != 32 && !b->formats)
            continue;
        uint64_t first = 0;
        int n = 0;
        for (int p = 0; p < r->npaths; p++)
            for (int t = 0; t < r->ntcounts; t++)
                for (int sl = 1; sl >= 0; sl--, n++) {
                    entry_t e = { &r->paths[p], r->tcounts[t], sl, bpps[f] };
                    result_t res;
                    if (run_once(b, ST_FRAME, &e, VERIFY_FRAMES, &res) != 0)
                        return -1;
                    if (n == 0)
                        first = res.hash;
                    else if (res.hash != first)
                        note_disagree(r, "%dx%d %d bpp: path %s on %d threads, sleeping %s, "
                                      "differs from path %s on %d thread(s), sleeping on",
                                      b->w, b->h, bpps[f], e.path->name, e.threads,
                                      sl ? "on" : "off", r->paths[0].name, r->tcounts[0]);
                    r->checksum ^= mix64(res.hash);
                }
        bed_drop_backdrop(b);
    }
    return 0;
}

/* ns/px of the row that matches, or -1. */
static double find_ns_bpp(const run_t *r, int stage, int w, int h, const char *path,
                          int threads, int sleep, int bpp)
{
    for (int i = 0; i < r->nrows; i++) {
        const row_t *x = &r->rows[i];
        if (x->stage == stage && x->w == w && x->h == h && strcmp(x->path, path) == 0 &&
            x->threads == threads && x->sleep == sleep && x->bpp == bpp)
            return x->ns_px;
    }
    return -1;
}

/* The same at 32 bpp (the simulation alone has none). */
static double find_ns(const run_t *r, int stage, int w, int h, const char *path, int threads,
                      int sleep)
{
    return find_ns_bpp(r, stage, w, h, path, threads, sleep, stage == ST_SIM ? 0 : 32);
}

/* Fills in vs_seed and vs_1t of every row. */
static void ratios(run_t *r)
{
    for (int i = 0; i < r->nrows; i++) {
        row_t *x = &r->rows[i];
        double s = is_calm(x->stage) ? -1 : find_ns(r, x->stage, x->w, x->h, "seed", 1, -1);
        double one = x->sleep < 0 ? -1
                                  : find_ns_bpp(r, x->stage, x->w, x->h, x->path, 1, x->sleep,
                                                x->bpp);
        x->vs_seed = s > 0 ? s / x->ns_px : -1;
        x->vs_1t = one > 0 ? one / x->ns_px : -1;
    }
}

/* The path with the fastest full frame (sleeping on) at w x h on the first
 * thread count measured. */
static const path_t *best_path(const run_t *r, int w, int h)
{
    const path_t *best = &r->paths[r->npaths - 1];
    double best_ns = -1;
    for (int p = 0; p < r->npaths; p++) {
        double ns = find_ns(r, ST_FRAME, w, h, r->paths[p].name, r->tcounts[0], 1);
        if (ns > 0 && (best_ns < 0 || ns < best_ns))
            best_ns = ns, best = &r->paths[p];
    }
    return best;
}

/* The calm scene at w x h on path p, sleeping on against off, every thread
 * count.  Appends the rows and fills r->calm. */
static int measure_calm(run_t *r, int w, int h, const path_t *p)
{
    bed_t b;
    if (bed_init(&b, w, h, r->o.seed, p->k,
                 BED_SIM | BED_CALM | ((long)w * h >= MEMCPY_MIN_PX ? BED_KEEP : 0),
                 CALM_WARMUP) != 0)
        return -1;
    entry_t ents[2 * MAX_TCOUNTS];
    int ne = 0;
    for (int t = 0; t < r->ntcounts; t++) {
        ents[ne++] = (entry_t){ p, r->tcounts[t], 1, 32 };
        ents[ne++] = (entry_t){ p, r->tcounts[t], 0, 32 };
    }
    long frames = r->o.frames > 0 ? r->o.frames : CALM_FRAMES;
    int rc = 0;
    /* both stages in one interleaved series: sleeping on then off, per count */
    result_t best[2 * MAX_TCOUNTS];
    uint64_t ref = 0;
    for (int i = 0; i < ne; i++)
        best[i].ns = 0;
    for (int rep = 0; rep < CALM_REPEATS && rc == 0; rep++)
        for (int i = 0; i < ne; i++) {
            result_t res;
            int stage = ents[i].sleep ? ST_CALM_SLEEP : ST_CALM_FULL;
            if (run_once(&b, stage, &ents[i], frames, &res) != 0) {
                rc = -1;
                break;
            }
            r->checksum ^= mix64(res.hash);
            if (rep == 0 && i == 0)
                ref = res.hash;
            else if (res.hash != ref)
                note_disagree(r, "calm %dx%d: %s on %d threads, sleeping %s, differs from "
                              "sleeping on, %d thread(s)",
                              w, h, p->name, ents[i].threads, ents[i].sleep ? "on" : "off",
                              ents[0].threads);
            if (best[i].ns == 0 || res.ns < best[i].ns)
                best[i] = res;
        }
    if (rc == 0) {
        double px = (double)w * h;
        for (int i = 0; i < ne && r->nrows < MAX_ROWS; i++) {
            row_t *x = &r->rows[r->nrows++];
            x->stage = ents[i].sleep ? ST_CALM_SLEEP : ST_CALM_FULL;
            x->w = w;
            x->h = h;
            x->threads = ents[i].threads;
            x->bpp = 32;
            x->sleep = ents[i].sleep;
            x->path = p->name;
            x->ns_px = (double)best[i].ns / ((double)best[i].frames * px);
            x->fps = 1e9 / (x->ns_px * px);
            x->vs_seed = x->vs_1t = -1;
            x->awake = best[i].awake;
            x->redrawn = best[i].redrawn;
            x->frames = best[i].frames;
        }
        calm_sum_t *c = &r->calm;
        c->done = 1;
        c->w = w;
        c->h = h;
        c->radius = calm_radius(&b.sched0);
        c->path = p->name;
        c->frames = frames;
        for (int t = 0; t < r->ntcounts; t++)
            c->ratio[t] = (double)best[2 * t + 1].ns / (double)best[2 * t].ns;
        c->awake = best[0].awake;
        c->redrawn = best[0].redrawn;
    }
    bed_free(&b);
    return rc;
}

/* memcpy bandwidth in GB/s (1e9 bytes), counting read and write bytes. */
static double memcpy_gbps(uint64_t *sink)
{
    size_t n = (size_t)MEMCPY_MB << 20;
    unsigned char *a = malloc(n), *c = malloc(n);
    double gbps = 0;
    if (a && c) {
        memset(a, 0x5A, n);
        memset(c, 0xA5, n);
        uint64_t best = UINT64_MAX;
        for (int i = 0; i < MEMCPY_REPEATS; i++) {
            unsigned char *dst = i & 1 ? a : c, *src = i & 1 ? c : a;
            uint64_t t0 = now_ns();
            memcpy(dst, src, n);
            uint64_t t = now_ns() - t0;
            *sink += dst[((size_t)i * 40503u) % n]; /* the copy is used */
            if (t > 0 && t < best)
                best = t;
        }
        gbps = 2.0 * (double)n / (double)best;
    }
    free(a);
    free(c);
    return gbps;
}

/* ---- output ------------------------------------------------------------ */

static void cpu_model(char *buf, size_t len)
{
    snprintf(buf, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0)
            continue;
        char *v = strchr(line, ':');
        if (!v)
            continue;
        v++;
        while (*v == ' ' || *v == '\t')
            v++;
        v[strcspn(v, "\r\n")] = '\0';
        if (*v)
            snprintf(buf, len, "%s", v);
        break;
    }
    fclose(f);
}

/* The 1-minute load average, or -1: other work on the machine makes the
 * figures noisy, most of all the multi-thread ones. */
static double load_average(void)
{
    double v = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &v) != 1)
            v = -1;
        fclose(f);
    }
    return v;
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* A number, or null when negative (not applicable). */
static void json_num(FILE *f, double v, int decimals)
{
    if (v < 0)
        fputs("null", f);
    else
        fprintf(f, "%.*f", decimals, v);
}

/* "x.xx" or "-" into buf. */
static const char *fmt_ratio(char *buf, size_t len, double v)
{
    if (v < 0)
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.2f", v);
    return buf;
}

static const char *fmt_pct(char *buf, size_t len, double v)
{
    if (v < 0)
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.1f%%", 100.0 * v);
    return buf;
}

static void summary_sizes(const run_t *r, int *sw, int *sh, int *bw, int *bh);

static void print_header(const run_t *r, const char *cpu, const char *autop)
{
    const char *env = getenv("RIPPLE_SIMD");
    int fw, fh, bw, bh;
    summary_sizes(r, &fw, &fh, &bw, &bh); /* where the 16- and 8-bit rows are measured */
    printf("ripple-bench %s: the core's kernel paths, threads and formats against the seed's "
           "literal code\n", RPL_VERSION);
    printf("cpu: %s | %d processors online | auto path: %s%s%s%s\n", cpu, rpl_cpu_count(), autop,
           env && *env ? " (RIPPLE_SIMD=" : "", env && *env ? env : "", env && *env ? ")" : "");
    printf("paths:");
    for (int p = 0; p < r->npaths; p++)
        printf(" %s", r->paths[p].name);
    for (int i = 0; i < r->nskipped; i++)
        printf("%s%s (%s)", i ? ", " : " | skipped: ", r->skipped[i], r->skip_why[i]);
    printf(" | threads:");
    for (int t = 0; t < r->ntcounts; t++)
        printf(" %d", r->tcounts[t]);
    printf(" | seed %" PRIu64 "\n", r->o.seed);
    if (r->load_start >= 0)
        printf("load average at start: %.2f on %d processors%s\n", r->load_start, rpl_cpu_count(),
               r->load_start > 0.5 ? " (other work is running: figures are noisy, above all "
                                     "with threads)"
                                   : "");
    if (r->o.frames > 0)
        printf("each busy figure: best of %d runs of %ld frames", REPEATS, r->o.frames);
    else
        printf("each busy figure: best of %d runs of >= %.1f s", REPEATS, MIN_RUN_NS / 1e9);
    printf(", every run from the same water\n\n");
    printf("busy scene: steady rain (0.15 stones a step per 640x480, radius 1-2 units, a heavy\n"
           "  stone every 10 steps), %d warm-up steps: nearly every tile is awake (column awake)\n",
           WARMUP_STEPS);
    printf("  sim      stones + one wave step\n"
           "  refract  one full render, strength 1:1, no light\n"
           "  frame    stones + step + full render: the full frame\n"
           "  sleep    on: sleeping tiles as the product ships (rpl_sim_set_sleeping(sim, 1),\n"
           "           the step skips tiles at rest); off: every tile computed; the seed has none\n"
           "  bpp      framebuffer bits per pixel: 32 XRGB8888 (rpl_refract of the picture),\n"
           "           16 RGB565 and 8 INDEX8 (rpl_render of a backdrop made once); 16 and 8\n"
           "           at %dx%d only, on %d thread%s, sleeping on; their refract rows only for\n"
           "           paths with their own kernel of the format (others share an earlier one's)\n"
           "calm scene: one stone (the demo's mouse stone) every %d frames, %d warm-up frames,\n"
           "  then %ld timed frames, best of %d; stones + step + render each frame\n"
           "  calm-sleep  sleeping on, rpl_refract_changed into a persistent framebuffer\n"
           "  calm-full   sleeping off, full rpl_refract: the same scene, path and threads\n",
           fw, fh, r->tcounts[0], r->tcounts[0] > 1 ? "s" : "", CALM_PERIOD, CALM_WARMUP,
           r->o.frames > 0 ? r->o.frames : (long)CALM_FRAMES, CALM_REPEATS);
    printf("ns/px: nanoseconds per pixel per frame, lower is better; fps = 1e9 / (ns/px * W * H)\n"
           "vs seed: seed ns/px / row ns/px, same stage and size (the seed runs on one thread)\n"
           "vs 1t: the same path, stage, size and sleep on one thread / this row\n"
           "awake: tiles stepped / tiles, average per frame (redrawn: tiles rendered / tiles)\n\n");
    printf("%-7s  %-9s  %-6s  %3s  %7s  %5s  %8s  %10s  %7s  %5s  %6s\n", "stage", "size",
           "path", "bpp", "threads", "sleep", "ns/px", "fps", "vs seed", "vs 1t", "awake");
    printf("%-7s  %-9s  %-6s  %3s  %7s  %5s  %8s  %10s  %7s  %5s  %6s\n", "-------",
           "---------", "------", "---", "-------", "-----", "--------", "----------", "-------",
           "-----", "------");
    fflush(stdout);
}

static void print_rows(const run_t *r, int from)
{
    for (int i = from; i < r->nrows; i++) {
        const row_t *w = &r->rows[i];
        char size[24], bpp[8], a[16], b[16], c[16];
        snprintf(size, sizeof size, "%dx%d", w->w, w->h);
        if (w->bpp)
            snprintf(bpp, sizeof bpp, "%d", w->bpp);
        else
            snprintf(bpp, sizeof bpp, "-");
        printf("%-7s  %-9s  %-6s  %3s  %7d  %5s  %8.3f  %10.1f  %7s  %5s  %6s\n",
               stage_names[w->stage], size, w->path, bpp, w->threads,
               w->sleep < 0 ? "-" : w->sleep ? "on" : "off", w->ns_px, w->fps,
               fmt_ratio(a, sizeof a, w->vs_seed), fmt_ratio(b, sizeof b, w->vs_1t),
               w->stage == ST_REFRACT ? "-" : fmt_pct(c, sizeof c, w->awake));
    }
    fflush(stdout);
}

static void print_calm(const run_t *r)
{
    const calm_sum_t *c = &r->calm;
    printf("\ncalm scene %dx%d on %s: one stone (radius %d, weight %d) every %d frames\n", c->w,
           c->h, c->path, c->radius, CALM_WEIGHT, CALM_PERIOD);
    printf("%-10s  %-9s  %-6s  %7s  %9s  %8s  %7s  %7s  %10s\n", "stage", "size", "path",
           "threads", "ms/frame", "ns/px", "awake", "redrawn", "full/sleep");
    printf("%-10s  %-9s  %-6s  %7s  %9s  %8s  %7s  %7s  %10s\n", "----------", "---------",
           "------", "-------", "---------", "--------", "-------", "-------", "----------");
    for (int i = 0; i < r->nrows; i++) {
        const row_t *w = &r->rows[i];
        if (!is_calm(w->stage))
            continue;
        char size[24], a[16], b[16], q[16];
        int t = 0;
        while (t < r->ntcounts && r->tcounts[t] != w->threads)
            t++;
        snprintf(size, sizeof size, "%dx%d", w->w, w->h);
        printf("%-10s  %-9s  %-6s  %7d  %9.3f  %8.3f  %7s  %7s  %10s\n", stage_names[w->stage],
               size, w->path, w->threads, w->ns_px * w->w * w->h / 1e6, w->ns_px,
               fmt_pct(a, sizeof a, w->awake), fmt_pct(b, sizeof b, w->redrawn),
               w->stage == ST_CALM_SLEEP && t < r->ntcounts
                   ? fmt_ratio(q, sizeof q, c->ratio[t])
                   : "1.00");
    }
}

/* The size the "vs seed" summary and the 16- and 8-bit rows use: 640x480
 * if measured, else the first; and the largest size (bw x bh). */
static void summary_sizes(const run_t *r, int *sw, int *sh, int *bw, int *bh)
{
    *sw = r->sizes[0][0], *sh = r->sizes[0][1];
    *bw = r->sizes[0][0], *bh = r->sizes[0][1];
    for (int i = 0; i < r->nsizes; i++) {
        if (r->sizes[i][0] == 640 && r->sizes[i][1] == 480)
            *sw = 640, *sh = 480;
        if ((double)r->sizes[i][0] * r->sizes[i][1] > (double)*bw * *bh)
            *bw = r->sizes[i][0], *bh = r->sizes[i][1];
    }
}

/* ns/px of row a over ns/px of row b (a "b is x times faster" figure), or -1. */
static double ratio_rows(const run_t *r, int stage, int w, int h, const char *pa, int ta, int sa,
                         const char *pb, int tb, int sb)
{
    double a = find_ns(r, stage, w, h, pa, ta, sa), b = find_ns(r, stage, w, h, pb, tb, sb);
    return a > 0 && b > 0 ? a / b : -1;
}

/* Milliseconds of a full frame (sleeping on) at bpp, or -1. */
static double frame_ms(const run_t *r, int w, int h, const char *path, int threads, int bpp)
{
    double ns = find_ns_bpp(r, ST_FRAME, w, h, path, threads, 1, bpp);
    return ns > 0 ? ns * w * h / 1e6 : -1;
}

static void print_summary(const run_t *r, double total_s)
{
    int sw, sh, bw, bh;
    char a[16], b[16];
    summary_sizes(r, &sw, &sh, &bw, &bh);
    int t1 = r->tcounts[0], tn = r->tcounts[r->ntcounts - 1];
    printf("\nsummary (sleeping on as the product ships; sleeping off in brackets)\n");
    printf("  full frame %dx%d, %d thread%s, vs seed (goal >= 6x, aim 10x on the best path):\n   ",
           sw, sh, t1, t1 > 1 ? "s" : "");
    for (int p = 0; p < r->npaths; p++) {
        const char *n = r->paths[p].name;
        printf("%s %s %sx (%sx)", p ? "," : "", n,
               fmt_ratio(a, sizeof a, ratio_rows(r, ST_FRAME, sw, sh, "seed", 1, -1, n, t1, 1)),
               fmt_ratio(b, sizeof b, ratio_rows(r, ST_FRAME, sw, sh, "seed", 1, -1, n, t1, 0)));
    }
    printf("\n");
    printf("  full frame %dx%d, %d thread%s, ms per frame at 32 / 16 / 8 bpp:\n   ", sw, sh, t1,
           t1 > 1 ? "s" : "");
    for (int p = 0; p < r->npaths; p++) {
        printf("%s %s", p ? "," : "", r->paths[p].name);
        for (int f = 0; f < MAX_BPPS; f++) {
            double ms = frame_ms(r, sw, sh, r->paths[p].name, t1, bpps[f]);
            if (ms < 0)
                printf("%s-", f ? " / " : " ");
            else
                printf("%s%.3f", f ? " / " : " ", ms);
        }
    }
    printf("\n");
    if (r->ntcounts > 1 && t1 == 1) {
        printf("  full frame %dx%d, %d threads vs 1 (goal >= 1.7x):\n   ", bw, bh, tn);
        for (int p = 0; p < r->npaths; p++) {
            const char *n = r->paths[p].name;
            printf("%s %s %sx (%sx)", p ? "," : "", n,
                   fmt_ratio(a, sizeof a, ratio_rows(r, ST_FRAME, bw, bh, n, 1, 1, n, tn, 1)),
                   fmt_ratio(b, sizeof b, ratio_rows(r, ST_FRAME, bw, bh, n, 1, 0, n, tn, 0)));
        }
        printf("\n");
    } else {
        printf("  threads: only %d measured, no N-thread vs 1-thread figure\n", t1);
    }
    if (r->calm.done) {
        const calm_sum_t *c = &r->calm;
        printf("  calm %dx%d on %s, sleeping on vs off (goal >= 20x):", c->w, c->h, c->path);
        for (int t = 0; t < r->ntcounts; t++)
            printf("%s %dt %sx", t ? "," : "", r->tcounts[t], fmt_ratio(a, sizeof a, c->ratio[t]));
        printf("; awake tiles %.1f%%, redrawn %.1f%% of %ld frames\n", 100 * c->awake,
               100 * c->redrawn, c->frames);
    }
    if (r->mem.done) {
        const mem_sum_t *m = &r->mem;
        printf("  memory: memcpy of %d MB %.2f GB/s (read + write bytes, best of %d, one thread)\n",
               MEMCPY_MB, m->memcpy_gbps, MEMCPY_REPEATS);
        printf("    full frame %dx%d on %s moves %d B/px = %.1f MB/frame (step %d: reads cur and "
               "prev, writes prev;\n    refraction %d: reads height 2, background texel 4, "
               "writes pixel 4):\n   ",
               m->w, m->h, m->path, FRAME_BYTES_PX, (double)FRAME_BYTES_PX * m->w * m->h / 1e6,
               STEP_BYTES_PX, REFRACT_BYTES_PX);
        for (int t = 0; t < r->ntcounts; t++) {
            if (m->ns_frame[t] <= 0)
                continue;
            double gbps = (double)FRAME_BYTES_PX * m->w * m->h / m->ns_frame[t];
            printf("%s %dt %.3f ms = %.2f GB/s = %.0f%% of memcpy", t ? "," : "", r->tcounts[t],
                   m->ns_frame[t] / 1e6, gbps,
                   m->memcpy_gbps > 0 ? 100 * gbps / m->memcpy_gbps : 0.0);
        }
        printf("\n");
    }
    printf("\nvariants agree (every path, thread count and sleeping mode, same bytes): %s | "
           "checksum %016" PRIx64 " | total %.1f s",
           r->agree ? "yes" : "NO", r->checksum, total_s);
    if (r->load_end >= 0)
        printf(" | load average at end %.2f", r->load_end);
    printf("\n");
    if (!r->agree)
        printf("  first difference: %s\n", r->disagree);
}

static void print_json(const run_t *r, const char *cpu, const char *autop, double total_s)
{
    int sw, sh, bw, bh;
    summary_sizes(r, &sw, &sh, &bw, &bh);
    printf("{\"version\":");
    json_string(stdout, RPL_VERSION);
    printf(",\"seed\":%" PRIu64 ",\"cpu\":", r->o.seed);
    json_string(stdout, cpu);
    printf(",\"cpu_count\":%d,\"loadavg_start\":", rpl_cpu_count());
    json_num(stdout, r->load_start, 2);
    printf(",\"loadavg_end\":");
    json_num(stdout, r->load_end, 2);
    printf(",\"auto_path\":");
    json_string(stdout, autop);
    printf(",\"paths\":[");
    for (int p = 0; p < r->npaths; p++) {
        printf("%s", p ? "," : "");
        json_string(stdout, r->paths[p].name);
    }
    printf("],\"skipped\":[");
    for (int i = 0; i < r->nskipped; i++) {
        printf("%s{\"path\":", i ? "," : "");
        json_string(stdout, r->skipped[i]);
        printf(",\"reason\":");
        json_string(stdout, r->skip_why[i]);
        printf("}");
    }
    printf("],\"threads\":[");
    for (int t = 0; t < r->ntcounts; t++)
        printf("%s%d", t ? "," : "", r->tcounts[t]);
    printf("],\"repeats\":%d,\"warmup_steps\":%d,", REPEATS, WARMUP_STEPS);
    if (r->o.frames > 0)
        printf("\"frames\":%ld,\"min_run_s\":null,", r->o.frames);
    else
        printf("\"frames\":null,\"min_run_s\":%.3f,", MIN_RUN_NS / 1e9);
    printf("\"stages\":{\"sim\":\"busy: stones + one wave step\","
           "\"refract\":\"busy: one full render (32 bpp rpl_refract, 16 and 8 bpp rpl_render)\","
           "\"frame\":\"busy: stones + step + full render\","
           "\"calm-sleep\":\"one stone every %d frames, sleeping on, rpl_refract_changed into a "
           "persistent framebuffer\","
           "\"calm-full\":\"the same scene, sleeping off, full rpl_refract\"},"
           "\"bpp\":{\"32\":\"XRGB8888\",\"16\":\"RGB565\",\"8\":\"INDEX8\"},",
           CALM_PERIOD);
    printf("\"results\":[");
    for (int i = 0; i < r->nrows; i++) {
        const row_t *w = &r->rows[i];
        printf("%s\n{\"stage\":\"%s\",\"width\":%d,\"height\":%d,\"path\":", i ? "," : "",
               stage_names[w->stage], w->w, w->h);
        json_string(stdout, w->path);
        printf(",\"bpp\":");
        json_num(stdout, w->bpp ? w->bpp : -1, 0);
        printf(",\"threads\":%d,\"sleeping\":%s,\"ns_per_px\":%.4f,\"fps\":%.2f,"
               "\"speedup_vs_seed\":",
               w->threads, w->sleep < 0 ? "null" : w->sleep ? "true" : "false", w->ns_px, w->fps);
        json_num(stdout, w->vs_seed, 3);
        printf(",\"speedup_vs_1t\":");
        json_num(stdout, w->vs_1t, 3);
        printf(",\"awake_fraction\":");
        json_num(stdout, w->stage == ST_REFRACT ? -1 : w->awake, 4);
        printf(",\"redrawn_fraction\":");
        json_num(stdout, w->stage == ST_SIM ? -1 : w->redrawn, 4);
        printf(",\"frames\":%" PRIu64 "}", w->frames);
    }
    int tn = r->tcounts[r->ntcounts - 1];
    printf("\n],\"summary\":{\"frame_vs_seed\":{\"width\":%d,\"height\":%d,\"threads\":%d",
           sw, sh, r->tcounts[0]);
    for (int off = 0; off <= 1; off++) {
        printf(off ? ",\"sleep_off\":{" : "");
        for (int p = 0; p < r->npaths; p++) {
            const char *n = r->paths[p].name;
            printf("%s", p || !off ? "," : "");
            json_string(stdout, n);
            printf(":");
            json_num(stdout, ratio_rows(r, ST_FRAME, sw, sh, "seed", 1, -1, n, r->tcounts[0], !off),
                     3);
        }
        printf(off ? "}" : "");
    }
    printf("},\"frame_ms_by_bpp\":{\"width\":%d,\"height\":%d,\"threads\":%d", sw, sh,
           r->tcounts[0]);
    for (int p = 0; p < r->npaths; p++) {
        printf(",");
        json_string(stdout, r->paths[p].name);
        printf(":{");
        for (int f = 0; f < MAX_BPPS; f++) {
            printf("%s\"%d\":", f ? "," : "", bpps[f]);
            json_num(stdout, frame_ms(r, sw, sh, r->paths[p].name, r->tcounts[0], bpps[f]), 4);
        }
        printf("}");
    }
    printf("},\"threads_vs_1t\":{\"width\":%d,\"height\":%d,\"threads\":%d", bw, bh, tn);
    for (int off = 0; off <= 1; off++) {
        printf(off ? ",\"sleep_off\":{" : "");
        for (int p = 0; p < r->npaths; p++) {
            const char *n = r->paths[p].name;
            printf("%s", p || !off ? "," : "");
            json_string(stdout, n);
            printf(":");
            json_num(stdout, tn > 1 ? ratio_rows(r, ST_FRAME, bw, bh, n, 1, !off, n, tn, !off) : -1,
                     3);
        }
        printf(off ? "}" : "");
    }
    printf("}");
    if (r->calm.done) {
        const calm_sum_t *c = &r->calm;
        printf(",\"calm\":{\"width\":%d,\"height\":%d,\"path\":", c->w, c->h);
        json_string(stdout, c->path);
        printf(",\"stone_every_frames\":%d,\"stone_radius\":%d,\"stone_weight\":%d,"
               "\"warmup_frames\":%d,\"frames\":%ld,\"repeats\":%d,\"awake_fraction\":%.4f,"
               "\"redrawn_fraction\":%.4f,\"sleep_speedup\":[",
               CALM_PERIOD, c->radius, CALM_WEIGHT, CALM_WARMUP, c->frames, CALM_REPEATS,
               c->awake, c->redrawn);
        for (int t = 0; t < r->ntcounts; t++) {
            printf("%s{\"threads\":%d,\"full_over_sleep\":", t ? "," : "", r->tcounts[t]);
            json_num(stdout, c->ratio[t], 2);
            printf("}");
        }
        printf("]}");
    }
    if (r->mem.done) {
        const mem_sum_t *m = &r->mem;
        printf(",\"memory\":{\"memcpy_mb\":%d,\"memcpy_gbps\":%.3f,\"memcpy_counts\":"
               "\"read + write bytes\",\"width\":%d,\"height\":%d,\"path\":",
               MEMCPY_MB, m->memcpy_gbps, m->w, m->h);
        json_string(stdout, m->path);
        printf(",\"bytes_per_px\":%d,\"bytes_per_frame\":%.0f,\"count\":\"step 6 (reads cur and "
               "prev, writes prev, 2 B each), refraction 10 (reads height 2, background texel 4, "
               "writes pixel 4)\",\"frames\":[",
               FRAME_BYTES_PX, (double)FRAME_BYTES_PX * m->w * m->h);
        int first = 1;
        for (int t = 0; t < r->ntcounts; t++) {
            if (m->ns_frame[t] <= 0)
                continue;
            double gbps = (double)FRAME_BYTES_PX * m->w * m->h / m->ns_frame[t];
            printf("%s{\"threads\":%d,\"ns_per_frame\":%.0f,\"gbps\":%.3f,"
                   "\"percent_of_memcpy\":%.1f}",
                   first ? "" : ",", r->tcounts[t], m->ns_frame[t], gbps,
                   m->memcpy_gbps > 0 ? 100 * gbps / m->memcpy_gbps : 0.0);
            first = 0;
        }
        printf("]}");
    }
    printf("},\"paths_agree\":%s,\"checksum\":\"%016" PRIx64 "\",\"total_s\":%.1f}\n",
           r->agree ? "true" : "false", r->checksum, total_s);
}

/* ---- command line ------------------------------------------------------ */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ripple-bench [--size WxH] [--frames N] [--threads N] [--path NAME]\n"
            "                    [--seed N] [--json]\n"
            "       ripple-bench --instr-run PATH|seed [--size WxH] [--frames N] [--bpp N]\n"
            "Times the wave step (sim), the refraction (refract) and both (frame) on every\n"
            "kernel path and thread count of the core, and the seed's literal code for\n"
            "comparison, into 32-bit framebuffers (at 640x480, or the one size, into 16- and\n"
            "8-bit ones too); then a calm scene with sleeping tiles on and off, and memcpy.\n"
            "  --size WxH      only this size (each side %d..%d); default 320x200, 640x480,\n"
            "                  1280x720 and 1920x1080 (the calm scene uses the largest)\n"
            "  --frames N      frames per run (1..%d); default: busy runs fill %.1f s,\n"
            "                  calm runs take %d frames\n"
            "  --threads N     only this thread count (1..%d); default 1..processors, at least 1, 2\n"
            "  --path NAME     only this kernel path (c, mmx, sse2, avx2, auto)\n"
            "  --seed N        seed of the drop schedule (default 1)\n"
            "  --json          print the results as one JSON object\n"
            "  --list-paths    print the paths available here, one a line\n"
            "  --instr-run P   for bench/instr.sh: warm-up plus --frames N (default %d, 0 allowed)\n"
            "                  full frames of path P or \"seed\", one thread, no timing\n"
            "                  (default size %dx%d)\n"
            "  --bpp N         with --instr-run: render 32 (XRGB8888, default), 16 (RGB565) or\n"
            "                  8 (INDEX8) bits per pixel; timed runs measure every format\n"
            "  --help          show this help\n"
            "  --version       show the version\n",
            RPL_DIM_MIN, RPL_DIM_MAX, FRAMES_MAX, MIN_RUN_NS / 1e9, CALM_FRAMES, RPL_THREADS_MAX,
            INSTR_FRAMES, INSTR_W, INSTR_H);
}

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "ripple-bench: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (try --help)\n");
    va_end(ap);
    return EXIT_USAGE;
}

/* A decimal integer in [lo, hi] filling the whole string. */
static int parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int parse_size(const char *s, int *w, int *h)
{
    char buf[32];
    const char *x = strpbrk(s, "xX");
    long a, b;
    if (!x || (size_t)(x - s) >= sizeof buf)
        return -1;
    memcpy(buf, s, (size_t)(x - s));
    buf[x - s] = '\0';
    if (parse_long(buf, RPL_DIM_MIN, RPL_DIM_MAX, &a) || parse_long(x + 1, RPL_DIM_MIN, RPL_DIM_MAX, &b))
        return -1;
    *w = (int)a;
    *h = (int)b;
    return 0;
}

static int parse_u64(const char *s, uint64_t *out)
{
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = (uint64_t)v;
    return 0;
}

/* A kernel path by name; 0, or the usage error's exit status. */
static int check_path(const char *opt, const char *name, const char **out)
{
    const rpl_kernels_t *k = NULL;
    rpl_status st = rpl_kernels_find(name, &k);
    if (st == RPL_EINVAL)
        return usage_error("%s '%s' is not a kernel path (c, mmx, sse2, avx2, auto)", opt, name);
    if (st != RPL_OK)
        return usage_error("%s '%s' is not available on this machine or in this build", opt,
                           name);
    *out = rpl_kernels_name(k);
    return 0;
}

/* Returns -1 to go on, or the exit status (0 after --help/--version). */
static int parse_args(int argc, char **argv, opts_t *o)
{
    static const char *const with_value[] = { "--size", "--frames", "--seed", "--threads",
                                              "--path", "--instr-run", "--bpp" };
    static const char *const flags[] = { "--json", "--help", "--version", "--list-paths" };
    const char *path_arg = NULL;
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->bpp = 32;
    int bpp_set = 0;
    o->frames = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = NULL;
        char name[32];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(a, "--version") == 0) {
            printf("ripple-bench %s\n", RPL_VERSION);
            return 0;
        }
        if (strcmp(a, "--json") == 0) {
            o->json = 1;
            continue;
        }
        if (strcmp(a, "--list-paths") == 0) {
            o->list = 1;
            continue;
        }
        if (strncmp(a, "--", 2) != 0)
            return usage_error("unexpected argument '%s'", a);
        /* options with a value: --name V or --name=V */
        const char *eq = strchr(a, '=');
        size_t nl = eq ? (size_t)(eq - a) : strlen(a);
        if (nl >= sizeof name)
            return usage_error("unknown option '%s'", a);
        memcpy(name, a, nl);
        name[nl] = '\0';
        int known = 0;
        for (size_t j = 0; j < sizeof flags / sizeof flags[0]; j++)
            if (strcmp(name, flags[j]) == 0)
                return usage_error("%s takes no value", name);
        for (size_t j = 0; j < sizeof with_value / sizeof with_value[0]; j++)
            known |= strcmp(name, with_value[j]) == 0;
        if (!known)
            return usage_error("unknown option '%s'", name);
        if (eq)
            val = eq + 1;
        else if (i + 1 < argc)
            val = argv[++i];
        else
            return usage_error("%s needs a value", name);
        long v = 0;
        if (strcmp(name, "--size") == 0) {
            if (parse_size(val, &o->w, &o->h) != 0)
                return usage_error("--size '%s' is not WxH with both sides in %d..%d", val,
                                   RPL_DIM_MIN, RPL_DIM_MAX);
        } else if (strcmp(name, "--frames") == 0) {
            if (parse_long(val, 0, FRAMES_MAX, &v) != 0)
                return usage_error("--frames '%s' is not a whole number in 1..%d", val,
                                   FRAMES_MAX);
            o->frames = v;
        } else if (strcmp(name, "--threads") == 0) {
            if (parse_long(val, 1, RPL_THREADS_MAX, &v) != 0)
                return usage_error("--threads '%s' is not a whole number in 1..%d", val,
                                   RPL_THREADS_MAX);
            o->threads = (int)v;
        } else if (strcmp(name, "--path") == 0) {
            path_arg = val;
        } else if (strcmp(name, "--instr-run") == 0) {
            o->instr = val;
        } else if (strcmp(name, "--bpp") == 0) {
            if (parse_long(val, 8, 32, &v) != 0 || (v != 8 && v != 16 && v != 32))
                return usage_error("--bpp '%s' is not 32, 16 or 8", val);
            o->bpp = (int)v;
            bpp_set = 1;
        } else if (parse_u64(val, &o->seed) != 0) {
            return usage_error("--seed '%s' is not a whole number in 0..2^64-1", val);
        }
    }
    if (o->instr && path_arg)
        return usage_error("--path and --instr-run do not go together");
    if (bpp_set && !o->instr)
        return usage_error("--bpp goes with --instr-run (timed runs measure every format)");
    if (o->instr && strcmp(o->instr, "seed") == 0 && o->bpp != 32)
        return usage_error("the seed renders 32 bpp only");
    if (o->frames == 0 && !o->instr)
        return usage_error("--frames '0' is not a whole number in 1..%d", FRAMES_MAX);
    if (path_arg) {
        int rc = check_path("--path", path_arg, &o->path);
        if (rc)
            return rc;
    }
    if (o->instr && strcmp(o->instr, "seed") != 0) {
        int rc = check_path("--instr-run", o->instr, &o->instr);
        if (rc)
            return rc;
    }
    return -1;
}

/* ---- the paths and thread counts -------------------------------------- */

/* Every path ripple knows that this build and CPU run (or only --path). */
static void collect_paths(run_t *r)
{
    for (int i = 0; rpl_kernels_known(i) != NULL; i++) {
        const char *name = rpl_kernels_known(i);
        const rpl_kernels_t *k = NULL;
        rpl_status st = rpl_kernels_find(name, &k);
        int dup = 0;
        for (int j = 0; k && j < r->npaths; j++)
            dup |= r->paths[j].k == k;
        const char *why = st == RPL_ENOTSUP ? "not available on this CPU or in this build"
                          : st != RPL_OK    ? rpl_strerror(st)
                          : dup             ? "same kernels as another path"
                          : r->npaths == MAX_PATHS ? "too many paths"
                                                   : NULL;
        if (why) {
            if (r->nskipped < MAX_PATHS) {
                r->skipped[r->nskipped] = name;
                r->skip_why[r->nskipped++] = why;
            }
            continue;
        }
        if (r->o.path && strcmp(r->o.path, rpl_kernels_name(k)) != 0)
            continue; /* not asked for */
        r->paths[r->npaths].name = rpl_kernels_name(k);
        r->paths[r->npaths].k = k;
        r->npaths++;
    }
}

/* 1..N (N = processors online, at least 2), or with many processors
 * 1, 2, 4, ... and N; only --threads N if given. */
static void collect_tcounts(run_t *r)
{
    if (r->o.threads) {
        r->tcounts[r->ntcounts++] = r->o.threads;
        return;
    }
    int n = rpl_cpu_count();
    n = n < 2 ? 2 : n;
    if (n <= MAX_TCOUNTS) {
        for (int t = 1; t <= n; t++)
            r->tcounts[r->ntcounts++] = t;
        return;
    }
    for (int t = 1; t < n && r->ntcounts < MAX_TCOUNTS - 1; t *= 2)
        r->tcounts[r->ntcounts++] = t;
    r->tcounts[r->ntcounts++] = n;
}

/* ---- --instr-run: a fixed workload for callgrind (bench/instr.sh) ----- */

static int instr_run(const opts_t *o)
{
    const char *name = o->instr;
    int seed_only = strcmp(name, "seed") == 0;
    const rpl_kernels_t *k = seed_only ? NULL : rpl_kernels_get(name);
    int w = o->w ? o->w : INSTR_W, h = o->h ? o->h : INSTR_H;
    long frames = o->frames >= 0 ? o->frames : INSTR_FRAMES;
    int threads = o->threads ? o->threads : 1;
    bed_t b;
    if (!seed_only && !k) {
        fprintf(stderr, "ripple-bench: path %s is not available\n", name);
        return EXIT_USAGE;
    }
    if (bed_init(&b, w, h, o->seed, k,
                 seed_only ? BED_SEED : BED_SIM | (o->bpp != 32 ? BED_FORMATS : 0),
                 WARMUP_STEPS) != 0)
        return 1;
    rpl_status st = RPL_OK;
    if (b.sim && bed_format(&b, o->bpp) != 0) {
        bed_free(&b);
        return 1;
    }
    /* the warm-up on one thread, then the picture of it */
    bed_rewarm(&b, seed_only);
    if (b.sim)
        st = rpl_refract(b.sim, b.bg, b.fb, (ptrdiff_t)w * 4, RPL_XRGB8888, &b.view);
    if (b.sim && rpl_sim_set_threads(b.sim, threads) != RPL_OK) {
        fprintf(stderr, "ripple-bench: %d threads: %s\n", threads, rpl_sim_error(b.sim));
        bed_free(&b);
        return 1;
    }
    sched_t s = b.sched0;
    for (long i = 0; i < frames; i++) {
        step_both(&b, &s, b.sim != NULL, b.has_seed);
        if (b.sim)
            st |= render_frame(&b, o->bpp, 0);
        else
            seed_renderripple(&b.seed);
    }
    size_t cells = (size_t)w * (size_t)h;
    uint64_t hash = 0;
    if (b.sim) {
        hash = hash_bytes(hash, b.sim->cur, cells * sizeof *b.sim->cur);
        hash = hash_bytes(hash, b.fb, cells * (size_t)(o->bpp / 8));
    } else {
        hash = hash_bytes(hash, b.seed.buf1, cells * sizeof *b.seed.buf1);
        hash = hash_bytes(hash, b.seed.out, (size_t)h * (size_t)b.seed.out_pitch);
    }
    printf("instr-run: path %s (kernels %s), %dx%d, %d bpp, %d warm-up steps + %ld frames, "
           "%d thread%s, checksum %016" PRIx64 "\n",
           name, seed_only ? "seed" : rpl_kernels_name(b.sim->kern), w, h, o->bpp, WARMUP_STEPS,
           frames, threads, threads > 1 ? "s" : "", hash);
    bed_free(&b);
    return st == RPL_OK ? 0 : 1;
}

/* ---- main -------------------------------------------------------------- */

/* The busy stages on every size (at the summary size in every format
 * too), then the calm scene and memory. */
static int run_all(run_t *r)
{
    int fw, fh, lw, lh;
    summary_sizes(r, &fw, &fh, &lw, &lh);
    for (int si = 0; si < r->nsizes; si++) {
        int w = r->sizes[si][0], h = r->sizes[si][1];
        int formats = w == fw && h == fh;
        long fixed = r->o.frames > 0 ? r->o.frames : 0;
        bed_t b;
        if (bed_init(&b, w, h, r->o.seed, r->paths[r->npaths - 1].k,
                     BED_SIM | BED_SEED | (formats ? BED_FORMATS : 0) |
                         ((long)w * h >= MEMCPY_MIN_PX ? BED_KEEP : 0),
                     WARMUP_STEPS) != 0)
            return -1;
        for (int st = ST_SIM; st <= ST_FRAME; st++) {
            entry_t ents[MAX_ENTRIES];
            int ne = busy_entries(r, st, ents), from = r->nrows;
            if (measure(r, &b, st, ents, ne, REPEATS, fixed) != 0) {
                bed_free(&b);
                return -1;
            }
            /* the same stage into 16- and 8-bit framebuffers, each format
             * measured apart (fixed runs must agree within a format) */
            for (int f = 1; formats && st != ST_SIM && f < MAX_BPPS; f++) {
                ne = format_entries(r, st, bpps[f], ents);
                int rc = measure(r, &b, st, ents, ne, REPEATS, fixed);
                bed_drop_backdrop(&b); /* one format's backdrop at a time */
                if (rc != 0) {
                    bed_free(&b);
                    return -1;
                }
            }
            ratios(r);
            if (!r->o.json)
                print_rows(r, from);
        }
        int rc = verify_paths(r, &b);
        bed_free(&b);
        if (rc != 0)
            return -1;
        if (!r->o.json && si + 1 < r->nsizes)
            printf("\n");
    }

    int sw, sh, bw, bh;
    summary_sizes(r, &sw, &sh, &bw, &bh);
    const path_t *best = best_path(r, bw, bh);
    if (measure_calm(r, bw, bh, best) != 0)
        return -1;
    ratios(r);
    if (!r->o.json)
        print_calm(r);

    /* Memory bandwidth matters only where a frame does not fit in the
     * caches; below that the 128 MB of memcpy buffers would also swamp
     * the resident size people measure on small machines. */
    if ((long)bw * bh < MEMCPY_MIN_PX)
        return 0;
    uint64_t sink = 0;
    mem_sum_t *m = &r->mem;
    m->memcpy_gbps = memcpy_gbps(&sink);
    r->checksum ^= sink;
    m->w = bw;
    m->h = bh;
    m->path = best->name;
    for (int t = 0; t < r->ntcounts; t++) {
        double ns = find_ns(r, ST_FRAME, bw, bh, best->name, r->tcounts[t], 1);
        m->ns_frame[t] = ns > 0 ? ns * bw * bh : -1;
    }
    m->done = m->memcpy_gbps > 0;
    return 0;
}

int main(int argc, char **argv)
{
    run_t *r = calloc(1, sizeof *r);
    if (!r) {
        fprintf(stderr, "ripple-bench: out of memory\n");
        return 1;
    }
    int rc = parse_args(argc, argv, &r->o);
    if (rc >= 0) {
        free(r);
        return rc;
    }
    if (r->o.instr) {
        rc = instr_run(&r->o);
        free(r);
        return rc;
    }
    uint64_t t_start = now_ns();
    r->agree = 1;
    collect_paths(r);
    if (r->o.list) {
        for (int p = 0; p < r->npaths; p++)
            puts(r->paths[p].name);
        free(r);
        return 0;
    }
    if (r->npaths == 0) {
        fprintf(stderr, "ripple-bench: no kernel path available\n");
        free(r);
        return 1;
    }
    collect_tcounts(r);
    if (r->o.w) {
        r->sizes[0][0] = r->o.w;
        r->sizes[0][1] = r->o.h;
        r->nsizes = 1;
    } else {
        memcpy(r->sizes, default_sizes, sizeof r->sizes);
        r->nsizes = MAX_SIZES;
    }

    char cpu[160];
    cpu_model(cpu, sizeof cpu);
    r->load_start = load_average();
    const char *autop = rpl_kernels_name(rpl_kernels_get("auto"));
    if (!r->o.json)
        print_header(r, cpu, autop);

    rc = run_all(r) == 0 ? 0 : 1;
    r->load_end = load_average();
    double total_s = (double)(now_ns() - t_start) / 1e9;
    if (rc == 0) {
        if (r->o.json)
            print_json(r, cpu, autop, total_s);
        else
            print_summary(r, total_s);
    }
    free(r);
    return rc;
}
