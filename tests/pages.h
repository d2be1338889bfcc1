/* tests/pages.h - the memory pages seam of the tests' guard pages: mmap and mprotect on POSIX (pages.c), VirtualAlloc and VirtualProtect on Windows (pages_win.c). */
#ifndef TESTS_PAGES_H
#define TESTS_PAGES_H

#include <stddef.h>

/* The page size: the unit of what pages_protect changes. */
size_t pages_size(void);
/* len bytes of fresh read-write pages, or NULL. */
void *pages_map(size_t len);
/* Makes [p, p + len) (whole pages) read-write (rw 1) or unreachable (0);
 * 0 on success. */
int pages_protect(void *p, size_t len, int rw);
void pages_unmap(void *p, size_t len);

#endif
