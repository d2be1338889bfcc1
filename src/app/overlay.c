/* app/overlay.c - the overlay over the water: figures, state, help and notes, in the built-in font, laid over the frame on a window surface or through SDL's renderer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/overlay.h"
#include "ripple_support.h"

/* An element of the overlay: a text on a translucent panel (alpha 0: on
 * nothing), in the canvas's coordinates. */
typedef struct ovl_item {
    SDL_Rect panel;
    int alpha;
    int tx, ty, sc;
    uint32_t color;
    char text[1024];
} ovl_item_t;

/* A run of the overlay's opaque pixels along a row. */
typedef struct ovl_run {
    int x, y, n;
} ovl_run_t;

struct app_overlay {
    int field_w, field_h; /* the field: the canvas at scale 1 */
    uint32_t *px;   /* the canvas, ARGB, drawn over the water by the GPU or SDL */
    int w, h, s;    /* its size: the field's rectangle in the window's pixels,
                     * the field shown s times larger: the text keeps its size */
    size_t cap;     /* the pixels px has room for */
    char key[2560]; /* what it shows now */
    SDL_Rect box[OVL_BOXES]; /* where it has anything to show */
    int n;
    ovl_item_t items[OVL_BOXES]; /* what it shows, to lay over a surface */
    int items_n;
    ovl_run_t *runs; /* its opaque pixels: the text and shadows */
    int runs_n, runs_max;
    SDL_Rect laid[OVL_BOXES]; /* where it lies on the window surface */
    int laid_n;
    void *under;     /* the surface's pixels under it, to take it off again */
    size_t under_len;
    SDL_Renderer *ren; /* the renderer its texture is for (NULL: a surface) */
    SDL_Texture *tex;
    SDL_Surface *surf; /* px as a surface, blended over the window surface */
    char stats[400];   /* the figures, refreshed a few times a second */
    uint32_t stats_next_ms;
    char note[APP_NOTE_MAX]; /* a message shown for a while */
    uint32_t note_until;
    int figures_on, help_on; /* what it shows besides the note */
    /* the timedemo's results screen, over everything else ("": none) */
    char results_title[128], results_body[1024], results_hint[128];
};

int app_overlay_create(int w, int h, int figures_on, app_overlay_t **out, char **err)
{
    app_overlay_t *o = calloc(1, sizeof *o);
    size_t npx = (size_t)w * (size_t)h;
    uint32_t *px = o ? calloc(npx, 4) : NULL;
    if (!px) {
        free(o);
        *out = NULL;
        *err = app_format("out of memory for a %dx%d field", w, h);
        return EXIT_FAILURE;
    }
    o->field_w = w, o->field_h = h;
    o->px = px;
    o->w = w, o->h = h, o->s = 1, o->cap = npx;
    o->figures_on = figures_on;
    *out = o;
    return 0;
}

void app_overlay_destroy(app_overlay_t *o)
{
    if (!o)
        return;
    app_overlay_detach(o);
    free(o->px);
    free(o->runs);
    free(o->under);
    free(o);
}

void app_overlay_toggle(app_overlay_t *o)
{
    o->figures_on = !o->figures_on;
}

void app_overlay_toggle_help(app_overlay_t *o)
{
    o->help_on = !o->help_on;
}

void app_overlay_results(app_overlay_t *o, const char *title, const char *body, const char *hint)
{
    snprintf(o->results_title, sizeof o->results_title, "%s", title ? title : "");
    snprintf(o->results_body, sizeof o->results_body, "%s", body ? body : "");
    snprintf(o->results_hint, sizeof o->results_hint, "%s", hint ? hint : "");
}

void app_note(app_t *a, const char *msg)
{
    app_overlay_t *o = a->overlay;
    if (!o)
        return;
    snprintf(o->note, sizeof o->note, "%s", msg);
    o->note_until = SDL_GetTicks() + 3000;
}

/* Adds a rectangle (clipped to the canvas) to the overlay's boxes, what
 * has to be laid over the water: kept apart, so that a corner's hint and
 * a panel at the top do not make one box over the whole frame, but
 * merged with a box it overlaps (and so never laid twice). */
static void mark(app_overlay_t *o, int x, int y, int w, int h)
{
    int x0 = x < 0 ? 0 : x, y0 = y < 0 ? 0 : y;
    int x1 = x + w > o->w ? o->w : x + w, y1 = y + h > o->h ? o->h : y + h;
    if (x1 <= x0 || y1 <= y0)
        return;
    SDL_Rect r = { x0, y0, x1 - x0, y1 - y0 };
    for (int merged = 1; merged;) {
        merged = 0;
        for (int i = 0; i < o->n; i++)
            if (SDL_HasIntersection(&o->box[i], &r)) {
                SDL_UnionRect(&o->box[i], &r, &r);
                o->box[i] = o->box[--o->n];
                merged = 1;
                break;
            }
    }
    if (o->n == OVL_BOXES) { /* no room: into the last one */
        SDL_UnionRect(&o->box[OVL_BOXES - 1], &r, &r);
        o->n--;
    }
    o->box[o->n++] = r;
}

/* One element of the overlay: a text, on a translucent panel unless
 * alpha is 0; drawn into the ARGB overlay, and laid straight over an
 * XRGB8888 window surface by lay. */
static void item(app_overlay_t *o, int px, int py, int pw, int ph, int alpha, int tx, int ty,
                 const char *text, uint32_t color, int sc)
{
    if (o->items_n == OVL_BOXES)
        return;
    ovl_item_t *it = &o->items[o->items_n++];
    it->panel = (SDL_Rect){ px, py, pw, ph };
    it->alpha = alpha;
    it->tx = tx, it->ty = ty;
    snprintf(it->text, sizeof it->text, "%s", text);
    it->color = color;
    it->sc = sc;
    mark(o, px, py, pw, ph);
    int x0 = px < 0 ? 0 : px, y0 = py < 0 ? 0 : py;
    int x1 = px + pw > o->w ? o->w : px + pw;
    int y1 = py + ph > o->h ? o->h : py + ph;
    for (int yy = y0; alpha && yy < y1; yy++)
        for (int xx = x0; xx < x1; xx++)
            o->px[(size_t)yy * o->w + xx] = (uint32_t)alpha << 24;
    rpl_font_draw(o->px, (ptrdiff_t)o->w * 4, o->w, o->h, tx, ty, text, color, sc);
}

/* The part of item it's panel inside the canvas (w x h), in *r; 0 if
 * none or it has no panel. */
static int panel_part(const ovl_item_t *it, int w, int h, SDL_Rect *r)
{
    const SDL_Rect canvas = { 0, 0, w, h };
    return it->alpha && SDL_IntersectRect(&it->panel, &canvas, r);
}

/* Whether the n pixels of row y from x lie in a panel: lay
 * lays the text there with the panel, in one pass. */
static int in_panel(const app_overlay_t *o, int x, int y, int n)
{
    for (int i = 0; i < o->items_n; i++) {
        SDL_Rect p;
        if (panel_part(&o->items[i], o->w, o->h, &p) && y >= p.y && y < p.y + p.h &&
            x >= p.x && x + n <= p.x + p.w)
            return 1;
    }
    return 0;
}

/* The overlay's opaque pixels (text and its shadow) outside its panels as
 * runs along rows, found once each time the overlay changes. */
static void find_runs(app_overlay_t *o)
{
    o->runs_n = 0;
    for (int i = 0; i < o->n; i++) {
        const SDL_Rect *b = &o->box[i];
        for (int y = b->y; y < b->y + b->h; y++) {
            const uint32_t *row = o->px + (size_t)y * o->w;
            for (int x = b->x; x < b->x + b->w; x++) {
                if (row[x] >> 24 != 0xFF)
                    continue;
                int x1 = x + 1;
                while (x1 < b->x + b->w && row[x1] >> 24 == 0xFF)
                    x1++;
                if (in_panel(o, x, y, x1 - x)) {
                    x = x1;
                    continue;
                }
                if (o->runs_n == o->runs_max) {
                    int max = o->runs_max ? o->runs_max * 2 : 1024;
                    ovl_run_t *r = realloc(o->runs, (size_t)max * sizeof *r);
                    if (!r)
                        return; /* out of memory: the text goes without some runs */
                    o->runs = r, o->runs_max = max;
                }
                o->runs[o->runs_n++] = (ovl_run_t){ x, y, x1 - x };
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

/* Lays the overlay straight over w x h XRGB8888 pixels, the field's
 * rectangle in the window: darkened panels and text, no blending pass. */
static void lay(const app_overlay_t *o, uint32_t *px, ptrdiff_t pitch, int w, int h)
{
    w = w < o->w ? w : o->w;
    h = h < o->h ? h : o->h;
    /* in the items' order, as panels over panels darken twice */
    for (int i = 0; i < o->items_n; i++) {
        const ovl_item_t *it = &o->items[i];
        SDL_Rect p;
        if (!panel_part(it, w, h, &p))
            continue;
        uint32_t k = (uint32_t)(it->alpha > 256 ? 0 : 256 - it->alpha);
        for (int y = p.y; y < p.y + p.h; y++)
            panel_row((uint32_t *)(void *)((char *)px + (ptrdiff_t)y * pitch) + p.x,
                      o->px + (size_t)y * o->w + p.x, p.w, k);
    }
    for (int i = 0; i < o->runs_n; i++) {
        const ovl_run_t *r = &o->runs[i];
        memcpy((char *)px + (ptrdiff_t)r->y * pitch + (ptrdiff_t)r->x * 4,
               o->px + (size_t)r->y * o->w + r->x, (size_t)r->n * 4);
    }
}

/* The canvas for the field shown s times larger, an answer rather than a
 * status: 1 when it is a new one (to be drawn again, and handed anew to
 * SDL), 0 when it was already, -1 when memory ran out (the old one,
 * smaller, stays: the overlay covers less of the window). */
static int new_canvas(app_overlay_t *o, int s)
{
    if (s == o->s)
        return 0;
    size_t w = (size_t)o->field_w * (size_t)s, h = (size_t)o->field_h * (size_t)s;
    if (w * h > o->cap) { /* a smaller one fits in the room it has */
        uint32_t *px = malloc(w * h * 4);
        if (!px)
            return -1; /* the smaller canvas it has stays, inside the window */
        free(o->px);
        o->px = px, o->cap = w * h;
    }
    memset(o->px, 0, w * h * 4);
    o->w = (int)w, o->h = (int)h, o->s = s;
    o->key[0] = '\0'; /* laid out again, on the new canvas */
    o->n = 0, o->items_n = 0, o->runs_n = 0;
    return 1;
}

/* The canvas as a texture of o->ren, its size: an answer, 1 if SDL made
 * it, 0 if not (SDL_GetError says why; without one the overlay hides). */
static int make_texture(app_overlay_t *o)
{
    if (o->tex)
        SDL_DestroyTexture(o->tex);
    o->tex = SDL_CreateTexture(o->ren, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_STREAMING,
                               o->w, o->h);
    if (o->tex)
        SDL_SetTextureBlendMode(o->tex, SDL_BLENDMODE_BLEND);
    return o->tex != NULL;
}

/* The canvas as a surface, to blend over a window surface that is not
 * 32-bit: 1 if SDL made it, 0 if not, as make_texture. */
static int make_surface(app_overlay_t *o)
{
    if (o->surf)
        SDL_FreeSurface(o->surf);
    o->surf = SDL_CreateRGBSurfaceWithFormatFrom(o->px, o->w, o->h, 32, o->w * 4,
                                                 SDL_PIXELFORMAT_ARGB8888);
    if (o->surf)
        SDL_SetSurfaceBlendMode(o->surf, SDL_BLENDMODE_BLEND);
    return o->surf != NULL;
}

int app_overlay_attach(app_overlay_t *o, SDL_Renderer *ren, char **err)
{
    o->ren = ren;
    if (ren ? make_texture(o) : make_surface(o))
        return 0;
    /* the texture's message names the field's size, as the frame's does */
    *err = ren ? app_format("cannot create a %dx%d texture: %s", o->field_w, o->field_h,
                            SDL_GetError())
               : app_format("cannot make the overlay: %s", SDL_GetError());
    return EXIT_FAILURE;
}

void app_overlay_detach(app_overlay_t *o)
{
    if (o->surf)
        SDL_FreeSurface(o->surf);
    if (o->tex)
        SDL_DestroyTexture(o->tex);
    o->surf = NULL, o->tex = NULL, o->ren = NULL;
}

void app_overlay_fit(app_overlay_t *o, int s)
{
    if (new_canvas(o, s) != 1)
        return;
    if (o->ren)
        make_texture(o);
    else
        make_surface(o);
}

size_t app_overlay_head(const app_t *a, char *buf, size_t len, const char *draw)
{
    const app_timing_t *t = &a->timing;
    double fps = t->frame > 0 ? 1000.0 / t->frame : 0;
    int n = snprintf(buf, len, "%.0f fps  %.2f ms\nsim %.2f  %s %.2f  pres %.2f\n%dx%dx%d ", fps,
                     t->frame, t->sim, draw, t->refract, t->present, a->o.w, a->o.h,
                     8 * rpl_format_bytes(a->o.fmt));
    return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

/* The results screen: a panel in the middle, the title twice the size
 * of the figures under it, the hint at its foot; the panel dark enough
 * for the figures to read on any water. */
static void results(app_overlay_t *o, int sc)
{
    const char *title = o->results_title, *body = o->results_body, *hint = o->results_hint;
    int ts = 2 * sc, pad = 10 * sc, gap = 6 * sc;
    int tw = rpl_font_text_width(title, ts), th = rpl_font_text_height(title, ts);
    int bw = rpl_font_text_width(body, sc), bh = rpl_font_text_height(body, sc);
    int hw = rpl_font_text_width(hint, sc), hh = rpl_font_text_height(hint, sc);
    int inner = tw > bw ? tw : bw;
    inner = inner > hw ? inner : hw;
    int pw = inner + 2 * pad, ph = th + gap + bh + (hh ? gap + hh : 0) + 2 * pad;
    int px = (o->w - pw) / 2, py = (o->h - ph) / 2;
    px = px < 0 ? 0 : px, py = py < 0 ? 0 : py;
    item(o, px, py, pw, ph, 208, px + pad, py + pad + th + gap, body, 0xE8F4FF, sc);
    item(o, px, py, pw, ph, 0, px + (pw - tw) / 2, py + pad, title, 0xFFE08A, ts);
    if (hh)
        item(o, px, py, pw, ph, 0, px + (pw - hw) / 2, py + ph - pad - hh + sc, hint, 0x9FB4C8, sc);
}

/* Redraws the overlay when what it shows has changed: the scene's
 * figures (refreshed four times a second) and state, the help, a note;
 * returns 1 if so. */
int app_draw_overlay(app_t *a)
{
    app_overlay_t *o = a->overlay;
    int w = o->w, h = o->h; /* the window's pixels over the field */
    int sc = a->o.w >= 1280 ? 2 : 1; /* the text's size does not follow the scale */
    uint32_t now = SDL_GetTicks();
    int due = SDL_TICKS_PASSED(now, o->stats_next_ms);
    char state[96]; /* with the figures, room enough in the panel's 512 */
    a->scene->text(a, due ? o->stats : NULL, sizeof o->stats, state, sizeof state);
    if (due)
        o->stats_next_ms = now + 250;
    int note_on = o->note[0] && !SDL_TICKS_PASSED(now, o->note_until);
    char key[sizeof o->key];
    snprintf(key, sizeof key, "%p%d%d%d|%s|%s|%s|%s|%s|%s", (const void *)a->scene,
             o->figures_on, o->help_on, note_on, o->stats, state, note_on ? o->note : "",
             o->results_title, o->results_body, o->results_hint);
    if (strcmp(key, o->key) == 0)
        return 0;
    memcpy(o->key, key, sizeof key);
    memset(o->px, 0, (size_t)w * h * 4);
    o->n = 0;
    o->items_n = 0;
    if (o->results_body[0]) {
        results(o, sc);
    } else if (o->figures_on) {
        char buf[512];
        snprintf(buf, sizeof buf, "%s%s", o->stats, state);
        int tw = rpl_font_text_width(buf, sc), th = rpl_font_text_height(buf, sc);
        item(o, 2, 2, tw + 6 * sc, th + 4 * sc, 128, 2 + 3 * sc, 2 + 2 * sc, buf, 0xE8F4FF, sc);
        if (!o->help_on) {
            const char *hint = "F1: help";
            int hw = rpl_font_text_width(hint, sc), hh = rpl_font_text_height(hint, sc);
            int x = w - hw - 4, y = h - 12 * sc;
            item(o, x, y, hw, hh, 0, x, y, hint, 0xC0D0E0, sc);
        }
    }
    if (o->help_on && !o->results_body[0]) {
        const char *help_text = a->scene->help;
        int tw = rpl_font_text_width(help_text, sc), th = rpl_font_text_height(help_text, sc);
        int x = (w - tw) / 2, y = (h - th) / 2;
        item(o, x - 8 * sc, y - 6 * sc, tw + 16 * sc, th + 12 * sc, 200, x, y, help_text,
             0xFFFFFF, sc);
    }
    if (note_on) { /* one line or more (a refused change says why under it) */
        int tw = rpl_font_text_width(o->note, sc), th = rpl_font_text_height(o->note, sc);
        int x = (w - tw) / 2, y = h - 14 * sc - th;
        item(o, x - 4, y - 3, tw + 8, th + 6, 160, x, y, o->note, 0xFFF0A0, sc);
    }
    find_runs(o);
    return 1;
}

/* --- over a window surface --------------------------------------------- */

/* Copies the rectangles of the window surface under the overlay to
 * o->under (save) or back (restore): the pixels the water left there, so
 * that the surface shows exactly what the renderer last drew before it
 * draws again, and the tiles under the overlay are redrawn only when the
 * water in them changes.  An answer: 1 if copied, 0 if memory ran out
 * for them (the caller goes without). */
static int save_under(app_overlay_t *o, SDL_Surface *ws, const SDL_Rect *r, int n, int restore)
{
    size_t need = 0;
    int bytes = ws->format->BytesPerPixel;
    for (int i = 0; i < n; i++)
        need += (size_t)r[i].w * (size_t)r[i].h * (size_t)bytes;
    if (!restore && need > o->under_len) {
        void *p = realloc(o->under, need);
        if (!p)
            return 0;
        o->under = p, o->under_len = need;
    }
    char *u = o->under;
    for (int i = 0; i < n; i++) {
        size_t row = (size_t)r[i].w * (size_t)bytes;
        for (int y = r[i].y; y < r[i].y + r[i].h; y++, u += row) {
            char *px = (char *)ws->pixels + (ptrdiff_t)y * ws->pitch + (ptrdiff_t)r[i].x * bytes;
            if (restore)
                memcpy(px, u, row);
            else
                memcpy(u, px, row);
        }
    }
    return 1;
}

void app_overlay_forget(app_overlay_t *o)
{
    o->laid_n = 0;
}

int app_overlay_lift(app_overlay_t *o, SDL_Surface *ws)
{
    return save_under(o, ws, o->laid, o->laid_n, 1);
}

void app_overlay_blit(app_overlay_t *o, SDL_Surface *ws, const SDL_Rect *d)
{
    for (int i = 0; o->surf && i < o->n; i++) {
        SDL_Rect b = o->box[i], od = { d->x + b.x, d->y + b.y, b.w, b.h };
        SDL_BlitSurface(o->surf, &b, ws, &od);
    }
    o->laid_n = 0;
}

/* At the window's own pixels (its text the same size at every scale),
 * after saving what it covers (taken off again before the next draw):
 * pushed where it was if it moved or changed, and where it is if it or
 * the water under it changed. */
int app_overlay_lay(app_overlay_t *o, SDL_Surface *ws, const SDL_Rect *d, int changed,
                    SDL_Rect *push, int n)
{
    int np = n;
    if (changed)
        for (int i = 0; i < o->laid_n; i++)
            push[np++] = o->laid[i];
    o->laid_n = 0;
    for (int i = 0; i < o->n; i++) {
        const SDL_Rect *b = &o->box[i];
        SDL_Rect od = { d->x + b->x, d->y + b->y, b->w, b->h };
        o->laid[o->laid_n++] = od;
        int under = changed; /* or the water under it */
        for (int k = 0; k < n && !under; k++)
            under = SDL_HasIntersection(&push[k], &od);
        if (under)
            push[np++] = od;
    }
    int locked = SDL_MUSTLOCK(ws) && SDL_LockSurface(ws) == 0;
    if (!save_under(o, ws, o->laid, o->laid_n, 0)) {
        o->laid_n = 0; /* no room to save it: no overlay this frame */
    } else if (ws->format->BytesPerPixel == 4) {
        /* on 32-bit pixels the panels and text go straight in */
        uint32_t *at = (uint32_t *)(void *)((char *)ws->pixels + (ptrdiff_t)d->y * ws->pitch +
                                            (ptrdiff_t)d->x * 4);
        lay(o, at, ws->pitch, d->w, d->h);
    }
    if (locked)
        SDL_UnlockSurface(ws);
    if (ws->format->BytesPerPixel != 4)
        for (int i = 0; o->surf && i < o->laid_n; i++) { /* SDL blends the overlay */
            SDL_Rect b = o->box[i], to = o->laid[i]; /* SDL clips them in place */
            SDL_BlitSurface(o->surf, &b, ws, &to);
        }
    return np;
}

/* --- through SDL's renderer -------------------------------------------- */

void app_overlay_upload(app_overlay_t *o)
{
    for (int i = 0; o->tex && i < o->n; i++) {
        const SDL_Rect *b = &o->box[i];
        SDL_UpdateTexture(o->tex, b, o->px + (size_t)b->y * o->w + b->x, o->w * 4);
    }
}

void app_overlay_render(app_overlay_t *o, const SDL_Rect *d)
{
    for (int i = 0; o->tex && i < o->n; i++) {
        const SDL_Rect *b = &o->box[i];
        SDL_Rect to = { d->x + b->x, d->y + b->y, b->w, b->h };
        SDL_RenderCopy(o->ren, o->tex, b, &to);
    }
}
