/* tests/pages_win.c - the memory pages seam on Windows: VirtualAlloc and VirtualProtect (PAGE_NOACCESS for a guard). */
#include <windows.h>

#include "pages.h"

size_t pages_size(void)
{
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return si.dwPageSize ? si.dwPageSize : 4096;
}

void *pages_map(size_t len)
{
    return VirtualAlloc(NULL, len, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
}

int pages_protect(void *p, size_t len, int rw)
{
    DWORD old;
    return VirtualProtect(p, len, rw ? PAGE_READWRITE : PAGE_NOACCESS, &old) ? 0 : -1;
}

void pages_unmap(void *p, size_t len)
{
    (void)len;
    VirtualFree(p, 0, MEM_RELEASE);
}
