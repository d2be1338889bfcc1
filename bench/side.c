/* side.c - ripple-bench --side: what the side scene costs a frame (rigid bodies, water, splashes, drawing) at two sizes, with 0, 10 and 100 bodies, on springs and on analytic waves; and --instr-run's side workload, the timedemo's side scene, for the instruction counts. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "play/play.h"
#include "ripple_support.h"
#include "scene/scene.h"

#define SIDE_WARMUP 90      /* frames before the timed ones: the bodies are in the water */
#define SIDE_RUN_NS 500000000u
#define SIDE_RUN_MIN 30     /* frames a timed run takes at least */
#define SIDE_FRAME (1.0 / 60)

static const int side_sizes[][2] = { { 640, 480 }, { 1920, 1080 } };
static const int side_bodies[] = { 0, 10, 100 };

/* splitmix64, the bench's own: where the bodies are let go. */
static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double unit(uint64_t *s)
{
    return (double)(mix(s) >> 11) / 9007199254740992.0;
}

/* n bodies over the basins, crates and balls, light and heavy, in rows
 * from above the screen down to its top quarter. */
static int drop_bodies(side_scene_t *s, int w, int h, int n, uint64_t seed)
{
    uint64_t r = seed;
    int dropped = 0;
    for (int i = 0; i < n; i++) {
        rpl_water_t *wt = side_scene_water(s, unit(&r) < 0.7 ? 0 : 1);
        const rpl_water_params_t *p = rpl_water_params(wt);
        double x = p->x0 + (0.1 + 0.8 * unit(&r)) * (p->x1 - p->x0);
        double y = h * (0.25 - 0.9 * unit(&r));
        side_shape kind = i & 1 ? SIDE_BALL : SIDE_CRATE;
        dropped += side_scene_drop(s, x < w ? x : w - 1, y, kind, 0.3 + 1.3 * unit(&r), 0) == 0;
    }
    return dropped;
}

/* This thread's CPU time: what a stage costs whatever else the machine
 * runs (wall time swings with the load). */
static uint64_t thread_ns(void)
{
    return (uint64_t)rpl_thread_cpu_ns();
}

typedef struct side_row {
    double sim_ms, draw_ms;
    double draw_cpu_ms, copy_cpu_ms; /* the draw, and a memcpy of the frame, in CPU time */
    long frames;
    side_stats_t end;
} side_row_t;

static int side_measure(const opts_t *o, int w, int h, rpl_surface_kind kind, int bodies,
                        uint32_t *fb, uint32_t *copy, side_row_t *row)
{
    side_config_t cfg = { .w = w, .h = h, .format = RPL_XRGB8888, .surface = kind,
                          .seed = o->seed };
    side_scene_t *s;
    rpl_status st = side_scene_create(&cfg, &s);
    if (st != RPL_OK) {
        fprintf(stderr, "ripple-bench: side scene %dx%d: %s\n", w, h,
                s ? side_scene_error(s) : rpl_strerror(st));
        side_scene_destroy(s);
        return -1;
    }
    side_scene_set_autoplay(s, 0);
    if (drop_bodies(s, w, h, bodies, o->seed) != bodies) {
        fprintf(stderr, "ripple-bench: side scene %dx%d: cannot drop %d bodies\n", w, h, bodies);
        side_scene_destroy(s);
        return -1;
    }
    for (int i = 0; i < SIDE_WARMUP; i++) {
        side_scene_advance(s, SIDE_FRAME);
        side_scene_render(s, fb, (ptrdiff_t)w * 4);
    }
    side_scene_bake(s); /* the caustics' loop whole, as after 3.2 s of play */
    uint64_t sim = 0, draw = 0, draw_cpu = 0, copy_cpu = 0, start = now_ns();
    volatile uint32_t sink = 0;
    long frames = 0;
    for (;;) {
        uint64_t t0 = now_ns();
        side_scene_advance(s, SIDE_FRAME);
        uint64_t t1 = now_ns(), c1 = thread_ns();
        if (side_scene_render(s, fb, (ptrdiff_t)w * 4) != 0) {
            fprintf(stderr, "ripple-bench: side scene %dx%d: %s\n", w, h, side_scene_error(s));
            side_scene_destroy(s);
            return -1;
        }
        uint64_t c2 = thread_ns(), t2 = now_ns();
        /* the yardstick: the frame copied once, in the same process and
         * loop, so that the two see the same machine */
        memcpy(copy, fb, (size_t)w * (size_t)h * sizeof *fb);
        uint64_t c3 = thread_ns();
        sink += copy[(size_t)frames % ((size_t)w * (size_t)h)];
        sim += t1 - t0;
        draw += t2 - t1;
        draw_cpu += c2 - c1;
        copy_cpu += c3 - c2;
        frames++;
        if (o->frames > 0 ? frames >= o->frames
                          : frames >= SIDE_RUN_MIN && t2 - start >= SIDE_RUN_NS)
            break;
    }
    row->sim_ms = (double)sim / 1e6 / (double)frames;
    row->draw_ms = (double)draw / 1e6 / (double)frames;
    row->draw_cpu_ms = (double)draw_cpu / 1e6 / (double)frames;
    row->copy_cpu_ms = (double)copy_cpu / 1e6 / (double)frames;
    (void)sink;
    row->frames = frames;
    side_scene_stats(s, &row->end);
    side_scene_destroy(s);
    return 0;
}

int side_bench(const opts_t *o)
{
    int sizes[2][2], nsizes = 0;
    if (o->w > 0) {
        sizes[0][0] = o->w;
        sizes[0][1] = o->h;
        nsizes = 1;
    } else {
        for (int i = 0; i < 2; i++) {
            sizes[i][0] = side_sizes[i][0];
            sizes[i][1] = side_sizes[i][1];
        }
        nsizes = 2;
    }
    size_t most = 0;
    for (int i = 0; i < nsizes; i++)
        if ((size_t)sizes[i][0] * sizes[i][1] > most)
            most = (size_t)sizes[i][0] * sizes[i][1];
    uint32_t *fb = malloc(most * sizeof *fb), *copy = malloc(most * sizeof *copy);
    if (!fb || !copy) {
        fprintf(stderr, "ripple-bench: out of memory\n");
        free(fb);
        free(copy);
        return 1;
    }
    char cpu[160];
    cpu_model(cpu, sizeof cpu);
    printf("ripple-bench %s --side: the side scene's cost per frame\n", RPL_VERSION);
    printf("cpu: %s | seed %" PRIu64 "\n", cpu, o->seed);
    printf("a frame: 1/60 s of the scene (%d steps of %.4f s: water forces on every body, "
           "Chipmunk2D,\n  the surfaces, splashes) then the picture drawn (scene art, bodies, "
           "the water refracting it)\n  into XRGB8888, one thread; %d warm-up frames after the "
           "bodies are let go, then ",
           (int)(SIDE_FRAME / SIDE_STEP + 0.5), SIDE_STEP, SIDE_WARMUP);
    if (o->frames > 0)
        printf("%ld frames\n\n", o->frames);
    else
        printf(">= %.1f s of frames\n\n", SIDE_RUN_NS / 1e9);
    printf("%-10s %-8s %6s %9s %9s %9s %9s %7s %8s %6s %8s %8s %8s %7s %6s\n", "size", "surface",
           "bodies", "sim ms", "draw ms", "frame ms", "frames/s", "frames", "in water", "awake",
           "droplets", "draw cpu", "copy cpu", "x copy", "ns/px");
    int rc = 0;
    for (int i = 0; i < nsizes && rc == 0; i++)
        for (int k = 0; k < 2 && rc == 0; k++)
            for (size_t b = 0; b < sizeof side_bodies / sizeof side_bodies[0] && rc == 0; b++) {
                side_row_t row;
                rpl_surface_kind kind = k ? RPL_SURFACE_WAVES : RPL_SURFACE_SPRINGS;
                if (side_measure(o, sizes[i][0], sizes[i][1], kind, side_bodies[b], fb, copy,
                                 &row)) {
                    rc = 1;
                    break;
                }
                char sz[24];
                snprintf(sz, sizeof sz, "%dx%d", sizes[i][0], sizes[i][1]);
                double ms = row.sim_ms + row.draw_ms;
                double px = (double)sizes[i][0] * sizes[i][1];
                printf("%-10s %-8s %6d %9.3f %9.3f %9.3f %9.1f %7ld %8d %3d/%-2d %8d %8.3f %8.3f "
                       "%7.2f %6.2f\n",
                       sz, k ? "waves" : "springs", side_bodies[b], row.sim_ms, row.draw_ms, ms,
                       ms > 0 ? 1000.0 / ms : 0.0, row.frames, row.end.floating, row.end.awake,
                       row.end.waters, row.end.droplets, row.draw_cpu_ms, row.copy_cpu_ms,
                       row.copy_cpu_ms > 0 ? row.draw_cpu_ms / row.copy_cpu_ms : 0.0,
                       row.draw_cpu_ms * 1e6 / px);
                fflush(stdout);
            }
    if (rc == 0)
        printf("\nbodies: as let go (those that fell out of the level are gone); in water, awake,"
               " droplets: at the end of the run\ndraw cpu: the draw stage (bodies, water, droplets"
               " into the framebuffer) in this thread's CPU time; copy cpu: a memcpy of the frame\n"
               "  (w x h x 4 bytes) right after it in the same loop; x copy: draw / copy; ns/px: "
               "draw cpu per pixel of the frame\n");
    free(fb);
    free(copy);
    return rc;
}

/* --instr-run PATH --bench-scene side-3: a fixed workload for callgrind and
 * the qemu plugin (bench/instr.sh, bench/instr-qemu.sh), untimed.  The
 * timedemo's scene as it plays (its drops, its 1/60 s of steps a frame,
 * scene/play.c) at the size asked, from the same seed: SIDE_INSTR_WARMUP
 * frames of drops and steps without drawing, one frame drawn whole, then
 * the counted frames, each its drops, steps and (unless --part step) the
 * frame drawn over the last one, as in the window.  A picture first drawn
 * after the warm-up is the one drawn every frame all along (test_scene's
 * test_redraw_equals_fresh), so the warm-up need not draw.  A run of 0
 * frames holds the start-up, the warm-up and the whole frame: what the
 * scripts subtract.  The scene is made without the window's sky and stone
 * pictures (the bench reads no PNG): they are what the art looks like, not
 * work a frame.  Nor are the caustics' loop frames, baked as first shown
 * (the first 3.2 s of a window's play): the loop is baked whole after
 * the warm-up, in the 0-frame run too.  The kernels printed are read back
 * from the scene. */
int side_instr_run(const opts_t *o)
{
    const play_bench_scene_t *b = o->side_scene;
    const rpl_kernels_t *k = rpl_kernels_get(o->instr);
    const int w = o->w ? o->w : INSTR_W, h = o->h ? o->h : INSTR_H;
    const long frames = o->frames >= 0 ? o->frames : SIDE_INSTR_FRAMES;
    const rpl_format format = o->bpp == 32 ? RPL_XRGB8888 : o->bpp == 16 ? RPL_RGB565
                                                                          : RPL_INDEX8;
    const ptrdiff_t pitch = (ptrdiff_t)w * (o->bpp / 8);
    side_config_t cfg = { .w = w, .h = h, .format = format, .surface = b->surface,
                          .seed = o->seed };
    side_scene_t *s = NULL;
    rpl_status st = side_scene_create(&cfg, &s);
    if (st == RPL_OK)
        st = side_scene_set_kernels(s, k);
    void *fb = st == RPL_OK ? calloc((size_t)h, (size_t)pitch) : NULL;
    if (st != RPL_OK || !fb) {
        fprintf(stderr, "ripple-bench: side scene %dx%d: %s\n", w, h,
                st != RPL_OK ? side_scene_error(s) : "out of memory");
        side_scene_destroy(s);
        return 1;
    }
    side_scene_set_autoplay(s, 0); /* the timedemo drops the bodies */
    long f = 0;
    for (; f < SIDE_INSTR_WARMUP; f++) {
        side_scene_bench_input(s, f);
        side_scene_bench_step(s);
    }
    side_scene_bake(s); /* the caustics' loop whole: no count of a frame bakes */
    int bad = side_scene_render(s, fb, pitch) != 0;
    for (long i = 0; i < frames; i++, f++) {
        side_scene_bench_input(s, f);
        side_scene_bench_step(s);
        if (!o->step_only)
            bad |= side_scene_render(s, fb, pitch) != 0;
    }
    side_stats_t ss;
    side_scene_stats(s, &ss);
    printf("instr-run: path %s (kernels %s), scene %s-%d (%s), %dx%d, %d bpp, %d warm-up "
           "frames + %ld %s, one thread; at the end %d bodies (%d in water), %d droplets; "
           "state crc32 %08" PRIx32 " (frame %ld), checksum %016" PRIx64 "\n",
           o->instr, rpl_kernels_name(side_scene_kernels(s)), b->name, b->version,
           b->surface == RPL_SURFACE_WAVES ? "analytic waves" : "springs", w, h, o->bpp,
           SIDE_INSTR_WARMUP, frames, o->step_only ? "frames' steps, not drawn" : "frames",
           ss.bodies, ss.floating, ss.droplets, side_scene_bench_crc(s), f,
           hash_bytes(0, fb, (size_t)h * (size_t)pitch));
    if (bad)
        fprintf(stderr, "ripple-bench: side scene %dx%d: %s\n", w, h, side_scene_error(s));
    free(fb);
    side_scene_destroy(s);
    return bad ? 1 : 0;
}
