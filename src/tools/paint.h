/* tools/paint.h - the small colour maths the asset generators share: linear RGB, clamps, blends. */
#ifndef RIPPLE_TOOLS_PAINT_H
#define RIPPLE_TOOLS_PAINT_H

/* A colour in linear light, each channel 0..1 (more before clamping). */
typedef struct {
    double r, g, b;
} Rgb;

static inline double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* 0 below e0, 1 above e1 and the cubic ease between (e0 > e1 runs it backwards). */
static inline double smoothstep(double e0, double e1, double x)
{
    double t = clampd((x - e0) / (e1 - e0), 0.0, 1.0);
    return t * t * (3.0 - 2.0 * t);
}

static inline double mixd(double a, double b, double t)
{
    return a + (b - a) * t;
}

static inline Rgb rgb(double r, double g, double b)
{
    Rgb c = {r, g, b};
    return c;
}

static inline Rgb rgb_mix(Rgb a, Rgb b, double t)
{
    return rgb(mixd(a.r, b.r, t), mixd(a.g, b.g, t), mixd(a.b, b.b, t));
}

#endif
