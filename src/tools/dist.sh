#!/bin/sh
# dist.sh - the downloads: the Windows zip and the 32-bit Linux tarball, each written whole or not at all.
# usage: sh src/tools/dist.sh win32 OUT.zip VERSION WINBUILD
#        sh src/tools/dist.sh i386 OUT.tar.gz VERSION DEMO LIBDIR...
#
# win32: ripple.exe, ripple-bench.exe, libripple.dll, SDL2.dll and
# SDL2_image.dll (from WINBUILD/prefix/bin), assets/ and a README.txt for
# Windows users (src/tools/README-windows.txt, CRLF line ends), in a folder
# ripple-VERSION-win32 inside the zip.
# i386: the 32-bit demo as ripple.bin, a launcher `ripple` that puts lib/
# first on LD_LIBRARY_PATH, lib/ with the libraries the demo needs that a
# 32-bit Linux does not bring by itself (SDL2, SDL2_image, cJSON: the
# first LIBDIR that has each; Chipmunk2D is linked in; the rest, the C library and
# what Debian's SDL2 would load, come from the system), assets/ and a
# README.txt, in a folder ripple-VERSION-i386-linux.
# The archive is made in a temporary name beside OUT and renamed onto it:
# an interrupted run leaves the old OUT or none, never half of one.
set -eu
usage="usage: dist.sh win32 OUT.zip VERSION WINBUILD | dist.sh i386 OUT.tar.gz VERSION DEMO LIBDIR..."
[ $# -ge 4 ] || { echo "$usage" >&2; exit 2; }
KIND=$1 OUT=$2 VERSION=$3
shift 3
case $KIND in win32|i386) ;; *) echo "dist: unknown kind '$KIND' ($usage)" >&2; exit 2;; esac

outdir=$(dirname "$OUT")
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
TMP=$(mktemp -d "$outdir/.dist-XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM HUP

# the assets the demo looks for beside itself
copy_assets() {
    mkdir -p "$1/assets/shows" "$1/assets/music"
    for f in assets/*.png; do cp "$f" "$1/assets/"; done
    cp assets/shows/*.show "$1/assets/shows/"
    cp assets/music/*.score "$1/assets/music/"
}

if [ "$KIND" = win32 ]; then
    WIN=$1
    command -v zip >/dev/null 2>&1 || { echo "dist: zip is not installed (apt-get install zip)"; exit 1; }
    top=ripple-$VERSION-win32
    d=$TMP/$top
    mkdir -p "$d"
    for f in "$WIN/ripple.exe" "$WIN/ripple-bench.exe" "$WIN/libripple.dll" \
             "$WIN/prefix/bin/SDL2.dll" "$WIN/prefix/bin/SDL2_image.dll"; do
        [ -f "$f" ] || { echo "dist: $f is missing (make ARCH=win32 builds it)"; exit 1; }
        cp "$f" "$d/"
    done
    copy_assets "$d"
    sed "s/@VERSION@/$VERSION/g" src/tools/README-windows.txt | sed 's/$/\r/' >"$d/README.txt"
    # -X: no Unix owners and times beyond the plain ones; a folder at the top
    ( cd "$TMP" && zip -q -r -X -9 out.zip "$top" )
    mv -f "$TMP/out.zip" "$OUT"
    echo "dist: $OUT ($(wc -c <"$OUT") bytes): $(cd "$d" && find . -type f | wc -l) files"
    exit 0
fi

DEMO=$1
shift
LIBDIRS=$*
[ -f "$DEMO" ] || { echo "dist: $DEMO is missing (make ARCH=i386 builds it)"; exit 1; }
command -v readelf >/dev/null 2>&1 || { echo "dist: readelf is not installed (apt-get install binutils)"; exit 1; }
top=ripple-$VERSION-i386-linux
d=$TMP/$top
mkdir -p "$d/lib"
cp "$DEMO" "$d/ripple.bin"
copy_assets "$d"

# The libraries to ship: the demo's own (and theirs, in turn) among
# SDL2, SDL2_image and cJSON (and Chipmunk2D, were it ever linked
# shared: it is linked in), each from the first LIBDIR that has it.
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
todo=$(needed "$DEMO")
shipped=""
sdl_from=""
for _ in 1 2 3 4 5 6 7 8; do
    next=""
    for lib in $todo; do
        case " $shipped " in *" $lib "*) continue;; esac
        case $lib in libSDL2*|libcjson*|libchipmunk*) ;; *) continue;; esac
        found=""
        for dir in $LIBDIRS; do
            if [ -e "$dir/$lib" ]; then found=$dir/$lib; break; fi
        done
        [ -n "$found" ] || { echo "dist: $lib, which the demo needs, is in none of: $LIBDIRS"; exit 1; }
        cp -L "$found" "$d/lib/$lib"
        case $lib in libSDL2-2.0*) sdl_from=$(dirname "$found");; esac
        shipped="$shipped $lib"
        next="$next $(needed "$found")"
    done
    todo=$next
done
system=$(for f in "$DEMO" "$d"/lib/*; do needed "$f"; done | sort -u |
    while read -r l; do [ -e "$d/lib/$l" ] || printf '%s ' "$l"; done)

# Whether the SDL2 shipped runs without SSE: no instruction of it names
# an XMM register.
if [ -e "$d/lib/libSDL2-2.0.so.0" ] && objdump -d "$d/lib/libSDL2-2.0.so.0" | grep -q '%xmm'; then
    sse_note="is Debian's, which uses SSE: it needs a Pentium III or later"
    sse=with
else
    sse_note="holds no SSE instruction: a Pentium II runs it"
    sse=without
fi

shipped_list=$(echo "$shipped" | sed 's/^ *//; s/ *$//; s/  */, /g')
system_list=$(echo "$system" | sed 's/^ *//; s/ *$//; s/  */, /g')

cat >"$d/ripple" <<'EOF2'
#!/bin/sh
# ripple - starts the 32-bit demo with the libraries beside it (lib/) before the system's.
here=$(cd "$(dirname "$0")" && pwd)
LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" exec "$here/ripple.bin" "$@"
EOF2
chmod 755 "$d/ripple" "$d/ripple.bin"
cat >"$d/README.txt" <<EOF2
ripple $VERSION for 32-bit x86 Linux
====================================

Retro software-rendered water: drop stones, watch them ripple.

Run it from this folder, or from anywhere by its path:

    ./ripple                     the pool in a window
    ./ripple --help              every flag
    ./ripple --benchmark         the timedemo in a window; its report is
                                 printed on the terminal
    ./ripple --benchmark --headless --share >result.txt
                                 the timedemo without a window, its result
                                 as one line in result.txt

The launcher (ripple) runs ripple.bin with lib/ first on LD_LIBRARY_PATH:
$shipped_list ship here; from the system it takes
$system_list.

The demo is built for an i586 and chooses MMX or plain C itself; the
SDL2 in lib/ $sse_note.

Keys: F1 or H shows them all.  Space pauses, C calms the water, R rain,
A the show, S saves a screenshot (ripple-0001.png, ...), Tab the side
view, F fullscreen, Esc quits.
EOF2

tar -C "$TMP" --owner=0 --group=0 --numeric-owner -czf "$TMP/out.tar.gz" "$top"
mv -f "$TMP/out.tar.gz" "$OUT"
echo "dist: $OUT ($(wc -c <"$OUT") bytes); shipped:$shipped (SDL2 from $sdl_from, $sse SSE); from the system: $system"
