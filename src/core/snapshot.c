/* core/snapshot.c - saving and loading the whole simulation state ("RPL1" files). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"

#define HEADER_BYTES 12

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
    if (!sim || !path || !*path)
        return RPL_EINVAL;
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 16);
    if (!tmp)
        return rpl_fail(sim, RPL_ENOMEM, "%s: out of memory", path);
    snprintf(tmp, plen + 16, "%s.tmp~", path);
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        rpl_status st = rpl_fail(sim, RPL_EIO, "%s: %s", path, strerror(errno));
        free(tmp);
        return st;
    }
    unsigned char hdr[HEADER_BYTES] = {'R', 'P', 'L', '1'};
    put_u32(hdr + 4, (uint32_t)sim->w);
    put_u32(hdr + 8, (uint32_t)sim->h);
    size_t n = (size_t)sim->w * (size_t)sim->h;
    int bad = fwrite(hdr, 1, sizeof hdr, f) != sizeof hdr ||
              write_plane(f, sim->cur, n) || write_plane(f, sim->prev, n);
    int err = errno;
    if (fclose(f) != 0 && !bad) {
        bad = 1;
        err = errno;
    }
    if (!bad && rename(tmp, path) != 0) {
        bad = 1;
        err = errno;
    }
    if (bad) {
        remove(tmp);
        free(tmp);
        return rpl_fail(sim, RPL_EIO, "%s: cannot write: %s", path, strerror(err));
    }
    free(tmp);
    return RPL_OK;
}

/* Opens path and reads and checks its header. */
static rpl_status read_header(const char *path, FILE **fp, uint32_t *w, uint32_t *h,
                              char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return RPL_EIO;
    }
    unsigned char hdr[HEADER_BYTES];
    size_t got = fread(hdr, 1, sizeof hdr, f);
    if (ferror(f)) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        fclose(f);
        return RPL_EIO;
    }
    if (got < 4 || memcmp(hdr, "RPL1", 4) != 0) {
        snprintf(err, errlen, "%s: not a ripple snapshot (no RPL1 magic)", path);
        fclose(f);
        return RPL_EFORMAT;
    }
    if (got < sizeof hdr) {
        snprintf(err, errlen, "%s: truncated header", path);
        fclose(f);
        return RPL_EFORMAT;
    }
    *w = get_u32(hdr + 4);
    *h = get_u32(hdr + 8);
    if (*w < RPL_DIM_MIN || *h < RPL_DIM_MIN || *w > RPL_DIM_MAX || *h > RPL_DIM_MAX) {
        snprintf(err, errlen, "%s: bad size %lux%lu (each side must be %d..%d)", path,
                 (unsigned long)*w, (unsigned long)*h, RPL_DIM_MIN, RPL_DIM_MAX);
        fclose(f);
        return RPL_EFORMAT;
    }
    *fp = f;
    return RPL_OK;
}

rpl_status rpl_snapshot_probe(const char *path, int *w, int *h, char *err, size_t errlen)
{
    char dummy[8];
    if (!err) {
        err = dummy;
        errlen = sizeof dummy;
    }
    if (!path || !w || !h) {
        snprintf(err, errlen, "invalid argument");
        return RPL_EINVAL;
    }
    FILE *f;
    uint32_t fw, fh;
    rpl_status st = read_header(path, &f, &fw, &fh, err, errlen);
    if (st != RPL_OK)
        return st;
    fclose(f);
    *w = (int)fw;
    *h = (int)fh;
    return RPL_OK;
}

rpl_status rpl_sim_load(rpl_sim_t *sim, const char *path)
{
    if (!sim || !path)
        return RPL_EINVAL;
    FILE *f;
    uint32_t fw, fh;
    rpl_status st = read_header(path, &f, &fw, &fh, sim->err, sizeof sim->err);
    if (st != RPL_OK)
        return st;
    if ((int)fw != sim->w || (int)fh != sim->h) {
        fclose(f);
        return rpl_fail(sim, RPL_ESIZE, "%s: snapshot is %lux%lu, the field is %dx%d", path,
                        (unsigned long)fw, (unsigned long)fh, sim->w, sim->h);
    }
    size_t n = (size_t)fw * fh;
    size_t want = 4 * n; /* two planes of int16 */
    unsigned char *raw = malloc(want + 1);
    int16_t *planes = malloc(2 * n * sizeof *planes);
    if (!raw || !planes) {
        free(raw);
        free(planes);
        fclose(f);
        return rpl_fail(sim, RPL_ENOMEM, "%s: out of memory", path);
    }
    /* Read one byte more than needed to notice trailing data. */
    size_t got = fread(raw, 1, want + 1, f);
    int rerr = ferror(f);
    fclose(f);
    if (rerr)
        st = rpl_fail(sim, RPL_EIO, "%s: read error", path);
    else if (got < want)
        st = rpl_fail(sim, RPL_EFORMAT, "%s: truncated (%zu of %zu data bytes)", path, got, want);
    else if (got > want)
        st = rpl_fail(sim, RPL_EFORMAT, "%s: longer than a %dx%d snapshot", path, sim->w, sim->h);
    if (st == RPL_OK) {
        for (size_t i = 0; i < 2 * n; i++)
            planes[i] = (int16_t)(uint16_t)(raw[2 * i] | raw[2 * i + 1] << 8);
        st = rpl_check_buffer(sim, planes, sim->w, sim->h, "current");
        if (st == RPL_OK)
            st = rpl_check_buffer(sim, planes + n, sim->w, sim->h, "previous");
        if (st != RPL_OK) {
            /* Prefix the file name to the detail. */
            char detail[sizeof sim->err];
            memcpy(detail, sim->err, sizeof detail);
            rpl_fail(sim, st, "%s: %s", path, detail);
        }
    }
    if (st == RPL_OK) {
        memcpy(sim->cur, planes, n * sizeof *planes);
        memcpy(sim->prev, planes + n, n * sizeof *planes);
        rpl_sim_rescan(sim);
        sim->err[0] = '\0';
    }
    free(raw);
    free(planes);
    return st;
}
