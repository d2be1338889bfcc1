/* app/args.c - parsing and checking the demo's command-line options. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "app/app.h"
#include "play/play.h"
#include "ripple.h"
#include "ripple_support.h"
#include "scene/scene.h"

/* The message in a new allocation, whatever the length of the value in
 * it; every failure of the command line is the user's, EXIT_USAGE. */
static int fail(char **err, const char *fmt, const char *a, const char *b)
{
    int n = snprintf(NULL, 0, fmt, a, b);
    *err = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (*err)
        snprintf(*err, (size_t)n + 1, fmt, a, b);
    return EXIT_USAGE;
}

/* Every integer flag goes through the core's one strict parser: 1 if s
 * is a whole number in lo..hi (then in *out), 0 if not (an answer: the
 * flag's handler says what is wrong). */
static int read_long(const char *s, long lo, long hi, long *out)
{
    long long v;
    if (rpl_parse_int(s, lo, hi, &v) != RPL_OK)
        return 0;
    *out = (long)v;
    return 1;
}

static int has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path), e = strlen(ext);
    if (n <= e)
        return 0;
    for (size_t i = 0; i < e; i++) {
        char c = path[n - e + i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != ext[i])
            return 0;
    }
    return 1;
}

/* --- the flags ---------------------------------------------------------
 * Each flag's one handler: it checks and stores val (NULL for a switch)
 * and returns 0, or EXIT_USAGE with *err (app.h).  name is the flag as
 * given. */
typedef int take_fn(app_opts_t *o, const char *name, const char *val, char **err);

static int take_headless(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name, (void)val, (void)err;
    o->headless = 1;
    return 0;
}

static int take_no_rain(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name, (void)val, (void)err;
    o->rain = 0;
    o->rain_set = 1;
    return 0;
}

static int take_no_autopilot(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name, (void)val, (void)err;
    o->autopilot = 0;
    o->autopilot_set = 1;
    return 0;
}

static int take_no_show(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name, (void)val, (void)err;
    o->no_show = 1;
    return 0;
}

static int take_person(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name, (void)val, (void)err;
    o->person = 1;
    return 0;
}

static int take_benchmark(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name, (void)val, (void)err;
    o->benchmark = 1;
    return 0;
}

static int take_list(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name, (void)val, (void)err;
    o->list = 1;
    return 0;
}

/* --- the timedemo's scenes ----------------------------------------------- */

int app_print_bench_scenes(FILE *to, int json, char **err)
{
    *err = NULL;
    const play_bench_scene_t *b;
    if (!json) {
        for (size_t i = 0; (b = play_bench_scene_at(i)) != NULL; i++)
            fprintf(to, "%-11s %d  %s\n", b->name, b->version, b->what);
        return 0;
    }
    /* with --json: an array of the scenes, as the reports name them */
    cJSON *list = cJSON_CreateArray();
    for (size_t i = 0; list && (b = play_bench_scene_at(i)) != NULL; i++) {
        cJSON *one = cJSON_CreateObject();
        char full[64];
        snprintf(full, sizeof full, "%s-%d", b->name, b->version);
        if (!one || !cJSON_AddItemToArray(list, one) ||
            !cJSON_AddStringToObject(one, "scene", full) ||
            !cJSON_AddStringToObject(one, "scene_name", b->name) ||
            !cJSON_AddNumberToObject(one, "scene_version", b->version) ||
            !cJSON_AddStringToObject(one, "scene_about", b->what)) {
            cJSON_Delete(list);
            list = NULL;
        }
    }
    char *text = list ? cJSON_PrintUnformatted(list) : NULL;
    cJSON_Delete(list);
    if (!text)
        return EXIT_FAILURE; /* *err NULL: memory ran out */
    fprintf(to, "%s\n", text);
    cJSON_free(text);
    return 0;
}

static int take_bench_scene(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name;
    const char *why = play_bench_scene_retired(val);
    if (why)
        return fail(err, "bad --bench-scene '%s': %s", val, why);
    if (!play_bench_scene_find(val)) {
        /* each name once, as the table first has it (its versions follow) */
        char names[128] = "";
        size_t count = 0, last = 0;
        const play_bench_scene_t *b;
        for (size_t i = 0; (b = play_bench_scene_at(i)) != NULL; i++)
            if (play_bench_scene_find(b->name) == b)
                count++, last = i;
        for (size_t i = 0, k = 0; (b = play_bench_scene_at(i)) != NULL; i++)
            if (play_bench_scene_find(b->name) == b)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                         k++ == 0 ? "" : i == last && count > 1 ? " or " : ", ", b->name);
        return fail(err, "bad --bench-scene '%s': want %s (--benchmark --list)", val, names);
    }
    o->bench_scene = val;
    return 0;
}

static int take_json(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name, (void)val, (void)err;
    o->json = 1;
    return 0;
}

static int take_no_overlay(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name, (void)val, (void)err;
    o->overlay = 0;
    return 0;
}

static int take_mute(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name, (void)val, (void)err;
    o->mute = 1;
    return 0;
}

static int take_music(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name;
    if (strcmp(val, "on") != 0 && strcmp(val, "off") != 0)
        return fail(err, "bad --music '%s': want on or off", val, "");
    o->music_off = !strcmp(val, "off");
    return 0;
}

static int take_vsync(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)val, (void)err;
    o->vsync = !strcmp(name, "--vsync");
    return 0;
}

static int take_version(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name, (void)val, (void)err;
    o->version = 1;
    return 0;
}

static int take_help(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name, (void)val, (void)err;
    o->help = 1;
    return 0;
}

static int take_size(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name;
    if (rpl_parse_size(val, RPL_DIM_MIN, RPL_DIM_MAX, &o->w, &o->h) != RPL_OK)
        return fail(err, "bad --size '%s': want WxH, each side 3..8192", val, "");
    o->size_set = 1;
    return 0;
}

static int take_scale(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name;
    long v;
    if (!read_long(val, 1, APP_SCALE_MAX, &v))
        return fail(err, "bad --scale '%s': want a whole number 1..8", val, "");
    o->scale = (int)v;
    return 0;
}

static int take_seed(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name;
    if (rpl_parse_u64(val, &o->seed) != RPL_OK)
        return fail(err, "bad --seed '%s': want a whole number 0..18446744073709551615", val, "");
    o->seed_set = 1;
    return 0;
}

static int take_frames(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name;
    long v;
    if (!read_long(val, 1, 1000000000L, &v))
        return fail(err, "bad --frames '%s': want a whole number 1..1000000000", val, "");
    o->frames = v;
    o->frames_set = 1;
    return 0;
}

static int take_rounds(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name;
    long v;
    if (!read_long(val, 1, TIMEDEMO_ROUNDS_MAX, &v))
        return fail(err, "bad --rounds '%s': want a whole number 1..1000000", val, "");
    o->rounds = v;
    return 0;
}

static int take_seconds(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name;
    double d;
    if (rpl_parse_real(val, 0.001, 86400, &d) != RPL_OK)
        return fail(err, "bad --seconds '%s': want a number of seconds over 0, at most 86400",
                    val, "");
    o->seconds = d;
    o->seconds_set = 1;
    return 0;
}

static int take_share(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name, (void)val, (void)err;
    o->share = 1;
    return 0;
}

static int take_no_results(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name, (void)val, (void)err;
    o->no_results = 1;
    return 0;
}

static int take_threads(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name;
    long v;
    if (!read_long(val, 1, 64, &v))
        return fail(err, "bad --threads '%s': want a whole number 1..64", val, "");
    o->threads = (int)v;
    return 0;
}

static int take_bpp(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name;
    if (strcmp(val, "8") && strcmp(val, "16") && strcmp(val, "32"))
        return fail(err, "bad --bpp '%s': want 8, 16 or 32", val, "");
    o->fmt = !strcmp(val, "8") ? RPL_INDEX8 : !strcmp(val, "16") ? RPL_RGB565 : RPL_XRGB8888;
    return 0;
}

static int take_present(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name;
    if (strcmp(val, "auto") && strcmp(val, "surface") && strcmp(val, "texture"))
        return fail(err, "bad --present '%s': want auto, surface or texture", val, "");
    o->present = val;
    return 0;
}

static int take_simd(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name;
    int known = strcmp(val, "auto") == 0;
    for (int i = 0; !known && rpl_kernels_known(i); i++)
        known = strcmp(val, rpl_kernels_known(i)) == 0;
    if (!known) {
        char names[64];
        rpl_kernels_names(names, sizeof names);
        return fail(err, "bad --simd '%s': want auto, %s", val, names);
    }
    o->simd = strcmp(val, "auto") ? val : NULL;
    return 0;
}

static int take_edges(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name;
    if (strcmp(val, "reflect") && strcmp(val, "absorb"))
        return fail(err, "bad --edges '%s': want reflect or absorb", val, "");
    o->edges = val;
    return 0;
}

static int take_model(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name;
    if (strcmp(val, "classic") && strcmp(val, "wave"))
        return fail(err, "bad --model '%s': want classic or wave", val, "");
    o->model = strcmp(val, "wave") ? RPL_MODEL_CLASSIC : RPL_MODEL_WAVE;
    o->model_set = 1;
    return 0;
}

/* Any finite number: the wave settings and the springs' are judged
 * together once every flag is read. */
static int take_real(const char *name, const char *val, double *to, char **err)
{
    double d;
    if (rpl_parse_real(val, -1e300, 1e300, &d) != RPL_OK)
        return fail(err, "bad %s '%s': want a finite decimal number", name, val);
    *to = d;
    return 0;
}

static int take_wave(app_opts_t *o, const char *name, const char *val, char **err)
{
    double *to = !strcmp(name, "--speed")       ? &o->wave.speed
                 : !strcmp(name, "--viscosity") ? &o->wave.viscosity
                 : !strcmp(name, "--spacing")   ? &o->wave.spacing
                 : !strcmp(name, "--dt")        ? &o->wave.dt
                                                : &o->wave.attenuation;
    int status = take_real(name, val, to, err);
    if (status != 0)
        return status;
    o->wave_set = 1;
    return 0;
}

static int take_scene(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name;
    if (strcmp(val, "pool") && strcmp(val, "side"))
        return fail(err, "bad --scene '%s': want pool or side", val, "");
    o->scene = strcmp(val, "side") ? APP_SCENE_POOL : APP_SCENE_SIDE;
    o->scene_set = 1;
    return 0;
}

static int take_surface(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name;
    if (strcmp(val, "springs") && strcmp(val, "waves"))
        return fail(err, "bad --surface '%s': want springs or waves", val, "");
    o->surface = strcmp(val, "waves") ? RPL_SURFACE_SPRINGS : RPL_SURFACE_WAVES;
    o->surface_set = 1;
    return 0;
}

static int take_stones(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name;
    if (strcmp(val, "smooth") && strcmp(val, "classic"))
        return fail(err, "bad --stones '%s': want smooth or classic", val, "");
    o->stones = strcmp(val, "classic") ? PLAY_STONES_SMOOTH : PLAY_STONES_CLASSIC;
    o->stones_set = 1;
    return 0;
}

static int take_springs(app_opts_t *o, const char *name, const char *val, char **err)
{
    double *to = !strcmp(name, "--stiffness") ? &o->springs.stiffness
                 : !strcmp(name, "--damping") ? &o->springs.damping
                                              : &o->springs.spread;
    int status = take_real(name, val, to, err);
    if (status != 0)
        return status;
    o->springs_set = 1;
    return 0;
}

static int take_passes(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name;
    long v;
    if (!read_long(val, 1, RPL_PASSES_MAX, &v))
        return fail(err, "bad --passes '%s': want a whole number 1..32", val, "");
    o->springs.passes = (int)v;
    o->springs_set = 1;
    return 0;
}

static int take_ends(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name;
    if (strcmp(val, "reflect") && strcmp(val, "free") && strcmp(val, "absorb"))
        return fail(err, "bad --ends '%s': want reflect, free or absorb", val, "");
    o->springs.ends = !strcmp(val, "free")     ? RPL_ENDS_FREE
                      : !strcmp(val, "absorb") ? RPL_ENDS_ABSORB
                                               : RPL_ENDS_REFLECT;
    o->springs_set = 1;
    return 0;
}

static int take_record_format(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name;
    if (strcmp(val, "png") && strcmp(val, "bmp"))
        return fail(err, "bad --record-format '%s': want png or bmp", val, "");
    o->record_format = val;
    return 0;
}

/* The flags that name a file (never empty: the table says so). */
static int take_file(app_opts_t *o, const char *name, const char *val, char **err)
{
    const char **to = !strcmp(name, "--image")        ? &o->image
                      : !strcmp(name, "--walls")      ? &o->walls
                      : !strcmp(name, "--load-state") ? &o->load_state
                      : !strcmp(name, "--save-state") ? &o->save_state
                      : !strcmp(name, "--audio-out")  ? &o->audio_out
                      : !strcmp(name, "--record")     ? &o->record
                                                      : &o->show;
    (void)err;
    *to = val;
    return 0;
}

static int take_screenshot(app_opts_t *o, const char *name, const char *val, char **err)
{
    (void)name;
    if (!has_ext(val, ".png") && !has_ext(val, ".bmp"))
        return fail(err, "bad --screenshot '%s': the name must end in .png or .bmp", val, "");
    o->screenshot = val;
    return 0;
}

/* Every flag, in the order --help lists them: the parser knows no other
 * (but -h for --help), and --help is made from this table alone.  arg is
 * the value's name (NULL for a switch); a FLAG_FILE value may not be
 * empty; help's further lines are indented under its first. */
enum { FLAG_FILE = 1 };
typedef struct flag {
    const char *name, *arg;
    int kind;
    take_fn *take;
    const char *help;
} flag_t;

static const flag_t flags[] = {
    { "--size", "WxH", 0, take_size,
      "field size in pixels (default 640x480, each side 3..8192)" },
    { "--scale", "N", 0, take_scale, "show each pixel N times larger, 1..8 (default 1)" },
    { "--image", "PATH", FLAG_FILE, take_file,
      "background picture: BMP, PNG or JPEG, up to 100 megapixels" },
    { "--walls", "PATH", FLAG_FILE, take_file,
      "walls from a picture fitted like the background: its dark\n"
      "parts (under half brightness) are solid; waves reflect\n"
      "off them and pass through the gaps" },
    { "--edges", "MODE", 0, take_edges,
      "edges of the water: reflect (default) or absorb (waves\n"
      "run out of the picture instead of bouncing back)" },
    { "--model", "M", 0, take_model,
      "the water's rule: classic (default) or wave (the damped\n"
      "wave equation, with the five settings below; W switches)" },
    { "--speed", "C", 0, take_wave,
      "wave speed (default 24; with spacing 1 and dt 1/60, 0.4\n"
      "cells a step); c*dt/spacing must stay under 0.7071" },
    { "--viscosity", "U", 0, take_wave, "damping of the motion (default 1.2, u*dt = 0.02)" },
    { "--spacing", "D", 0, take_wave, "grid spacing (default 1)" },
    { "--dt", "T", 0, take_wave,
      "time step (default 1/60; the water steps 60 times a second\n"
      "whatever T is: only c*dt/spacing and u*dt shape it)" },
    { "--attenuation", "A", 0, take_wave, "what each step keeps, 0 < A <= 1 (default 0.985)" },
    { "--scene", "S", 0, take_scene,
      "pool (default: the top-down water) or side (a 2D game's\n"
      "water seen from the side, crates and balls floating in\n"
      "it; a field of at least 160x120); Tab switches" },
    { "--surface", "M", 0, take_surface,
      "the side scene's surface: springs (default) or waves\n"
      "(analytic decaying rings)" },
    { "--stiffness", "K", 0, take_springs, "the springs' pull to rest per step (default 0.02)" },
    { "--damping", "D", 0, take_springs, "the springs' damping per step (default 0.04)" },
    { "--spread", "S", 0, take_springs,
      "what each pass hands to the neighbours (default 0.05;\n"
      "below about 0.5, 1/3 with one pass)" },
    { "--passes", "N", 0, take_passes, "spread passes per step, 1..32 (default 8)" },
    { "--ends", "E", 0, take_ends, "the surface's ends: reflect (default), free or absorb" },
    { "--seed", "N", 0, take_seed, "seed of the rain, the autopilot and the show (default 1)" },
    { "--frames", "N", 0, take_frames, "quit after N frames" },
    { "--headless", NULL, 0, take_headless,
      "no window: simulate and render the frames, one step each\n"
      "(default 100 frames)" },
    { "--no-rain", NULL, 0, take_no_rain, "start with the rain off" },
    { "--no-autopilot", NULL, 0, take_no_autopilot,
      "start with the scripted drops (show or autopilot) off" },
    { "--show", "FILE", FLAG_FILE, take_file,
      "play this show (see docs/shows.md) instead of the default" },
    { "--no-show", NULL, 0, take_no_show, "the autopilot's random scenes instead of a show" },
    { "--stones", "KIND", 0, take_stones,
      "how clicks, drags, the autopilot and the rain meet the\n"
      "water: smooth (default: wide bumps, refraction 4/16) or\n"
      "classic (the 1990s' flat discs, refraction 16/16); D switches" },
    { "--person", NULL, 0, take_person,
      "a scripted person plays: clicks, right clicks and drags at\n"
      "fixed steps, as ripple-bench --look --person measures them" },
    { "--load-state", "FILE", FLAG_FILE, take_file,
      "start from a saved state (its size unless --size is given)" },
    { "--save-state", "FILE", FLAG_FILE, take_file, "save the state after the last frame" },
    { "--screenshot", "FILE", FLAG_FILE, take_screenshot, "save the last frame (.png or .bmp)" },
    { "--simd", "PATH", 0, take_simd, "kernels: auto (default), c, mmx, sse2, avx2, neon; or RIPPLE_SIMD" },
    { "--threads", "N", 0, take_threads,
      "threads for the water, 1..64 (default: one per processor)" },
    { "--bpp", "N", 0, take_bpp,
      "framebuffer depth: 32 (XRGB8888, default), 16 (RGB565) or\n"
      "8 (256 colours, a palette built from the picture)" },
    { "--benchmark", NULL, 0, take_benchmark,
      "the timedemo: a fixed scene, 1/60 s of it per frame, vsync\n"
      "off, played in rounds of 2000 frames for at least 10 s,\n"
      "every round's CRC the same; then a report: the median\n"
      "round's fps and the spread, the 1% low, CPU times, the CRC\n"
      "of the final state (in a window, or with --headless; a\n"
      "window ends on a results screen); busy-2 unless\n"
      "--bench-scene, --model wave or --scene side [--surface\n"
      "waves] name another; --frames N: one round of N frames" },
    { "--bench-scene", "NAME", 0, take_bench_scene,
      "the timedemo's scene: busy, wave, show, side or side-waves\n"
      "(the newest version), or NAME-VERSION (busy-1, wave-1)" },
    { "--seconds", "S", 0, take_seconds,
      "with --benchmark: play rounds for at least S seconds\n"
      "(default 10; three rounds at least)" },
    { "--rounds", "N", 0, take_rounds, "with --benchmark: play exactly N rounds, 1..1000000" },
    { "--share", NULL, 0, take_share,
      "with --benchmark: the report as one line to paste\n"
      "elsewhere (docs/benchmark.md)" },
    { "--no-results", NULL, 0, take_no_results,
      "with --benchmark: a window closes at the end, no results\n"
      "screen (a --frames run has none either)" },
    { "--list", NULL, 0, take_list, "with --benchmark: list its scenes and quit (--json: as JSON)" },
    { "--json", NULL, 0, take_json, "the --benchmark report as JSON" },
    { "--present", "MODE", 0, take_present,
      "how frames reach the screen: auto (default), surface (the\n"
      "window's own pixels, no GPU) or texture (SDL's renderer);\n"
      "or RIPPLE_PRESENT" },
    { "--no-overlay", NULL, 0, take_no_overlay,
      "start with the overlay (figures, hints) hidden; O shows it" },
    { "--mute", NULL, 0, take_mute, "start with the speakers off (M turns them on)" },
    { "--music", "on|off", 0, take_music,
      "the music (assets/music/default.score) with the drips\n"
      "(default on); off: the drips alone (U turns it on)" },
    { "--audio-out", "FILE", FLAG_FILE, take_file,
      "the sound into a WAV file (16-bit stereo, 48 kHz, 1/60 s\n"
      "a step) instead of the speakers; works with --headless" },
    { "--record", "DIR", FLAG_FILE, take_file,
      "save every step as a picture, DIR/frame-000001.png, ...\n"
      "(DIR must exist), to make a 60 fps video" },
    { "--record-format", "F", 0, take_record_format, "png (default) or bmp" },
    { "--vsync", NULL, 0, take_vsync, "wait for the display's refresh (default)" },
    { "--no-vsync", NULL, 0, take_vsync, "render as fast as possible" },
    { "--version", NULL, 0, take_version, "print the version" },
    { "--help", NULL, 0, take_help, "print this help" },
};

void app_print_usage(FILE *to)
{
    fputs("usage: ripple [options]\n"
          "Retro water ripples refracting a picture; plays by itself, answers the mouse.\n"
          "\n",
          to);
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
        const flag_t *f = &flags[i];
        char left[32];
        snprintf(left, sizeof left, "%s%s%s", f->name, f->arg ? " " : "", f->arg ? f->arg : "");
        fprintf(to, "  %-18s ", left);
        for (const char *p = f->help; *p; p++) {
            fputc(*p, to);
            if (*p == '\n')
                fprintf(to, "%21s", "");
        }
        fputc('\n', to);
    }
    fputs("\n"
          "Keys: F1/H help, Space pause, N step, C reset, R rain, A show, L light,\n"
          "+/- refraction, [/] or wheel stone size, F fullscreen, S screenshot, M sound,\n"
          "U music, W classic/wave, Z/X wave speed, V/B viscosity, D smooth/classic stones,\n"
          "Tab scene, O overlay, Esc quit.\n"
          "Side scene: click drops a body, K crate/ball/iron ball, W springs/waves,\n"
          "C clears, A autoplay.\n",
          to);
}

static const flag_t *find_flag(const char *name)
{
    if (!strcmp(name, "-h"))
        name = "--help";
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (!strcmp(name, flags[i].name))
            return &flags[i];
    return NULL;
}

static void set_defaults(app_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->w = 640;
    o->h = 480;
    o->scale = 1;
    o->seed = 1;
    o->frames = -1;
    o->rain = 1;
    o->autopilot = 1;
    o->vsync = 1;
    o->fmt = RPL_XRGB8888;
    o->overlay = 1;
    o->model = RPL_MODEL_CLASSIC;
    o->wave = (rpl_wave_params_t)PLAY_WAVE_DEFAULTS;
    o->scene = APP_SCENE_POOL;
    o->surface = RPL_SURFACE_SPRINGS;
    rpl_water_defaults(&o->springs);
}

/* Takes argv[*i], and its value (after '=' or the next argument, which
 * *i then passes over). */
static int take_arg(int argc, char **argv, int *i, app_opts_t *o, char **err)
{
    const char *arg = argv[*i];
    char name[32];
    const char *val = NULL;
    const char *eq = strchr(arg, '=');
    if (strncmp(arg, "--", 2) == 0 && eq && (size_t)(eq - arg) < sizeof name) {
        memcpy(name, arg, (size_t)(eq - arg));
        name[eq - arg] = '\0';
        val = eq + 1;
    } else {
        snprintf(name, sizeof name, "%s", arg);
        if (strlen(arg) >= sizeof name)
            return fail(err, "unknown option '%s' (try --help)", arg, "");
    }
    const flag_t *f = find_flag(name);
    if (f && !f->arg) {
        if (val)
            return fail(err, "option '%s' takes no value", name, "");
        return f->take(o, name, NULL, err);
    }
    if (!f)
        return fail(err, "unknown option '%s' (try --help)", arg, "");
    if (!val) {
        if (*i + 1 >= argc)
            return fail(err, "option '%s' needs a value", name, "");
        val = argv[++*i];
    }
    if (f->kind == FLAG_FILE && !*val)
        return fail(err, "option '%s' needs a file name", name, "");
    return f->take(o, name, val, err);
}

/* The timedemo's scene: --bench-scene, or the one --model wave, --scene
 * side and --surface waves make; flags that say otherwise are refused. */
static int bench_scene(app_opts_t *o, char **err)
{
    if (!o->bench_scene) {
        if (o->surface_set && o->scene != APP_SCENE_SIDE)
            return fail(err, "--surface goes with --scene side in --benchmark%s%s", "", "");
        o->bench_scene = o->scene == APP_SCENE_SIDE
                             ? (o->surface == RPL_SURFACE_WAVES ? "side-waves" : "side")
                         : o->model == RPL_MODEL_WAVE ? "wave" : "busy";
    }
    const play_bench_scene_t *b = play_bench_scene_find(o->bench_scene);
    const char *clash = o->scene_set && o->scene != b->scene ? "--scene"
                      : o->model_set && (b->scene != APP_SCENE_POOL || o->model != b->model)
                          ? "--model"
                      : o->surface_set && (b->scene != APP_SCENE_SIDE || o->surface != b->surface)
                          ? "--surface" : NULL;
    if (clash)
        return fail(err, "%s does not go with the %s timedemo: the scene sets it", clash,
                    b->name);
    o->bench = b;
    o->scene = b->scene;
    o->model = b->model;
    o->model_set = b->model != RPL_MODEL_CLASSIC;
    o->surface = b->surface;
    o->no_show = !b->show; /* the default show plays only in its scene */
    return 0;
}

/* --benchmark plays a fixed scene and measures frames: what would change
 * either is refused. */
static int check_benchmark(app_opts_t *o, char **err)
{
    if (o->benchmark) {
        /* the timedemo's scenes are fixed, so figures compare across machines */
        const char *clash = o->seed_set ? "--seed" : o->stones_set ? "--stones"
                          : o->person ? "--person"
                          : o->load_state ? "--load-state"
                          : o->rain_set ? "--no-rain" : o->autopilot_set ? "--no-autopilot"
                          : o->show ? "--show" : o->no_show ? "--no-show"
                          : o->walls ? "--walls" : o->edges ? "--edges"
                          : o->wave_set ? "a wave setting (--speed, --viscosity, ...)"
                          : o->springs_set ? "a spring setting (--stiffness, --passes, ...)"
                          : NULL;
        if (clash)
            return fail(err, "%s does not go with --benchmark: it plays a fixed scene%s", clash, "");
        const char *out = o->audio_out ? "--audio-out" : o->record ? "--record" : NULL;
        if (out)
            return fail(err, "%s does not go with --benchmark: it measures frames, not steps%s",
                        out, "");
        int status = bench_scene(o, err);
        if (status != 0)
            return status;
        /* --frames N is one round of N frames; else rounds of the
         * scene's fixed frames, N of them or for S seconds */
        const char *twice = o->frames_set && o->rounds ? "--frames and --rounds"
                          : o->frames_set && o->seconds_set ? "--frames and --seconds"
                          : o->rounds && o->seconds_set ? "--rounds and --seconds" : NULL;
        if (twice)
            return fail(err, "%s do not go together: each says how long the timedemo plays%s",
                        twice, "");
        if (o->share && o->json)
            return fail(err, "--share and --json do not go together: the JSON holds the line as "
                        "\"share\"%s%s", "", "");
        if (o->frames_set)
            o->rounds = 1;
        else
            o->frames = TIMEDEMO_FRAMES_DEFAULT;
        if (!o->seconds_set)
            o->seconds = TIMEDEMO_SECONDS_DEFAULT;
        o->vsync = 0;
    } else {
        const char *alone = o->json ? "--json" : o->bench_scene ? "--bench-scene"
                          : o->list ? "--list" : o->rounds ? "--rounds"
                          : o->seconds_set ? "--seconds" : o->share ? "--share"
                          : o->no_results ? "--no-results" : NULL;
        if (alone)
            return fail(err, "%s goes with --benchmark%s", alone, "");
    }
    return 0;
}

/* The side view has no pool: its state, walls and show are refused, and
 * its field has a least size. */
static int check_side(const app_opts_t *o, char **err)
{
    if (o->scene != APP_SCENE_SIDE)
        return 0;
    /* the pool's state, walls and show have no meaning in the side view */
    const char *clash = o->load_state ? "--load-state" : o->save_state ? "--save-state"
                      : o->walls ? "--walls" : o->show ? "--show" : o->record ? "--record"
                      : o->stones_set ? "--stones" : o->person ? "--person" : NULL;
    if (clash)
        return fail(err, "%s does not go with --scene side: it is the pool's%s", clash, "");
    if (o->w < SIDE_W_MIN || o->h < SIDE_H_MIN) {
        char a[64], b[32];
        snprintf(a, sizeof a, "%dx%d", SIDE_W_MIN, SIDE_H_MIN);
        snprintf(b, sizeof b, "%dx%d", o->w, o->h);
        return fail(err, "--scene side needs a field of at least %s (--size is %s)", a, b);
    }
    return 0;
}

/* The flags judged together once all are read, and the defaults that
 * hang on others. */
static int check_opts(app_opts_t *o, char **err)
{
    /* headless there is no window: the scale does not matter */
    if (!o->headless &&
        ((long)o->w * o->scale > APP_WINDOW_MAX || (long)o->h * o->scale > APP_WINDOW_MAX)) {
        char a[64];
        snprintf(a, sizeof a, "%dx%d times %d", o->w, o->h, o->scale);
        return fail(err, "window too large: %s is over %s pixels a side", a, "16384");
    }
    int status = check_benchmark(o, err);
    if (status != 0)
        return status;
    if (o->show && o->no_show)
        return fail(err, "--show and --no-show do not go together%s%s", "", "");
    /* the wave settings are checked together even for classic water: W
     * switches to them */
    rpl_wave_info_t wi;
    if (rpl_wave_info(&o->wave, &wi) != RPL_OK)
        return fail(err, "bad wave settings: %s%s", wi.why, "");
    /* the default show sets walls and edges of its own from its first
     * step: walls or edges asked for play with the autopilot instead
     * (a show asked for by name plays, and its commands change them) */
    if ((o->walls || o->edges) && !o->show)
        o->no_show = 1;
    /* the springs' settings too: Tab and W reach them from any start */
    rpl_water_t *springs;
    rpl_status wst = rpl_water_create(&o->springs, &springs);
    if (wst != RPL_OK) {
        status = fail(err, "bad spring settings: %s%s",
                      springs ? rpl_water_error(springs) : rpl_strerror(wst), "");
        rpl_water_destroy(springs);
        return wst == RPL_ENOMEM ? EXIT_FAILURE : status; /* the run's, not the flags' */
    }
    rpl_water_destroy(springs);
    status = check_side(o, err);
    if (status != 0)
        return status;
    if (o->record_format && !o->record)
        return fail(err, "--record-format goes with --record%s%s", "", "");
    if (!o->record_format)
        o->record_format = "png";
    if (o->headless && o->frames < 0)
        o->frames = 100;
    return 0;
}

int app_parse_args(int argc, char **argv, app_opts_t *o, char **err)
{
    set_defaults(o);
    for (int i = 1; i < argc; i++) {
        int status = take_arg(argc, argv, &i, o, err);
        if (status != 0)
            return status;
    }
    return check_opts(o, err);
}
