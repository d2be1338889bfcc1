/* core/base/file_win.c - writing files safely on Windows: a unique temporary beside the target, flushed, then ReplaceFileW/MoveFileExW; UTF-8 names through the wide API. */
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "core/base/base.h"
#include "ripple_support.h"

/*
 * The twin of file.c with the same promises where Windows has the same
 * things: the standard streams by their POSIX names (/dev/stdout,
 * /dev/stderr, /dev/fd/N) are written through, the null device (NUL, or
 * /dev/null as scripts write it) in place; a new or a regular file goes to
 * a temporary created exclusively beside it, flushed to the disk, then put
 * in place by ReplaceFileW (which keeps the old file's attributes and
 * security) or MoveFileExW for a new name; a read-only file, a directory
 * and a symbolic link or junction are refused.  What POSIX has and Windows
 * has not (set-uid bits, sticky folders, FIFOs) has no counterpart here.
 * The failures read as on Linux: the Win32 error becomes its errno and
 * strerror's words.
 */

enum { MODE_NONE, MODE_RENAME, MODE_IN_PLACE };

struct rpl_file {
    char *path;      /* the target, UTF-8 */
    wchar_t *wpath;  /* the target, for the wide API */
    wchar_t *wtmp;   /* the temporary file (MODE_RENAME) */
    FILE *f;
    int mode;
    int replace;     /* the target exists: ReplaceFileW */
    int done;
    rpl_err_t err;
};

static const char no_memory[] = "out of memory";

/* The errno of a Win32 error, for strerror. */
static int errno_of(DWORD e)
{
    switch (e) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_DRIVE:
        return ENOENT;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION:
    case ERROR_WRITE_PROTECT:
        return EACCES;
    case ERROR_FILE_EXISTS:
    case ERROR_ALREADY_EXISTS:
        return EEXIST;
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL:
        return ENOSPC;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY:
        return ENOMEM;
    case ERROR_INVALID_NAME:
    case ERROR_BAD_PATHNAME:
    case ERROR_DIRECTORY:
        return EINVAL;
    case ERROR_FILENAME_EXCED_RANGE:
        return ENAMETOOLONG;
    default:
        return EIO;
    }
}

/* A UTF-8 name in UTF-16 (NULL, errno EINVAL or ENOMEM, if it cannot be). */
static wchar_t *widen(const char *s)
{
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL, 0);
    if (n <= 0) {
        errno = EINVAL;
        return NULL;
    }
    wchar_t *w = malloc((size_t)n * sizeof *w);
    if (!w) {
        errno = ENOMEM;
        return NULL;
    }
    MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, w, n);
    return w;
}

FILE *rpl_open_read(const char *path)
{
    wchar_t *w = widen(path);
    if (!w)
        return NULL;
    FILE *f = _wfopen(w, L"rb");
    int e = errno;
    /* the C runtime says "permission denied" of a folder: said as POSIX does */
    if (!f && e == EACCES) {
        DWORD a = GetFileAttributesW(w);
        if (a != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_DIRECTORY))
            e = EISDIR;
    }
    free(w);
    errno = e;
    return f;
}

int rpl_path_readable(const char *path)
{
    wchar_t *w = widen(path);
    int ok = w && _waccess(w, 4) == 0;
    free(w);
    return ok;
}

int rpl_path_is_dir(const char *path)
{
    wchar_t *w = widen(path);
    if (!w)
        return -1;
    DWORD attr = GetFileAttributesW(w);
    DWORD why = GetLastError();
    free(w);
    if (attr == INVALID_FILE_ATTRIBUTES) {
        errno = errno_of(why);
        return -1;
    }
    return attr & FILE_ATTRIBUTE_DIRECTORY ? 1 : 0;
}

/* A name nobody else is likely to pick, made fresh on every try. */
static void unique_suffix(wchar_t *out, size_t len, unsigned attempt, const void *salt)
{
    FILETIME ft;
    GetSystemTimeAsFileTime(&ft);
    LARGE_INTEGER pc;
    QueryPerformanceCounter(&pc);
    uint64_t z = ((uint64_t)ft.dwHighDateTime << 32 | ft.dwLowDateTime) ^ (uint64_t)pc.QuadPart << 7 ^
                 (uint64_t)GetCurrentProcessId() << 12 ^ (uint64_t)(uintptr_t)salt ^
                 (uint64_t)attempt * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 31)) * 0xBF58476D1CE4E5B9ull;
    z ^= z >> 29;
    static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    size_t i = 0;
    for (; i + 1 < len && i < 10; i++, z /= 36)
        out[i] = (wchar_t)digits[z % 36];
    out[i] = 0;
}

/* The descriptor a standard stream's POSIX name stands for, else -1. */
static int std_stream_fd(const char *path)
{
    if (!strcmp(path, "/dev/stdout"))
        return 1;
    if (!strcmp(path, "/dev/stderr"))
        return 2;
    long long fd;
    if (!strncmp(path, "/dev/fd/", 8) && rpl_parse_int(path + 8, 0, 1 << 20, &fd) == RPL_OK)
        return (int)fd;
    return -1;
}

/* The null device: NUL (any case, any extension, in any folder, as
 * Windows reads it) or /dev/null. */
static int is_null_name(const char *path)
{
    if (!strcmp(path, "/dev/null"))
        return 1;
    const char *base = path;
    for (const char *p = path; *p; p++)
        if (*p == '/' || *p == '\\' || *p == ':')
            base = p + 1;
    return _strnicmp(base, "nul", 3) == 0 && (base[3] == '\0' || base[3] == '.');
}

/* The length of the folder part of a name, separator included: up to the
 * last '/' or '\\', or past a drive's "X:". */
static size_t dir_len(const char *path)
{
    size_t n = 0;
    for (size_t i = 0; path[i]; i++)
        if (path[i] == '/' || path[i] == '\\' || (i == 1 && path[1] == ':'))
            n = i + 1;
    return n;
}

/* A name Windows would refuse only when the temporary is put in its
 * place: a part over the file systems' 255 characters, or a whole path
 * over MAX_PATH (the limit of every call here, without the \\?\ form). */
static int name_too_long(const wchar_t *w)
{
    size_t part = 0;
    for (const wchar_t *p = w; *p; p++) {
        part = *p == L'/' || *p == L'\\' ? 0 : part + 1;
        if (part > 255)
            return 1;
    }
    wchar_t full[MAX_PATH];
    DWORD n = GetFullPathNameW(w, MAX_PATH, full, NULL);
    return n >= MAX_PATH;
}

static rpl_status fail_errno(rpl_file_t *f, int e)
{
    return rpl_err_set(&f->err, RPL_EIO, "cannot write '%s': %s", f->path, strerror(e));
}

/* A descriptor (a standard stream) or the null device, written in place,
 * in binary (no CR before each LF). */
static rpl_status open_in_place(rpl_file_t *f, int fd0, int check)
{
    if (fd0 >= 0 && _get_osfhandle(fd0) == (intptr_t)INVALID_HANDLE_VALUE)
        return fail_errno(f, EBADF);
    if (check)
        return RPL_OK;
    if (fd0 >= 0) {
        int fd = _dup(fd0);
        if (fd < 0)
            return fail_errno(f, errno);
        _setmode(fd, _O_BINARY);
        f->f = _fdopen(fd, "wb");
        if (!f->f) {
            _close(fd);
            return fail_errno(f, ENOMEM);
        }
    } else {
        f->f = _wfopen(L"NUL", L"wb");
        if (!f->f)
            return fail_errno(f, errno);
    }
    f->mode = MODE_IN_PLACE;
    return RPL_OK;
}

/* Creates the temporary file exclusively (CREATE_NEW never opens what is
 * there, a link included) in the target's folder. */
static rpl_status open_temp(rpl_file_t *f, int check)
{
    size_t dl = dir_len(f->path);
    char *dir = malloc(dl + 1);
    wchar_t *wdir = NULL;
    if (dir) {
        memcpy(dir, f->path, dl);
        dir[dl] = '\0';
        wdir = widen(dir);
    }
    free(dir);
    if (!wdir)
        return rpl_err_set(&f->err, RPL_ENOMEM, "cannot write '%s': %s", f->path, no_memory);
    size_t wl = wcslen(wdir), len = wl + 32;
    f->wtmp = malloc(len * sizeof *f->wtmp);
    if (!f->wtmp) {
        free(wdir);
        return rpl_err_set(&f->err, RPL_ENOMEM, "cannot write '%s': %s", f->path, no_memory);
    }
    HANDLE h = INVALID_HANDLE_VALUE;
    DWORD e = 0;
    for (unsigned attempt = 0; attempt < 64 && h == INVALID_HANDLE_VALUE; attempt++) {
        wchar_t sfx[16];
        unique_suffix(sfx, 16, attempt, f);
        _snwprintf(f->wtmp, len, L"%ls.ripple-%ls.tmp", wdir, sfx);
        f->wtmp[len - 1] = 0;
        h = CreateFileW(f->wtmp, GENERIC_WRITE, 0, NULL, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, NULL);
        e = h == INVALID_HANDLE_VALUE ? GetLastError() : 0;
        if (e && e != ERROR_FILE_EXISTS && e != ERROR_ALREADY_EXISTS)
            break;
    }
    free(wdir);
    if (h == INVALID_HANDLE_VALUE) {
        free(f->wtmp);
        f->wtmp = NULL;
        if (e == ERROR_FILE_EXISTS || e == ERROR_ALREADY_EXISTS)
            return rpl_err_set(&f->err, RPL_EIO, "cannot write '%s': no free temporary name beside it",
                               f->path);
        return rpl_err_set(&f->err, RPL_EIO, "cannot write '%s': cannot create a file in %s%.*s: %s",
                           f->path, dl ? "" : ".", (int)dl, f->path, strerror(errno_of(e)));
    }
    if (check) {
        CloseHandle(h);
        DeleteFileW(f->wtmp);
        return RPL_OK;
    }
    int fd = _open_osfhandle((intptr_t)h, _O_WRONLY | _O_BINARY);
    f->f = fd >= 0 ? _fdopen(fd, "wb") : NULL;
    if (!f->f) {
        if (fd >= 0)
            _close(fd);
        else
            CloseHandle(h);
        DeleteFileW(f->wtmp);
        return rpl_err_set(&f->err, RPL_ENOMEM, "cannot write '%s': %s", f->path, no_memory);
    }
    f->mode = MODE_RENAME;
    return RPL_OK;
}

rpl_status rpl_file_open(const char *path, unsigned flags, rpl_file_t **out)
{
    if (!out)
        return RPL_EINVAL;
    *out = NULL;
    rpl_file_t *f = calloc(1, sizeof *f);
    if (!f)
        return RPL_ENOMEM;
    *out = f;
    if (!path || !*path)
        return rpl_err_set(&f->err, RPL_EINVAL, "cannot write a file without a name");
    if (flags & ~(unsigned)RPL_FILE_CHECK)
        return rpl_err_set(&f->err, RPL_EINVAL, "cannot write '%s': unknown flags %#x", path, flags);
    f->path = strdup(path);
    if (!f->path)
        return rpl_err_set(&f->err, RPL_ENOMEM, "cannot write '%s': %s", path, no_memory);
    int check = (flags & RPL_FILE_CHECK) != 0;
    char last = path[strlen(path) - 1];
    if (last == '/' || last == '\\')
        return rpl_err_set(&f->err, RPL_EIO, "cannot write '%s': the name ends in '%c'", path, last);

    int fd = std_stream_fd(path);
    if (fd >= 0)
        return open_in_place(f, fd, check);
    if (is_null_name(path))
        return open_in_place(f, -1, check);
    f->wpath = widen(path);
    if (!f->wpath)
        return fail_errno(f, errno);
    if (name_too_long(f->wpath))
        return fail_errno(f, ENAMETOOLONG);
    DWORD a = GetFileAttributesW(f->wpath);
    if (a == INVALID_FILE_ATTRIBUTES) {
        DWORD e = GetLastError();
        if (e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND)
            return open_temp(f, check); /* a missing folder fails there */
        return fail_errno(f, errno_of(e));
    }
    if (a & FILE_ATTRIBUTE_REPARSE_POINT)
        return rpl_err_set(&f->err, RPL_EIO, "cannot write '%s': it is a symbolic link (not replaced; "
                           "name the file itself)", path);
    if (a & FILE_ATTRIBUTE_DIRECTORY)
        return rpl_err_set(&f->err, RPL_EIO, "cannot write '%s': it is a directory", path);
    if (a & FILE_ATTRIBUTE_READONLY)
        return rpl_err_set(&f->err, RPL_EIO, "cannot write '%s': it is read-only to you (not replaced; make "
                           "it writable or remove it first)", path);
    f->replace = 1;
    return open_temp(f, check);
}

FILE *rpl_file_stream(rpl_file_t *f)
{
    return f && !f->done ? f->f : NULL;
}

/* Puts the temporary in place: ReplaceFileW over an existing file (its
 * attributes, owner and security stay), MoveFileExW for a new name or
 * where ReplaceFileW cannot (a file system without it); both atomic on
 * one NTFS volume. */
static DWORD put_in_place(const rpl_file_t *f)
{
    if (f->replace && ReplaceFileW(f->wpath, f->wtmp, NULL, REPLACEFILE_IGNORE_MERGE_ERRORS, NULL, NULL))
        return 0;
    if (MoveFileExW(f->wtmp, f->wpath, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
        return 0;
    return GetLastError();
}

rpl_status rpl_file_commit(rpl_file_t *f)
{
    if (!f)
        return RPL_EINVAL;
    if (!f->f || f->done)
        return rpl_err_set(&f->err, RPL_EINVAL, "cannot write '%s': the file is not open",
                           f->path ? f->path : "");
    FILE *fp = f->f;
    f->f = NULL;
    f->done = 1;
    int bad = ferror(fp) != 0 || fflush(fp) != 0;
    int e = bad ? (errno ? errno : EIO) : 0;
    if (!bad && f->mode == MODE_RENAME && _commit(_fileno(fp)) != 0)
        bad = 1, e = errno;
    if (fclose(fp) != 0 && !bad)
        bad = 1, e = errno;
    if (!bad && f->mode == MODE_RENAME) {
        DWORD w = put_in_place(f);
        if (w)
            bad = 1, e = errno_of(w);
    }
    if (bad) {
        if (f->mode == MODE_RENAME)
            DeleteFileW(f->wtmp);
        return fail_errno(f, e);
    }
    free(f->wtmp);
    f->wtmp = NULL;
    return RPL_OK;
}

const char *rpl_file_error(const rpl_file_t *f)
{
    if (!f)
        return "no file (NULL)";
    return rpl_err_text(&f->err);
}

void rpl_file_destroy(rpl_file_t *f)
{
    if (!f)
        return;
    if (f->f) {
        fclose(f->f);
        if (f->mode == MODE_RENAME)
            DeleteFileW(f->wtmp);
    }
    free(f->wtmp);
    free(f->wpath);
    free(f->path);
    free(f);
}

/* Volume and file index: one file, however named (XP has this call; the
 * Ex form came with Vista). */
static int file_id(HANDLE h, BY_HANDLE_FILE_INFORMATION *id)
{
    return h != INVALID_HANDLE_VALUE && GetFileType(h) == FILE_TYPE_DISK &&
           GetFileInformationByHandle(h, id);
}

static int same_id(const BY_HANDLE_FILE_INFORMATION *a, const BY_HANDLE_FILE_INFORMATION *b)
{
    return a->dwVolumeSerialNumber == b->dwVolumeSerialNumber && a->nFileIndexHigh == b->nFileIndexHigh &&
           a->nFileIndexLow == b->nFileIndexLow;
}

int rpl_file_is_stdout(const char *path)
{
    if (!path || !*path || is_null_name(path))
        return 0;
    HANDLE so = (HANDLE)_get_osfhandle(1);
    if (so == INVALID_HANDLE_VALUE)
        return 0;
    int fd = std_stream_fd(path);
    if (fd >= 0) {
        HANDLE h = (HANDLE)_get_osfhandle(fd);
        if (h == INVALID_HANDLE_VALUE)
            return 0;
        if (h == so)
            return 1;
        BY_HANDLE_FILE_INFORMATION a, b;
        return file_id(h, &a) && file_id(so, &b) && same_id(&a, &b);
    }
    BY_HANDLE_FILE_INFORMATION a, b;
    if (!file_id(so, &b))
        return 0;
    wchar_t *w = widen(path);
    if (!w)
        return 0;
    HANDLE h = CreateFileW(w, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
                           FILE_FLAG_BACKUP_SEMANTICS, NULL);
    free(w);
    int same = file_id(h, &a) && same_id(&a, &b);
    if (h != INVALID_HANDLE_VALUE)
        CloseHandle(h);
    return same;
}
