/* core/field/snapshot.c - saving and loading the whole simulation state ("RPL2" files of tagged sections, and "RPL1"), read in one pass so pipes work. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/field/field.h"
#include "ripple_support.h"

/*
 * The layout is documented in ripple.h ("snapshots").  In short:
 *   RPL1: "RPL1", u32 w, u32 h, the current and the previous plane.
 *   RPL2: "RPL2", u32 version (1), then sections to the end of the file,
 *         each a 4-letter tag, a u32 length and that many bytes:
 *           HGHT  u32 w, u32 h, current plane, previous plane (first, once)
 *           WALL  the wall mask as run lengths (optional, once)
 *           EDGE  u32 edges mode (optional, once)
 *           wave  u32 model, five doubles: the wave model (optional, once)
 *           DONE  empty, last: a file cut short is never taken for whole
 *         a tag whose first letter is lower case is optional, and skipped
 *         when unknown; an unknown upper-case one is refused.
 * Every number is little-endian; planes are w*h int16, row-major.
 */
#define RPL2_VERSION 1
/* No section is longer than the heights of the largest field. */
#define SECTION_MAX (8 + 4 * (uint32_t)RPL_DIM_MAX * RPL_DIM_MAX)

struct rpl_snapshot {
    int w, h;
    int16_t *planes; /* current then previous, w*h each; NULL after a failure */
    uint8_t *walls;  /* w*h, 1 = solid, NULL if none */
    rpl_edges edges;
    rpl_model model; /* the "wave" section: RPL_MODEL_WAVE and its parameters */
    rpl_wave_params_t wave;
    rpl_err_t err;   /* detail of the failure */
};

static void put_u32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

static uint32_t get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ---- saving ------------------------------------------------------------- */

static int write_plane(FILE *f, const int16_t *b, size_t n)
{
    unsigned char buf[4096];
    size_t i = 0;
    while (i < n) {
        size_t k = 0;
        for (; k < sizeof buf / 2 && i < n; k++, i++) {
            uint16_t v = (uint16_t)b[i];
            buf[2 * k] = (unsigned char)v;
            buf[2 * k + 1] = (unsigned char)(v >> 8);
        }
        if (fwrite(buf, 2, k, f) != k)
            return -1;
    }
    return 0;
}

static int write_section_head(FILE *f, const char *tag, uint32_t len)
{
    unsigned char b[8];
    memcpy(b, tag, 4);
    put_u32(b + 4, len);
    return fwrite(b, 1, sizeof b, f) == sizeof b ? 0 : -1;
}

/* A run length as LEB128: 7 bits a byte, low bits first, the top bit set
 * on every byte but the last.  Writes to f (when not NULL) and returns
 * the byte count. */
static size_t put_run(FILE *f, size_t v)
{
    size_t n = 0;
    do {
        unsigned char c = (unsigned char)(v & 0x7F);
        v >>= 7;
        if (v)
            c |= 0x80;
        if (f)
            putc(c, f);
        n++;
    } while (v);
    return n;
}

/* The mask as runs of open and solid cells, alternating, open first (so
 * the first run is 0 when cell 0 is solid), their sum w*h.  With f NULL,
 * only counts the bytes. */
static size_t write_runs(FILE *f, const uint8_t *m, size_t n)
{
    size_t bytes = 0, i = 0;
    uint8_t v = 0;
    while (i < n) {
        size_t j = i;
        while (j < n && m[j] == v)
            j++;
        bytes += put_run(f, j - i);
        i = j;
        v ^= 1;
    }
    return bytes;
}

/* The "wave" section: the model, then its five parameters as doubles,
 * little-endian (a stream error shows at commit). */
#define WAVE_SECTION 44
static const size_t wave_param_at[5] = {
    offsetof(rpl_wave_params_t, speed), offsetof(rpl_wave_params_t, viscosity),
    offsetof(rpl_wave_params_t, spacing), offsetof(rpl_wave_params_t, dt),
    offsetof(rpl_wave_params_t, attenuation),
};

static void write_wave(FILE *f, const rpl_sim_t *sim)
{
    unsigned char b[WAVE_SECTION];
    put_u32(b, (uint32_t)RPL_MODEL_WAVE);
    for (int i = 0; i < 5; i++) {
        double d;
        uint64_t v;
        memcpy(&d, (const char *)&sim->wave + wave_param_at[i], sizeof d);
        memcpy(&v, &d, sizeof v);
        put_u32(b + 4 + 8 * i, (uint32_t)v);
        put_u32(b + 8 + 8 * i, (uint32_t)(v >> 32));
    }
    if (write_section_head(f, "wave", WAVE_SECTION) == 0)
        fwrite(b, 1, sizeof b, f);
}

rpl_status rpl_sim_save(rpl_sim_t *sim, const char *path)
{
    if (!rpl_sim_usable(sim))
        return RPL_EINVAL;
    rpl_file_t *file;
    rpl_status st = rpl_file_open(path, 0, &file);
    if (st == RPL_OK) {
        FILE *f = rpl_file_stream(file);
        size_t n = (size_t)sim->w * (size_t)sim->h;
        unsigned char hdr[16] = {'R', 'P', 'L', '2'};
        put_u32(hdr + 4, RPL2_VERSION);
        memcpy(hdr + 8, "HGHT", 4);
        put_u32(hdr + 12, (uint32_t)(8 + 4 * n));
        unsigned char size[8];
        put_u32(size, (uint32_t)sim->w);
        put_u32(size + 4, (uint32_t)sim->h);
        unsigned char edge[4];
        put_u32(edge, (uint32_t)sim->edges);
        /* a failed write leaves the stream's error flag set: commit sees it */
        if (fwrite(hdr, 1, sizeof hdr, f) == sizeof hdr &&
            fwrite(size, 1, sizeof size, f) == sizeof size && write_plane(f, sim->cur, n) == 0 &&
            write_plane(f, sim->prev, n) == 0) {
            if (sim->walls) {
                size_t len = write_runs(NULL, sim->walls, n);
                if (write_section_head(f, "WALL", (uint32_t)len) == 0)
                    write_runs(f, sim->walls, n);
            }
            if (sim->model == RPL_MODEL_WAVE)
                write_wave(f, sim);
            if (write_section_head(f, "EDGE", 4) == 0 && fwrite(edge, 1, sizeof edge, f) == 4)
                write_section_head(f, "DONE", 0);
        }
        st = rpl_file_commit(file);
    }
    if (st != RPL_OK)
        rpl_err_set(&sim->err, st, "%s", file ? rpl_file_error(file) : rpl_strerror(st));
    rpl_file_destroy(file);
    return st;
}

/* ---- loading ------------------------------------------------------------ */

/* Where the bytes come from: a stream read once, or memory. */
typedef struct src {
    FILE *f;                /* NULL: memory */
    const unsigned char *p; /* memory: what is left */
    size_t left;
    const char *name;       /* for the messages */
    int err;                /* errno of a failed read */
} src_t;

/* Reads up to n bytes, as many as there are; -1 on a read error. */
static long long src_read(src_t *in, void *buf, size_t n)
{
    if (in->f) {
        size_t got = fread(buf, 1, n, in->f);
        if (ferror(in->f)) {
            in->err = errno;
            return -1;
        }
        return (long long)got;
    }
    size_t k = n < in->left ? n : in->left;
    if (k)
        memcpy(buf, in->p, k);
    in->p += k;
    in->left -= k;
    return (long long)k;
}

/* Reads exactly n bytes; a short read is a truncated file, named by
 * `what`. */
static rpl_status read_exact(rpl_snapshot_t *s, src_t *in, void *buf, size_t n, const char *what)
{
    long long got = src_read(in, buf, n);
    if (got < 0)
        return rpl_err_set(&s->err, RPL_EIO, "%s: cannot read: %s", in->name, strerror(in->err));
    if ((size_t)got < n)
        return rpl_err_set(&s->err, RPL_EFORMAT, "%s: truncated %s (%lld of %zu bytes)", in->name, what,
                         got, n);
    return RPL_OK;
}

static rpl_status check_size(rpl_snapshot_t *s, const src_t *in, uint32_t w, uint32_t h)
{
    if (w < RPL_DIM_MIN || h < RPL_DIM_MIN || w > RPL_DIM_MAX || h > RPL_DIM_MAX)
        return rpl_err_set(&s->err, RPL_EFORMAT, "%s: bad size %lux%lu (each side must be %d..%d)",
                         in->name, (unsigned long)w, (unsigned long)h, RPL_DIM_MIN, RPL_DIM_MAX);
    s->w = (int)w;
    s->h = (int)h;
    return RPL_OK;
}

/* Checks one plane against the height contract. */
static rpl_status check_plane(rpl_snapshot_t *s, const char *name, const int16_t *b,
                              const char *what)
{
    for (int y = 0; y < s->h; y++)
        for (int x = 0; x < s->w; x++) {
            int v = b[(size_t)y * (size_t)s->w + (size_t)x];
            if (v < RPL_HEIGHT_MIN || v > RPL_HEIGHT_MAX)
                return rpl_err_set(&s->err, RPL_EFORMAT,
                                 "%s: %s height %d at (%d, %d) is outside %d..%d", name, what,
                                 v, x, y, RPL_HEIGHT_MIN, RPL_HEIGHT_MAX);
            if (v != 0 && (x == 0 || y == 0 || x == s->w - 1 || y == s->h - 1))
                return rpl_err_set(&s->err, RPL_EFORMAT, "%s: %s border cell (%d, %d) is %d, must be 0",
                                 name, what, x, y, v);
        }
    return RPL_OK;
}

/* Reads and checks the two planes (4*w*h bytes), a piece at a time. */
static rpl_status read_planes(rpl_snapshot_t *s, src_t *in)
{
    size_t n = 2 * (size_t)s->w * (size_t)s->h;
    s->planes = malloc(n * sizeof *s->planes);
    if (!s->planes)
        return rpl_err_set(&s->err, RPL_ENOMEM, "%s: out of memory", in->name);
    unsigned char buf[8192];
    for (size_t i = 0; i < n;) {
        size_t k = n - i < sizeof buf / 2 ? n - i : sizeof buf / 2;
        long long got = src_read(in, buf, 2 * k);
        if (got < 0)
            return rpl_err_set(&s->err, RPL_EIO, "%s: cannot read: %s", in->name, strerror(in->err));
        if ((size_t)got < 2 * k)
            return rpl_err_set(&s->err, RPL_EFORMAT, "%s: truncated (%zu of %zu data bytes)", in->name,
                             2 * i + (size_t)got, 2 * n);
        for (size_t j = 0; j < k; j++)
            s->planes[i + j] = (int16_t)(uint16_t)(buf[2 * j] | buf[2 * j + 1] << 8);
        i += k;
    }
    rpl_status st = check_plane(s, in->name, s->planes, "current");
    if (st == RPL_OK)
        st = check_plane(s, in->name, s->planes + n / 2, "previous");
    return st;
}

/* Nothing may follow the data. */
static rpl_status expect_end(rpl_snapshot_t *s, src_t *in)
{
    unsigned char c;
    long long got = src_read(in, &c, 1);
    if (got < 0)
        return rpl_err_set(&s->err, RPL_EIO, "%s: cannot read: %s", in->name, strerror(in->err));
    if (got > 0)
        return rpl_err_set(&s->err, RPL_EFORMAT, "%s: longer than a %dx%d snapshot", in->name, s->w,
                         s->h);
    return RPL_OK;
}

/* RPL1, after its magic. */
static rpl_status read_rpl1(rpl_snapshot_t *s, src_t *in)
{
    unsigned char b[8];
    long long got = src_read(in, b, sizeof b);
    if (got < 0)
        return rpl_err_set(&s->err, RPL_EIO, "%s: cannot read: %s", in->name, strerror(in->err));
    if (got < (long long)sizeof b)
        return rpl_err_set(&s->err, RPL_EFORMAT, "%s: truncated header", in->name);
    rpl_status st = check_size(s, in, get_u32(b), get_u32(b + 4));
    if (st == RPL_OK)
        st = read_planes(s, in);
    if (st == RPL_OK)
        st = expect_end(s, in);
    return st;
}

/* The WALL section's runs, len bytes: open and solid cells alternating,
 * open first, adding up to w*h exactly; only the first run may be 0. */
static rpl_status read_walls(rpl_snapshot_t *s, src_t *in, uint32_t len)
{
    size_t n = (size_t)s->w * (size_t)s->h, at = 0, runs = 0;
    /* a run of c cells takes at most c bytes (and the first, of 0, one) */
    if (len < 1 || len > n + 1)
        return rpl_err_set(&s->err, RPL_EFORMAT, "%s: WALL section of %lu bytes cannot hold a %dx%d mask",
                         in->name, (unsigned long)len, s->w, s->h);
    s->walls = calloc(n, 1);
    if (!s->walls)
        return rpl_err_set(&s->err, RPL_ENOMEM, "%s: out of memory", in->name);
    unsigned char buf[4096];
    size_t have = 0, pos = 0, v = 0;
    int shift = 0;
    for (uint32_t i = 0; i < len; i++) {
        if (pos == have) {
            size_t k = len - i < sizeof buf ? len - i : sizeof buf;
            rpl_status st = read_exact(s, in, buf, k, "WALL section");
            if (st != RPL_OK)
                return st;
            have = k;
            pos = 0;
        }
        unsigned char c = buf[pos++];
        if (shift > 21) /* a fifth byte: past any field's cell count */
            return rpl_err_set(&s->err, RPL_EFORMAT, "%s: WALL section: a run is too long", in->name);
        v |= (size_t)(c & 0x7F) << shift;
        shift += 7;
        if (c & 0x80)
            continue;
        if (v == 0 && runs > 0)
            return rpl_err_set(&s->err, RPL_EFORMAT, "%s: WALL section: an empty run", in->name);
        if (v > n - at)
            return rpl_err_set(&s->err, RPL_EFORMAT, "%s: WALL section: the runs cover more than %dx%d",
                             in->name, s->w, s->h);
        if (runs % 2)
            memset(s->walls + at, 1, v);
        at += v;
        runs++;
        v = 0;
        shift = 0;
    }
    if (shift)
        return rpl_err_set(&s->err, RPL_EFORMAT, "%s: WALL section: the last run is cut short", in->name);
    if (at != n)
        return rpl_err_set(&s->err, RPL_EFORMAT, "%s: WALL section: the runs cover %zu of %zu cells",
                         in->name, at, n);
    return RPL_OK;
}

/* Skips len bytes of an optional section nobody here knows. */
static rpl_status skip(rpl_snapshot_t *s, src_t *in, uint32_t len, const char *tag)
{
    unsigned char buf[4096];
    while (len) {
        size_t k = len < sizeof buf ? len : sizeof buf;
        rpl_status st = read_exact(s, in, buf, k, tag);
        if (st != RPL_OK)
            return st;
        len -= (uint32_t)k;
    }
    return RPL_OK;
}

/* The "wave" section: the model and parameters the field would take. */
static rpl_status read_wave(rpl_snapshot_t *s, src_t *in, uint32_t len)
{
    unsigned char b[WAVE_SECTION];
    if (len != WAVE_SECTION)
        return rpl_err_set(&s->err, RPL_EFORMAT, "%s: wave section of %lu bytes, not %d", in->name,
                         (unsigned long)len, WAVE_SECTION);
    rpl_status st = read_exact(s, in, b, sizeof b, "wave section");
    if (st != RPL_OK)
        return st;
    if (get_u32(b) != RPL_MODEL_WAVE)
        return rpl_err_set(&s->err, RPL_EFORMAT, "%s: wave section: unknown model %lu", in->name,
                         (unsigned long)get_u32(b));
    for (int i = 0; i < 5; i++) {
        uint64_t v = (uint64_t)get_u32(b + 4 + 8 * i) | (uint64_t)get_u32(b + 8 + 8 * i) << 32;
        double d;
        memcpy(&d, &v, sizeof d);
        memcpy((char *)&s->wave + wave_param_at[i], &d, sizeof d);
    }
    rpl_wave_info_t info;
    if (rpl_wave_info(&s->wave, &info) != RPL_OK)
        return rpl_err_set(&s->err, RPL_EFORMAT, "%s: wave section: %s", in->name, info.why);
    s->model = RPL_MODEL_WAVE;
    return RPL_OK;
}

static int is_letter(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* RPL2, after its magic. */
static rpl_status read_rpl2(rpl_snapshot_t *s, src_t *in)
{
    unsigned char b[8];
    long long got = src_read(in, b, 4);
    if (got < 0)
        return rpl_err_set(&s->err, RPL_EIO, "%s: cannot read: %s", in->name, strerror(in->err));
    if (got < 4)
        return rpl_err_set(&s->err, RPL_EFORMAT, "%s: truncated header", in->name);
    uint32_t version = get_u32(b);
    if (version != RPL2_VERSION)
        return rpl_err_set(&s->err, RPL_EFORMAT,
                         "%s: RPL2 format version %lu is not one this ripple reads (%d)",
                         in->name, (unsigned long)version, RPL2_VERSION);
    int seen_walls = 0, seen_edges = 0, seen_wave = 0;
    for (int nsec = 0;; nsec++) {
        got = src_read(in, b, 8);
        if (got < 0)
            return rpl_err_set(&s->err, RPL_EIO, "%s: cannot read: %s", in->name, strerror(in->err));
        if (got == 0 && nsec > 0)
            return rpl_err_set(&s->err, RPL_EFORMAT, "%s: truncated after %d sections (no DONE)",
                             in->name, nsec);
        if (got < 8)
            return rpl_err_set(&s->err, RPL_EFORMAT, "%s: truncated %s", in->name,
                             nsec ? "section header" : "file: no HGHT section");
        char tag[5] = {(char)b[0], (char)b[1], (char)b[2], (char)b[3], 0};
        uint32_t len = get_u32(b + 4);
        if (!is_letter(b[0]) || !is_letter(b[1]) || !is_letter(b[2]) || !is_letter(b[3]))
            return rpl_err_set(&s->err, RPL_EFORMAT,
                             "%s: damaged section tag %02X %02X %02X %02X (four letters expected)",
                             in->name, b[0], b[1], b[2], b[3]);
        if (len > SECTION_MAX)
            return rpl_err_set(&s->err, RPL_EFORMAT, "%s: section %s claims %lu bytes, more than any "
                             "snapshot holds", in->name, tag, (unsigned long)len);
        rpl_status st;
        if (nsec == 0 && strcmp(tag, "HGHT") != 0)
            return rpl_err_set(&s->err, RPL_EFORMAT, "%s: the first section is %s, not HGHT", in->name,
                             tag);
        if (strcmp(tag, "DONE") == 0) {
            if (len != 0)
                return rpl_err_set(&s->err, RPL_EFORMAT, "%s: DONE section of %lu bytes, not 0",
                                 in->name, (unsigned long)len);
            return expect_end(s, in); /* the end: nothing may follow */
        } else if (strcmp(tag, "HGHT") == 0) {
            if (nsec > 0)
                return rpl_err_set(&s->err, RPL_EFORMAT, "%s: a second HGHT section", in->name);
            if (len < 8)
                return rpl_err_set(&s->err, RPL_EFORMAT, "%s: HGHT section of %lu bytes has no size",
                                 in->name, (unsigned long)len);
            if ((st = read_exact(s, in, b, 8, "HGHT section")) != RPL_OK ||
                (st = check_size(s, in, get_u32(b), get_u32(b + 4))) != RPL_OK)
                return st;
            size_t want = 8 + 4 * (size_t)s->w * (size_t)s->h;
            if (len != want)
                return rpl_err_set(&s->err, RPL_EFORMAT,
                                 "%s: HGHT section of %lu bytes, a %dx%d field needs %zu",
                                 in->name, (unsigned long)len, s->w, s->h, want);
            st = read_planes(s, in);
        } else if (strcmp(tag, "WALL") == 0) {
            if (seen_walls++)
                return rpl_err_set(&s->err, RPL_EFORMAT, "%s: a second WALL section", in->name);
            st = read_walls(s, in, len);
        } else if (strcmp(tag, "EDGE") == 0) {
            if (seen_edges++)
                return rpl_err_set(&s->err, RPL_EFORMAT, "%s: a second EDGE section", in->name);
            if (len != 4)
                return rpl_err_set(&s->err, RPL_EFORMAT, "%s: EDGE section of %lu bytes, not 4",
                                 in->name, (unsigned long)len);
            if ((st = read_exact(s, in, b, 4, "EDGE section")) != RPL_OK)
                return st;
            uint32_t e = get_u32(b);
            if (e != RPL_EDGES_REFLECT && e != RPL_EDGES_ABSORB)
                return rpl_err_set(&s->err, RPL_EFORMAT, "%s: unknown edges mode %lu", in->name,
                                 (unsigned long)e);
            s->edges = (rpl_edges)e;
        } else if (strcmp(tag, "wave") == 0) {
            if (seen_wave++)
                return rpl_err_set(&s->err, RPL_EFORMAT, "%s: a second wave section", in->name);
            st = read_wave(s, in, len);
        } else if (b[0] >= 'a' && b[0] <= 'z') {
            st = skip(s, in, len, tag); /* optional, from a newer ripple */
        } else {
            return rpl_err_set(&s->err, RPL_EFORMAT,
                             "%s: unknown critical section %s (written by a newer ripple?)",
                             in->name, tag);
        }
        if (st != RPL_OK)
            return st;
    }
}

/* One pass over the source: the magic says which format follows. */
static rpl_status read_any(rpl_snapshot_t *s, src_t *in)
{
    unsigned char magic[4];
    long long got = src_read(in, magic, sizeof magic);
    if (got < 0)
        return rpl_err_set(&s->err, RPL_EIO, "%s: cannot read: %s", in->name, strerror(in->err));
    if (got == 4 && memcmp(magic, "RPL2", 4) == 0)
        return read_rpl2(s, in);
    if (got == 4 && memcmp(magic, "RPL1", 4) == 0)
        return read_rpl1(s, in);
    return rpl_err_set(&s->err, RPL_EFORMAT, "%s: not a ripple snapshot (no RPL1 or RPL2 magic)",
                     in->name);
}

static rpl_status snap_new(rpl_snapshot_t **out)
{
    if (!out)
        return RPL_EINVAL;
    *out = calloc(1, sizeof **out);
    return *out ? RPL_OK : RPL_ENOMEM;
}

/* After reading: a failed snapshot keeps only its message. */
static rpl_status snap_done(rpl_snapshot_t *s, rpl_status st)
{
    if (st != RPL_OK) {
        free(s->planes);
        s->planes = NULL;
        free(s->walls);
        s->walls = NULL;
    }
    return st;
}

rpl_status rpl_snapshot_parse(const void *data, size_t len, rpl_snapshot_t **out)
{
    rpl_status st = snap_new(out);
    if (st != RPL_OK)
        return st;
    rpl_snapshot_t *s = *out;
    if (!data && len)
        return rpl_err_set(&s->err, RPL_EINVAL, "snapshot: no data");
    src_t in = {NULL, data, len, "snapshot", 0};
    return snap_done(s, read_any(s, &in));
}

rpl_status rpl_snapshot_read(const char *path, rpl_snapshot_t **out)
{
    rpl_status st = snap_new(out);
    if (st != RPL_OK)
        return st;
    rpl_snapshot_t *s = *out;
    if (!path || !*path)
        return rpl_err_set(&s->err, RPL_EINVAL, "snapshot: no file name");
    /* One open, read front to back: a pipe or a FIFO reads like a file. */
    FILE *f = rpl_open_read(path);
    if (!f)
        return rpl_err_set(&s->err, RPL_EIO, "%s: %s", path, strerror(errno));
    src_t in = {f, NULL, 0, path, 0};
    st = snap_done(s, read_any(s, &in));
    fclose(f);
    return st;
}

void rpl_snapshot_size(const rpl_snapshot_t *s, int *w, int *h)
{
    int ok = s && s->planes;
    if (w)
        *w = ok ? s->w : 0;
    if (h)
        *h = ok ? s->h : 0;
}

const char *rpl_snapshot_error(const rpl_snapshot_t *s)
{
    if (!s)
        return "no snapshot (NULL)";
    return rpl_err_text(&s->err);
}

void rpl_snapshot_destroy(rpl_snapshot_t *s)
{
    if (!s)
        return;
    free(s->planes);
    free(s->walls);
    free(s);
}

rpl_status rpl_sim_set_snapshot(rpl_sim_t *sim, const rpl_snapshot_t *snap)
{
    if (!rpl_sim_usable(sim))
        return RPL_EINVAL;
    if (!snap || !snap->planes)
        return rpl_err_set(&sim->err, RPL_EINVAL, "no valid snapshot to load");
    if (snap->w != sim->w || snap->h != sim->h)
        return rpl_err_set(&sim->err, RPL_ESIZE, "the snapshot is %dx%d, the field %dx%d", snap->w,
                        snap->h, sim->w, sim->h);
    /* the walls first: the only step that can fail (out of memory), and
     * then it changes nothing */
    rpl_status st = rpl_sim_set_walls(sim, snap->walls);
    if (st != RPL_OK)
        return st;
    /* both checked when read: these cannot fail, but would be told */
    st = rpl_sim_set_edges(sim, snap->edges);
    if (st == RPL_OK)
        st = rpl_sim_set_model(sim, snap->model,
                               snap->model == RPL_MODEL_WAVE ? &snap->wave : NULL);
    if (st != RPL_OK)
        return st;
    size_t n = (size_t)sim->w * (size_t)sim->h;
    memcpy(sim->cur, snap->planes, n * sizeof *sim->cur);
    memcpy(sim->prev, snap->planes + n, n * sizeof *sim->prev);
    rpl_walls_apply(sim); /* walls win, as with rpl_sim_set_state */
    rpl_sim_rescan(sim);
    rpl_err_clear(&sim->err);
    return RPL_OK;
}

rpl_status rpl_sim_load(rpl_sim_t *sim, const char *path)
{
    if (!rpl_sim_usable(sim))
        return RPL_EINVAL;
    rpl_snapshot_t *snap;
    rpl_status st = rpl_snapshot_read(path, &snap);
    if (st != RPL_OK) {
        rpl_err_set(&sim->err, st, "%s", snap ? rpl_snapshot_error(snap) : rpl_strerror(st));
    } else {
        st = rpl_sim_set_snapshot(sim, snap);
        if (st == RPL_ESIZE) /* name the file too */
            rpl_err_set(&sim->err, st, "%s: the snapshot is %dx%d, the field %dx%d", path, snap->w,
                     snap->h, sim->w, sim->h);
    }
    rpl_snapshot_destroy(snap);
    return st;
}
