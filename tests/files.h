/* tests/files.h - test_files' helpers (files.c) and its cases of the system's own kinds of target (files_special.c, files_special_win.c). */
#ifndef TESTS_FILES_H
#define TESTS_FILES_H

#include <stddef.h>

#include "ripple.h"

struct CMUnitTest;

/* Each test runs in a fresh temporary folder, as the working directory,
 * so bare file names are tried the way people type them. */
int files_setup(void **state);
int files_teardown(void **state);
/* The names in the working directory, sorted, each followed by a space. */
void listing(char *out, size_t len);
void write_text(const char *path, const char *text);
void assert_file_is(const char *path, const char *text);
/* Writes text to path through rpl_file and returns the commit's status
 * (why: its error, when given). */
rpl_status save(const char *path, const char *text, char *why, size_t whylen);
/* A field with waves on it, and two fields' equality. */
rpl_sim_t *busy_field(int w, int h);
void assert_same_field(const rpl_sim_t *a, const rpl_sim_t *b);
/* The snapshot snap (destroyed here) is of a's size and, loaded into a
 * new field, gives a's water. */
void assert_snapshot_of(const rpl_sim_t *a, rpl_snapshot_t *snap);

/* The system's own cases, copied into out (at most max): how many. */
#define FILES_SPECIAL_MAX 16
size_t files_special_tests(struct CMUnitTest *out, size_t max);

#endif
