#!/bin/sh
# sysroot.sh - Debian packages of another architecture (and all they load) unpacked into a folder, nothing installed.
# usage: sh src/tools/sysroot.sh i386|arm64|armhf DIR SET...
#
# SET names what to fetch:
#   sdl   the demo's libraries: SDL2, SDL2_image, zlib (the 32-bit demo's,
#         when libsdl2-dev:i386 cannot be installed beside libsdl2-dev:
#         Multi-Arch: same wants one version on both, and Debian's i386
#         lists now and then lag the amd64 ones)
#   libc  the C library, libgcc and the kernel's headers, for clang
#         --sysroot=DIR (the ARM builds need no cross package installed)
#   test  the test and bench libraries: cmocka, cJSON, Chipmunk2D
#   wine  Wine's 32-bit half (wine32:i386 and the X11 libraries it loads),
#         to run the win32 build where wine32:i386 is not installed (its
#         Multi-Arch: same libraries want the amd64 ones' versions, which
#         the i386 lists now and then lag).  Run natively by the machine's
#         own i386 loader (libc6:i386), with LD_LIBRARY_PATH into DIR: so
#         the C library stays the machine's (a loader and a libc of two
#         versions do not mix), and libc6 is not unpacked here.
# Here apt works on a configuration of its own for that architecture alone
# (its lists, cache and an empty dpkg status under DIR.apt, the machine's
# sources), downloads the packages with every dependency, and dpkg -x
# unpacks them into DIR.  Needs no root and touches nothing outside DIR and
# DIR.apt.  The Makefile then builds with -I/-L/-rpath-link (or --sysroot)
# into DIR and runs with qemu-user -L DIR.  DIR/.complete-SET marks a
# finished set; a second run with no set missing does nothing.
set -eu
usage="usage: sysroot.sh i386|arm64|armhf DIR SET..."
ARCH=${1:?$usage}
DIR=${2:?$usage}
shift 2
[ $# -gt 0 ] || { echo "$usage"; exit 2; }
case $ARCH in
    i386 | arm64 | armhf) ;;
    *) echo "sysroot: unknown architecture '$ARCH' ($usage)"; exit 2;;
esac
# A set missing makes the folder anew with it and every set it held
# before: packages are never unpacked over an earlier sysroot.
want=""
missing=0
for set in "$@" $(cd "$DIR" 2>/dev/null && ls -A | sed -n 's/^\.complete-//p'); do
    case " $want " in *" $set "*) continue;; esac
    want="$want $set"
    [ -e "$DIR/.complete-$set" ] || missing=1
done
[ "$missing" = 1 ] || exit 0
# The libraries of each set with all they need to run, and their -dev
# packages alone (headers, .so links and .pc files: the link needs nothing
# more).  libc takes every dependency of its -dev packages.
LIBS=""
DEVS=""
for set in $want; do
    case $set in
        sdl) LIBS="$LIBS libsdl2-2.0-0 libsdl2-image-2.0-0 zlib1g"
             DEVS="$DEVS libsdl2-dev libsdl2-image-dev zlib1g-dev";;
        libc) LIBS="$LIBS libc6-dev libgcc-12-dev linux-libc-dev";;
        test) LIBS="$LIBS libcmocka0 libcjson1 libchipmunk7"
              DEVS="$DEVS libcmocka-dev libcjson-dev libchipmunk-dev";;
        wine) LIBS="$LIBS wine32 libxcursor1 libxi6 libxrandr2 libxinerama1 libxrender1 libxfixes3 libxext6
                   libxcomposite1 libxxf86vm1";;
        *) echo "sysroot: unknown set '$set' (sdl, libc, test, wine)"; exit 2;;
    esac
done
for c in apt-get dpkg; do
    if ! command -v $c >/dev/null 2>&1; then
        echo "sysroot: $c is not installed: the $ARCH libraries can only be fetched from Debian's archive"
        exit 1
    fi
done
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
APTDIR=$DIR.apt
rm -rf "$APTDIR" "$DIR"
mkdir -p "$DIR" "$APTDIR/lists/partial" "$APTDIR/archives/partial"
: >"$APTDIR/status"
cat >"$APTDIR/apt.conf" <<EOF
APT::Architecture "$ARCH";
APT::Architectures { "$ARCH"; };
Dir::State "$APTDIR";
Dir::State::lists "$APTDIR/lists";
Dir::State::status "$APTDIR/status";
Dir::Cache "$APTDIR";
Dir::Cache::archives "$APTDIR/archives";
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
Debug::NoLocking "true";
APT::Sandbox::User "$(id -un)";
Acquire::Retries "3";
Acquire::http::Timeout "30";
EOF
export APT_CONFIG="$APTDIR/apt.conf"
echo "sysroot: fetching the $ARCH lists"
# A mirror in the middle of a sync serves a list whose size is not the
# one its index announces, for a minute or so (and a stale mirror for
# longer): try again a few times.  When in the end only the security
# suite's lists fail, the sysroot is made from the release's own, which
# a test build needs no more than it needs the updates.
try=1
while ! apt-get update -q >"$APTDIR/update.log" 2>&1 || grep -q '^[WE]: Failed\|^Err:' "$APTDIR/update.log"; do
    if [ $try -ge 3 ]; then
        if grep '^[WE]: Failed\|^Err:' "$APTDIR/update.log" | grep -qv -- '-security'; then
            cat "$APTDIR/update.log"
            echo "sysroot: cannot read Debian's $ARCH lists (no network?)"
            exit 1
        fi
        echo "sysroot: Debian's security lists for $ARCH cannot be read; the release's alone are used"
        break
    fi
    echo "sysroot: the $ARCH lists failed (try $try; a mirror syncing?), again in $((try * 20)) s"
    sleep $((try * 20))
    try=$((try + 1))
done
echo "sysroot: downloading$want for $ARCH: $DEVS $LIBS and what they need"
# shellcheck disable=SC2086 # one word a package
if ! apt-get install -q -y --download-only --no-install-recommends $LIBS >"$APTDIR/download.log" 2>&1 ||
    ! { [ -z "$DEVS" ] || (cd "$APTDIR/archives" && apt-get download -q $DEVS); } >>"$APTDIR/download.log" 2>&1; then
    tail -n 20 "$APTDIR/download.log"
    echo "sysroot: cannot download the $ARCH packages"
    exit 1
fi
n=0
for deb in "$APTDIR"/archives/*.deb; do
    case " $want :${deb##*/}" in
        *" wine "*:libc6_*) continue;;
    esac
    dpkg -x "$deb" "$DIR"
    n=$((n + 1))
done
# One /usr, as on the machine: qemu-user -L looks a library up in DIR at
# the path the loader asks for, and the loader asks for /lib/... as often as
# /usr/lib/...
if [ -d "$DIR/lib" ] && ! [ -L "$DIR/lib" ]; then
    mkdir -p "$DIR/usr/lib"
    cp -a "$DIR/lib/." "$DIR/usr/lib/"
    rm -rf "${DIR:?}/lib"
    ln -s usr/lib "$DIR/lib"
fi
# An empty cache of the loader's: the machine's own /etc/ld.so.cache would
# send it to the machine's own libraries of that architecture when there are some; this one
# leaves it to search DIR's folders, then the machine's.
mkdir -p "$DIR/etc"
: >"$DIR/etc/ld.so.cache"
# Absolute links (libz.so -> /lib/<triple>/libz.so.1...) would point
# at the machine's own files: point them inside the sysroot.
find "$DIR" -type l | while read -r link; do
    to=$(readlink "$link")
    case $to in
        /*) ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" "$DIR$to")" "$link";;
    esac
done
broken=$(find "$DIR" -type l ! -exec test -e {} \; -print | head -n 3)
if [ -n "$broken" ]; then
    echo "sysroot: links that lead nowhere: $broken"
    exit 1
fi
# What libwine's postinst does on an install: Debian's Wine takes zlib1.dll
# from libz-mingw-w64, marked as one of Wine's own builtin DLLs (its
# user32.dll imports it).
case " $want " in *" wine "*)
    for a in i686:i386 x86_64:x86_64; do
        from=$DIR/usr/${a%%:*}-w64-mingw32/lib/zlib1.dll
        to=$DIR/usr/lib/i386-linux-gnu/wine/${a#*:}-windows/zlib1.dll
        [ -e "$from" ] && [ -d "${to%/*}" ] || { echo "sysroot: no $from for Wine"; exit 1; }
        { head -c 64 "$from"; printf 'Wine builtin DLL'; head -c 16 /dev/zero; tail -c +97 "$from"; } >"$to"
    done;;
esac
rm -rf "$APTDIR/archives"
for set in $want; do touch "$DIR/.complete-$set"; done
echo "sysroot: $n packages unpacked into $DIR"
