#!/bin/sh
# i386-sysroot.sh - the 32-bit demo's libraries (SDL2, SDL2_image, zlib and all they load) unpacked into a folder, nothing installed.
# usage: sh src/tools/i386-sysroot.sh DIR
#
# The way round a refused co-install: when Debian's i386 lists lag its
# amd64 ones, libsdl2-dev:i386 cannot be installed beside libsdl2-dev
# (Multi-Arch: same wants one version on both).  Here apt works on a
# configuration of its own for i386 alone (its lists, cache and an empty
# dpkg status under DIR.apt, the machine's sources), downloads the packages
# with every dependency, and dpkg -x unpacks them into DIR.  Needs no root
# and touches nothing outside DIR and DIR.apt.  The Makefile then builds
# with -I/-L/-rpath-link into DIR and runs with qemu-i386 -L DIR.
# DIR/.complete marks a finished sysroot; a second run does nothing.
set -eu
DIR=${1:?usage: i386-sysroot.sh DIR}
# The libraries with all they need to run, and their -dev packages alone
# (headers, .so links and .pc files: the link needs nothing more).
LIBS="libsdl2-2.0-0 libsdl2-image-2.0-0 zlib1g"
DEVS="libsdl2-dev libsdl2-image-dev zlib1g-dev"
[ -e "$DIR/.complete" ] && exit 0
for c in apt-get dpkg; do
    if ! command -v $c >/dev/null 2>&1; then
        echo "i386-sysroot: $c is not installed: the 32-bit SDL2 can only be fetched from Debian's archive"
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
APT::Architecture "i386";
APT::Architectures { "i386"; };
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
echo "i386-sysroot: fetching the i386 lists"
if ! apt-get update -q >"$APTDIR/update.log" 2>&1 || grep -q '^[WE]: Failed\|^Err:' "$APTDIR/update.log"; then
    cat "$APTDIR/update.log"
    echo "i386-sysroot: cannot read Debian's i386 lists (no network?)"
    exit 1
fi
echo "i386-sysroot: downloading $DEVS, $LIBS and what they need"
# shellcheck disable=SC2086 # one word a package
if ! apt-get install -q -y --download-only --no-install-recommends $LIBS >"$APTDIR/download.log" 2>&1 ||
    ! (cd "$APTDIR/archives" && apt-get download -q $DEVS) >>"$APTDIR/download.log" 2>&1; then
    tail -n 20 "$APTDIR/download.log"
    echo "i386-sysroot: cannot download the i386 packages"
    exit 1
fi
n=0
for deb in "$APTDIR"/archives/*.deb; do
    dpkg -x "$deb" "$DIR"
    n=$((n + 1))
done
# One /usr, as on the machine: qemu-i386 -L looks a library up in DIR at
# the path the loader asks for, and the loader asks for /lib/... as often as
# /usr/lib/...
if [ -d "$DIR/lib" ] && ! [ -L "$DIR/lib" ]; then
    mkdir -p "$DIR/usr/lib"
    cp -a "$DIR/lib/." "$DIR/usr/lib/"
    rm -rf "${DIR:?}/lib"
    ln -s usr/lib "$DIR/lib"
fi
# An empty cache of the loader's: the machine's own /etc/ld.so.cache would
# send it to the machine's i386 libraries when there are some; this one
# leaves it to search DIR's folders, then the machine's.
mkdir -p "$DIR/etc"
: >"$DIR/etc/ld.so.cache"
# Absolute links (libz.so -> /lib/i386-linux-gnu/libz.so.1...) would point
# at the machine's own files: point them inside the sysroot.
find "$DIR" -type l | while read -r link; do
    to=$(readlink "$link")
    case $to in
        /*) ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" "$DIR$to")" "$link";;
    esac
done
broken=$(find "$DIR" -type l ! -exec test -e {} \; -print | head -n 3)
if [ -n "$broken" ]; then
    echo "i386-sysroot: links that lead nowhere: $broken"
    exit 1
fi
rm -rf "$APTDIR/archives"
touch "$DIR/.complete"
echo "i386-sysroot: $n packages unpacked into $DIR"
