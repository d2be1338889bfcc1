/* core/base/thread.h - the threads seam: start and join a thread, a counting semaphore, the CPU count (POSIX in thread.c, Win32 in thread_win.c). */
#ifndef RPL_THREAD_H
#define RPL_THREAD_H

/* Only what Windows XP has too (threads, semaphores): no condition
 * variables, which came with Vista. */
#ifdef _WIN32
typedef struct {
    void *handle;
} rpl_thread_t;
typedef struct {
    void *handle;
} rpl_sem_t;
#else
#include <pthread.h>
typedef struct {
    pthread_t th;
} rpl_thread_t;
typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned count;
} rpl_sem_t;
#endif

/* fn(arg) on a new thread; 0 on success. */
int rpl_thread_start(rpl_thread_t *t, void (*fn)(void *arg), void *arg);
void rpl_thread_join(rpl_thread_t *t);

/* A semaphore at 0; 0 on success.  Post and wait order memory as a lock
 * does: what one thread wrote before a post, the thread its wait lets
 * through reads. */
int rpl_sem_init(rpl_sem_t *s);
void rpl_sem_post(rpl_sem_t *s);
void rpl_sem_wait(rpl_sem_t *s);
void rpl_sem_destroy(rpl_sem_t *s);

/* The processors online, at least 1. */
int rpl_thread_cpus(void);

#endif
