/* app/record.h - --record: one picture per simulation step in a directory. */
#ifndef APP_RECORD_H
#define APP_RECORD_H

#include "app/app.h"

/* app_record_check: the directory and its first file can be written (0,
 * or -1 with *err); app_record_step saves the step just taken (0, or -1
 * with *err). */
int app_record_check(const app_t *a, char **err);
int app_record_step(app_t *a, char **err);

#endif
