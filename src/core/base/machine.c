/* core/base/machine.c - clocks, the CPU's and the system's names and the program's path on POSIX (machine_win.c on Windows). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime's CPU clocks */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "ripple_support.h"

static int64_t clock_of(clockid_t id)
{
    struct timespec ts;
    if (clock_gettime(id, &ts) != 0)
        return 0;
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t rpl_clock_ns(void)
{
    return clock_of(CLOCK_MONOTONIC);
}

int64_t rpl_thread_cpu_ns(void)
{
    return clock_of(CLOCK_THREAD_CPUTIME_ID);
}

int64_t rpl_process_cpu_ns(void)
{
    return clock_of(CLOCK_PROCESS_CPUTIME_ID);
}

void rpl_process_times(double *user_s, double *sys_s)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0) {
        *user_s = *sys_s = 0;
        return;
    }
    *user_s = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
    *sys_s = (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/* Linux's /proc/cpuinfo names x86 and most other CPUs alike; elsewhere
 * (or an ARM kernel that gives no model name) "unknown". */
void rpl_cpu_model(char *buf, size_t len)
{
    snprintf(buf, len, "unknown");
    FILE *f = rpl_open_read("/proc/cpuinfo");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        char *v = strchr(line, ':');
        if (strncmp(line, "model name", 10) != 0 || !v)
            continue;
        v += 1 + strspn(v + 1, " \t");
        v[strcspn(v, "\r\n")] = '\0';
        if (*v)
            snprintf(buf, len, "%s", v);
        break;
    }
    if (f)
        fclose(f);
}

void rpl_os_name(char *buf, size_t len)
{
    struct utsname u;
    if (uname(&u) != 0) {
        snprintf(buf, len, "unknown");
        return;
    }
    size_t n = strspn(u.release, "0123456789");
    if (u.release[n] == '.')
        n += 1 + strspn(u.release + n + 1, "0123456789");
    if (n > 0 && u.release[n - 1] == '.')
        n--;
    snprintf(buf, len, "%s %.*s", u.sysname, (int)n, u.release);
}

/* Linux's link to the program; other systems without it give -1. */
int rpl_exe_path(char *buf, size_t len)
{
    if (len < 2)
        return -1;
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    if (n <= 0 || (size_t)n >= len - 1)
        return -1;
    buf[n] = '\0';
    return 0;
}
