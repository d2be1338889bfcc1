/* ripple_support.h - helpers for ripple's front ends: in libripple, not in its public API. */
#ifndef RIPPLE_SUPPORT_H
#define RIPPLE_SUPPORT_H

/*
 * Not part of the public API.  These helpers serve ripple's own front
 * ends (the demo in src/app, the bench, the tools, the tests, and front
 * ends to come) so that each accepts the same spellings and writes files
 * the same way; the pool's play they share is src/play's, above the
 * library.  The core implements them and they are in libripple.a,
 * but libripple.so does not export them (src/libripple.sym lists what it
 * exports) and this header is not installed: they may change in any
 * release.  The conventions of ripple.h hold here too; every function
 * below may be called from any thread (a file handle by one at a time).
 */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ripple.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- parsing text ----------------------------------------------------- */

/*
 * Strict parsers for numbers and sizes written as text (command-line
 * flags, show files), so every front end accepts the same spellings.
 * The whole string must be the number: no white space, no sign other
 * than a leading '-' where the range allows negatives, no '+', no hex or
 * octal ("010" is ten).  Out of range, empty, NULL or anything else:
 * RPL_EINVAL and *out untouched.
 */
/* A decimal integer in [lo, hi]. */
RPL_NODISCARD rpl_status rpl_parse_int(const char *s, long long lo, long long hi, long long *out);
/* A decimal integer in [0, 2^64 - 1] (seeds). */
RPL_NODISCARD rpl_status rpl_parse_u64(const char *s, uint64_t *out);
/* A finite decimal number in [lo, hi]: [-]digits[.digits][e[+|-]digits]
 * (a leading or trailing '.' is fine, "1.", ".5"); no hex floats, inf or
 * nan. */
RPL_NODISCARD rpl_status rpl_parse_real(const char *s, double lo, double hi, double *out);
/* "WxH" (or "WXH"), each side a decimal integer in [lo, hi], 0 <= lo. */
RPL_NODISCARD rpl_status rpl_parse_size(const char *s, int lo, int hi, int *w, int *h);

/* ---- writing files ---------------------------------------------------- */

/*
 * Every file ripple writes goes through here, so a reader of the target
 * never sees half a file and nothing but what was asked for is replaced:
 *   - a new name or a regular file: the data goes to a temporary file
 *     created exclusively (never through a link) in the target's
 *     directory, is flushed and synced, then renamed over the target (a
 *     replaced file keeps its permissions, never a set-uid or set-gid
 *     bit); a file whose mode bits do not let the user write it (owner,
 *     group or others as the user is; root too) is not replaced, nor is
 *     another user's file in a sticky folder unless the user owns the
 *     folder or is root (both found by rpl_file_open, RPL_FILE_CHECK too);
 *   - a character device or a FIFO (/dev/null, a named pipe), or a link
 *     to one: written in place, as the user means;
 *   - the standard streams by name (/dev/stdout, /dev/stderr, /dev/fd/N,
 *     /proc/self/fd/N, N with leading zeros too), or a symbolic link to
 *     what standard output or standard error is open on (a link to
 *     /dev/stdout, whatever stdout is): written through that descriptor;
 *   - anything else (a directory, a block device, a socket, a symbolic
 *     link to another regular file) is refused and left as it is.
 * Like sqlite3_open, rpl_file_open gives a handle even when it fails (NULL
 * only when memory runs out: RPL_ENOMEM), so that rpl_file_error can say
 * why in one line; always finish with rpl_file_destroy.  A handle is used
 * by one thread at a time.
 */
typedef struct rpl_file rpl_file_t;

/* Only check that the target could be written, without writing it (for
 * a check before a long run): a temporary file is created and removed. */
#define RPL_FILE_CHECK 1u

/* Opens path for writing (flags 0 or RPL_FILE_CHECK).  RPL_EIO for a
 * target that is not to be replaced or that the system refuses, RPL_EINVAL
 * for a NULL or empty path or unknown flags, RPL_ENOMEM. */
RPL_NODISCARD rpl_status rpl_file_open(const char *path, unsigned flags, rpl_file_t **out);
/* Where to write the contents (NULL if the file is not open). */
FILE *rpl_file_stream(rpl_file_t *f);
/* Flushes, syncs and puts the file in place.  On failure (RPL_EIO, or
 * RPL_EINVAL if nothing is open) the target is as it was. */
RPL_NODISCARD rpl_status rpl_file_commit(rpl_file_t *f);
/* The last failure in one line, naming the file and the reason ("" if
 * none); valid until the next call on f. */
const char *rpl_file_error(const rpl_file_t *f);
/* Frees f; a file not committed is abandoned (its temporary removed).
 * NULL is fine. */
void rpl_file_destroy(rpl_file_t *f);
/* Whether writing path, the way rpl_file_open would, lands on what
 * standard output is open on: the descriptor written through, what a
 * device, FIFO or link name reaches, or the file replaced, compared by
 * device and inode with fd 1 (so every spelling of stdout counts, and
 * only those).  The null device never counts (any number of outputs may
 * go there).  0 for NULL, a new name, a refused one or a closed fd 1.
 * For a front end's report: it goes to stderr when this holds. */
int rpl_file_is_stdout(const char *path);

/* ---- reading files ---------------------------------------------------- */

/* fopen(path, "rb") that no program started later inherits, the name
 * taken as UTF-8 everywhere (through the wide API on Windows); NULL with
 * errno set when it cannot be opened. */
FILE *rpl_open_read(const char *path);
/* Whether a path (UTF-8 on every system) names something this process may
 * read: 1 or 0. */
int rpl_path_readable(const char *path);
/* Whether a path names a folder: 1; 0 when it names something else; -1
 * when it names nothing that can be reached (errno says why). */
int rpl_path_is_dir(const char *path);

/* ---- checksums -------------------------------------------------------- */

/*
 * CRC-32 as zlib's crc32() and PNG have it (reflected, polynomial
 * 0xEDB88320): len more bytes of buf after crc, 0 to start; crc32 of
 * "123456789" is cbf43926.  For the timedemos' CRCs where the front end
 * has no zlib (the scene, the page); buf may be NULL when len is 0.
 */
uint32_t rpl_crc32(uint32_t crc, const void *buf, size_t len);

/* ---- the machine ------------------------------------------------------ */

/*
 * Clocks and what a benchmark report says about the machine, one file per
 * system (core/base/machine.c, machine_win.c).  The CPU clocks give 0 when
 * the system has none.
 */
/* A monotonic wall clock, in nanoseconds from an arbitrary start. */
int64_t rpl_clock_ns(void);
/* The calling thread's CPU time, user and system, in nanoseconds. */
int64_t rpl_thread_cpu_ns(void);
/* The process's CPU time, every thread, in nanoseconds. */
int64_t rpl_process_cpu_ns(void);
/* The process's CPU time split into user and system, in seconds. */
void rpl_process_times(double *user_s, double *sys_s);
/* The CPU's model name ("unknown" when it cannot be read). */
void rpl_cpu_model(char *buf, size_t len);
/* The system and its release to major.minor ("Linux 6.1", "Windows 10.0";
 * "unknown" when it cannot be read). */
void rpl_os_name(char *buf, size_t len);
/* The running program's own path, '/' between folders on every system;
 * 0, or -1 when it cannot be had or does not fit. */
int rpl_exe_path(char *buf, size_t len);

/* ---- probing pictures ------------------------------------------------- */

/* Pictures larger than this many pixels are refused before decoding: a
 * decoded picture costs about 4 bytes a pixel twice over (as loaded and
 * converted), so 100 megapixels is about 0.8 GB. */
#define RPL_IMAGE_MAX_PIXELS 100000000L

/* The picture formats whose size rpl_image_probe reads. */
typedef enum rpl_image_kind {
    RPL_IMAGE_UNKNOWN = 0,
    RPL_IMAGE_PNG,
    RPL_IMAGE_JPEG,
    RPL_IMAGE_BMP
} rpl_image_kind;

/* Reads a picture's size from the first len bytes of its file, without
 * decoding it: the PNG IHDR, the JPEG start of frame (walking the marker
 * segments before it, so pass enough of the file to reach it: the whole
 * file is safest), the BMP info header (OS/2 and Windows; a negative
 * height is a top-down picture).  *kind is set to what the signature says
 * (RPL_IMAGE_UNKNOWN if none); *w, *h, each >= 1, only on success.
 * RPL_EFORMAT: not one of these, or a damaged or truncated header;
 * RPL_EINVAL: a NULL argument.  Never reads past len. */
RPL_NODISCARD rpl_status rpl_image_probe(const void *data, size_t len, rpl_image_kind *kind,
                                         int *w, int *h);

/* Whether a whole picture file reaches its end, without decoding it: a
 * JPEG must reach its end-of-image marker through its segments and scans
 * (a decoder shows a JPEG cut short as a picture with a grey end, with
 * only a warning); PNG and BMP decoders refuse a truncated file
 * themselves, so for them only the signature is checked.  RPL_OK, or
 * RPL_EFORMAT (cut short, or not a PNG, JPEG or BMP file at all);
 * RPL_EINVAL: data NULL.  Never reads past len. */
RPL_NODISCARD rpl_status rpl_image_complete(const void *data, size_t len);

/* ---- built-in font ---------------------------------------------------- */

/* A 5x7 bitmap font with descenders, for overlays and text drawn on
 * XRGB8888 framebuffers. */
/* Advance per character in pixels at scale 1 (glyph 5 wide + 1 gap, which
 * also holds the drop shadow). */
#define RPL_FONT_CELL_W 6
/* Line height at scale 1: 7 rows of cap height, 2 rows of descenders and
 * 1 row for the shadow / line gap.  A text's whole ink, shadow included,
 * lies inside rpl_font_text_width() x rpl_font_text_height(). */
#define RPL_FONT_CELL_H 10

/* Width in pixels of the longest line of `text` ('\n' starts a new line) at
 * `scale` (>=1; smaller counts as 1).  NULL or "" gives 0; saturates at
 * INT_MAX. */
int rpl_font_text_width(const char *text, int scale);

/* Number of lines times line height.  A non-empty text has one line more
 * than it has '\n' (so a trailing '\n' counts an empty line); NULL or ""
 * gives 0.  Saturates at INT_MAX. */
int rpl_font_text_height(const char *text, int scale);

/* Draws text with its top-left at (x, y) into an XRGB8888 framebuffer of
 * fbw x fbh pixels whose rows are `pitch` BYTES apart; color is 0x00RRGGBB
 * (top byte written as 0xFF); '\n' starts a new line at x; characters
 * outside 32..126 (bytes, so each byte of a UTF-8 sequence) draw as a small
 * box; everything is clipped to the framebuffer (x, y may be negative or
 * past the edge).  scale >= 1 makes each font pixel scale x scale (smaller
 * counts as 1).  A 1-pixel black drop shadow (offset +1,+1 at scale 1,
 * scaled) makes text read on any background.  A NULL fb or text, a pitch
 * that is not a multiple of 4 of at least fbw pixels, or an fb not aligned
 * for uint32_t draws nothing. */
void rpl_font_draw(uint32_t *fb, ptrdiff_t pitch, int fbw, int fbh, int x, int y,
                   const char *text, uint32_t color, int scale);

/* Darkens a rectangle (clipped) to make a translucent panel: each R,G,B
 * byte becomes (c * keep) >> 8, keep in 0..256 (clamped); the top byte is
 * left as it is.  w or h <= 0, or fb and pitch as rpl_font_draw refuses,
 * draws nothing. */
void rpl_font_panel(uint32_t *fb, ptrdiff_t pitch, int fbw, int fbh, int x, int y,
                    int w, int h, int keep);

/* ---- WAV files -------------------------------------------------------- */

#define RPL_SOUND_WAV_HEADER 44 /* bytes of rpl_sound_wav_header */

/* Fills the RPL_SOUND_WAV_HEADER bytes of a canonical WAV file (RIFF,
 * PCM, 2 channels, 16 bits) of `frames` frames at `rate`, whose samples
 * follow as rpl_sound_mix writes them, in little-endian byte order.  A
 * file whose data would pass 4 GB (more than 0xFFFFFFFF - 36 bytes) gets
 * 0xFFFFFFFF in both size fields: "length unknown", as streams use.
 * RPL_EINVAL for a NULL hdr or a rate out of range. */
RPL_NODISCARD rpl_status rpl_sound_wav_header(unsigned char *hdr, int rate, uint64_t frames);

/* ---- kernels, for the bench ------------------------------------------- */

/* 1 if kernel tables a and b render `format` with the same refraction
 * kernel (a path without its own kernel of a format uses another path's,
 * so timing both would measure one piece of code twice); 0 otherwise, and
 * for a NULL table or a value that is no format. */
int rpl_kernels_same_refract(const rpl_kernels_t *a, const rpl_kernels_t *b, rpl_format format);
/* The names of every kernel path ripple knows (rpl_kernels_known), built
 * here or not, joined by ", " into buf (n bytes, always terminated; cut
 * when short): for the front ends' messages. */
void rpl_kernels_names(char *buf, size_t n);

/* ---- the look of the water, for the bench and the tests --------------- */

/*
 * How well the refracted picture of heights h (w x hgt cells, row after
 * row) reads as water at refraction strength `strength` (sixteenths, as
 * rpl_view_t's), measured with the renderer's own offsets: pixel (x, y)
 * shows the background at (clamp(x + (xoff * strength >> 4)),
 * clamp(y + (yoff * strength >> 4))), xoff = h(x-1,y) - h(x+1,y),
 * yoff = h(x,y-1) - h(x,y+1), heights outside the field 0, clamped to the
 * picture; its offset is that source minus (x, y).
 *   speckle  the share of the field's pixels whose offset, x or y,
 *            differs from its right or lower neighbour's by more than
 *            RPL_LOOK_SPECKLE_PX pixels: neighbours that show far apart
 *            texels read as coloured noise, not water;
 *   offset   the mean length of the offset (sqrt(dx^2 + dy^2)) over the
 *            pixels of the awake tiles: the RPL_TILE_W x RPL_TILE_H tiles
 *            with a pixel whose height or height differences are not 0;
 *   awake    the share of the tiles that are awake;
 *   light    the mean size of the light's change, |d| of the renderer's
 *            shading (ripple/render.h: what the light on adds to or takes
 *            from each channel, 0..RPL_SHADE_MAX), over the same pixels:
 *            how far the slopes show when the light draws them, whatever
 *            the strength (at strength 0 the picture is not bent at all
 *            and only the light shows the water).
 * RPL_EINVAL for a NULL argument, a size out of range or a strength
 * outside 0..RPL_STRENGTH_MAX.
 */
#define RPL_LOOK_SPECKLE_PX 3
typedef struct rpl_look {
    double speckle, offset, awake, light;
} rpl_look_t;
RPL_NODISCARD rpl_status rpl_look_measure(const int16_t *h, int w, int hgt, int strength,
                                          rpl_look_t *out);

#ifdef __cplusplus
}
#endif

#endif
