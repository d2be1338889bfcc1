/* core/base/pool.c - a small pthreads worker pool that runs one job on every thread and waits for all. */
#include <pthread.h>
#include <stdlib.h>

#include "core/base/pool.h"

struct worker {
    rpl_pool_t *pool;
    int index;
    pthread_t th;
};

struct rpl_pool {
    int n; /* threads, the caller's included */
    struct worker *w;
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    unsigned long gen; /* bumped for every job */
    int running;       /* workers still on the current job */
    int quit;
    rpl_pool_fn fn;
    void *arg;
};

static void *worker_main(void *p)
{
    struct worker *me = p;
    rpl_pool_t *pool = me->pool;
    unsigned long seen = 0;
    pthread_mutex_lock(&pool->mu);
    for (;;) {
        while (!pool->quit && pool->gen == seen)
            pthread_cond_wait(&pool->go, &pool->mu);
        if (pool->quit)
            break;
        seen = pool->gen;
        rpl_pool_fn fn = pool->fn;
        void *arg = pool->arg;
        pthread_mutex_unlock(&pool->mu);
        fn(arg, me->index);
        pthread_mutex_lock(&pool->mu);
        if (--pool->running == 0)
            pthread_cond_signal(&pool->done);
    }
    pthread_mutex_unlock(&pool->mu);
    return NULL;
}

rpl_pool_t *rpl_pool_create(int nthreads)
{
    if (nthreads < 2)
        return NULL;
    rpl_pool_t *pool = calloc(1, sizeof *pool);
    if (!pool)
        return NULL;
    pool->w = calloc((size_t)nthreads, sizeof *pool->w);
    if (!pool->w || pthread_mutex_init(&pool->mu, NULL) != 0) {
        free(pool->w);
        free(pool);
        return NULL;
    }
    pthread_cond_init(&pool->go, NULL);
    pthread_cond_init(&pool->done, NULL);
    pool->n = 1;
    for (int i = 0; i < nthreads - 1; i++) {
        pool->w[i].pool = pool;
        pool->w[i].index = i;
        if (pthread_create(&pool->w[i].th, NULL, worker_main, &pool->w[i]) != 0) {
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
    pthread_mutex_lock(&pool->mu);
    pool->quit = 1;
    pthread_cond_broadcast(&pool->go);
    pthread_mutex_unlock(&pool->mu);
    for (int i = 0; i < pool->n - 1; i++)
        pthread_join(pool->w[i].th, NULL);
    pthread_cond_destroy(&pool->go);
    pthread_cond_destroy(&pool->done);
    pthread_mutex_destroy(&pool->mu);
    free(pool->w);
    free(pool);
}

int rpl_pool_threads(const rpl_pool_t *pool)
{
    return pool ? pool->n : 1;
}

void rpl_pool_run(rpl_pool_t *pool, rpl_pool_fn fn, void *arg)
{
    pthread_mutex_lock(&pool->mu);
    pool->fn = fn;
    pool->arg = arg;
    pool->running = pool->n - 1;
    pool->gen++;
    pthread_cond_broadcast(&pool->go);
    pthread_mutex_unlock(&pool->mu);

    fn(arg, pool->n - 1); /* the caller takes the last share */

    pthread_mutex_lock(&pool->mu);
    while (pool->running > 0)
        pthread_cond_wait(&pool->done, &pool->mu);
    pthread_mutex_unlock(&pool->mu);
}
