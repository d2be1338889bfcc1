#!/bin/sh
# layout.sh - checks the include rules of the rooms by reading every #include line, and that no files anywhere form a loop, by their includes and by the built objects' symbols.
# usage: sh tests/layout.sh [BUILD]   (prints one line per violation and
#        per loop, exits 1 if any; BUILD, default build, holds the
#        objects: `make layout` builds them first)
#
# The rooms and which of the project's own headers each may include (system
# headers are free, except SDL's in the platform-free core):
#   src/ripple.h   the public API, an umbrella: ripple/*.h only
#   src/ripple/*.h the public API by subsystem (base, field, render, show,
#                  sound, side): the public headers it builds on, base.h
#                  always (field.h: base; render.h, show.h: base, field;
#                  sound.h: base; side.h: base, render)
#   src/ripple_support.h
#                  the front ends' helpers (parsing, the file writer, picture
#                  probing, the font, the WAV header, bench checks, the
#                  demo's play, walls drawn as stone): in
#                  libripple but not exported by libripple.so nor installed;
#                  ripple.h only
#   src/core/ROOM  the library in rooms (base, field, render, show, sound,
#                  side): of the public API, ripple/base.h and its own
#                  ripple/ROOM.h (not the umbrella ripple.h), and where it
#                  implements or draws on another's: base ripple/render.h
#                  (image fitting), render and show ripple/field.h, side
#                  ripple/render.h (the formats); ripple_support.h (the
#                  core implements it), core/base/ (the helpers every room
#                  leans on) and its own room's headers; the field, render
#                  and side rooms also
#                  kernels/kernels.h, render also kernels/scalar.h and
#                  core/field/tiles.h (the field's face to the renderer:
#                  its size, heights and tiles, never struct rpl_sim);
#                  show also core/field/field.h (a show's `calm` scales
#                  the field's buffers: rpl_sim_scale).
#                  No other room's header: the field and the side
#                  engine never include each other.
#   src/kernels    ripple.h and src/kernels/** (nothing from core/ or app/)
#   src/scene      ripple.h and src/scene/* (and Chipmunk2D's headers; no SDL),
#                  and core/base/dmath.h: the maths the side engine and
#                  Chipmunk2D share, the same bits on every platform;
#                  ripple_support.h, as the play above the library (the
#                  timedemo's CRC)
#   src/play       the pool's play above libripple, below the front ends:
#                  ripple.h, ripple_support.h and src/play/* (no SDL)
#   src/app, src/web, src/tools, bench, tests
#                  ripple.h, ripple_support.h and the headers of their own
#                  room; src/app, src/web, bench and tests also
#                  src/scene/scene.h and src/play/*.h (src/web is the
#                  page's front end: no SDL); tests and src/tools also
#                  core/base/dmath.h (the deterministic maths,
#                  self-contained)
#   src/examples   ripple.h and src/examples/* only: an example is what a
#                  user of the installed library writes, with the public API
# A name is a project header when it names a file beside the file that
# includes it ("name" only) or under src/ (the build's -Isrc).
set -u
cd "$(dirname "$0")/.." || exit 2

# FILE:HEADER pairs allowed beyond the rules: test_paths.c tests the kernels
# themselves, through their table, and so does web_exact.c, built for
# WebAssembly; test_shotname.c the demo's SDL-free screenshot names (and
# the platform seam under them) and
# test_web.c the web page's pool, whose objects the Makefile links into
# them; test_side_render.c reads which of the caustics' loop frames a
# side renderer has made (the bake leaves no other trace); test_dmath.c
# holds rpl_sqrt, the x87's inline square root, to the C library's;
# test_water.c holds the waves' terms, kept in place from step to step, to
# a fresh build of them (the water's own state, which leaves no other
# trace than the heights' bits); dispatch.c
# implements the bench's check of ripple_support.h on the kernel tables.
EXCEPTIONS="tests/test_paths.c:src/kernels/kernels.h tests/web_exact.c:src/kernels/kernels.h"
EXCEPTIONS="$EXCEPTIONS tests/test_shotname.c:src/app/shotname.h tests/test_shotname.c:src/app/sys.h"
EXCEPTIONS="$EXCEPTIONS tests/test_web.c:src/web/web.h tests/test_side_render.c:src/core/side/side_renderer.h"
EXCEPTIONS="$EXCEPTIONS tests/test_dmath.c:src/kernels/sqrt_x87.h tests/test_water.c:src/core/side/water_state.h"
EXCEPTIONS="$EXCEPTIONS src/kernels/dispatch.c:src/ripple_support.h"

violations=0
edges= # "FILE HEADER" per project header included, for the loops below
bad() {
    echo "layout: $1:$2: includes $3 ($4)"
    violations=$((violations + 1))
}

room_of() {
    case $1 in
        src/ripple.h) echo public;;
        src/ripple/*.h) echo "public/$(basename "$1" .h)";;
        src/ripple_support.h) echo support;;
        src/core/*/*) r=${1#src/core/}; echo "core/${r%%/*}";;
        src/kernels/*) echo kernels;;
        src/app/*) echo app;;
        src/web/*) echo web;;
        src/scene/*) echo scene;;
        src/play/*) echo play;;
        src/examples/*) echo examples;;
        src/tools/*) echo tools;;
        bench/*) echo bench;;
        tests/*) echo tests;;
        *) echo none;;
    esac
}

# allowed ROOM HEADER: may a file of ROOM include HEADER (a path in the tree)?
allowed() {
    case $1:$2 in
        public:src/ripple/*.h|public/*:src/ripple/base.h) return 0;;
        public/render:src/ripple/field.h|public/show:src/ripple/field.h) return 0;;
        public/side:src/ripple/render.h) return 0;;
        public*:*|core/*:src/ripple.h) return 1;;
        core/*:src/ripple/base.h) return 0;;
        core/base:src/ripple/render.h|core/side:src/ripple/render.h) return 0;;
        core/render:src/ripple/field.h|core/show:src/ripple/field.h) return 0;;
    esac
    case $1 in core/*)
        case $2 in "src/ripple/${1#core/}.h"|"src/$1"/*) return 0;; src/ripple/*) return 1;; esac;;
    esac
    case $2 in src/ripple.h|src/ripple/*.h) return 0;; esac
    case $1:$2 in
        app:src/ripple_support.h|tools:src/ripple_support.h|web:src/ripple_support.h) return 0;;
        play:src/ripple_support.h|play:src/play/*) return 0;;
        app:src/play/*.h|web:src/play/*.h|bench:src/play/*.h|tests:src/play/*.h) return 0;;
        bench:src/ripple_support.h|tests:src/ripple_support.h) return 0;;
        core/*:src/ripple_support.h|core/*:src/core/base/*) return 0;;
        core/field:src/kernels/kernels.h|core/side:src/kernels/kernels.h) return 0;;
        core/render:src/kernels/kernels.h|core/render:src/kernels/scalar.h) return 0;;
        core/render:src/core/field/tiles.h|core/show:src/core/field/field.h) return 0;;
        kernels:src/kernels/*) return 0;;
        app:src/app/*|examples:src/examples/*|tools:src/tools/*|web:src/web/*) return 0;;
        scene:src/scene/*|scene:src/core/base/dmath.h|scene:src/ripple_support.h) return 0;;
        app:src/scene/scene.h|web:src/scene/scene.h|bench:src/scene/scene.h|tests:src/scene/scene.h) return 0;;
        bench:bench/*|tests:tests/*) return 0;;
        # The deterministic maths stands alone (no other header): its suite
        # and the CLI that compares its bits across builds read it directly.
        tests:src/core/base/dmath.h|tools:src/core/base/dmath.h) return 0;;
    esac
    return 1
}

rule() {
    case $1 in
        public) echo "the umbrella ripple.h includes only ripple/*.h";;
        public/*) echo "a public header includes only the public headers it builds on";;
        support) echo "ripple_support.h may include only ripple.h";;
        core/*) echo "src/$1 may include ripple/base.h, ripple/${1#core/}.h, ripple_support.h, core/base/ and $1/ headers (and the others where the rules above say)";;
        kernels) echo "src/kernels may include ripple.h and kernels/ headers only";;
        bench|tests) echo "$1/ may include only ripple.h, ripple_support.h, src/play/ headers and $1/ headers";;
        app|web) echo "src/$1 may include only ripple.h, ripple_support.h, play/ headers, scene/scene.h and $1/ headers";;
        play|tools) echo "src/$1 may include only ripple.h, ripple_support.h and $1/ headers";;
        scene) echo "src/scene may include only ripple.h, ripple_support.h, core/base/dmath.h and scene/ headers";;
        *) echo "src/$1 may include only ripple.h and $1/ headers";;
    esac
}

files=$(find src bench tests -name '*.[ch]' | LC_ALL=C sort)
for f in $files; do
    if [ "$(room_of "$f")" = none ]; then
        echo "layout: $f: in no room (src/core/ROOM, src/kernels, src/scene, src/play, src/app, src/web, src/examples, src/tools, bench, tests)"
        violations=$((violations + 1))
    fi
done

# "FILE LINE quote|angle NAME" for each #include "NAME" or #include <NAME>
includes=$(awk 'match($0, /^[ \t]*#[ \t]*include[ \t]*[<"][^<>"]*[>"]/) {
        s = substr($0, RSTART, RLENGTH); sub(/^[^<"]*/, "", s)
        q = substr(s, 1, 1) == "<" ? "angle" : "quote"; s = substr(s, 2, length(s) - 2)
        print FILENAME, FNR, q, s
    }' $files)

while read -r f line quote name; do
    [ -n "$f" ] || continue
    room=$(room_of "$f")
    case $name in
        SDL.h|SDL_*.h|SDL2/*)
            case $room in core/*|kernels|public|scene|play|web)
                bad "$f" "$line" "<$name>" "no SDL header in the platform-free core";;
            esac
            continue;;
    esac
    # where the compiler finds it: "name" beside the file first, then -Isrc
    if [ "$quote" = quote ] && [ -f "$(dirname "$f")/$name" ]; then hdr="$(dirname "$f")/$name"
    elif [ -f "src/$name" ]; then hdr="src/$name"
    else continue # a system header
    fi
    # src/app/../core/x.h is src/core/x.h
    hdr=$(echo "$hdr" | sed -e 's|/\./|/|g' -e ':a' -e 's|[^/]*/\.\./||' -e 'ta')
    edges="$edges
$f $hdr"
    allowed "$room" "$hdr" && continue
    case " $EXCEPTIONS " in *" $f:$hdr "*) continue;; esac
    bad "$f" "$line" "$name" "$(rule "$room")"
done <<END
$includes
END

echo "layout: $(echo "$files" | wc -l) files, $violations include violations"

# ---- loops of files ----------------------------------------------------------
# File A "calls" file B when A's object needs a symbol (U) that B's object
# defines, and A "reads" B when it includes it; a loop is two or more files
# that reach each other either way.  Symbols are read across every folder
# at once, so a loop between rooms shows as well as one inside a room.

build=${1:-build}

# folder FILE: the folder a file is counted in.
folder() {
    case $1 in
        src/core/*) echo src/core;;
        src/kernels/*) echo src/kernels;;
        src/*/*) r=${1#src/}; echo "src/${r%%/*}";;
        *) echo "${1%%/*}";;
    esac
}
FOLDERS="src/core src/kernels src/scene src/play src/app src/web src/tools bench tests"

# loops: reads "A B [WHY]" edges, prints "FILE FILE... [(via WHY...)]" per
# loop, files sorted, loops in the order of their first file.
loops() {
    LC_ALL=C sort -u | awk 'BEGIN { n = 0 }
        NF >= 2 && $1 != $2 {
            for (k = 1; k <= 2; k++) if (!($k in id)) { id[$k] = n; name[n++] = $k }
            a = id[$1]; b = id[$2]; r[a, b] = 1
            if (NF > 2 && !((a, b, $3) in seen)) { seen[a, b, $3] = 1; why[a, b] = why[a, b] " " $3 }
        }
        END {
            for (k = 0; k < n; k++) for (i = 0; i < n; i++) if ((i, k) in r)
                for (j = 0; j < n; j++) if ((k, j) in r) r[i, j] = 1
            for (i = 0; i < n; i++) order[i] = i
            for (i = 1; i < n; i++) for (j = i; j > 0 && name[order[j]] < name[order[j - 1]]; j--) {
                t = order[j]; order[j] = order[j - 1]; order[j - 1] = t }
            for (x = 0; x < n; x++) {
                i = order[x]
                if ((i in done) || !((i, i) in r)) continue
                line = ""; m = 0
                for (y = 0; y < n; y++) { j = order[y]
                    if (j == i || (((i, j) in r) && ((j, i) in r))) { line = line " " name[j]; done[j] = 1; member[m++] = j } }
                # the symbols inside the loop, those most files need first
                nv = 0
                for (p = 0; p < m; p++) for (q = 0; q < m; q++) if ((member[p], member[q]) in why) {
                    c = split(why[member[p], member[q]], w, " ")
                    for (e = 1; e <= c; e++) { if (!(w[e] in uses)) sym[nv++] = w[e]; uses[w[e]]++ } }
                for (e = 1; e < nv; e++) for (f = e; f > 0 && (uses[sym[f]] > uses[sym[f - 1]] || \
                        (uses[sym[f]] == uses[sym[f - 1]] && sym[f] < sym[f - 1])); f--) {
                    t = sym[f]; sym[f] = sym[f - 1]; sym[f - 1] = t }
                via = ""
                for (e = 0; e < nv && e < 6; e++) via = via " " sym[e]
                if (nv > 6) via = via " ..."
                delete uses
                print substr(line, 2) (via != "" ? " (via" via ")" : "")
            }
        }'
}

# The objects: every source's, as make layout builds them; skipped are the
# sources this build makes no object of here: the fuzzers (tests/fuzz.mk),
# the WebAssembly check (tests/web_exact.c), the qemu plugin and the
# preloaded counter of bench/ (shared objects of their own), the examples
# (programs of the installed library), the Windows seams and the kernels of other
# architectures or instruction sets than this build's.
objs=
missing=0
for src in $(find src bench tests -name '*.c' | LC_ALL=C sort); do
    case $src in
        tests/fuzz_*|tests/web_exact.c|bench/qemu_icount.c|bench/preload/*|src/examples/*) continue;;
        *_win.c) continue;; # the Windows builds' platform seams
        src/kernels/*/*.c) [ -f "$build/${src%.c}.o" ] || continue;;
    esac
    o="$build/${src%.c}.o"
    if [ ! -f "$o" ]; then
        echo "layout: $o: not built (make layout builds it)"
        missing=1
    fi
    objs="$objs $o"
done
[ -f "$build/src/kernels/dispatch.o" ] || { echo "layout: $build: no kernels built"; missing=1; }
[ "$missing" = 0 ] || exit 2

syms=$(nm -A $objs) || { echo "layout: nm could not read the objects in $build"; exit 2; }
by_symbols=$(printf '%s\n' "$syms" | awk -v b="$build/" '
    { f = $1; sub(/:.*/, "", f); sub("^" b, "", f); sub(/\.o$/, ".c", f)
      t = $(NF - 1); s = $NF
      if (t == "U") need[f, s] = 1
      else if (t ~ /^[TDBRGSVWC]$/) { if (s in def && def[s] != f) dup[s] = 1; def[s] = f } }
    END { for (k in need) { split(k, p, SUBSEP)
            if ((p[2] in def) && !(p[2] in dup)) print p[1], def[p[2]], p[2] } }' | loops)
by_includes=$(printf '%s\n' "$edges" | loops)

loops=0
report() { # KIND LOOPS
    [ -n "$2" ] || return 0
    printf '%s\n' "$2" | while read -r line; do echo "layout: loop by $1: $line"; done
    loops=$((loops + $(printf '%s\n' "$2" | wc -l)))
}
report symbols "$by_symbols"
report includes "$by_includes"

# how many loops in each folder, and across folders
count() { # LOOPS
    printf '%s\n' "$1" | sed 's/ (via .*//' | while read -r line; do
        [ -n "$line" ] || continue
        set -- $(for f in $line; do folder "$f"; done | sort -u)
        if [ $# = 1 ]; then echo "$1"; else echo across; fi
    done
}
summary() { # KIND LOOPS
    c=$(count "$2"); out=
    for d in $FOLDERS across; do
        out="$out, $d $(printf '%s\n' "$c" | grep -cx "$d")"
    done
    echo "layout: loops by $1 (${out#, })"
}
summary symbols "$by_symbols"
summary includes "$by_includes"
echo "layout: $(echo "$objs" | wc -w) objects read in $build"
[ "$violations" = 0 ] && [ "$loops" = 0 ]
