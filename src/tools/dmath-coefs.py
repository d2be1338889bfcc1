#!/usr/bin/env python3
"""dmath-coefs.py - prints the constants of src/core/base/dmath.c, computed at 200 digits with mpmath.

usage: dmath-coefs.py > constants.txt   (run once; the output was pasted into dmath.c)

Every value is printed as a C99 hexadecimal literal, so that no compiler's
decimal conversion stands between the value here and the bits in the
program.  A "hi/lo" pair is the value rounded to a double, then the rest
rounded to a double.  The parts of pi/2 and ln 2 that multiply an integer
are cut short (trailing zero bits) so that the product is exact.
"""
from mpmath import mp, mpf, pi, log, atan, factorial, floor, ldexp

mp.dps = 200


def d(x):
    """x rounded to the nearest double, as a Python float (mpmath rounds to nearest)."""
    return float(x)


def hexs(x):
    return float(x).hex()


def split(x):
    hi = d(x)
    lo = d(x - mpf(hi))
    return hi, lo


def cut(x, bits):
    """x truncated to `bits` significant bits (toward zero)."""
    e = int(floor(log(abs(x), 2)))
    scale = mpf(2) ** (bits - 1 - e)
    return floor(x * scale) / scale


def show(name, x):
    print(f"{name:12s} {hexs(x)}  /* {mp.nstr(mpf(x), 20)} */")


print("-- pi/2 in three parts (33 + 33 bits, then the rest) and 2/pi")
p2 = pi / 2
c1 = cut(p2, 33)
c2 = cut(p2 - c1, 33)
c3 = d(p2 - c1 - c2)
show("PIO2_1", c1)
show("PIO2_2", c2)
show("PIO2_3", c3)
show("TWO_OVER_PI", 2 / pi)
show("TWO_PI", 2 * pi)

print("-- 1/n! (sin: odd n to 17, cos: even n to 16, exp: n to 13), +-1/(2n+1) for atan")
for n in range(2, 18):
    show(f"INV_FACT{n}", 1 / factorial(n))
for n in range(1, 10):
    show(f"INV_ODD{2 * n + 1}", mpf(1) / (2 * n + 1))

print("-- atan2's table: for c in 0, 1/4, 1/2, 3/4, 1, the angles atan(c), pi/2 - atan(c),")
print("-- pi - atan(c), pi/2 + atan(c), each hi, lo")
for c in [mpf(0), mpf(1) / 4, mpf(1) / 2, mpf(3) / 4, mpf(1)]:
    a = atan(c)
    row = []
    for v in (a, pi / 2 - a, pi - a, pi / 2 + a):
        hi, lo = split(v)
        row += [hi.hex(), lo.hex()]
    print("    {" + ", ".join(row) + "},  /* c = " + mp.nstr(c, 4) + " */")

print("-- ln 2 (42 bits, then the rest), 1/ln 2")
l1 = cut(log(2), 42)
show("LN2_HI", l1)
show("LN2_LO", d(log(2) - l1))
show("INV_LN2", 1 / log(2))

print("-- log(j/64) for j = 45 .. 91, hi, lo")
for j in range(45, 92):
    hi, lo = split(log(mpf(j) / 64))
    print(f"    {{{hi.hex()}, {lo.hex()}}},  /* {j}/64 */")
