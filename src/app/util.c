/* app/util.c - the demo's small shared helpers: messages, timings, the report's stream. */
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
