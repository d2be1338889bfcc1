/* seed_baseline.c - the seed's Ripplespread, Renderripple and Dropstone, literally: a reference for comparison only, not product code. */
#include <stdlib.h>

#include "seed_baseline.h"

/*
 * This file follows the algorithm's source document as closely as C11
 * allows, so the bench can tell how far the product has come from it.  It
 * is NOT product code and keeps the seed's flaws on purpose:
 *   - heights are `short` and never clamped, so they may wrap around (the
 *     int result is cast back to short: implementation-defined, a wrap
 *     modulo 2^16 on every compiler we use, never undefined behaviour);
 *   - the step reads its left/right neighbours across row ends (the flat
 *     index wraps to the neighbouring row) and the border is not a wall;
 *   - the renderer's range tests are off by one (`> backheight`,
 *     `> backwidth`) and read one row/column past the picture, which the
 *     padding allocated below absorbs; out-of-range pixels are skipped and
 *     keep whatever the page held; pixels are copied byte by byte;
 *   - a stone whose square reaches past an edge is ignored.
 * The only liberty taken: the seed's globals and locked-surface fields are
 * read into locals, which if anything makes the baseline faster.
 */

int seed_pool_init(seed_pool_t *p, int w, int h)
{
    size_t cells = (size_t)w * (size_t)h;
    p->backwidth = w;
    p->backheight = h;
    p->depth = 4;
    p->pic_pitch = (w + 1) * p->depth;
    p->out_pitch = w * p->depth;
    p->buf1 = calloc(cells, sizeof *p->buf1);
    p->buf2 = calloc(cells, sizeof *p->buf2);
    p->pic = calloc((size_t)(h + 1), (size_t)p->pic_pitch);
    p->out = calloc((size_t)h, (size_t)p->out_pitch);
    if (!p->buf1 || !p->buf2 || !p->pic || !p->out) {
        seed_pool_free(p);
        return -1;
    }
    return 0;
}

size_t seed_pool_pic_bytes(int w, int h)
{
    return (size_t)(h + 1) * (size_t)(w + 1) * 4u;
}

void seed_pool_attach(seed_pool_t *p, int w, int h, short *buf1, short *buf2,
                      unsigned char *pic, unsigned char *out)
{
    p->backwidth = w;
    p->backheight = h;
    p->depth = 4;
    p->pic_pitch = (w + 1) * p->depth;
    p->out_pitch = w * p->depth;
    p->buf1 = buf1;
    p->buf2 = buf2;
    p->pic = pic;
    p->out = out;
}

void seed_pool_free(seed_pool_t *p)
{
    free(p->buf1);
    free(p->buf2);
    free(p->pic);
    free(p->out);
    p->buf1 = p->buf2 = NULL;
    p->pic = p->out = NULL;
}

/* Calculate the wave data buffer. */
void seed_ripplespread(seed_pool_t *p)
{
    const int backwidth = p->backwidth, backheight = p->backheight;
    short *buf1 = p->buf1, *buf2 = p->buf2;

    for (int i = backwidth; i < backwidth * backheight - backwidth; i++) {
        /* wave diffusion */
        buf2[i] = (short)(((buf1[i - 1] +
                            buf1[i + 1] +
                            buf1[i - backwidth] +
                            buf1[i + backwidth])
                           >> 1)
                          - buf2[i]);
        /* wave attenuation */
        buf2[i] -= buf2[i] >> 5;
    }

    /* exchange the wave energy buffers */
    short *ptmp = buf1;
    buf1 = buf2;
    buf2 = ptmp;
    p->buf1 = buf1;
    p->buf2 = buf2;
}

/* Render the off-screen page according to the wave data buffer. */
void seed_renderripple(seed_pool_t *p)
{
    const int backwidth = p->backwidth, backheight = p->backheight;
    const short *buf1 = p->buf1;
    const int lpitch1 = p->pic_pitch, lpitch2 = p->out_pitch;

    /* page pixel depth and page memory pointers */
    int depth = p->depth;
    unsigned char *bitmap1 = p->pic;
    unsigned char *bitmap2 = p->out;

    int xoff, yoff;
    int k = backwidth;
    for (int i = 1; i < backheight - 1; i++) {
        for (int j = 0; j < backwidth; j++) {
            /* calculate the offset */
            xoff = buf1[k - 1] - buf1[k + 1];
            yoff = buf1[k - backwidth] - buf1[k + backwidth];

            /* is the source within the window? */
            if ((i + yoff) < 0) { k++; continue; }
            if ((i + yoff) > backheight) { k++; continue; }
            if ((j + xoff) < 0) { k++; continue; }
            if ((j + xoff) > backwidth) { k++; continue; }

            /* memory offsets of the shifted source pixel and the target */
            int pos1, pos2;
            pos1 = lpitch1 * (i + yoff) + depth * (j + xoff);
            pos2 = lpitch2 * i + depth * j;

            /* copy the pixel */
            for (int d = 0; d < depth; d++)
                bitmap2[pos2++] = bitmap1[pos1++];
            k++;
        }
    }
}

/* Add a wave: a stone of radius `stonesize` and energy `stoneweight`. */
void seed_dropstone(seed_pool_t *p, int x, int y, int stonesize, int stoneweight)
{
    const int backwidth = p->backwidth, backheight = p->backheight;
    short *buf1 = p->buf1;

    /* is the stone within the screen? */
    if ((x + stonesize) > backwidth ||
        (y + stonesize) > backheight ||
        (x - stonesize) < 0 ||
        (y - stonesize) < 0)
        return;

    for (int posx = x - stonesize; posx < x + stonesize; posx++)
        for (int posy = y - stonesize; posy < y + stonesize; posy++)
            if ((posx - x) * (posx - x) + (posy - y) * (posy - y) < stonesize * stonesize)
                buf1[backwidth * posy + posx] = (short)-stoneweight;
}
