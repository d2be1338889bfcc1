/* tests/host_win.c - the system seam of the tests on Windows: a temporary folder by GetTempPath, _putenv, runs apart by a vectored exception handler (host.c on POSIX). */
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <windows.h>

#include "host.h"

/* A new name for tmpl in the system's temporary folder, made by make
 * (0 on success, else an errno value, EEXIST to try another name). */
static int make_temp(char *tmpl, size_t len, int (*make)(const char *, void *), void *out)
{
    char tmp[MAX_PATH + 1];
    DWORD n = GetTempPathA(sizeof tmp, tmp);
    const char *slash = strrchr(tmpl, '/');
    const char *name = slash ? slash + 1 : tmpl;
    size_t stem = strcspn(name, "X");
    if (n == 0 || n > MAX_PATH)
        return ENOENT;
    char want[MAX_PATH + 64];
    for (unsigned i = 0; i < 1000; i++) {
        unsigned tag = (unsigned)GetTickCount() * 2654435761u ^ GetCurrentProcessId() << 8 ^ i;
        int w = snprintf(want, sizeof want, "%s%.*s%06x", tmp, (int)stem, name, tag & 0xffffffu);
        if (w < 0 || (size_t)w >= len)
            return ENAMETOOLONG;
        int e = make(want, out);
        if (e == 0)
            memcpy(tmpl, want, (size_t)w + 1);
        if (e != EEXIST)
            return e;
    }
    return EEXIST;
}

static int make_dir(const char *path, void *out)
{
    (void)out;
    if (CreateDirectoryA(path, NULL))
        return 0;
    return GetLastError() == ERROR_ALREADY_EXISTS ? EEXIST : EIO;
}

static int make_file(const char *path, void *out)
{
    int fd = _open(path, _O_RDWR | _O_CREAT | _O_EXCL | _O_BINARY, _S_IREAD | _S_IWRITE);
    *(int *)out = fd;
    return fd >= 0 ? 0 : errno;
}

char *host_mkdtemp(char *tmpl, size_t len)
{
    return make_temp(tmpl, len, make_dir, NULL) == 0 ? tmpl : NULL;
}

int host_mkstemp(char *tmpl, size_t len)
{
    int fd = -1;
    return make_temp(tmpl, len, make_file, &fd) == 0 ? fd : -1;
}

int host_mkdir(const char *path)
{
    return CreateDirectoryA(path, NULL) ? 0 : -1;
}

/* _putenv changes the C runtime's copy, which getenv reads, and the
 * process's; "NAME=" removes the name.  (_putenv_s is not in XP's msvcrt.) */
int host_setenv(const char *name, const char *value)
{
    size_t n = strlen(name) + (value ? strlen(value) : 0) + 2;
    char *s = malloc(n);
    if (!s)
        return -1;
    snprintf(s, n, "%s=%s", name, value ? value : "");
    int rc = _putenv(s) == 0 ? 0 : -1;
    free(s); /* msvcrt's _putenv copies the string */
    return rc;
}

int host_rmtree(const char *dir)
{
    char pat[MAX_PATH + 8];
    if (snprintf(pat, sizeof pat, "%s\\*", dir) >= (int)sizeof pat)
        return -1;
    WIN32_FIND_DATAA f;
    HANDLE h = FindFirstFileA(pat, &f);
    int rc = 0;
    for (int more = h != INVALID_HANDLE_VALUE; more; more = FindNextFileA(h, &f)) {
        if (!strcmp(f.cFileName, ".") || !strcmp(f.cFileName, ".."))
            continue;
        char sub[MAX_PATH + 8];
        if (snprintf(sub, sizeof sub, "%s\\%s", dir, f.cFileName) >= (int)sizeof sub) {
            rc = -1;
            continue;
        }
        /* a link to a folder is removed as a folder, without going in */
        if (f.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)
            rc |= f.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT
                      ? (RemoveDirectoryA(sub) ? 0 : -1)
                      : host_rmtree(sub);
        else {
            SetFileAttributesA(sub, FILE_ATTRIBUTE_NORMAL); /* a read-only file too */
            rc |= DeleteFileA(sub) ? 0 : -1;
        }
    }
    if (h != INVALID_HANDLE_VALUE)
        FindClose(h);
    return RemoveDirectoryA(dir) && rc == 0 ? 0 : -1;
}

int host_count_entries(const char *dir)
{
    char pat[MAX_PATH + 8];
    if (snprintf(pat, sizeof pat, "%s\\*", dir) >= (int)sizeof pat)
        return -1;
    WIN32_FIND_DATAA f;
    HANDLE h = FindFirstFileA(pat, &f);
    if (h == INVALID_HANDLE_VALUE)
        return -1;
    int n = 0;
    do
        n += strcmp(f.cFileName, ".") && strcmp(f.cFileName, "..");
    while (FindNextFileA(h, &f));
    FindClose(h);
    return n;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int host_list(const char *dir, char *out, size_t len)
{
    char pat[MAX_PATH + 8], *names[256];
    if (snprintf(pat, sizeof pat, "%s\\*", dir) >= (int)sizeof pat)
        return -1;
    WIN32_FIND_DATAA f;
    HANDLE h = FindFirstFileA(pat, &f);
    if (h == INVALID_HANDLE_VALUE)
        return -1;
    size_t n = 0;
    int rc = 0;
    do {
        if (!strcmp(f.cFileName, ".") || !strcmp(f.cFileName, ".."))
            continue;
        if (n == sizeof names / sizeof *names || !(names[n] = _strdup(f.cFileName)))
            rc = -1;
        else
            n++;
    } while (FindNextFileA(h, &f));
    FindClose(h);
    qsort(names, n, sizeof *names, by_name);
    size_t used = 0;
    if (len)
        out[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(names[i]);
        if (used + l + 2 > len)
            rc = -1;
        else {
            memcpy(out + used, names[i], l);
            out[used + l] = ' ';
            out[used += l + 1] = '\0';
        }
        free(names[i]);
    }
    return rc;
}

long host_lsize(const char *path)
{
    WIN32_FILE_ATTRIBUTE_DATA d;
    if (!GetFileAttributesExA(path, GetFileExInfoStandard, &d))
        return -1;
    return d.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT ? 0 : (long)d.nFileSizeLow;
}

/* CreateSymbolicLinkA came with Vista: looked up, so that the suites
 * still start on XP. */
typedef BOOLEAN(WINAPI *make_link_fn)(LPCSTR, LPCSTR, DWORD);

int host_symlink(const char *target, const char *path)
{
    HMODULE k = GetModuleHandleA("kernel32.dll");
    make_link_fn make =
        k ? (make_link_fn)(void (*)(void))GetProcAddress(k, "CreateSymbolicLinkA") : NULL;
    if (!make || !make(path, target, 0))
        return -1;
    /* Wine's answers yes and makes nothing: a link is a reparse point */
    DWORD a = GetFileAttributesA(path);
    return a != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_REPARSE_POINT) ? 0 : -1;
}

/* The run apart in progress: where a fault takes the thread back to.
 * gcc's own setjmp and longjmp: they restore the registers and nothing
 * else (msvcrt's longjmp would unwind through the faulting frames). */
static void *child_jump[5];
static volatile LONG child_running;

static void escape(void)
{
    __builtin_longjmp(child_jump, 1);
}

static int is_crash(DWORD code)
{
    return code == EXCEPTION_ACCESS_VIOLATION || code == EXCEPTION_ILLEGAL_INSTRUCTION ||
           code == EXCEPTION_PRIV_INSTRUCTION || code == EXCEPTION_INT_DIVIDE_BY_ZERO ||
           code == EXCEPTION_INT_OVERFLOW || code == EXCEPTION_ARRAY_BOUNDS_EXCEEDED ||
           code == EXCEPTION_DATATYPE_MISALIGNMENT || code == EXCEPTION_IN_PAGE_ERROR;
}

/* The faulting thread resumes in escape, on a fresh part of its stack
 * below the fault's (aligned as a call leaves it). */
static LONG CALLBACK on_child_fault(EXCEPTION_POINTERS *e)
{
    if (!child_running || !is_crash(e->ExceptionRecord->ExceptionCode))
        return EXCEPTION_CONTINUE_SEARCH;
    CONTEXT *c = e->ContextRecord;
#ifdef _WIN64
    c->Rsp = ((c->Rsp - 512) & ~(DWORD64)15) - 8;
    c->Rip = (DWORD64)(uintptr_t)escape;
#else
    c->Esp = ((c->Esp - 512) & ~(DWORD)15) - 4;
    c->Eip = (DWORD)(uintptr_t)escape;
#endif
    return EXCEPTION_CONTINUE_EXECUTION;
}

int host_child(int (*fn)(void *), void *arg)
{
    fflush(NULL);
    void *h = AddVectoredExceptionHandler(1, on_child_fault);
    if (!h)
        return -1;
    volatile int rc = HOST_CRASHED;
    InterlockedExchange(&child_running, 1);
    if (__builtin_setjmp(child_jump) == 0)
        rc = fn(arg);
    InterlockedExchange(&child_running, 0);
    RemoveVectoredExceptionHandler(h);
    return rc;
}

static void (*crash_note)(void);
static void *crash_handler;

/* First in line: writes the note and lets the fault go on to the
 * handler that reports it. */
static LONG CALLBACK on_crash(EXCEPTION_POINTERS *e)
{
    if (crash_note && is_crash(e->ExceptionRecord->ExceptionCode))
        crash_note();
    return EXCEPTION_CONTINUE_SEARCH;
}

void host_crash_note_on(void (*note)(void))
{
    crash_note = note;
    if (!crash_handler)
        crash_handler = AddVectoredExceptionHandler(1, on_crash);
}

void host_crash_note_off(void)
{
    if (crash_handler)
        RemoveVectoredExceptionHandler(crash_handler);
    crash_handler = NULL;
    crash_note = NULL;
}
