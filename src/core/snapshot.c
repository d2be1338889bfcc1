/* core/snapshot.c - saving and loading the whole simulation state ("RPL1" files), read in one pass so pipes work. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"

#define HEADER_BYTES 12

struct rpl_snapshot {
    int w, h;
    int16_t *planes; /* current then previous, w*h each; NULL after a failure */
    char *err;       /* detail of the failure, NULL if none */
    int failed;
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

static rpl_status snap_fail(rpl_snapshot_t *s, rpl_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static rpl_status snap_fail(rpl_snapshot_t *s, rpl_status st, const char *fmt, ...)
{
    va_list ap;
    s->failed = 1;
    va_start(ap, fmt);
    free(s->err);
    s->err = rpl_vformat(fmt, ap);
    va_end(ap);
    free(s->planes);
    s->planes = NULL;
    return st;
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

rpl_status rpl_sim_save(rpl_sim_t *sim, const char *path)
{
    if (!sim)
        return RPL_EINVAL;
    rpl_file_t *file;
    rpl_status st = rpl_file_open(path, 0, &file);
    if (st == RPL_OK) {
        FILE *f = rpl_file_stream(file);
        unsigned char hdr[HEADER_BYTES] = { 'R', 'P', 'L', '1' };
        put_u32(hdr + 4, (uint32_t)sim->w);
        put_u32(hdr + 8, (uint32_t)sim->h);
        size_t n = (size_t)sim->w * (size_t)sim->h;
        /* a failed write leaves the stream's error flag set: commit sees it */
        if (fwrite(hdr, 1, sizeof hdr, f) == sizeof hdr && write_plane(f, sim->cur, n) == 0)
            write_plane(f, sim->prev, n);
        st = rpl_file_commit(file);
    }
    if (st != RPL_OK)
        rpl_fail(sim, st, "%s", file ? rpl_file_error(file) : rpl_strerror(st));
    rpl_file_close(file);
    return st;
}

/* ---- loading ------------------------------------------------------------ */

/* Checks the header; on success *w, *h hold the size. */
static rpl_status check_header(rpl_snapshot_t *s, const char *name, const unsigned char *hdr,
                               size_t got)
{
    if (got < 4 || memcmp(hdr, "RPL1", 4) != 0)
        return snap_fail(s, RPL_EFORMAT, "%s: not a ripple snapshot (no RPL1 magic)", name);
    if (got < HEADER_BYTES)
        return snap_fail(s, RPL_EFORMAT, "%s: truncated header", name);
    uint32_t w = get_u32(hdr + 4), h = get_u32(hdr + 8);
    if (w < RPL_DIM_MIN || h < RPL_DIM_MIN || w > RPL_DIM_MAX || h > RPL_DIM_MAX)
        return snap_fail(s, RPL_EFORMAT, "%s: bad size %lux%lu (each side must be %d..%d)", name,
                         (unsigned long)w, (unsigned long)h, RPL_DIM_MIN, RPL_DIM_MAX);
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
                return snap_fail(s, RPL_EFORMAT,
                                 "%s: %s height %d at (%d, %d) is outside %d..%d", name, what,
                                 v, x, y, RPL_HEIGHT_MIN, RPL_HEIGHT_MAX);
            if (v != 0 && (x == 0 || y == 0 || x == s->w - 1 || y == s->h - 1))
                return snap_fail(s, RPL_EFORMAT, "%s: %s border cell (%d, %d) is %d, must be 0",
                                 name, what, x, y, v);
        }
    return RPL_OK;
}

/* Decodes the two planes from their little-endian bytes (exactly 4*w*h)
 * and checks them. */
static rpl_status decode(rpl_snapshot_t *s, const char *name, const unsigned char *raw)
{
    size_t n = (size_t)s->w * (size_t)s->h;
    s->planes = malloc(2 * n * sizeof *s->planes);
    if (!s->planes)
        return snap_fail(s, RPL_ENOMEM, "%s: out of memory", name);
    for (size_t i = 0; i < 2 * n; i++)
        s->planes[i] = (int16_t)(uint16_t)(raw[2 * i] | raw[2 * i + 1] << 8);
    rpl_status st = check_plane(s, name, s->planes, "current");
    if (st == RPL_OK)
        st = check_plane(s, name, s->planes + n, "previous");
    return st;
}

static rpl_status snap_new(rpl_snapshot_t **out)
{
    if (!out)
        return RPL_EINVAL;
    *out = calloc(1, sizeof **out);
    return *out ? RPL_OK : RPL_ENOMEM;
}

rpl_status rpl_snapshot_parse(const void *data, size_t len, rpl_snapshot_t **out)
{
    rpl_status st = snap_new(out);
    if (st != RPL_OK)
        return st;
    rpl_snapshot_t *s = *out;
    if (!data && len)
        return snap_fail(s, RPL_EINVAL, "snapshot: no data");
    const unsigned char *p = data;
    st = check_header(s, "snapshot", p, len);
    if (st != RPL_OK)
        return st;
    size_t want = 4 * (size_t)s->w * (size_t)s->h;
    if (len - HEADER_BYTES < want)
        return snap_fail(s, RPL_EFORMAT, "snapshot: truncated (%zu of %zu data bytes)",
                         len - HEADER_BYTES, want);
    if (len - HEADER_BYTES > want)
        return snap_fail(s, RPL_EFORMAT, "snapshot: longer than a %dx%d snapshot", s->w, s->h);
    return decode(s, "snapshot", p + HEADER_BYTES);
}

/* Reads up to n bytes, as many as there are; -1 on a read error. */
static long long read_full(FILE *f, unsigned char *buf, size_t n)
{
    size_t got = fread(buf, 1, n, f);
    return ferror(f) ? -1 : (long long)got;
}

rpl_status rpl_snapshot_read(const char *path, rpl_snapshot_t **out)
{
    rpl_status st = snap_new(out);
    if (st != RPL_OK)
        return st;
    rpl_snapshot_t *s = *out;
    if (!path || !*path)
        return snap_fail(s, RPL_EINVAL, "snapshot: no file name");
    /* One open, read front to back: a pipe or a FIFO reads like a file. */
    FILE *f = fopen(path, "rb");
    if (!f)
        return snap_fail(s, RPL_EIO, "%s: %s", path, strerror(errno));
    unsigned char hdr[HEADER_BYTES];
    long long got = read_full(f, hdr, sizeof hdr);
    if (got < 0) {
        st = snap_fail(s, RPL_EIO, "%s: cannot read: %s", path, strerror(errno));
    } else {
        st = check_header(s, path, hdr, (size_t)got);
    }
    unsigned char *raw = NULL;
    if (st == RPL_OK) {
        size_t want = 4 * (size_t)s->w * (size_t)s->h;
        /* one byte more than needed, to notice trailing data */
        raw = malloc(want + 1);
        if (!raw)
            st = snap_fail(s, RPL_ENOMEM, "%s: out of memory", path);
        else if ((got = read_full(f, raw, want + 1)) < 0)
            st = snap_fail(s, RPL_EIO, "%s: cannot read: %s", path, strerror(errno));
        else if ((size_t)got < want)
            st = snap_fail(s, RPL_EFORMAT, "%s: truncated (%lld of %zu data bytes)", path, got,
                           want);
        else if ((size_t)got > want)
            st = snap_fail(s, RPL_EFORMAT, "%s: longer than a %dx%d snapshot", path, s->w, s->h);
        else
            st = decode(s, path, raw);
    }
    free(raw);
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
    return s->err ? s->err : s->failed ? "out of memory" : "";
}

void rpl_snapshot_free(rpl_snapshot_t *s)
{
    if (!s)
        return;
    free(s->planes);
    free(s->err);
    free(s);
}

rpl_status rpl_sim_set_snapshot(rpl_sim_t *sim, const rpl_snapshot_t *snap)
{
    if (!sim)
        return RPL_EINVAL;
    if (!snap || !snap->planes)
        return rpl_fail(sim, RPL_EINVAL, "no valid snapshot to load");
    if (snap->w != sim->w || snap->h != sim->h)
        return rpl_fail(sim, RPL_ESIZE, "the snapshot is %dx%d, the field %dx%d", snap->w,
                        snap->h, sim->w, sim->h);
    size_t n = (size_t)sim->w * (size_t)sim->h;
    memcpy(sim->cur, snap->planes, n * sizeof *sim->cur);
    memcpy(sim->prev, snap->planes + n, n * sizeof *sim->prev);
    rpl_sim_rescan(sim);
    rpl_fail(sim, RPL_OK, "%s", "");
    return RPL_OK;
}

rpl_status rpl_sim_load(rpl_sim_t *sim, const char *path)
{
    if (!sim)
        return RPL_EINVAL;
    rpl_snapshot_t *snap;
    rpl_status st = rpl_snapshot_read(path, &snap);
    if (st != RPL_OK) {
        rpl_fail(sim, st, "%s", snap ? rpl_snapshot_error(snap) : rpl_strerror(st));
    } else {
        st = rpl_sim_set_snapshot(sim, snap);
        if (st == RPL_ESIZE) /* name the file too */
            rpl_fail(sim, st, "%s: the snapshot is %dx%d, the field %dx%d", path, snap->w,
                     snap->h, sim->w, sim->h);
    }
    rpl_snapshot_free(snap);
    return st;
}
