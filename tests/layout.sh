#!/bin/sh
# layout.sh - checks the include rules of the rooms by reading every #include line.
# usage: sh tests/layout.sh   (prints one line per violation, exits 1 if any)
#
# The rooms and which of the project's own headers each may include (system
# headers are free, except SDL's in the platform-free core):
#   src/ripple.h   the public API: no project header
#   src/ripple_support.h
#                  the front ends' helpers (parsing, the file writer, picture
#                  probing, the font, the WAV header, bench checks): in
#                  libripple but not exported by libripple.so nor installed;
#                  ripple.h only
#   src/core       ripple.h, ripple_support.h (the core implements it),
#                  src/core/*, kernels/kernels.h, kernels/scalar.h
#   src/kernels    ripple.h and src/kernels/** (nothing from core/ or app/)
#   src/scene      ripple.h and src/scene/* (and Chipmunk2D's headers; no SDL)
#   src/app, src/tools, bench, tests
#                  ripple.h, ripple_support.h and the headers of their own
#                  room; src/app, bench and tests also src/scene/scene.h
#   src/examples   ripple.h and src/examples/* only: an example is what a
#                  user of the installed library writes, with the public API
# A name is a project header when it names a file beside the file that
# includes it ("name" only) or under src/ (the build's -Isrc).
set -u
cd "$(dirname "$0")/.." || exit 2

# FILE:HEADER pairs allowed beyond the rules: test_paths.c tests the kernels
# themselves, through their table; test_shotname.c the demo's SDL-free
# screenshot names, whose object the Makefile links into it; dispatch.c
# implements the bench's check of ripple_support.h on the kernel tables.
EXCEPTIONS="tests/test_paths.c:src/kernels/kernels.h tests/test_shotname.c:src/app/shotname.h"
EXCEPTIONS="$EXCEPTIONS src/kernels/dispatch.c:src/ripple_support.h"

violations=0
bad() {
    echo "layout: $1:$2: includes $3 ($4)"
    violations=$((violations + 1))
}

room_of() {
    case $1 in
        src/ripple.h) echo public;;
        src/ripple_support.h) echo support;;
        src/core/*) echo core;;
        src/kernels/*) echo kernels;;
        src/app/*) echo app;;
        src/scene/*) echo scene;;
        src/examples/*) echo examples;;
        src/tools/*) echo tools;;
        bench/*) echo bench;;
        tests/*) echo tests;;
        *) echo none;;
    esac
}

# allowed ROOM HEADER: may a file of ROOM include HEADER (a path in the tree)?
allowed() {
    case $2 in src/ripple.h) [ "$1" != public ]; return;; esac
    case $1:$2 in
        core:src/ripple_support.h|app:src/ripple_support.h|tools:src/ripple_support.h) return 0;;
        bench:src/ripple_support.h|tests:src/ripple_support.h) return 0;;
        core:src/core/*|core:src/kernels/kernels.h|core:src/kernels/scalar.h) return 0;;
        kernels:src/kernels/*) return 0;;
        app:src/app/*|examples:src/examples/*|tools:src/tools/*) return 0;;
        scene:src/scene/*) return 0;;
        app:src/scene/scene.h|bench:src/scene/scene.h|tests:src/scene/scene.h) return 0;;
        bench:bench/*|tests:tests/*) return 0;;
    esac
    return 1
}

rule() {
    case $1 in
        public) echo "the public header includes no project header";;
        support) echo "ripple_support.h may include only ripple.h";;
        core) echo "src/core may include ripple.h, ripple_support.h, core/ headers, kernels/kernels.h and kernels/scalar.h";;
        kernels) echo "src/kernels may include ripple.h and kernels/ headers only";;
        bench|tests) echo "$1/ may include only ripple.h, ripple_support.h and $1/ headers";;
        app|tools) echo "src/$1 may include only ripple.h, ripple_support.h and $1/ headers";;
        *) echo "src/$1 may include only ripple.h and $1/ headers";;
    esac
}

files=$(find src bench tests -name '*.[ch]' | LC_ALL=C sort)
for f in $files; do
    if [ "$(room_of "$f")" = none ]; then
        echo "layout: $f: in no room (src/core, src/kernels, src/scene, src/app, src/examples, src/tools, bench, tests)"
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
            case $room in core|kernels|public|scene)
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

echo "layout: $(echo "$files" | wc -l) files, $violations violations"
[ "$violations" = 0 ]
