/* core/base/dmath.h - the maths functions of the side view and Chipmunk2D, the same bits on every platform. */
#ifndef RPL_CORE_BASE_DMATH_H
#define RPL_CORE_BASE_DMATH_H

/* The C library's sin, cos, atan2... differ between glibc, emscripten,
 * mingw-w64 and x87 in the last bits, so a simulation fed with them
 * drifts apart between the native build and the web page.  These are
 * built from + - * / and sqrt alone (every one of them correctly rounded
 * on every target), within 1-2 ulp of the true value.  Kept free of other
 * headers: this file is also force-included into Chipmunk2D's own C files.
 * NaN results are always the one quiet NaN 0x7ff8000000000000. */

double rpl_sin(double x);
double rpl_cos(double x);
/* The two of rpl_sin and rpl_cos, bit for bit, for the price of one reduction. */
void rpl_sincos(double x, double *s, double *c);
double rpl_atan2(double y, double x);
double rpl_acos(double x);
double rpl_exp(double x);
double rpl_pow(double x, double y);
double rpl_hypot(double x, double y);

/* Calls fn(arg) with the FPU rounding every operation to double
 * precision, as SSE2, ARM and WebAssembly do, and puts the caller's
 * setting back.  Only the x87 (32-bit x86 without SSE2) needs it: it rounds
 * to 64 bits of mantissa (Linux, mingw-w64), so a chain of operations
 * such as Chipmunk2D's step drifts from the others' in the last bits.
 * Under it the x87's + - * / and sqrt give the others' bits as long as no
 * value leaves double's exponent range.  Elsewhere it is the plain call. */
void rpl_double_precision(void (*fn)(void *), void *arg);

#endif
