/* app/sys.c - the demo's platform seam on POSIX: fds, stderr, exclusive files, stop signals, the probe's process (sys_win.c on Windows). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "app/sys.h"

int app_sys_std_fds(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
            continue;
        int n = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
        if (n != fd) {
            if (n >= 0)
                close(n);
            return EXIT_FAILURE;
        }
    }
    return 0;
}

int app_sys_quiet_stderr(void)
{
    fflush(stderr);
    int saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (saved >= 0 && null >= 0)
        dup2(null, STDERR_FILENO);
    if (null >= 0)
        close(null);
    return saved;
}

void app_sys_loud_stderr(int saved)
{
    fflush(stderr);
    if (saved >= 0) {
        dup2(saved, STDERR_FILENO);
        close(saved);
    }
}

int app_sys_create_new(const char *path)
{
    /* O_EXCL: fails on anything there, a link (even dangling) included */
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0)
        return errno;
    close(fd);
    return 0;
}

void app_sys_remove_empty(const char *path)
{
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0)
        unlink(path);
}

int app_sys_file_id(const char *path, app_file_id_t *id)
{
    struct stat st, null;
    if (stat(path, &st) != 0)
        return 0;
    id->dev = (uint64_t)st.st_dev;
    id->ino = (uint64_t)st.st_ino;
    id->null_device = S_ISCHR(st.st_mode) && stat("/dev/null", &null) == 0 &&
                      S_ISCHR(null.st_mode) && st.st_rdev == null.st_rdev;
    return 1;
}

char *app_sys_realpath(const char *path)
{
    return realpath(path, NULL);
}

const char *app_sys_last_sep(const char *path)
{
    return strrchr(path, '/');
}

int app_sys_is_absolute(const char *path)
{
    return path[0] == '/';
}

/* The signal that asked a headless run to stop.  The one mutable global:
 * a signal handler can reach nothing else, and all it does is set this. */
static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
    stop_signal = sig;
}

int app_stop_signal(void)
{
    return stop_signal;
}

/* A headless run has no window to close: SIGINT, SIGTERM and SIGHUP end
 * it between frames, its temporary files are removed, and it then dies of
 * the signal (130, 143, 129 in a shell).  A signal ignored from the start
 * (nohup, a background job) stays ignored. */
void app_catch_stop_signals(void)
{
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old, sa;
        if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_stop_signal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = 0; /* no SA_RESTART: a write blocked on a pipe gives up */
        sigaction(sigs[i], &sa, NULL);
    }
}

int app_sys_die_of_signal(int sig)
{
    fflush(stdout);
    signal(sig, SIG_DFL);
    raise(sig);
    return 128 + sig; /* if it did not kill after all */
}

int app_sys_probe(int (*probe)(void), int wait_ms)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        _exit(probe());
    if (pid < 0)
        return -1;
    int st = 0;
    const struct timespec tick = { 0, 10 * 1000000 };
    for (int waited = 0;; waited += 10) {
        pid_t got = waitpid(pid, &st, WNOHANG);
        if (got < 0 && errno != EINTR)
            return -1;
        if (got == pid)
            break;
        if (waited >= wait_ms) {
            kill(pid, SIGKILL);
            while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
                ;
            return -2;
        }
        nanosleep(&tick, NULL);
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}
