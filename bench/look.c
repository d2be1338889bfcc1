/* look.c - ripple-bench --look: plays a scene headless as the demo does (a show, the autopilot and rain, the scripted person, a timedemo scene) and prints, every N steps, how well the water reads (speckle share, mean offset and light over awake tiles) at the refraction strength in use. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "play/play.h"
#include "ripple_support.h"

#define LOOK_SHOW_FILE "default.show"
#ifndef RIPPLE_DATADIR
#define RIPPLE_DATADIR "/usr/local/share/ripple"
#endif

/* The default show, found as the demo finds its data (src/app/files.c)
 * from any working directory: beside the program or in the source tree
 * above it (bench/ripple-bench, build/i386/ripple-bench), then under the
 * working directory, then where `make install` puts it.  NULL when none
 * is there. */
static const char *look_default_show(const char *file, char *buf, size_t len)
{
    char exe[PATH_MAX];
    if (rpl_exe_path(exe, sizeof exe) == 0) {
        for (int up = 0; up < 3; up++) {
            char *slash = strrchr(exe, '/');
            if (!slash)
                break;
            *slash = '\0';
            snprintf(buf, len, "%s/assets/shows/%s", exe, file);
            if (rpl_path_readable(buf))
                return buf;
        }
    }
    snprintf(buf, len, "assets/shows/%s", file);
    if (rpl_path_readable(buf))
        return buf;
    snprintf(buf, len, "%s/shows/%s", RIPPLE_DATADIR, file);
    return rpl_path_readable(buf) ? buf : NULL;
}

/* The steps played by default: the whole show once (and at most a few
 * passes' worth), the timedemo's frames of its scene, a minute of the
 * autopilot, the scripted person's script once. */
static long look_steps(const opts_t *o, const rpl_show_t *show)
{
    if (o->frames > 0)
        return o->frames;
    if (o->look_scene == LOOK_BENCH)
        return LOOK_BENCH_FRAMES;
    if (o->look_scene == LOOK_PERSON)
        return PLAY_PERSON_STEPS;
    if (o->look_scene == LOOK_AUTOPILOT)
        return 60 * 60;
    uint64_t n = rpl_show_length(show);
    return n > 0 && n < 100 * 60 * 60 ? (long)n : 60 * 60;
}

/* The timedemo's pool scenes, as the demo plays them. */
static const struct look_bench_scene {
    const char *name;
    int wave, classic, show; /* the wave water, the classic discs, a show of the demo's */
    const char *show_file;   /* that show in assets/shows */
} bench_scenes[] = {
    { "busy-1", 0, 1, 0, NULL }, { "wave-1", 1, 1, 0, NULL }, { "busy-2", 0, 0, 0, NULL },
    { "wave-2", 1, 0, 0, NULL }, { "show-1", 0, 0, 1, "show-1.show" },
    { "show-2", 0, 0, 1, "default.show" },
};

const char *look_bench_scene_check(const char *name)
{
    for (size_t i = 0; i < sizeof bench_scenes / sizeof bench_scenes[0]; i++)
        if (!strcmp(name, bench_scenes[i].name))
            return NULL;
    return "busy-1, busy-2, wave-1, wave-2, show-1 or show-2";
}

static const struct look_bench_scene *bench_scene(const char *name)
{
    for (size_t i = 0; i < sizeof bench_scenes / sizeof bench_scenes[0]; i++)
        if (!strcmp(name, bench_scenes[i].name))
            return &bench_scenes[i];
    return NULL;
}

/* The samples so far, and the lines they print. */
typedef struct sampler {
    int w, h, every;
    double worst, least, sum_speckle, sum_offset;
    long worst_at, samples, awake;
} sampler_t;

static void sample_head(const sampler_t *sa)
{
    printf("# speckle: share of pixels whose offset (x or y) differs from its right or lower\n"
           "# neighbour's by more than %d px; offset: mean |offset| (px) over awake tiles;\n"
           "# light: the light's mean change there (0..%d a channel, whatever the strength);\n"
           "# strength: the refraction strength in use, in sixteenths\n", RPL_LOOK_SPECKLE_PX,
           RPL_SHADE_MAX);
    printf("%6s %7s %8s %8s %7s %6s %8s\n", "step", "time", "speckle", "offset", "awake", "light",
           "strength");
    (void)sa;
}

/* Measures the heights h after step i at strength s, if i is a sample. */
static int sample(sampler_t *sa, long i, const int16_t *h, int s)
{
    if (i % sa->every)
        return 0;
    rpl_look_t look;
    rpl_status st = rpl_look_measure(h, sa->w, sa->h, s, &look);
    if (st != RPL_OK) {
        fprintf(stderr, "ripple-bench: --look: %s\n", rpl_strerror(st));
        return 1;
    }
    printf("%6ld %6.2fs %7.2f%% %8.2f %6.0f%% %6.2f %5d/16\n", i, (double)i / 60,
           100 * look.speckle, look.offset, 100 * look.awake, look.light, s);
    if (sa->samples == 0 || look.speckle > sa->worst)
        sa->worst = look.speckle, sa->worst_at = i;
    if (look.awake > 0 && (sa->least < 0 || look.offset < sa->least))
        sa->least = look.offset;
    if (look.awake > 0)
        sa->sum_offset += look.offset, sa->awake++;
    sa->sum_speckle += look.speckle;
    sa->samples++;
    return 0;
}

static void sample_tail(const sampler_t *sa)
{
    printf("# worst speckle %.2f%% at step %ld, mean %.2f%%; least offset where awake %.2f px, "
           "mean %.2f px\n",
           100 * sa->worst, sa->worst_at, sa->samples ? 100 * sa->sum_speckle / (double)sa->samples : 0,
           sa->least < 0 ? 0 : sa->least, sa->awake ? sa->sum_offset / (double)sa->awake : 0);
}

/* Every step that is a multiple of `every` is measured: fewer steps would
 * measure none and report a worst step never seen.  A short show played
 * whole is measured at its end when --every was not chosen; otherwise
 * the user asked for something that cannot be.  0, or the exit status. */
static int look_every(const opts_t *o, long steps, const char *what, int *every)
{
    if (steps >= *every)
        return 0;
    if (o->every || o->frames > 0) {
        fprintf(stderr, "ripple-bench: --look: %ld steps (%s) are fewer than --every %d%s: "
                        "no step would be measured\n",
                steps, o->frames > 0 ? "--frames" : what, *every,
                o->every ? "" : " (the default)");
        return EXIT_USAGE;
    }
    *every = (int)steps;
    return 0;
}

/* The default show read (into *show), for the scenes that play it. */
static int read_show(const opts_t *o, const char *file, rpl_show_t **show, const char **path)
{
    static char found[PATH_MAX + 64];
    *path = o->show ? o->show : look_default_show(file, found, sizeof found);
    if (!*path) {
        fprintf(stderr, "ripple-bench: --look: no default show (assets/shows/%s beside the "
                        "program, here or in %s); give one with --show\n", file, RIPPLE_DATADIR);
        return EXIT_USAGE;
    }
    rpl_status st = rpl_show_read(*path, show);
    if (st != RPL_OK) {
        fprintf(stderr, "ripple-bench: %s\n", *show ? rpl_show_error(*show) : rpl_strerror(st));
        rpl_show_destroy(*show);
        *show = NULL;
        return st == RPL_ENOMEM ? 1 : EXIT_USAGE;
    }
    return 0;
}

/*
 * The pool as the demo plays it (play_t): its stones, rain and strength.
 * The autopilot and the rain as when the demo is left alone without a
 * show (play_step, idle); the scripted person (play_person_tick, then a
 * step of the busy pool, the rain on); a timedemo scene (play_bench_input
 * and play_bench_step, its stones and water set as the scene sets them).
 */
static int look_play(const opts_t *o, int w, int h, int every)
{
    const struct look_bench_scene *b = o->look_scene == LOOK_BENCH ? bench_scene(o->bench_scene)
                                                                   : NULL;
    int wave = b ? b->wave : o->wave;
    int classic = b ? b->classic : o->stones == PLAY_STONES_CLASSIC;
    rpl_show_t *show = NULL;
    const char *path = NULL;
    if (b && b->show) {
        int rc = read_show(o, b->show_file, &show, &path);
        if (rc)
            return rc;
    }
    long steps = look_steps(o, show);
    int rc = look_every(o, steps, "the scene's length", &every);
    if (rc) {
        rpl_show_destroy(show);
        return rc;
    }
    play_config_t cfg = { .w = w, .h = h, .seed = o->seed, .format = RPL_XRGB8888, .rain = 1,
                          .autopilot = 1 };
    play_t *p = NULL;
    rpl_status st = play_create(&cfg, &p);
    rc = 1;
    if (st != RPL_OK) {
        fprintf(stderr, "ripple-bench: %s\n", play_error(p));
        rpl_show_destroy(show);
        goto out;
    }
    if (show && play_set_show(p, show) != RPL_OK) /* taken over, even on failure */
        goto fail;
    if (o->threads > 0 && rpl_sim_set_threads(play_sim(p), o->threads) != RPL_OK) {
        fprintf(stderr, "ripple-bench: --look: %s\n", rpl_sim_error(play_sim(p)));
        goto out;
    }
    if (wave && play_set(p, PLAY_MODEL, 1) != 1)
        goto fail;
    play_set(p, PLAY_STONES, classic ? PLAY_STONES_CLASSIC : PLAY_STONES_SMOOTH);
    const char *what = b ? b->name
                     : o->look_scene == LOOK_PERSON ? "the scripted person and the rain"
                                                    : "the autopilot and the rain";
    printf("# ripple-bench --look: %s%s%s, %s stones, %dx%d, %s water, seed %llu, every %d steps\n",
           what, path ? " " : "", path ? path : "", classic ? "classic" : "smooth", w, h,
           wave ? "wave" : "classic", (unsigned long long)o->seed, every);
    sampler_t sa = { .w = w, .h = h, .every = every, .least = -1 };
    sample_head(&sa);
    for (long i = 1; i <= steps; i++) {
        if (b) {
            if (play_bench_input(p) != RPL_OK)
                goto fail;
            play_bench_step(p);
        } else if (o->look_scene == LOOK_PERSON) {
            if (play_person_tick(p, i - 1) != RPL_OK || play_step(p, 0) != RPL_OK)
                goto fail;
        } else if (play_step(p, 1) != RPL_OK) {
            goto fail;
        }
        if (sample(&sa, i, rpl_sim_heights(play_sim(p)), play_get(p, PLAY_STRENGTH)))
            goto out;
    }
    sample_tail(&sa);
    rc = 0;
    goto out;
fail:
    fprintf(stderr, "ripple-bench: --look: %s\n", play_error(p));
out:
    play_destroy(p);
    return rc;
}

int look_bench(const opts_t *o)
{
    int w = o->w > 0 ? o->w : 640, h = o->h > 0 ? o->h : 480;
    int every = o->every > 0 ? o->every : 60;
    if (o->look_scene != LOOK_SHOW)
        return look_play(o, w, h, every);
    rpl_show_t *show = NULL;
    const char *path = NULL;
    int rc = read_show(o, LOOK_SHOW_FILE, &show, &path);
    if (rc)
        return rc;
    long steps = look_steps(o, show);
    rc = look_every(o, steps, "the show's length", &every);
    if (rc) {
        rpl_show_destroy(show);
        return rc;
    }
    rpl_sim_t *sim = NULL;
    rpl_show_player_t *p = NULL;
    rc = 1;
    rpl_status st = rpl_sim_create(w, h, o->seed, &sim);
    if (st == RPL_OK)
        st = rpl_show_player_create(show, o->seed, &p);
    if (st != RPL_OK) {
        fprintf(stderr, "ripple-bench: %s\n", p ? rpl_show_player_error(p)
                                             : sim ? rpl_sim_error(sim) : rpl_strerror(st));
        goto out;
    }
    if (o->threads > 0 && rpl_sim_set_threads(sim, o->threads) != RPL_OK)
        goto fail;
    if (o->wave) {
        rpl_wave_params_t wp = BENCH_WAVE;
        if (rpl_sim_set_model(sim, RPL_MODEL_WAVE, &wp) != RPL_OK)
            goto fail;
    }
    int strength = RPL_STRENGTH_ONE;
    printf("# ripple-bench --look: %s, %dx%d, %s water, seed %llu, every %d steps\n", path, w,
           h, o->wave ? "wave" : "classic", (unsigned long long)o->seed, every);
    sampler_t sa = { .w = w, .h = h, .every = every, .least = -1 };
    sample_head(&sa);
    for (long i = 1; i <= steps; i++) {
        if (rpl_show_player_tick(p, sim) != RPL_OK)
            goto fail;
        if (rpl_show_player_changed(p) & RPL_SHOW_STRENGTH)
            strength = rpl_show_player_view(p)->strength;
        rpl_sim_step(sim);
        if (sample(&sa, i, rpl_sim_heights(sim), strength))
            goto out;
    }
    sample_tail(&sa);
    rc = 0;
    goto out;
fail:
    fprintf(stderr, "ripple-bench: --look: %s\n", rpl_sim_error(sim));
out:
    rpl_show_player_destroy(p);
    rpl_sim_destroy(sim);
    rpl_show_destroy(show);
    return rc;
}
