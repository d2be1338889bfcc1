/* core/base/machine_win.c - clocks, the CPU's and the system's names and the program's path on Windows (machine.c on POSIX). */
#include <cpuid.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <windows.h>

#include "ripple_support.h"

int64_t rpl_clock_ns(void)
{
    LARGE_INTEGER f, c;
    if (!QueryPerformanceFrequency(&f) || !QueryPerformanceCounter(&c) || f.QuadPart <= 0)
        return 0;
    /* split, so that the product cannot overflow after 2^63 / 1e9 ticks */
    int64_t s = c.QuadPart / f.QuadPart, r = c.QuadPart % f.QuadPart;
    return s * 1000000000 + r * 1000000000 / f.QuadPart;
}

/* A FILETIME span (100 ns units) in nanoseconds. */
static int64_t span_ns(FILETIME t)
{
    return (int64_t)(((uint64_t)t.dwHighDateTime << 32 | t.dwLowDateTime) * 100);
}

int64_t rpl_thread_cpu_ns(void)
{
    FILETIME made, ended, kernel, user;
    if (!GetThreadTimes(GetCurrentThread(), &made, &ended, &kernel, &user))
        return 0;
    return span_ns(kernel) + span_ns(user);
}

int64_t rpl_process_cpu_ns(void)
{
    FILETIME made, ended, kernel, user;
    if (!GetProcessTimes(GetCurrentProcess(), &made, &ended, &kernel, &user))
        return 0;
    return span_ns(kernel) + span_ns(user);
}

void rpl_process_times(double *user_s, double *sys_s)
{
    FILETIME made, ended, kernel, user;
    if (!GetProcessTimes(GetCurrentProcess(), &made, &ended, &kernel, &user)) {
        *user_s = *sys_s = 0;
        return;
    }
    *user_s = (double)span_ns(user) / 1e9;
    *sys_s = (double)span_ns(kernel) / 1e9;
}

/* Windows has no /proc/cpuinfo: the brand string CPUID has given since
 * the Pentium 4 and the K7, which is what Linux reads there too.  Older
 * CPUs: "unknown". */
void rpl_cpu_model(char *buf, size_t len)
{
    unsigned r[12], top = __get_cpuid_max(0x80000000u, NULL);
    snprintf(buf, len, "unknown");
    if (top < 0x80000004u)
        return;
    for (unsigned i = 0; i < 3; i++)
        __cpuid(0x80000002u + i, r[4 * i], r[4 * i + 1], r[4 * i + 2], r[4 * i + 3]);
    char name[49];
    memcpy(name, r, 48);
    name[48] = '\0';
    const char *v = name + strspn(name, " "); /* Intel pads it on the left */
    size_t n = strlen(v);
    while (n > 0 && v[n - 1] == ' ')
        n--;
    if (n)
        snprintf(buf, len, "%.*s", (int)n, v);
}

typedef LONG(WINAPI *rtl_get_version_fn)(OSVERSIONINFOW *);
typedef const char *(CDECL *wine_version_fn)(void);

/* RtlGetVersion: GetVersionEx answers 6.2 to every program without a
 * manifest from Windows 8.1 on.  Under Wine, its version too, since it
 * is what the figures were measured on. */
void rpl_os_name(char *buf, size_t len)
{
    HMODULE nt = GetModuleHandleW(L"ntdll.dll");
    rtl_get_version_fn get = nt ? (rtl_get_version_fn)(void (*)(void))GetProcAddress(nt, "RtlGetVersion") : NULL;
    wine_version_fn wine = nt ? (wine_version_fn)(void (*)(void))GetProcAddress(nt, "wine_get_version") : NULL;
    OSVERSIONINFOW v;
    memset(&v, 0, sizeof v);
    v.dwOSVersionInfoSize = sizeof v;
    if (!get || get(&v) != 0) {
        snprintf(buf, len, "unknown");
        return;
    }
    if (wine)
        snprintf(buf, len, "Windows %lu.%lu (Wine %s)", (unsigned long)v.dwMajorVersion,
                 (unsigned long)v.dwMinorVersion, wine());
    else
        snprintf(buf, len, "Windows %lu.%lu", (unsigned long)v.dwMajorVersion,
                 (unsigned long)v.dwMinorVersion);
}

int rpl_exe_path(char *buf, size_t len)
{
    wchar_t w[MAX_PATH + 1];
    DWORD n = GetModuleFileNameW(NULL, w, MAX_PATH + 1);
    if (len < 2 || n == 0 || n > MAX_PATH || len > INT_MAX)
        return -1;
    int got = WideCharToMultiByte(CP_UTF8, 0, w, (int)n, buf, (int)len - 1, NULL, NULL);
    if (got <= 0)
        return -1;
    buf[got] = '\0';
    for (char *p = buf; *p; p++)
        if (*p == '\\')
            *p = '/';
    return 0;
}
