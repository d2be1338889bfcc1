/* scene/chipmunk_det.h - Chipmunk2D's maths macros (cpfsin, cpfcos, cpfatan2...) sent to the deterministic functions of core/base/dmath.h, so the side scene's bodies move the same on every platform. */
#ifndef RPL_SCENE_CHIPMUNK_DET_H
#define RPL_SCENE_CHIPMUNK_DET_H

/* chipmunk_types.h defines the macros unconditionally, as the C
 * library's functions; its include guard keeps a later inclusion from
 * defining them again, so whatever includes this header first (the
 * scene's files, and Chipmunk's own files where they are compiled from
 * source, by -include) sees these.  Where Chipmunk's object code comes
 * prebuilt (Debian's libchipmunk.a), its calls of the C library's
 * functions are renamed to the same functions by objcopy instead
 * (mk/chipmunk.mk).  sqrt, fmod, floor and ceil are exact in every C
 * library and stay. */
#include <chipmunk/chipmunk_types.h>

#include "core/base/dmath.h"

#if !CP_USE_DOUBLES
#error "the side scene needs Chipmunk2D built with doubles (CP_USE_DOUBLES 1)"
#endif

#undef cpfsin
#undef cpfcos
#undef cpfacos
#undef cpfatan2
#undef cpfexp
#undef cpfpow
#define cpfsin rpl_sin
#define cpfcos rpl_cos
#define cpfacos rpl_acos
#define cpfatan2 rpl_atan2
#define cpfexp rpl_exp
#define cpfpow rpl_pow

#endif
