/* machine.c - what the figures depend on besides the code: clocks (wall and CPU), cpu model, load average, memcpy bandwidth. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ripple_support.h"

uint64_t now_ns(void)
{
    return (uint64_t)rpl_clock_ns();
}

/* The process's CPU time, every thread (0 if the clock is missing). */
uint64_t process_cpu_ns(void)
{
    return (uint64_t)rpl_process_cpu_ns();
}

void cpu_model(char *buf, size_t len)
{
    rpl_cpu_model(buf, len);
}

/* The 1-minute load average, or -1: other work on the machine makes the
 * figures noisy, most of all the multi-thread ones. */
double load_average(void)
{
    double v = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &v) != 1)
            v = -1;
        fclose(f);
    }
    return v;
}

/* memcpy bandwidth in GB/s (1e9 bytes), counting read and write bytes;
 * 0 when the buffers cannot be had. */
double memcpy_gbps(uint64_t *sink)
{
    size_t n = (size_t)MEMCPY_MB << 20;
    unsigned char *a = malloc(n), *c = malloc(n);
    double gbps = 0;
    if (a && c) {
        memset(a, 0x5A, n);
        memset(c, 0xA5, n);
        uint64_t best = UINT64_MAX;
        for (int i = 0; i < MEMCPY_REPEATS; i++) {
            unsigned char *dst = i & 1 ? a : c, *src = i & 1 ? c : a;
            uint64_t t0 = now_ns();
            memcpy(dst, src, n);
            uint64_t t = now_ns() - t0;
            *sink += dst[((size_t)i * 40503u) % n]; /* the copy is used */
            if (t > 0 && t < best)
                best = t;
        }
        gbps = 2.0 * (double)n / (double)best;
    }
    free(a);
    free(c);
    return gbps;
}
