/* core/base/dmath.c - the shared maths functions, for now the C library's own (the same bytes as before they were routed here). */
#include <math.h>

#include "core/base/dmath.h"

double rpl_sin(double x) { return sin(x); }
double rpl_cos(double x) { return cos(x); }
void rpl_sincos(double x, double *s, double *c)
{
    *s = sin(x);
    *c = cos(x);
}
double rpl_acos(double x) { return acos(x); }
double rpl_atan2(double y, double x) { return atan2(y, x); }
double rpl_exp(double x) { return exp(x); }
double rpl_pow(double x, double y) { return pow(x, y); }
double rpl_hypot(double x, double y) { return hypot(x, y); }
