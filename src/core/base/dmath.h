/* core/base/dmath.h - the maths functions the side scene and Chipmunk2D share, one implementation on every platform (self-contained: it is forced into Chipmunk2D's own files). */
#ifndef RPL_CORE_DMATH_H
#define RPL_CORE_DMATH_H

double rpl_sin(double x);
double rpl_cos(double x);
void rpl_sincos(double x, double *s, double *c);
double rpl_acos(double x);
double rpl_atan2(double y, double x);
double rpl_exp(double x);
double rpl_pow(double x, double y);
double rpl_hypot(double x, double y);

#endif
