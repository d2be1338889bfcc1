/* core/font.h - built-in bitmap font and translucent panels for overlays on XRGB8888 framebuffers. */
#ifndef RPL_FONT_H
#define RPL_FONT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

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
 * scaled) makes text read on any background. */
void rpl_font_draw(uint32_t *fb, ptrdiff_t pitch, int fbw, int fbh, int x, int y,
                   const char *text, uint32_t color, int scale);

/* Darkens a rectangle (clipped) to make a translucent panel: each R,G,B
 * byte becomes (c * keep) >> 8, keep in 0..256 (clamped); the top byte is
 * left as it is.  w or h <= 0 draws nothing. */
void rpl_font_panel(uint32_t *fb, ptrdiff_t pitch, int fbw, int fbh, int x, int y,
                    int w, int h, int keep);

#ifdef __cplusplus
}
#endif

#endif /* RPL_FONT_H */
