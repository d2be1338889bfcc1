/* rpl_dispatch.c - the table of kernel paths and the choice among them. */
#include <string.h>

#include "rpl_kernels.h"

/* Paths in ascending order of preference; SIMD paths join this table,
 * each guarded by its build macro and its CPU check. */
static const rpl_kernels_t kernels_c = {
    "c", rpl_step_c, rpl_refract_xrgb8888_c,
};

static const rpl_kernels_t *const paths[] = {
    &kernels_c,
};

const rpl_kernels_t *rpl_kernels_get(const char *name)
{
    size_t n = sizeof paths / sizeof paths[0];
    if (name == NULL || strcmp(name, "auto") == 0)
        return paths[n - 1];
    for (size_t i = 0; i < n; i++)
        if (strcmp(paths[i]->name, name) == 0)
            return paths[i];
    return NULL;
}

const char *rpl_kernels_name(const rpl_kernels_t *k)
{
    return k ? k->name : "none";
}
