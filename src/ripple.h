/* ripple.h - public API of libripple, the platform-free ripple core (no SDL, no printing). */
#ifndef RIPPLE_H
#define RIPPLE_H

/*
 * The whole API, one header per subsystem under ripple/ (each may also be
 * included alone; each includes what it needs):
 *   ripple/base.h    the conventions every function keeps, status codes,
 *                    the version, the height contract, the kernel paths
 *   ripple/field.h   the field: stepping, stones, rain, the wave model,
 *                    walls and edges, snapshots
 *   ripple/render.h  pixel formats, backdrops, rendering and renderers,
 *                    upscaling, fitting pictures
 *   ripple/show.h    the autopilot, shows and their players
 *   ripple/sound.h   the drip mixer
 *   ripple/side.h    side-view water: bodies, buoyancy, splashes, the side
 *                    renderer, polygon and circle fills
 */

#include "ripple/base.h"
#include "ripple/field.h"
#include "ripple/render.h"
#include "ripple/show.h"
#include "ripple/sound.h"
#include "ripple/side.h"

#endif
