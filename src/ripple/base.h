/* ripple/base.h - libripple: conventions, status codes, version, kernels (part of ripple.h). */
#ifndef RIPPLE_BASE_H
#define RIPPLE_BASE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Conventions, for every function below.
 *
 * Errors, one rule: a function that can fail returns an rpl_status and,
 * on failure, leaves its objects as they were.  Every object keeps the
 * detail of its last failure, one line naming what was wrong, read with
 * its rpl_X_error getter ("" if none; a message saying the handle is
 * NULL for NULL); rpl_strerror names a status.  The library never prints
 * and never exits.
 *
 * Constructors, one form: rpl_status rpl_X_create(args..., rpl_X_t **out)
 * (and rpl_snapshot_read/_parse, rpl_show_read/_parse).  A constructor
 * sets *out to a handle whenever memory allows, even when it fails, so
 * that rpl_X_error says why; a failed handle does nothing but report and
 * be destroyed (every other function treats it like a NULL handle:
 * RPL_EINVAL, 0 or NULL); always destroy it.  *out is NULL only with
 * RPL_ENOMEM or a NULL out.  Release is always rpl_X_destroy.
 *
 * NULL: any handle may be NULL.  A function that returns a status then
 * gives RPL_EINVAL; a getter gives 0 or NULL as documented; destroy and
 * other void functions do nothing.  Sizes, radii, strengths and pitches
 * out of range give RPL_EINVAL, never a crash.
 *
 * Ownership: a create function's object belongs to the caller until its
 * destroy function; pointers the library returns (buffers,
 * strings) belong to the object they came from and stay valid while it
 * lives, unless said otherwise.  Data passed in is copied unless said
 * otherwise.
 *
 * Threads: a field, and the renderers, autopilots and show players that
 * use it, belong to one thread at a time (the field runs its own worker threads inside
 * step and render).  Different fields are independent.  A backdrop is
 * never changed after creation and may be shared by any threads and
 * fields.  The functions without a handle (kernels, image fitting,
 * strings) may be called from any thread.
 */

/* Marks a function whose result must be looked at: every function that
 * returns an rpl_status, so a failure cannot pass unseen.  GCC and clang
 * warn on a call that drops it (a (void) cast does not silence GCC); other
 * compilers see nothing. */
#if defined(__GNUC__) || defined(__clang__)
#define RPL_NODISCARD __attribute__((warn_unused_result))
#else
#define RPL_NODISCARD
#endif

#define RPL_VERSION_MAJOR 1
#define RPL_VERSION_MINOR 1
#define RPL_VERSION_PATCH 0
#define RPL_VERSION "1.1.0"

/* The library's version as "MAJOR.MINOR.PATCH": that of the library
 * running, which may be newer than the RPL_VERSION compiled against. */
const char *rpl_version(void);

/*
 * The height contract.
 *
 * Every height stored in a field lies in [RPL_HEIGHT_MIN, RPL_HEIGHT_MAX].
 * The step clamps its result into that range, drops clamp their weight into
 * it and a snapshot holding anything outside it is refused.  With inputs in
 * range every intermediate of the rule fits in int16:
 *   l + r + u + d        in [-32768, 32764]
 *   (...) >> 1           in [-16384, 16382]
 *   ... - prev           in [-24575, 24574]
 * so a 16-bit SIMD lane computes exactly what the scalar code does and no
 * value ever wraps around.
 */
#define RPL_HEIGHT_MIN (-8192)
#define RPL_HEIGHT_MAX 8191

/* Field sizes accepted by rpl_sim_create (each side). */
#define RPL_DIM_MIN 3
#define RPL_DIM_MAX 8192

/* Largest stone radius accepted by rpl_sim_drop / rpl_sim_trail. */
#define RPL_RADIUS_MAX 256

/* Refraction strength is fixed point with 4 fraction bits: the pixel offset
 * is (height difference * strength) >> 4.  16 is the classic 1:1 mapping. */
#define RPL_STRENGTH_ONE 16
#define RPL_STRENGTH_MAX 64

typedef enum rpl_status {
    RPL_OK = 0,
    RPL_EINVAL,  /* an argument is out of range or NULL */
    RPL_ENOMEM,  /* allocation failed */
    RPL_EIO,     /* a file could not be opened, read or written */
    RPL_EFORMAT, /* a file's contents are not a valid snapshot or show */
    RPL_ESIZE,   /* a snapshot's size does not match the field */
    RPL_ENOTSUP  /* a requested kernel path is not available here */
} rpl_status;

/* A short English phrase for a status code; never NULL. */
const char *rpl_strerror(rpl_status status);

/* ---- kernels ---------------------------------------------------------- */

typedef struct rpl_kernels rpl_kernels_t; /* defined in kernels/kernels.h */

/* Finds the kernel table of a path: "c" (the scalar reference, always
 * there), "mmx", "sse2", "avx2", or NULL / "auto" for the best one this
 * CPU runs (from CPUID), unless the environment variable RIPPLE_SIMD
 * names a path, which "auto" then means.  RPL_EINVAL: no such path;
 * RPL_ENOTSUP: a path this build or this CPU lacks. */
RPL_NODISCARD rpl_status rpl_kernels_find(const char *name, const rpl_kernels_t **out);
/* The same, NULL on failure. */
const rpl_kernels_t *rpl_kernels_get(const char *name);
const char *rpl_kernels_name(const rpl_kernels_t *k);
/* The i-th path name ripple knows (built here or not), NULL past the end. */
const char *rpl_kernels_known(int i);

#ifdef __cplusplus
}
#endif

#endif
