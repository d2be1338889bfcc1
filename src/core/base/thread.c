/* core/base/thread.c - the threads seam on POSIX: pthreads, and a semaphore on a mutex and a condition variable. */
#include <stdlib.h>
#include <unistd.h>

#include "core/base/thread.h"

struct start {
    void (*fn)(void *);
    void *arg;
};

static void *trampoline(void *p)
{
    struct start s = *(struct start *)p;
    free(p);
    s.fn(s.arg);
    return NULL;
}

int rpl_thread_start(rpl_thread_t *t, void (*fn)(void *arg), void *arg)
{
    struct start *s = malloc(sizeof *s);
    if (!s)
        return -1;
    s->fn = fn;
    s->arg = arg;
    if (pthread_create(&t->th, NULL, trampoline, s) != 0) {
        free(s);
        return -1;
    }
    return 0;
}

void rpl_thread_join(rpl_thread_t *t)
{
    pthread_join(t->th, NULL);
}

int rpl_sem_init(rpl_sem_t *s)
{
    s->count = 0;
    if (pthread_mutex_init(&s->mu, NULL) != 0)
        return -1;
    if (pthread_cond_init(&s->cv, NULL) != 0) {
        pthread_mutex_destroy(&s->mu);
        return -1;
    }
    return 0;
}

void rpl_sem_post(rpl_sem_t *s)
{
    pthread_mutex_lock(&s->mu);
    s->count++;
    pthread_cond_signal(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

void rpl_sem_wait(rpl_sem_t *s)
{
    pthread_mutex_lock(&s->mu);
    while (s->count == 0)
        pthread_cond_wait(&s->cv, &s->mu);
    s->count--;
    pthread_mutex_unlock(&s->mu);
}

void rpl_sem_destroy(rpl_sem_t *s)
{
    pthread_cond_destroy(&s->cv);
    pthread_mutex_destroy(&s->mu);
}

int rpl_thread_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 1 << 16 ? 1 << 16 : (int)n;
}
