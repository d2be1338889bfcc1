/* core/show/show_read.c - shows: a timed script of stones, text, rain, walls and settings read from text, checked against the work budget (the player is show_play.c). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/base.h"
#include "core/show/show.h"
#include "ripple_support.h"

/* The texts' dots together: 4 MB at most. */
#define DOTS_MAX (1L << 20)
/* Tokens in a line: each but the last needs a byte after it. */
#define TOKENS_MAX (RPL_SHOW_LINE_MAX / 2 + 1)
/* Numbers and names in messages are cut to this many bytes. */
#define QUOTE_MAX 40
#define POS_FRAC_MAX 4.0
#define PX_MAX 65536.0
#define WEIGHT_MAX 8192
#define RATE_MAX 1000.0
#define TIMES_MAX 1000000
#define RING_COUNT_DEFAULT 12

/* ---- messages --------------------------------------------------------- */

const char *rpl_show_error(const rpl_show_t *show)
{
    if (!show)
        return "no show (NULL)";
    return rpl_err_text(&show->err);
}

/* ---- the parser ------------------------------------------------------- */

typedef struct tok {
    const char *p;  /* the bytes (a quoted token's: unescaped, in the line buffer) */
    size_t n;
    int col;
    int quoted;
} tok_t;

typedef struct parser {
    rpl_show_t *s;
    const char *name;
    int line;
    uint64_t clock;       /* the step of the line before */
    uint64_t tick;        /* the same exactly, in ticks (below) */
    uint64_t tps;         /* ticks a step: 1, or 10 x BPM after `tempo` (so
                             that a thousandth of a beat is 36 ticks) */
    int bpm, bpb;         /* the tempo: beats a minute and a bar (0: none) */
    int tempo_line;
    uint64_t wait_ticks;  /* wait: its time in ticks */
    int header;           /* "ripple-show 1" seen */
    int closed_line;      /* line of the loop or end, 0 if none yet */
    const char *closed_by;
    uint64_t ends[RPL_SHOW_ACTIVE_MAX]; /* steps where running actions stop */
    int nends;
    uint64_t last;        /* step after the last stone, for the length */
    int forever;          /* an action repeats until loop or end */
    tok_t tok[TOKENS_MAX];
    int ntok;
    char buf[RPL_SHOW_LINE_MAX + 1]; /* quoted tokens, unescaped */
} parser_t;

static rpl_status perr(parser_t *ps, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static rpl_status perr(parser_t *ps, int col, const char *fmt, ...)
{
    char msg[sizeof(rpl_err_t)];
    va_list ap;
    va_start(ap, fmt);
    if (vsnprintf(msg, sizeof msg, fmt, ap) < 0)
        msg[0] = '\0';
    va_end(ap);
    return rpl_err_at(&ps->s->err, ps->name, ps->line, col, msg);
}

/* A token as text for a message (rpl_err_quote). */
static const char *shown(const tok_t *t, char out[QUOTE_MAX + 4])
{
    return rpl_err_quote(t->p, t->n, QUOTE_MAX, out);
}

static int tok_is(const tok_t *t, const char *word)
{
    size_t n = strlen(word);
    return !t->quoted && t->n == n && memcmp(t->p, word, n) == 0;
}

/* The token as a C string for the number parsers; "" if too long to be a
 * number (which the parsers then refuse). */
static const char *cstr(const tok_t *t, size_t skip, size_t cut, char out[64])
{
    size_t n = t->n - skip - cut;
    if (t->n < skip + cut || n >= 64)
        n = 0;
    memcpy(out, t->p + skip, n);
    out[n] = '\0';
    return n ? out : "";
}

static int ends_with(const tok_t *t, const char *suffix)
{
    size_t n = strlen(suffix);
    return t->n > n && memcmp(t->p + t->n - n, suffix, n) == 0;
}

/* Splits a line into tokens: words between spaces or tabs, strings in
 * double quotes (with \" \\ \n), '#' to the end a comment. */
static rpl_status tokenize(parser_t *ps, const char *line, size_t len)
{
    size_t i = 0, bp = 0;
    ps->ntok = 0;
    while (i < len) {
        unsigned char c = (unsigned char)line[i];
        if (c == ' ' || c == '\t' || c == '\r') {
            i++;
            continue;
        }
        if (c == '#')
            break;
        if (c < 32 || c == 127)
            return perr(ps, (int)i + 1, "control character 0x%02X (words are separated by "
                                        "spaces or tabs)", c);
        tok_t *t = &ps->tok[ps->ntok++];
        t->col = (int)i + 1;
        if (c == '"') {
            size_t j = i + 1, start = bp;
            for (;;) {
                if (j >= len)
                    return perr(ps, t->col, "the string is not closed (a '\"' is missing)");
                unsigned char d = (unsigned char)line[j];
                if (d == '"')
                    break;
                if (d == '\\') {
                    char e = j + 1 < len ? line[j + 1] : '\0';
                    if (j + 1 >= len)
                        return perr(ps, t->col, "the string is not closed (a '\"' is missing)");
                    if (e != '"' && e != '\\' && e != 'n')
                        return perr(ps, (int)j + 1, "unknown escape in a string (\\\", \\\\ "
                                                    "and \\n are known)");
                    ps->buf[bp++] = e == 'n' ? '\n' : e;
                    j += 2;
                    continue;
                }
                if (d < 32 || d == 127)
                    return perr(ps, (int)j + 1, "control character 0x%02X in a string", d);
                ps->buf[bp++] = (char)d;
                j++;
            }
            j++; /* the closing quote */
            if (j < len && line[j] != ' ' && line[j] != '\t' && line[j] != '\r' && line[j] != '#')
                return perr(ps, (int)j + 1, "a space must follow the string");
            t->p = ps->buf + start;
            t->n = bp - start;
            t->quoted = 1;
            i = j;
        } else {
            size_t j = i;
            while (j < len && line[j] != ' ' && line[j] != '\t' && line[j] != '\r' &&
                   line[j] != '#') {
                unsigned char d = (unsigned char)line[j];
                if (d < 32 || d == 127)
                    return perr(ps, (int)j + 1, "control character 0x%02X (words are separated "
                                                "by spaces or tabs)", d);
                j++;
            }
            t->p = line + i;
            t->n = j - i;
            t->quoted = 0;
            i = j;
        }
    }
    return RPL_OK;
}

/* Times in beats: a thousandth of a beat is TICKS_MB ticks, a step
 * 10 x BPM, so that beats, bars and steps add up exactly, in integers. */
#define TICKS_MB 36
#define BPM_MIN 20
#define BPM_MAX 300
#define BPB_MAX 16

/* A decimal of at most 9 digits and 3 places ("2.5") in thousandths; -1
 * if it is not one. */
static int milli(const char *p, size_t n, uint64_t *out)
{
    uint64_t v = 0;
    size_t i = 0;
    int digits = 0, places = 0;
    for (; i < n && p[i] >= '0' && p[i] <= '9'; i++) {
        if (++digits > 9)
            return -1;
        v = v * 10 + (uint64_t)(p[i] - '0');
    }
    v *= 1000;
    if (i < n && p[i] == '.') {
        uint64_t f = 100;
        for (i++; i < n && p[i] >= '0' && p[i] <= '9'; i++, f /= 10) {
            if (++places > 3)
                return -1;
            v += (uint64_t)(p[i] - '0') * f;
        }
        if (!places)
            return -1;
    }
    if (!digits || i != n)
        return -1;
    *out = v;
    return 0;
}

/* Why a time was refused. */
enum { T_OK = 0, T_BAD = -1, T_NO_TEMPO = -2, T_BEAT = -3, T_FAR = -4 };

/* A time in ticks: whole steps ("120"), seconds ("2.5s", to the nearest
 * step), and after `tempo` beats ("2b", "0.5b"), bars ("1bar") and, with
 * bar_beat, a place in the music ("5:3", bar 5 beat 3, both from 1). */
static int parse_time(const parser_t *ps, const tok_t *t, size_t skip, int bar_beat,
                      uint64_t *out)
{
    char b[64];
    if (t->quoted || t->n <= skip)
        return T_BAD;
    const char *p = t->p + skip;
    size_t n = t->n - skip;
    const char *colon = bar_beat ? memchr(p, ':', n) : NULL;
    uint64_t mb; /* thousandths of a beat */
    if (colon || ends_with(t, "b") || ends_with(t, "bar")) {
        if (colon) {
            uint64_t bar, beat;
            if (milli(p, (size_t)(colon - p), &bar) != 0 || bar % 1000 || bar == 0 ||
                milli(colon + 1, n - (size_t)(colon - p) - 1, &beat) != 0)
                return T_BAD;
            if (!ps->bpm)
                return T_NO_TEMPO;
            if (beat < 1000 || beat >= (uint64_t)(ps->bpb + 1) * 1000)
                return T_BEAT;
            mb = (bar / 1000 - 1) * (uint64_t)ps->bpb * 1000 + beat - 1000;
        } else {
            int bars = ends_with(t, "bar");
            if (milli(p, n - (bars ? 3 : 1), &mb) != 0)
                return T_BAD;
            if (!ps->bpm)
                return T_NO_TEMPO;
            if (bars)
                mb *= (uint64_t)ps->bpb;
        }
        *out = mb * TICKS_MB;
        if (*out / ps->tps > (uint64_t)RPL_SHOW_STEPS_MAX)
            return T_FAR;
        return T_OK;
    }
    if (ends_with(t, "s")) {
        double v;
        if (rpl_parse_real(cstr(t, skip, 1, b), 0, (double)RPL_SHOW_STEPS_MAX / 60.0, &v) !=
            RPL_OK)
            return T_BAD;
        *out = (uint64_t)llround(v * 60.0) * ps->tps;
        return T_OK;
    }
    long long v;
    if (rpl_parse_int(cstr(t, skip, 0, b), 0, RPL_SHOW_STEPS_MAX, &v) != RPL_OK)
        return T_BAD;
    *out = (uint64_t)v * ps->tps;
    return T_OK;
}

/* Ticks to the nearest step, halves up. */
static uint64_t steps_of(const parser_t *ps, uint64_t ticks)
{
    return (ticks + ps->tps / 2) / ps->tps;
}

/* The message for a time parse_time refused; what: its kind ("time",
 * "over"), want: what a good one looks like. */
static rpl_status time_err(parser_t *ps, const tok_t *t, int col, int why, const char *what,
                           const char *want)
{
    char q[QUOTE_MAX + 4];
    switch (why) {
    case T_NO_TEMPO:
        return perr(ps, col, "%s '%s' is in beats: write the tempo first ('tempo 96 4': beats "
                             "a minute and a bar)", what, shown(t, q));
    case T_BEAT:
        return perr(ps, col, "bad %s '%s': a bar has beats 1 to %d.999 (tempo %d %d, line %d)",
                    what, shown(t, q), ps->bpb, ps->bpm, ps->bpb, ps->tempo_line);
    case T_FAR:
        return perr(ps, col, "%s '%s' is past step %ld, the longest a show may last", what,
                    shown(t, q), RPL_SHOW_STEPS_MAX);
    default:
        return perr(ps, col, "bad %s '%s': want %s", what, shown(t, q), want);
    }
}

/* Argument kinds (one letter each in a command's signature). */
enum {
    K_X = 'x', K_Y = 'y', K_LEN = 'l', K_WEIGHT = 'w', K_RATE = 'r', K_STRENGTH = 'f',
    K_FACTOR = 'g',
    K_ONOFF = 'b', K_EDGES = 'e', K_STONES = 'k', K_TEXT = 's', K_NAME = 'n', K_TIME = 't',
    K_COLOUR = 'c', K_CARD = 'q'
};

/* Options. */
enum { O_OVER = 1, O_EVERY = 2, O_TIMES = 4, O_COUNT = 8, O_RADIUS = 16, O_WAVE = 32, O_SOUND = 64 };
static const struct opt {
    const char *name;
    unsigned bit;
} opts[] = {
    { "over", O_OVER }, { "every", O_EVERY }, { "times", O_TIMES },
    { "count", O_COUNT }, { "radius", O_RADIUS }, { "wave", O_WAVE }, { "sound", O_SOUND },
};
/* Every command that lays stones repeats, and may lay them silently
 * (sound=off: no drips, for stones that shape the water rather than fall
 * into it, such as a steady press or a wave maker). */
#define O_REPEAT (O_EVERY | O_TIMES | O_SOUND)

static const struct cmd {
    const char *name, *sub; /* sub: the first word after the name, or NULL */
    int cmd;
    const char *kinds;      /* one letter per argument; "P": then points */
    const char *args;       /* their names, for messages */
    unsigned opts;
} cmds[] = {
    { "drop", NULL, C_DROP, "xylw", "X Y RADIUS WEIGHT", O_REPEAT },
    { "ring", NULL, C_RING, "xyllw", "X Y RING_RADIUS RADIUS WEIGHT", O_REPEAT | O_OVER | O_COUNT },
    { "trail", NULL, C_TRAIL, "lwlP", "RADIUS WEIGHT SPACING X0 Y0 X1 Y1", O_REPEAT | O_OVER },
    { "text", NULL, C_TEXT, "sxylw", "\"TEXT\" X Y CELL WEIGHT", O_REPEAT | O_OVER | O_RADIUS },
    { "rain", "on", C_RAIN_ON, "", "", 0 },
    { "rain", "off", C_RAIN_OFF, "", "", 0 },
    { "rain", NULL, C_RAIN_SET, "rllww", "RATE RMIN RMAX WMIN WMAX", 0 },
    { "light", NULL, C_LIGHT, "b", "on|off", 0 },
    { "strength", NULL, C_STRENGTH, "f", "STRENGTH", 0 },
    { "stone", NULL, C_STONE, "l", "RADIUS", 0 },
    { "stones", NULL, C_STONES, "k", "smooth|classic", 0 },
    { "weights", NULL, C_WEIGHTS, "g", "FACTOR", O_WAVE },
    { "wall", "rect", C_WALL_RECT, "xyxy", "X0 Y0 X1 Y1", 0 },
    { "wall", "open", C_WALL_OPEN, "xyxy", "X0 Y0 X1 Y1", 0 },
    { "wall", "line", C_WALL_LINE, "xyxyl", "X0 Y0 X1 Y1 THICKNESS", 0 },
    { "wall", "clear", C_WALL_CLEAR, "", "", 0 },
    { "edges", NULL, C_EDGES, "e", "reflect|absorb", 0 },
    { "picture", NULL, C_PICTURE, "n", "NAME", 0 },
    { "cut", NULL, C_CUT, "", "", 0 },
    { "calm", NULL, C_CALM, "t", "TIME", 0 },
    { "fade", NULL, C_FADE, "tc", "TIME COLOUR", 0 },
    { "card", NULL, C_CARD, "tq", "TIME \"TEXT\"", 0 },
    { "wait", NULL, C_WAIT, "t", "TIME", 0 },
    { "loop", NULL, C_LOOP, "", "", 0 },
    { "end", NULL, C_END, "", "", 0 },
};
#define NCMDS (sizeof cmds / sizeof cmds[0])

/* The i-th name of a space-separated list ("X Y RADIUS"), into out. */
static const char *arg_name(const char *names, int i, char out[32])
{
    const char *p = names;
    for (; i > 0 && *p; p++)
        if (*p == ' ')
            i--;
    size_t n = strcspn(p, " ");
    if (n >= 32)
        n = 31;
    memcpy(out, p, n);
    out[n] = '\0';
    return out;
}

/* A position (K_X, K_Y) or a length (K_LEN). */
static rpl_status parse_coord(parser_t *ps, const tok_t *t, int kind, const char *what,
                              coord_t *out)
{
    char b[64], q[QUOTE_MAX + 4];
    double v;
    int px = ends_with(t, "px");
    const char *s = t->quoted ? "" : cstr(t, 0, px ? 2 : 0, b);
    double lim = px ? PX_MAX : POS_FRAC_MAX;
    if (kind == K_LEN) {
        if (rpl_parse_real(s, 0, lim, &v) != RPL_OK || !(v > 0))
            return perr(ps, t->col, "bad %s '%s': want a length above 0, a fraction of the "
                                    "shorter side up to 4 (0.01) or cells up to 65536 (6px)",
                        what, shown(t, q));
    } else if (rpl_parse_real(s, -lim, lim, &v) != RPL_OK) {
        return perr(ps, t->col, "bad %s '%s': want a fraction of the %s, -4..4 (0.5), or "
                                "cells, -65536..65536 (320px)",
                    what, shown(t, q), kind == K_X ? "width" : "height");
    }
    out->v = v;
    out->px = px;
    return RPL_OK;
}

/* A factor of weights, 0..4, kept in thousandths. */
static rpl_status parse_factor(parser_t *ps, const tok_t *t, const char *what, int *out)
{
    char b[64], q[QUOTE_MAX + 4];
    double v;
    if (t->quoted || rpl_parse_real(cstr(t, 0, 0, b), 0, 4, &v) != RPL_OK)
        return perr(ps, t->col, "bad %s '%s': want a factor 0..4 (1 weighs as written)", what,
                    shown(t, q));
    *out = (int)lround(v * 1000);
    return RPL_OK;
}

static rpl_status parse_weight(parser_t *ps, const tok_t *t, const char *what, int *out)
{
    char b[64], q[QUOTE_MAX + 4];
    long long v;
    if (t->quoted || rpl_parse_int(cstr(t, 0, 0, b), -WEIGHT_MAX, WEIGHT_MAX, &v) != RPL_OK)
        return perr(ps, t->col, "bad %s '%s': want a whole number -8192..8192", what,
                    shown(t, q));
    *out = (int)v;
    return RPL_OK;
}

/* Appends to one of the show's arrays, growing it. */
static int grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 64;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, c * size);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

/* Cuts an array down to n bytes (none: freed); kept as it is if realloc
 * fails. */
static void shrink(void **p, size_t n)
{
    if (n == 0) {
        free(*p);
        *p = NULL;
        return;
    }
    void *q = realloc(*p, n);
    if (q)
        *p = q;
}

/* A text's dots, column by column from the left, each column from the
 * top: the order a pen writing it would follow. */
static rpl_status text_dots(parser_t *ps, const tok_t *t, ev_t *e)
{
    rpl_show_t *s = ps->s;
    if (t->n == 0)
        return perr(ps, t->col, "the text is empty");
    if (t->n > RPL_SHOW_TEXT_MAX)
        return perr(ps, t->col, "the text is longer than %d bytes", RPL_SHOW_TEXT_MAX);
    int lines = 1, cols = 0, widest = 0;
    for (size_t i = 0; i < t->n; i++) {
        unsigned char c = (unsigned char)t->p[i];
        if (c == '\n') {
            lines++;
            cols = 0;
            continue;
        }
        if (c < 32 || c > 126)
            return perr(ps, t->col, "the text holds byte 0x%02X: only printable ASCII and \\n", c);
        if (++cols > widest)
            widest = cols;
    }
    e->tw = widest ? widest * RPL_FONT_CELL_W - 1 : 1;
    e->th = (lines - 1) * RPL_FONT_CELL_H + 7;
    /* where each line starts and how long it is */
    size_t at[RPL_SHOW_TEXT_MAX + 1], n[RPL_SHOW_TEXT_MAX + 1];
    int nl = 0;
    at[0] = 0;
    for (size_t i = 0; i <= t->n; i++)
        if (i == t->n || t->p[i] == '\n') {
            n[nl] = i - at[nl];
            if (++nl <= RPL_SHOW_TEXT_MAX)
                at[nl] = i + 1;
        }
    e->first = s->ndots;
    for (int x = 0; x < widest * RPL_FONT_CELL_W; x++) {
        size_t ch = (size_t)(x / RPL_FONT_CELL_W);
        int gx = x % RPL_FONT_CELL_W;
        for (int ln = 0; gx < 5 && ln < nl; ln++) {
            if (ch >= n[ln])
                continue;
            const uint8_t *g = rpl_font_glyph((unsigned char)t->p[at[ln] + ch]);
            for (int r = 0; r < RPL_FONT_GLYPH_ROWS; r++) {
                if (!(g[r] & (0x10 >> gx)))
                    continue;
                if (s->ndots >= (size_t)DOTS_MAX)
                    return perr(ps, t->col, "too much text: more than %ld dots in the show",
                                DOTS_MAX);
                if (grow((void **)&s->dots, &s->cap_dots, 2 * (s->ndots + 1), sizeof *s->dots))
                    return RPL_ENOMEM;
                s->dots[2 * s->ndots] = (int16_t)x;
                s->dots[2 * s->ndots + 1] = (int16_t)(ln * RPL_FONT_CELL_H + r);
                s->ndots++;
            }
        }
    }
    e->n = s->ndots - e->first;
    return RPL_OK;
}

/* A card's text: printable ASCII and new lines, kept with the names. */
static rpl_status card_text(parser_t *ps, const tok_t *t, ev_t *e)
{
    rpl_show_t *s = ps->s;
    if (!t->quoted)
        return perr(ps, t->col, "the card's text must be in double quotes (\"RIPPLE\")");
    if (t->n == 0 || t->n > RPL_SHOW_CARD_MAX)
        return perr(ps, t->col, "a card holds 1 to %d bytes of text", RPL_SHOW_CARD_MAX);
    for (size_t i = 0; i < t->n; i++) {
        unsigned char c = (unsigned char)t->p[i];
        if ((c < 32 || c > 126) && c != '\n')
            return perr(ps, t->col, "the card holds byte 0x%02X: only printable ASCII and \\n",
                        c);
    }
    if (grow((void **)&s->strs, &s->cap_strs, s->nstrs + t->n + 1, 1))
        return RPL_ENOMEM;
    e->first = s->nstrs;
    memcpy(s->strs + s->nstrs, t->p, t->n);
    s->strs[s->nstrs + t->n] = '\0';
    s->nstrs += t->n + 1;
    return RPL_OK;
}

static rpl_status picture_name(parser_t *ps, const tok_t *t, ev_t *e)
{
    rpl_show_t *s = ps->s;
    if (t->n == 0 || t->n > 255)
        return perr(ps, t->col, "a picture's name has 1 to 255 bytes");
    for (size_t i = 0; i < t->n; i++) {
        unsigned char c = (unsigned char)t->p[i];
        if (c < 32 || c > 126)
            return perr(ps, t->col, "the picture's name holds byte 0x%02X: only printable ASCII",
                        c);
    }
    if (grow((void **)&s->strs, &s->cap_strs, s->nstrs + t->n + 1, 1))
        return RPL_ENOMEM;
    e->first = s->nstrs;
    memcpy(s->strs + s->nstrs, t->p, t->n);
    s->strs[s->nstrs + t->n] = '\0';
    s->nstrs += t->n + 1;
    return RPL_OK;
}

/* The positional arguments of a command. */
static rpl_status parse_args(parser_t *ps, const struct cmd *c, const tok_t *cmdtok,
                             tok_t **args, int nargs, ev_t *e)
{
    rpl_show_t *s = ps->s;
    char q[QUOTE_MAX + 4], an[32], b[64];
    int want = (int)strcspn(c->kinds, "P"), points = c->kinds[want] == 'P';
    char full[48];
    snprintf(full, sizeof full, "%s%s%s", c->name, c->sub ? " " : "", c->sub ? c->sub : "");
    if (c->cmd == C_RAIN_SET && nargs < want)
        return perr(ps, nargs ? args[nargs - 1]->col : cmdtok->col,
                    "'rain' wants on, off or %d numbers (%s), got %d argument%s", want, c->args,
                    nargs, nargs == 1 ? "" : "s");
    if (nargs < want || (points && nargs < want + 4)) {
        int col = nargs ? args[nargs - 1]->col : cmdtok->col;
        return perr(ps, col, "'%s' needs %d argument%s (%s), got %d", full,
                    points ? want + 4 : want, (points ? want + 4 : want) == 1 ? "" : "s",
                    c->args, nargs);
    }
    if (!points && nargs > want)
        return perr(ps, args[want]->col, "'%s' takes %d argument%s (%s): '%s' is one too many",
                    full, want, want == 1 ? "" : "s", *c->args ? c->args : "none",
                    shown(args[want], q));
    int nc = 0;
    for (int i = 0; i < want; i++) {
        const tok_t *t = args[i];
        const char *what = arg_name(c->args, i, an);
        rpl_status st = RPL_OK;
        switch (c->kinds[i]) {
        case K_X: case K_Y: case K_LEN:
            st = parse_coord(ps, t, c->kinds[i], what, &e->c[nc++]);
            break;
        case K_WEIGHT:
            st = parse_weight(ps, t, what, e->cmd == C_RAIN_SET && i == 4 ? &e->w1 : &e->w0);
            break;
        case K_RATE: {
            double v;
            if (t->quoted || rpl_parse_real(cstr(t, 0, 0, b), 0, RATE_MAX, &v) != RPL_OK)
                return perr(ps, t->col, "bad RATE '%s': want stones per second, 0..1000",
                            shown(t, q));
            e->count = (int)lround(v * 1000.0 / 60.0);
            break;
        }
        case K_STRENGTH: {
            double v;
            if (t->quoted || rpl_parse_real(cstr(t, 0, 0, b), 0,
                                            (double)RPL_STRENGTH_MAX / RPL_STRENGTH_ONE, &v) != RPL_OK)
                return perr(ps, t->col, "bad STRENGTH '%s': want 0..4 (1 is 1:1)", shown(t, q));
            e->count = (int)lround(v * RPL_STRENGTH_ONE);
            break;
        }
        case K_FACTOR:
            st = parse_factor(ps, t, what, &e->wf[0]);
            e->wf[1] = e->wf[0]; /* wave=, read after the arguments, may change it */
            break;
        case K_ONOFF:
            if (!tok_is(t, "on") && !tok_is(t, "off"))
                return perr(ps, t->col, "bad '%s': want on or off", shown(t, q));
            e->count = tok_is(t, "on");
            break;
        case K_EDGES:
            if (!tok_is(t, "reflect") && !tok_is(t, "absorb"))
                return perr(ps, t->col, "bad '%s': want reflect or absorb", shown(t, q));
            e->count = tok_is(t, "absorb") ? RPL_EDGES_ABSORB : RPL_EDGES_REFLECT;
            break;
        case K_STONES:
            if (!tok_is(t, "smooth") && !tok_is(t, "classic"))
                return perr(ps, t->col, "bad '%s': want smooth or classic", shown(t, q));
            e->count = tok_is(t, "classic") ? RPL_STONES_DISCS : RPL_STONES_BUMPS;
            break;
        case K_TEXT:
            if (!t->quoted)
                return perr(ps, t->col, "the text must be in double quotes (\"RIPPLE\")");
            st = text_dots(ps, t, e);
            break;
        case K_NAME:
            st = picture_name(ps, t, e);
            break;
        case K_CARD:
            st = card_text(ps, t, e);
            break;
        case K_COLOUR: {
            unsigned v = 0;
            int ok = tok_is(t, "black") || tok_is(t, "white");
            if (tok_is(t, "white"))
                v = 0xFFFFFFu;
            /* '#' starts a comment: hexadecimal as in C */
            if (!ok && !t->quoted && t->n == 8 && t->p[0] == '0' &&
                (t->p[1] == 'x' || t->p[1] == 'X')) {
                ok = 1;
                for (size_t j = 2; j < 8; j++) {
                    char d = t->p[j];
                    int x = d >= '0' && d <= '9' ? d - '0' : d >= 'a' && d <= 'f' ? d - 'a' + 10
                          : d >= 'A' && d <= 'F' ? d - 'A' + 10 : -1;
                    if (x < 0)
                        ok = 0;
                    v = v << 4 | (unsigned)(x & 15);
                }
            }
            if (!ok)
                return perr(ps, t->col, "bad COLOUR '%s': want black, white or 0xRRGGBB "
                                        "(0x102030)", shown(t, q));
            e->w0 = (int)v;
            break;
        }
        case K_TIME: {
            int why = parse_time(ps, t, 0, 0, &ps->wait_ticks);
            if (why != T_OK)
                return time_err(ps, t, t->col, why, "TIME", "steps, seconds or beats (120, 2s, "
                                                            "0.5s, 2b, 1bar)");
            e->over = steps_of(ps, ps->wait_ticks);
            break;
        }
        }
        if (st != RPL_OK)
            return st;
    }
    if (e->cmd == C_RAIN_SET && e->w1 < e->w0)
        return perr(ps, args[4]->col, "WMAX %d is below WMIN %d", e->w1, e->w0);
    if (points) {
        int np = nargs - want;
        if (np % 2)
            return perr(ps, args[nargs - 1]->col, "the trail's points come in pairs: this X has "
                                                  "no Y");
        if (np / 2 > RPL_SHOW_POINTS_MAX)
            return perr(ps, args[want + 2 * RPL_SHOW_POINTS_MAX]->col,
                        "a trail has at most %d points", RPL_SHOW_POINTS_MAX);
        if (grow((void **)&s->pts, &s->cap_pts, s->npts + (size_t)np, sizeof *s->pts))
            return RPL_ENOMEM;
        e->first = s->npts;
        e->n = (size_t)np / 2;
        for (int i = 0; i < np; i++) {
            char what[16];
            snprintf(what, sizeof what, "%c%d", i % 2 ? 'Y' : 'X', i / 2);
            rpl_status st = parse_coord(ps, args[want + i], i % 2 ? K_Y : K_X, what,
                                        &s->pts[s->npts + (size_t)i]);
            if (st != RPL_OK)
                return st;
        }
        s->npts += (size_t)np;
    }
    return RPL_OK;
}

/* The NAME=VALUE options of a command. */
static rpl_status parse_opts(parser_t *ps, const struct cmd *c, tok_t **o, int no, ev_t *e)
{
    char q[QUOTE_MAX + 4], b[64];
    unsigned seen = 0;
    int times_col = 0, over_col = 0;
    for (int i = 0; i < no; i++) {
        const tok_t *t = o[i];
        const char *eq = memchr(t->p, '=', t->n);
        size_t nl = (size_t)(eq - t->p);
        int optional = t->p[0] == '?';
        const char *nm = t->p + optional;
        size_t nn = nl - (size_t)optional;
        const struct opt *op = NULL;
        for (size_t k = 0; k < sizeof opts / sizeof opts[0]; k++)
            if (strlen(opts[k].name) == nn && memcmp(opts[k].name, nm, nn) == 0)
                op = &opts[k];
        if (!op || !(c->opts & op->bit)) {
            if (optional)
                continue;
            tok_t nt = { nm, nn, t->col, 0 };
            if (!op)
                return perr(ps, t->col, "unknown option '%s' (an optional one is written "
                                        "'?NAME=VALUE')", shown(&nt, q));
            return perr(ps, t->col, "'%s' takes no option '%s'", c->name, shown(&nt, q));
        }
        if (seen & op->bit)
            return perr(ps, t->col, "option '%s' is given twice", op->name);
        seen |= op->bit;
        tok_t val = { eq + 1, t->n - nl - 1, t->col + (int)nl + 1, 0 };
        if (val.n == 0)
            return perr(ps, val.col, "option '%s' needs a value", op->name);
        switch (op->bit) {
        case O_OVER:
        case O_EVERY: {
            uint64_t v;
            int why = parse_time(ps, &val, 0, 0, &v);
            if (why == T_OK && op->bit == O_EVERY && v == 0)
                why = T_BAD;
            if (why != T_OK)
                return time_err(ps, &val, val.col, why, op->name,
                                op->bit == O_EVERY ? "steps, seconds or beats above 0 (30, "
                                                     "0.5s, 2b)"
                                                   : "steps, seconds or beats (30, 0.5s, 1b)");
            /* a repeat keeps time only in whole steps: 1b at 96 is 37.5 */
            if (op->bit == O_EVERY && v % ps->tps)
                return perr(ps, val.col, "every=%s is not a whole number of steps at tempo "
                                         "%d (a beat is %d/%d steps): a repeat must be",
                            shown(&val, q), ps->bpm, 3600, ps->bpm);
            v = steps_of(ps, v);
            if (op->bit == O_OVER)
                e->over = v, over_col = val.col;
            else
                e->every = v;
            break;
        }
        case O_TIMES:
        case O_COUNT: {
            long long v;
            long long hi = op->bit == O_TIMES ? TIMES_MAX : RPL_SHOW_STONES_MAX;
            if (rpl_parse_int(cstr(&val, 0, 0, b), 1, hi, &v) != RPL_OK)
                return perr(ps, val.col, "bad %s '%s': want a whole number 1..%lld", op->name,
                            shown(&val, q), hi);
            if (op->bit == O_TIMES)
                e->times = (uint64_t)v, times_col = t->col;
            else
                e->count = (int)v;
            break;
        }
        case O_RADIUS: {
            rpl_status st = parse_coord(ps, &val, K_LEN, "radius", &e->radius);
            if (st != RPL_OK)
                return st;
            break;
        }
        case O_WAVE: {
            rpl_status st = parse_factor(ps, &val, "wave", &e->wf[1]);
            if (st != RPL_OK)
                return st;
            break;
        }
        case O_SOUND:
            if (val.n == 2 && memcmp(val.p, "on", 2) == 0)
                e->quiet = 0;
            else if (val.n == 3 && memcmp(val.p, "off", 3) == 0)
                e->quiet = 1;
            else
                return perr(ps, val.col, "bad sound '%s': want on or off", shown(&val, q));
            break;
        }
    }
    if ((seen & O_TIMES) && !(seen & O_EVERY))
        return perr(ps, times_col, "times= goes with every=");
    if ((seen & O_EVERY) && e->over > e->every)
        return perr(ps, over_col, "over= is longer than every=: the repeats would overlap");
    return RPL_OK;
}

/* Keeps count of the actions running at once, and of the show's length. */
static rpl_status schedule(parser_t *ps, const ev_t *e, int col)
{
    uint64_t span = e->over > 1 ? e->over : 1, end;
    int forever = 0;
    if (!e->every)
        end = e->at + span;
    else if (!e->times)
        end = UINT64_MAX, forever = 1;
    else
        end = e->at + (e->times - 1) * e->every + span; /* < 2^64: each factor is bounded */
    int k = 0;
    for (int i = 0; i < ps->nends; i++)
        if (ps->ends[i] > e->at)
            ps->ends[k++] = ps->ends[i];
    ps->nends = k;
    if (ps->nends >= RPL_SHOW_ACTIVE_MAX)
        return perr(ps, col, "more than %d commands lay stones at once (at step %llu)",
                    RPL_SHOW_ACTIVE_MAX, (unsigned long long)e->at);
    ps->ends[ps->nends++] = end;
    ps->forever |= forever;
    if (!forever && end > ps->last)
        ps->last = end;
    return RPL_OK;
}

static rpl_status header(parser_t *ps)
{
    char q[QUOTE_MAX + 4], b[64];
    if (ps->ntok == 0 || !tok_is(&ps->tok[0], "ripple-show"))
        return perr(ps, ps->tok[0].col, "expected \"ripple-show %d\" first (the format and its "
                                        "version)", RPL_SHOW_VERSION);
    if (ps->ntok < 2)
        return perr(ps, ps->tok[0].col, "expected \"ripple-show %d\": the version is missing",
                    RPL_SHOW_VERSION);
    long long v;
    const tok_t *t = &ps->tok[1];
    if (t->quoted || rpl_parse_int(cstr(t, 0, 0, b), 1, 1000000000, &v) != RPL_OK)
        return perr(ps, t->col, "bad version '%s': want a whole number (ripple-show %d)",
                    shown(t, q), RPL_SHOW_VERSION);
    if (v > RPL_SHOW_VERSION)
        return perr(ps, t->col, "this is a ripple-show %lld file; this ripple plays version %d",
                    v, RPL_SHOW_VERSION);
    if (ps->ntok > 2)
        return perr(ps, ps->tok[2].col, "'%s' after the version: the header is just "
                                        "\"ripple-show %d\"", shown(&ps->tok[2], q),
                    RPL_SHOW_VERSION);
    ps->header = 1;
    return RPL_OK;
}

/* `tempo BPM [BEATS]`: what beats and bars are from here on (once a
 * show, before any time in beats; the music's own, to keep time with it). */
static rpl_status tempo(parser_t *ps, int k)
{
    char q[QUOTE_MAX + 4], b[64];
    const tok_t *c = &ps->tok[k];
    if (k)
        return perr(ps, ps->tok[0].col, "'tempo' takes no time: it says what beats are from "
                                        "its line on");
    if (ps->tempo_line)
        return perr(ps, c->col, "the tempo is set once a show (line %d)", ps->tempo_line);
    if (ps->ntok < 2 || ps->ntok > 3)
        return perr(ps, ps->ntok < 2 ? c->col : ps->tok[3].col,
                    "'tempo' wants BPM [BEATS-A-BAR] (tempo 96 4), got %d argument%s",
                    ps->ntok - 1, ps->ntok == 2 ? "" : "s");
    long long bpm, bpb = 4;
    const tok_t *t = &ps->tok[1];
    if (t->quoted || rpl_parse_int(cstr(t, 0, 0, b), BPM_MIN, BPM_MAX, &bpm) != RPL_OK)
        return perr(ps, t->col, "bad BPM '%s': want whole beats a minute, %d..%d", shown(t, q),
                    BPM_MIN, BPM_MAX);
    t = &ps->tok[2];
    if (ps->ntok == 3 &&
        (t->quoted || rpl_parse_int(cstr(t, 0, 0, b), 1, BPB_MAX, &bpb) != RPL_OK))
        return perr(ps, t->col, "bad BEATS-A-BAR '%s': want a whole number 1..%d", shown(t, q),
                    BPB_MAX);
    ps->bpm = (int)bpm;
    ps->bpb = (int)bpb;
    ps->tempo_line = ps->line;
    /* no time before was in beats: the clock is whole steps */
    ps->tps = 10 * (uint64_t)bpm;
    ps->tick = ps->clock * ps->tps;
    return RPL_OK;
}

static rpl_status parse_line(parser_t *ps, const char *line, size_t len)
{
    rpl_show_t *s = ps->s;
    char q[QUOTE_MAX + 4];
    rpl_status st = tokenize(ps, line, len);
    if (st != RPL_OK || ps->ntok == 0)
        return st;
    if (!ps->header)
        return header(ps);

    /* the time */
    int k = 0;
    uint64_t at = ps->clock, tick = ps->tick;
    const tok_t *t = &ps->tok[0];
    if (!t->quoted && t->n > 0 && (t->p[0] == '@' || t->p[0] == '+')) {
        uint64_t v;
        int why = parse_time(ps, t, 1, t->p[0] == '@', &v);
        if (why != T_OK)
            return time_err(ps, t, t->col, why, "time",
                            "steps, seconds or beats after '@' or '+' (@120, @2s, +30, +0.5s, "
                            "@5:3, +2b, +1bar)");
        if (t->p[0] == '@' && v < ps->tick)
            return perr(ps, t->col, "%s goes back in time: the line before is at step %llu",
                        shown(t, q), (unsigned long long)ps->clock);
        tick = t->p[0] == '@' ? v : ps->tick + v;
        at = steps_of(ps, tick);
        if (at > (uint64_t)RPL_SHOW_STEPS_MAX)
            return perr(ps, t->col, "%s is past step %ld, the longest a show may last",
                        shown(t, q), RPL_SHOW_STEPS_MAX);
        k = 1;
        if (ps->ntok == 1)
            return perr(ps, t->col, "a command must follow the time (or write 'wait')");
    }
    if (ps->closed_line)
        return perr(ps, ps->tok[0].col, "nothing may follow '%s' (line %d)", ps->closed_by,
                    ps->closed_line);
    ps->clock = at;
    ps->tick = tick;
    if (tok_is(&ps->tok[k], "tempo"))
        return tempo(ps, k);

    /* the command */
    const tok_t *ct = &ps->tok[k];
    int optional = !ct->quoted && ct->n > 1 && ct->p[0] == '?';
    tok_t cname = { ct->p + optional, ct->n - (size_t)optional, ct->col, ct->quoted };
    const tok_t *sub = k + 1 < ps->ntok ? &ps->tok[k + 1] : NULL;
    const struct cmd *c = NULL;
    int known = 0;
    for (size_t i = 0; i < NCMDS && !c; i++) {
        if (!tok_is(&cname, cmds[i].name))
            continue;
        known = 1;
        if (!cmds[i].sub || (sub && tok_is(sub, cmds[i].sub)))
            c = &cmds[i];
    }
    if (!known) {
        if (optional)
            return RPL_OK; /* a later version's: skipped */
        return perr(ps, ct->col, "unknown command '%s' (an optional one is written '?%s')",
                    shown(&cname, q), shown(&cname, q));
    }
    if (!c) /* "wall" without a known shape */
        return perr(ps, sub ? sub->col : ct->col, "'wall' wants rect, open, line or clear%s%s%s",
                    sub ? ", not '" : "", sub ? shown(sub, q) : "", sub ? "'" : "");
    int first = k + 1 + (c->sub != NULL);

    /* options (bare words with '=') apart from the arguments */
    tok_t *args[TOKENS_MAX], *op[TOKENS_MAX];
    int na = 0, no = 0;
    for (int i = first; i < ps->ntok; i++) {
        tok_t *a = &ps->tok[i];
        if (!a->quoted && memchr(a->p, '=', a->n))
            op[no++] = a;
        else
            args[na++] = a;
    }
    ev_t e;
    memset(&e, 0, sizeof e);
    e.at = at;
    e.cmd = c->cmd;
    e.line = ps->line;
    e.col = ct->col;
    if (c->cmd == C_RING)
        e.count = RING_COUNT_DEFAULT;
    st = parse_args(ps, c, ct, args, na, &e);
    if (st == RPL_OK)
        st = parse_opts(ps, c, op, no, &e);
    if (st != RPL_OK)
        return st;
    if (c->cmd == C_TEXT && e.radius.v == 0)
        e.radius = (coord_t){ e.c[2].v * 0.5, e.c[2].px };

    if (c->cmd == C_WAIT) {
        if (e.over > (uint64_t)RPL_SHOW_STEPS_MAX - at)
            return perr(ps, ct->col, "the wait goes past step %ld, the longest a show may last",
                        RPL_SHOW_STEPS_MAX);
        ps->tick += ps->wait_ticks;
        ps->clock = steps_of(ps, ps->tick);
        if (ps->clock > ps->last)
            ps->last = ps->clock;
        return RPL_OK;
    }
    if (c->cmd == C_CALM && e.over == 0)
        return perr(ps, args[0]->col, "'calm' over no time: write 'cut' to flatten the water at "
                                      "once");
    if (c->cmd == C_CARD && e.over < 2)
        return perr(ps, args[0]->col, "a card shows for 2 steps at least");
    if (c->cmd == C_FADE && e.over < 2)
        return perr(ps, args[0]->col, "a fade lasts 2 steps at least: to the colour and back");
    if ((c->cmd == C_LOOP || c->cmd == C_END) && at == 0)
        return perr(ps, ct->col, "'%s' at step 0: a show lasts at least one step", c->name);
    if (s->n >= RPL_SHOW_EVENTS_MAX)
        return perr(ps, ct->col, "more than %d commands in one show", RPL_SHOW_EVENTS_MAX);
    if (is_action(c->cmd) || c->cmd == C_CALM || c->cmd == C_FADE || c->cmd == C_CARD) {
        /* these run for their time too */
        st = schedule(ps, &e, ct->col);
        if (st != RPL_OK)
            return st;
    } else if (at + 1 > ps->last) {
        ps->last = at + 1;
    }
    if (c->cmd == C_LOOP || c->cmd == C_END) {
        ps->closed_line = ps->line;
        ps->closed_by = c->name;
        s->ending = c->cmd;
        s->length = at;
    }
    if (grow((void **)&s->ev, &s->cap, s->n + 1, sizeof *s->ev))
        return RPL_ENOMEM;
    s->ev[s->n++] = e;
    return RPL_OK;
}

static rpl_status parse_all(parser_t *ps, const char *text, size_t len)
{
    size_t i = 0;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) /* a UTF-8 byte order mark */
        i = 3;
    while (i < len) {
        ps->line++;
        size_t j = i;
        while (j < len && text[j] != '\n') {
            if (text[j] == '\0')
                return perr(ps, (int)(j - i) + 1, "a NUL byte: this is not a text file");
            if (j - i >= RPL_SHOW_LINE_MAX)
                return perr(ps, RPL_SHOW_LINE_MAX + 1, "the line is longer than %d bytes",
                            RPL_SHOW_LINE_MAX);
            j++;
        }
        rpl_status st = parse_line(ps, text + i, j - i);
        if (st != RPL_OK)
            return st;
        i = j + 1;
    }
    if (!ps->header) {
        ps->line = 1; /* an empty show: its start */
        return perr(ps, 1, "expected \"ripple-show %d\" first: the show is empty",
                    RPL_SHOW_VERSION);
    }
    if (!ps->s->ending)
        ps->s->length = ps->forever ? 0 : ps->last;
    return RPL_OK;
}

static rpl_status check_budget(parser_t *ps);

rpl_status rpl_show_parse(const char *text, size_t len, const char *name, rpl_show_t **out)
{
    if (!out)
        return RPL_EINVAL;
    *out = NULL;
    rpl_show_t *s = calloc(1, sizeof *s);
    if (!s)
        return RPL_ENOMEM;
    *out = s;
    if (!text && len > 0) {
        return rpl_err_set(&s->err, RPL_EINVAL, "%s: no text (NULL)", name ? name : "show");
    }
    parser_t *ps = calloc(1, sizeof *ps);
    if (!ps)
        return rpl_err_set(&s->err, RPL_ENOMEM, "out of memory");
    ps->s = s;
    ps->name = name ? name : "show";
    ps->tps = 1;
    rpl_status st;
    if (len > (size_t)RPL_SHOW_BYTES_MAX) {
        ps->line = 1;
        st = perr(ps, 1, "the show is larger than %ld bytes", RPL_SHOW_BYTES_MAX);
    } else {
        st = parse_all(ps, text ? text : "", len);
        if (st == RPL_OK)
            st = check_budget(ps);
    }
    free(ps);
    if (st == RPL_ENOMEM && !s->err.text[0])
        rpl_err_set(&s->err, st, "out of memory");
    if (st != RPL_OK) {
        /* a failed show holds nothing but its message */
        free(s->ev), free(s->pts), free(s->dots), free(s->strs);
        s->ev = NULL, s->pts = NULL, s->dots = NULL, s->strs = NULL;
        s->n = s->npts = s->ndots = s->nstrs = 0;
        s->length = 0;
        s->ending = 0;
        return st;
    }
    /* each array exactly as long as what it holds: less memory, and a
     * read past one is a read past its allocation (which a sanitizer sees) */
    shrink((void **)&s->ev, s->n * sizeof *s->ev);
    shrink((void **)&s->pts, s->npts * sizeof *s->pts);
    shrink((void **)&s->dots, 2 * s->ndots * sizeof *s->dots);
    shrink((void **)&s->strs, s->nstrs);
    s->cap = s->n;
    s->cap_pts = s->npts;
    s->cap_dots = 2 * s->ndots;
    s->cap_strs = s->nstrs;
    /* where each picture command is, so the i-th is found at once */
    for (size_t i = 0; i < s->n; i++)
        s->npics += s->ev[i].cmd == C_PICTURE;
    if (s->npics) {
        s->pics = malloc(s->npics * sizeof *s->pics);
        if (!s->pics) {
            free(s->ev), free(s->pts), free(s->dots), free(s->strs);
            s->ev = NULL, s->pts = NULL, s->dots = NULL, s->strs = NULL;
            s->n = s->npts = s->ndots = s->nstrs = s->npics = 0;
            s->length = s->work = s->work_step = 0;
            s->ending = 0;
            return rpl_err_set(&s->err, RPL_ENOMEM, "out of memory");
        }
        size_t k = 0;
        for (size_t i = 0; i < s->n; i++)
            if (s->ev[i].cmd == C_PICTURE)
                s->pics[k++] = i;
    }
    s->ok = 1;
    return RPL_OK;
}

rpl_status rpl_show_read(const char *path, rpl_show_t **out)
{
    if (!out)
        return RPL_EINVAL;
    *out = NULL;
    rpl_show_t *s = NULL;
    if (!path || !*path) {
        s = calloc(1, sizeof *s);
        if (!s)
            return RPL_ENOMEM;
        *out = s;
        return rpl_err_set(&s->err, RPL_EINVAL, "no show file (%s)", path ? "an empty name" : "NULL");
    }
    FILE *f = rpl_open_read(path);
    char *buf = NULL;
    size_t n = 0, cap = 0;
    rpl_status st = RPL_OK;
    int err = 0;
    const char *why = NULL;
    if (!f) {
        err = errno;
        st = RPL_EIO;
    }
    while (f && st == RPL_OK) {
        if (n == cap) {
            size_t c = cap ? cap * 2 : 4096;
            if (c > (size_t)RPL_SHOW_BYTES_MAX + 1)
                c = (size_t)RPL_SHOW_BYTES_MAX + 1;
            char *b = realloc(buf, c);
            if (!b) {
                st = RPL_ENOMEM;
                break;
            }
            buf = b;
            cap = c;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (ferror(f)) {
            err = errno;
            st = RPL_EIO;
        } else if (n > (size_t)RPL_SHOW_BYTES_MAX) {
            why = "larger than the most a show may be";
            st = RPL_EIO;
        } else if (got == 0 && feof(f)) {
            break;
        }
    }
    if (f)
        fclose(f);
    if (st != RPL_OK) {
        free(buf);
        s = calloc(1, sizeof *s);
        if (!s)
            return RPL_ENOMEM;
        *out = s;
        if (st == RPL_ENOMEM)
            return rpl_err_set(&s->err, st, "out of memory");
        if (why)
            return rpl_err_set(&s->err, st, "%s: larger than %ld bytes", path, RPL_SHOW_BYTES_MAX);
        return rpl_err_set(&s->err, st, "%s: %s", path, strerror(err ? err : EIO));
    }
    st = rpl_show_parse(buf ? buf : "", n, path, out);
    free(buf);
    return st;
}

void rpl_show_destroy(rpl_show_t *show)
{
    if (!show)
        return;
    free(show->ev);
    free(show->pts);
    free(show->dots);
    free(show->strs);
    free(show->pics);
    free(show);
}

int rpl_show_events(const rpl_show_t *show)
{
    return show && show->ok ? (int)show->n : 0;
}

uint64_t rpl_show_length(const rpl_show_t *show)
{
    return show && show->ok ? show->length : 0;
}

int rpl_show_loops(const rpl_show_t *show)
{
    return show && show->ok && show->ending == C_LOOP;
}

uint64_t rpl_show_work(const rpl_show_t *show, uint64_t *step)
{
    if (step)
        *step = show && show->ok ? show->work_step : 0;
    return show && show->ok ? show->work : 0;
}

int rpl_show_pictures(const rpl_show_t *show)
{
    return show && show->ok ? (int)show->npics : 0;
}

const char *rpl_show_picture(const rpl_show_t *show, int i, int *line, int *column)
{
    if (!show || !show->ok || i < 0 || (size_t)i >= show->npics)
        return NULL;
    const ev_t *e = &show->ev[show->pics[i]];
    if (line)
        *line = e->line;
    if (column)
        *column = e->col;
    return show->strs + e->first;
}

/* ---- the work budget ---------------------------------------------------- */

/*
 * What a show's steps cost, counted once when it is read (RPL_SHOW_WORK_*
 * in ripple.h): every command RPL_SHOW_WORK_COMMAND units for each step it
 * runs, a stone the (2R+1)^2 cells of the square around it and
 * RPL_SHOW_WORK_STONE for laying it, a wall the cells of its rectangle and
 * of the tiles it recounts, a cut or a picture the field, the rain its
 * most stones a step; fractions on the budget's field, px as they are.
 * The heaviest step is at a step where a command is written (between
 * them, commands laying stones only stop and the rain stays as it is), so
 * the commands are played through in order, twice for a show that loops:
 * the second pass starts with what the first left (the rain; the commands
 * at the step of `loop`, which play in the same tick as step 0).
 */
#define BW RPL_SHOW_WORK_W
#define BH RPL_SHOW_WORK_H
#define UNIT ((uint64_t)RPL_SHOW_WORK_COMMAND)

typedef struct budget {
    uint64_t end[RPL_SHOW_ACTIVE_MAX], cost[RPL_SHOW_ACTIVE_MAX];
    int nact;
    uint64_t act;       /* the running commands' cost a step */
    uint64_t step;      /* the step counted */
    uint64_t inst;      /* the other commands' cost at it */
    uint64_t acts_now;  /* commands laying stones written at it */
    int rain_on;
    uint64_t rain;      /* the rain's cost a step with its settings */
    uint64_t rain_step; /* the most rain in the step counted */
    uint64_t worst, worst_step;
} budget_t;

static uint64_t stone_cost(double r)
{
    uint64_t d = 2 * (uint64_t)radius(r) + 1;
    return d * d + RPL_SHOW_WORK_STONE;
}

/* Cells from a to b along a side of n cells on the budget's field (at
 * most RPL_DIM_MAX in px), rounded ends included, and the most the side
 * can have: n when both are fractions. */
static double side_cells(coord_t a, coord_t b, int n, double *cap)
{
    double hi;
    double fa = a.px ? a.v : a.v * n, fb = b.px ? b.v : b.v * n;
    double ca = a.px ? RPL_DIM_MAX : n, cb = b.px ? RPL_DIM_MAX : n;
    fa = fa < 0 ? 0 : fa > ca ? ca : fa;
    fb = fb < 0 ? 0 : fb > cb ? cb : fb;
    if (a.px == b.px)
        hi = fabs(fa - fb);
    else /* the fraction's end moves with the field: either end may be 0 */
        hi = fa > fb ? fa : fb;
    *cap = a.px || b.px ? RPL_DIM_MAX : n;
    return floor(hi) + 1;
}

/* A wall's cells: its box (grown by `grow` cells on each side), then one
 * tile more each way, within the most its sides can have. */
static uint64_t wall_cost(const ev_t *e, double grow, int px_grow)
{
    double capx, capy;
    double wx = side_cells(e->c[0], e->c[2], BW, &capx) + 2 * grow;
    double wy = side_cells(e->c[1], e->c[3], BH, &capy) + 2 * grow;
    if (px_grow)
        capx = capy = RPL_DIM_MAX;
    wx += 2 * RPL_TILE_W;
    wy += 2 * RPL_TILE_H;
    wx = wx > capx ? capx : wx;
    wy = wy > capy ? capy : wy;
    return (uint64_t)wx * (uint64_t)wy;
}

/* The rain's cost a step with e's settings (NULL: the default rain). */
static uint64_t rain_cost(const ev_t *e)
{
    if (!e) /* the default: 120 a kilostep, radius up to 2 * side / 240 */
        return stone_cost(2.0 * (BH / 240));
    uint64_t n = ((uint64_t)e->count + 999) / 1000;
    int r0 = radius(len_wh(e->c[0], BW, BH)), r1 = radius(len_wh(e->c[1], BW, BH));
    return n * stone_cost(r1 > r0 ? r1 : r0);
}

/* What a command laying stones costs each step it runs. */
static uint64_t action_cost(const rpl_show_t *s, const ev_t *e)
{
    static const path_t none;
    path_t pa;
    const path_t *pp = &none;
    double r = 1;
    uint64_t extra = 0;
    switch (e->cmd) {
    case C_DROP: r = len_wh(e->c[2], BW, BH); break;
    case C_RING: r = len_wh(e->c[3], BW, BH); break;
    case C_TEXT: r = len_wh(e->radius, BW, BH); break;
    case C_TRAIL: {
        /* A spacing in fractions of the shorter side is as short as a
         * cell on a narrow field, where a path in fractions is no longer
         * than here: count the stones a cell apart.  Points and spacing
         * in different units: count its most. */
        ev_t one = *e;
        if (!e->c[1].px)
            one.c[1] = (coord_t){ 1.0, 1 };
        rpl_show_trail_path(s, &one, BW, BH, &pa);
        pp = &pa;
        r = len_wh(e->c[0], BW, BH);
        extra = RPL_SHOW_WORK_POINT * (uint64_t)e->n; /* the path, found again each step */
        for (size_t i = 0; i < 2 * e->n; i++)
            if (s->pts[e->first + i].px != e->c[1].px)
                pa.segs = RPL_SHOW_STONES_MAX - 1;
        break;
    }
    }
    uint64_t span = e->over > 1 ? e->over : 1, n = rpl_show_stone_count(e, pp);
    return UNIT + extra + (n + span - 1) / span * stone_cost(r);
}

/* What any other command costs in its step. */
static uint64_t command_cost(const ev_t *e)
{
    switch (e->cmd) {
    case C_WALL_RECT:
    case C_WALL_OPEN:
        return UNIT + wall_cost(e, 0, 0);
    case C_WALL_LINE: {
        /* the thickness as played, within 1..w+h; the box reaches
         * thickness/2 + 1 cells past the ends, and a cell more */
        double th = len_wh(e->c[4], BW, BH);
        double most = e->c[4].px ? 2.0 * RPL_DIM_MAX : BW + BH;
        th = cell(th) < 1 ? 1 : cell(th) > most ? most : cell(th);
        return UNIT + wall_cost(e, floor(th / 2) + 2, e->c[4].px);
    }
    case C_CUT:
    case C_PICTURE:
        return UNIT + (uint64_t)BW * BH;
    default:
        return UNIT;
    }
}

static rpl_status over_budget(parser_t *ps, const ev_t *e, const budget_t *b, uint64_t total,
                              int again)
{
    ps->line = e->line;
    return perr(ps, e->col, "step %llu%s would cost %llu units of work, over the budget of "
                            "%ld a step (stones, walls, cuts and commands: docs/shows.md)",
                (unsigned long long)b->step, again ? " (after the loop)" : "",
                (unsigned long long)total, RPL_SHOW_WORK_MAX);
}

/* Counts the step so far; a message at e if it is over the budget. */
static rpl_status count_step(parser_t *ps, const ev_t *e, budget_t *b, int again)
{
    uint64_t total = b->inst + b->act + b->rain_step;
    if (total > (uint64_t)RPL_SHOW_WORK_MAX)
        return over_budget(ps, e, b, total, again);
    if (total > b->worst) {
        b->worst = total;
        b->worst_step = b->step;
    }
    return RPL_OK;
}

/* Moves the count on to step t. */
static void next_step(budget_t *b, uint64_t t)
{
    int k = 0;
    b->act = 0;
    for (int i = 0; i < b->nact; i++)
        if (b->end[i] > t) {
            b->end[k] = b->end[i];
            b->cost[k] = b->cost[i];
            b->act += b->cost[k++];
        }
    b->nact = k;
    b->step = t;
    b->inst = 0;
    b->acts_now = 0;
    b->rain_step = b->rain_on ? b->rain : 0;
}

/* One pass through the commands; *carry: what the step of `loop` costs
 * besides the commands laying stones (which it stops), for the next pass
 * to start with. */
static rpl_status budget_pass(parser_t *ps, budget_t *b, int again, uint64_t *carry)
{
    const rpl_show_t *s = ps->s;
    b->nact = 0;
    next_step(b, 0);
    if (again) {
        b->inst = *carry;
        rpl_status st = count_step(ps, &s->ev[s->n - 1], b, again);
        if (st != RPL_OK)
            return st;
    }
    for (size_t i = 0; i < s->n; i++) {
        const ev_t *e = &s->ev[i];
        if (e->at != b->step)
            next_step(b, e->at);
        if (is_action(e->cmd) || e->cmd == C_CALM || e->cmd == C_FADE || e->cmd == C_CARD) {
            uint64_t span = e->over > 1 ? e->over : 1, end;
            if (!e->every)
                end = e->at + span;
            else if (!e->times)
                end = UINT64_MAX;
            else
                end = e->at + (e->times - 1) * e->every + span;
            if (b->nact < RPL_SHOW_ACTIVE_MAX) { /* always: the parser counted them */
                b->end[b->nact] = end;
                /* a calm scales the field, a fade paints the picture again */
                b->cost[b->nact++] = is_action(e->cmd) ? action_cost(s, e)
                                                       : UNIT + (uint64_t)BW * BH;
                b->act += b->cost[b->nact - 1];
            }
            b->acts_now++;
        } else {
            b->inst += command_cost(e);
            if (e->cmd == C_RAIN_SET)
                b->rain = rain_cost(e);
            if (e->cmd == C_RAIN_SET || e->cmd == C_RAIN_ON)
                b->rain_on = 1;
            else if (e->cmd == C_RAIN_OFF)
                b->rain_on = 0;
            if (b->rain_on && b->rain > b->rain_step)
                b->rain_step = b->rain;
        }
        rpl_status st = count_step(ps, e, b, again);
        if (st != RPL_OK)
            return st;
        if (e->cmd == C_LOOP)
            *carry = b->inst + b->acts_now * UNIT;
    }
    return RPL_OK;
}

static rpl_status check_budget(parser_t *ps)
{
    rpl_show_t *s = ps->s;
    budget_t *b = calloc(1, sizeof *b);
    if (!b)
        return RPL_ENOMEM;
    b->rain = rain_cost(NULL);
    uint64_t carry = 0;
    rpl_status st = budget_pass(ps, b, 0, &carry);
    if (st == RPL_OK && s->ending == C_LOOP) {
        uint64_t worst = b->worst, at = b->worst_step;
        b->worst = 0;
        st = budget_pass(ps, b, 1, &carry);
        if (b->worst < worst) {
            b->worst = worst;
            b->worst_step = at;
        }
    }
    s->work = b->worst;
    s->work_step = b->worst_step;
    free(b);
    return st;
}
