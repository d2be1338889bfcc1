/* core/base/image.c - pictures: sizes read from file headers before any decoding, and fitting a picture of any size to the field (scale to cover, crop the centre). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ripple/render.h"
#include "ripple_support.h"

/*
 * Fixed point with 16 fraction bits throughout.  The source is scaled by
 * s = max(dw/sw, dh/sh) so it covers the target, and the target's pixel
 * (x, y) looks at source position ((x + 0.5) / s + ox, (y + 0.5) / s + oy)
 * where ox, oy centre the crop.  When shrinking, each target pixel
 * averages the source texels its footprint (1/s wide) covers; when
 * enlarging, it interpolates the four nearest texels.
 */

static inline uint32_t px_at(const uint32_t *src, ptrdiff_t spitch, int x, int y)
{
    return *(const uint32_t *)((const unsigned char *)src + (ptrdiff_t)y * spitch +
                               (ptrdiff_t)x * 4);
}

static inline int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

rpl_status rpl_image_fit(const uint32_t *src, int sw, int sh, ptrdiff_t spitch,
                         uint32_t *dst, int dw, int dh)
{
    /* The source may be any size (a 100000x1 line too: the cover scale
     * makes its short side fill the target and the crop keeps a sliver of
     * the long one); in 16.16 its sides stay under 2^47, and the pitch is
     * compared in 64 bits so 32-bit ptrdiff_t cannot overflow. */
    if (!src || !dst || sw <= 0 || sh <= 0 || dw <= 0 || dh <= 0 ||
        dw > 65536 || dh > 65536 || spitch <= 0 || (int64_t)spitch < (int64_t)sw * 4 ||
        spitch % 4 || (uintptr_t)src % 4 || (uintptr_t)dst % 4)
        return RPL_EINVAL;
    /* step = source texels per target pixel = 1/s, in 16.16 */
    int64_t stepx = ((int64_t)sw << 16) / dw, stepy = ((int64_t)sh << 16) / dh;
    int64_t step = stepx < stepy ? stepx : stepy;
    if (step < 1)
        step = 1;
    /* crop offsets: centre the covered area */
    int64_t ox = (((int64_t)sw << 16) - step * dw) / 2;
    int64_t oy = (((int64_t)sh << 16) - step * dh) / 2;

    for (int y = 0; y < dh; y++) {
        uint32_t *out = dst + (ptrdiff_t)y * dw;
        int64_t fy0 = oy + step * y; /* footprint top, 16.16 */
        for (int x = 0; x < dw; x++) {
            int64_t fx0 = ox + step * x;
            uint32_t r, g, b;
            if (step > (1 << 16)) {
                /* shrink: box average over the footprint (whole texels) */
                int x0 = (int)(fx0 >> 16), x1 = (int)((fx0 + step - 1) >> 16);
                int y0 = (int)(fy0 >> 16), y1 = (int)((fy0 + step - 1) >> 16);
                x0 = clampi(x0, 0, sw - 1);
                x1 = clampi(x1, x0, sw - 1);
                y0 = clampi(y0, 0, sh - 1);
                y1 = clampi(y1, y0, sh - 1);
                uint64_t sr = 0, sg = 0, sb = 0, cnt = 0;
                for (int yy = y0; yy <= y1; yy++)
                    for (int xx = x0; xx <= x1; xx++) {
                        uint32_t p = px_at(src, spitch, xx, yy);
                        sr += (p >> 16) & 0xFF;
                        sg += (p >> 8) & 0xFF;
                        sb += p & 0xFF;
                        cnt++;
                    }
                r = (uint32_t)((sr + cnt / 2) / cnt);
                g = (uint32_t)((sg + cnt / 2) / cnt);
                b = (uint32_t)((sb + cnt / 2) / cnt);
            } else {
                /* enlarge: bilinear around the footprint centre */
                int64_t cx = fx0 + step / 2 - (1 << 15), cy = fy0 + step / 2 - (1 << 15);
                if (cx < 0)
                    cx = 0;
                if (cy < 0)
                    cy = 0;
                int x0 = clampi((int)(cx >> 16), 0, sw - 1), y0 = clampi((int)(cy >> 16), 0, sh - 1);
                int x1 = clampi(x0 + 1, 0, sw - 1), y1 = clampi(y0 + 1, 0, sh - 1);
                uint32_t fx = (uint32_t)(cx & 0xFFFF) >> 8, fy = (uint32_t)(cy & 0xFFFF) >> 8;
                uint32_t p00 = px_at(src, spitch, x0, y0), p10 = px_at(src, spitch, x1, y0);
                uint32_t p01 = px_at(src, spitch, x0, y1), p11 = px_at(src, spitch, x1, y1);
                uint32_t ch[3];
                for (int c = 0; c < 3; c++) {
                    int sh8 = 16 - 8 * c;
                    uint32_t a = (p00 >> sh8) & 0xFF, bb = (p10 >> sh8) & 0xFF;
                    uint32_t cc = (p01 >> sh8) & 0xFF, d = (p11 >> sh8) & 0xFF;
                    uint32_t top = a * (256 - fx) + bb * fx;
                    uint32_t bot = cc * (256 - fx) + d * fx;
                    ch[c] = (top * (256 - fy) + bot * fy + (1u << 15)) >> 16;
                }
                r = ch[0];
                g = ch[1];
                b = ch[2];
            }
            out[x] = 0xFF000000u | r << 16 | g << 8 | b;
        }
    }
    return RPL_OK;
}

/* ---- sizes from headers ---------------------------------------------------- */

static uint32_t be16(const unsigned char *p)
{
    return (uint32_t)p[0] << 8 | p[1];
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* PNG: the signature, then IHDR must be the first chunk. */
static rpl_status probe_png(const unsigned char *p, size_t len, uint32_t *w, uint32_t *h)
{
    if (len < 24 || be32(p + 8) != 13 || memcmp(p + 12, "IHDR", 4) != 0)
        return RPL_EFORMAT;
    *w = be32(p + 16);
    *h = be32(p + 20);
    return RPL_OK;
}

/* JPEG: walk the marker segments up to the first start-of-frame. */
static rpl_status probe_jpeg(const unsigned char *p, size_t len, uint32_t *w, uint32_t *h)
{
    size_t i = 2;
    for (;;) {
        while (i < len && p[i] == 0xFF) /* fill bytes before a marker */
            i++;
        if (i >= len || i < 3 || p[i - 1] != 0xFF)
            return RPL_EFORMAT;
        unsigned m = p[i++];
        if (m == 0x01 || (m >= 0xD0 && m <= 0xD7))
            continue; /* markers without a length */
        if (m == 0xD8 || m == 0xD9 || m == 0xDA || m == 0x00)
            return RPL_EFORMAT; /* image data or the end before any frame */
        if (i + 2 > len)
            return RPL_EFORMAT;
        size_t seg = be16(p + i);
        if (seg < 2)
            return RPL_EFORMAT;
        /* SOF0..SOF15 but DHT (C4), JPG (C8) and DAC (CC) */
        if (m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC) {
            if (seg < 8 || i + 7 > len)
                return RPL_EFORMAT;
            *h = be16(p + i + 3);
            *w = be16(p + i + 5);
            return RPL_OK;
        }
        if (seg > len - i)
            return RPL_EFORMAT;
        i += seg;
    }
}

/* BMP: the file header, then the info header's width and height (OS/2's
 * 12-byte header has 16-bit ones; a negative height means top-down). */
static rpl_status probe_bmp(const unsigned char *p, size_t len, uint32_t *w, uint32_t *h)
{
    if (len < 18)
        return RPL_EFORMAT;
    uint32_t hs = le32(p + 14);
    if (hs == 12) {
        if (len < 22)
            return RPL_EFORMAT;
        *w = p[18] | (uint32_t)p[19] << 8;
        *h = p[20] | (uint32_t)p[21] << 8;
        return RPL_OK;
    }
    if (hs < 40 || len < 26)
        return RPL_EFORMAT;
    int32_t bw = (int32_t)le32(p + 18), bh = (int32_t)le32(p + 22);
    if (bw <= 0 || bh == 0 || bh == INT32_MIN)
        return RPL_EFORMAT;
    *w = (uint32_t)bw;
    *h = (uint32_t)(bh < 0 ? -bh : bh);
    return RPL_OK;
}

rpl_status rpl_image_probe(const void *data, size_t len, rpl_image_kind *kind, int *w, int *h)
{
    if (!data || !kind || !w || !h)
        return RPL_EINVAL;
    static const unsigned char png_sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n' };
    const unsigned char *p = data;
    uint32_t pw = 0, ph = 0;
    rpl_image_kind k = RPL_IMAGE_UNKNOWN;
    rpl_status st = RPL_EFORMAT;
    if (len >= 8 && memcmp(p, png_sig, 8) == 0)
        k = RPL_IMAGE_PNG, st = probe_png(p, len, &pw, &ph);
    else if (len >= 3 && p[0] == 0xFF && p[1] == 0xD8 && p[2] == 0xFF)
        k = RPL_IMAGE_JPEG, st = probe_jpeg(p, len, &pw, &ph);
    else if (len >= 2 && p[0] == 'B' && p[1] == 'M')
        k = RPL_IMAGE_BMP, st = probe_bmp(p, len, &pw, &ph);
    *kind = k;
    if (st != RPL_OK)
        return st;
    if (pw == 0 || ph == 0 || pw > INT32_MAX || ph > INT32_MAX)
        return RPL_EFORMAT;
    *w = (int)pw;
    *h = (int)ph;
    return RPL_OK;
}

/* ---- whole files ----------------------------------------------------------- */

/* JPEG: the marker segments by their lengths (so an EOI inside one, such
 * as an Exif thumbnail's, is not the file's), each scan's entropy-coded
 * data to the first marker that is neither a stuffed FF 00 nor a restart,
 * up to the end-of-image marker.  Stray bytes between segments are
 * skipped to the next FF, as libjpeg does. */
static rpl_status jpeg_complete(const unsigned char *p, size_t len)
{
    size_t i = 2;
    for (;;) {
        while (i < len && p[i] != 0xFF)
            i++;
        while (i < len && p[i] == 0xFF) /* fill bytes before a marker */
            i++;
        if (i >= len)
            return RPL_EFORMAT;
        unsigned m = p[i++];
        if (m == 0xD9)
            return RPL_OK;
        if (m == 0x00 || m == 0x01 || (m >= 0xD0 && m <= 0xD8))
            continue; /* no length: stray, TEM, restarts, SOI */
        if (len - i < 2)
            return RPL_EFORMAT;
        size_t seg = be16(p + i);
        if (seg < 2 || seg > len - i)
            return RPL_EFORMAT;
        i += seg;
        if (m != 0xDA)
            continue;
        /* a scan's data: FF 00 is a data byte, FF D0..D7 a restart (fill
         * FFs may come first); any other FF xx ends it */
        for (;;) {
            const unsigned char *ff = memchr(p + i, 0xFF, len - i);
            if (!ff)
                return RPL_EFORMAT;
            size_t j = (size_t)(ff - p);
            while (j < len && p[j] == 0xFF)
                j++;
            if (j >= len)
                return RPL_EFORMAT;
            if (p[j] == 0x00 || (p[j] >= 0xD0 && p[j] <= 0xD7)) {
                i = j + 1;
                continue;
            }
            i = j - 1; /* the marker's FF */
            break;
        }
    }
}

rpl_status rpl_image_complete(const void *data, size_t len)
{
    if (!data)
        return RPL_EINVAL;
    const unsigned char *p = data;
    rpl_image_kind k;
    int w, h;
    /* only the kind counts here: a damaged header is the decoder's to refuse */
    if (rpl_image_probe(data, len, &k, &w, &h) != RPL_OK && k == RPL_IMAGE_UNKNOWN)
        return RPL_EFORMAT;
    return k == RPL_IMAGE_JPEG ? jpeg_complete(p, len) : RPL_OK;
}
