/* core/base/base.c - what every room of the library leans on: the version, the
 * status names, formatted messages, the random generator and the CRC. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/base/base.h"
#include "ripple_support.h"

const char *rpl_version(void)
{
    return RPL_VERSION;
}

const char *rpl_strerror(rpl_status status)
{
    switch (status) {
    case RPL_OK: return "success";
    case RPL_EINVAL: return "invalid argument";
    case RPL_ENOMEM: return "out of memory";
    case RPL_EIO: return "input/output error";
    case RPL_EFORMAT: return "not a valid ripple file (snapshot or show)";
    case RPL_ESIZE: return "snapshot size does not match the field";
    case RPL_ENOTSUP: return "not supported on this machine";
    }
    return "unknown error";
}

/* Seeds are mixed (splitmix64) so that nearby seeds give unrelated
 * sequences and seed 0 is as good as any other. */
uint64_t rpl_seed_mix(uint64_t seed)
{
    uint64_t z = seed + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return z ? z : 0x2545F4914F6CDD1Dull;
}

uint32_t rpl_rng_next(uint64_t *s)
{
    /* xorshift64* */
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return (uint32_t)((x * 0x2545F4914F6CDD1Dull) >> 32);
}

int rpl_rng_range(uint64_t *s, int lo, int hi)
{
    if (hi <= lo)
        return lo;
    uint64_t span = (uint64_t)((int64_t)hi - lo) + 1; /* up to 2^32 */
    return (int)((int64_t)lo + (int64_t)(rpl_rng_next(s) % span));
}

/* Four bits at a time: a table of 16 words, constant, where zlib keeps
 * 256 (the timedemos take a CRC a round, not a stream).  Entry i is i
 * shifted out four bits under the polynomial (tests/test_api.c holds the
 * whole to a bitwise CRC written apart, and to the standard check value). */
static const uint32_t crc_nibble[16] = {
    0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu, 0x76DC4190u, 0x6B6B51F4u,
    0x4DB26158u, 0x5005713Cu, 0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu,
    0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu,
};

uint32_t rpl_crc32(uint32_t crc, const void *buf, size_t len)
{
    const unsigned char *b = buf;
    crc = ~crc;
    for (size_t i = 0; i < len; i++) {
        crc ^= b[i];
        crc = crc_nibble[crc & 15] ^ crc >> 4;
        crc = crc_nibble[crc & 15] ^ crc >> 4;
    }
    return ~crc;
}
