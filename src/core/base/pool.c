/* core/base/pool.c - a small worker pool that runs one job on every thread and waits for all (on the threads seam). */
#include <stdatomic.h>
#include <stdlib.h>

#include "core/base/pool.h"
#include "core/base/thread.h"

/*
 * Each worker sleeps on its own semaphore; a job posts every one of them
 * and the caller then sleeps on `done`, which the last worker to finish
 * posts.  Semaphores rather than a condition variable: Windows XP has no
 * condition variables, and a post can never be lost to a thread that has
 * not started waiting yet.  The semaphores order memory, so the job (fn,
 * arg) written before the posts is what the workers read, and what they
 * wrote is what the caller reads after `done`.
 */
struct worker {
    rpl_pool_t *pool;
    int index;
    rpl_thread_t th;
    rpl_sem_t go;
};

struct rpl_pool {
    int n; /* threads, the caller's included */
    struct worker *w;
    rpl_sem_t done;
    atomic_int running; /* workers still on the current job */
    int quit;
    rpl_pool_fn fn;
    void *arg;
};

static void worker_main(void *p)
{
    struct worker *me = p;
    rpl_pool_t *pool = me->pool;
    for (;;) {
        rpl_sem_wait(&me->go);
        if (pool->quit)
            break;
        pool->fn(pool->arg, me->index);
        if (atomic_fetch_sub(&pool->running, 1) == 1)
            rpl_sem_post(&pool->done);
    }
}

rpl_pool_t *rpl_pool_create(int nthreads)
{
    if (nthreads < 2)
        return NULL;
    rpl_pool_t *pool = calloc(1, sizeof *pool);
    if (!pool)
        return NULL;
    pool->w = calloc((size_t)nthreads, sizeof *pool->w);
    if (!pool->w || rpl_sem_init(&pool->done) != 0) {
        free(pool->w);
        free(pool);
        return NULL;
    }
    atomic_init(&pool->running, 0);
    pool->n = 1;
    for (int i = 0; i < nthreads - 1; i++) {
        struct worker *w = &pool->w[i];
        w->pool = pool;
        w->index = i;
        if (rpl_sem_init(&w->go) != 0) {
            rpl_pool_destroy(pool);
            return NULL;
        }
        if (rpl_thread_start(&w->th, worker_main, w) != 0) {
            rpl_sem_destroy(&w->go);
            rpl_pool_destroy(pool);
            return NULL;
        }
        pool->n++;
    }
    return pool;
}

void rpl_pool_destroy(rpl_pool_t *pool)
{
    if (!pool)
        return;
    pool->quit = 1;
    for (int i = 0; i < pool->n - 1; i++)
        rpl_sem_post(&pool->w[i].go);
    for (int i = 0; i < pool->n - 1; i++) {
        rpl_thread_join(&pool->w[i].th);
        rpl_sem_destroy(&pool->w[i].go);
    }
    rpl_sem_destroy(&pool->done);
    free(pool->w);
    free(pool);
}

int rpl_pool_threads(const rpl_pool_t *pool)
{
    return pool ? pool->n : 1;
}

void rpl_pool_run(rpl_pool_t *pool, rpl_pool_fn fn, void *arg)
{
    pool->fn = fn;
    pool->arg = arg;
    atomic_store(&pool->running, pool->n - 1);
    for (int i = 0; i < pool->n - 1; i++)
        rpl_sem_post(&pool->w[i].go);

    fn(arg, pool->n - 1); /* the caller takes the last share */

    rpl_sem_wait(&pool->done);
}
