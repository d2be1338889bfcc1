/* shmcount.c - an LD_PRELOAD library that counts a program's XShmPutImage
 * and XPutImage calls, for bench/vs-ripples.sh: a hack that puts one image
 * per frame has drawn as many frames as it has put images.
 *
 *   cc -shared -fPIC -O2 -o shmcount.so bench/preload/shmcount.c -ldl
 *   SHMCOUNT_OUT=counts LD_PRELOAD=./shmcount.so some-x-program
 *
 * At exit, or on SIGTERM, SIGINT or SIGHUP, the file named by SHMCOUNT_OUT
 * gets one line "SHM PLAIN": the two counts.  Only the process that loaded
 * the library with SHMCOUNT_OUT set writes it (the variable is taken out of
 * the environment, so programs it starts leave the file alone).  No X11
 * header is needed: the two functions are declared here with plain types.
 * It lives in bench/preload/ so that the bench binary, which is built from
 * every bench/NAME.c, leaves it out.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Xlib's and XShm's prototypes: Display *, GC and XImage * as void *,
 * Drawable (an XID) as unsigned long, Bool as int. */
typedef int put_fn(void *dpy, unsigned long d, void *gc, void *image, int src_x, int src_y,
                   int dst_x, int dst_y, unsigned w, unsigned h);
typedef int shm_put_fn(void *dpy, unsigned long d, void *gc, void *image, int src_x, int src_y,
                       int dst_x, int dst_y, unsigned w, unsigned h, int send_event);
int XPutImage(void *dpy, unsigned long d, void *gc, void *image, int src_x, int src_y,
              int dst_x, int dst_y, unsigned w, unsigned h);
int XShmPutImage(void *dpy, unsigned long d, void *gc, void *image, int src_x, int src_y,
                 int dst_x, int dst_y, unsigned w, unsigned h, int send_event);

static volatile unsigned long shm_count, put_count;
static char out_path[4096];
static pid_t owner;

int XShmPutImage(void *dpy, unsigned long d, void *gc, void *image, int src_x, int src_y,
                 int dst_x, int dst_y, unsigned w, unsigned h, int send_event)
{
    static shm_put_fn *real;
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "XShmPutImage");
    __atomic_add_fetch(&shm_count, 1, __ATOMIC_RELAXED);
    return real ? real(dpy, d, gc, image, src_x, src_y, dst_x, dst_y, w, h, send_event) : 0;
}

int XPutImage(void *dpy, unsigned long d, void *gc, void *image, int src_x, int src_y,
              int dst_x, int dst_y, unsigned w, unsigned h)
{
    static put_fn *real;
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "XPutImage");
    __atomic_add_fetch(&put_count, 1, __ATOMIC_RELAXED);
    return real ? real(dpy, d, gc, image, src_x, src_y, dst_x, dst_y, w, h) : 0;
}

/* Decimal digits of n at the end of buf; returns where they start. */
static char *digits(char *end, unsigned long n)
{
    do
        *--end = (char)('0' + n % 10);
    while (n /= 10);
    return end;
}

/* Writes "SHM PLAIN\n" with async-signal-safe calls only. */
static void write_counts(void)
{
    if (!out_path[0] || getpid() != owner)
        return;
    char line[64], *end = line + sizeof line, *p;
    *--end = '\n';
    p = digits(end, put_count);
    *--p = ' ';
    p = digits(p, shm_count);
    int fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return;
    ssize_t len = (line + sizeof line) - p;
    if (write(fd, p, (size_t)len) != len) { /* nothing to do about it */ }
    close(fd);
}

static void on_signal(int sig)
{
    write_counts();
    signal(sig, SIG_DFL);
    raise(sig);
}

__attribute__((constructor)) static void shmcount_init(void)
{
    const char *path = getenv("SHMCOUNT_OUT");
    if (!path || !*path || strlen(path) >= sizeof out_path)
        return;
    memcpy(out_path, path, strlen(path) + 1);
    owner = getpid();
    unsetenv("SHMCOUNT_OUT");
    write_counts(); /* the file exists from the start, holding 0 0 */
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    signal(SIGHUP, on_signal);
}

__attribute__((destructor)) static void shmcount_fini(void)
{
    write_counts();
}
