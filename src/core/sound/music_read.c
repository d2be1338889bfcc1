/* core/sound/music_read.c - scores: tempo, instruments, patterns of notes and the order they play in, read from text with every count and value checked (the synthesizer that plays them is synth.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/base.h"
#include "core/sound/music.h"
#include "ripple_support.h"

#define TOKENS_MAX (RPL_MUSIC_LINE_MAX / 2 + 1)
#define QUOTE_MAX 24
#define PATTERN_STEPS_MAX 256
#define REPEAT_MAX 64
#define LINES_MAX 16 /* track lines in a pattern */
#define ROW_MAX 16   /* patterns played together */

/* ---- messages --------------------------------------------------------- */

const char *rpl_music_error(const rpl_music_t *music)
{
    return music ? rpl_err_text(&music->err) : "no music (NULL)";
}

/* ---- the parser ------------------------------------------------------- */

typedef struct tok {
    const char *p;
    size_t n;
    int col;
} tok_t;

/* A pattern's note, before it is placed in the loop. */
typedef struct pnote {
    uint16_t step, len;
    uint8_t inst, line; /* its instrument and its line among that instrument's in the pattern */
    uint8_t pitch, vel;
} pnote_t;

typedef struct pattern {
    char name[RPL_MUSIC_NAME_MAX + 1];
    int steps;
    int first, n;        /* its notes in parser_t.pn */
    int lines[RPL_MUSIC_INSTRUMENTS_MAX]; /* lines of each instrument */
    int nlines;
} pattern_t;

typedef struct parser {
    rpl_music_t *m;
    const char *name;
    int line;
    int header, tempo_line, echo_line, room_line, master_line;
    int open;            /* the pattern being written, -1 if none */
    int npat;
    pattern_t pat[RPL_MUSIC_PATTERNS_MAX];
    pnote_t *pn;
    int npn, cap_pn;
    int cap_notes;
    uint64_t track_key[RPL_MUSIC_TRACKS_MAX]; /* (instrument, line) of each track */
    tok_t tok[TOKENS_MAX];
    int ntok;
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
    return rpl_err_at(&ps->m->err, ps->name, ps->line, col, msg);
}

/* A token as text for a message (rpl_err_quote). */
static const char *shown(const tok_t *t, char out[QUOTE_MAX + 4])
{
    return rpl_err_quote(t->p, t->n, QUOTE_MAX, out);
}

static int tok_is(const tok_t *t, const char *word)
{
    size_t n = strlen(word);
    return t->n == n && memcmp(t->p, word, n) == 0;
}

/* Words between spaces or tabs; '#' starts a comment. */
static rpl_status tokenize(parser_t *ps, const char *line, size_t len)
{
    size_t i = 0;
    ps->ntok = 0;
    while (i < len) {
        unsigned char c = (unsigned char)line[i];
        if (c == ' ' || c == '\t' || c == '\r') {
            i++;
            continue;
        }
        if (c == '#')
            break;
        size_t j = i;
        while (j < len && line[j] != ' ' && line[j] != '\t' && line[j] != '\r' && line[j] != '#') {
            unsigned char d = (unsigned char)line[j];
            if (d < 32 || d == 127)
                return perr(ps, (int)j + 1, "control character 0x%02X (words are separated by "
                                            "spaces or tabs)", d);
            j++;
        }
        tok_t *t = &ps->tok[ps->ntok++];
        t->p = line + i;
        t->n = j - i;
        t->col = (int)i + 1;
        i = j;
    }
    return RPL_OK;
}

/* A whole number in lo..hi, what naming it in the messages. */
static rpl_status number(parser_t *ps, const tok_t *t, const char *what, int lo, int hi, int *out)
{
    char q[QUOTE_MAX + 4];
    size_t i = 0;
    int neg = 0;
    if (t->n > 0 && (t->p[0] == '-' || t->p[0] == '+'))
        neg = t->p[0] == '-', i = 1;
    long v = 0;
    if (i == t->n)
        return perr(ps, t->col, "%s: '%s' is not a whole number", what, shown(t, q));
    for (; i < t->n; i++) {
        if (t->p[i] < '0' || t->p[i] > '9')
            return perr(ps, t->col, "%s: '%s' is not a whole number", what, shown(t, q));
        v = v * 10 + (t->p[i] - '0');
        if (v > 1000000000L)
            return perr(ps, t->col, "%s %s out of range %d..%d", what, shown(t, q), lo, hi);
    }
    v = neg ? -v : v;
    if (v < lo || v > hi)
        return perr(ps, t->col, "%s %ld out of range %d..%d", what, v, lo, hi);
    *out = (int)v;
    return RPL_OK;
}

/* A name of letters, digits, '_' and '-', starting with a letter. */
static rpl_status name_of(parser_t *ps, const tok_t *t, const char *what, char out[RPL_MUSIC_NAME_MAX + 1])
{
    char q[QUOTE_MAX + 4];
    if (t->n > RPL_MUSIC_NAME_MAX)
        return perr(ps, t->col, "%s name '%s' longer than %d bytes", what, shown(t, q),
                    RPL_MUSIC_NAME_MAX);
    for (size_t i = 0; i < t->n; i++) {
        char c = t->p[i];
        int letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (!letter && (i == 0 || !((c >= '0' && c <= '9') || c == '_' || c == '-')))
            return perr(ps, t->col, "%s name '%s': letters, digits, '_' and '-', a letter first",
                        what, shown(t, q));
    }
    memcpy(out, t->p, t->n);
    out[t->n] = '\0';
    return RPL_OK;
}

/* A note's name: a letter A..G, '#' or 'b', an octave 0..9 ("C4" is
 * middle C, MIDI 60). -1 if it is none. */
static int note_number(const char *p, size_t n)
{
    static const int pc[7] = { 9, 11, 0, 2, 4, 5, 7 }; /* A B C D E F G */
    if (n < 2 || n > 3 || p[0] < 'A' || p[0] > 'G')
        return -1;
    int v = pc[p[0] - 'A'];
    size_t i = 1;
    if (n == 3) {
        if (p[1] == '#')
            v++;
        else if (p[1] == 'b')
            v--;
        else
            return -1;
        i = 2;
    }
    if (p[i] < '0' || p[i] > '9')
        return -1;
    v += 12 * (p[i] - '0' + 1);
    return v >= 0 && v <= 127 ? v : -1;
}

static const char *const KEYWORDS[] = { "tempo", "echo", "room", "master", "instrument",
                                        "pattern", "play", "ripple-music", NULL };

static int is_keyword(const tok_t *t)
{
    for (int i = 0; KEYWORDS[i]; i++)
        if (tok_is(t, KEYWORDS[i]))
            return 1;
    return 0;
}

static int find_inst(const rpl_music_t *m, const tok_t *t)
{
    for (int i = 0; i < m->ninst; i++)
        if (strlen(m->inst[i].name) == t->n && memcmp(m->inst[i].name, t->p, t->n) == 0)
            return i;
    return -1;
}

static int find_pattern(const parser_t *ps, const tok_t *t)
{
    for (int i = 0; i < ps->npat; i++)
        if (strlen(ps->pat[i].name) == t->n && memcmp(ps->pat[i].name, t->p, t->n) == 0)
            return i;
    return -1;
}

/* Not a repeat of a command that may appear once. */
static rpl_status once(parser_t *ps, int *seen, const char *what)
{
    if (*seen)
        return perr(ps, ps->tok[0].col, "a second '%s' (the first is on line %d)", what, *seen);
    *seen = ps->line;
    return RPL_OK;
}

static rpl_status want_args(parser_t *ps, int lo, int hi, const char *usage)
{
    int n = ps->ntok - 1;
    if (n < lo)
        return perr(ps, ps->tok[0].col, "too few words: %s", usage);
    if (n > hi)
        return perr(ps, ps->tok[hi + 1].col, "too many words: %s", usage);
    return RPL_OK;
}

static const char *const WAVES_NAMES[WAVES] = { "sine", "triangle", "saw", "square", "pulse", "noise" };
static const char *const FILTER_NAMES[] = { "off", "lp", "bp", "hp", NULL };

/* An instrument's settings by key: where each is kept, and its range. */
static const struct setting {
    const char *key;
    size_t off;
    int lo, hi;
} SETTINGS[] = {
    { "volume", offsetof(mus_inst_t, volume), 0, 100 },
    { "pan", offsetof(mus_inst_t, pan), -100, 100 },
    { "attack", offsetof(mus_inst_t, attack), 0, 10000 },
    { "decay", offsetof(mus_inst_t, decay), 1, 10000 },
    { "sustain", offsetof(mus_inst_t, sustain), 0, 100 },
    { "release", offsetof(mus_inst_t, release), 1, 10000 },
    { "cutoff", offsetof(mus_inst_t, cutoff), 20, 20000 },
    { "resonance", offsetof(mus_inst_t, resonance), 0, 100 },
    { "envmod", offsetof(mus_inst_t, envmod), 0, 20000 },
    { "detune", offsetof(mus_inst_t, detune), 0, 100 },
    { "sweep", offsetof(mus_inst_t, sweep), 0, 48 },
    { "sweeptime", offsetof(mus_inst_t, sweep_ms), 1, 2000 },
    { "echo", offsetof(mus_inst_t, echo), 0, 100 },
    { "space", offsetof(mus_inst_t, space), 0, 100 },
    { "width", offsetof(mus_inst_t, width), 1, 99 },
    { NULL, 0, 0, 0 }
};

static rpl_status instrument(parser_t *ps)
{
    rpl_music_t *m = ps->m;
    char q[QUOTE_MAX + 4];
    rpl_status st = want_args(ps, 2, TOKENS_MAX - 2, "instrument NAME WAVE [SETTING VALUE]...");
    if (st != RPL_OK)
        return st;
    if (m->ninst == RPL_MUSIC_INSTRUMENTS_MAX)
        return perr(ps, ps->tok[0].col, "more than %d instruments", RPL_MUSIC_INSTRUMENTS_MAX);
    const tok_t *nt = &ps->tok[1];
    if (is_keyword(nt))
        return perr(ps, nt->col, "'%s' is a command, not a name for an instrument", shown(nt, q));
    if (find_inst(m, nt) >= 0)
        return perr(ps, nt->col, "a second instrument '%s'", shown(nt, q));
    mus_inst_t in = { .wave = WAVE_SINE, .width = 50, .volume = 70, .attack = 2, .decay = 200,
                      .sustain = 70, .release = 100, .filter = FILTER_OFF, .cutoff = 20000,
                      .sweep_ms = 30, .note = 60 };
    if ((st = name_of(ps, nt, "an instrument", in.name)) != RPL_OK)
        return st;
    const tok_t *wt = &ps->tok[2];
    in.wave = -1;
    for (int w = 0; w < WAVES; w++)
        if (tok_is(wt, WAVES_NAMES[w]))
            in.wave = w;
    if (in.wave < 0)
        return perr(ps, wt->col, "unknown wave '%s' (sine, triangle, saw, square, pulse, noise)",
                    shown(wt, q));
    for (int i = 3; i < ps->ntok; i += 2) {
        const tok_t *k = &ps->tok[i];
        if (i + 1 >= ps->ntok)
            return perr(ps, k->col, "'%s' without a value", shown(k, q));
        const tok_t *v = &ps->tok[i + 1];
        if (tok_is(k, "filter")) {
            in.filter = -1;
            for (int f = 0; FILTER_NAMES[f]; f++)
                if (tok_is(v, FILTER_NAMES[f]))
                    in.filter = f;
            if (in.filter < 0)
                return perr(ps, v->col, "unknown filter '%s' (off, lp, bp, hp)", shown(v, q));
            continue;
        }
        if (tok_is(k, "note")) {
            in.note = note_number(v->p, v->n);
            if (in.note < 0)
                return perr(ps, v->col, "note: '%s' is not a note (C4 is middle C; A..G, # or b, "
                                        "an octave 0..9, at most G9)", shown(v, q));
            continue;
        }
        const struct setting *s = SETTINGS;
        while (s->key && !tok_is(k, s->key))
            s++;
        if (!s->key)
            return perr(ps, k->col, "unknown setting '%s' of an instrument", shown(k, q));
        if ((st = number(ps, v, s->key, s->lo, s->hi, (int *)((char *)&in + s->off))) != RPL_OK)
            return st;
    }
    m->inst[m->ninst++] = in;
    return RPL_OK;
}

static rpl_status pattern(parser_t *ps)
{
    char q[QUOTE_MAX + 4];
    rpl_status st = want_args(ps, 2, 2, "pattern NAME STEPS");
    if (st != RPL_OK)
        return st;
    if (ps->npat == RPL_MUSIC_PATTERNS_MAX)
        return perr(ps, ps->tok[0].col, "more than %d patterns", RPL_MUSIC_PATTERNS_MAX);
    const tok_t *nt = &ps->tok[1];
    if (find_pattern(ps, nt) >= 0)
        return perr(ps, nt->col, "a second pattern '%s'", shown(nt, q));
    pattern_t *p = &ps->pat[ps->npat];
    memset(p, 0, sizeof *p);
    if ((st = name_of(ps, nt, "a pattern", p->name)) != RPL_OK ||
        (st = number(ps, &ps->tok[2], "steps", 1, PATTERN_STEPS_MAX, &p->steps)) != RPL_OK)
        return st;
    p->first = ps->npn;
    ps->open = ps->npat++;
    return RPL_OK;
}

static rpl_status add_pnote(parser_t *ps, const pnote_t *n, int col)
{
    if (ps->npn == RPL_MUSIC_NOTES_MAX)
        return perr(ps, col, "more than %d notes in the patterns", RPL_MUSIC_NOTES_MAX);
    if (ps->npn == ps->cap_pn) {
        int c = ps->cap_pn ? 2 * ps->cap_pn : 256;
        pnote_t *b = realloc(ps->pn, (size_t)c * sizeof *b);
        if (!b)
            return RPL_ENOMEM;
        ps->pn = b;
        ps->cap_pn = c;
    }
    ps->pn[ps->npn++] = *n;
    ps->pat[ps->open].n++;
    return RPL_OK;
}

/* A line of the open pattern: an instrument, then one word a step. */
static rpl_status track_line(parser_t *ps)
{
    char q[QUOTE_MAX + 4];
    pattern_t *p = &ps->pat[ps->open];
    const tok_t *it = &ps->tok[0];
    int inst = find_inst(ps->m, it);
    if (inst < 0)
        return perr(ps, it->col, "'%s' is neither a command nor an instrument", shown(it, q));
    if (p->nlines == LINES_MAX)
        return perr(ps, it->col, "more than %d lines in pattern '%s'", LINES_MAX, p->name);
    int line = p->lines[inst]++;
    p->nlines++;
    int step = 0, held = -1; /* the note that a '-' holds: its index in ps->pn */
    for (int i = 1; i < ps->ntok; i++) {
        const tok_t *t = &ps->tok[i];
        if (tok_is(t, "|"))
            continue; /* a bar line, for the eye */
        if (step == p->steps)
            return perr(ps, t->col, "more than the pattern's %d steps", p->steps);
        if (tok_is(t, ".")) {
            held = -1;
        } else if (tok_is(t, "-")) {
            if (held < 0)
                return perr(ps, t->col, "'-' holds a note, but none sounds here");
            ps->pn[held].len++;
        } else {
            size_t n = t->n, colon = 0;
            while (colon < n && t->p[colon] != ':')
                colon++;
            pnote_t nn = { .step = (uint16_t)step, .len = 1, .inst = (uint8_t)inst,
                           .line = (uint8_t)line, .vel = 100 };
            int pitch;
            if (colon == 1 && (t->p[0] == 'x' || t->p[0] == 'o')) {
                pitch = ps->m->inst[inst].note;
                nn.vel = t->p[0] == 'x' ? 100 : 50;
            } else if ((pitch = note_number(t->p, colon)) < 0) {
                return perr(ps, t->col, "'%s' is not a step ('.' rest, '-' hold, 'x' or 'o' a "
                                        "hit, a note such as C4 or F#2, ':VELOCITY' after)",
                            shown(t, q));
            }
            if (colon < n) {
                tok_t v = { t->p + colon + 1, n - colon - 1, t->col + (int)colon + 1 };
                int vel;
                rpl_status st = number(ps, &v, "velocity", 1, 100, &vel);
                if (st != RPL_OK)
                    return st;
                nn.vel = (uint8_t)vel;
            }
            nn.pitch = (uint8_t)pitch;
            rpl_status st = add_pnote(ps, &nn, t->col);
            if (st != RPL_OK)
                return st;
            held = ps->npn - 1;
        }
        step++;
    }
    if (step != p->steps)
        return perr(ps, ps->ntok > 1 ? ps->tok[ps->ntok - 1].col : it->col,
                    "%d steps, but pattern '%s' has %d", step, p->name, p->steps);
    return RPL_OK;
}

static rpl_status play(parser_t *ps)
{
    rpl_music_t *m = ps->m;
    char q[QUOTE_MAX + 4];
    rpl_status st = want_args(ps, 2, 1 + ROW_MAX, "play COUNT PATTERN... (at most 16 patterns)");
    if (st != RPL_OK)
        return st;
    if (!ps->tempo_line)
        return perr(ps, ps->tok[0].col, "'play' before the tempo");
    int count, steps = 0;
    if ((st = number(ps, &ps->tok[1], "count", 1, REPEAT_MAX, &count)) != RPL_OK)
        return st;
    int pats[ROW_MAX], np = 0;
    int lines[RPL_MUSIC_INSTRUMENTS_MAX] = { 0 };
    int base_line[ROW_MAX][RPL_MUSIC_INSTRUMENTS_MAX];
    for (int i = 2; i < ps->ntok; i++) {
        const tok_t *t = &ps->tok[i];
        int k = find_pattern(ps, t);
        if (k < 0)
            return perr(ps, t->col, "no pattern '%s' (a pattern is written before it plays)",
                        shown(t, q));
        if (np > 0 && ps->pat[k].steps != steps)
            return perr(ps, t->col, "pattern '%s' has %d steps, the others %d: patterns played "
                                    "together are as long", ps->pat[k].name, ps->pat[k].steps, steps);
        steps = ps->pat[k].steps;
        /* the instrument's lines of the patterns together: each its own track */
        for (int j = 0; j < m->ninst; j++) {
            base_line[np][j] = lines[j];
            lines[j] += ps->pat[k].lines[j];
        }
        pats[np++] = k;
    }
    /* the loop stays within RPL_MUSIC_SECONDS_MAX: steps <= seconds * bpm * spb / 60 */
    uint64_t most = (uint64_t)RPL_MUSIC_SECONDS_MAX * (uint64_t)m->bpm * (uint64_t)m->spb / 60u;
    uint64_t end = m->steps + (uint64_t)count * (uint64_t)steps;
    if (end > most)
        return perr(ps, ps->tok[1].col, "the music would last longer than %d s",
                    RPL_MUSIC_SECONDS_MAX);
    for (int r = 0; r < count; r++)
        for (int i = 0; i < np; i++) {
            const pattern_t *p = &ps->pat[pats[i]];
            for (int j = p->first; j < p->first + p->n; j++) {
                const pnote_t *pn = &ps->pn[j];
                uint64_t key = (uint64_t)pn->inst << 32 | (uint64_t)(base_line[i][pn->inst] + pn->line);
                int tr = 0;
                while (tr < m->ntracks && ps->track_key[tr] != key)
                    tr++;
                if (tr == m->ntracks) {
                    if (m->ntracks == RPL_MUSIC_TRACKS_MAX)
                        return perr(ps, ps->tok[2 + i].col, "more than %d tracks (an instrument's "
                                    "lines played together are a track each)", RPL_MUSIC_TRACKS_MAX);
                    ps->track_key[tr] = key;
                    m->track_inst[tr] = pn->inst;
                    m->ntracks++;
                }
                if (m->nnotes == RPL_MUSIC_NOTES_MAX)
                    return perr(ps, ps->tok[2 + i].col, "more than %d notes in the loop",
                                RPL_MUSIC_NOTES_MAX);
                if (m->nnotes == ps->cap_notes) {
                    int c = ps->cap_notes ? 2 * ps->cap_notes : 1024;
                    mus_note_t *b = realloc(m->notes, (size_t)c * sizeof *b);
                    if (!b)
                        return RPL_ENOMEM;
                    m->notes = b;
                    ps->cap_notes = c;
                }
                mus_note_t *n = &m->notes[m->nnotes++];
                n->step = (uint32_t)(m->steps + (uint64_t)r * (uint64_t)steps + pn->step);
                n->len = pn->len;
                n->track = (uint8_t)tr;
                n->pitch = pn->pitch;
                n->vel = pn->vel;
            }
        }
    m->steps = (uint32_t)end;
    return RPL_OK;
}

static rpl_status header(parser_t *ps)
{
    char q[QUOTE_MAX + 4];
    if (!tok_is(&ps->tok[0], "ripple-music"))
        return perr(ps, ps->tok[0].col, "expected \"ripple-music %d\" first (the format and its "
                                        "version)", RPL_MUSIC_VERSION);
    if (ps->ntok < 2)
        return perr(ps, ps->tok[0].col, "expected \"ripple-music %d\": the version is missing",
                    RPL_MUSIC_VERSION);
    if (!tok_is(&ps->tok[1], "1"))
        return perr(ps, ps->tok[1].col, "version '%s': this ripple reads ripple-music %d",
                    shown(&ps->tok[1], q), RPL_MUSIC_VERSION);
    if (ps->ntok > 2)
        return perr(ps, ps->tok[2].col, "'%s' after \"ripple-music %d\"", shown(&ps->tok[2], q),
                    RPL_MUSIC_VERSION);
    ps->header = ps->line;
    return RPL_OK;
}

static rpl_status parse_line(parser_t *ps, const char *line, size_t len)
{
    rpl_status st = tokenize(ps, line, len);
    if (st != RPL_OK || ps->ntok == 0)
        return st;
    if (!ps->header)
        return header(ps);
    rpl_music_t *m = ps->m;
    const tok_t *c = &ps->tok[0];
    char q[QUOTE_MAX + 4];
    if (!is_keyword(c)) {
        if (ps->open < 0)
            return perr(ps, c->col, "unknown command '%s' (tempo, echo, room, master, instrument, "
                                    "pattern, play)", shown(c, q));
        return track_line(ps);
    }
    ps->open = -1;
    if (tok_is(c, "ripple-music"))
        return perr(ps, c->col, "a second \"ripple-music\" line (the first is line %d)", ps->header);
    if (tok_is(c, "tempo")) {
        if ((st = once(ps, &ps->tempo_line, "tempo")) != RPL_OK ||
            (st = want_args(ps, 2, 3, "tempo BPM STEPS-A-BEAT [BEATS-A-BAR]")) != RPL_OK ||
            (st = number(ps, &ps->tok[1], "bpm", 20, 300, &m->bpm)) != RPL_OK ||
            (st = number(ps, &ps->tok[2], "steps a beat", 1, 16, &m->spb)) != RPL_OK)
            return st;
        m->bpbar = 4;
        return ps->ntok > 3 ? number(ps, &ps->tok[3], "beats a bar", 1, 16, &m->bpbar) : RPL_OK;
    }
    if (tok_is(c, "echo")) {
        if ((st = once(ps, &ps->echo_line, "echo")) != RPL_OK ||
            (st = want_args(ps, 2, 2, "echo STEPS FEEDBACK")) != RPL_OK ||
            (st = number(ps, &ps->tok[1], "echo steps", 1, 64, &m->echo_steps)) != RPL_OK)
            return st;
        return number(ps, &ps->tok[2], "feedback", 0, 90, &m->echo_feedback);
    }
    if (tok_is(c, "room")) {
        if ((st = once(ps, &ps->room_line, "room")) != RPL_OK ||
            (st = want_args(ps, 1, 1, "room SIZE")) != RPL_OK)
            return st;
        return number(ps, &ps->tok[1], "room size", 0, 100, &m->room);
    }
    if (tok_is(c, "master")) {
        if ((st = once(ps, &ps->master_line, "master")) != RPL_OK ||
            (st = want_args(ps, 1, 1, "master VOLUME")) != RPL_OK)
            return st;
        return number(ps, &ps->tok[1], "master volume", 0, 100, &m->master);
    }
    if (tok_is(c, "instrument"))
        return instrument(ps);
    if (tok_is(c, "pattern"))
        return pattern(ps);
    return play(ps);
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
            if (j - i >= RPL_MUSIC_LINE_MAX)
                return perr(ps, RPL_MUSIC_LINE_MAX + 1, "the line is longer than %d bytes",
                            RPL_MUSIC_LINE_MAX);
            j++;
        }
        rpl_status st = parse_line(ps, text + i, j - i);
        if (st != RPL_OK)
            return st;
        i = j + 1;
    }
    if (!ps->header) {
        ps->line = 1;
        return perr(ps, 1, "expected \"ripple-music %d\" first: the score is empty",
                    RPL_MUSIC_VERSION);
    }
    if (ps->m->steps == 0) {
        ps->line++;
        return perr(ps, 1, "the score plays nothing (no 'play' line)");
    }
    return RPL_OK;
}

static int by_step(const void *a, const void *b)
{
    const mus_note_t *x = a, *y = b;
    if (x->step != y->step)
        return x->step < y->step ? -1 : 1;
    return (x->track > y->track) - (x->track < y->track);
}

rpl_status rpl_music_parse(const char *text, size_t len, const char *name, rpl_music_t **out)
{
    if (!out)
        return RPL_EINVAL;
    rpl_music_t *m = *out = calloc(1, sizeof *m);
    if (!m)
        return RPL_ENOMEM;
    if (!text && len > 0)
        return rpl_err_set(&m->err, RPL_EINVAL, "%s: no text (NULL)", name ? name : "music");
    parser_t *ps = calloc(1, sizeof *ps);
    if (!ps)
        return rpl_err_set(&m->err, RPL_ENOMEM, "out of memory");
    ps->m = m;
    ps->name = name ? name : "music";
    ps->open = -1;
    m->master = 100;
    rpl_status st;
    if (len > (size_t)RPL_MUSIC_BYTES_MAX) {
        ps->line = 1;
        st = perr(ps, 1, "the score is larger than %ld bytes", RPL_MUSIC_BYTES_MAX);
    } else {
        st = parse_all(ps, text ? text : "", len);
    }
    free(ps->pn);
    free(ps);
    if (st != RPL_OK) {
        if (st == RPL_ENOMEM)
            rpl_err_set(&m->err, st, "out of memory");
        /* a failed score holds nothing but its message */
        rpl_err_t e = m->err;
        free(m->notes);
        memset(m, 0, sizeof *m);
        m->err = e;
        return st;
    }
    /* in order of time; the stable order of tracks within a step */
    qsort(m->notes, (size_t)m->nnotes, sizeof *m->notes, by_step);
    m->ok = 1;
    return RPL_OK;
}

rpl_status rpl_music_read(const char *path, rpl_music_t **out)
{
    if (!out)
        return RPL_EINVAL;
    *out = NULL;
    if (!path || !*path) {
        rpl_music_t *m = *out = calloc(1, sizeof *m);
        if (!m)
            return RPL_ENOMEM;
        return rpl_err_set(&m->err, RPL_EINVAL, "no music file (%s)", path ? "an empty name" : "NULL");
    }
    FILE *f = rpl_open_read(path);
    char *buf = NULL;
    size_t n = 0;
    int err = 0;
    rpl_status st = RPL_OK;
    if (!f) {
        err = errno;
        st = RPL_EIO;
    } else {
        /* one more than the most a score may be, to tell a longer file */
        buf = malloc((size_t)RPL_MUSIC_BYTES_MAX + 1);
        if (!buf)
            st = RPL_ENOMEM;
        else
            n = fread(buf, 1, (size_t)RPL_MUSIC_BYTES_MAX + 1, f);
        if (buf && ferror(f)) {
            err = errno;
            st = RPL_EIO;
        }
        fclose(f);
    }
    if (st != RPL_OK) {
        free(buf);
        rpl_music_t *m = *out = calloc(1, sizeof *m);
        if (!m)
            return RPL_ENOMEM;
        if (st == RPL_ENOMEM)
            return rpl_err_set(&m->err, st, "out of memory");
        return rpl_err_set(&m->err, st, "%s: %s", path, strerror(err ? err : EIO));
    }
    st = rpl_music_parse(buf, n, path, out);
    free(buf);
    return st;
}

void rpl_music_destroy(rpl_music_t *music)
{
    if (music)
        free(music->notes);
    free(music);
}

uint64_t rpl_music_frames(const rpl_music_t *music, int sample_rate)
{
    if (!music || !music->ok || sample_rate < RPL_SOUND_RATE_MIN || sample_rate > RPL_SOUND_RATE_MAX)
        return 0;
    return mus_step_frame(music, music->steps, sample_rate);
}

rpl_status rpl_music_tempo(const rpl_music_t *music, int *bpm, int *steps_per_beat,
                           int *beats_per_bar, int *steps)
{
    if (!music || !music->ok)
        return RPL_EINVAL;
    if (bpm)
        *bpm = music->bpm;
    if (steps_per_beat)
        *steps_per_beat = music->spb;
    if (beats_per_bar)
        *beats_per_bar = music->bpbar;
    if (steps)
        *steps = (int)music->steps;
    return RPL_OK;
}

int rpl_music_notes(const rpl_music_t *music)
{
    return music && music->ok ? music->nnotes : 0;
}
