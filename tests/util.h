/* util.h - helpers shared by the ripple test programs (tests/test_*.c), built once as tests/util.o. */
#ifndef RIPPLE_TESTS_UTIL_H
#define RIPPLE_TESTS_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ripple.h"

/*
 * Failures inside these helpers fail the running cmocka test, so callers
 * need not check what they return.  Expected values in the tests are worked
 * out by hand or computed by small references written from the documented
 * formulas (ripple.h, kernels/kernels.h); the references never call the
 * core's own code.
 */

/* cmocka's assert_memory_equal compares a byte at a time, in a loop that
 * under an emulated CPU was the most of some suites' time (test_field's
 * frames): memcmp first, and cmocka's check, with its report, only when
 * the bytes differ.  Each argument is still read once. */
#ifdef assert_memory_equal
#undef assert_memory_equal
#define assert_memory_equal(a, b, size)                                                        \
    do {                                                                                       \
        const void *const mem_a_ = (a), *const mem_b_ = (b);                                   \
        const size_t mem_n_ = (size);                                                          \
        if (memcmp(mem_a_, mem_b_, mem_n_) != 0)                                               \
            _assert_memory_equal(mem_a_, mem_b_, mem_n_, __FILE__, __LINE__);                  \
    } while (0)
#endif

/* ---- reading a field ------------------------------------------------- */

/* The tests read a field only through these, so that a change of the
 * field's interface is followed here and nowhere else. */
static inline int width_of(const rpl_sim_t *s) { return rpl_sim_width(s); }
static inline int height_of(const rpl_sim_t *s) { return rpl_sim_height(s); }
/* The heights now, and one step ago (read again after every step: the
 * step swaps the buffers). */
static inline const int16_t *cur_of(const rpl_sim_t *s) { return rpl_sim_heights(s); }
static inline const int16_t *prev_of(const rpl_sim_t *s) { return rpl_sim_previous(s); }
static inline uint64_t steps_of(const rpl_sim_t *s) { return rpl_sim_steps(s); }
static inline const rpl_kernels_t *kern_of(const rpl_sim_t *s) { return rpl_sim_kernels(s); }
static inline int threads_of(const rpl_sim_t *s) { return rpl_sim_threads(s); }

/* ---- seeded generator -------------------------------------------------- */

/* splitmix64: the tests' own generator, independent of the core's, so a
 * seed gives the same cases whatever the core does with its generator. */
uint64_t rnd_next(uint64_t *s);
/* Uniform integer in [lo, hi] (the span is tiny next to 2^64, so the
 * modulo bias does not matter). */
int rnd_range(uint64_t *s, int lo, int hi);
/* x % m (m > 0) without a division of 64 bits when m <= 2^16: the way
 * rnd_range takes it on a 32-bit CPU. */
uint64_t rnd_mod(uint64_t x, uint64_t m);

/* ---- arithmetic of the references -------------------------------------- */

/* Floor division by 2^k written without >>, so the references do not
 * depend on how the compiler shifts negative numbers. */
int64_t floor_div_pow2(int64_t a, int k);
int64_t clamp64(int64_t v, int64_t lo, int64_t hi);
/* The 8-bit channel of px at bit `shift`, plus d, saturated to [0, 255]
 * and left at its place (the XRGB8888 shading of one channel). */
uint32_t sat_add(uint32_t px, int shift, int d);

/* ---- memory ------------------------------------------------------------ */

/* malloc that fails the test rather than return NULL (n may be 0). */
void *xmalloc(size_t n);

/* ---- fields and height planes ------------------------------------------ */

/* A still field of w x h; checks the status and the size it reports. */
rpl_sim_t *new_sim(int w, int h, uint64_t seed);
/* An autopilot from seed; the test fails if it cannot be made. */
rpl_autopilot_t *new_autopilot(uint64_t seed);
/* Cells in a field's buffer. */
size_t cells(const rpl_sim_t *sim);
/* Cell (x, y) of a plane of the field's size. */
int16_t at(const rpl_sim_t *sim, const int16_t *p, int x, int y);

/* A zeroed w x h plane; free() it. */
int16_t *new_plane(int w, int h);
/* A copy of n heights, to compare with after the field moved on; free() it. */
int16_t *copy_plane(const int16_t *src, size_t n);
/* Fills the interior with uniform heights in [lo, hi], border 0. */
void random_plane(int16_t *p, int w, int h, uint64_t *s, int lo, int hi);
/* Puts a random in-contract state (both buffers) into sim. */
void random_state(rpl_sim_t *sim, uint64_t seed, int lo, int hi);

/* Each names the first offending cell. */
void assert_plane_equal(const int16_t *a, const int16_t *b, size_t n);
void assert_border_zero(const int16_t *p, int w, int h);
void assert_heights_in_range(const int16_t *p, size_t n);

/* ---- pictures and backdrops -------------------------------------------- */

/* w x h random XRGB8888 pixels, one in four with every channel saturated
 * (all 0 or all 255) so that clamps and saturating adds get exercised;
 * free() it. */
uint32_t *random_bg(int w, int h, uint64_t seed);

/* Every pixel format, in enum order. */
extern const rpl_format all_formats[3];

/* A backdrop of w x h pixels in format f; checks the status and that it
 * reports the format and size it was given. */
rpl_backdrop_t *new_backdrop(const uint32_t *px, int w, int h, rpl_format f);

/* ---- CRC-32 ------------------------------------------------------------ */

/* CRC-32 (IEEE 802.3: reflected, polynomial 0xEDB88320, initial value and
 * final xor 0xFFFFFFFF; crc_bytes(0, "123456789", 9) = 0xCBF43926), to pin
 * long outputs to one number.  Start with crc = 0 and chain the calls. */
uint32_t crc_bytes(uint32_t crc, const unsigned char *p, size_t n);
/* The same over int16 values as little-endian bytes, so the value does
 * not depend on the host's byte order. */
uint32_t crc_plane(uint32_t crc, const int16_t *v, size_t n);

/* ---- guard pages ------------------------------------------------------- */

/* GUARD_SLOTS reusable buffers, each between PROT_NONE pages, so that a
 * read or write one byte outside them crashes at once.  guard_slot returns
 * `len` bytes of slot `slot` flush against the trailing guard page
 * (at_end) or right after the leading one.  The bytes hold whatever the
 * slot held before (write them before use) and stay valid until the slot
 * is asked for again; guard_slots_release unmaps every slot. */
enum { GUARD_SLOTS = 4 };
unsigned char *guard_slot(int slot, size_t len, int at_end);
void guard_slots_release(void);

/* RIPPLE_TEST_QUICK set (not "0"): the slowest cases run fewer rounds.
 * tests/emulated.sh sets it for the runs under an emulated CPU, where the
 * same code has been through the full count natively already. */
static inline int test_quick(void)
{
    const char *q = getenv("RIPPLE_TEST_QUICK");
    return q && *q && strcmp(q, "0") != 0;
}

#endif
