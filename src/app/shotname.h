/* app/shotname.h - the screenshot key's file names, ripple-0001.png to ripple-9999.png, taken without replacing anything (no SDL: a unit suite tests it). */
#ifndef APP_SHOTNAME_H
#define APP_SHOTNAME_H

#include <stddef.h>

#define SHOT_FIRST 1
#define SHOT_LAST 9999

/* Takes the first free name DIR/ripple-NNNN.png (dir "" for the working
 * directory) by creating it, empty, with O_EXCL: a name that exists in
 * any form (a file it cannot read, a link, a dangling link) is never
 * opened and is passed over.  Returns 0 with the name in buf; EEXIST
 * when all 9,999 are taken; another errno value when a file cannot be
 * made there at all (buf then holds the name tried).  The caller writes
 * the picture over its own empty file, or removes it with
 * app_shot_release. */
int app_shot_take(const char *dir, char *buf, size_t len);

/* Removes a name taken by app_shot_take and not used (only while it is
 * still an empty regular file). */
void app_shot_release(const char *name);

#endif
