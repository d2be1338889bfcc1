/* tests/pages.c - the memory pages seam on POSIX: anonymous mappings and mprotect. */
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pages.h"

size_t pages_size(void)
{
    long v = sysconf(_SC_PAGESIZE);
    return v > 0 ? (size_t)v : 4096;
}

void *pages_map(size_t len)
{
#if defined(MAP_ANONYMOUS)
    void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
#elif defined(MAP_ANON)
    void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANON, -1, 0);
#else
    /* strict POSIX headers hide MAP_ANONYMOUS: private pages of /dev/zero */
    int fd = open("/dev/zero", O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    close(fd);
#endif
    return m == MAP_FAILED ? NULL : m;
}

int pages_protect(void *p, size_t len, int rw)
{
    return mprotect(p, len, rw ? PROT_READ | PROT_WRITE : PROT_NONE);
}

void pages_unmap(void *p, size_t len)
{
    munmap(p, len);
}
