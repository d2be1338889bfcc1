/* machine.c - what the figures depend on besides the code: clocks (wall and CPU), cpu model, load average, memcpy bandwidth. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime's CPU clocks */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The process's CPU time, every thread (0 if the clock is missing). */
uint64_t process_cpu_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return 0;
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void cpu_model(char *buf, size_t len)
{
    snprintf(buf, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0)
            continue;
        char *v = strchr(line, ':');
        if (!v)
            continue;
        v++;
        while (*v == ' ' || *v == '\t')
            v++;
        v[strcspn(v, "\r\n")] = '\0';
        if (*v)
            snprintf(buf, len, "%s", v);
        break;
    }
    fclose(f);
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
