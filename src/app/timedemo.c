/* app/timedemo.c - --benchmark: a named scene played 1/60 s a displayed frame through the scene interface, in rounds that must end alike, measured honestly (wall and CPU time) and reported with a CRC of its final state, as text, JSON, one line to share and a window's results screen. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <zlib.h>

#include "app/app.h"
#include "app/overlay.h"
#include "app/sys.h"
#include "app/video.h"

/* Frame times, in nanoseconds of the monotonic clock, are kept in a
 * histogram whose bins grow with the time: exact below 2^HIST_BITS ns,
 * then 2^HIST_BITS bins an octave, so a bin is at most 1/1024 of the
 * time it holds (a 1% low within 0.05% of the true one) and any number
 * of frames costs the same 128 KB.  Octaves up to 2^HIST_TOP ns (18
 * minutes); the last bin holds anything slower. */
#define HIST_BITS 10
#define HIST_SUB (1 << HIST_BITS)
#define HIST_TOP 40
#define BINS ((HIST_TOP - HIST_BITS + 2) * HIST_SUB)

/* A time-bound run plays at least this many rounds, so its spread says
 * something and a restart that does not restart is caught. */
#define ROUNDS_MIN 3
/* A run whose middle rounds (the tenth slowest to the tenth fastest) lie
 * further apart than this (half their range over its middle, in percent)
 * is noisy: the report says so.  The middle, not the slowest and the
 * fastest: on a quiet machine one round in forty or so meets a hiccup
 * that makes the whole range pass 5% while the median holds within 1%
 * (docs/benchmark.md); other work for a part of the run moves many. */
#define NOISY_PERCENT 5.0

/* The show's sound: 1/60 s of it a frame, mixed into a buffer. */
#define SOUND_RATE 48000
#define SOUND_PER_FRAME (SOUND_RATE / STEP_HZ)

/* The stages of a frame, each timed on the wall clock and on the main
 * thread's CPU clock.  In a window the drawing and presenting are timed
 * apart on the wall clock only (video.c does both): their CPU time is
 * one figure. */
enum { ST_INPUT, ST_STEP, ST_SOUND, ST_DRAW, ST_PRESENT, STAGES };

typedef struct timedemo {
    app_t *a;
    const play_bench_scene_t *b;
    const app_scene_ops *scene;  /* the scene played, the one shown */
    rpl_sound_t *snd;            /* the show's sound (NULL in other scenes) */
    int16_t buf[2 * SOUND_PER_FRAME];
    unsigned char bytes[4 * SOUND_PER_FRAME];
    uLong sound_crc;
    double ms[STAGES];           /* wall milliseconds, summed over frames */
    int64_t cpu_ns[STAGES];      /* the main thread's CPU; ST_DRAW holds the present's too */
    double seconds;              /* wall time of the rounds (not of the restarts between) */
    int64_t cpu_last;            /* the main thread's CPU clock at the last frame's end */
    int64_t main_ns, process_ns; /* CPU time of the rounds: the main thread, the process */
    double user_s, sys_s;        /* the process's, split into user and system */
    long frames;                 /* frames played, all rounds */
    long per_round;              /* frames a round */
    long rounds;                 /* rounds played whole */
    double *round_fps;           /* each round's frames over its wall time, in order;
                                  * as many again after them for sorting */
    long round_cap;
    long played;                 /* rounds played, the warm-up's among them */
    int warmup;                  /* a warm-up round came first, not in the figures */
    double warmup_fps;           /* its fps, for the JSON */
    uint32_t crc, round_sound_crc; /* the first round's CRCs, every other's must match */
    uint32_t *hist;
} timedemo_t;

/* What each stage is called in a scene's report. */
static const char *stage_name(const timedemo_t *t, int st)
{
    static const char *const names[STAGES] = { NULL, "step", "sound", NULL, "present" };
    if (st == ST_INPUT)
        return t->b->show ? "show" : t->scene->input_stage;
    return st == ST_DRAW ? t->scene->draw_stage : names[st];
}

/* Whether the scene has the stage. */
static int has_stage(const timedemo_t *t, int st)
{
    return st != ST_SOUND || t->snd;
}

/* The histogram's bin of a frame time. */
static long bin_of(int64_t ns)
{
    if (ns < HIST_SUB)
        return ns < 0 ? 0 : (long)ns;
    int e = HIST_BITS;
    while (e < 62 && ns >> (e + 1))
        e++;
    if (e > HIST_TOP)
        return BINS - 1;
    return (long)(e - HIST_BITS + 1) * HIST_SUB + (long)((ns >> (e - HIST_BITS)) - HIST_SUB);
}

/* The middle of bin i, in nanoseconds. */
static double bin_ns(long i)
{
    if (i < HIST_SUB)
        return (double)i + 0.5;
    int e = (int)(i / HIST_SUB) + HIST_BITS - 1;
    double width = ldexp(1.0, e - HIST_BITS);
    return ((double)HIST_SUB + (double)(i % HIST_SUB)) * width + width / 2;
}

/* The frame time below which 99% of the frames lie, as frames per second. */
static double low_1pct(const timedemo_t *t)
{
    long want = t->frames - t->frames / 100, seen = 0;
    for (long i = 0; i < BINS; i++) {
        seen += t->hist[i];
        if (seen >= want && seen > 0)
            return 1e9 / bin_ns(i);
    }
    return 0;
}

/* --- the scenes -------------------------------------------------------- */

/* The show's drips go to its mixer. */
static void on_drop(void *user, int x, int y, int radius, int weight)
{
    timedemo_t *t = user;
    if (rpl_sound_drip(t->snd, x, y, radius, weight, t->a->o.w) != RPL_OK && !t->a->run_err)
        t->a->run_err = app_format("sound: %s", rpl_sound_error(t->snd));
}

/* The show's sound from its start (app.h's form). */
static int sound_open(timedemo_t *t, char **err)
{
    rpl_sound_destroy(t->snd);
    t->snd = NULL;
    t->sound_crc = crc32(0L, Z_NULL, 0);
    if (!t->b->show)
        return 0;
    if (rpl_sound_create(SOUND_RATE, t->a->o.seed, &t->snd) != RPL_OK) {
        rpl_sound_destroy(t->snd);
        t->snd = NULL;
        *err = app_format("cannot start the show's sound: out of memory");
        return EXIT_FAILURE;
    }
    rpl_sound_set_ambient(t->snd, 1);
    rpl_sim_set_drop_hook(play_sim(t->a->play), on_drop, t);
    return 0;
}

/* Makes what the scene needs beyond the demo's start (app.h's form). */
static int scene_open(timedemo_t *t, char **err)
{
    *err = NULL;
    int status = t->scene->bench_open ? t->scene->bench_open(t->a, err) : 0;
    return status != 0 ? status : sound_open(t, err);
}

/* The scene and its sound back at their start for the next round. */
static int scene_restart(timedemo_t *t, char **err)
{
    *err = NULL;
    int status = t->scene->bench_restart(t->a, err);
    return status != 0 ? status : sound_open(t, err);
}

static void scene_close(timedemo_t *t)
{
    if (t->snd)
        rpl_sim_set_drop_hook(play_sim(t->a->play), NULL, NULL);
    rpl_sound_destroy(t->snd);
    t->snd = NULL;
}

static void scene_sound(timedemo_t *t)
{
    if (rpl_sound_mix(t->snd, t->buf, SOUND_PER_FRAME) != RPL_OK && !t->a->run_err)
        t->a->run_err = app_format("sound: %s", rpl_sound_error(t->snd));
    for (int i = 0; i < 2 * SOUND_PER_FRAME; i++) {
        uint16_t u = (uint16_t)t->buf[i];
        t->bytes[2 * i] = (unsigned char)u;
        t->bytes[2 * i + 1] = (unsigned char)(u >> 8);
    }
    t->sound_crc = crc32(t->sound_crc, t->bytes, sizeof t->bytes);
}

/* One frame: the scene's input, its step (and the show's sound), then the
 * frame drawn and, in a window, handed to the display.  An answer, not a
 * status: 1 to go on, 0 when the user asked to quit. */
static int play_frame(timedemo_t *t, long n)
{
    app_t *a = t->a;
    int64_t c0 = t->cpu_last; /* the last frame's end: one clock read less a frame */
    int64_t f0 = rpl_clock_ns();
    uint64_t t0 = SDL_GetPerformanceCounter();
    t->scene->bench_input(a, n);
    double ms_input = app_ms_since(t0);
    int64_t c1 = rpl_thread_cpu_ns();
    uint64_t t1 = SDL_GetPerformanceCounter();
    t->scene->bench_step(a);
    double ms_step = app_ms_since(t1);
    int64_t c2 = rpl_thread_cpu_ns(), c3 = c2;
    double ms_sound = 0;
    if (t->snd) {
        uint64_t t2 = SDL_GetPerformanceCounter();
        scene_sound(t);
        ms_sound = app_ms_since(t2);
        c3 = rpl_thread_cpu_ns();
    }
    if (a->o.headless) {
        uint64_t t3 = SDL_GetPerformanceCounter();
        app_refract(a);
        a->timing.ms_refract = app_ms_since(t3);
        a->timing.ms_present = 0;
    } else {
        SDL_Event e;
        while (SDL_PollEvent(&e)) /* the scene plays alone: only quitting counts */
            if (e.type == SDL_QUIT ||
                (e.type == SDL_KEYDOWN && (e.key.keysym.sym == SDLK_ESCAPE ||
                                           e.key.keysym.sym == SDLK_q)))
                return 0;
        app_render_frame(a);
    }
    int64_t c4 = t->cpu_last = rpl_thread_cpu_ns();
    int64_t frame_ns = rpl_clock_ns() - f0;
    t->ms[ST_INPUT] += ms_input;
    t->ms[ST_STEP] += ms_step;
    t->ms[ST_SOUND] += ms_sound;
    t->ms[ST_DRAW] += a->timing.ms_refract;
    t->ms[ST_PRESENT] += a->timing.ms_present;
    t->cpu_ns[ST_INPUT] += c1 - c0;
    t->cpu_ns[ST_STEP] += c2 - c1;
    t->cpu_ns[ST_SOUND] += c3 - c2;
    t->cpu_ns[ST_DRAW] += c4 - c3;
    t->hist[bin_of(frame_ns)]++;
    app_smooth(&a->timing.frame, (double)frame_ns / 1e6);
    return 1;
}

/* --- the report ---------------------------------------------------------- */

/* What the report says, worked out once for the text and the JSON. */
typedef struct figures {
    char cpu[256], mode[256], scene[64], draw_cpu[32], os[96];
    const char *present;
    double median, lo, hi;       /* the rounds' fps: the median round's, the slowest, fastest */
    double spread;               /* +- percent: half their range over its middle */
    double spread_mid;           /* the same from the tenth slowest to the tenth fastest */
    int noisy;                   /* spread_mid over NOISY_PERCENT */
    double low;                  /* the 1% low, fps */
    char share[512];             /* the report in a line (--share) */
    double n, ms, rest;          /* frames; wall ms of the run, and not in a stage */
    double cpu_ms[STAGES];       /* the main thread's CPU ms a frame (ST_DRAW with the present) */
    double cpu_rest, cpu_main;   /* its CPU outside the stages, and in all, ms a frame */
    double cpu_process;          /* the process's, all threads, ms a frame */
    uint32_t crc;
    char line[256];              /* the scene's own line, "" if none */
} figures_t;

static int by_value(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* The median round, the slowest and the fastest (sorting the second half
 * of round_fps, a copy of the first: the JSON lists the rounds in order). */
static void round_figures(const timedemo_t *t, figures_t *f)
{
    long n = t->rounds;
    double *v = t->round_fps + t->round_cap;
    memcpy(v, t->round_fps, (size_t)n * sizeof *v);
    qsort(v, (size_t)n, sizeof *v, by_value);
    f->lo = v[0];
    f->hi = v[n - 1];
    f->median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    f->spread = f->hi + f->lo > 0 ? (f->hi - f->lo) / (f->hi + f->lo) * 100 : 0;
    double lo = v[n / 10], hi = v[n - 1 - n / 10];
    f->spread_mid = hi + lo > 0 ? (hi - lo) / (hi + lo) * 100 : 0;
    f->noisy = f->spread_mid > NOISY_PERCENT;
}

/* The line to share: what ran where, and its three figures. */
static void share_line(const timedemo_t *t, figures_t *f)
{
    const app_t *a = t->a;
    const rpl_sim_t *sim = play_sim(a->play);
    snprintf(f->share, sizeof f->share,
             "ripple %s %s %dx%dx%d %s %dt %s: %.0f fps (\xC2\xB1%.1f%%), 1%% low %.0f, crc %08x, %s, "
             "%s", RPL_VERSION, f->scene, a->o.w, a->o.h, 8 * rpl_format_bytes(a->o.fmt),
             rpl_kernels_name(rpl_sim_kernels(sim)), rpl_sim_threads(sim),
             a->o.headless ? "headless" : app_present_name(a), f->median, f->spread, f->low,
             (unsigned)f->crc, f->cpu, f->os);
}

static void work_out(const timedemo_t *t, figures_t *f)
{
    const app_t *a = t->a;
    rpl_cpu_model(f->cpu, sizeof f->cpu);
    rpl_os_name(f->os, sizeof f->os);
    f->present = app_present_mode(a, f->mode, sizeof f->mode);
    snprintf(f->scene, sizeof f->scene, "%s-%d", t->b->name, t->b->version);
    snprintf(f->draw_cpu, sizeof f->draw_cpu, "%s%s%s", stage_name(t, ST_DRAW),
             a->o.headless ? "" : "+", a->o.headless ? "" : stage_name(t, ST_PRESENT));
    f->n = (double)t->frames;
    f->ms = t->seconds * 1000.0;
    f->rest = f->ms;
    double in_stages = 0;
    for (int st = 0; st < STAGES; st++) {
        f->rest -= t->ms[st];
        f->cpu_ms[st] = (double)t->cpu_ns[st] / 1e6 / f->n;
        in_stages += f->cpu_ms[st];
    }
    f->cpu_main = (double)t->main_ns / 1e6 / f->n;
    f->cpu_rest = f->cpu_main - in_stages;
    f->cpu_process = (double)t->process_ns / 1e6 / f->n;
    f->crc = t->scene->bench_crc(t->a);
    f->line[0] = '\0';
    if (t->scene->bench_line)
        t->scene->bench_line(t->a, f->line, sizeof f->line);
    round_figures(t, f);
    f->low = low_1pct(t);
    share_line(t, f);
}

static void report_text(const timedemo_t *t, const figures_t *f)
{
    const app_t *a = t->a;
    FILE *out = app_report_stream(a);
    double n = f->n;
    fprintf(out, "ripple %s benchmark, scene %s\n", RPL_VERSION, f->scene);
    fprintf(out, "scene     %s version %d: %s\n", t->b->name, t->b->version, t->b->what);
    fprintf(out, "cpu       %s\n", f->cpu);
    const rpl_sim_t *sim = play_sim(a->play);
    fprintf(out, "field     %dx%d, %d bpp, scale %d, path %s, %d thread%s\n", a->o.w, a->o.h,
            8 * rpl_format_bytes(a->o.fmt), a->o.scale, rpl_kernels_name(rpl_sim_kernels(sim)),
            rpl_sim_threads(sim), rpl_sim_threads(sim) > 1 ? "s" : "");
    if (f->line[0])
        fprintf(out, "%s\n", f->line);
    fprintf(out, "present   %s\n", f->present);
    fprintf(out, "frames    %ld in %.3f s: %.1f fps average, %.1f fps 1%% low\n", t->frames,
            t->seconds, n / t->seconds, f->low);
    fprintf(out, "rounds    %ld of %ld frames%s: median %.1f fps, \xC2\xB1%.1f%% (%.1f to %.1f "
            "fps; the middle 80%% \xC2\xB1%.1f%%)%s\n", t->rounds, t->per_round,
            t->warmup ? " after a warm-up round" : "", f->median, f->spread, f->lo, f->hi,
            f->spread_mid, t->played > 1 ? ", every round's crc the same" : "");
    if (f->noisy)
        fprintf(out, "noisy: \xC2\xB1%.1f%% between rounds (the middle 80%%, over \xC2\xB1%.0f%%): "
                "something else ran; compare with care\n", f->spread_mid, NOISY_PERCENT);
    fprintf(out, "ms/frame ");
    for (int st = 0; st < STAGES; st++)
        if (has_stage(t, st))
            fprintf(out, " %s %.4f ", stage_name(t, st), t->ms[st] / n);
    fprintf(out, " rest %.4f  total %.4f\n", f->rest / n, f->ms / n);
    fprintf(out, "cpu/frame");
    for (int st = 0; st < ST_PRESENT; st++)
        if (has_stage(t, st))
            fprintf(out, " %s %.4f ", st == ST_DRAW ? f->draw_cpu : stage_name(t, st),
                    f->cpu_ms[st]);
    fprintf(out, " rest %.4f  main thread %.4f\n", f->cpu_rest, f->cpu_main);
    fprintf(out, "process   %.4f cpu ms/frame, all threads (user %.4f, sys %.4f): %.2f of the "
            "wall time\n", f->cpu_process, t->user_s * 1000 / n, t->sys_s * 1000 / n,
            f->ms > 0 ? f->cpu_process * n / f->ms : 0.0);
    if (t->snd)
        fprintf(out, "sound     crc32 %08x (1/60 s a frame, %d Hz 16-bit stereo, mixed, not "
                "played)\n", (unsigned)t->sound_crc, SOUND_RATE);
    fprintf(out, "%-9s crc32 %08x\n", t->scene->state_name, (unsigned)f->crc);
}

/* A stage's figures into obj under its name (draw as "draw_present" and
 * the like when it holds the present's too). */
static void put_stages(cJSON *obj, const timedemo_t *t, const double *v, int cpu)
{
    char key[32];
    for (int st = 0; st < (cpu ? ST_PRESENT : STAGES); st++) {
        if (!has_stage(t, st))
            continue;
        snprintf(key, sizeof key, "%s%s%s", stage_name(t, st),
                 cpu && st == ST_DRAW && !t->a->o.headless ? "_" : "",
                 cpu && st == ST_DRAW && !t->a->o.headless ? stage_name(t, ST_PRESENT) : "");
        cJSON_AddNumberToObject(obj, key, v[st]);
    }
}

/* The report as one line of JSON (app.h's form; memory is all it can
 * run out of). */
static int report_json(const timedemo_t *t, const figures_t *f, char **err)
{
    *err = NULL;
    const app_t *a = t->a;
    double n = f->n;
    cJSON *j = cJSON_CreateObject();
    cJSON *stage = cJSON_CreateObject();
    cJSON *cpu = cJSON_CreateObject();
    char crc[16], sound[16];
    snprintf(crc, sizeof crc, "%08x", (unsigned)f->crc);
    snprintf(sound, sizeof sound, "%08x", (unsigned)t->sound_crc);
    if (!j || !stage || !cpu) {
        cJSON_Delete(j);
        cJSON_Delete(stage);
        cJSON_Delete(cpu);
        return EXIT_FAILURE;
    }
    cJSON_AddStringToObject(j, "version", RPL_VERSION);
    cJSON_AddStringToObject(j, "scene", f->scene);
    cJSON_AddStringToObject(j, "scene_name", t->b->name);
    cJSON_AddNumberToObject(j, "scene_version", t->b->version);
    cJSON_AddStringToObject(j, "scene_about", t->b->what);
    cJSON_AddStringToObject(j, "cpu", f->cpu);
    cJSON_AddNumberToObject(j, "width", a->o.w);
    cJSON_AddNumberToObject(j, "height", a->o.h);
    cJSON_AddNumberToObject(j, "bpp", 8 * rpl_format_bytes(a->o.fmt));
    cJSON_AddNumberToObject(j, "scale", a->o.scale);
    const rpl_sim_t *sim = play_sim(a->play);
    cJSON_AddStringToObject(j, "path", rpl_kernels_name(rpl_sim_kernels(sim)));
    cJSON_AddNumberToObject(j, "threads", rpl_sim_threads(sim));
    cJSON_AddStringToObject(j, "present", f->present);
    cJSON_AddNumberToObject(j, "frames", n);
    cJSON_AddNumberToObject(j, "seconds", t->seconds);
    cJSON_AddNumberToObject(j, "fps", n / t->seconds);
    cJSON_AddNumberToObject(j, "fps_1pct_low", f->low);
    cJSON_AddNumberToObject(j, "rounds", (double)t->rounds);
    cJSON_AddNumberToObject(j, "round_frames", (double)t->per_round);
    cJSON_AddNumberToObject(j, "warmup_rounds", t->warmup);
    if (t->warmup)
        cJSON_AddNumberToObject(j, "warmup_fps", t->warmup_fps);
    cJSON_AddNumberToObject(j, "median_fps", f->median);
    cJSON_AddNumberToObject(j, "spread", f->spread);
    cJSON_AddNumberToObject(j, "round_fps_min", f->lo);
    cJSON_AddNumberToObject(j, "round_fps_max", f->hi);
    cJSON_AddNumberToObject(j, "spread_middle", f->spread_mid);
    cJSON_AddBoolToObject(j, "noisy", f->noisy);
    cJSON *each = cJSON_CreateArray();
    for (long r = 0; each && r < t->rounds; r++)
        cJSON_AddItemToArray(each, cJSON_CreateNumber(t->round_fps[r]));
    if (each)
        cJSON_AddItemToObject(j, "round_fps", each);
    cJSON_AddStringToObject(j, "os", f->os);
    double ms[STAGES];
    for (int st = 0; st < STAGES; st++)
        ms[st] = t->ms[st] / n;
    put_stages(stage, t, ms, 0);
    cJSON_AddNumberToObject(stage, "rest", f->rest / n);
    cJSON_AddNumberToObject(stage, "total", f->ms / n);
    cJSON_AddItemToObject(j, "ms_per_frame", stage);
    put_stages(cpu, t, f->cpu_ms, 1);
    cJSON_AddNumberToObject(cpu, "rest", f->cpu_rest);
    cJSON_AddNumberToObject(cpu, "main_thread", f->cpu_main);
    cJSON_AddNumberToObject(cpu, "process", f->cpu_process);
    cJSON_AddNumberToObject(cpu, "process_user", t->user_s * 1000 / n);
    cJSON_AddNumberToObject(cpu, "process_sys", t->sys_s * 1000 / n);
    cJSON_AddItemToObject(j, "cpu_ms_per_frame", cpu);
    cJSON_AddNumberToObject(j, "cpu_seconds", (double)t->process_ns / 1e9);
    int status = t->scene->bench_json ? t->scene->bench_json(t->a, j, err) : 0;
    if (status != 0) {
        cJSON_Delete(j);
        return status;
    }
    if (t->snd)
        cJSON_AddStringToObject(j, "sound_crc32", sound);
    cJSON_AddStringToObject(j, "crc32", crc);
    cJSON_AddStringToObject(j, "share", f->share);
    char *text = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    if (!text)
        return EXIT_FAILURE;
    FILE *out = app_report_stream(a);
    fputs(text, out);
    fputc('\n', out);
    cJSON_free(text);
    return 0;
}

/* --share: the line alone on the report's stream; a noisy run says so
 * on stderr, where it does not spoil the line. */
static void report_share(const timedemo_t *t, const figures_t *f)
{
    fprintf(app_report_stream(t->a), "%s\n", f->share);
    if (f->noisy)
        fprintf(stderr, "ripple: noisy: \xC2\xB1%.1f%% between rounds (the middle 80%%, over "
                "\xC2\xB1%.0f%%): something else ran; compare with care\n", f->spread_mid,
                NOISY_PERCENT);
}

/* The results screen: the last frame stays under a panel of the figures
 * until a key, a click or the window's closing (or a stop signal). */
static void results_screen(timedemo_t *t, const figures_t *f)
{
    app_t *a = t->a;
    const rpl_sim_t *sim = play_sim(a->play);
    char title[128], body[1024], noisy[96] = "";
    snprintf(title, sizeof title, "%s  %.0f fps", f->scene, f->median);
    if (f->noisy)
        snprintf(noisy, sizeof noisy, "\nnoisy: +-%.1f%% between rounds, compare with care",
                 f->spread_mid);
    snprintf(body, sizeof body,
             "median of %ld rounds of %ld frames, +-%.1f%% (middle 80%%: +-%.1f%%)\n"
             "1%% low      %.0f fps\n"
             "cpu time   %.3f ms/frame (main thread %.3f)\n"
             "crc32      %08x%s%s\n"
             "\n"
             "field      %dx%d, %d bits, path %s, %d thread%s\n"
             "present    %s\n"
             "processor  %s\n"
             "os         %s, ripple %s",
             t->rounds, t->per_round, f->spread, f->spread_mid, f->low, f->cpu_process, f->cpu_main,
             (unsigned)f->crc, t->played > 1 ? ", every round" : "", noisy, a->o.w, a->o.h,
             8 * rpl_format_bytes(a->o.fmt), rpl_kernels_name(rpl_sim_kernels(sim)),
             rpl_sim_threads(sim), rpl_sim_threads(sim) > 1 ? "s" : "", app_present_name(a),
             f->cpu, f->os, RPL_VERSION);
    app_overlay_results(a->overlay, title, body, "a key or a click closes");
    app_render_frame(a);
    for (;;) {
        SDL_Event e;
        if (!SDL_WaitEventTimeout(&e, 200)) {
            if (app_stop_signal())
                break;
            continue;
        }
        if (e.type == SDL_QUIT || e.type == SDL_MOUSEBUTTONDOWN ||
            (e.type == SDL_KEYDOWN && !e.key.repeat))
            break;
        if (e.type == SDL_WINDOWEVENT)
            app_render_frame(a); /* shown again, resized: drawn again */
    }
    app_overlay_results(a->overlay, NULL, NULL, NULL);
}

/* One round: the scene's frames from the first, its wall and CPU time
 * added to the run's.  An answer: 1 when played whole, 0 when the user
 * quit or a signal stopped it. */
static int play_round(timedemo_t *t)
{
    double user0, sys0, user1, sys1;
    rpl_process_times(&user0, &sys0);
    int64_t process0 = rpl_process_cpu_ns(), main0 = rpl_thread_cpu_ns();
    t->cpu_last = main0;
    int64_t w0 = rpl_clock_ns();
    long n = 0;
    for (; n < t->per_round && !app_stop_signal(); n++, t->frames++)
        if (!play_frame(t, n))
            break;
    double wall = (double)(rpl_clock_ns() - w0) / 1e9;
    t->seconds += wall;
    t->main_ns += rpl_thread_cpu_ns() - main0;
    t->process_ns += rpl_process_cpu_ns() - process0;
    rpl_process_times(&user1, &sys1);
    t->user_s += user1 - user0;
    t->sys_s += sys1 - sys0;
    if (n < t->per_round)
        return 0;
    t->round_fps[t->rounds] = wall > 0 ? (double)n / wall : 0;
    return 1;
}

/* Whether this round ended as the first did (the first sets what the
 * others must match): 0, or EXIT_FAILURE with a line said. */
static int same_round(timedemo_t *t)
{
    uint32_t crc = t->scene->bench_crc(t->a), sound = (uint32_t)t->sound_crc;
    if (t->played == 0) {
        t->crc = crc;
        t->round_sound_crc = sound;
        return 0;
    }
    if (crc == t->crc && sound == t->round_sound_crc)
        return 0;
    char *msg = app_format("benchmark round %ld ended unlike round 1 (%s crc32 %08x, not %08x%s): "
                           "the rounds do not play the same, no report", t->played + 1,
                           t->scene->state_name, (unsigned)crc, (unsigned)t->crc,
                           sound != t->round_sound_crc ? "; the sound differs too" : "");
    app_print_error(msg ? msg : "benchmark rounds ended unlike each other: no report");
    free(msg);
    return EXIT_FAILURE;
}

/* The warm-up round's figures go: the run's are of the rounds after it. */
static void forget_warmup(timedemo_t *t)
{
    t->warmup = 1;
    t->warmup_fps = t->round_fps[0];
    t->frames = 0;
    t->seconds = 0;
    t->main_ns = t->process_ns = 0;
    t->user_s = t->sys_s = 0;
    memset(t->ms, 0, sizeof t->ms);
    memset(t->cpu_ns, 0, sizeof t->cpu_ns);
    memset(t->hist, 0, BINS * sizeof *t->hist);
}

/* Whether the run has played enough rounds. */
static int enough(const timedemo_t *t, int64_t start)
{
    const app_opts_t *o = &t->a->o;
    if (o->rounds > 0)
        return t->rounds >= o->rounds;
    return t->rounds >= ROUNDS_MIN && (double)(rpl_clock_ns() - start) / 1e9 >= o->seconds;
}

int app_timedemo(app_t *a)
{
    timedemo_t t;
    memset(&t, 0, sizeof t);
    t.a = a;
    t.b = a->o.bench;
    t.scene = a->scene;
    t.per_round = a->o.frames;
    t.round_cap = a->o.rounds > 0 ? a->o.rounds : 64;
    t.hist = calloc(BINS, sizeof *t.hist);
    t.round_fps = malloc((size_t)t.round_cap * 2 * sizeof *t.round_fps);
    if (!t.hist || !t.round_fps) {
        app_print_error("out of memory");
        free(t.hist);
        free(t.round_fps);
        return EXIT_FAILURE;
    }
    char *err = NULL;
    int status = scene_open(&t, &err);
    int done = 1, said = 0;
    int64_t start = rpl_clock_ns();
    while (status == 0) {
        if (t.rounds == t.round_cap) {
            double *more = realloc(t.round_fps, (size_t)t.round_cap * 4 * sizeof *more);
            if (!more) {
                status = EXIT_FAILURE; /* err NULL: memory */
                break;
            }
            t.round_fps = more;
            t.round_cap *= 2;
        }
        if (t.played > 0 && (status = scene_restart(&t, &err)) != 0)
            break;
        if (!(done = play_round(&t)) || app_stop_signal())
            break;
        if ((status = same_round(&t)) != 0) {
            said = 1;
            break;
        }
        /* a run of rounds starts with one more, to warm up: the first
         * round runs a few percent slow (docs/benchmark.md) */
        if (t.played++ == 0 && !a->o.frames_set) {
            forget_warmup(&t);
            continue;
        }
        t.rounds++;
        if (enough(&t, start))
            break;
    }
    if (status != 0) {
        if (!said) /* said: same_round did; else err, or memory ran out */
            app_print_error(err ? err : "out of memory");
        free(err);
    } else if (app_stop_signal()) {
        status = EXIT_FAILURE; /* stopped by a signal: no report, no word */
    } else if (!done) {
        fprintf(stderr, "ripple: benchmark stopped after %ld of %ld frames: no report\n",
                t.frames, t.per_round * (a->o.rounds > 0 ? a->o.rounds : t.rounds + 1));
        status = EXIT_FAILURE;
    } else {
        figures_t f;
        work_out(&t, &f);
        if (a->o.json)
            status = report_json(&t, &f, &err);
        else if (a->o.share)
            report_share(&t, &f);
        else
            report_text(&t, &f);
        if (status != 0) {
            app_print_error(err ? err : "out of memory for the report");
            free(err);
        } else if (!a->o.headless && !a->o.no_results && !a->o.frames_set) {
            fflush(app_report_stream(a)); /* the figures are out before the screen waits */
            results_screen(&t, &f);
        }
    }
    scene_close(&t);
    free(t.hist);
    free(t.round_fps);
    return status;
}
