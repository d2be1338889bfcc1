/* app/files.c - the demo's files: the background picture (size checked before decoding), screenshots, output targets. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <SDL_image.h>

#include "app/files.h"
#include "app/sys.h"
#include "ripple_support.h"

#ifndef RIPPLE_DATADIR
#define RIPPLE_DATADIR "/usr/local/share/ripple"
#endif

/* No picture file this large is worth reading: 100 megapixels as an
 * uncompressed 32-bit BMP is 400 MB.  In size_t, so it holds on 32-bit
 * systems too; PICTURE_FILE_WORDS is the same in a message. */
#define PICTURE_FILE_MAX ((size_t)1 << 30)
#define PICTURE_FILE_WORDS "1 GiB"

static int file_exists(const char *p)
{
    return rpl_path_readable(p);
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

static char *too_large(const char *path)
{
    return app_format("cannot load image '%s': larger than the %s limit for pictures", path,
                      PICTURE_FILE_WORDS);
}

/* Reads a whole file once (a pipe or a FIFO too), up to max bytes: a
 * regular file larger than that is refused before a byte is read, and a
 * stream when it passes max (the buffer grows only up to max + 1 bytes,
 * the size checked before each growth).  What does not start like a PNG,
 * JPEG or BMP file is refused after its first few kilobytes are read, so
 * /dev/zero or a large log costs nothing.  0, or the exit status with
 * *err: EXIT_USAGE for the file, EXIT_FAILURE when memory ran out. */
static int read_all(const char *path, unsigned char **out, size_t *len, size_t max, char **err)
{
    FILE *fp = rpl_open_read(path); /* binary, and UTF-8 names on Windows too */
    int fd = fp ? fileno(fp) : -1;
    if (fd < 0) {
        int e = errno;
        *err = e == EOVERFLOW /* a 32-bit build without large files */
                   ? too_large(path)
                   : app_format("cannot load image '%s': %s", path, strerror(e));
        return EXIT_USAGE;
    }
    struct stat st;
    size_t cap = (size_t)1 << 16, n = 0;
    int status = 0, sniffed = 0;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        if ((uintmax_t)st.st_size > max) {
            *err = too_large(path);
            fclose(fp);
            return EXIT_USAGE;
        }
        cap = (size_t)st.st_size + 1; /* all of it, and the end seen in one more read */
    }
    unsigned char *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            if (cap > max) {
                *err = too_large(path);
                status = EXIT_USAGE;
                break;
            }
            size_t more = cap > max / 2 ? max + 1 : cap * 2;
            unsigned char *grown = realloc(buf, more);
            if (!grown) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
            cap = more;
        }
        /* the first bytes alone until they show what the file is */
        size_t want = !sniffed && cap - n > 4096 ? 4096 : cap - n;
        ssize_t got = read(fd, buf + n, want);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            *err = app_format("cannot load image '%s': %s", path, strerror(errno));
            status = EXIT_USAGE;
            break;
        }
        n += (size_t)got;
        if (!sniffed && (n >= 8 || got == 0)) {
            rpl_image_kind kind;
            int w, h;
            if (rpl_image_probe(buf, n, &kind, &w, &h) != RPL_OK && kind == RPL_IMAGE_UNKNOWN) {
                *err = app_format("cannot load image '%s': not a PNG, JPEG or BMP picture", path);
                status = EXIT_USAGE;
                break;
            }
            sniffed = 1;
        }
        if (got == 0) { /* the end */
            fclose(fp);
            *out = buf;
            *len = n;
            return 0;
        }
    }
    if (!buf) {
        *err = app_format("cannot load image '%s': out of memory", path);
        status = EXIT_FAILURE;
    }
    free(buf);
    fclose(fp);
    return status;
}

/* Some image decoders print their own complaints to stderr; the user gets
 * our one-line error instead, so their output is silenced during a load. */
static SDL_Surface *decode_quietly(const unsigned char *data, size_t len, const char *type)
{
    SDL_RWops *rw = SDL_RWFromConstMem(data, (int)len);
    if (!rw)
        return NULL;
    int saved = app_sys_quiet_stderr();
    SDL_Surface *img = IMG_LoadTyped_RW(rw, 1, type);
    app_sys_loud_stderr(saved);
    return img;
}

static SDL_Surface *load_rgb(const char *path, char **err, int *status);

/* The size is read from the header and checked against the pixel budget
 * before a byte is decoded, so a small file claiming a huge picture costs
 * nothing; the decoder is the one the header names, never a guess. */
int app_load_picture(const app_t *a, const char *path, uint32_t *dst, char **err)
{
    int status;
    SDL_Surface *rgb = load_rgb(path, err, &status);
    if (!rgb)
        return status;
    SDL_LockSurface(rgb);
    rpl_status st = rpl_image_fit(rgb->pixels, rgb->w, rgb->h, rgb->pitch, dst, a->o.w, a->o.h);
    SDL_UnlockSurface(rgb);
    SDL_FreeSurface(rgb);
    if (st != RPL_OK) {
        *err = app_format("cannot fit image '%s': %s", path, rpl_strerror(st));
        return EXIT_USAGE;
    }
    return 0;
}

int app_load_pixels(const char *path, uint32_t **px, int *w, int *h, char **err)
{
    int status;
    *px = NULL;
    SDL_Surface *rgb = load_rgb(path, err, &status);
    if (!rgb)
        return status;
    *px = malloc((size_t)rgb->w * (size_t)rgb->h * 4);
    if (!*px) {
        *err = app_format("cannot load image '%s': out of memory", path);
        status = EXIT_FAILURE;
    } else {
        SDL_LockSurface(rgb);
        for (int y = 0; y < rgb->h; y++)
            memcpy(*px + (size_t)y * (size_t)rgb->w,
                   (char *)rgb->pixels + (ptrdiff_t)y * rgb->pitch, (size_t)rgb->w * 4);
        SDL_UnlockSurface(rgb);
        *w = rgb->w;
        *h = rgb->h;
        status = 0;
    }
    SDL_FreeSurface(rgb);
    return status;
}

/* SDL's own words when an allocation fails (SDL_OutOfMemory), which
 * SDL_image passes on when the decoded picture finds no memory. */
static int sdl_out_of_memory(void)
{
    return strcmp(SDL_GetError(), "Out of memory") == 0;
}

/* A picture file decoded into XRGB8888 at its own size; NULL with *err
 * and *status (EXIT_USAGE for the file, EXIT_FAILURE when memory ran
 * out). */
static SDL_Surface *load_rgb(const char *path, char **err, int *status)
{
    unsigned char *data;
    size_t len;
    *status = read_all(path, &data, &len, PICTURE_FILE_MAX, err);
    if (*status != 0)
        return NULL;
    *status = EXIT_USAGE;
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
    /* the JPEG decoder shows a file cut short with a grey end and only a
     * warning nobody sees: the file must reach its end-of-image marker */
    if (rpl_image_complete(data, len) != RPL_OK) {
        *err = app_format("cannot load image '%s': truncated JPEG: the file ends before the "
                          "picture does", path);
        free(data);
        return NULL;
    }
    static const char *const types[] = { "", "PNG", "JPG", "BMP" };
    SDL_ClearError();
    SDL_Surface *img = decode_quietly(data, len, types[kind]);
    free(data);
    if (!img) {
        if (sdl_out_of_memory()) {
            *err = app_format("cannot load image '%s': out of memory for %dx%d pixels", path, w, h);
            *status = EXIT_FAILURE;
        } else {
            *err = app_format("cannot load image '%s': %s", path, IMG_GetError());
        }
        return NULL;
    }
    if ((long long)img->w * img->h > RPL_IMAGE_MAX_PIXELS) { /* a header that lied */
        *err = app_format("image '%s' is %dx%d, over the limit of %ld megapixels", path, img->w,
                          img->h, RPL_IMAGE_MAX_PIXELS / 1000000);
        SDL_FreeSurface(img);
        return NULL;
    }
    SDL_ClearError();
    SDL_Surface *rgb = SDL_ConvertSurfaceFormat(img, SDL_PIXELFORMAT_RGB888, 0);
    SDL_FreeSurface(img);
    if (!rgb) {
        *status = sdl_out_of_memory() ? EXIT_FAILURE : EXIT_USAGE;
        *err = *status == EXIT_FAILURE
                   ? app_format("cannot load image '%s': out of memory for %dx%d pixels", path,
                                w, h)
                   : app_format("cannot convert image '%s': %s", path, SDL_GetError());
        return NULL;
    }
    *status = 0;
    return rgb;
}

int app_check_target(const char *path, char **err)
{
    rpl_file_t *f;
    rpl_status st = rpl_file_open(path, RPL_FILE_CHECK, &f);
    if (st != RPL_OK)
        *err = app_format("%s", f ? rpl_file_error(f) : rpl_strerror(st));
    rpl_file_destroy(f);
    return st == RPL_OK ? 0 : st == RPL_ENOMEM ? EXIT_FAILURE : EXIT_USAGE;
}

/* Saves a surface as PNG or BMP (by extension) through rpl_file, so the
 * target never holds half a picture and nothing else is replaced. */
int app_save_picture(SDL_Surface *s, const char *path, char **err)
{
    size_t n = strlen(path);
    int png = n > 4 && SDL_strcasecmp(path + n - 4, ".png") == 0;
    /* as the screen shows it: 24-bit colour whatever the framebuffer */
    SDL_Surface *rgb = SDL_ConvertSurfaceFormat(s, SDL_PIXELFORMAT_RGB888, 0);
    if (!rgb) {
        *err = app_format("cannot save '%s': %s", path, SDL_GetError());
        return EXIT_FAILURE;
    }
    rpl_file_t *f;
    rpl_status st = rpl_file_open(path, 0, &f);
    if (st == RPL_OK) {
        SDL_RWops *rw = SDL_RWFromFP(rpl_file_stream(f), SDL_FALSE);
        int rc = !rw ? -1 : png ? IMG_SavePNG_RW(rgb, rw, 1) : SDL_SaveBMP_RW(rgb, rw, 1);
        if (rc != 0) {
            *err = app_format("cannot save '%s': %s", path, SDL_GetError());
            SDL_FreeSurface(rgb);
            rpl_file_destroy(f); /* abandons the temporary */
            return EXIT_FAILURE;
        }
        st = rpl_file_commit(f);
    }
    if (st != RPL_OK)
        *err = app_format("%s", f ? rpl_file_error(f) : rpl_strerror(st));
    rpl_file_destroy(f);
    SDL_FreeSurface(rgb);
    return st == RPL_OK ? 0 : EXIT_FAILURE;
}
