/* app/main.c - the SDL2 front end: window, input, overlay, files; or a headless run for tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include <SDL.h>
#include <SDL_image.h>

#include "app/args.h"
#include "ripple.h"
#include "core/font.h"

#ifndef RIPPLE_DATADIR
#define RIPPLE_DATADIR "/usr/local/share/ripple"
#endif

#define STEP_HZ 60          /* simulation steps per second in a window */
#define MAX_CATCHUP 4       /* most steps per frame when the display lags */
#define IDLE_MS 6000        /* the autopilot waits this long after user input */
#define STONE_WEIGHT 300
#define STONE_MIN 1
#define STONE_MAX 40

/* Exit statuses */
enum { EXIT_USAGE = 2 };

typedef struct app {
    app_opts_t o;
    rpl_sim_t *sim;
    rpl_autopilot_t ap;
    rpl_rain_t rain;
    uint32_t *bg;   /* background fitted to the field, XRGB8888 */
    rpl_backdrop_t *bd; /* the background prepared for the framebuffer's format */
    rpl_format fmt;
    int bytes;      /* per framebuffer pixel */
    void *fb;       /* the water frame, kept between frames: only changed tiles are redrawn */
    SDL_Surface *fb_surf;   /* fb as an SDL surface (its palette for 8 bits) */
    SDL_Surface *show_surf; /* 8 bits: fb through the palette, as the display's DAC would */
    uint32_t *ovl;  /* the overlay, ARGB, drawn over the water by the GPU or SDL */
    char ovl_key[1024]; /* what the overlay shows now */
    char stats[256];    /* the figures in the overlay, refreshed a few times a second */
    uint32_t stats_next_ms;
    rpl_view_t view;
    int stone;      /* stone radius for the mouse */
    int paused, step_once, rain_on, auto_on, help_on, overlay_on, fullscreen;
    int dragging, lastx, lasty;
    uint32_t last_input_ms;
    int touched;    /* the user has clicked or dragged */
    long frame;
    /* smoothed timings in milliseconds */
    double t_sim, t_refract, t_present, t_frame;
    char note[256];      /* a message shown for a while */
    uint32_t note_until;
    SDL_Window *win;
    SDL_Renderer *ren;
    SDL_Texture *tex;
    SDL_Texture *ovl_tex;
} app_t;

static double ms_since(uint64_t t0)
{
    return (double)(SDL_GetPerformanceCounter() - t0) * 1000.0 /
           (double)SDL_GetPerformanceFrequency();
}

static void smooth(double *avg, double v)
{
    *avg = *avg == 0 ? v : *avg * 0.95 + v * 0.05;
}

static void note(app_t *a, const char *msg)
{
    snprintf(a->note, sizeof a->note, "%s", msg);
    a->note_until = SDL_GetTicks() + 3000;
}

/* ---- background -------------------------------------------------------- */

static int file_exists(const char *p)
{
    return access(p, R_OK) == 0;
}

/* The default picture: beside the binary, in the working directory, or
 * where `make install` puts it. */
static const char *default_image(char *buf, size_t len)
{
    char *base = SDL_GetBasePath();
    if (base) {
        snprintf(buf, len, "%sassets/background.png", base);
        SDL_free(base);
        if (file_exists(buf))
            return buf;
    }
    if (file_exists("assets/background.png"))
        return "assets/background.png";
    snprintf(buf, len, "%s/background.png", RIPPLE_DATADIR);
    return file_exists(buf) ? buf : NULL;
}

/* Some image decoders print their own complaints to stderr; the user gets
 * our one-line error instead, so their output is silenced during a load. */
static SDL_Surface *load_quietly(const char *path)
{
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    int null = open("/dev/null", O_WRONLY);
    if (saved >= 0 && null >= 0)
        dup2(null, STDERR_FILENO);
    SDL_Surface *img = IMG_Load(path);
    fflush(stderr);
    if (saved >= 0) {
        dup2(saved, STDERR_FILENO);
        close(saved);
    }
    if (null >= 0)
        close(null);
    return img;
}

/* Loads and fits the background, or explains why not in err. */
static int load_background(app_t *a, const char *path, char *err, size_t errlen)
{
    SDL_Surface *img = load_quietly(path);
    if (!img) {
        snprintf(err, errlen, "cannot load image '%.300s': %s", path, IMG_GetError());
        return -1;
    }
    if (img->w > 32768 || img->h > 32768) {
        snprintf(err, errlen, "image '%.300s' is too large (%dx%d)", path, img->w, img->h);
        SDL_FreeSurface(img);
        return -1;
    }
    SDL_Surface *rgb = SDL_ConvertSurfaceFormat(img, SDL_PIXELFORMAT_RGB888, 0);
    SDL_FreeSurface(img);
    if (!rgb) {
        snprintf(err, errlen, "cannot convert image '%.300s': %s", path, SDL_GetError());
        return -1;
    }
    SDL_LockSurface(rgb);
    rpl_status st = rpl_image_fit(rgb->pixels, rgb->w, rgb->h, rgb->pitch, a->bg,
                                  a->o.w, a->o.h);
    SDL_UnlockSurface(rgb);
    SDL_FreeSurface(rgb);
    if (st != RPL_OK) {
        snprintf(err, errlen, "cannot fit image '%.300s': %s", path, rpl_strerror(st));
        return -1;
    }
    return 0;
}

/* ---- files ------------------------------------------------------------- */

/* Saves a surface as PNG or BMP (by extension) through a temporary file,
 * so `path` never holds half a picture. */
static int save_picture(SDL_Surface *s, const char *path, char *err, size_t errlen)
{
    size_t n = strlen(path);
    char *tmp = malloc(n + 8);
    if (!tmp) {
        snprintf(err, errlen, "cannot save '%s': out of memory", path);
        return -1;
    }
    snprintf(tmp, n + 8, "%s.tmp~", path);
    int png = n > 4 && SDL_strcasecmp(path + n - 4, ".png") == 0;
    /* as the screen shows it: 24-bit colour whatever the framebuffer */
    SDL_Surface *rgb = SDL_ConvertSurfaceFormat(s, SDL_PIXELFORMAT_RGB888, 0);
    int rc = !rgb ? -1 : png ? IMG_SavePNG(rgb, tmp) : SDL_SaveBMP(rgb, tmp);
    SDL_FreeSurface(rgb);
    if (rc != 0 || rename(tmp, path) != 0) {
        snprintf(err, errlen, "cannot save '%s': %s", path,
                 rc != 0 ? SDL_GetError() : "rename failed");
        remove(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}

/* Draws the water into fb in its format, redrawing only changed tiles. */
static void refract(app_t *a)
{
    rpl_render_changed(a->sim, a->bd, a->fb, (ptrdiff_t)a->o.w * a->bytes, &a->view);
}

/* Saves the water as it is now, without the overlay. */
static int screenshot(app_t *a, const char *path, char *err, size_t errlen)
{
    refract(a);
    return save_picture(a->fb_surf, path, err, errlen);
}

/* Checks early that a file can be created at path, so a long run does not
 * end in a failed write. */
static int writable_target(const char *path)
{
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    return access(dir, W_OK) == 0 && slash[slash ? 1 : 0] != '\0';
}

/* ---- simulation -------------------------------------------------------- */

static void sim_frame(app_t *a, int steps)
{
    uint64_t t0 = SDL_GetPerformanceCounter();
    int idle = a->o.headless || !a->touched || SDL_GetTicks() - a->last_input_ms > IDLE_MS;
    for (int i = 0; i < steps; i++) {
        if (a->rain_on)
            rpl_sim_rain(a->sim, &a->rain);
        if (a->auto_on && idle)
            rpl_autopilot_tick(&a->ap, a->sim);
        rpl_sim_step(a->sim);
    }
    if (steps > 0)
        smooth(&a->t_sim, ms_since(t0));
}

/* ---- overlay ----------------------------------------------------------- */

static const char *help_text =
    "ripple " RPL_VERSION "\n"
    "\n"
    "mouse      click: stone, drag: trail\n"
    "wheel [ ]  stone size\n"
    "F1 H       this help\n"
    "Space P    pause\n"
    "N          step one frame\n"
    "C Bksp     calm the water (reset)\n"
    "R          rain on/off\n"
    "A          autopilot on/off\n"
    "L          light (shading) on/off\n"
    "+ - Up Dn  refraction strength\n"
    "O Tab      overlay on/off\n"
    "F F11      fullscreen\n"
    "S F12      screenshot\n"
    "Esc Q      quit";

/* A translucent black panel on the (transparent) overlay. */
static void panel(app_t *a, int x, int y, int w, int h, int alpha)
{
    int x0 = x < 0 ? 0 : x, y0 = y < 0 ? 0 : y;
    int x1 = x + w > a->o.w ? a->o.w : x + w, y1 = y + h > a->o.h ? a->o.h : y + h;
    for (int yy = y0; yy < y1; yy++)
        for (int xx = x0; xx < x1; xx++)
            a->ovl[(size_t)yy * a->o.w + xx] = (uint32_t)alpha << 24;
}

/* Redraws the overlay when what it shows has changed; returns 1 if so. */
static int draw_overlay(app_t *a)
{
    int w = a->o.w, h = a->o.h;
    int sc = w >= 1280 ? 2 : 1;
    uint32_t now = SDL_GetTicks();
    if (SDL_TICKS_PASSED(now, a->stats_next_ms)) {
        rpl_stats_t st;
        rpl_sim_stats(a->sim, &st);
        double fps = a->t_frame > 0 ? 1000.0 / a->t_frame : 0;
        snprintf(a->stats, sizeof a->stats,
                 "%.0f fps  %.2f ms\nsim %.2f  refr %.2f  pres %.2f\n"
                 "%dx%dx%d %s x%d  awake %u%%\n",
                 fps, a->t_frame, a->t_sim, a->t_refract, a->t_present, w, h, a->o.bpp,
                 rpl_kernels_name(a->sim->kern), a->sim->threads,
                 st.tiles ? (st.stepped * 100 + st.tiles / 2) / st.tiles : 0);
        a->stats_next_ms = now + 250;
    }
    int note_on = a->note[0] && !SDL_TICKS_PASSED(now, a->note_until);
    char key[sizeof a->ovl_key];
    snprintf(key, sizeof key, "%d%d%d|%s|str %d/16  stone %d\n%s%s%s%s|%s", a->overlay_on,
             a->help_on, note_on, a->stats, a->view.strength, a->stone,
             a->paused ? "PAUSED " : "", a->rain_on ? "rain " : "", a->auto_on ? "auto " : "",
             a->view.shading ? "light" : "", note_on ? a->note : "");
    if (strcmp(key, a->ovl_key) == 0)
        return 0;
    memcpy(a->ovl_key, key, sizeof key);
    memset(a->ovl, 0, (size_t)w * h * 4);
    ptrdiff_t pitch = (ptrdiff_t)w * 4;
    if (a->overlay_on) {
        char buf[512];
        snprintf(buf, sizeof buf, "%sstr %d/16  stone %d\n%s%s%s%s", a->stats, a->view.strength,
                 a->stone, a->paused ? "PAUSED " : "", a->rain_on ? "rain " : "",
                 a->auto_on ? "auto " : "", a->view.shading ? "light" : "");
        int tw = rpl_font_text_width(buf, sc), th = rpl_font_text_height(buf, sc);
        panel(a, 2, 2, tw + 6 * sc, th + 4 * sc, 128);
        rpl_font_draw(a->ovl, pitch, w, h, 2 + 3 * sc, 2 + 2 * sc, buf, 0xE8F4FF, sc);
        if (!a->help_on) {
            const char *hint = "F1: help";
            rpl_font_draw(a->ovl, pitch, w, h, w - rpl_font_text_width(hint, sc) - 4,
                          h - 12 * sc, hint, 0xC0D0E0, sc);
        }
    }
    if (a->help_on) {
        int tw = rpl_font_text_width(help_text, sc), th = rpl_font_text_height(help_text, sc);
        int x = (w - tw) / 2, y = (h - th) / 2;
        panel(a, x - 8 * sc, y - 6 * sc, tw + 16 * sc, th + 12 * sc, 200);
        rpl_font_draw(a->ovl, pitch, w, h, x, y, help_text, 0xFFFFFF, sc);
    }
    if (note_on) {
        int tw = rpl_font_text_width(a->note, sc);
        int x = (w - tw) / 2, y = h - 24 * sc;
        panel(a, x - 4, y - 3, tw + 8, 10 * sc + 6, 160);
        rpl_font_draw(a->ovl, pitch, w, h, x, y, a->note, 0xFFF0A0, sc);
    }
    return 1;
}

/* ---- window ------------------------------------------------------------ */

static int video_open(app_t *a, char *err, size_t errlen)
{
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        snprintf(err, errlen, "cannot start video: %s (try --headless)", SDL_GetError());
        return -1;
    }
    SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "nearest");
    a->win = SDL_CreateWindow("ripple", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                              a->o.w * a->o.scale, a->o.h * a->o.scale,
                              SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    if (!a->win) {
        snprintf(err, errlen, "cannot open a window: %s (try --headless)", SDL_GetError());
        return -1;
    }
    Uint32 flags = SDL_RENDERER_ACCELERATED | (a->o.vsync ? SDL_RENDERER_PRESENTVSYNC : 0);
    a->ren = SDL_CreateRenderer(a->win, -1, flags);
    if (!a->ren) /* no accelerated driver: the software renderer will do */
        a->ren = SDL_CreateRenderer(a->win, -1, SDL_RENDERER_SOFTWARE);
    if (!a->ren) {
        snprintf(err, errlen, "cannot create a renderer: %s", SDL_GetError());
        return -1;
    }
    SDL_RenderSetLogicalSize(a->ren, a->o.w, a->o.h);
    SDL_RenderSetIntegerScale(a->ren, SDL_TRUE);
    a->tex = SDL_CreateTexture(a->ren,
                               a->fmt == RPL_RGB565 ? SDL_PIXELFORMAT_RGB565 : SDL_PIXELFORMAT_RGB888,
                               SDL_TEXTUREACCESS_STREAMING, a->o.w, a->o.h);
    a->ovl_tex = SDL_CreateTexture(a->ren, SDL_PIXELFORMAT_ARGB8888,
                                   SDL_TEXTUREACCESS_STREAMING, a->o.w, a->o.h);
    if (a->ovl_tex)
        SDL_SetTextureBlendMode(a->ovl_tex, SDL_BLENDMODE_BLEND);
    if (!a->tex || !a->ovl_tex) {
        snprintf(err, errlen, "cannot create a %dx%d texture: %s", a->o.w, a->o.h,
                 SDL_GetError());
        return -1;
    }
    return 0;
}

static void video_close(app_t *a)
{
    if (a->ovl_tex)
        SDL_DestroyTexture(a->ovl_tex);
    if (a->tex)
        SDL_DestroyTexture(a->tex);
    if (a->ren)
        SDL_DestroyRenderer(a->ren);
    if (a->win)
        SDL_DestroyWindow(a->win);
    SDL_Quit();
}

/* Redraws the tiles of the water that changed, uploads the frame (the
 * one copy SDL needs to reach the screen), lays the overlay over it as a
 * second texture so it never dirties the water, and presents. */
static void render_frame(app_t *a)
{
    uint64_t t0 = SDL_GetPerformanceCounter();
    refract(a);
    smooth(&a->t_refract, ms_since(t0));
    uint64_t t1 = SDL_GetPerformanceCounter();
    if (a->fmt == RPL_INDEX8) {
        /* no GPU takes 8-bit pixels: SDL looks them up in the palette */
        SDL_BlitSurface(a->fb_surf, NULL, a->show_surf, NULL);
        SDL_UpdateTexture(a->tex, NULL, a->show_surf->pixels, a->show_surf->pitch);
    } else {
        SDL_UpdateTexture(a->tex, NULL, a->fb, a->o.w * a->bytes);
    }
    if (draw_overlay(a))
        SDL_UpdateTexture(a->ovl_tex, NULL, a->ovl, a->o.w * 4);
    SDL_SetRenderDrawColor(a->ren, 0, 0, 0, 255);
    SDL_RenderClear(a->ren);
    SDL_RenderCopy(a->ren, a->tex, NULL, NULL);
    SDL_RenderCopy(a->ren, a->ovl_tex, NULL, NULL);
    SDL_RenderPresent(a->ren);
    smooth(&a->t_present, ms_since(t1));
}

static void user_stone(app_t *a, int x, int y)
{
    rpl_sim_drop(a->sim, x, y, a->stone, STONE_WEIGHT);
}

static void take_screenshot(app_t *a)
{
    char path[64], err[256];
    for (int i = 1; i < 10000; i++) {
        snprintf(path, sizeof path, "ripple-%04d.png", i);
        if (!file_exists(path))
            break;
    }
    if (screenshot(a, path, err, sizeof err) == 0) {
        char msg[128];
        snprintf(msg, sizeof msg, "saved %s", path);
        note(a, msg);
    } else {
        note(a, err);
    }
}

static void toggle(app_t *a, int *v, const char *what)
{
    char msg[64];
    *v = !*v;
    snprintf(msg, sizeof msg, "%s %s", what, *v ? "on" : "off");
    note(a, msg);
}

/* Returns 0 when the user asks to quit. */
static int handle_event(app_t *a, const SDL_Event *e)
{
    switch (e->type) {
    case SDL_QUIT:
        return 0;
    case SDL_MOUSEBUTTONDOWN:
        a->last_input_ms = SDL_GetTicks();
        a->touched = 1;
        if (e->button.button == SDL_BUTTON_LEFT) {
            a->dragging = 1;
            a->lastx = e->button.x;
            a->lasty = e->button.y;
            user_stone(a, e->button.x, e->button.y);
        } else if (e->button.button == SDL_BUTTON_RIGHT) {
            rpl_sim_drop(a->sim, e->button.x, e->button.y, a->stone * 2 > STONE_MAX ? STONE_MAX : a->stone * 2,
                         STONE_WEIGHT * 2);
        }
        break;
    case SDL_MOUSEBUTTONUP:
        if (e->button.button == SDL_BUTTON_LEFT)
            a->dragging = 0;
        break;
    case SDL_MOUSEMOTION:
        if (a->dragging) {
            a->last_input_ms = SDL_GetTicks();
            rpl_sim_trail(a->sim, a->lastx, a->lasty, e->motion.x, e->motion.y,
                          a->stone > 2 ? a->stone / 2 : 1, STONE_WEIGHT / 2);
            a->lastx = e->motion.x;
            a->lasty = e->motion.y;
        }
        break;
    case SDL_MOUSEWHEEL:
        a->stone += e->wheel.y > 0 ? 1 : e->wheel.y < 0 ? -1 : 0;
        goto stone_changed;
    case SDL_KEYDOWN: {
        SDL_Keycode k = e->key.keysym.sym;
        switch (k) {
        case SDLK_ESCAPE:
        case SDLK_q:
            return 0;
        case SDLK_F1:
        case SDLK_h:
            a->help_on = !a->help_on;
            break;
        case SDLK_SPACE:
        case SDLK_p:
            toggle(a, &a->paused, "pause");
            break;
        case SDLK_n:
        case SDLK_PERIOD:
            a->paused = 1;
            a->step_once = 1;
            break;
        case SDLK_c:
        case SDLK_BACKSPACE:
            rpl_sim_reset(a->sim, a->o.seed);
            note(a, "water calmed");
            break;
        case SDLK_r:
            toggle(a, &a->rain_on, "rain");
            break;
        case SDLK_a:
            toggle(a, &a->auto_on, "autopilot");
            break;
        case SDLK_l:
            toggle(a, &a->view.shading, "light");
            break;
        case SDLK_o:
        case SDLK_TAB:
            a->overlay_on = !a->overlay_on;
            break;
        case SDLK_PLUS:
        case SDLK_EQUALS:
        case SDLK_KP_PLUS:
        case SDLK_UP:
        case SDLK_MINUS:
        case SDLK_KP_MINUS:
        case SDLK_DOWN: {
            int up = k == SDLK_PLUS || k == SDLK_EQUALS || k == SDLK_KP_PLUS || k == SDLK_UP;
            int s = a->view.strength + (up ? 2 : -2);
            a->view.strength = s < 0 ? 0 : s > RPL_STRENGTH_MAX ? RPL_STRENGTH_MAX : s;
            char msg[64];
            snprintf(msg, sizeof msg, "refraction %d/16", a->view.strength);
            note(a, msg);
            break;
        }
        case SDLK_LEFTBRACKET:
            a->stone--;
            goto stone_changed;
        case SDLK_RIGHTBRACKET:
            a->stone++;
            goto stone_changed;
        case SDLK_f:
        case SDLK_F11:
            a->fullscreen = !a->fullscreen;
            SDL_SetWindowFullscreen(a->win, a->fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0);
            break;
        case SDLK_RETURN:
            if (e->key.keysym.mod & KMOD_ALT) {
                a->fullscreen = !a->fullscreen;
                SDL_SetWindowFullscreen(a->win, a->fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0);
            }
            break;
        case SDLK_s:
        case SDLK_F12:
            take_screenshot(a);
            break;
        default:
            break;
        }
        break;
    }
    default:
        break;
    }
    return 1;

stone_changed:
    a->stone = a->stone < STONE_MIN ? STONE_MIN : a->stone > STONE_MAX ? STONE_MAX : a->stone;
    {
        char msg[64];
        snprintf(msg, sizeof msg, "stone size %d", a->stone);
        note(a, msg);
    }
    return 1;
}

static void run_window(app_t *a)
{
    uint64_t freq = SDL_GetPerformanceFrequency();
    uint64_t last = SDL_GetPerformanceCounter();
    double pending = 0; /* simulation time owed, in steps */
    for (;;) {
        SDL_Event e;
        while (SDL_PollEvent(&e))
            if (!handle_event(a, &e))
                return;
        uint64_t now = SDL_GetPerformanceCounter();
        double dt = (double)(now - last) / (double)freq;
        last = now;
        smooth(&a->t_frame, dt * 1000.0);

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
        }
        sim_frame(a, steps);
        render_frame(a);
        a->frame++;
        if (a->o.frames > 0 && a->frame >= a->o.frames)
            return;
        if (!a->o.vsync && steps == 0 && a->paused)
            SDL_Delay(5); /* nothing moves: don't spin */
    }
}

static void run_headless(app_t *a)
{
    uint64_t t0 = SDL_GetPerformanceCounter();
    for (long i = 0; i < a->o.frames; i++) {
        sim_frame(a, 1);
        uint64_t t1 = SDL_GetPerformanceCounter();
        refract(a);
        smooth(&a->t_refract, ms_since(t1));
        a->frame++;
    }
    double s = ms_since(t0) / 1000.0;
    printf("ripple: %ld frames of %dx%d in %.3f s (%.1f fps), path %s, %d thread%s\n", a->frame,
           a->o.w, a->o.h, s, s > 0 ? (double)a->frame / s : 0.0, rpl_kernels_name(a->sim->kern),
           a->sim->threads, a->sim->threads > 1 ? "s" : "");
}

/* ---- main -------------------------------------------------------------- */

static int die(int status, const char *msg)
{
    fprintf(stderr, "ripple: %s\n", msg);
    return status;
}

int main(int argc, char **argv)
{
    app_t a;
    char err[512];
    memset(&a, 0, sizeof a);
    if (app_parse_args(argc, argv, &a.o, err, sizeof err) != 0)
        return die(EXIT_USAGE, err);
    if (a.o.help) {
        fputs(app_usage(), stdout);
        return 0;
    }
    if (a.o.version) {
        printf("ripple %s\n", RPL_VERSION);
        return 0;
    }
    if (a.o.load_state && !a.o.size_set) {
        /* the snapshot decides the size */
        if (rpl_snapshot_probe(a.o.load_state, &a.o.w, &a.o.h, err, sizeof err) != RPL_OK)
            return die(EXIT_USAGE, err);
        if ((long)a.o.w * a.o.scale > APP_WINDOW_MAX || (long)a.o.h * a.o.scale > APP_WINDOW_MAX)
            return die(EXIT_USAGE, "the snapshot's size is too large for this scale");
    }
    const char *outs[2] = { a.o.save_state, a.o.screenshot };
    for (int i = 0; i < 2; i++)
        if (outs[i] && !writable_target(outs[i])) {
            snprintf(err, sizeof err, "cannot write '%s': no such writable directory", outs[i]);
            return die(EXIT_USAGE, err);
        }

    /* The kernel path: --simd, else RIPPLE_SIMD, else the best for this CPU. */
    const rpl_kernels_t *kern = NULL;
    const char *want = a.o.simd ? a.o.simd : getenv("RIPPLE_SIMD");
    rpl_status st = rpl_kernels_find(a.o.simd, &kern);
    if (st != RPL_OK) {
        snprintf(err, sizeof err, "%s '%s': %s", a.o.simd ? "--simd" : "RIPPLE_SIMD", want,
                 st == RPL_ENOTSUP ? "this path is not available on this machine"
                                   : "no such path (auto, c, mmx, sse2, avx2)");
        return die(EXIT_USAGE, err);
    }
    a.sim = rpl_sim_create(a.o.w, a.o.h, a.o.seed, &st);
    if (!a.sim) {
        snprintf(err, sizeof err, "cannot create a %dx%d field: %s", a.o.w, a.o.h, rpl_strerror(st));
        return die(st == RPL_EINVAL ? EXIT_USAGE : 1, err);
    }
    rpl_sim_set_kernels(a.sim, kern);
    if (rpl_sim_set_threads(a.sim, a.o.threads ? a.o.threads : rpl_cpu_count()) != RPL_OK)
        fprintf(stderr, "ripple: %s; going on with one\n", rpl_sim_error(a.sim));
    int status = 0;
    size_t npx = (size_t)a.o.w * (size_t)a.o.h;
    a.fmt = a.o.bpp == 8 ? RPL_INDEX8 : a.o.bpp == 16 ? RPL_RGB565 : RPL_XRGB8888;
    a.bytes = rpl_format_bytes(a.fmt);
    a.bg = malloc(npx * 4);
    a.fb = calloc(npx, (size_t)a.bytes);
    a.ovl = calloc(npx, 4);
    if (!a.bg || !a.fb || !a.ovl) {
        status = die(1, "out of memory");
        goto done;
    }
    char pathbuf[4096];
    const char *image = a.o.image ? a.o.image : default_image(pathbuf, sizeof pathbuf);
    if (!image) {
        status = die(EXIT_USAGE, "cannot find assets/background.png (give one with --image)");
        goto done;
    }
    if (load_background(&a, image, err, sizeof err) != 0) {
        status = die(EXIT_USAGE, err);
        goto done;
    }
    a.bd = rpl_backdrop_create(a.bg, a.o.w, a.o.h, a.fmt, &st);
    static const Uint32 sdl_fmt[] = { SDL_PIXELFORMAT_RGB888, SDL_PIXELFORMAT_RGB565,
                                      SDL_PIXELFORMAT_INDEX8 };
    a.fb_surf = SDL_CreateRGBSurfaceWithFormatFrom(a.fb, a.o.w, a.o.h, a.o.bpp,
                                                   a.o.w * a.bytes, sdl_fmt[a.fmt]);
    if (a.fmt == RPL_INDEX8) {
        a.show_surf = SDL_CreateRGBSurfaceWithFormat(0, a.o.w, a.o.h, 32, SDL_PIXELFORMAT_RGB888);
        if (a.bd && a.fb_surf) {
            SDL_Color pal[256];
            const uint32_t *p = rpl_backdrop_palette(a.bd);
            for (int i = 0; i < 256; i++)
                pal[i] = (SDL_Color){ (Uint8)(p[i] >> 16), (Uint8)(p[i] >> 8), (Uint8)p[i], 255 };
            SDL_SetPaletteColors(a.fb_surf->format->palette, pal, 0, 256);
        }
    }
    if (!a.bd || !a.fb_surf || (a.fmt == RPL_INDEX8 && !a.show_surf)) {
        status = die(1, "cannot prepare the framebuffer");
        goto done;
    }
    if (a.o.load_state && rpl_sim_load(a.sim, a.o.load_state) != RPL_OK) {
        status = die(EXIT_USAGE, rpl_sim_error(a.sim));
        goto done;
    }

    rpl_autopilot_init(&a.ap, a.o.seed);
    int unit = (a.o.w < a.o.h ? a.o.w : a.o.h) / 240;
    unit = unit < 1 ? 1 : unit;
    a.rain = (rpl_rain_t){ 120, unit, 2 * unit, 24, 80 };
    a.view.strength = RPL_STRENGTH_ONE;
    a.view.shading = 1;
    a.stone = 4 * unit;
    a.rain_on = a.o.rain;
    a.auto_on = a.o.autopilot;
    a.overlay_on = 1;

    if (a.o.headless) {
        run_headless(&a);
    } else {
        if (video_open(&a, err, sizeof err) != 0) {
            video_close(&a);
            status = die(1, err);
            goto done;
        }
        run_window(&a);
        video_close(&a);
    }

    if (a.o.screenshot && screenshot(&a, a.o.screenshot, err, sizeof err) != 0)
        status = die(1, err);
    if (a.o.save_state && rpl_sim_save(a.sim, a.o.save_state) != RPL_OK)
        status = die(1, rpl_sim_error(a.sim));
done:
    SDL_FreeSurface(a.fb_surf);
    SDL_FreeSurface(a.show_surf);
    rpl_backdrop_destroy(a.bd);
    free(a.bg);
    free(a.fb);
    free(a.ovl);
    rpl_sim_destroy(a.sim);
    return status;
}
