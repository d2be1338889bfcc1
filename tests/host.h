/* tests/host.h - the system seam of the tests: temporary folders, the environment, runs apart that may crash, a crash note (host.c on POSIX, host_win.c on Windows). */
#ifndef TESTS_HOST_H
#define TESTS_HOST_H

#include <stddef.h>

/* mkdtemp: a new folder named after tmpl ("/tmp/NAME-XXXXXX"), its path
 * written back into tmpl (len bytes); NULL when it cannot be made.  On
 * Windows it goes in the system's temporary folder, whatever tmpl's. */
char *host_mkdtemp(char *tmpl, size_t len);
/* mkstemp, the same way: an open descriptor of a new empty file, or -1. */
int host_mkstemp(char *tmpl, size_t len);
/* mkdir with mode 0700 (Windows: its default rights). */
int host_mkdir(const char *path);
/* setenv(name, value, 1), unsetenv(name) for a NULL value: 0, or -1. */
int host_setenv(const char *name, const char *value);

/* Removes a folder and all it holds: 0, or -1. */
int host_rmtree(const char *dir);
/* The names in a folder, "." and ".." left out (-1 if it cannot be read). */
int host_count_entries(const char *dir);
/* The names in a folder, "." and ".." left out, sorted by strcmp, each
 * followed by a space, into out: 0, or -1 (unreadable, or too long). */
int host_list(const char *dir, char *out, size_t len);
/* The size of what path names itself, a link not followed (lstat's);
 * -1 when nothing has the name. */
long host_lsize(const char *path);
/* symlink: 0, or -1 (on Windows before Vista, or without the right to
 * make one: the caller skips what needs it). */
int host_symlink(const char *target, const char *path);

/* Runs fn(arg) apart so that a crash ends only it: fn's return (0 to 255),
 * or HOST_CRASHED when it was killed (a bad access, an illegal
 * instruction, a division by zero).  POSIX: a child process (fork) with
 * the default signal actions; Windows: this thread, the fault caught and
 * the thread taken back to here (what fn held is leaked). */
#define HOST_CRASHED 256
int host_child(int (*fn)(void *), void *arg);

/* While on, a bad access (SIGSEGV, SIGBUS; an access violation) first
 * calls note (which may only write) and then goes on to the handler it
 * would have reached (cmocka's), so the report names the case. */
void host_crash_note_on(void (*note)(void));
void host_crash_note_off(void);

#endif
