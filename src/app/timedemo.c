/* app/timedemo.c - --benchmark: a fixed scene played one step per displayed frame, measured honestly and reported. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <zlib.h>

#include "app/app.h"

/* Frame times are kept as a histogram of 10-microsecond bins up to one
 * second (the last bin holds anything slower), so any number of frames
 * costs the same memory and the 1% low is read from it. */
#define BIN_US 10
#define BINS 100000

typedef struct timedemo {
    double stones, step, refract, present; /* milliseconds, summed over frames */
    double seconds;                        /* wall time of the whole run */
    long frames;
    uint32_t *hist;
} timedemo_t;

/* The frame time below which 99% of the frames lie, as frames per second. */
static double low_1pct(const timedemo_t *t)
{
    long want = t->frames - t->frames / 100, seen = 0;
    for (int i = 0; i < BINS; i++) {
        seen += t->hist[i];
        if (seen >= want && seen > 0)
            return 1e6 / ((double)(i + 1) * BIN_US);
    }
    return 0;
}

/* CRC-32 of the heights now, as int16 little-endian bytes whatever the
 * machine, so two machines can confirm they computed the same water. */
static uint32_t water_crc(const rpl_sim_t *sim)
{
    size_t n = (size_t)rpl_sim_width(sim) * (size_t)rpl_sim_height(sim);
    const int16_t *h = rpl_sim_heights(sim);
    uLong crc = crc32(0L, Z_NULL, 0);
    unsigned char buf[4096];
    for (size_t i = 0; i < n;) {
        size_t k = 0;
        for (; k < sizeof buf && i < n; k += 2, i++) {
            buf[k] = (unsigned char)((uint16_t)h[i] & 0xFF);
            buf[k + 1] = (unsigned char)((uint16_t)h[i] >> 8);
        }
        crc = crc32(crc, buf, (uInt)k);
    }
    return (uint32_t)crc;
}

static void cpu_model(char *buf, size_t len)
{
    snprintf(buf, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "re"); /* e: O_CLOEXEC */
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (!strncmp(line, "model name", 10) && colon) {
            colon += 1 + (colon[1] == ' ');
            colon[strcspn(colon, "\n")] = '\0';
            snprintf(buf, len, "%s", colon);
            break;
        }
    }
    if (f)
        fclose(f);
}

/* One frame: the scene's stones and rain, one step, the refraction and,
 * in a window, the frame handed to the display. */
static int play_frame(app_t *a, timedemo_t *t)
{
    uint64_t t0 = SDL_GetPerformanceCounter();
    rpl_sim_rain(a->sim, &a->rain);
    rpl_autopilot_tick(a->ap, a->sim);
    double stones = app_ms_since(t0);
    uint64_t t1 = SDL_GetPerformanceCounter();
    rpl_sim_step(a->sim);
    double step = app_ms_since(t1);
    if (a->o.headless) {
        uint64_t t2 = SDL_GetPerformanceCounter();
        app_refract(a);
        a->ms_refract = app_ms_since(t2);
        a->ms_present = 0;
    } else {
        SDL_Event e;
        while (SDL_PollEvent(&e)) /* the scene plays alone: only quitting counts */
            if (e.type == SDL_QUIT ||
                (e.type == SDL_KEYDOWN && (e.key.keysym.sym == SDLK_ESCAPE ||
                                           e.key.keysym.sym == SDLK_q)))
                return 0;
        app_render_frame(a);
    }
    double frame = app_ms_since(t0);
    t->stones += stones;
    t->step += step;
    t->refract += a->ms_refract;
    t->present += a->ms_present;
    long bin = (long)(frame * 1000.0 / BIN_US);
    t->hist[bin < BINS ? bin : BINS - 1]++;
    app_smooth(&a->t_frame, frame);
    return 1;
}

static const char *present_mode(const app_t *a, char *buf, size_t len)
{
    if (a->o.headless)
        return "none (headless)";
    SDL_RendererInfo info;
    const char *driver = SDL_GetCurrentVideoDriver() ? SDL_GetCurrentVideoDriver() : "?";
    if (a->present == PRESENT_SURFACE)
        snprintf(buf, len, "surface (%s; %s; video driver %s)", a->present_why,
                 a->surface_how ? a->surface_how : "nothing shown", driver);
    else
        snprintf(buf, len, "texture (%s; SDL renderer %s, video driver %s)", a->present_why,
                 a->ren && SDL_GetRendererInfo(a->ren, &info) == 0 ? info.name : "?", driver);
    return buf;
}

static void report_text(const app_t *a, const timedemo_t *t, const char *cpu, const char *mode)
{
    FILE *out = app_report_stream(a);
    double n = (double)t->frames, ms = t->seconds * 1000.0;
    double rest = ms - t->stones - t->step - t->refract - t->present;
    fprintf(out, "ripple %s benchmark, scene %s\n", RPL_VERSION, TIMEDEMO_SCENE);
    fprintf(out, "cpu       %s\n", cpu);
    fprintf(out, "field     %dx%d, %d bpp, scale %d, path %s, %d thread%s\n", a->o.w, a->o.h,
           8 * rpl_format_bytes(a->o.fmt),
           a->o.scale, rpl_kernels_name(rpl_sim_kernels(a->sim)), rpl_sim_threads(a->sim),
           rpl_sim_threads(a->sim) > 1 ? "s" : "");
    fprintf(out, "present   %s\n", mode);
    fprintf(out, "frames    %ld in %.3f s: %.1f fps average, %.1f fps 1%% low\n", t->frames, t->seconds,
           n / t->seconds, low_1pct(t));
    fprintf(out, "ms/frame  stones %.4f  step %.4f  refract %.4f  present %.4f  rest %.4f  total %.4f\n",
           t->stones / n, t->step / n, t->refract / n, t->present / n, rest / n, ms / n);
    fprintf(out, "water     crc32 %08x\n", (unsigned)water_crc(a->sim));
}

static int report_json(const app_t *a, const timedemo_t *t, const char *cpu, const char *mode)
{
    double n = (double)t->frames, ms = t->seconds * 1000.0;
    cJSON *j = cJSON_CreateObject();
    cJSON *stage = cJSON_CreateObject();
    char crc[16];
    snprintf(crc, sizeof crc, "%08x", (unsigned)water_crc(a->sim));
    if (!j || !stage) {
        cJSON_Delete(j);
        cJSON_Delete(stage);
        return -1;
    }
    cJSON_AddStringToObject(j, "version", RPL_VERSION);
    cJSON_AddStringToObject(j, "scene", TIMEDEMO_SCENE);
    cJSON_AddStringToObject(j, "cpu", cpu);
    cJSON_AddNumberToObject(j, "width", a->o.w);
    cJSON_AddNumberToObject(j, "height", a->o.h);
    cJSON_AddNumberToObject(j, "bpp", 8 * rpl_format_bytes(a->o.fmt));
    cJSON_AddNumberToObject(j, "scale", a->o.scale);
    cJSON_AddStringToObject(j, "path", rpl_kernels_name(rpl_sim_kernels(a->sim)));
    cJSON_AddNumberToObject(j, "threads", rpl_sim_threads(a->sim));
    cJSON_AddStringToObject(j, "present", mode);
    cJSON_AddNumberToObject(j, "frames", (double)t->frames);
    cJSON_AddNumberToObject(j, "seconds", t->seconds);
    cJSON_AddNumberToObject(j, "fps", n / t->seconds);
    cJSON_AddNumberToObject(j, "fps_1pct_low", low_1pct(t));
    cJSON_AddNumberToObject(stage, "stones", t->stones / n);
    cJSON_AddNumberToObject(stage, "step", t->step / n);
    cJSON_AddNumberToObject(stage, "refract", t->refract / n);
    cJSON_AddNumberToObject(stage, "present", t->present / n);
    cJSON_AddNumberToObject(stage, "rest", (ms - t->stones - t->step - t->refract - t->present) / n);
    cJSON_AddNumberToObject(stage, "total", ms / n);
    cJSON_AddItemToObject(j, "ms_per_frame", stage);
    cJSON_AddStringToObject(j, "crc32", crc);
    char *text = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    if (!text)
        return -1;
    FILE *out = app_report_stream(a);
    fputs(text, out);
    fputc('\n', out);
    cJSON_free(text);
    return 0;
}

int app_timedemo(app_t *a)
{
    timedemo_t t;
    memset(&t, 0, sizeof t);
    t.hist = calloc(BINS, sizeof *t.hist);
    if (!t.hist) {
        fprintf(stderr, "ripple: out of memory\n");
        return 1;
    }
    int done = 1;
    uint64_t t0 = SDL_GetPerformanceCounter();
    for (; t.frames < a->o.frames && !app_stop_signal(); t.frames++)
        if (!(done = play_frame(a, &t)))
            break;
    t.seconds = app_ms_since(t0) / 1000.0;
    int status = 0;
    if (app_stop_signal()) {
        status = 1; /* stopped by a signal: no report, no word */
    } else if (!done) {
        fprintf(stderr, "ripple: benchmark stopped after %ld of %ld frames: no report\n",
                t.frames, a->o.frames);
        status = 1;
    } else {
        char cpu[256], mode[256];
        cpu_model(cpu, sizeof cpu);
        const char *m = present_mode(a, mode, sizeof mode);
        if (a->o.json ? report_json(a, &t, cpu, m) != 0 : (report_text(a, &t, cpu, m), 0)) {
            fprintf(stderr, "ripple: out of memory for the report\n");
            status = 1;
        }
    }
    free(t.hist);
    return status;
}
