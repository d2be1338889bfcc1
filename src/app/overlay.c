/* app/overlay.c - the overlay over the water: figures, state, help and notes, in the built-in font. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "ripple_support.h"

/* Adds a rectangle (clipped to the canvas) to the overlay's boxes, what
 * has to be laid over the water: kept apart, so that a corner's hint and
 * a panel at the top do not make one box over the whole frame, but
 * merged with a box it overlaps (and so never laid twice). */
static void mark(app_t *a, int x, int y, int w, int h)
{
    int x0 = x < 0 ? 0 : x, y0 = y < 0 ? 0 : y;
    int x1 = x + w > a->ovl_w ? a->ovl_w : x + w, y1 = y + h > a->ovl_h ? a->ovl_h : y + h;
    if (x1 <= x0 || y1 <= y0)
        return;
    SDL_Rect r = { x0, y0, x1 - x0, y1 - y0 };
    for (int merged = 1; merged;) {
        merged = 0;
        for (int i = 0; i < a->ovl_n; i++)
            if (SDL_HasIntersection(&a->ovl_box[i], &r)) {
                SDL_UnionRect(&a->ovl_box[i], &r, &r);
                a->ovl_box[i] = a->ovl_box[--a->ovl_n];
                merged = 1;
                break;
            }
    }
    if (a->ovl_n == OVL_BOXES) { /* no room: into the last one */
        SDL_UnionRect(&a->ovl_box[OVL_BOXES - 1], &r, &r);
        a->ovl_n--;
    }
    a->ovl_box[a->ovl_n++] = r;
}

/* One element of the overlay: a text, on a translucent panel unless
 * alpha is 0; drawn into the ARGB overlay, and laid straight over an
 * XRGB8888 window surface by app_lay_overlay. */
static void item(app_t *a, int px, int py, int pw, int ph, int alpha, int tx, int ty,
                 const char *text, uint32_t color, int sc)
{
    if (a->ovl_items_n == OVL_BOXES)
        return;
    ovl_item_t *it = &a->ovl_items[a->ovl_items_n++];
    it->panel = (SDL_Rect){ px, py, pw, ph };
    it->alpha = alpha;
    it->tx = tx, it->ty = ty;
    snprintf(it->text, sizeof it->text, "%s", text);
    it->color = color;
    it->sc = sc;
    mark(a, px, py, pw, ph);
    int x0 = px < 0 ? 0 : px, y0 = py < 0 ? 0 : py;
    int x1 = px + pw > a->ovl_w ? a->ovl_w : px + pw;
    int y1 = py + ph > a->ovl_h ? a->ovl_h : py + ph;
    for (int yy = y0; alpha && yy < y1; yy++)
        for (int xx = x0; xx < x1; xx++)
            a->ovl[(size_t)yy * a->ovl_w + xx] = (uint32_t)alpha << 24;
    rpl_font_draw(a->ovl, (ptrdiff_t)a->ovl_w * 4, a->ovl_w, a->ovl_h, tx, ty, text, color, sc);
}

/* The part of item it's panel inside the canvas (w x h), in *r; 0 if
 * none or it has no panel. */
static int panel_part(const ovl_item_t *it, int w, int h, SDL_Rect *r)
{
    const SDL_Rect canvas = { 0, 0, w, h };
    return it->alpha && SDL_IntersectRect(&it->panel, &canvas, r);
}

/* Whether the n pixels of row y from x lie in a panel: app_lay_overlay
 * lays the text there with the panel, in one pass. */
static int in_panel(const app_t *a, int x, int y, int n)
{
    for (int i = 0; i < a->ovl_items_n; i++) {
        SDL_Rect p;
        if (panel_part(&a->ovl_items[i], a->ovl_w, a->ovl_h, &p) && y >= p.y && y < p.y + p.h &&
            x >= p.x && x + n <= p.x + p.w)
            return 1;
    }
    return 0;
}

/* The overlay's opaque pixels (text and its shadow) outside its panels as
 * runs along rows, found once each time the overlay changes. */
static void find_runs(app_t *a)
{
    a->ovl_runs_n = 0;
    for (int i = 0; i < a->ovl_n; i++) {
        const SDL_Rect *b = &a->ovl_box[i];
        for (int y = b->y; y < b->y + b->h; y++) {
            const uint32_t *row = a->ovl + (size_t)y * a->ovl_w;
            for (int x = b->x; x < b->x + b->w; x++) {
                if (row[x] >> 24 != 0xFF)
                    continue;
                int x1 = x + 1;
                while (x1 < b->x + b->w && row[x1] >> 24 == 0xFF)
                    x1++;
                if (in_panel(a, x, y, x1 - x)) {
                    x = x1;
                    continue;
                }
                if (a->ovl_runs_n == a->ovl_runs_max) {
                    int max = a->ovl_runs_max ? a->ovl_runs_max * 2 : 1024;
                    ovl_run_t *r = realloc(a->ovl_runs, (size_t)max * sizeof *r);
                    if (!r)
                        return; /* out of memory: the text goes without some runs */
                    a->ovl_runs = r, a->ovl_runs_max = max;
                }
                a->ovl_runs[a->ovl_runs_n++] = (ovl_run_t){ x, y, x1 - x };
                x = x1;
            }
        }
    }
}

/* One pixel of a panel: c darkened to keep/256 of each of R, G and B (its
 * top byte kept), as rpl_font_panel does it; or, where the overlay's pixel
 * t is opaque (its text), t. */
static inline uint32_t panel_px(uint32_t c, uint32_t t, uint32_t k)
{
    if (t >> 24 == 0xFF)
        return t;
    /* R and B scale together without carrying into each other: 0xFF * 256
     * fits in the 16 bits each has */
    return (c & 0xFF000000u) | ((((c & 0x00FF00FFu) * k) >> 8) & 0x00FF00FFu) |
           ((((c & 0x0000FF00u) * k) >> 8) & 0x0000FF00u);
}

/* n pixels of a row under a panel of keep k: darkened, the text of the
 * overlay's row o laid in the same pass.  Four at a time in the
 * compilers' vectors where they have them (SSE2's registers on x86-64):
 * an opaque pixel's alpha shifted down with its sign is -1, no other's. */
#if defined(__GNUC__)
typedef int32_t v4i_t __attribute__((vector_size(16)));
typedef uint32_t v4u_t __attribute__((vector_size(16)));
#define PANEL_LOOP(dark)                                                             \
    for (; i + 4 <= n; i += 4) {                                                    \
        v4u_t c, t;                                                                 \
        memcpy(&c, row + i, sizeof c);                                              \
        memcpy(&t, o + i, sizeof t);                                                \
        const v4u_t text = (v4u_t)(((v4i_t)t >> 24) == -1);                         \
        const v4u_t d = ((dark) & ~text) | (t & text);                              \
        memcpy(row + i, &d, sizeof d);                                              \
    }
#endif
static void panel_row(uint32_t *row, const uint32_t *o, int n, uint32_t k)
{
    int i = 0;
#if defined(__GNUC__)
    const v4u_t zero = { 0, 0, 0, 0 };
    const v4u_t top = zero + 0xFF000000u, half = zero + 0x007F7F7Fu;
    const v4u_t rb = zero + 0x00FF00FFu, g = zero + 0x0000FF00u;
    if (k == 128) { /* half: a shift */
        PANEL_LOOP((c & top) | ((c >> 1) & half))
    } else {
        PANEL_LOOP((c & top) | ((((c & rb) * k) >> 8) & rb) | ((((c & g) * k) >> 8) & g))
    }
#endif
    for (; i < n; i++)
        row[i] = panel_px(row[i], o[i], k);
}

void app_lay_overlay(const app_t *a, uint32_t *px, ptrdiff_t pitch, int w, int h)
{
    w = w < a->ovl_w ? w : a->ovl_w;
    h = h < a->ovl_h ? h : a->ovl_h;
    /* in the items' order, as panels over panels darken twice */
    for (int i = 0; i < a->ovl_items_n; i++) {
        const ovl_item_t *it = &a->ovl_items[i];
        SDL_Rect p;
        if (!panel_part(it, w, h, &p))
            continue;
        uint32_t k = (uint32_t)(it->alpha > 256 ? 0 : 256 - it->alpha);
        for (int y = p.y; y < p.y + p.h; y++)
            panel_row((uint32_t *)(void *)((char *)px + (ptrdiff_t)y * pitch) + p.x,
                      a->ovl + (size_t)y * a->ovl_w + p.x, p.w, k);
    }
    for (int i = 0; i < a->ovl_runs_n; i++) {
        const ovl_run_t *r = &a->ovl_runs[i];
        memcpy((char *)px + (ptrdiff_t)r->y * pitch + (ptrdiff_t)r->x * 4,
               a->ovl + (size_t)r->y * a->ovl_w + r->x, (size_t)r->n * 4);
    }
}

int app_overlay_scale(app_t *a, int s)
{
    if (s == a->ovl_s)
        return 0;
    size_t w = (size_t)a->o.w * (size_t)s, h = (size_t)a->o.h * (size_t)s;
    if (w * h > a->ovl_cap) { /* a smaller one fits in the room it has */
        uint32_t *px = malloc(w * h * 4);
        if (!px)
            return -1; /* the smaller canvas it has stays, inside the window */
        free(a->ovl);
        a->ovl = px, a->ovl_cap = w * h;
    }
    memset(a->ovl, 0, w * h * 4);
    a->ovl_w = (int)w, a->ovl_h = (int)h, a->ovl_s = s;
    a->ovl_key[0] = '\0'; /* laid out again, on the new canvas */
    a->ovl_n = 0, a->ovl_items_n = 0, a->ovl_runs_n = 0;
    return 1;
}

const char *app_present_name(const app_t *a)
{
    return a->present == PRESENT_SURFACE ? "surface" : "texture";
}

size_t app_overlay_head(const app_t *a, char *buf, size_t len, const char *draw)
{
    double fps = a->t_frame > 0 ? 1000.0 / a->t_frame : 0;
    int n = snprintf(buf, len, "%.0f fps  %.2f ms\nsim %.2f  %s %.2f  pres %.2f\n%dx%dx%d ", fps,
                     a->t_frame, a->t_sim, draw, a->t_refract, a->t_present, a->o.w, a->o.h,
                     8 * rpl_format_bytes(a->o.fmt));
    return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

/* Redraws the overlay when what it shows has changed: the scene's
 * figures (refreshed four times a second) and state, the help, a note;
 * returns 1 if so. */
int app_draw_overlay(app_t *a)
{
    int w = a->ovl_w, h = a->ovl_h; /* the window's pixels over the field */
    int sc = a->o.w >= 1280 ? 2 : 1; /* the text's size does not follow the scale */
    uint32_t now = SDL_GetTicks();
    int due = SDL_TICKS_PASSED(now, a->stats_next_ms);
    char state[96]; /* with the figures, room enough in the panel's 512 */
    a->scene->text(a, due ? a->stats : NULL, sizeof a->stats, state, sizeof state);
    if (due)
        a->stats_next_ms = now + 250;
    int note_on = a->note[0] && !SDL_TICKS_PASSED(now, a->note_until);
    char key[sizeof a->ovl_key];
    snprintf(key, sizeof key, "%p%d%d%d|%s|%s|%s", (const void *)a->scene, a->overlay_on,
             a->help_on, note_on, a->stats, state, note_on ? a->note : "");
    if (strcmp(key, a->ovl_key) == 0)
        return 0;
    memcpy(a->ovl_key, key, sizeof key);
    memset(a->ovl, 0, (size_t)w * h * 4);
    a->ovl_n = 0;
    a->ovl_items_n = 0;
    if (a->overlay_on) {
        char buf[512];
        snprintf(buf, sizeof buf, "%s%s", a->stats, state);
        int tw = rpl_font_text_width(buf, sc), th = rpl_font_text_height(buf, sc);
        item(a, 2, 2, tw + 6 * sc, th + 4 * sc, 128, 2 + 3 * sc, 2 + 2 * sc, buf, 0xE8F4FF, sc);
        if (!a->help_on) {
            const char *hint = "F1: help";
            int hw = rpl_font_text_width(hint, sc), hh = rpl_font_text_height(hint, sc);
            int x = w - hw - 4, y = h - 12 * sc;
            item(a, x, y, hw, hh, 0, x, y, hint, 0xC0D0E0, sc);
        }
    }
    if (a->help_on) {
        const char *help_text = a->scene->help;
        int tw = rpl_font_text_width(help_text, sc), th = rpl_font_text_height(help_text, sc);
        int x = (w - tw) / 2, y = (h - th) / 2;
        item(a, x - 8 * sc, y - 6 * sc, tw + 16 * sc, th + 12 * sc, 200, x, y, help_text,
             0xFFFFFF, sc);
    }
    if (note_on) { /* one line or more (a refused change says why under it) */
        int tw = rpl_font_text_width(a->note, sc), th = rpl_font_text_height(a->note, sc);
        int x = (w - tw) / 2, y = h - 14 * sc - th;
        item(a, x - 4, y - 3, tw + 8, th + 6, 160, x, y, a->note, 0xFFF0A0, sc);
    }
    find_runs(a);
    return 1;
}
