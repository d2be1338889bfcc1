/* kernels/sqrt_x87.h - sqrt correctly rounded to double, inline on the x87 where the C library's is a call. */
#ifndef RPL_SQRT_X87_H
#define RPL_SQRT_X87_H

#include <math.h>

/* On the x87 gcc calls the library's sqrt (fsqrt would round to the
 * control word's 64 bits of mantissa, then again to 53); glibc's sets
 * the precision to 53 bits around fsqrt, so the result is the correctly
 * rounded double every other target's sqrt gives.  The same sequence here,
 * inline, saves the two calls' twenty-odd instructions on each pixel of a
 * droplet or disc.  One asm: nothing can run under the borrowed control
 * word.  Elsewhere the compiler's own sqrt. */
#if (defined(__i386__) || defined(_M_IX86)) && !defined(__SSE2_MATH__) && defined(__GNUC__)
static inline double rpl_sqrt(double x)
{
    double r;
    unsigned short old, cw;
    __asm__("fnstcw %1\n\t"
            "movzwl %1, %%edx\n\t"
            "andl $0xfeff, %%edx\n\t"
            "movw %%dx, %2\n\t"
            "fldcw %2\n\t"
            "fsqrt\n\t"
            "fldcw %1"
            : "=t"(r), "=m"(old), "=m"(cw)
            : "0"(x)
            : "edx");
    return r;
}
#else
static inline double rpl_sqrt(double x)
{
    return sqrt(x);
}
#endif

#endif
