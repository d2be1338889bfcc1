/* app/sys.h - the demo's platform seam: the standard streams, silencing stderr, exclusive files, stop signals and the renderer's probe (sys.c on POSIX, sys_win.c on Windows; no SDL). */
#ifndef APP_SYS_H
#define APP_SYS_H

#include <stdint.h>

/* fds 0, 1 and 2 open before anything else is: a missing one points at
 * the null device, so no file of ours becomes stderr and takes its
 * messages.  0, or EXIT_FAILURE with no message: stderr may be what is
 * missing. */
int app_sys_std_fds(void);

/* Points stderr at the null device while a library that prints its own
 * complaints runs; app_sys_loud_stderr(what this returned) puts it back. */
int app_sys_quiet_stderr(void);
void app_sys_loud_stderr(int saved);

/* Creates path, empty, only when no file, folder or link (dangling too)
 * has the name, and never through a link: 0, or an errno value (EEXIST
 * when the name is taken). */
int app_sys_create_new(const char *path);
/* Removes path while it is still an empty regular file. */
void app_sys_remove_empty(const char *path);

/* What an existing name reaches (through links), as two names must share
 * it to be one file; null_device for the null device, which any number
 * of outputs may share.  1, or 0 when the name reaches nothing. */
typedef struct app_file_id {
    uint64_t dev, ino;
    int null_device;
} app_file_id_t;
int app_sys_file_id(const char *path, app_file_id_t *id);
/* The canonical absolute path of an existing file or folder, '/' between
 * folders (a new allocation, NULL when it cannot be resolved). */
char *app_sys_realpath(const char *path);
/* The last folder separator in path ('/'; on Windows '\\' and a drive's
 * ':' too), NULL if none. */
const char *app_sys_last_sep(const char *path);

/* Whether path starts from a root ('/'; on Windows a drive or '\\' too). */
int app_sys_is_absolute(const char *path);

/* The signal that asked a headless run to stop, 0 if none: SIGINT,
 * SIGTERM or SIGHUP on POSIX; on Windows SIGINT for Ctrl-C and Ctrl-Break,
 * SIGTERM when the console is closed or the session ends.  The loops end,
 * the temporary files are removed.  app_catch_stop_signals starts
 * listening (a signal ignored from the start stays ignored). */
int app_stop_signal(void);
void app_catch_stop_signals(void);
/* Ends the program as that signal would, once everything is cleaned up
 * (128 + sig when it cannot: on Windows always, as a shell reports it). */
int app_sys_die_of_signal(int sig);

/* Runs probe away from the demo's own state and returns what it returned
 * (0 to 255), -1 when it could not run or failed, -2 when it did not
 * answer within wait_ms.  POSIX: in a child process, killed after
 * wait_ms, so that a driver's libraries never enter the demo and a hung
 * one cannot hang it.  Windows has no fork: in this process, without the
 * time limit, so probe must undo what it set up. */
int app_sys_probe(int (*probe)(void), int wait_ms);

#endif
