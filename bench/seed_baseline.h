/* seed_baseline.h - the seed's water ripple code kept literally, as the bench's point of comparison. */
#ifndef SEED_BASELINE_H
#define SEED_BASELINE_H

#include <stddef.h>

/*
 * The seed's state, which it keeps in globals: the pool size, the two
 * energy buffers and the two locked DirectDraw pages (picture and render
 * target) with their pitch and depth.  This is the reference for speed
 * comparison only, not product code.
 *
 * The picture page `pic` has backheight + 1 rows of pic_pitch bytes and
 * pic_pitch covers backwidth + 1 pixels: the seed's range tests let it read
 * one row and one column past the picture (`> backheight`, `> backwidth`),
 * and this padding keeps that literal behaviour memory-safe.
 */
typedef struct seed_pool {
    int backwidth, backheight;
    short *buf1, *buf2;  /* heights now / one step ago, backwidth * backheight */
    unsigned char *pic;  /* background page, (backheight + 1) * pic_pitch bytes */
    int pic_pitch;
    unsigned char *out;  /* rendered page, backheight * out_pitch bytes */
    int out_pitch;
    int depth;           /* bytes per pixel (4) */
} seed_pool_t;

/* Allocates a still pool of w x h with 4-byte pixels, everything zeroed.
 * Returns 0, or -1 if out of memory (then nothing stays allocated). */
int seed_pool_init(seed_pool_t *p, int w, int h);
void seed_pool_free(seed_pool_t *p);

/* Bytes of the picture page of a w x h pool (its padding included). */
size_t seed_pool_pic_bytes(int w, int h);

/* A pool of w x h with 4-byte pixels on buffers the caller owns and keeps:
 * buf1 and buf2 of w * h cells, pic of seed_pool_pic_bytes(w, h) bytes laid
 * out as seed_pool_init does, out of w * h * 4 bytes.  Nothing is
 * allocated or cleared; never pass such a pool to seed_pool_free. */
void seed_pool_attach(seed_pool_t *p, int w, int h, short *buf1, short *buf2,
                      unsigned char *pic, unsigned char *out);

/* The seed's Ripplespread: one step of the wave rule, then swaps buffers. */
void seed_ripplespread(seed_pool_t *p);

/* The seed's Renderripple: refracts `pic` into `out` by the heights. */
void seed_renderripple(seed_pool_t *p);

/* The seed's Dropstone: ignored unless the whole square around the stone
 * lies within the pool. */
void seed_dropstone(seed_pool_t *p, int x, int y, int stonesize, int stoneweight);

#endif
