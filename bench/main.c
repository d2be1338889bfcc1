/* main.c - ripple-bench's command line: options, usage errors, and the choice between a timed run, --list-paths and --instr-run. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "play/play.h"
#include "ripple_support.h"
#include "scene/scene.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ripple-bench [--size WxH] [--frames N] [--threads N] [--path NAME]\n"
            "                    [--seed N] [--json]\n"
            "       ripple-bench --instr-run PATH|seed [--size WxH] [--frames N] [--bpp N]\n"
            "                    [--model wave] [--part step]\n"
            "       ripple-bench --instr-run PATH --bench-scene side-3|side-waves-3\n"
            "                    [--size WxH] [--frames N] [--bpp N] [--part step]\n"
            "       ripple-bench --side [--size WxH] [--frames N] [--seed N]\n"
            "       ripple-bench --look [--show FILE | --no-show | --person | --bench-scene S]\n"
            "                    [--stones K] [--size WxH] [--model M] [--seed N]\n"
            "                    [--frames N] [--every N] [--threads N]\n"
            "Times the wave step (sim), the refraction (refract) and both (frame) on every\n"
            "kernel path and thread count of the core, and the seed's literal code for\n"
            "comparison, into 32-bit framebuffers (at 640x480, or the one size, into 16- and\n"
            "8-bit ones too); then a calm scene with sleeping tiles on and off, and memcpy.\n"
            "ns/px and fps are wall time; beside them, the process's CPU ms a frame.\n"
            "  --size WxH      only this size (each side %d..%d); default 320x200, 640x480,\n"
            "                  1280x720 and 1920x1080 (the calm scene uses the largest)\n"
            "  --frames N      frames per run (1..%d); default: busy runs fill %.1f s,\n"
            "                  calm runs take %d frames\n"
            "  --threads N     only this thread count (1..%d); default 1..processors, at least 1, 2\n"
            "  --path NAME     only this kernel path (c, mmx, sse2, avx2, neon, auto)\n"
            "  --seed N        seed of the drop schedule (default 1)\n"
            "  --json          print the results as one JSON object\n"
            "  --list-paths    print the paths available here, one a line\n"
            "  --instr-run P   for bench/instr.sh: warm-up plus --frames N (default %d, 0 allowed)\n"
            "                  full frames of path P or \"seed\", one thread, no timing\n"
            "                  (default size %dx%d)\n"
            "  --bpp N         with --instr-run: render 32 (XRGB8888, default), 16 (RGB565) or\n"
            "                  8 (INDEX8) bits per pixel; timed runs measure every format\n"
            "  --model M       with --instr-run: step by the classic rule (default) or the wave\n"
            "                  model (timed runs measure both: the wave rows)\n"
            "  --part P        with --instr-run: whole frames (frame, default) or their step\n"
            "                  alone, stones included (step); a frame less its step is the\n"
            "                  refraction (for the side view: the drawing)\n"
            "  --side          instead: the side scene's cost per frame (bodies, water,\n"
            "                  drawing) at 640x480 and 1920x1080 (or --size), with 0, 10\n"
            "                  and 100 bodies, springs and analytic waves\n"
            "  --look          instead: play a show headless (the default show, or --show\n"
            "                  FILE) as the demo does, one step a frame, for --frames steps\n"
            "                  (default one pass), and print every --every N steps (60) the\n"
            "                  speckle share and mean offset of the refracted water at the\n"
            "                  refraction strength in use (640x480 unless --size; --model\n"
            "                  classic or wave)\n"
            "  --no-show       with --look: the autopilot and the rain instead, as the demo\n"
            "                  plays when left alone without a show (default 3600 steps)\n"
            "  --person        with --look: the scripted person's clicks and drags, the rain\n"
            "                  on (default one pass of its script, 1800 steps)\n"
            "  --stones K      with --no-show or --person: the demo's stones, smooth\n"
            "                  (default) or classic, each at its own refraction strength\n"
            "  --bench-scene S with --look: a timedemo scene as it plays (busy-1, wave-1:\n"
            "                  the autopilot and the rain with the classic discs; busy-2,\n"
            "                  wave-2: with the smooth stones; show-2: the default show,\n"
            "                  show-1: the show before it kept time with the music),\n"
            "                  default 2000 frames; with --instr-run: the side view's\n"
            "                  timedemo scene (side-3 springs, side-waves-3 analytic waves;\n"
            "                  side, side-waves: the newest) after %d warm-up frames, then\n"
            "                  --frames N (default %d) frames of its drops, steps and\n"
            "                  drawing on path PATH, one thread (default size %dx%d)\n"
            "  --help          show this help\n"
            "  --version       show the version\n",
            RPL_DIM_MIN, RPL_DIM_MAX, FRAMES_MAX, MIN_RUN_NS / 1e9, CALM_FRAMES, RPL_THREADS_MAX,
            INSTR_FRAMES, INSTR_W, INSTR_H, SIDE_INSTR_WARMUP, SIDE_INSTR_FRAMES, INSTR_W,
            INSTR_H);
}

/* One line on stderr; returns the usage exit status for the caller to
 * pass on. */
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

/* --bench-scene NAME with --instr-run: one of the timedemo's side scenes
 * into o->side_scene; 0, or the usage error's exit status. */
static int check_side_scene(opts_t *o)
{
    const char *name = o->bench_scene, *retired = play_bench_scene_retired(name);
    const play_bench_scene_t *b = play_bench_scene_find(name);
    if (retired)
        return usage_error("--bench-scene '%s': %s", name, retired);
    if (!b || b->scene != PLAY_BENCH_SIDE) {
        char names[96] = "";
        size_t n = 0;
        for (size_t i = 0; (b = play_bench_scene_at(i)) != NULL && n < sizeof names; i++)
            if (b->scene == PLAY_BENCH_SIDE)
                n += (size_t)snprintf(names + n, sizeof names - n, "%s%s-%d", n ? ", " : "",
                                      b->name, b->version);
        return usage_error("--bench-scene '%s' with --instr-run is not a side scene (%s); the "
                           "pool's count is --instr-run alone", name, names);
    }
    o->side_scene = b;
    return 0;
}

/* A kernel path by name; 0, or the usage error's exit status. */
static int check_path(const char *opt, const char *name, const char **out)
{
    const rpl_kernels_t *k = NULL;
    rpl_status st = rpl_kernels_find(name, &k);
    if (st == RPL_EINVAL) {
        char names[64];
        rpl_kernels_names(names, sizeof names);
        return usage_error("%s '%s' is not a kernel path (%s, auto)", opt, name, names);
    }
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
                                              "--path", "--instr-run", "--bpp", "--model",
                                              "--part", "--every", "--show",
                                              "--bench-scene", "--stones" };
    static const char *const flags[] = { "--json", "--help", "--version", "--list-paths",
                                         "--side", "--look", "--no-show", "--person" };
    const char *path_arg = NULL;
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->bpp = 32;
    int bpp_set = 0, model_set = 0, part_set = 0, stones_set = 0;
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
        if (strcmp(a, "--side") == 0) {
            o->side = 1;
            continue;
        }
        if (strcmp(a, "--look") == 0) {
            o->look = 1;
            continue;
        }
        if (strcmp(a, "--no-show") == 0 || strcmp(a, "--person") == 0) {
            int scene = a[2] == 'n' ? LOOK_AUTOPILOT : LOOK_PERSON;
            if (o->look_scene && o->look_scene != scene)
                return usage_error("--no-show and --person do not go together");
            o->look_scene = scene;
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
        long long v = 0;
        if (strcmp(name, "--size") == 0) {
            if (rpl_parse_size(val, RPL_DIM_MIN, RPL_DIM_MAX, &o->w, &o->h) != RPL_OK)
                return usage_error("--size '%s' is not WxH with both sides in %d..%d", val,
                                   RPL_DIM_MIN, RPL_DIM_MAX);
        } else if (strcmp(name, "--frames") == 0) {
            /* 0 only for --instr-run, checked once every option is known */
            if (rpl_parse_int(val, 0, FRAMES_MAX, &v) != RPL_OK)
                return usage_error("--frames '%s' is not a whole number in 1..%d", val,
                                   FRAMES_MAX);
            o->frames = (long)v;
        } else if (strcmp(name, "--threads") == 0) {
            if (rpl_parse_int(val, 1, RPL_THREADS_MAX, &v) != RPL_OK)
                return usage_error("--threads '%s' is not a whole number in 1..%d", val,
                                   RPL_THREADS_MAX);
            o->threads = (int)v;
        } else if (strcmp(name, "--path") == 0) {
            path_arg = val;
        } else if (strcmp(name, "--every") == 0) {
            if (rpl_parse_int(val, 1, FRAMES_MAX, &v) != RPL_OK)
                return usage_error("--every '%s' is not a whole number in 1..%d", val,
                                   FRAMES_MAX);
            o->every = (int)v;
        } else if (strcmp(name, "--show") == 0) {
            o->show = val;
        } else if (strcmp(name, "--bench-scene") == 0) {
            o->bench_scene = val; /* checked once --look or --instr-run is known */
        } else if (strcmp(name, "--stones") == 0) {
            if (strcmp(val, "smooth") != 0 && strcmp(val, "classic") != 0)
                return usage_error("--stones '%s' is not smooth or classic", val);
            o->stones = strcmp(val, "classic") == 0 ? PLAY_STONES_CLASSIC : PLAY_STONES_SMOOTH;
            stones_set = 1;
        } else if (strcmp(name, "--instr-run") == 0) {
            o->instr = val;
        } else if (strcmp(name, "--model") == 0) {
            if (strcmp(val, "classic") != 0 && strcmp(val, "wave") != 0)
                return usage_error("--model '%s' is not classic or wave", val);
            o->wave = strcmp(val, "wave") == 0;
            model_set = 1;
        } else if (strcmp(name, "--part") == 0) {
            if (strcmp(val, "frame") != 0 && strcmp(val, "step") != 0)
                return usage_error("--part '%s' is not frame or step", val);
            o->step_only = strcmp(val, "step") == 0;
            part_set = 1;
        } else if (strcmp(name, "--bpp") == 0) {
            if (rpl_parse_int(val, 8, 32, &v) != RPL_OK || (v != 8 && v != 16 && v != 32))
                return usage_error("--bpp '%s' is not 32, 16 or 8", val);
            o->bpp = (int)v;
            bpp_set = 1;
        } else if (rpl_parse_u64(val, &o->seed) != RPL_OK) {
            return usage_error("--seed '%s' is not a whole number in 0..2^64-1", val);
        }
    }
    if (o->side && (o->json || o->list || o->instr || path_arg || o->threads || model_set ||
                    bpp_set || part_set))
        return usage_error("--side goes with --size, --frames and --seed only");
    if (o->look && (o->side || o->json || o->list || o->instr || path_arg || bpp_set || part_set))
        return usage_error("--look goes with --show, --no-show, --person, --bench-scene, "
                           "--stones, --size, --model, --seed, --frames, --every and --threads "
                           "only");
    const char *look_only = o->every ? "--every" : o->show ? "--show"
                          : o->look_scene == LOOK_AUTOPILOT ? "--no-show"
                          : o->look_scene == LOOK_PERSON ? "--person"
                          : stones_set ? "--stones" : NULL;
    if (!o->look && look_only)
        return usage_error("%s goes with --look", look_only);
    if (o->bench_scene && !o->look && !o->instr)
        return usage_error("--bench-scene goes with --look or --instr-run");
    if (o->bench_scene && o->look) {
        const char *names = look_bench_scene_check(o->bench_scene);
        if (names)
            return usage_error("--bench-scene '%s' is not %s", o->bench_scene, names);
    }
    if (o->bench_scene && o->instr) {
        int rc = check_side_scene(o);
        if (rc)
            return rc;
        if (strcmp(o->instr, "seed") == 0)
            return usage_error("the seed has no side view: --bench-scene goes with a path");
        if (model_set || o->threads)
            return usage_error("%s does not go with --bench-scene: the side scene %s",
                               model_set ? "--model" : "--threads",
                               model_set ? "has its own water" : "draws on one thread");
        if (o->w > 0 && (o->w < SIDE_W_MIN || o->h < SIDE_H_MIN))
            return usage_error("--bench-scene needs a size of at least %dx%d", SIDE_W_MIN,
                               SIDE_H_MIN);
    }
    if (o->bench_scene && o->look_scene)
        return usage_error("--bench-scene and %s do not go together",
                           o->look_scene == LOOK_PERSON ? "--person" : "--no-show");
    if (o->bench_scene && o->look)
        o->look_scene = LOOK_BENCH;
    if (o->look_scene == LOOK_BENCH && (model_set || stones_set))
        return usage_error("%s does not go with --bench-scene: the scene sets it",
                           model_set ? "--model" : "--stones");
    if (o->look_scene == LOOK_BENCH && o->show && strcmp(o->bench_scene, "show-1") != 0)
        return usage_error("--show goes with --bench-scene show-1 only");
    if ((o->look_scene == LOOK_AUTOPILOT || o->look_scene == LOOK_PERSON) && o->show)
        return usage_error("--show and %s do not go together",
                           o->look_scene == LOOK_PERSON ? "--person" : "--no-show");
    if (o->look_scene == LOOK_SHOW && stones_set)
        return usage_error("--stones goes with --no-show or --person (a show's stones are smooth)");
    if (o->side && o->w > 0 && (o->w < 160 || o->h < 120))
        return usage_error("--side needs a size of at least 160x120");
    if (o->instr && path_arg)
        return usage_error("--path and --instr-run do not go together");
    if (model_set && !o->instr && !o->look)
        return usage_error("--model goes with --instr-run (timed runs measure both)");
    if (o->wave && o->instr && strcmp(o->instr, "seed") == 0)
        return usage_error("the seed has the classic rule only");
    if (part_set && !o->instr)
        return usage_error("--part goes with --instr-run (timed runs measure each part)");
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

/* The timed run: header, rows as they come and the summary, or the JSON
 * object at the end.  The exit status. */
static int bench(run_t *r)
{
    uint64_t t_start = now_ns();
    r->agree = 1;
    collect_paths(r);
    if (r->o.list) {
        for (int p = 0; p < r->npaths; p++)
            puts(r->paths[p].name);
        return 0;
    }
    if (r->npaths == 0) {
        fprintf(stderr, "ripple-bench: no kernel path available\n");
        return 1;
    }
    collect_tcounts(r);
    collect_sizes(r);

    char cpu[160];
    cpu_model(cpu, sizeof cpu);
    r->load_start = load_average();
    const char *autop = rpl_kernels_name(rpl_kernels_get("auto"));
    if (!r->o.json)
        print_header(r, cpu, autop);

    int rc = run_all(r) == 0 ? 0 : 1;
    r->load_end = load_average();
    double total_s = (double)(now_ns() - t_start) / 1e9;
    if (rc == 0) {
        if (r->o.json)
            rc = print_json(r, cpu, autop, total_s) == 0 ? 0 : 1;
        else
            print_summary(r, total_s);
    }
    return rc;
}

/* The product and the seed take turns in one set of buffers (bed.c): the
 * field is destroyed and the seed's heights are allocated in its place,
 * and back.  glibc would keep such freed big buffers in its heap (it
 * raises its mmap threshold the first time one is freed), where the
 * library's small allocations in between leave holes that the next
 * buffer does not fit, so the heap grew by a buffer now and then: 0.9 MB
 * more resident at 640x480.  A fixed threshold gives every big buffer (a
 * height buffer is 125 KB at 320x200) its own mapping, returned to the
 * system when freed, so what is resident is what is alive.  Other C
 * libraries keep their own ways. */
static void big_buffers_mapped(void)
{
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 64 * 1024);
#endif
}

int main(int argc, char **argv)
{
    big_buffers_mapped();
    /* the rows make run_t large: the heap, not the stack */
    run_t *r = calloc(1, sizeof *r);
    if (!r) {
        fprintf(stderr, "ripple-bench: out of memory\n");
        return 1;
    }
    int rc = parse_args(argc, argv, &r->o);
    if (rc < 0)
        rc = r->o.look ? look_bench(&r->o)
           : r->o.side ? side_bench(&r->o)
           : r->o.side_scene ? side_instr_run(&r->o)
           : r->o.instr ? instr_run(&r->o) : bench(r);
    free(r);
    return rc;
}
