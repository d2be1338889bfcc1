/* ripple-bench.c - times the core's simulation and refraction on every kernel path against the seed's literal code. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ripple.h"
#include "seed_baseline.h"

#define EXIT_USAGE 2

#define REPEATS 5              /* runs per measurement; the best counts */
#define MIN_RUN_NS 100000000u  /* each run lasts at least 0.1 s ... */
#define FRAMES_MAX 1000000     /* ... unless --frames N (1..FRAMES_MAX) says */
#define WARMUP_STEPS 150       /* steps of rain before anything is timed */
#define VERIFY_FRAMES 4        /* frames every path renders to compare outputs */
#define MAX_PATHS 8
#define MAX_SIZES 4
#define MAX_DROPS 64           /* stones per step, at most */

enum { ST_SIM, ST_REFRACT, ST_FRAME, ST_COUNT };

static const char *const stage_names[ST_COUNT] = { "sim", "refract", "frame" };

/* Kernel paths to try, in order; those this build or CPU lacks are skipped. */
static const char *const path_names[] = { "c", "sse2", "avx2", "mmx" };

static const int default_sizes[MAX_SIZES][2] = {
    { 320, 200 }, { 640, 480 }, { 1280, 720 }, { 1920, 1080 },
};

typedef struct opts {
    int w, h;         /* --size; 0 means every default size */
    long frames;      /* --frames; 0 means time-based runs */
    int json;
    uint64_t seed;
} opts_t;

typedef struct path {
    const char *name;
    const rpl_kernels_t *k;
} path_t;

typedef struct row {
    int stage, w, h, threads;
    const char *path;
    double ns_px, fps, speedup;
    uint64_t frames; /* frames in the best run */
} row_t;

typedef struct drop {
    int x, y, r, weight;
} drop_t;

/* The drop schedule: a deterministic stream of stones, one batch per step,
 * fed identically to the seed baseline and to every product path.  Steady
 * rain like the demo's (radius unit..2 unit, weight 150..450, density kept
 * per area) plus a heavy stone every 10 steps like the autopilot's. */
typedef struct sched {
    uint64_t rng;
    uint32_t step;
    int w, h;
    int per_kilostep;  /* rain stones per 1000 steps */
    int unit, big;     /* rain radius unit, heavy stone radius */
} sched_t;

/* Everything for one field size. */
typedef struct bed {
    int w, h;
    rpl_sim_t *sim;
    uint32_t *bg, *fb;
    int16_t *save_cur, *save_prev; /* product state after the warm-up */
    seed_pool_t seed;
    short *seed_save1, *seed_save2; /* seed state after the warm-up */
    sched_t sched0;                 /* schedule state after the warm-up */
    rpl_view_t view;
} bed_t;

typedef struct run {
    opts_t o;
    path_t paths[MAX_PATHS];
    int npaths;
    row_t rows[MAX_SIZES * ST_COUNT * (MAX_PATHS + 1)];
    int nrows;
    uint64_t checksum;
    int agree; /* 1 while every path renders what the first one does */
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

/* ---- the drop schedule ------------------------------------------------- */

static void sched_init(sched_t *s, int w, int h, uint64_t seed)
{
    int m = w < h ? w : h;
    s->rng = mix64(seed + 0x9E3779B97F4A7C15ull);
    if (s->rng == 0)
        s->rng = 1;
    s->step = 0;
    s->w = w;
    s->h = h;
    s->per_kilostep = (int)(150.0 * ((double)w * h) / (640.0 * 480.0));
    if (s->per_kilostep < 150)
        s->per_kilostep = 150;
    s->unit = m / 240 > 1 ? m / 240 : 1;
    s->big = 3 * (m / 160 > 1 ? m / 160 : 1);
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
    int n = s->per_kilostep / 1000, k = 0;
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

static void bed_free(bed_t *b)
{
    rpl_sim_destroy(b->sim);
    free(b->bg);
    free(b->fb);
    free(b->save_cur);
    free(b->save_prev);
    free(b->seed_save1);
    free(b->seed_save2);
    seed_pool_free(&b->seed);
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

static void step_both(bed_t *b, sched_t *s)
{
    drop_t d[MAX_DROPS];
    int n = sched_next(s, d);
    for (int i = 0; i < n; i++) {
        rpl_sim_drop(b->sim, d[i].x, d[i].y, d[i].r, d[i].weight);
        seed_dropstone(&b->seed, d[i].x, d[i].y, d[i].r, d[i].weight);
    }
    rpl_sim_step(b->sim);
    seed_ripplespread(&b->seed);
}

/* Builds the field, the pictures and both waters, warms them up with the
 * schedule and keeps that state for every run.  0, or -1 with a message. */
static int bed_init(bed_t *b, int w, int h, uint64_t seed, const rpl_kernels_t *k)
{
    rpl_status st = RPL_OK;
    size_t cells = (size_t)w * (size_t)h;
    memset(b, 0, sizeof *b);
    b->w = w;
    b->h = h;
    b->view.strength = RPL_STRENGTH_ONE; /* 1:1 offsets, like the seed */
    b->view.shading = 0;                 /* the seed has no light */
    b->sim = rpl_sim_create(w, h, seed, &st);
    b->bg = malloc(cells * sizeof *b->bg);
    b->fb = calloc(cells, sizeof *b->fb);
    b->save_cur = malloc(cells * sizeof *b->save_cur);
    b->save_prev = malloc(cells * sizeof *b->save_prev);
    b->seed_save1 = malloc(cells * sizeof *b->seed_save1);
    b->seed_save2 = malloc(cells * sizeof *b->seed_save2);
    int seed_ok = seed_pool_init(&b->seed, w, h) == 0;
    if (!b->sim || !b->bg || !b->fb || !b->save_cur || !b->save_prev ||
        !b->seed_save1 || !b->seed_save2 || !seed_ok) {
        fprintf(stderr, "ripple-bench: %dx%d: %s\n", w, h,
                rpl_strerror(st != RPL_OK ? st : RPL_ENOMEM));
        bed_free(b);
        return -1;
    }
    rpl_sim_set_kernels(b->sim, k);

    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint32_t px = backdrop(x, y, w, h);
            b->bg[(size_t)y * (size_t)w + (size_t)x] = px;
            memcpy(b->seed.pic + (size_t)y * (size_t)b->seed.pic_pitch + (size_t)x * 4, &px, 4);
        }

    sched_t s;
    sched_init(&s, w, h, seed);
    for (int i = 0; i < WARMUP_STEPS; i++)
        step_both(b, &s);
    b->sched0 = s;
    memcpy(b->save_cur, b->sim->cur, cells * sizeof *b->save_cur);
    memcpy(b->save_prev, b->sim->prev, cells * sizeof *b->save_prev);
    memcpy(b->seed_save1, b->seed.buf1, cells * sizeof *b->seed_save1);
    memcpy(b->seed_save2, b->seed.buf2, cells * sizeof *b->seed_save2);

    st = rpl_refract(b->sim, b->bg, b->fb, (ptrdiff_t)w * 4, RPL_XRGB8888, &b->view);
    if (st != RPL_OK) {
        fprintf(stderr, "ripple-bench: %dx%d: rpl_refract: %s\n", w, h, rpl_strerror(st));
        bed_free(b);
        return -1;
    }
    return 0;
}

/* Puts both waters back to where the warm-up left them. */
static int bed_restore(bed_t *b)
{
    size_t cells = (size_t)b->w * (size_t)b->h;
    memcpy(b->seed.buf1, b->seed_save1, cells * sizeof *b->seed.buf1);
    memcpy(b->seed.buf2, b->seed_save2, cells * sizeof *b->seed.buf2);
    rpl_status st = rpl_sim_set_state(b->sim, b->save_cur, b->save_prev);
    if (st != RPL_OK) {
        fprintf(stderr, "ripple-bench: %dx%d: restoring the water: %s\n", b->w, b->h,
                rpl_sim_error(b->sim));
        return -1;
    }
    return 0;
}

/* One timed run of a stage from the warmed-up state, on the seed baseline
 * (k == NULL) or a product path.  Runs `fixed` frames, or as many as fill
 * MIN_RUN_NS when fixed is 0.  Returns the elapsed ns (0 on error) and the
 * frame count; folds a hash of the result into *hash. */
static uint64_t run_once(bed_t *b, int stage, const rpl_kernels_t *k, long fixed,
                         uint64_t *frames, uint64_t *hash)
{
    if (bed_restore(b) != 0)
        return 0;
    if (k)
        rpl_sim_set_kernels(b->sim, k);
    sched_t s = b->sched0;
    drop_t d[MAX_DROPS];
    const ptrdiff_t pitch = (ptrdiff_t)b->w * 4;
    rpl_status st = RPL_OK;
    uint64_t n = 0, t0 = now_ns(), t;
    do {
        if (stage != ST_REFRACT) {
            int nd = sched_next(&s, d);
            if (k) {
                for (int i = 0; i < nd; i++)
                    rpl_sim_drop(b->sim, d[i].x, d[i].y, d[i].r, d[i].weight);
                rpl_sim_step(b->sim);
            } else {
                for (int i = 0; i < nd; i++)
                    seed_dropstone(&b->seed, d[i].x, d[i].y, d[i].r, d[i].weight);
                seed_ripplespread(&b->seed);
            }
        }
        if (stage != ST_SIM) {
            if (k)
                st |= rpl_refract(b->sim, b->bg, b->fb, pitch, RPL_XRGB8888, &b->view);
            else
                seed_renderripple(&b->seed);
        }
        n++;
        t = now_ns();
    } while (fixed > 0 ? n < (uint64_t)fixed : t - t0 < MIN_RUN_NS);
    if (st != RPL_OK) {
        fprintf(stderr, "ripple-bench: %dx%d: rpl_refract failed\n", b->w, b->h);
        return 0;
    }
    size_t cells = (size_t)b->w * (size_t)b->h;
    if (k) {
        *hash = hash_bytes(*hash, b->sim->cur, cells * sizeof *b->sim->cur);
        *hash = hash_bytes(*hash, b->fb, cells * sizeof *b->fb);
    } else {
        *hash = hash_bytes(*hash, b->seed.buf1, cells * sizeof *b->seed.buf1);
        *hash = hash_bytes(*hash, b->seed.out, (size_t)b->h * (size_t)b->seed.out_pitch);
    }
    *frames = n;
    return t > t0 ? t - t0 : 1;
}

/* Times one stage at one size on the seed and every path, runs of each
 * interleaved so that noise hits them alike, and appends the rows. */
static int measure(run_t *r, bed_t *b, int stage)
{
    int np = r->npaths + 1; /* slot 0 is the seed */
    uint64_t best[MAX_PATHS + 1], best_frames[MAX_PATHS + 1];
    for (int p = 0; p < np; p++)
        best[p] = UINT64_MAX, best_frames[p] = 0;
    for (int rep = 0; rep < REPEATS; rep++)
        for (int p = 0; p < np; p++) {
            uint64_t frames = 0;
            uint64_t ns = run_once(b, stage, p ? r->paths[p - 1].k : NULL, r->o.frames,
                                   &frames, &r->checksum);
            if (ns == 0)
                return -1;
            /* compare per frame: time-based runs differ in length */
            if (best[p] == UINT64_MAX || (double)ns / frames < (double)best[p] / best_frames[p])
                best[p] = ns, best_frames[p] = frames;
        }
    double px = (double)b->w * b->h, seed_ns = 0;
    for (int p = 0; p < np; p++) {
        row_t *w = &r->rows[r->nrows++];
        w->stage = stage;
        w->w = b->w;
        w->h = b->h;
        w->threads = 1;
        w->path = p ? r->paths[p - 1].name : "seed";
        w->ns_px = (double)best[p] / ((double)best_frames[p] * px);
        w->fps = 1e9 / (w->ns_px * px);
        if (p == 0)
            seed_ns = w->ns_px;
        w->speedup = seed_ns / w->ns_px;
        w->frames = best_frames[p];
    }
    return 0;
}

/* Every path must give the same water and picture from the same start. */
static int verify_paths(run_t *r, bed_t *b)
{
    uint64_t first = 0;
    for (int p = 0; p < r->npaths; p++) {
        uint64_t frames = 0, h = 0;
        if (run_once(b, ST_FRAME, r->paths[p].k, VERIFY_FRAMES, &frames, &h) == 0)
            return -1;
        if (p == 0)
            first = h;
        else if (h != first) {
            fprintf(stderr, "ripple-bench: warning: path %s differs from path %s at %dx%d\n",
                    r->paths[p].name, r->paths[0].name, b->w, b->h);
            r->agree = 0;
        }
        r->checksum ^= mix64(h);
    }
    return 0;
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

static void print_header(const run_t *r, const char *cpu, const char *autop)
{
    printf("ripple-bench %s: the core's kernel paths against the seed's literal code\n",
           RPL_VERSION);
    printf("cpu: %s | auto path: %s | seed %" PRIu64 "\n", cpu, autop, r->o.seed);
    if (r->o.frames > 0)
        printf("each figure: best of %d runs of %ld frames", REPEATS, r->o.frames);
    else
        printf("each figure: best of %d runs of >= %.1f s", REPEATS, MIN_RUN_NS / 1e9);
    printf(", after %d warm-up steps of rain and stones\n", WARMUP_STEPS);
    printf("sim = stones + one wave step; refract = one render (strength 1:1, no light); "
           "frame = both\n");
    printf("ns/px: nanoseconds per pixel per frame, lower is better; "
           "fps = 1e9 / (ns/px * W * H)\n");
    printf("speedup: seed ns/px / path ns/px, same stage and size (seed = the seed's "
           "literal code, 1.00)\n\n");
    printf("%-7s  %-9s  %-6s  %7s  %8s  %11s  %7s\n", "stage", "size", "path", "threads",
           "ns/px", "fps", "speedup");
    printf("%-7s  %-9s  %-6s  %7s  %8s  %11s  %7s\n", "-------", "---------", "------",
           "-------", "--------", "-----------", "-------");
}

static void print_rows(const run_t *r, int from)
{
    for (int i = from; i < r->nrows; i++) {
        const row_t *w = &r->rows[i];
        char size[24];
        snprintf(size, sizeof size, "%dx%d", w->w, w->h);
        printf("%-7s  %-9s  %-6s  %7d  %8.3f  %11.1f  %7.2f\n", stage_names[w->stage], size,
               w->path, w->threads, w->ns_px, w->fps, w->speedup);
    }
    fflush(stdout);
}

static void print_json(const run_t *r, const char *cpu, const char *autop, double total_s)
{
    printf("{\"version\":");
    json_string(stdout, RPL_VERSION);
    printf(",\"seed\":%" PRIu64 ",\"cpu\":", r->o.seed);
    json_string(stdout, cpu);
    printf(",\"auto_path\":");
    json_string(stdout, autop);
    printf(",\"repeats\":%d,\"warmup_steps\":%d,", REPEATS, WARMUP_STEPS);
    if (r->o.frames > 0)
        printf("\"frames\":%ld,\"min_run_s\":null,", r->o.frames);
    else
        printf("\"frames\":null,\"min_run_s\":%.3f,", MIN_RUN_NS / 1e9);
    printf("\"results\":[");
    for (int i = 0; i < r->nrows; i++) {
        const row_t *w = &r->rows[i];
        printf("%s\n{\"stage\":\"%s\",\"width\":%d,\"height\":%d,\"path\":", i ? "," : "",
               stage_names[w->stage], w->w, w->h);
        json_string(stdout, w->path);
        printf(",\"threads\":%d,\"ns_per_px\":%.4f,\"fps\":%.2f,\"speedup_vs_seed\":%.3f,"
               "\"frames\":%" PRIu64 "}",
               w->threads, w->ns_px, w->fps, w->speedup, w->frames);
    }
    printf("\n],\"paths_agree\":%s,\"checksum\":\"%016" PRIx64 "\",\"total_s\":%.1f}\n",
           r->agree ? "true" : "false", r->checksum, total_s);
}

/* ---- command line ------------------------------------------------------ */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ripple-bench [--size WxH] [--frames N] [--seed N] [--json]\n"
            "Times the wave step (sim), the refraction (refract) and both (frame) on every\n"
            "kernel path of the core, and the seed's literal code for comparison.\n"
            "  --size WxH   only this size (each side %d..%d); default 320x200, 640x480,\n"
            "               1280x720 and 1920x1080\n"
            "  --frames N   frames per run (1..%d); default: as many as fill %.1f s\n"
            "  --seed N     seed of the drop schedule (default 1)\n"
            "  --json       print the results as one JSON object\n"
            "  --help       show this help\n"
            "  --version    show the version\n",
            RPL_DIM_MIN, RPL_DIM_MAX, FRAMES_MAX, MIN_RUN_NS / 1e9);
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

/* Returns -1 to go on, or the exit status (0 after --help/--version). */
static int parse_args(int argc, char **argv, opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->seed = 1;
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
        if (strncmp(a, "--", 2) != 0)
            return usage_error("unexpected argument '%s'", a);
        /* options with a value: --name V or --name=V */
        const char *eq = strchr(a, '=');
        size_t nl = eq ? (size_t)(eq - a) : strlen(a);
        if (nl >= sizeof name)
            return usage_error("unknown option '%s'", a);
        memcpy(name, a, nl);
        name[nl] = '\0';
        if (eq && (!strcmp(name, "--json") || !strcmp(name, "--help") || !strcmp(name, "--version")))
            return usage_error("%s takes no value", name);
        if (strcmp(name, "--size") && strcmp(name, "--frames") && strcmp(name, "--seed"))
            return usage_error("unknown option '%s'", name);
        if (eq)
            val = eq + 1;
        else if (i + 1 < argc)
            val = argv[++i];
        else
            return usage_error("%s needs a value", name);
        if (strcmp(name, "--size") == 0) {
            if (parse_size(val, &o->w, &o->h) != 0)
                return usage_error("--size '%s' is not WxH with both sides in 3..8192", val);
        } else if (strcmp(name, "--frames") == 0) {
            if (parse_long(val, 1, FRAMES_MAX, &o->frames) != 0)
                return usage_error("--frames '%s' is not a whole number in 1..1000000", val);
        } else if (parse_u64(val, &o->seed) != 0) {
            return usage_error("--seed '%s' is not a whole number in 0..2^64-1", val);
        }
    }
    return -1;
}

/* ---- main -------------------------------------------------------------- */

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
    rc = 0;
    uint64_t t_start = now_ns();
    r->agree = 1;

    for (size_t i = 0; i < sizeof path_names / sizeof path_names[0]; i++) {
        const rpl_kernels_t *k = rpl_kernels_get(path_names[i]);
        int dup = 0;
        for (int j = 0; j < r->npaths; j++)
            dup |= r->paths[j].k == k;
        if (!k || dup || r->npaths == MAX_PATHS) {
            fprintf(stderr, "skipped: %s (%s)\n", path_names[i],
                    !k ? "not available" : dup ? "same kernels as another path" : "too many paths");
            continue;
        }
        r->paths[r->npaths].name = path_names[i];
        r->paths[r->npaths].k = k;
        r->npaths++;
    }
    if (r->npaths == 0) {
        fprintf(stderr, "ripple-bench: no kernel path available\n");
        free(r);
        return 1;
    }

    char cpu[160];
    cpu_model(cpu, sizeof cpu);
    const char *autop = rpl_kernels_name(rpl_kernels_get("auto"));
    if (!r->o.json)
        print_header(r, cpu, autop);

    int sizes[MAX_SIZES][2], nsizes = 0;
    if (r->o.w) {
        sizes[0][0] = r->o.w;
        sizes[0][1] = r->o.h;
        nsizes = 1;
    } else {
        memcpy(sizes, default_sizes, sizeof sizes);
        nsizes = MAX_SIZES;
    }

    for (int si = 0; si < nsizes && rc == 0; si++) {
        bed_t b;
        if (bed_init(&b, sizes[si][0], sizes[si][1], r->o.seed, r->paths[0].k) != 0) {
            rc = 1;
            break;
        }
        for (int st = 0; st < ST_COUNT && rc == 0; st++) {
            int from = r->nrows;
            if (measure(r, &b, st) != 0)
                rc = 1;
            else if (!r->o.json)
                print_rows(r, from);
        }
        if (rc == 0 && verify_paths(r, &b) != 0)
            rc = 1;
        bed_free(&b);
        if (!r->o.json && si + 1 < nsizes)
            printf("\n");
    }

    double total_s = (double)(now_ns() - t_start) / 1e9;
    volatile uint64_t sink = r->checksum; /* the work cannot be optimized away */
    if (rc == 0) {
        if (r->o.json)
            print_json(r, cpu, autop, total_s);
        else
            printf("\npaths agree: %s | checksum %016" PRIx64 " | total %.1f s\n",
                   r->npaths < 2 ? "n/a (one path)" : r->agree ? "yes" : "NO", (uint64_t)sink,
                   total_s);
    }
    free(r);
    return rc;
}
