/* bench.h - the bench's shared types, limits and the functions its files call in one another. */
#ifndef BENCH_H
#define BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "ripple.h"
#include "schedule.h"
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
#define MAX_ENTRIES (1 + 2 * MAX_PATHS * MAX_TCOUNTS)
#define MAX_BPPS 3             /* framebuffer formats: 32, 16 and 8 bits per pixel */
#define MAX_ROWS (MAX_SIZES * 4 * MAX_ENTRIES + 2 * MAX_TCOUNTS + 2 * (MAX_BPPS - 1) * MAX_PATHS)

/* The calm scene (see schedule.h for its stones): CALM_WARMUP frames
 * before the CALM_FRAMES timed ones. */
#define CALM_WARMUP 300
#define CALM_FRAMES 600
#define CALM_REPEATS 3

/* The summary's goals and the size each was set for: another size prints
 * the figure alone (a 640x480 run would otherwise read as failing the
 * 1920x1080 goals, where threads and sleeping tiles pay most). */
#define GOAL_SEED_W 640    /* full frame vs the seed: >= 6x, aim 10x */
#define GOAL_SEED_H 480
#define GOAL_BIG_W 1920    /* N threads vs 1: >= 1.7x; calm, sleeping vs not: >= 20x */
#define GOAL_BIG_H 1080

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
/* --instr-run --bench-scene side-2: the timedemo's frames played before
 * the counted ones (its 24th body is let go at frame 345; from frame 360
 * on, every 15 frames, the oldest makes way for a new one, so the level
 * holds 24 from then on, one of them falling), and the frames counted by
 * default: two of those swaps. */
#define SIDE_INSTR_WARMUP 360
#define SIDE_INSTR_FRAMES 30

/* ST_WAVE: the sim stage with the wave model (the demo's default water,
 * BENCH_WAVE), beside the classic rule's ST_SIM. */
enum { ST_SIM, ST_REFRACT, ST_FRAME, ST_CALM_SLEEP, ST_CALM_FULL, ST_WAVE, ST_COUNT };
#define BENCH_WAVE { 24.0, 1.2, 1.0, 1.0 / 60, 0.985 } /* k 0.16, u t 0.02 */

/* The stages without a render: their rows have no bpp. */
static inline int is_sim_only(int stage)
{
    return stage == ST_SIM || stage == ST_WAVE;
}

/* The calm scene's stages: drawn through a renderer from a backdrop. */
static inline int is_calm(int stage)
{
    return stage == ST_CALM_SLEEP || stage == ST_CALM_FULL;
}

/* rows.c */
extern const char *const stage_names[ST_COUNT];
extern const int bpps[MAX_BPPS]; /* 32, 16, 8 */

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
    int wave;          /* --model wave: --instr-run steps the wave model */
    int step_only;     /* --part step: --instr-run steps, and renders nothing */
    int side;          /* --side: the side scene's cost instead (side.c) */
    int look;          /* --look: how a show's water reads instead (look.c) */
    int every;         /* --every: --look's steps between samples; 0 the default */
    const char *show;  /* --show: --look's show; NULL the default one */
    int look_scene;    /* --look's scene: LOOK_SHOW (default), LOOK_AUTOPILOT (--no-show),
                        * LOOK_PERSON (--person), LOOK_BENCH (--bench-scene) */
    const char *bench_scene; /* --bench-scene: busy-1, busy-2, wave-1, wave-2, show-1;
                              * with --instr-run side-3 or side-waves-3 */
    const struct play_bench_scene *side_scene; /* that side scene (--instr-run) */
    int stones;        /* --stones: PLAY_STONES_SMOOTH (0, default) or PLAY_STONES_CLASSIC */
} opts_t;

enum { LOOK_SHOW = 0, LOOK_AUTOPILOT, LOOK_PERSON, LOOK_BENCH };
/* The frames of a timedemo scene, measured by --look --bench-scene. */
#define LOOK_BENCH_FRAMES 2000

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

typedef struct row {
    int stage, w, h, threads;
    int bpp;                    /* 32, 16, 8; 0 for the simulation alone */
    int sleep;                  /* 1 on, 0 off, -1 the seed (has none) */
    const char *path;
    double ns_px, fps;
    double vs_seed, vs_1t;      /* < 0: not applicable */
    double awake, redrawn;      /* tile fractions per frame, < 0: not applicable */
    uint64_t frames;            /* frames in the best run */
    double cpu_ms;              /* the process's CPU ms a frame (every thread), the least of
                                 * the runs: it holds on a busy machine where ns/px swings */
} row_t;

enum { BED_SIM = 1, BED_SEED = 2, BED_CALM = 4, BED_FORMATS = 8, BED_KEEP = 16 };

/* Everything for one field size and scene (bed.c says how the buffers
 * are shared). */
typedef struct bed {
    int w, h;
    uint64_t seed_value;            /* of the drop schedule */
    int calm, formats, warmup;      /* BED_CALM, BED_FORMATS, warm-up steps */
    const rpl_kernels_t *k_warm;    /* the product's warm-up kernels */
    rpl_sim_t *sim;                 /* NULL when only the seed runs, or in its turn */
    rpl_renderer_t *rend;           /* the calm bed's, of sim; NULL in other beds */
    unsigned char *pic;             /* the picture, laid out for the product or the seed;
                                     * NULL in the calm bed */
    int pic_layout;                 /* PIC_* in bed.c */
    uint32_t *bg, *fb;              /* bg: pic as the product's; fb: room for w*h pixels of
                                     * any format, and the seed's out page */
    rpl_backdrop_t *bd;             /* the backdrop of the 16- or 8-bit format measured */
    int bd_bpp;                     /* its bits per pixel, 0 when none */
    rpl_backdrop_t *calm_bd;        /* the calm bed's picture, XRGB8888, for rend */
    int has_seed, seed_owned;       /* seed_owned: the pool has its own buffers; else its
                                     * heights exist only in its turn (bed.c) */
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
    uint64_t cpu_ns; /* the process's CPU time over the timed frames */
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

/* The whole run: options, what is measured, every row, the summaries. */
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

/* machine.c */
uint64_t now_ns(void);
uint64_t process_cpu_ns(void); /* the process's CPU time, every thread */
void cpu_model(char *buf, size_t len);
double load_average(void);
double memcpy_gbps(uint64_t *sink);

/* bed.c */
/* A fast 64-bit fold of n bytes into h (a witness, not cryptographic). */
uint64_t hash_bytes(uint64_t h, const void *data, size_t n);
int bed_init(bed_t *b, int w, int h, uint64_t seed, const rpl_kernels_t *k, int flags,
             int warmup);
void bed_free(bed_t *b);
void bed_drop_backdrop(bed_t *b);
int run_once(bed_t *b, int stage, const entry_t *e, long fixed, result_t *res);
int instr_run(const opts_t *o);

/* runner.c */
void collect_paths(run_t *r);
void collect_tcounts(run_t *r);
void collect_sizes(run_t *r);
int run_all(run_t *r);

/* rows.c: what a run measured, read back */
double find_ns_bpp(const run_t *r, int stage, int w, int h, const char *path, int threads,
                   int sleep, int bpp);
/* The same at 32 bpp (the simulation alone has none). */
double find_ns(const run_t *r, int stage, int w, int h, const char *path, int threads,
               int sleep);
double ratio_rows(const run_t *r, int stage, int w, int h, const char *pa, int ta, int sa,
                  const char *pb, int tb, int sb);
double frame_ms(const run_t *r, int w, int h, const char *path, int threads, int bpp);
void summary_sizes(const run_t *r, int *sw, int *sh, int *bw, int *bh);

/* report.c */
void print_header(const run_t *r, const char *cpu, const char *autop);
void print_rows(const run_t *r, int from);
void print_calm(const run_t *r);
void print_summary(const run_t *r, double total_s);

/* side.c: ripple-bench --side, and --instr-run with a side scene; the
 * exit status */
int side_bench(const opts_t *o);
int side_instr_run(const opts_t *o);

/* look.c: ripple-bench --look; the exit status */
int look_bench(const opts_t *o);
/* NULL if --bench-scene NAME is one --look plays, else the names it plays. */
const char *look_bench_scene_check(const char *name);

/* json.c */
int print_json(const run_t *r, const char *cpu, const char *autop, double total_s);

#endif
