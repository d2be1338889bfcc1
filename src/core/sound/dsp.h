/* core/sound/dsp.h - the integer signal helpers the drip mixer and the synthesizer share (not part of the API). */
#ifndef RPL_CORE_SOUND_DSP_H
#define RPL_CORE_SOUND_DSP_H

#include <stdint.h>

#include "core/base/base.h"

/*
 * Fixed point, used throughout (no floating point anywhere, so the samples
 * are the same on every machine and compiler):
 *   Q30 envelopes (1 << 30 is full level), Q16 filter and ramp
 *   coefficients (65536 is 1), Q15 sines and pan gains (32768 is 1),
 *   phases as uint32 turns (2^32 is a whole turn).
 * >> on a negative value is an arithmetic shift, as everywhere in ripple.
 */
#define ENV_ONE (1 << 30)
#define Q16 65536

/* Q16 share per frame of a one-pole follower with time constant tau_us
 * microseconds (1/N for N frames, the first-order 1 - e^(-1/N)), in
 * [1, 65536]. */
static inline uint32_t dsp_per_tau(int rate, uint32_t tau_us)
{
    uint64_t n = (uint64_t)tau_us * (uint64_t)rate; /* frames * 10^6 */
    uint64_t c = n ? ((uint64_t)Q16 * 1000000u + n / 2) / n : Q16;
    return c < 1 ? 1 : c > Q16 ? Q16 : (uint32_t)c;
}

/* Q16 coefficient of a one-pole low-pass at fc Hz: 2 pi fc / rate, at
 * most 0.9 (stable and still a low-pass near Nyquist). */
static inline uint32_t dsp_lowpass(int rate, uint32_t fc)
{
    uint64_t c = (uint64_t)fc * 411775u / (uint64_t)rate; /* 411775 = 2 pi * 65536 */
    return c > 58982 ? 58982 : (uint32_t)c;
}

/* Frames in ms milliseconds (at least 1). */
static inline int32_t dsp_frames_in(int rate, int32_t ms)
{
    int64_t n = (int64_t)rate * ms / 1000;
    return n < 1 ? 1 : (int32_t)n;
}

/* White noise in [-32768, 32767]. */
static inline int32_t dsp_white(uint32_t *s)
{
    return (int32_t)(rpl_xorshift32(s) >> 16) - 32768;
}

/*
 * sin(2 pi phase / 2^32) in Q15, [-32768, 32768]: on each quarter turn an
 * odd polynomial in x = the position in the quarter, 0..1,
 *   sin(pi x / 2) ~ a x - b x^3 + c x^5,  a + c - b = 1 (exact at the peak)
 * fitted by least squares: error at most 1.1e-4 (harmonics near -80 dB).
 * Every intermediate is positive and below 2^31.
 */
static inline int32_t dsp_sine(uint32_t phase)
{
    int32_t f = (int32_t)((phase >> 15) & 0x7FFF); /* Q15 within the quarter */
    int32_t x = (phase & 0x40000000u) ? 32768 - f : f;
    int32_t x2 = (x * x) >> 15;
    int32_t t = 21041 - ((x2 * 2352) >> 15);
    t = 51457 - ((x2 * t) >> 15);
    int32_t y = (x * t) >> 15;
    return (phase & 0x80000000u) ? -y : y;
}

#endif
