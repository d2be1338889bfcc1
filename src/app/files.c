/* app/files.c - the demo's files: the background picture (size checked before decoding), screenshots, output targets. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <SDL_image.h>

#include "app/app.h"
#include "app/shotname.h"

#ifndef RIPPLE_DATADIR
#define RIPPLE_DATADIR "/usr/local/share/ripple"
#endif

/* No picture file this large is worth reading: 100 megapixels as an
 * uncompressed 32-bit BMP is 400 MB. */
#define PICTURE_FILE_MAX (1L << 30)

char *app_format(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s) {
        va_start(ap, fmt);
        vsnprintf(s, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    return s;
}

static int file_exists(const char *p)
{
    return access(p, R_OK) == 0;
}

/* A file of assets/: beside the binary, in the working directory, or
 * where `make install` puts it. */
const char *app_find_asset(const char *name, char *buf, size_t len)
{
    char *base = SDL_GetBasePath();
    if (base) {
        snprintf(buf, len, "%sassets/%s", base, name);
        SDL_free(base);
        if (file_exists(buf))
            return buf;
    }
    snprintf(buf, len, "assets/%s", name);
    if (file_exists(buf))
        return buf;
    snprintf(buf, len, "%s/%s", RIPPLE_DATADIR, name);
    return file_exists(buf) ? buf : NULL;
}

/* The default picture. */
const char *app_default_image(char *buf, size_t len)
{
    return app_find_asset("background.png", buf, len);
}

/* Reads a whole file once (a pipe or a FIFO too), up to max bytes. */
static int read_all(const char *path, unsigned char **out, size_t *len, long max, char **err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        *err = app_format("cannot load image '%s': %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            *err = app_format("cannot load image '%s': out of memory", path);
            break;
        }
        n += fread(buf + n, 1, cap - n, f);
        if (ferror(f)) {
            *err = app_format("cannot load image '%s': %s", path, strerror(errno));
            break;
        }
        if (n < cap) { /* the end */
            fclose(f);
            *out = buf;
            *len = n;
            return 0;
        }
        if ((long)cap > max) {
            *err = app_format("image '%s' is larger than %ld MB: not a picture to use", path,
                              max >> 20);
            break;
        }
        cap *= 2;
        unsigned char *more = realloc(buf, cap);
        if (!more)
            free(buf);
        buf = more;
    }
    free(buf);
    fclose(f);
    return -1;
}

/* Some image decoders print their own complaints to stderr; the user gets
 * our one-line error instead, so their output is silenced during a load. */
static SDL_Surface *decode_quietly(const unsigned char *data, size_t len, const char *type)
{
    SDL_RWops *rw = SDL_RWFromConstMem(data, (int)len);
    if (!rw)
        return NULL;
    fflush(stderr);
    int saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (saved >= 0 && null >= 0)
        dup2(null, STDERR_FILENO);
    SDL_Surface *img = IMG_LoadTyped_RW(rw, 1, type);
    fflush(stderr);
    if (saved >= 0) {
        dup2(saved, STDERR_FILENO);
        close(saved);
    }
    if (null >= 0)
        close(null);
    return img;
}

static SDL_Surface *load_rgb(const char *path, char **err);

/* The size is read from the header and checked against the pixel budget
 * before a byte is decoded, so a small file claiming a huge picture costs
 * nothing; the decoder is the one the header names, never a guess. */
int app_load_background(app_t *a, const char *path, char **err)
{
    return app_load_picture(a, path, a->bg, err);
}

int app_load_picture(const app_t *a, const char *path, uint32_t *dst, char **err)
{
    SDL_Surface *rgb = load_rgb(path, err);
    if (!rgb)
        return -1;
    SDL_LockSurface(rgb);
    rpl_status st = rpl_image_fit(rgb->pixels, rgb->w, rgb->h, rgb->pitch, dst, a->o.w, a->o.h);
    SDL_UnlockSurface(rgb);
    SDL_FreeSurface(rgb);
    if (st != RPL_OK) {
        *err = app_format("cannot fit image '%s': %s", path, rpl_strerror(st));
        return -1;
    }
    return 0;
}

uint32_t *app_load_image(const char *path, int *w, int *h, char **err)
{
    SDL_Surface *rgb = load_rgb(path, err);
    if (!rgb)
        return NULL;
    uint32_t *px = malloc((size_t)rgb->w * (size_t)rgb->h * 4);
    if (!px) {
        *err = app_format("cannot load image '%s': out of memory", path);
    } else {
        SDL_LockSurface(rgb);
        for (int y = 0; y < rgb->h; y++)
            memcpy(px + (size_t)y * (size_t)rgb->w, (char *)rgb->pixels + (ptrdiff_t)y * rgb->pitch,
                   (size_t)rgb->w * 4);
        SDL_UnlockSurface(rgb);
        *w = rgb->w;
        *h = rgb->h;
    }
    SDL_FreeSurface(rgb);
    return px;
}

/* A picture file decoded into XRGB8888 at its own size (NULL, *err). */
static SDL_Surface *load_rgb(const char *path, char **err)
{
    unsigned char *data;
    size_t len;
    if (read_all(path, &data, &len, PICTURE_FILE_MAX, err) != 0)
        return NULL;
    rpl_image_kind kind;
    int w, h;
    rpl_status st = rpl_image_probe(data, len, &kind, &w, &h);
    if (st != RPL_OK) {
        *err = kind == RPL_IMAGE_UNKNOWN
                   ? app_format("cannot load image '%s': not a PNG, JPEG or BMP picture", path)
                   : app_format("cannot load image '%s': damaged or truncated %s header", path,
                                kind == RPL_IMAGE_PNG ? "PNG" : kind == RPL_IMAGE_JPEG ? "JPEG"
                                                                                       : "BMP");
        free(data);
        return NULL;
    }
    if ((long long)w * h > RPL_IMAGE_MAX_PIXELS) {
        *err = app_format("image '%s' is %dx%d, over the limit of %ld megapixels", path, w, h,
                          RPL_IMAGE_MAX_PIXELS / 1000000);
        free(data);
        return NULL;
    }
    static const char *const types[] = { "", "PNG", "JPG", "BMP" };
    SDL_Surface *img = decode_quietly(data, len, types[kind]);
    free(data);
    if (!img) {
        *err = app_format("cannot load image '%s': %s", path, IMG_GetError());
        return NULL;
    }
    if ((long long)img->w * img->h > RPL_IMAGE_MAX_PIXELS) { /* a header that lied */
        *err = app_format("image '%s' is %dx%d, over the limit of %ld megapixels", path, img->w,
                          img->h, RPL_IMAGE_MAX_PIXELS / 1000000);
        SDL_FreeSurface(img);
        return NULL;
    }
    SDL_Surface *rgb = SDL_ConvertSurfaceFormat(img, SDL_PIXELFORMAT_RGB888, 0);
    SDL_FreeSurface(img);
    if (!rgb) {
        *err = app_format("cannot convert image '%s': %s", path, SDL_GetError());
        return NULL;
    }
    return rgb;
}

int app_check_target(const char *path, char **err)
{
    rpl_file_t *f;
    rpl_status st = rpl_file_open(path, RPL_FILE_CHECK, &f);
    if (st != RPL_OK)
        *err = app_format("%s", f ? rpl_file_error(f) : rpl_strerror(st));
    rpl_file_close(f);
    return st == RPL_OK ? 0 : -1;
}

/* Saves a surface as PNG or BMP (by extension) through rpl_file, so the
 * target never holds half a picture and nothing else is replaced. */
static int save_picture(SDL_Surface *s, const char *path, char **err)
{
    size_t n = strlen(path);
    int png = n > 4 && SDL_strcasecmp(path + n - 4, ".png") == 0;
    /* as the screen shows it: 24-bit colour whatever the framebuffer */
    SDL_Surface *rgb = SDL_ConvertSurfaceFormat(s, SDL_PIXELFORMAT_RGB888, 0);
    if (!rgb) {
        *err = app_format("cannot save '%s': %s", path, SDL_GetError());
        return -1;
    }
    rpl_file_t *f;
    rpl_status st = rpl_file_open(path, 0, &f);
    if (st == RPL_OK) {
        SDL_RWops *rw = SDL_RWFromFP(rpl_file_stream(f), SDL_FALSE);
        int rc = !rw ? -1 : png ? IMG_SavePNG_RW(rgb, rw, 1) : SDL_SaveBMP_RW(rgb, rw, 1);
        if (rc != 0) {
            *err = app_format("cannot save '%s': %s", path, SDL_GetError());
            SDL_FreeSurface(rgb);
            rpl_file_close(f); /* abandons the temporary */
            return -1;
        }
        st = rpl_file_commit(f);
    }
    if (st != RPL_OK)
        *err = app_format("%s", f ? rpl_file_error(f) : rpl_strerror(st));
    rpl_file_close(f);
    SDL_FreeSurface(rgb);
    return st == RPL_OK ? 0 : -1;
}

/* Saves the water as it is now, without the overlay. */
int app_screenshot(app_t *a, const char *path, char **err)
{
    app_refract(a);
    return save_picture(a->fb_surf, path, err);
}

/* The screenshot key: the picture goes to the first free ripple-NNNN.png
 * of the working directory, taken empty with O_EXCL and then written
 * over through rpl_file; an existing file is never replaced. */
void app_take_screenshot(app_t *a)
{
    char path[64];
    int e = app_shot_take("", path, sizeof path);
    if (e == EEXIST) {
        app_note(a, "no free name for a screenshot: ripple-0001.png to ripple-9999.png "
                    "all exist");
        return;
    }
    if (e != 0) {
        char msg[160];
        snprintf(msg, sizeof msg, "cannot save '%s': %s", path, strerror(e));
        app_note(a, msg);
        return;
    }
    char *err = NULL;
    if (app_screenshot(a, path, &err) == 0) {
        char msg[128];
        snprintf(msg, sizeof msg, "saved %s", path);
        app_note(a, msg);
    } else {
        app_shot_release(path);
        app_note(a, err ? err : "cannot save the screenshot");
        free(err);
    }
}
