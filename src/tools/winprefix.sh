#!/bin/sh
# winprefix.sh - the Windows builds' libraries cross-built by mingw-w64 from Debian's source packages into a prefix.
# usage: sh src/tools/winprefix.sh win32|win64|linux-i386 DIR
#
# linux-i386 builds SDL2 and SDL2_image alone, the same way, for the 32-bit
# Linux demo on a Pentium II (make ARCH=i386 I386_SDL=source): gcc -m32,
# i686 code without SSE or 3DNow!, shared libraries in DIR/lib
# (libSDL2-2.0.so.0, libSDL2_image-2.0.so.0), left unstripped (the i586
# test reads their functions' names).
#
# Builds into DIR (bin/ for the DLLs, lib/ for the import and static
# libraries and the .pc files, include/):
#   SDL2 2.26.5         autotools configure (its CMake wants a C++ cross
#                       compiler); for win32 without SSE, SSE2, SSE3 and
#                       3DNow! (AMD only), so SDL2.dll runs on a Pentium II;
#                       MMX stays (every CPU the build targets has it)
#   SDL2_image 2.6.3    CMake, PNG and JPEG by its stb_image backend (no
#                       libpng): imports SDL2, KERNEL32 and msvcrt only
#   zlib 1.2.13         CMake (the dfsg source has no win32/ makefile)
#   Chipmunk2D 7.0.3    its C files compiled directly into a static library
#                       (its CMake wants C++ too); cpHastySpace.c, the
#                       pthreads space nothing here uses, left out
#   cJSON 1.7.15        one C file, a static library
#   cmocka 1.1.5        CMake, a static library for the unit suites
# The sources come from Debian's main archive with apt-get source, through
# an apt configuration of this script's own under DIR.apt (a deb-src line
# for the archive the machine's apt already uses, its own lists): nothing
# is installed on the machine and no root is needed.  DIR.src keeps the
# unpacked sources.  DIR/.built-LIB-VERSION marks a library built; a second
# run finds them all and does nothing, with or without network.  Without
# network the lists cannot be read: one line says so and the script exits 1
# (apt's timeouts are short, so it never hangs).
#
# The compilers are Debian's win32-thread mingw-w64 (gcc-mingw-w64-i686-win32
# and gcc-mingw-w64-x86-64-win32): the posix-thread runtime (winpthreads)
# imports GetTickCount64, which Windows XP lacks.
set -eu
usage="usage: winprefix.sh win32|win64|linux-i386 DIR"
ARCH=${1:?$usage}
DIR=${2:?$usage}
[ $# -eq 2 ] || { echo "$usage"; exit 2; }
case $ARCH in
    win32) HOST=i686-w64-mingw32
           # Pentium Pro code (the compiler's default: CMOV, no SSE), XP's API
           OPT="-O2 -D_WIN32_WINNT=0x0501"
           SDL_SIMD="--disable-sse --disable-sse2 --disable-sse3 --disable-3dnow";;
    win64) HOST=x86_64-w64-mingw32
           OPT="-O2"
           SDL_SIMD="--disable-3dnow";;
    linux-i386)
           # the 32-bit Linux demo's SDL2 and SDL2_image for a Pentium II:
           # i686 code (CMOV, as Debian's i386 C library), no SSE, no 3DNow!
           HOST=i686-pc-linux-gnu
           OPT="-O2 -m32 -march=i686 -mtune=generic"
           SDL_SIMD="--disable-sse --disable-sse2 --disable-sse3 --disable-3dnow";;
    *) echo "winprefix: unknown architecture '$ARCH' ($usage)"; exit 2;;
esac

# LIB:DEBIAN-SOURCE:UPSTREAM-VERSION, built in this order (SDL2_image
# needs SDL2).
LIBS="zlib:zlib:1.2.13 sdl2:libsdl2:2.26.5 sdl2-image:libsdl2-image:2.6.3 chipmunk:chipmunk:7.0.3
      cjson:cjson:1.7.15 cmocka:cmocka:1.1.5"

# linux-i386: the 32-bit Linux demo's SDL2 and SDL2_image alone (the rest
# is Debian's i386 packages), built by the machine's gcc with -m32.
if [ "$ARCH" = linux-i386 ]; then
    LIBS="sdl2:libsdl2:2.26.5 sdl2-image:libsdl2-image:2.6.3"
    TOOLS="gcc ar"
    CC="gcc -m32"
    # The machine's i386 packages (or, given I386_LIBDIR, a sysroot's):
    # configure finds what X11 and the sound servers need there, and SDL
    # loads them at run time.  The X11 video driver and ALSA and
    # PulseAudio are what a Pentium II box has; Wayland, KMS/DRM, Vulkan,
    # the input methods and the newer sound servers stay out.
    I386_LIBDIR=${I386_LIBDIR:-/usr/lib/i386-linux-gnu}
    export PKG_CONFIG_LIBDIR="$I386_LIBDIR/pkgconfig:/usr/share/pkgconfig"
    export LDFLAGS="-L$I386_LIBDIR"
    # X11 named, not probed: configure's probe links -lX11, and a sysroot
    # holds the libraries SDL loads (libX11.so.6...) without the link-time
    # libX11.so; the headers are the machine's (libsdl2-dev brings them).
    SDL_MORE="--build=$(gcc -dumpmachine) --x-includes=/usr/include --x-libraries=$I386_LIBDIR
        --disable-ssemath --disable-video-wayland --disable-video-kmsdrm
        --disable-video-vulkan --disable-video-opengles --disable-ibus --disable-fcitx --disable-pipewire
        --disable-jack --disable-sndio --disable-esd --disable-arts --disable-nas --disable-hidapi
        --disable-libdecor --disable-rpath"
else
    TOOLS="$HOST-gcc $HOST-ar $HOST-windres"
    CC=$HOST-gcc
    SDL_MORE=""
fi

mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
missing=""
for l in $LIBS; do
    name=${l%%:*}; ver=${l##*:}
    [ -e "$DIR/.built-$name-$ver" ] || missing="$missing $l"
done
[ -n "$missing" ] || exit 0

for c in apt-get dpkg-source $TOOLS cmake make; do
    if ! command -v "$c" >/dev/null 2>&1; then
        case $c in
            apt-get) pkg=apt;; dpkg-source) pkg=dpkg-dev;; cmake) pkg="cmake";; make) pkg="make";;
            gcc | ar) pkg="gcc-multilib";;
            i686*) pkg=gcc-mingw-w64-i686-win32;; *) pkg=gcc-mingw-w64-x86-64-win32;;
        esac
        echo "winprefix: $c is missing (apt-get install $pkg)"
        exit 1
    fi
done
if [ "$ARCH" != linux-i386 ] && $HOST-gcc -v 2>&1 | grep -q '^Thread model: posix'; then
    echo "winprefix: $HOST-gcc is the posix-thread variant; choose the win32 one" \
         "(update-alternatives --set $HOST-gcc /usr/bin/$HOST-gcc-win32)"
    exit 1
fi

# ---- the sources -----------------------------------------------------------------

SRC=$DIR.src
APTDIR=$DIR.apt
# $(source_of PACKAGE VERSION): the unpacked source folder, fetched once.
source_of() {
    sh "$(dirname "$0")/debsrc.sh" "$1" "$2" "$SRC" "$APTDIR"
}

# ---- the builds ------------------------------------------------------------------

B=$DIR.build
JOBS=$(nproc 2>/dev/null || echo 2)
if [ "$ARCH" = linux-i386 ]; then
    CMAKE_TARGET="-DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=i686 -DCMAKE_C_COMPILER=gcc
        -DCMAKE_INSTALL_LIBDIR=lib"
else
    CMAKE_TARGET="-DCMAKE_SYSTEM_NAME=Windows -DCMAKE_C_COMPILER=$HOST-gcc -DCMAKE_RC_COMPILER=$HOST-windres"
fi
CMAKE_CROSS="$CMAKE_TARGET
    -DCMAKE_FIND_ROOT_PATH=$DIR -DCMAKE_FIND_ROOT_PATH_MODE_PROGRAM=NEVER
    -DCMAKE_FIND_ROOT_PATH_MODE_LIBRARY=ONLY -DCMAKE_FIND_ROOT_PATH_MODE_INCLUDE=ONLY
    -DCMAKE_FIND_ROOT_PATH_MODE_PACKAGE=ONLY -DCMAKE_PREFIX_PATH=$DIR -DCMAKE_INSTALL_PREFIX=$DIR
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE=-DNDEBUG"

# $(cmake_build NAME SRC OPTIONS...): configure, build and install one
# CMake project.
cmake_build() {
    name=$1; src=$2; shift 2
    rm -rf "${B:?}/$name"
    # shellcheck disable=SC2086 # one word an option
    cmake -S "$src" -B "$B/$name" -G "Unix Makefiles" $CMAKE_CROSS -DCMAKE_C_FLAGS="$OPT" "$@" \
        >"$B/$name.log" 2>&1 &&
        cmake --build "$B/$name" -j "$JOBS" >>"$B/$name.log" 2>&1 &&
        cmake --install "$B/$name" >>"$B/$name.log" 2>&1
}

# $(static_lib NAME OBJDIR SOURCES...): the C files compiled into
# DIR/lib/libNAME.a.
static_lib() {
    name=$1; shift
    o="$B/$name"
    rm -rf "$o"
    mkdir -p "$o" "$DIR/lib"
    for c in "$@"; do
        $HOST-gcc $OPT $CFLAGS_LIB -c "$c" -o "$o/$(basename "$c" .c).o" || return 1
    done
    rm -f "$DIR/lib/lib$name.a"
    $HOST-ar rcs "$DIR/lib/lib$name.a" "$o"/*.o
}

build_one() {
    name=$1; s=$2; ver=$3
    case $name in
    zlib)
        # the static library alone: the DLL's resource file is in the
        # win32/ folder the dfsg source leaves out, and the demo links
        # zlib statically (one DLL fewer to ship)
        rm -rf "$B/zlib"
        { cmake -S "$s" -B "$B/zlib" -G "Unix Makefiles" $CMAKE_CROSS -DCMAKE_C_FLAGS="$OPT" &&
            cmake --build "$B/zlib" -j "$JOBS" --target zlibstatic; } >"$B/zlib.log" 2>&1 || return 1
        mkdir -p "$DIR/include" "$DIR/lib/pkgconfig"
        cp "$s/zlib.h" "$B/zlib/zconf.h" "$DIR/include/"
        cp "$B/zlib/libzlibstatic.a" "$DIR/lib/libz.a"
        printf 'prefix=%s\nName: zlib\nDescription: zlib\nVersion: %s\nCflags: -I${prefix}/include\nLibs: -L${prefix}/lib -lz\n' \
            "$DIR" "$ver" >"$DIR/lib/pkgconfig/zlib.pc";;
    sdl2)
        rm -rf "$B/sdl2"
        mkdir -p "$B/sdl2"
        # shellcheck disable=SC2086 # one word an option
        (cd "$B/sdl2" && CC="$CC" CFLAGS="$OPT" "$s/configure" --host=$HOST --prefix="$DIR" --disable-static \
            $SDL_SIMD $SDL_MORE && make -j "$JOBS" && make install) >"$B/sdl2.log" 2>&1;;
    sdl2-image)
        cmake_build sdl2-image "$s" -DSDL2IMAGE_BACKEND_STB=ON -DSDL2IMAGE_VENDORED=OFF \
            -DSDL2IMAGE_SAMPLES=OFF -DSDL2IMAGE_DEPS_SHARED=OFF -DSDL2IMAGE_SVG=OFF \
            -DSDL2_DIR="$DIR/lib/cmake/SDL2";;
    chipmunk)
        CFLAGS_LIB="-std=gnu99 -DNDEBUG -w -I$s/include"
        set --
        for c in "$s"/src/*.c; do
            case $c in */cpHastySpace.c) ;; *) set -- "$@" "$c";; esac
        done
        static_lib chipmunk "$@" || return 1
        mkdir -p "$DIR/include"
        rm -rf "$DIR/include/chipmunk"
        cp -r "$s/include/chipmunk" "$DIR/include/chipmunk";;
    cjson)
        CFLAGS_LIB="-std=c89"
        static_lib cjson "$s/cJSON.c" || return 1
        mkdir -p "$DIR/include/cjson" "$DIR/lib/pkgconfig"
        cp "$s/cJSON.h" "$DIR/include/cjson/"
        printf 'prefix=%s\nName: libcjson\nDescription: cJSON\nVersion: %s\nCflags: -I${prefix}/include -I${prefix}/include/cjson\nLibs: -L${prefix}/lib -lcjson\n' \
            "$DIR" "$ver" >"$DIR/lib/pkgconfig/libcjson.pc";;
    cmocka)
        cmake_build cmocka "$s" -DWITH_STATIC_LIB=ON -DWITH_EXAMPLES=OFF -DUNIT_TESTING=OFF \
            -DPICKY_DEVELOPER=OFF;;
    esac
}

mkdir -p "$B"
for l in $missing; do
    name=${l%%:*}; rest=${l#*:}; pkg=${rest%%:*}; ver=${rest#*:}
    s=$(source_of "$pkg" "$ver")
    echo "winprefix: building $name $ver for $ARCH"
    start=$(date +%s)
    if ! build_one "$name" "$s" "$ver"; then
        [ -e "$B/$name.log" ] && tail -n 15 "$B/$name.log"
        echo "winprefix: building $name $ver for $ARCH failed (the log: $B/$name.log)"
        exit 1
    fi
    touch "$DIR/.built-$name-$ver"
    echo "winprefix: $name $ver built in $(($(date +%s) - start)) s"
done
echo "winprefix: the $ARCH libraries are in $DIR"
