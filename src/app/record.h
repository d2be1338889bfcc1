/* app/record.h - --record: one picture per simulation step in a directory. */
#ifndef APP_RECORD_H
#define APP_RECORD_H

#include "app/app.h"

/* app_record_check: the directory and its first file can be written
 * (EXIT_USAGE with *err if not: the directory is the user's);
 * app_record_step saves the step just taken (EXIT_FAILURE with *err if
 * it cannot, a write of the run).  app.h gives the form. */
int app_record_check(const app_t *a, char **err);
int app_record_step(app_t *a, char **err);

#endif
