/* play/play.c - the pool's play: the field, the show or the autopilot and rain, the user's stones, the picture and its walls, the settings and the wave keys, a step. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "play/play.h"
#include "ripple_support.h"

struct play {
    play_config_t cfg;
    rpl_sim_t *sim;
    rpl_renderer_t *ren;     /* keeps a frame up to date, redrawing only changed tiles */
    rpl_autopilot_t *ap;
    rpl_show_t *show;        /* the show that plays (NULL: the autopilot) */
    rpl_show_player_t *player;
    char picture[256];       /* the show's picture shown now ("default": the front end's) */
    int show_failed;         /* a tick failed (said once) */
    rpl_rain_t rain;         /* the classic stones' rain (and a show's) */
    rpl_rain_t rain_smooth;  /* the smooth stones' (and a show's) */
    int rain_shown;          /* the rain is a show's, weighed for the model already */
    rpl_view_t view;
    rpl_wave_params_t wave;  /* the wave water's, when it is chosen */
    int stone;               /* the user's stone radius */
    int stones;              /* PLAY_STONES_SMOOTH or PLAY_STONES_CLASSIC */
    int trail_x, trail_y;    /* where the last smooth trail ended */
    int trail_left;          /* sixteenths of a cell it went past its last bead */
    int rain_on, auto_on;
    uint32_t *pic;           /* the picture fitted to the field, XRGB8888 (NULL: none yet) */
    rpl_backdrop_t *bd;      /* it with the walls drawn in, in the frame's format */
    uint32_t *work;          /* what bd was made from, when not pic: the walls drawn in,
                              * red and blue swapped if asked (NULL: none kept) */
    uint64_t repainted;      /* pixels of the backdrop made again for the walls */
    uint64_t walls_serial;   /* rpl_sim_walls_serial when bd was made */
    int walls_drawn;         /* bd has walls drawn in */
    int fade;                /* the show's fade of the picture, 0..256, in bd */
    uint32_t fade_colour;    /* to this colour, 0xRRGGBB */
    char card[RPL_SHOW_CARD_MAX + 1]; /* the show's card over the picture, in bd */
    int card_level;          /* how far it has come in, 0..256 (0: none) */
    int ready;               /* play_create made it whole */
    char err[512];
};

static void set_stones(play_t *p, int stones);
static void set_fade(play_t *p, int fade, uint32_t colour);
static void remake(play_t *p);

static void say(play_t *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void say(play_t *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err, sizeof p->err, fmt, ap);
    va_end(ap);
}

/* A trouble that does not stop the play: kept, and told to the front end. */
static void note(play_t *p)
{
    if (p->cfg.note)
        p->cfg.note(p->cfg.user, p->err);
}

rpl_status play_create(const play_config_t *cfg, play_t **out)
{
    if (!out)
        return RPL_EINVAL;
    play_t *p = calloc(1, sizeof *p);
    *out = p;
    if (!p)
        return RPL_ENOMEM;
    if (!cfg) {
        say(p, "no configuration");
        return RPL_EINVAL;
    }
    p->cfg = *cfg;
    if (cfg->format != RPL_XRGB8888 && cfg->format != RPL_RGB565 && cfg->format != RPL_INDEX8) {
        say(p, "no such pixel format (%d)", (int)cfg->format);
        return RPL_EINVAL;
    }
    rpl_status st = rpl_sim_create(cfg->w, cfg->h, cfg->seed, &p->sim);
    if (st != RPL_OK) {
        say(p, "cannot create a %dx%d field: %s", cfg->w, cfg->h, rpl_strerror(st));
        return st;
    }
    if (cfg->kernels && (st = rpl_sim_set_kernels(p->sim, cfg->kernels)) != RPL_OK) {
        say(p, "%s", rpl_sim_error(p->sim));
        return st;
    }
    st = rpl_renderer_create(p->sim, &p->ren);
    if (st != RPL_OK) {
        say(p, "cannot create a renderer: %s", rpl_strerror(st));
        return st;
    }
    st = rpl_autopilot_create(cfg->seed, &p->ap);
    if (st != RPL_OK) {
        say(p, "cannot create the autopilot: %s", rpl_strerror(st));
        return st;
    }
    /* how the play starts: rain, autopilot, light and stones for this size */
    p->rain = play_rain(cfg->w, cfg->h);
    p->rain_smooth = play_rain_smooth(cfg->w, cfg->h);
    p->stones = PLAY_STONES_SMOOTH;
    p->view.strength = PLAY_STRENGTH_SMOOTH;
    p->trail_x = p->trail_y = -1;
    st = rpl_autopilot_set_stones(p->ap, RPL_STONES_BUMPS);
    if (st != RPL_OK) {
        say(p, "%s", rpl_autopilot_error(p->ap));
        return st;
    }
    p->view.shading = 1;
    p->stone = PLAY_STONE_UNITS * play_unit(cfg->w, cfg->h);
    p->rain_on = cfg->rain != 0;
    p->auto_on = cfg->autopilot != 0;
    p->wave = (rpl_wave_params_t)PLAY_WAVE_DEFAULTS;
    p->ready = 1;
    return RPL_OK;
}

void play_destroy(play_t *p)
{
    if (!p)
        return;
    rpl_show_player_destroy(p->player);
    rpl_show_destroy(p->show);
    rpl_autopilot_destroy(p->ap);
    rpl_renderer_destroy(p->ren);
    rpl_backdrop_destroy(p->bd);
    rpl_sim_destroy(p->sim);
    free(p->pic);
    free(p->work);
    free(p);
}

const char *play_error(const play_t *p)
{
    return p ? p->err : "out of memory";
}

rpl_sim_t *play_sim(const play_t *p)
{
    return p ? p->sim : NULL;
}

rpl_renderer_t *play_renderer(const play_t *p)
{
    return p ? p->ren : NULL;
}

/* ---- the picture behind the water ------------------------------------ */

/* The fitted picture pic with the walls drawn in (red and blue swapped if
 * asked) into work, in the pixels [x0, x1) x [y0, y1). */
static void paint(const play_t *p, const uint32_t *pic, uint32_t *work, int x0, int y0, int x1,
                  int y1)
{
    int w = p->cfg.w, h = p->cfg.h;
    const uint8_t *mask = rpl_sim_walls(p->sim);
    for (int y = y0; y < y1; y++)
        memcpy(work + (size_t)y * (size_t)w + x0, pic + (size_t)y * (size_t)w + x0,
               (size_t)(x1 - x0) * 4);
    if (mask)
        play_walls_paint_rect(work, mask, w, h, x0, y0, x1, y1);
    if (!(p->cfg.flags & PLAY_SWAP_RB))
        return;
    for (int y = y0; y < y1; y++) {
        uint32_t *row = work + (size_t)y * (size_t)w;
        for (int x = x0; x < x1; x++) {
            uint32_t v = row[x];
            row[x] = 0xFF000000u | (v & 0xFF00u) | (v & 0xFFu) << 16 | (v >> 16 & 0xFFu);
        }
    }
}

/* The pixels faded towards the show's colour by p->fade / 256 (in the
 * order of the painted pixels: red and blue swapped with them). */
static void fade_pixels(const play_t *p, uint32_t *px, size_t n)
{
    uint32_t c = p->fade_colour, f = (uint32_t)p->fade, k = 256 - f;
    if (p->cfg.flags & PLAY_SWAP_RB)
        c = (c & 0xFF00u) | (c & 0xFFu) << 16 | (c >> 16 & 0xFFu);
    uint32_t cr = c >> 16 & 0xFF, cg = c >> 8 & 0xFF, cb = c & 0xFF;
    for (size_t i = 0; i < n; i++) {
        uint32_t v = px[i];
        uint32_t r = ((v >> 16 & 0xFF) * k + cr * f + 128) >> 8;
        uint32_t g = ((v >> 8 & 0xFF) * k + cg * f + 128) >> 8;
        uint32_t b = ((v & 0xFF) * k + cb * f + 128) >> 8;
        px[i] = 0xFF000000u | r << 16 | g << 8 | b;
    }
}

/* The show's card over the pixels: a dark band across the picture and the
 * text on it in the demo's font, its heading (the first line) twice the
 * size of the rest where it fits, the largest whole scale that keeps the
 * text within the picture (lines of 24 characters are twice the font's
 * size at 320x200), coming in by p->card_level. */
static void card_pixels(const play_t *p, uint32_t *px)
{
    int w = p->cfg.w, h = p->cfg.h, lvl = p->card_level;
    const char *head = p->card, *nl = strchr(head, '\n');
    char first[RPL_SHOW_CARD_MAX + 1];
    size_t hn = nl ? (size_t)(nl - head) : strlen(head);
    memcpy(first, head, hn);
    first[hn] = '\0';
    const char *rest = nl ? nl + 1 : "";
    int lines = rpl_font_text_height(rest, 1) / RPL_FONT_CELL_H;
    int s = 1;
    while (rpl_font_text_width(rest, s + 1) <= w * 9 / 10 &&
           (2 * (s + 1) + (s + 1) * lines) * RPL_FONT_CELL_H <= h * 4 / 5 &&
           (s + 1) * RPL_FONT_CELL_H <= h / 8)
        s++;
    int hs = rpl_font_text_width(first, 2 * s) <= w * 9 / 10 ? 2 * s : s;
    int th = hs * RPL_FONT_CELL_H + (lines ? s * RPL_FONT_CELL_H / 2 : 0) +
             s * RPL_FONT_CELL_H * lines;
    int y = (h - th) / 2, pad = s * RPL_FONT_CELL_H;
    rpl_font_panel(px, (ptrdiff_t)w * 4, w, h, 0, y - pad, w, th + 2 * pad, 256 - lvl * 13 / 16);
    uint32_t ink = (uint32_t)(0xF0 * lvl / 256), c = ink << 16 | ink << 8 | ink;
    uint32_t hk = (uint32_t)(0xFF * lvl / 256), gold = hk << 16 | (hk * 0xD8 / 0xFF) << 8 |
                                                       (hk * 0x70 / 0xFF);
    if (p->cfg.flags & PLAY_SWAP_RB)
        gold = (gold & 0xFF00u) | (gold & 0xFFu) << 16 | (gold >> 16 & 0xFFu);
    rpl_font_draw(px, (ptrdiff_t)w * 4, w, h, (w - rpl_font_text_width(first, hs)) / 2, y, first,
                  gold, hs);
    y += hs * RPL_FONT_CELL_H + s * RPL_FONT_CELL_H / 2;
    for (const char *l = rest; lines > 0 && *l;) {
        const char *e = strchr(l, '\n');
        size_t n = e ? (size_t)(e - l) : strlen(l);
        char line[RPL_SHOW_CARD_MAX + 1];
        memcpy(line, l, n);
        line[n] = '\0';
        rpl_font_draw(px, (ptrdiff_t)w * 4, w, h, (w - rpl_font_text_width(line, s)) / 2, y,
                      line, c, s);
        y += s * RPL_FONT_CELL_H;
        if (!e)
            break;
        l = e + 1;
    }
}

/* The backdrop of the fitted picture pic with the walls drawn in (red and
 * blue swapped if asked), in the frame's format, into *out; what it was
 * made from, when not pic, into *work (NULL: freed). */
static rpl_status make_backdrop(const play_t *p, const uint32_t *pic, rpl_backdrop_t **out,
                                uint32_t **work)
{
    int w = p->cfg.w, h = p->cfg.h;
    uint32_t *made = NULL;
    *out = NULL;
    if (work)
        *work = NULL;
    if (rpl_sim_walls(p->sim) || (p->cfg.flags & PLAY_SWAP_RB) || p->fade || p->card_level) {
        made = malloc((size_t)w * (size_t)h * 4);
        if (!made)
            return RPL_ENOMEM;
        paint(p, pic, made, 0, 0, w, h);
        if (p->fade)
            fade_pixels(p, made, (size_t)w * (size_t)h);
        if (p->card_level && p->card[0])
            card_pixels(p, made);
        pic = made;
    }
    rpl_status st = rpl_backdrop_create(pic, w, h, p->cfg.format, out);
    if (st != RPL_OK) {
        rpl_backdrop_destroy(*out);
        *out = NULL;
    }
    if (st == RPL_OK && work)
        *work = made;
    else
        free(made);
    return st;
}

/* A picture fitted to the field and its backdrop, both new (NULL on
 * failure, with the status). */
static rpl_status prepare(const play_t *p, const uint32_t *px, int w, int h, ptrdiff_t pitch,
                          uint32_t **pic, rpl_backdrop_t **bd, uint32_t **work)
{
    *bd = NULL;
    *pic = malloc((size_t)p->cfg.w * (size_t)p->cfg.h * 4);
    rpl_status st = *pic ? rpl_image_fit(px, w, h, pitch, *pic, p->cfg.w, p->cfg.h) : RPL_ENOMEM;
    if (st == RPL_OK)
        st = make_backdrop(p, *pic, bd, work);
    if (st != RPL_OK) {
        free(*pic);
        *pic = NULL;
    }
    return st;
}

rpl_status play_set_picture(play_t *p, const uint32_t *px, int w, int h, ptrdiff_t pitch)
{
    if (!p)
        return RPL_EINVAL;
    uint32_t *pic, *work;
    rpl_backdrop_t *bd;
    rpl_status st = prepare(p, px, w, h, pitch, &pic, &bd, &work);
    if (st != RPL_OK) {
        say(p, "cannot prepare the picture: %s", rpl_strerror(st));
        return st;
    }
    /* the new backdrop is made before the old goes: the renderer sees a new one */
    rpl_backdrop_destroy(p->bd);
    free(p->pic);
    free(p->work);
    p->pic = pic;
    p->bd = bd;
    p->work = work;
    p->walls_serial = rpl_sim_walls_serial(p->sim);
    p->walls_drawn = rpl_sim_walls(p->sim) != NULL;
    return RPL_OK;
}

rpl_status play_check_picture(const play_t *p, const uint32_t *px, int w, int h,
                              ptrdiff_t pitch)
{
    if (!p)
        return RPL_EINVAL;
    uint32_t *pic;
    rpl_backdrop_t *bd;
    rpl_status st = prepare(p, px, w, h, pitch, &pic, &bd, NULL);
    rpl_backdrop_destroy(bd);
    free(pic);
    return st;
}

/*
 * The backdrop shows the walls when it was made with them drawn in, after
 * their last change.  A change of the walls draws them again, once, and
 * only where they changed (and a cell around, for the bevel and the
 * shadow): the backdrop is updated in place there and the renderer told
 * of the box; nothing per frame.  Without walls, and none drawn, the
 * backdrop is the bare picture already.  When nothing was kept to draw
 * on (the walls' first change on a bare picture) or the update fails, a
 * new backdrop is made whole, which the renderer sees by itself.
 */
void play_update(play_t *p)
{
    if (!p || !p->pic)
        return;
    uint64_t serial = rpl_sim_walls_serial(p->sim);
    if (serial == p->walls_serial)
        return;
    int box[4];
    rpl_sim_walls_changed(p->sim, p->walls_serial, box);
    p->walls_serial = serial; /* whatever happens, not again until the next change */
    const uint8_t *mask = rpl_sim_walls(p->sim);
    if (!mask && !p->walls_drawn)
        return;
    int w = p->cfg.w, h = p->cfg.h;
    if (p->work && box[2] > 0 && !p->fade && !p->card_level) { /* else made whole */
        int x0 = box[0] > 0 ? box[0] - 1 : 0, y0 = box[1] > 0 ? box[1] - 1 : 0;
        int x1 = box[0] + box[2] < w ? box[0] + box[2] + 1 : w;
        int y1 = box[1] + box[3] < h ? box[1] + box[3] + 1 : h;
        paint(p, p->pic, p->work, x0, y0, x1, y1);
        if (rpl_backdrop_update(p->bd, p->work, x0, y0, x1 - x0, y1 - y0) == RPL_OK) {
            rpl_renderer_invalidate_rect(p->ren, x0, y0, x1 - x0, y1 - y0);
            p->repainted += (uint64_t)(x1 - x0) * (uint64_t)(y1 - y0);
            p->walls_drawn = mask != NULL;
            return;
        }
    }
    rpl_backdrop_t *bd = NULL;
    uint32_t *work = NULL;
    rpl_status st = make_backdrop(p, p->pic, &bd, &work);
    if (st != RPL_OK) {
        say(p, "cannot draw the walls: %s", rpl_strerror(st));
        note(p);
        return;
    }
    rpl_backdrop_destroy(p->bd);
    free(p->work);
    p->bd = bd;
    p->work = work;
    p->repainted += (uint64_t)w * (uint64_t)h;
    p->walls_drawn = mask != NULL;
}

uint64_t play_repainted(const play_t *p)
{
    return p ? p->repainted : 0;
}

const rpl_backdrop_t *play_backdrop(const play_t *p)
{
    return p ? p->bd : NULL;
}

rpl_status play_draw(play_t *p, void *dst, ptrdiff_t pitch)
{
    if (!p || !p->bd)
        return RPL_EINVAL;
    play_update(p);
    rpl_status st = rpl_renderer_draw(p->ren, p->bd, dst, pitch, &p->view);
    if (st != RPL_OK)
        say(p, "draw: %s", rpl_renderer_error(p->ren));
    return st;
}

/* ---- the show ------------------------------------------------------------ */

rpl_status play_set_show(play_t *p, rpl_show_t *show)
{
    if (!p) {
        rpl_show_destroy(show);
        return RPL_EINVAL;
    }
    rpl_show_player_t *player = NULL;
    if (show) {
        rpl_status st = rpl_show_player_create(show, p->cfg.seed, &player);
        if (st != RPL_OK) {
            say(p, "show: %s", rpl_strerror(st));
            rpl_show_player_destroy(player);
            rpl_show_destroy(show);
            return st;
        }
        rpl_show_player_set_rain(player, p->cfg.rain);
    }
    rpl_show_player_destroy(p->player);
    rpl_show_destroy(p->show);
    p->show = show;
    p->player = player;
    p->show_failed = 0;
    snprintf(p->picture, sizeof p->picture, "default");
    p->rain_on = player ? 0 : p->cfg.rain != 0; /* a show decides */
    if (p->fade || p->card_level) { /* a new show starts on the picture as it is */
        p->card_level = 0;
        p->card[0] = '\0';
        set_fade(p, 0, 0);
    }
    return RPL_OK;
}

const rpl_show_t *play_show(const play_t *p)
{
    return p ? p->show : NULL;
}

/* The show's picture in place of the one shown, by the front end. */
static void show_picture(play_t *p, const char *name)
{
    if (!p->cfg.picture || !strcmp(name, p->picture))
        return;
    if (p->cfg.picture(p->cfg.user, name) == 0)
        snprintf(p->picture, sizeof p->picture, "%s", name);
}

/* The picture faded so far to that colour: its backdrop made again (the
 * renderer, seeing a new one, draws the whole frame). */
static void set_fade(play_t *p, int fade, uint32_t colour)
{
    p->fade = fade;
    p->fade_colour = colour;
    remake(p);
}

/* The backdrop made again whole, for a fade or a card. */
static void remake(play_t *p)
{
    if (!p->pic)
        return;
    rpl_backdrop_t *bd = NULL;
    uint32_t *work = NULL;
    rpl_status st = make_backdrop(p, p->pic, &bd, &work);
    if (st != RPL_OK) {
        say(p, "cannot fade the picture: %s", rpl_strerror(st));
        note(p);
        return;
    }
    rpl_backdrop_destroy(p->bd);
    free(p->work);
    p->bd = bd;
    p->work = work;
    p->walls_serial = rpl_sim_walls_serial(p->sim);
    p->walls_drawn = rpl_sim_walls(p->sim) != NULL;
}

/* A tick of the show, and what it changed of the view handed on. */
static void show_tick(play_t *p)
{
    if (rpl_show_player_tick(p->player, p->sim) != RPL_OK && !p->show_failed) {
        p->show_failed = 1; /* said once; the show goes on */
        say(p, "show: %s", rpl_sim_error(p->sim));
        note(p);
    }
    unsigned ch = rpl_show_player_changed(p->player);
    const rpl_show_view_t *v = rpl_show_player_view(p->player);
    if (!ch || !v)
        return;
    if (ch & RPL_SHOW_LIGHT)
        p->view.shading = v->light;
    if (ch & RPL_SHOW_STONES) /* before the strength: a show that sets both has its own */
        set_stones(p, v->stones == RPL_STONES_DISCS ? PLAY_STONES_CLASSIC : PLAY_STONES_SMOOTH);
    if (ch & RPL_SHOW_STRENGTH)
        p->view.strength = v->strength;
    if (ch & RPL_SHOW_STONE)
        p->stone = play_stone_size(v->stone);
    if ((ch & RPL_SHOW_RAIN) && p->cfg.rain) {
        /* the user who takes over finds the show's weather */
        p->rain_on = v->rain_on;
        p->rain = p->rain_smooth = v->rain;
        p->rain_shown = 1;
    }
    if (ch & RPL_SHOW_PICTURE)
        show_picture(p, v->picture);
    if ((ch & RPL_SHOW_FADE) && (v->fade != p->fade || v->fade_colour != p->fade_colour))
        set_fade(p, v->fade, v->fade_colour);
    if ((ch & RPL_SHOW_CARD) && (v->card_level != p->card_level || strcmp(v->card, p->card))) {
        snprintf(p->card, sizeof p->card, "%s", v->card);
        p->card_level = v->card[0] ? v->card_level : 0;
        remake(p);
    }
}

/* ---- a step --------------------------------------------------------------- */

/* A smooth stone's weight w on the water of the moment. */
static int weight(const play_t *p, int w)
{
    return rpl_sim_model(p->sim) == RPL_MODEL_WAVE ? w * PLAY_BUMP_WAVE / 1000 : w;
}

/* A step's rain, of the play's stones. */
static rpl_status rain(play_t *p)
{
    rpl_status st;
    if (p->stones == PLAY_STONES_CLASSIC) {
        st = rpl_sim_rain(p->sim, &p->rain);
    } else {
        rpl_rain_t r = p->rain_smooth;
        if (!p->rain_shown) {
            r.wmin = weight(p, r.wmin);
            r.wmax = weight(p, r.wmax);
        }
        st = rpl_sim_rain_bumps(p->sim, &r);
    }
    if (st != RPL_OK)
        say(p, "rain: %s", rpl_sim_error(p->sim));
    return st;
}

rpl_status play_step(play_t *p, int idle)
{
    if (!p || !p->ready)
        return RPL_EINVAL;
    rpl_status st = RPL_OK;
    if (p->player && p->auto_on && idle) {
        show_tick(p); /* the show's stones and rain */
    } else {
        if (p->rain_on)
            st = rain(p);
        if (p->auto_on && idle && !p->player)
            rpl_autopilot_tick(p->ap, p->sim);
    }
    play_update(p); /* a show may have moved the walls */
    rpl_sim_step(p->sim);
    return st;
}

/* A drop the field refused (outside it, or no memory for the drop's
 * undo): why, in play_error. */
static rpl_status dropped(play_t *p, rpl_status st)
{
    if (st != RPL_OK)
        say(p, "%s", rpl_sim_error(p->sim));
    return st;
}

/* A smooth stone of the user's size s (cells): a bump PLAY_BUMP_SPREAD
 * times as wide, weighing PLAY_BUMP_WEIGHT a cell of its radius, so that
 * its slopes are the same at every size. */
static rpl_status bump(play_t *p, int x, int y, int s, int per_cell)
{
    int r = s * PLAY_BUMP_SPREAD;
    r = r > RPL_RADIUS_MAX ? RPL_RADIUS_MAX : r;
    return dropped(p, rpl_sim_bump(p->sim, x, y, r, weight(p, r * per_cell)));
}

rpl_status play_stone(play_t *p, int x, int y, int big)
{
    if (!p || !p->ready)
        return RPL_EINVAL;
    if (p->stones == PLAY_STONES_SMOOTH)
        return bump(p, x, y, big ? play_stone_size(p->stone * 2) : p->stone, PLAY_BUMP_WEIGHT);
    if (big)
        return dropped(p, rpl_sim_drop(p->sim, x, y, play_stone_size(p->stone * 2),
                                       PLAY_STONE_WEIGHT * 2));
    return dropped(p, rpl_sim_drop(p->sim, x, y, p->stone, PLAY_STONE_WEIGHT));
}

/* The integer square root of v (floor). */
static int64_t isqrt64(int64_t v)
{
    int64_t r = (int64_t)sqrt((double)v);
    while (r * r > v)
        r--;
    while ((r + 1) * (r + 1) <= v)
        r++;
    return r;
}

/*
 * A smooth trail: bumps add up where discs would only be set again, so
 * its beads are laid a fixed distance apart along the path however the
 * front end cuts it into segments (a mouse's motion events come a cell
 * or fifty apart): a segment that goes on from where the last one ended
 * goes on counting from the last bead, another starts counting anew from
 * its start (where the press laid its stone).  In sixteenths of a cell.
 */
static rpl_status smooth_trail(play_t *p, int x0, int y0, int x1, int y1)
{
    int s = p->stone > 2 ? p->stone / 2 : 1;
    int r = s * PLAY_BUMP_SPREAD;
    r = r > RPL_RADIUS_MAX ? RPL_RADIUS_MAX : r;
    int64_t spacing = (int64_t)r * 16 * PLAY_TRAIL_SPACING / 4;
    spacing = spacing < 16 ? 16 : spacing;
    int64_t left = x0 == p->trail_x && y0 == p->trail_y ? p->trail_left : 0;
    left = left < spacing ? left : spacing - 1; /* the stone size changed on the way */
    int64_t dx = (int64_t)x1 - x0, dy = (int64_t)y1 - y0;
    if (dx > 1 << 20 || dx < -(1 << 20) || dy > 1 << 20 || dy < -(1 << 20)) /* far outside */
        dx = dy = 0;
    int64_t len = isqrt64((dx * dx + dy * dy) * 256);
    rpl_status st = RPL_OK;
    int64_t d = spacing - left;
    for (; d <= len && st == RPL_OK; d += spacing)
        st = dropped(p, rpl_sim_bump(p->sim, (int)(x0 + dx * d / len), (int)(y0 + dy * d / len),
                                     r, weight(p, r * PLAY_TRAIL_WEIGHT)));
    p->trail_x = x1;
    p->trail_y = y1;
    p->trail_left = (int)(spacing - (d - len));
    return st;
}

rpl_status play_trail(play_t *p, int x0, int y0, int x1, int y1)
{
    if (!p || !p->ready)
        return RPL_EINVAL;
    if (p->stones == PLAY_STONES_SMOOTH)
        return smooth_trail(p, x0, y0, x1, y1);
    return dropped(p, rpl_sim_trail(p->sim, x0, y0, x1, y1, p->stone > 2 ? p->stone / 2 : 1,
                                    PLAY_STONE_WEIGHT / 2));
}

void play_reset(play_t *p)
{
    if (p)
        rpl_sim_reset(p->sim, p->cfg.seed);
}

/* ---- settings -------------------------------------------------------------- */

int play_get(const play_t *p, play_setting what)
{
    if (!p)
        return -1;
    switch (what) {
    case PLAY_RAIN: return p->rain_on;
    case PLAY_AUTO: return p->auto_on;
    case PLAY_LIGHT: return p->view.shading;
    case PLAY_STRENGTH: return p->view.strength;
    case PLAY_STONE: return p->stone;
    case PLAY_MODEL: return rpl_sim_model(p->sim) == RPL_MODEL_WAVE;
    case PLAY_SHOW: return p->player != NULL;
    case PLAY_STONES: return p->stones;
    default: return -1;
    }
}

/* The wave water (with the settings kept) or the classic; refused: as it was. */
static rpl_status set_model(play_t *p, int wave)
{
    if (!wave)
        return rpl_sim_set_model(p->sim, RPL_MODEL_CLASSIC, NULL);
    rpl_status st = rpl_sim_set_model(p->sim, RPL_MODEL_WAVE, &p->wave);
    if (st != RPL_OK)
        say(p, "%s", rpl_sim_error(p->sim));
    return st;
}

/* What a kind of the play's stones comes with: the refraction strength
 * it starts at, and the autopilot's stones of that kind. */
static int stones_strength(int stones)
{
    return stones == PLAY_STONES_CLASSIC ? RPL_STRENGTH_ONE : PLAY_STRENGTH_SMOOTH;
}

static rpl_stones stones_autopilot(int stones)
{
    return stones == PLAY_STONES_CLASSIC ? RPL_STONES_DISCS : RPL_STONES_BUMPS;
}

/* The stones of the play's own (the user's, the autopilot's, the rain);
 * the strength at one kind's default moves to the other's. */
static void set_stones(play_t *p, int stones)
{
    int from = stones_strength(p->stones);
    if (stones == p->stones)
        return;
    p->stones = stones;
    /* cannot fail: a made autopilot and a kind it knows */
    if (rpl_autopilot_set_stones(p->ap, stones_autopilot(stones)) != RPL_OK)
        say(p, "%s", rpl_autopilot_error(p->ap));
    if (p->view.strength == from)
        p->view.strength = stones_strength(stones);
}

int play_set(play_t *p, play_setting what, int value)
{
    if (!p)
        return -1;
    switch (what) {
    case PLAY_RAIN: p->rain_on = value != 0; break;
    case PLAY_AUTO: p->auto_on = value != 0; break;
    case PLAY_LIGHT: p->view.shading = value != 0; break;
    case PLAY_STRENGTH:
        p->view.strength = value < 0 ? 0 : value > PLAY_STRENGTH_MAX ? PLAY_STRENGTH_MAX : value;
        break;
    case PLAY_STONE: p->stone = play_stone_size(value); break;
    case PLAY_MODEL: (void)set_model(p, value != 0); break;
    case PLAY_STONES: set_stones(p, value ? PLAY_STONES_CLASSIC : PLAY_STONES_SMOOTH); break;
    default: break;
    }
    return play_get(p, what);
}

rpl_view_t play_view(const play_t *p)
{
    return p ? p->view : (rpl_view_t){ 0, 0 };
}

/* ---- the water's rule ------------------------------------------------------ */

void play_set_wave(play_t *p, const rpl_wave_params_t *w)
{
    if (p && w)
        p->wave = *w;
}

const rpl_wave_params_t *play_wave(const play_t *p)
{
    return p ? &p->wave : NULL;
}

rpl_status play_wave_step(play_t *p, int speed, int viscosity)
{
    if (!p)
        return RPL_EINVAL;
    rpl_wave_params_t w = play_wave_nudge(p->wave, speed, viscosity);
    rpl_wave_info_t info;
    if (rpl_wave_info(&w, &info) != RPL_OK) {
        say(p, "%s", info.why);
        return RPL_EINVAL;
    }
    if (rpl_sim_model(p->sim) == RPL_MODEL_WAVE &&
        rpl_sim_set_model(p->sim, RPL_MODEL_WAVE, &w) != RPL_OK) {
        say(p, "%s", rpl_sim_error(p->sim));
        return RPL_EINVAL;
    }
    p->wave = w;
    return RPL_OK;
}

void play_model_text(const play_t *p, char *buf, size_t len)
{
    rpl_wave_info_t info;
    if (!p || rpl_sim_model(p->sim) != RPL_MODEL_WAVE || rpl_wave_info(&p->wave, &info) != RPL_OK)
        snprintf(buf, len, "classic water");
    else
        snprintf(buf, len, "wave k %.3f  u*dt %.3f", info.k, info.ut);
}

/* A wave key's step: what the water is now, or why not. */
static void wave_key(play_t *p, int speed, int viscosity, char *msg, size_t len)
{
    const char *what = speed ? "wave speed" : "viscosity";
    rpl_wave_params_t w = play_wave_nudge(p->wave, speed, viscosity);
    double v = speed ? w.speed : w.viscosity;
    if (play_wave_step(p, speed, viscosity) != RPL_OK) {
        snprintf(msg, len, "%s %.4g refused:\n%s", what, v, p->err);
        return;
    }
    rpl_wave_info_t info;
    if (rpl_wave_info(&p->wave, &info) != RPL_OK) { /* taken just now: cannot be */
        snprintf(msg, len, "%s %.4g", what, v);
        return;
    }
    int wave = rpl_sim_model(p->sim) == RPL_MODEL_WAVE;
    snprintf(msg, len, "%s %.4g: k %.3f  u*dt %.4f%s", what, v, info.k, info.ut,
             wave ? "" : "  (W: wave water)");
}

int play_key(play_t *p, int key, char *msg, size_t len)
{
    if (!p)
        return 0;
    switch (key) {
    case 'w':
        if (set_model(p, rpl_sim_model(p->sim) != RPL_MODEL_WAVE) != RPL_OK)
            snprintf(msg, len, "wave water refused:\n%s", p->err);
        else
            play_model_text(p, msg, len);
        return 1;
    case 'z': case 'x':
        wave_key(p, key == 'x' ? 1 : -1, 0, msg, len);
        return 1;
    case 'v': case 'b':
        wave_key(p, 0, key == 'b' ? 1 : -1, msg, len);
        return 1;
    case 'd':
        set_stones(p, !p->stones);
        snprintf(msg, len, "%s  refraction %d/16", p->stones == PLAY_STONES_CLASSIC
                 ? "classic stones (flat discs)" : "smooth stones", p->view.strength);
        return 1;
    default:
        return 0;
    }
}

/* ---- the timedemo's pool scenes ------------------------------------------- */

rpl_status play_bench_input(play_t *p)
{
    if (!p || !p->ready)
        return RPL_EINVAL;
    if (p->player) {
        show_tick(p);
        play_update(p); /* the show may have moved the walls */
        return RPL_OK;
    }
    rpl_status st = rain(p);
    rpl_autopilot_tick(p->ap, p->sim);
    return st;
}

void play_bench_step(play_t *p)
{
    if (p)
        rpl_sim_step(p->sim);
}

/* Whatever the last round left is undone, so the next starts from the
 * same bytes as the first: the timedemo refuses --walls and --edges, so
 * its rounds start without walls, the edges reflecting. */
rpl_status play_bench_restart(play_t *p)
{
    if (!p || !p->ready)
        return RPL_EINVAL;
    rpl_sim_reset(p->sim, p->cfg.seed);
    if (rpl_sim_walls(p->sim) && rpl_sim_set_walls(p->sim, NULL) != RPL_OK)
        return RPL_EINVAL; /* a usable field clears its walls: cannot be */
    if (rpl_sim_set_edges(p->sim, RPL_EDGES_REFLECT) != RPL_OK)
        return RPL_EINVAL;
    rpl_autopilot_t *ap = NULL;
    rpl_status st = rpl_autopilot_create(p->cfg.seed, &ap);
    if (st != RPL_OK) {
        rpl_autopilot_destroy(ap);
        say(p, "cannot restart the autopilot: %s", rpl_strerror(st));
        return st;
    }
    /* the stones the new autopilot lays, as the setting says (play_set
     * would see no change and leave the new autopilot at its discs) */
    st = rpl_autopilot_set_stones(ap, stones_autopilot(p->stones));
    if (st != RPL_OK) {
        rpl_autopilot_destroy(ap);
        say(p, "cannot restart the autopilot: %s", rpl_strerror(st));
        return st;
    }
    rpl_autopilot_destroy(p->ap);
    p->ap = ap;
    p->rain = play_rain(p->cfg.w, p->cfg.h);
    /* the strength the round's stones start with, as at play_create */
    p->view.strength = stones_strength(p->stones);
    p->view.shading = 1;
    p->stone = PLAY_STONE_UNITS * play_unit(p->cfg.w, p->cfg.h);
    if (p->player) {
        rpl_show_player_t *player = NULL;
        st = rpl_show_player_create(p->show, p->cfg.seed, &player);
        if (st != RPL_OK) {
            rpl_show_player_destroy(player);
            say(p, "cannot restart the show: %s", rpl_strerror(st));
            return st;
        }
        rpl_show_player_set_rain(player, p->cfg.rain);
        rpl_show_player_destroy(p->player);
        p->player = player;
        p->show_failed = 0;
        p->rain_on = 0;
        show_picture(p, "default");
    } else {
        p->rain_on = p->cfg.rain != 0;
    }
    play_update(p); /* the walls taken away from the picture */
    rpl_renderer_invalidate(p->ren);
    return RPL_OK;
}
