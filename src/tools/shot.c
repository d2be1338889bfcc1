/* tools/shot.c - the pictures of `make screenshots`: a window grabbed from Xvfb's screen file, crops and halvings of PNGs. */
#include <SDL.h>
#include <SDL_image.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/save.h"

#define PROG "shot"

static void usage(void)
{
    fprintf(stderr,
            "usage: shot xwd SCREEN.xwd OUT.png X Y W H   the rectangle of an X screen file\n"
            "                                             (Xvfb -fbdir DIR writes DIR/Xvfb_screen0)\n"
            "       shot crop IN.png OUT.png X Y W H      a rectangle of a picture\n"
            "       shot half IN.png OUT.png              a picture at half its size (2x2 means)\n");
}

/* A whole non-negative number of at most 5 digits (a picture's side). */
static int number(const char *s, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < 0 || v > 65535)
        return 0;
    *out = (int)v;
    return 1;
}

static int rect(char **argv, int r[4])
{
    for (int i = 0; i < 4; i++)
        if (!number(argv[i], &r[i])) {
            fprintf(stderr, "%s: '%s' is not a size\n", PROG, argv[i]);
            return 0;
        }
    if (r[2] == 0 || r[3] == 0) {
        fprintf(stderr, "%s: an empty rectangle\n", PROG);
        return 0;
    }
    return 1;
}

static SDL_Surface *new_rgb(int w, int h)
{
    SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, w, h, 24, SDL_PIXELFORMAT_RGB24);
    if (!s)
        fprintf(stderr, "%s: %s\n", PROG, SDL_GetError());
    return s;
}

/* A picture as 24-bit RGB, whatever its file held. */
static SDL_Surface *load_rgb(const char *path)
{
    SDL_Surface *in = IMG_Load(path);
    if (!in) {
        fprintf(stderr, "%s: cannot read %s: %s\n", PROG, path, IMG_GetError());
        return NULL;
    }
    SDL_Surface *out = SDL_ConvertSurfaceFormat(in, SDL_PIXELFORMAT_RGB24, 0);
    SDL_FreeSurface(in);
    if (!out)
        fprintf(stderr, "%s: %s: %s\n", PROG, path, SDL_GetError());
    return out;
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* One colour of a pixel through its mask, as 0..255. */
static unsigned channel(uint32_t px, uint32_t mask)
{
    if (!mask)
        return 0;
    int shift = 0;
    while (!(mask >> shift & 1))
        shift++;
    uint32_t max = mask >> shift, v = (px & mask) >> shift;
    return (unsigned)((v * 255 + max / 2) / max);
}

/* XWD (X Window Dump, version 7): a header of 25 big-endian 32-bit
 * fields and the window's name, the colour map, then the pixels.  Only
 * what Xvfb writes for a TrueColor screen is read: ZPixmap, 32 bits a
 * pixel, either byte order. */
static SDL_Surface *grab_xwd(const char *path, const int r[4])
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open %s\n", PROG, path);
        return NULL;
    }
    unsigned char hd[100];
    SDL_Surface *out = NULL;
    unsigned char *row = NULL;
    if (fread(hd, 1, sizeof hd, f) != sizeof hd) {
        fprintf(stderr, "%s: %s: too short for an XWD file\n", PROG, path);
        goto done;
    }
    uint32_t f_[25];
    for (int i = 0; i < 25; i++)
        f_[i] = be32(hd + 4 * i);
    uint32_t header = f_[0], version = f_[1], format = f_[2], w = f_[4], h = f_[5],
             order = f_[7], bpp = f_[11], pitch = f_[12], rmask = f_[14], gmask = f_[15],
             bmask = f_[16], ncolors = f_[19];
    if (version != 7 || format != 2 || bpp != 32 || pitch < w * 4 || header < 100) {
        fprintf(stderr, "%s: %s: not an XWD file of 32-bit pixels (version 7, ZPixmap)\n", PROG,
                path);
        goto done;
    }
    if ((uint32_t)r[0] + (uint32_t)r[2] > w || (uint32_t)r[1] + (uint32_t)r[3] > h) {
        fprintf(stderr, "%s: %dx%d at %d,%d is not inside the %ux%u screen\n", PROG, r[2], r[3],
                r[0], r[1], w, h);
        goto done;
    }
    long start = (long)header + 12L * (long)ncolors;
    row = malloc(pitch);
    out = new_rgb(r[2], r[3]);
    if (!row || !out)
        goto fail;
    for (int y = 0; y < r[3]; y++) {
        if (fseek(f, start + (long)(r[1] + y) * (long)pitch, SEEK_SET) != 0 ||
            fread(row, 1, pitch, f) != pitch) {
            fprintf(stderr, "%s: %s: the pixels end early\n", PROG, path);
            goto fail;
        }
        unsigned char *dst = (unsigned char *)out->pixels + (size_t)y * (size_t)out->pitch;
        for (int x = 0; x < r[2]; x++) {
            const unsigned char *p = row + 4 * (size_t)(r[0] + x);
            uint32_t px = order ? be32(p)
                                : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
                                      (uint32_t)p[1] << 8 | p[0];
            dst[3 * x] = (unsigned char)channel(px, rmask);
            dst[3 * x + 1] = (unsigned char)channel(px, gmask);
            dst[3 * x + 2] = (unsigned char)channel(px, bmask);
        }
    }
    goto done;
fail:
    SDL_FreeSurface(out);
    out = NULL;
done:
    free(row);
    fclose(f);
    return out;
}

static SDL_Surface *crop(SDL_Surface *in, const int r[4])
{
    if (r[0] + r[2] > in->w || r[1] + r[3] > in->h) {
        fprintf(stderr, "%s: %dx%d at %d,%d is not inside the %dx%d picture\n", PROG, r[2], r[3],
                r[0], r[1], in->w, in->h);
        return NULL;
    }
    SDL_Surface *out = new_rgb(r[2], r[3]);
    for (int y = 0; out && y < r[3]; y++)
        memcpy((unsigned char *)out->pixels + (size_t)y * (size_t)out->pitch,
               (unsigned char *)in->pixels + (size_t)(r[1] + y) * (size_t)in->pitch + 3 * (size_t)r[0],
               3 * (size_t)r[2]);
    return out;
}

/* Each pixel the rounded mean of a 2x2 block (an odd last row or column
 * is dropped). */
static SDL_Surface *half(SDL_Surface *in)
{
    int w = in->w / 2, h = in->h / 2;
    if (w == 0 || h == 0) {
        fprintf(stderr, "%s: a %dx%d picture has no half\n", PROG, in->w, in->h);
        return NULL;
    }
    SDL_Surface *out = new_rgb(w, h);
    for (int y = 0; out && y < h; y++) {
        const unsigned char *a = (unsigned char *)in->pixels + (size_t)(2 * y) * (size_t)in->pitch;
        const unsigned char *b = a + in->pitch;
        unsigned char *d = (unsigned char *)out->pixels + (size_t)y * (size_t)out->pitch;
        for (int x = 0; x < w; x++)
            for (int c = 0; c < 3; c++) {
                size_t i = 6 * (size_t)x + (size_t)c;
                d[3 * x + c] = (unsigned char)((a[i] + a[i + 3] + b[i] + b[i + 3] + 2) / 4);
            }
    }
    return out;
}

int main(int argc, char **argv)
{
    SDL_Surface *in = NULL, *out = NULL;
    int r[4];
    const char *dest;
    if (argc == 8 && !strcmp(argv[1], "xwd")) {
        if (!rect(argv + 4, r))
            return 2;
        out = grab_xwd(argv[2], r);
    } else if (argc == 8 && !strcmp(argv[1], "crop")) {
        if (!rect(argv + 4, r))
            return 2;
        if ((in = load_rgb(argv[2])) != NULL)
            out = crop(in, r);
    } else if (argc == 4 && !strcmp(argv[1], "half")) {
        if ((in = load_rgb(argv[2])) != NULL)
            out = half(in);
    } else {
        usage();
        return 2;
    }
    dest = argv[3];
    int ok = out && tool_save_png(out, dest, PROG);
    SDL_FreeSurface(in);
    SDL_FreeSurface(out);
    return ok ? 0 : 1;
}
