/* core/base/pool.h - a small worker pool that runs one job on every thread and waits for all. */
#ifndef RPL_POOL_H
#define RPL_POOL_H

typedef struct rpl_pool rpl_pool_t;

/* The job: called once on every thread (the caller's included) with the
 * thread's index in [0, nthreads). */
typedef void (*rpl_pool_fn)(void *arg, int thread);

/* Starts nthreads-1 workers (the caller is the last thread).  NULL on
 * failure or if nthreads < 2. */
rpl_pool_t *rpl_pool_create(int nthreads);
void rpl_pool_destroy(rpl_pool_t *pool);
int rpl_pool_threads(const rpl_pool_t *pool);

/* Runs fn(arg, i) on every thread i and returns when all are done. */
void rpl_pool_run(rpl_pool_t *pool, rpl_pool_fn fn, void *arg);

#endif
