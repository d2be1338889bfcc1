/* core/base/thread_win.c - the threads seam on Windows: threads by _beginthreadex, Win32 semaphores (all in Windows XP). */
#include <limits.h>
#include <process.h>
#include <stdlib.h>
#include <windows.h>

#include "core/base/thread.h"

struct start {
    void (*fn)(void *);
    void *arg;
};

/* _beginthreadex rather than CreateThread: the C runtime sets up its
 * per-thread state (errno, strtok's) for threads it started. */
static unsigned __stdcall trampoline(void *p)
{
    struct start s = *(struct start *)p;
    free(p);
    s.fn(s.arg);
    return 0;
}

int rpl_thread_start(rpl_thread_t *t, void (*fn)(void *arg), void *arg)
{
    struct start *s = malloc(sizeof *s);
    if (!s)
        return -1;
    s->fn = fn;
    s->arg = arg;
    uintptr_t h = _beginthreadex(NULL, 0, trampoline, s, 0, NULL);
    if (h == 0) {
        free(s);
        return -1;
    }
    t->handle = (void *)h;
    return 0;
}

void rpl_thread_join(rpl_thread_t *t)
{
    WaitForSingleObject(t->handle, INFINITE);
    CloseHandle(t->handle);
}

int rpl_sem_init(rpl_sem_t *s)
{
    s->handle = CreateSemaphoreW(NULL, 0, LONG_MAX, NULL);
    return s->handle ? 0 : -1;
}

void rpl_sem_post(rpl_sem_t *s)
{
    ReleaseSemaphore(s->handle, 1, NULL);
}

void rpl_sem_wait(rpl_sem_t *s)
{
    WaitForSingleObject(s->handle, INFINITE);
}

void rpl_sem_destroy(rpl_sem_t *s)
{
    CloseHandle(s->handle);
}

int rpl_thread_cpus(void)
{
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return si.dwNumberOfProcessors < 1 ? 1 : (int)si.dwNumberOfProcessors;
}
