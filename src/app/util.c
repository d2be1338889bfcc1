/* app/util.c - the demo's small shared helpers: messages, timings, the report's stream, the stop signal. */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"

void app_print_error(const char *msg)
{
    /* "\n", "\t", "\r" or "\xNN" for a control character: one write */
    size_t len = strlen(msg);
    char *line = malloc(len * 4 + 10);
    if (!line) {
        fprintf(stderr, "ripple: out of memory\n");
        return;
    }
    size_t n = 8;
    memcpy(line, "ripple: ", n);
    for (const unsigned char *p = (const unsigned char *)msg; *p; p++) {
        int c = *p;
        char name = c == '\n' ? 'n' : c == '\t' ? 't' : c == '\r' ? 'r' : 0;
        if (name)
            n += (size_t)sprintf(line + n, "\\%c", name);
        else if (c < 0x20 || c == 0x7f)
            n += (size_t)sprintf(line + n, "\\x%02x", (unsigned)c);
        else
            line[n++] = (char)c;
    }
    line[n++] = '\n';
    fwrite(line, 1, n, stderr);
    free(line);
}

char *app_format(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s) {
        va_start(ap, fmt);
        vsnprintf(s, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    return s;
}

FILE *app_report_stream(const app_t *a)
{
    return a->report_to_stderr ? stderr : stdout;
}

double app_ms_since(uint64_t t0)
{
    return (double)(SDL_GetPerformanceCounter() - t0) * 1000.0 /
           (double)SDL_GetPerformanceFrequency();
}

void app_smooth(double *avg, double v)
{
    *avg = *avg == 0 ? v : *avg * 0.95 + v * 0.05;
}

/* The signal that asked a headless run to stop.  The one mutable global:
 * a signal handler can reach nothing else, and all it does is set this. */
static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
    stop_signal = sig;
}

int app_stop_signal(void)
{
    return stop_signal;
}

/* A headless run has no window to close: SIGINT, SIGTERM and SIGHUP end
 * it between frames, its temporary files are removed, and it then dies of
 * the signal (130, 143, 129 in a shell).  A signal ignored from the start
 * (nohup, a background job) stays ignored. */
void app_catch_stop_signals(void)
{
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old, sa;
        if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_stop_signal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = 0; /* no SA_RESTART: a write blocked on a pipe gives up */
        sigaction(sigs[i], &sa, NULL);
    }
}
