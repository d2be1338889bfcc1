/* app/main.c - the demo's start: options, the field and its picture, then the window loop or a headless run. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/app.h"
#include "app/audio.h"
#include "app/files.h"
#include "app/input.h"
#include "app/overlay.h"
#include "app/record.h"
#include "app/screenshot.h"
#include "app/sys.h"
#include "app/video.h"
#include "ripple_support.h"

static void run_window(app_t *a)
{
    uint64_t freq = SDL_GetPerformanceFrequency();
    uint64_t last = SDL_GetPerformanceCounter();
    double pending = 0; /* simulation time owed, in steps */
    for (;;) {
        SDL_Event e;
        while (SDL_PollEvent(&e))
            if (!app_handle_event(a, &e))
                return;
        uint64_t now = SDL_GetPerformanceCounter();
        double dt = (double)(now - last) / (double)freq;
        last = now;
        app_smooth(&a->timing.frame, dt * 1000.0);

        /* The water runs at STEP_HZ whatever the display's rate. */
        int steps = 0;
        if (a->paused) {
            pending = 0;
            steps = a->step_once;
            a->step_once = 0;
        } else {
            pending += dt * STEP_HZ;
            if (pending > MAX_CATCHUP)
                pending = MAX_CATCHUP;
            steps = (int)pending;
            pending -= steps;
            /* too slow for STEP_HZ: the water (and the show, whose time is
             * steps) slows down evenly rather than skip a step; the speed
             * it keeps, over about a second, is shown in the overlay */
            app_timing_t *t = &a->timing;
            t->speed_due += dt * STEP_HZ;
            t->speed_done += steps;
            if (t->speed_due >= STEP_HZ) {
                t->speed = t->speed_done / t->speed_due;
                t->speed_due = t->speed_done = 0;
            }
        }
        a->scene->frame(a, a->paused ? 0 : dt, steps);
        app_audio_frame(a);
        if (a->run_err)
            return;
        app_render_frame(a);
        a->frame++;
        if (a->o.frames > 0 && a->frame >= a->o.frames)
            return;
        if (!a->o.vsync && steps == 0 && a->paused)
            SDL_Delay(5); /* nothing moves: don't spin */
        app_video_pace(a, now); /* a window surface with --vsync */
    }
}

static void run_headless(app_t *a)
{
    uint64_t t0 = SDL_GetPerformanceCounter();
    for (long i = 0; i < a->o.frames && !a->run_err && !app_stop_signal(); i++) {
        a->scene->frame(a, 0, 1); /* 1/60 s a frame */
        uint64_t t1 = SDL_GetPerformanceCounter();
        app_refract(a);
        app_smooth(&a->timing.refract, app_ms_since(t1));
        a->frame++;
    }
    double s = app_ms_since(t0) / 1000.0;
    if (!app_stop_signal())
        a->scene->report(a, s);
}

/* Prints one line and gives the exit status; frees msg. */
static int die(int status, char *msg)
{
    app_print_error(msg ? msg : "out of memory");
    free(msg);
    return status;
}

/* The canonical path of the folder a name is in (a new allocation, NULL
 * when it cannot be resolved); *base is the name within it. */
static char *real_folder(const char *path, const char **base)
{
    const char *slash = app_sys_last_sep(path);
    *base = slash ? slash + 1 : path;
    char *dir = slash ? app_format("%.*s", (int)(slash - path) + 1, path) : app_format(".");
    char *real = dir ? app_sys_realpath(dir) : NULL;
    free(dir);
    return real;
}

/* What an output's name reaches: the file it names if there is one
 * (through links, as a device or a FIFO is written), else its folder's
 * canonical path and its own name in *canon (a new allocation).  An
 * answer: 1 if either is known, 0 if not (it is then compared with
 * nothing; the write itself will say what is wrong). */
static int output_identity(const char *path, app_file_id_t *id, char **canon)
{
    *canon = NULL;
    if (app_sys_file_id(path, id))
        return 1;
    const char *base;
    char *real = real_folder(path, &base);
    *canon = real ? app_format("%s/%s", real, base) : NULL;
    free(real);
    return *canon != NULL;
}

/* Whether path names one of --record's frames, DIR/frame-NNNNNN.EXT. */
static int is_record_frame(const app_t *a, const char *path)
{
    const char *base;
    char *real = real_folder(path, &base);
    size_t digits = strncmp(base, "frame-", 6) ? 0 : strspn(base + 6, "0123456789");
    int same = 0;
    if (real && digits >= 6 && base[6 + digits] == '.' &&
        !strcmp(base + 7 + digits, a->o.record_format)) {
        char *rec = app_sys_realpath(a->o.record);
        same = rec && !strcmp(real, rec);
        free(rec);
    }
    free(real);
    return same;
}

/* Two outputs that are one file would overwrite each other: refused
 * before any work (the null device aside), EXIT_USAGE with *err. */
static int same_outputs(const app_t *a, char **err)
{
    const char *flag[3] = { "--save-state", "--screenshot", "--audio-out" };
    const char *outs[3] = { a->o.save_state, a->o.screenshot, a->o.audio_out };
    app_file_id_t st[3];
    char *canon[3] = { NULL, NULL, NULL };
    int ok[3] = { 0, 0, 0 }, rc = 0;
    for (int i = 0; i < 3; i++)
        ok[i] = outs[i] && output_identity(outs[i], &st[i], &canon[i]);
    for (int i = 0; i < 3 && !rc; i++)
        for (int k = i + 1; k < 3 && !rc; k++) {
            if (!ok[i] || !ok[k] || !canon[i] != !canon[k])
                continue;
            int same = canon[i] ? !strcmp(canon[i], canon[k])
                                : st[i].dev == st[k].dev && st[i].ino == st[k].ino &&
                                      !st[i].null_device;
            if (same) {
                *err = !strcmp(outs[i], outs[k])
                           ? app_format("%s and %s name the same file '%s': one would overwrite "
                                        "the other", flag[i], flag[k], outs[i])
                           : app_format("%s '%s' and %s '%s' are the same file: one would "
                                        "overwrite the other", flag[i], outs[i], flag[k], outs[k]);
                rc = EXIT_USAGE;
            }
        }
    for (int i = 0; i < 3; i++)
        free(canon[i]);
    for (int i = 0; i < 3 && !rc; i++)
        if (outs[i] && a->o.record && is_record_frame(a, outs[i])) {
            *err = app_format("%s '%s' is one of the frames --record writes", flag[i], outs[i]);
            rc = EXIT_USAGE;
        }
    return rc;
}

/* Everything that can be wrong with the command line is found here,
 * before any work: exit 2 with one line (1 when memory ran out). */
static int check_inputs(app_t *a, rpl_snapshot_t **snap, const rpl_kernels_t **kern,
                        rpl_show_t **show)
{
    char *err = NULL;
    int status;
    if (a->o.load_state) {
        /* read once, whole: the snapshot decides the size unless --size does */
        rpl_status st = rpl_snapshot_read(a->o.load_state, snap);
        if (st != RPL_OK)
            return die(st == RPL_ENOMEM ? EXIT_FAILURE : EXIT_USAGE,
                       app_format("%s", *snap ? rpl_snapshot_error(*snap) : rpl_strerror(st)));
        int w, h;
        rpl_snapshot_size(*snap, &w, &h);
        if (a->o.size_set && (w != a->o.w || h != a->o.h))
            return die(EXIT_USAGE, app_format("%s: the snapshot is %dx%d, --size says %dx%d",
                                              a->o.load_state, w, h, a->o.w, a->o.h));
        a->o.w = w;
        a->o.h = h;
        if (!a->o.headless &&
            ((long)w * a->o.scale > APP_WINDOW_MAX || (long)h * a->o.scale > APP_WINDOW_MAX))
            return die(EXIT_USAGE, app_format("window too large: the snapshot's %dx%d times %d "
                                              "is over %d pixels a side", w, h, a->o.scale,
                                              APP_WINDOW_MAX));
    }
    const char *outs[3] = { a->o.save_state, a->o.screenshot, a->o.audio_out };
    for (int i = 0; i < 3; i++)
        if (outs[i] && (status = app_check_target(outs[i], &err)) != 0)
            return die(status, err);
    if ((status = same_outputs(a, &err)) != 0)
        return die(status, err);
    for (int i = 0; i < 3; i++)
        if (rpl_file_is_stdout(outs[i])) /* stdout carries data: the report goes to stderr */
            a->report_to_stderr = 1;
    if (a->o.record && (status = app_record_check(a, &err)) != 0)
        return die(status, err);
    if ((status = app_show_open(a, show, &err)) != 0)
        return die(status, err);
    if (a->o.benchmark && a->o.bench->show && !*show)
        return die(EXIT_USAGE, app_format("the %s-%d timedemo plays assets/shows/%s: not found",
                                          a->o.bench->name, a->o.bench->version,
                                          a->o.bench->show_file));
    if (a->o.audio_out && a->o.headless && (uint64_t)a->o.frames > app_audio_max_steps())
        return die(EXIT_USAGE, app_format("--audio-out: %ld frames of sound do not fit in a WAV "
                                          "file (at most %llu)", a->o.frames,
                                          (unsigned long long)app_audio_max_steps()));
    const char *pres = getenv("RIPPLE_PRESENT");
    if (!a->o.present && pres && *pres && strcmp(pres, "auto") && strcmp(pres, "surface") &&
        strcmp(pres, "texture"))
        return die(EXIT_USAGE, app_format("RIPPLE_PRESENT '%s': want auto, surface or texture",
                                          pres));
    /* The kernel path: --simd, else RIPPLE_SIMD, else the best for this CPU. */
    const char *want = a->o.simd ? a->o.simd : getenv("RIPPLE_SIMD");
    rpl_status st = rpl_kernels_find(a->o.simd, kern);
    if (st != RPL_OK) {
        char names[64];
        rpl_kernels_names(names, sizeof names);
        const char *what = a->o.simd ? "--simd" : "RIPPLE_SIMD";
        if (st == RPL_ENOTSUP)
            return die(EXIT_USAGE, app_format("%s '%s': this path is not available on this "
                                              "machine", what, want));
        return die(EXIT_USAGE, app_format("%s '%s': no such path (auto, %s)", what, want, names));
    }
    return 0;
}

/* The run's outputs, each tried though one before it failed; exit 1 if
 * one cannot be written after all. */
static int write_outputs(app_t *a)
{
    int status = 0, st;
    char *err = NULL;
    if (a->o.screenshot && (st = app_screenshot(a, a->o.screenshot, &err)) != 0)
        status = die(st, err);
    if ((st = app_audio_finish(a, &err)) != 0)
        status = die(st, err);
    if (a->o.save_state && rpl_sim_save(play_sim(a->play), a->o.save_state) != RPL_OK)
        status = die(EXIT_FAILURE, app_format("%s", rpl_sim_error(play_sim(a->play))));
    return status;
}

static int run(app_t *a, rpl_snapshot_t *snap, const rpl_kernels_t *kern, rpl_show_t **show)
{
    rpl_status st;
    char *err = NULL;
    int status = app_video_create(&a->video, &err);
    if (status != 0)
        return die(status, err);
    if (!a->o.headless) /* --present auto's probe forks: before any thread */
        app_present_choose(a);
    app_scene_init(a);
    if ((status = app_play_open(a, kern, &err)) != 0)
        return die(status, err);
    rpl_sim_t *sim = play_sim(a->play);
    if (rpl_sim_set_threads(sim, a->o.threads ? a->o.threads : rpl_cpu_count()) != RPL_OK)
        fprintf(stderr, "ripple: %s; going on with one\n", rpl_sim_error(sim));
    st = play_set_show(a->play, *show);
    *show = NULL; /* the pool's now */
    if (st != RPL_OK)
        return die(EXIT_FAILURE, app_format("%s", play_error(a->play)));
    if ((status = app_video_fb_open(a, &err)) != 0)
        return die(status, err);
    if ((status = app_overlay_create(a->o.w, a->o.h, a->o.overlay, &a->overlay, &err)) != 0)
        return die(status, err);
    char pathbuf[4096];
    const char *image = a->o.image ? a->o.image : app_default_image(pathbuf, sizeof pathbuf);
    if (!image)
        return die(EXIT_USAGE,
                   app_format("cannot find assets/background.png (give one with --image)"));
    if ((status = app_picture_load(a, image, &err)) != 0)
        return die(status, err);
    if ((status = app_show_check(a, image, &err)) != 0)
        return die(status, err);
    if (snap) {
        st = rpl_sim_set_snapshot(sim, snap);
        if (st != RPL_OK) /* a state that does not fit, or no memory for it */
            return die(st == RPL_ENOMEM ? EXIT_FAILURE : EXIT_USAGE,
                       app_format("%s: %s", a->o.load_state, rpl_sim_error(sim)));
    }
    /* --walls, --edges and --model over the snapshot's */
    if ((status = app_walls_start(a, &err)) != 0)
        return die(status, err);
    if ((status = app_model_start(a, &err)) != 0)
        return die(status, err);
    if ((status = app_scene_start(a, a->o.scene, &err)) != 0)
        return die(status, err);
    if (a->o.headless)
        app_catch_stop_signals(); /* from the first temporary file on */
    if ((status = app_audio_open(a, &err)) != 0)
        return die(status, err);

    if (a->o.headless) {
        if (a->o.benchmark)
            status = app_timedemo(a);
        else
            run_headless(a);
    } else {
        int bad = app_video_open(a, &err); /* 0, or the status to die with once closed */
        if (!bad)
            app_audio_device(a);
        if (!bad && a->o.benchmark)
            status = app_timedemo(a);
        else if (!bad)
            run_window(a);
        app_audio_close(a);
        app_video_close(a);
        if (bad)
            return die(bad, err);
    }
    if (app_stop_signal())
        return 128 + app_stop_signal(); /* no outputs; the temporary files go in main */
    if (a->run_err) /* what ended the run: a failure of it */
        return die(EXIT_FAILURE, a->run_err);
    int out = write_outputs(a);
    return status ? status : out;
}

/* What went to stdout (a report, --help) reached it, or one line says why. */
static int flush_stdout(int status)
{
    errno = 0;
    int bad = fflush(stdout) != 0;
    int e = errno;
    bad |= ferror(stdout) != 0;
    if (!bad)
        return status;
    fprintf(stderr, "ripple: cannot write to standard output: %s\n",
            e ? strerror(e) : "write error");
    return status ? status : 1;
}

int main(int argc, char **argv)
{
    app_t a;
    char *err = NULL;
    int status = app_sys_std_fds();
    if (status != 0)
        return status;
    memset(&a, 0, sizeof a);
    if ((status = app_parse_args(argc, argv, &a.o, &err)) != 0)
        return die(status, err);
    if (a.o.help) {
        app_print_usage(stdout);
        return flush_stdout(0);
    }
    if (a.o.version) {
        printf("ripple %s\n", RPL_VERSION);
        return flush_stdout(0);
    }
    if (a.o.list) {
        if ((status = app_print_bench_scenes(stdout, a.o.json, &err)) != 0)
            return die(status, err);
        return flush_stdout(0);
    }
    if (a.o.benchmark)
        a.o.seed = TIMEDEMO_SEED;
    rpl_snapshot_t *snap = NULL;
    const rpl_kernels_t *kern = NULL;
    rpl_show_t *show = NULL;
    status = check_inputs(&a, &snap, &kern, &show);
    if (status == 0)
        status = run(&a, snap, kern, &show);
    rpl_show_destroy(show);
    rpl_snapshot_destroy(snap);
    app_audio_free(&a);
    app_show_free(&a);
    app_scene_destroy(&a);
    app_video_destroy(a.video);
    app_overlay_destroy(a.overlay);
    play_destroy(a.play);
    if (app_stop_signal())
        return app_sys_die_of_signal(app_stop_signal());
    return flush_stdout(status);
}
