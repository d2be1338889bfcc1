#!/bin/sh
# layout.sh - checks the include rules of the rooms by reading every #include
# line, and that no files of src/core or of src/app call each other in a
# loop, by reading the built objects' symbols.
# usage: sh tests/layout.sh [BUILD]   (prints one line per violation, exits 1
#        if any; BUILD, default build, holds the objects: `make layout`
#        builds them first)
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
#                  look of the water): in
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
#                  its size, heights and tiles, never struct rpl_sim).
#                  No other room's header: the field and the side
#                  engine never include each other.
#   src/kernels    ripple.h and src/kernels/** (nothing from core/ or app/)
#   src/scene      ripple.h and src/scene/* (and Chipmunk2D's headers; no SDL)
#   src/play       the pool's play, above the library and below the front
#                  ends: ripple.h, ripple_support.h and src/play/* (no SDL)
#   src/app, src/web, src/tools, bench, tests
#                  ripple.h, ripple_support.h and the headers of their own
#                  room; src/app, bench and tests also src/scene/scene.h
#                  (src/web is the page's front end: no SDL, no scene);
#                  src/app, src/web, bench and tests also src/play/*.h
#   src/examples   ripple.h and src/examples/* only: an example is what a
#                  user of the installed library writes, with the public API
# A name is a project header when it names a file beside the file that
# includes it ("name" only) or under src/ (the build's -Isrc).
set -u
cd "$(dirname "$0")/.." || exit 2

# FILE:HEADER pairs allowed beyond the rules: test_paths.c tests the kernels
# themselves, through their table, and so does web_exact.c, built for
# WebAssembly; test_shotname.c the demo's SDL-free screenshot names and
# test_web.c the web page's pool, whose objects the Makefile links into
# them; dispatch.c
# implements the bench's check of ripple_support.h on the kernel tables.
EXCEPTIONS="tests/test_paths.c:src/kernels/kernels.h tests/web_exact.c:src/kernels/kernels.h"
EXCEPTIONS="$EXCEPTIONS tests/test_shotname.c:src/app/shotname.h tests/test_web.c:src/web/web.h"
EXCEPTIONS="$EXCEPTIONS src/kernels/dispatch.c:src/ripple_support.h"

violations=0
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
        bench:src/ripple_support.h|tests:src/ripple_support.h) return 0;;
        play:src/ripple_support.h|play:src/play/*) return 0;;
        app:src/play/*.h|web:src/play/*.h|bench:src/play/*.h|tests:src/play/*.h) return 0;;
        core/*:src/ripple_support.h|core/*:src/core/base/*) return 0;;
        core/field:src/kernels/kernels.h|core/side:src/kernels/kernels.h) return 0;;
        core/render:src/kernels/kernels.h|core/render:src/kernels/scalar.h) return 0;;
        core/render:src/core/field/tiles.h) return 0;;
        kernels:src/kernels/*) return 0;;
        app:src/app/*|examples:src/examples/*|tools:src/tools/*|web:src/web/*) return 0;;
        scene:src/scene/*) return 0;;
        app:src/scene/scene.h|bench:src/scene/scene.h|tests:src/scene/scene.h) return 0;;
        bench:bench/*|tests:tests/*) return 0;;
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
        bench|tests) echo "$1/ may include only ripple.h, ripple_support.h and $1/ headers";;
        app|tools|web|play) echo "src/$1 may include only ripple.h, ripple_support.h and $1/ headers";;
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
            case $room in core/*|kernels|public|scene|web|play)
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
    allowed "$room" "$hdr" && continue
    case " $EXCEPTIONS " in *" $f:$hdr "*) continue;; esac
    bad "$f" "$line" "$name" "$(rule "$room")"
done <<END
$includes
END

echo "layout: $(echo "$files" | wc -l) files, $violations include violations"

# ---- loops of files ----------------------------------------------------------
# File A "calls" file B when A's object needs a symbol (U) that B's object
# defines; a loop is two or more files that reach each other that way.

build=${1:-build}
loops=0
# loops_in DIR...: prints "loop: FILE FILE..." per loop among the objects of the
# sources in DIR(s); 2 when an object is missing.
loops_in() {
    objs=
    for src in $(for d in "$@"; do ls "$d"/*.c; done); do
        o="$build/${src%.c}.o"
        if [ ! -f "$o" ]; then echo "layout: $o: not built (make layout builds it)"; return 2; fi
        objs="$objs $o"
    done
    nm -A $objs | awk -v b="$build/" '
        { f = $1; sub(/:.*/, "", f); sub("^" b, "", f); sub(/\.o$/, ".c", f)
          if (!(f in id)) { id[f] = n; name[n++] = f }
          t = $(NF - 1); s = $NF
          if (t == "U") need[id[f], s] = 1
          else if (t ~ /^[TDBRGSVWC]$/) def[s] = id[f] }
        END {
            for (k in need) { split(k, p, SUBSEP); if ((p[2] in def) && def[p[2]] != p[1]) r[p[1], def[p[2]]] = 1 }
            for (k = 0; k < n; k++) for (i = 0; i < n; i++) if ((i, k) in r)
                for (j = 0; j < n; j++) if ((k, j) in r) r[i, j] = 1
            for (i = 0; i < n; i++) if (!(i in done) && ((i, i) in r)) {
                line = name[i]; done[i] = 1
                for (j = i + 1; j < n; j++) if (((i, j) in r) && ((j, i) in r)) { line = line " " name[j]; done[j] = 1 }
                print "loop: " line
            }
        }'
}

core=$(loops_in src/core/*) || exit 2
if [ -n "$core" ]; then
    echo "$core" | sed 's/^/layout: src\/core: /'
    loops=$((loops + $(echo "$core" | wc -l)))
fi
app=$(loops_in src/app) || exit 2
if [ -n "$app" ]; then
    echo "$app" | sed 's/^/layout: src\/app: /'
    loops=$((loops + $(echo "$app" | wc -l)))
fi
echo "layout: loops of files: src/core $(echo "$core" | grep -c '^loop'), src/app $(echo "$app" | grep -c '^loop')"
[ "$violations" = 0 ] && [ "$loops" = 0 ]
