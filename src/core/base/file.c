/* core/base/file.c - writing files safely: a unique temporary beside the target, fsync, rename; devices and FIFOs written in place; nothing else replaced. */
#define _XOPEN_SOURCE 700 /* S_ISVTX */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/base/base.h"
#include "ripple_support.h"

enum { MODE_NONE, MODE_RENAME, MODE_IN_PLACE };

struct rpl_file {
    char *path;   /* the target */
    char *tmp;    /* the temporary file (MODE_RENAME) */
    FILE *f;
    int mode;
    int done;     /* committed or failed for good */
    rpl_err_t err; /* detail of the last failure */
};

static const char no_memory[] = "out of memory";

FILE *rpl_open_read(const char *path)
{
    int fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        int e = errno;
        close(fd);
        errno = e;
    }
    return f;
}

int rpl_path_readable(const char *path)
{
    return access(path, R_OK) == 0;
}

int rpl_path_is_dir(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    return S_ISDIR(st.st_mode) ? 1 : 0;
}

/* A name nobody else is likely to pick, made fresh on every try. */
static void unique_suffix(char *out, size_t len, unsigned attempt, const void *salt)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t z = (uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 30 ^ (uint64_t)getpid() << 12 ^
                 (uint64_t)(uintptr_t)salt ^ (uint64_t)attempt * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 31)) * 0xBF58476D1CE4E5B9ull;
    z ^= z >> 29;
    static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    size_t i = 0;
    for (; i + 1 < len && i < 10; i++, z /= 36)
        out[i] = digits[z % 36];
    out[i] = '\0';
}

/* The user's own descriptors by name: written through, never replaced. */
static int std_stream_fd(const char *path)
{
    if (!strcmp(path, "/dev/stdout"))
        return 1;
    if (!strcmp(path, "/dev/stderr"))
        return 2;
    const char *p = NULL;
    if (!strncmp(path, "/dev/fd/", 8))
        p = path + 8;
    else if (!strncmp(path, "/proc/self/fd/", 14))
        p = path + 14;
    long long fd;
    if (p && rpl_parse_int(p, 0, 1 << 20, &fd) == RPL_OK)
        return (int)fd;
    return -1;
}

static const char *kind_of(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket"
         : S_ISLNK(m) ? "a symbolic link" : "not a regular file";
}

/* Where a name goes, decided once for the writer (rpl_file_open) and for
 * rpl_file_is_stdout, so the two never disagree. */
enum { GO_STREAM, GO_NEW, GO_REPLACE, GO_IN_PLACE, GO_LINK, GO_ERRNO, GO_KIND };
typedef struct route {
    int go;
    int fd;         /* GO_STREAM: the descriptor written through */
    struct stat st; /* GO_REPLACE: the file; GO_IN_PLACE: what the name reaches;
                       GO_KIND: what the name is */
    int err;        /* GO_ERRNO: why the name could not be looked at */
} route_t;

/* Whether a and b are one file. */
static int same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/*
 * GO_STREAM: a standard stream by name (/dev/stdout, /dev/fd/N,
 * /proc/self/fd/N, leading zeros and all), or a symbolic link to what
 * standard output or standard error is open on (a link to /dev/stdout,
 * whatever stdout is: a file, a pipe, a terminal): written through that
 * descriptor.  GO_IN_PLACE: a device or a FIFO, or a link to one: opened
 * by name and written in place.  GO_NEW, GO_REPLACE: a file made, or
 * replaced by a rename.  The rest is refused: GO_LINK (a link to anything
 * else), GO_ERRNO, GO_KIND.
 */
static route_t route_of(const char *path)
{
    route_t r = { .go = GO_ERRNO, .fd = -1 };
    r.fd = std_stream_fd(path);
    if (r.fd >= 0) {
        r.go = GO_STREAM;
        return r;
    }
    struct stat st;
    if (lstat(path, &st) != 0) {
        r.err = errno;
        r.go = errno == ENOENT ? GO_NEW : GO_ERRNO;
        return r;
    }
    r.st = st;
    if (S_ISREG(st.st_mode)) {
        r.go = GO_REPLACE;
    } else if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
        r.go = GO_IN_PLACE;
    } else if (S_ISLNK(st.st_mode)) {
        struct stat to, std;
        r.go = GO_LINK;
        if (stat(path, &to) != 0)
            return r;
        for (int fd = STDOUT_FILENO; fd <= STDERR_FILENO; fd++)
            if (fstat(fd, &std) == 0 && same_file(&to, &std)) {
                r.go = GO_STREAM;
                r.fd = fd;
                return r;
            }
        if (S_ISCHR(to.st_mode) || S_ISFIFO(to.st_mode)) {
            r.go = GO_IN_PLACE;
            r.st = to;
        }
    } else {
        r.go = GO_KIND;
    }
    return r;
}

/* The null device: any number of outputs may go there, stdout too. */
static int is_null_device(const struct stat *st)
{
    struct stat null;
    return S_ISCHR(st->st_mode) && stat("/dev/null", &null) == 0 && S_ISCHR(null.st_mode) &&
           st->st_rdev == null.st_rdev;
}

int rpl_file_is_stdout(const char *path)
{
    struct stat so, to;
    if (!path || !*path || fstat(STDOUT_FILENO, &so) != 0)
        return 0;
    route_t r = route_of(path);
    if (r.go == GO_STREAM) {
        if (fstat(r.fd, &to) != 0)
            return 0;
    } else if (r.go == GO_REPLACE || r.go == GO_IN_PLACE) {
        to = r.st;
    } else {
        return 0;
    }
    return same_file(&to, &so) && !is_null_device(&to);
}

/* Opens what already exists in place: a device or a FIFO by name (fd0 -1),
 * or the descriptor fd0. */
static rpl_status open_in_place(rpl_file_t *f, int fd0, int check)
{
    if (check) {
        int ok = fd0 >= 0 ? fcntl(fd0, F_GETFL) != -1 : access(f->path, W_OK) == 0;
        return ok ? RPL_OK : rpl_err_set(&f->err, RPL_EIO, "cannot write '%s': %s", f->path, strerror(errno));
    }
    int fd = fd0 >= 0 ? dup(fd0) : open(f->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return rpl_err_set(&f->err, RPL_EIO, "cannot write '%s': %s", f->path, strerror(errno));
    f->f = fdopen(fd, "wb");
    if (!f->f) {
        close(fd);
        return rpl_err_set(&f->err, RPL_ENOMEM, "cannot write '%s': %s", f->path, strerror(errno));
    }
    f->mode = MODE_IN_PLACE;
    return RPL_OK;
}

/* Creates the temporary file exclusively in the target's directory:
 * O_EXCL never opens what is there already, a symbolic link included. */
static rpl_status open_temp(rpl_file_t *f, const struct stat *old, int check)
{
    const char *slash = strrchr(f->path, '/');
    size_t dirlen = slash ? (size_t)(slash - f->path) + 1 : 0;
    size_t len = dirlen + 32;
    f->tmp = malloc(len);
    if (!f->tmp)
        return rpl_err_set(&f->err, RPL_ENOMEM, "cannot write '%s': %s", f->path, no_memory);
    int fd = -1;
    for (unsigned attempt = 0; attempt < 64 && fd < 0; attempt++) {
        char sfx[16];
        unique_suffix(sfx, sizeof sfx, attempt, f);
        snprintf(f->tmp, len, "%.*s.ripple-%s.tmp", (int)dirlen, f->path, sfx);
        fd = open(f->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        int e = errno;
        free(f->tmp);
        f->tmp = NULL;
        if (e == EEXIST)
            return rpl_err_set(&f->err, RPL_EIO, "cannot write '%s': no free temporary name beside it",
                        f->path);
        return rpl_err_set(&f->err, RPL_EIO, "cannot write '%s': cannot create a file in %s%.*s: %s",
                    f->path, dirlen ? "" : ".", (int)dirlen, f->path, strerror(e));
    }
    /* a replaced file keeps its permissions, but never set-uid, set-gid
     * or sticky bits: the new contents are not what they were given to */
    if (old && fchmod(fd, old->st_mode & 0777) != 0) {
        int e = errno;
        close(fd);
        unlink(f->tmp);
        return rpl_err_set(&f->err, RPL_EIO, "cannot write '%s': %s", f->path, strerror(e));
    }
    if (check) {
        close(fd);
        unlink(f->tmp);
        return RPL_OK;
    }
    f->f = fdopen(fd, "wb");
    if (!f->f) {
        close(fd);
        unlink(f->tmp);
        return rpl_err_set(&f->err, RPL_ENOMEM, "cannot write '%s': %s", f->path, no_memory);
    }
    f->mode = MODE_RENAME;
    return RPL_OK;
}

/* Whether the effective group or a supplementary group is gid. */
static int in_group(gid_t gid)
{
    if (getegid() == gid)
        return 1;
    int n = getgroups(0, NULL);
    gid_t *list = n > 0 ? malloc((size_t)n * sizeof *list) : NULL;
    int found = 0;
    if (list) {
        n = getgroups(n, list);
        for (int i = 0; i < n && !found; i++)
            found = list[i] == gid;
    }
    free(list);
    return found;
}

/* A regular file the user may write, by its mode bits for the class the
 * user falls in (owner, group, others), as ls -l shows them: a file made
 * read-only is not replaced, even by root (as cp -i and editors warn). */
static int writable_to_user(const struct stat *st)
{
    if (geteuid() == st->st_uid)
        return (st->st_mode & S_IWUSR) != 0;
    if (in_group(st->st_gid))
        return (st->st_mode & S_IWGRP) != 0;
    return (st->st_mode & S_IWOTH) != 0;
}

/* The checks made before a regular file is replaced, so that a long run
 * is not wasted on a rename the system will refuse at the end. */
static rpl_status check_replace(rpl_file_t *f, const struct stat *st)
{
    if (!writable_to_user(st))
        return rpl_err_set(&f->err, RPL_EIO, "cannot write '%s': it is read-only to you (not replaced; make "
                    "it writable or remove it first)", f->path);
    /* in a sticky folder (/tmp) only the owner of the file or of the
     * folder, or root, may rename over it */
    const char *slash = strrchr(f->path, '/');
    size_t dlen = !slash ? 1 : slash == f->path ? 1 : (size_t)(slash - f->path);
    char *dir = malloc(dlen + 1);
    if (dir) {
        memcpy(dir, slash ? f->path : ".", dlen);
        dir[dlen] = '\0';
    }
    if (!dir)
        return rpl_err_set(&f->err, RPL_ENOMEM, "cannot write '%s': %s", f->path, no_memory);
    struct stat ds;
    uid_t me = geteuid();
    int refused = stat(dir, &ds) == 0 && (ds.st_mode & S_ISVTX) && me != 0 &&
                  me != st->st_uid && me != ds.st_uid;
    rpl_status r = refused ? rpl_err_set(&f->err, RPL_EIO, "cannot write '%s': it belongs to another user in "
                                  "the sticky folder '%s', where only they may replace it",
                                  f->path, dir)
                           : RPL_OK;
    free(dir);
    return r;
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
    if (path[strlen(path) - 1] == '/')
        return rpl_err_set(&f->err, RPL_EIO, "cannot write '%s': the name ends in '/'", path);

    /* The standard streams, by name or through a link, are the user's own
     * descriptors: written through, never replaced.  A link to a device or
     * a FIFO is written through too (/dev has many); a link to anything
     * else is left alone, neither replaced nor followed. */
    route_t r = route_of(path);
    switch (r.go) {
    case GO_STREAM:
        return open_in_place(f, r.fd, check);
    case GO_IN_PLACE:
        return open_in_place(f, -1, check);
    case GO_NEW:
        return open_temp(f, NULL, check);
    case GO_REPLACE: {
        rpl_status st = check_replace(f, &r.st);
        return st != RPL_OK ? st : open_temp(f, &r.st, check);
    }
    case GO_LINK:
        return rpl_err_set(&f->err, RPL_EIO, "cannot write '%s': it is a symbolic link (not replaced; "
                    "name the file itself)", path);
    case GO_KIND:
        return rpl_err_set(&f->err, RPL_EIO, "cannot write '%s': it is %s", path, kind_of(r.st.st_mode));
    default:
        return rpl_err_set(&f->err, RPL_EIO, "cannot write '%s': %s", path, strerror(r.err));
    }
}

FILE *rpl_file_stream(rpl_file_t *f)
{
    return f && !f->done ? f->f : NULL;
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
    /* a device or a pipe may not sync: only files are made durable */
    if (!bad && f->mode == MODE_RENAME && fsync(fileno(fp)) != 0)
        bad = 1, e = errno;
    if (fclose(fp) != 0 && !bad)
        bad = 1, e = errno;
    if (!bad && f->mode == MODE_RENAME && rename(f->tmp, f->path) != 0)
        bad = 1, e = errno;
    if (bad) {
        if (f->mode == MODE_RENAME)
            unlink(f->tmp);
        return rpl_err_set(&f->err, RPL_EIO, "cannot write '%s': %s", f->path, strerror(e));
    }
    free(f->tmp);
    f->tmp = NULL;
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
            unlink(f->tmp);
    }
    free(f->tmp);
    free(f->path);
    free(f);
}
