/* app/overlay.c - the overlay over the water: figures, state, help and notes, in the built-in font. */
#include <stdio.h>
#include <string.h>

#include "app/app.h"

void app_note(app_t *a, const char *msg)
{
    snprintf(a->note, sizeof a->note, "%s", msg);
    a->note_until = SDL_GetTicks() + 3000;
}

static const char *const help_text =
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
/* Grows the overlay's box (what has to be laid over the water) by a
 * rectangle, clipped to the field. */
static void mark(app_t *a, int x, int y, int w, int h)
{
    int x0 = x < 0 ? 0 : x, y0 = y < 0 ? 0 : y;
    int x1 = x + w > a->o.w ? a->o.w : x + w, y1 = y + h > a->o.h ? a->o.h : y + h;
    if (x1 <= x0 || y1 <= y0)
        return;
    SDL_Rect r = { x0, y0, x1 - x0, y1 - y0 };
    if (a->ovl_box.w > 0)
        SDL_UnionRect(&a->ovl_box, &r, &r);
    a->ovl_box = r;
}

static void panel(app_t *a, int x, int y, int w, int h, int alpha)
{
    mark(a, x, y, w, h);
    int x0 = x < 0 ? 0 : x, y0 = y < 0 ? 0 : y;
    int x1 = x + w > a->o.w ? a->o.w : x + w, y1 = y + h > a->o.h ? a->o.h : y + h;
    for (int yy = y0; yy < y1; yy++)
        for (int xx = x0; xx < x1; xx++)
            a->ovl[(size_t)yy * a->o.w + xx] = (uint32_t)alpha << 24;
}

/* Redraws the overlay when what it shows has changed; returns 1 if so. */
int app_draw_overlay(app_t *a)
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
                 "%dx%dx%d %s x%d  awake %u%%\n%s  ",
                 fps, a->t_frame, a->t_sim, a->t_refract, a->t_present, w, h, a->o.bpp,
                 rpl_kernels_name(rpl_sim_kernels(a->sim)), rpl_sim_threads(a->sim),
                 st.tiles ? (st.stepped * 100 + st.tiles / 2) / st.tiles : 0,
                 a->present == PRESENT_SURFACE ? "surface" : "texture");
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
    a->ovl_box = (SDL_Rect){ 0, 0, 0, 0 };
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
            int hw = rpl_font_text_width(hint, sc), hh = rpl_font_text_height(hint, sc);
            mark(a, w - hw - 4, h - 12 * sc, hw, hh);
            rpl_font_draw(a->ovl, pitch, w, h, w - hw - 4, h - 12 * sc, hint, 0xC0D0E0, sc);
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
