/* app/args.h - the demo's command-line options. */
#ifndef APP_ARGS_H
#define APP_ARGS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "play/play.h"
#include "ripple.h"

#define APP_SCALE_MAX 8
#define APP_WINDOW_MAX 16384 /* largest window side, size x scale */
#define TIMEDEMO_FRAMES_DEFAULT 2000 /* a round of every scene */
#define TIMEDEMO_SECONDS_DEFAULT 10.0 /* a default run plays rounds for at least this long */
#define TIMEDEMO_ROUNDS_MAX 1000000L

typedef struct app_opts {
    int w, h;          /* field size */
    int size_set;      /* 1 if --size was given */
    int scale;         /* pixel multiple of the window */
    const char *image; /* background picture, NULL for the default */
    uint64_t seed;
    long frames;       /* quit after this many frames, -1 for never */
    int headless;
    int rain, autopilot;
    const char *load_state, *save_state, *screenshot;
    int vsync;
    int overlay;       /* show the overlay from the start */
    const char *simd;  /* kernel path, NULL for auto */
    int threads;       /* 0 for one per processor */
    rpl_format fmt;    /* --bpp: the framebuffer's pixels, 32 (RPL_XRGB8888,
                        * default), 16 (RPL_RGB565) or 8 (RPL_INDEX8) */
    int help, version;
    int benchmark;     /* --benchmark: the timedemo */
    const play_bench_scene_t *bench; /* the scene it plays (set once the flags are read) */
    const char *bench_scene; /* --bench-scene: its name as given; NULL: from the flags */
    int list;          /* --list: print the timedemo's scenes */
    const char *present; /* --present: "auto", "surface" or "texture"; NULL for auto */
    int json;          /* --json: its report as JSON */
    long rounds;       /* --rounds: the timedemo's rounds; 0: as many as --seconds takes
                        * (--frames N: one round of N frames) */
    double seconds;    /* --seconds: the least wall time of a run of rounds */
    int seconds_set, frames_set;
    int share;         /* --share: the report as one line to paste elsewhere */
    int no_results;    /* --no-results: a window's run ends without the results screen */
    int mute;          /* --mute: start with the sound off */
    int music_off;     /* --music off: the drips without the music */
    const char *audio_out; /* --audio-out: the sound into this WAV file */
    const char *record;    /* --record: a picture per step into this directory */
    const char *record_format; /* --record-format: "png" (default) or "bmp" */
    const char *show;  /* --show: the show file to play; NULL for the default show */
    int no_show;       /* --no-show: the autopilot's scenes instead of a show */
    const char *walls; /* --walls: the picture whose dark parts are walls; NULL for none */
    const char *edges; /* --edges: "reflect" or "absorb"; NULL: as the state has them */
    int seed_set, rain_set, autopilot_set; /* given on the command line */
    int stones;        /* --stones: PLAY_STONES_SMOOTH (default) or PLAY_STONES_CLASSIC */
    int stones_set;    /* --stones was given */
    int person;        /* --person: the scripted person plays (play_person_tick) */
    rpl_model model;   /* --model: the water's rule (RPL_MODEL_CLASSIC by default) */
    int model_set;     /* --model was given */
    rpl_wave_params_t wave; /* --speed, --viscosity, --spacing, --dt, --attenuation */
    int wave_set;      /* one of them was given */
    int scene;         /* --scene: APP_SCENE_POOL (default) or APP_SCENE_SIDE */
    int scene_set;
    rpl_surface_kind surface; /* --surface: the side scene's springs or waves */
    int surface_set;   /* --surface was given */
    rpl_water_params_t springs; /* --stiffness, --damping, --spread, --passes, --ends */
    int springs_set;   /* one of them was given */
} app_opts_t;

/* The scenes: the top-down pool, the side view of a 2D game's water (the
 * timedemo's table, play/play.h, says which each of its scenes is). */
enum { APP_SCENE_POOL = PLAY_BENCH_POOL, APP_SCENE_SIDE = PLAY_BENCH_SIDE };

/* --benchmark --list: one line a scene, its name, version and what it is;
 * with json, a JSON array of them.  0, or EXIT_FAILURE with *err NULL
 * when memory ran out (app.h says the form). */
int app_print_bench_scenes(FILE *to, int json, char **err);

/* Parses argv into *o, the flags judged alone and together.  0 (--help,
 * --version and --list among them: *o says so), or EXIT_USAGE with *err
 * for what is wrong with the command line (EXIT_FAILURE when memory ran
 * out checking it). */
int app_parse_args(int argc, char **argv, app_opts_t *o, char **err);

/* Prints the --help text, made from the table of flags that the parser
 * reads. */
void app_print_usage(FILE *to);

#endif
