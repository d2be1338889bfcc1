/* app/sys_win.c - the demo's platform seam on Windows: fds, stderr, exclusive files, the console's Ctrl-C and close, the probe in this process (sys.c on POSIX). */
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "app/sys.h"

/* A UTF-8 name in UTF-16, as every name the demo is given is taken (NULL
 * when it is not UTF-8 or memory runs out). */
static wchar_t *widen(const char *s)
{
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL, 0);
    wchar_t *w = n > 0 ? malloc((size_t)n * sizeof *w) : NULL;
    if (w)
        MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, w, n);
    return w;
}

/* The C runtime gives fds 0 to 2 a handle of -1 or -2 when the program
 * was started without that stream (from a GUI, or with it closed). */
int app_sys_std_fds(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        intptr_t h = _get_osfhandle(fd);
        if (h != -1 && h != -2)
            continue;
        int n = _open("NUL", fd == 0 ? _O_RDONLY : _O_WRONLY);
        int ok = n == fd || (n >= 0 && _dup2(n, fd) == 0);
        if (n >= 0 && n != fd)
            _close(n);
        if (!ok)
            return EXIT_FAILURE;
    }
    return 0;
}

/* _dup2 onto fds 0 to 2 moves the process's standard handle too, which is
 * where SDL's own messages go. */
int app_sys_quiet_stderr(void)
{
    fflush(stderr);
    int saved = _dup(2);
    int null = _open("NUL", _O_WRONLY);
    if (saved >= 0 && null >= 0)
        _dup2(null, 2);
    if (null >= 0)
        _close(null);
    return saved;
}

void app_sys_loud_stderr(int saved)
{
    fflush(stderr);
    if (saved >= 0) {
        _dup2(saved, 2);
        _close(saved);
    }
}

/* CREATE_NEW fails on any name there; FILE_FLAG_OPEN_REPARSE_POINT keeps
 * a symbolic link (a dangling one too) from being followed.  A folder of
 * the name gives "access denied", which is a name taken all the same. */
int app_sys_create_new(const char *path)
{
    wchar_t *w = widen(path);
    if (!w)
        return errno == ENOMEM ? ENOMEM : EINVAL;
    HANDLE h = CreateFileW(w, GENERIC_WRITE, 0, NULL, CREATE_NEW,
                           FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT, NULL);
    DWORD e = h == INVALID_HANDLE_VALUE ? GetLastError() : 0;
    int taken = e == ERROR_ACCESS_DENIED && GetFileAttributesW(w) != INVALID_FILE_ATTRIBUTES;
    free(w);
    if (h != INVALID_HANDLE_VALUE) {
        CloseHandle(h);
        return 0;
    }
    if (taken || e == ERROR_FILE_EXISTS || e == ERROR_ALREADY_EXISTS)
        return EEXIST;
    switch (e) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
        return ENOENT;
    case ERROR_ACCESS_DENIED:
    case ERROR_WRITE_PROTECT:
        return EACCES;
    case ERROR_DISK_FULL:
        return ENOSPC;
    case ERROR_INVALID_NAME:
    case ERROR_DIRECTORY:
        return EINVAL;
    case ERROR_FILENAME_EXCED_RANGE:
        return ENAMETOOLONG;
    default:
        return EIO;
    }
}

void app_sys_remove_empty(const char *path)
{
    wchar_t *w = widen(path);
    WIN32_FILE_ATTRIBUTE_DATA d;
    if (w && GetFileAttributesExW(w, GetFileExInfoStandard, &d) &&
        !(d.dwFileAttributes & (FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_REPARSE_POINT)) &&
        d.nFileSizeHigh == 0 && d.nFileSizeLow == 0)
        DeleteFileW(w);
    free(w);
}

/* The C runtime's stat gives every file the inode 0: the volume's serial
 * number and the file's index are what tell two files apart here. */
int app_sys_file_id(const char *path, app_file_id_t *id)
{
    const char *base = app_sys_last_sep(path);
    base = base ? base + 1 : path;
    memset(id, 0, sizeof *id);
    /* NUL, NUL.txt and \\.\NUL reach the null device from any folder */
    if (!_strnicmp(base, "nul", 3) && (base[3] == '\0' || base[3] == '.')) {
        id->null_device = 1;
        return 1;
    }
    wchar_t *w = widen(path);
    HANDLE h = w ? CreateFileW(w, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                               OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL)
                 : INVALID_HANDLE_VALUE;
    free(w);
    if (h == INVALID_HANDLE_VALUE)
        return 0;
    BY_HANDLE_FILE_INFORMATION info;
    int ok = GetFileInformationByHandle(h, &info) != 0;
    CloseHandle(h);
    if (!ok) /* there, but of no known identity: compared by name */
        return 0;
    id->dev = info.dwVolumeSerialNumber;
    id->ino = (uint64_t)info.nFileIndexHigh << 32 | info.nFileIndexLow;
    return 1;
}

char *app_sys_realpath(const char *path)
{
    wchar_t *w = widen(path), full[MAX_PATH + 1];
    DWORD n = w ? GetFullPathNameW(w, MAX_PATH + 1, full, NULL) : 0;
    int there = n > 0 && n <= MAX_PATH && GetFileAttributesW(full) != INVALID_FILE_ATTRIBUTES;
    free(w);
    int len = there ? WideCharToMultiByte(CP_UTF8, 0, full, -1, NULL, 0, NULL, NULL) : 0;
    char *s = len > 0 ? malloc((size_t)len) : NULL;
    if (!s)
        return NULL;
    WideCharToMultiByte(CP_UTF8, 0, full, -1, s, len, NULL, NULL);
    for (char *p = s; *p; p++)
        if (*p == '\\')
            *p = '/';
    /* "C:/": a drive's root keeps its slash, other folders none */
    size_t l = strlen(s);
    if (l > 3 && s[l - 1] == '/')
        s[l - 1] = '\0';
    return s;
}

const char *app_sys_last_sep(const char *path)
{
    const char *sep = NULL;
    for (const char *p = path; *p; p++)
        if (*p == '/' || *p == '\\' || (*p == ':' && p == path + 1))
            sep = p;
    return sep;
}

int app_sys_is_absolute(const char *path)
{
    return path[0] == '/' || path[0] == '\\' || (path[0] && path[1] == ':');
}

/* What asked a headless run to stop, set by the console's handler (a
 * thread of the system's), read by the loops.  The one mutable global, as
 * on POSIX. */
static volatile LONG stop_signal;

/* Ctrl-C and Ctrl-Break stop the run as SIGINT does; closing the console,
 * logging off and shutting down as SIGTERM.  For those three the system
 * ends the process when the handler returns (after 5 s at most anyway),
 * so the handler waits there while the main thread cleans up and exits. */
static BOOL WINAPI on_console_event(DWORD event)
{
    int sig = event == CTRL_C_EVENT || event == CTRL_BREAK_EVENT ? SIGINT : SIGTERM;
    InterlockedExchange(&stop_signal, sig);
    if (sig == SIGTERM)
        Sleep(10000);
    return TRUE;
}

int app_stop_signal(void)
{
    return (int)InterlockedCompareExchange(&stop_signal, 0, 0);
}

/* A program started with Ctrl-C ignored (inherited, as POSIX's SIG_IGN is)
 * is never handed the event: it stays ignored without a check here. */
void app_catch_stop_signals(void)
{
    SetConsoleCtrlHandler(on_console_event, TRUE);
}

/* Windows has no death by signal to pass on: the status a POSIX shell
 * would show (130 for Ctrl-C, 143 for a closed console). */
int app_sys_die_of_signal(int sig)
{
    fflush(stdout);
    return 128 + sig;
}

int app_sys_probe(int (*probe)(void), int wait_ms)
{
    (void)wait_ms;
    fflush(NULL);
    int st = probe();
    return st >= 0 && st <= 255 ? st : -1;
}
