/* tests/host.c - the system seam of the tests on POSIX: mkdtemp, setenv, fork and wait, SIGSEGV's handler (host_win.c on Windows). */
#define _DEFAULT_SOURCE /* mkdtemp, setenv, lstat, symlink */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "host.h"

char *host_mkdtemp(char *tmpl, size_t len)
{
    (void)len;
    return mkdtemp(tmpl);
}

int host_mkstemp(char *tmpl, size_t len)
{
    (void)len;
    return mkstemp(tmpl);
}

int host_mkdir(const char *path)
{
    return mkdir(path, 0700);
}

int host_setenv(const char *name, const char *value)
{
    return value ? setenv(name, value, 1) : unsetenv(name);
}

int host_rmtree(const char *dir)
{
    char cmd[4200];
    if (strchr(dir, '\'') || snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir) >= (int)sizeof cmd)
        return -1;
    return system(cmd) == 0 ? 0 : -1;
}

int host_count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

int host_list(const char *dir, char *out, size_t len)
{
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort), rc = n < 0 ? -1 : 0;
    size_t used = 0;
    if (len)
        out[0] = '\0';
    for (int i = 0; i < n; i++) {
        const char *s = names[i]->d_name;
        size_t l = strlen(s);
        if (strcmp(s, ".") && strcmp(s, "..")) {
            if (used + l + 2 > len)
                rc = -1;
            else {
                memcpy(out + used, s, l);
                out[used + l] = ' ';
                out[used += l + 1] = '\0';
            }
        }
        free(names[i]);
    }
    if (n >= 0)
        free(names);
    return rc;
}

long host_lsize(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 ? (long)st.st_size : -1;
}

int host_symlink(const char *target, const char *path)
{
    return symlink(target, path);
}

int host_child(int (*fn)(void *), void *arg)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        /* cmocka's handlers must not run in the child */
        static const int sigs[] = { SIGFPE, SIGSEGV, SIGILL, SIGBUS, SIGABRT };
        for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
            signal(sigs[i], SIG_DFL);
        _exit(fn(arg));
    }
    int st = 0;
    while (waitpid(pid, &st, 0) != pid)
        ;
    return WIFEXITED(st) ? WEXITSTATUS(st) : HOST_CRASHED;
}

/* The note, and the handlers it replaced; one mutable state, as a signal
 * handler can reach nothing else. */
static void (*crash_note)(void);
static struct sigaction old_segv, old_bus;

static void on_crash(int sig)
{
    if (crash_note)
        crash_note();
    /* the faulting access repeats and reaches the handler it replaced */
    sigaction(sig, sig == SIGSEGV ? &old_segv : &old_bus, NULL);
}

void host_crash_note_on(void (*note)(void))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_crash;
    sigemptyset(&sa.sa_mask);
    crash_note = note;
    sigaction(SIGSEGV, &sa, &old_segv);
    sigaction(SIGBUS, &sa, &old_bus);
}

void host_crash_note_off(void)
{
    sigaction(SIGSEGV, &old_segv, NULL);
    sigaction(SIGBUS, &old_bus, NULL);
    crash_note = NULL;
}
