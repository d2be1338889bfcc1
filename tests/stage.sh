#!/bin/sh
# stage.sh - runs the stages of `make check` and `make test`, each into its own log, and prints their times.
# usage: sh tests/stage.sh --begin DIR                  forget the last run's times
#        sh tests/stage.sh DIR NAME COMMAND...          run one stage
#        sh tests/stage.sh --table DIR NAME[:BUDGET]... the table, and the status of the run
#
# A stage's output goes to DIR/NAME.log, not to the terminal: stages run in
# parallel, and their lines would be mixed.  One line says when a stage
# ends; a failed stage's last 60 lines follow it.  DIR/NAME.time holds
# "STATUS SECONDS".  The table lists every stage named, its wall time, its
# budget in seconds (a stage past it is marked, not failed: speed is
# measured, never asserted) and its status, then the run's wall time.
set -u

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

case ${1:-} in
--begin)
    dir=${2:?usage: stage.sh --begin DIR}
    mkdir -p "$dir" && rm -f "$dir"/*.time "$dir"/*.log && now >"$dir/begin"
    exit
    ;;
--table)
    dir=${2:?usage: stage.sh --table DIR NAME[:BUDGET]...}
    shift 2
    failed=0
    printf '\n%-12s %9s %9s  %s\n' stage seconds budget status
    for s in "$@"; do
        name=${s%%:*}
        budget=-
        [ "$name" != "$s" ] && budget=${s#*:}
        if [ -f "$dir/$name.time" ]; then
            read -r rc t <"$dir/$name.time"
            if [ "$rc" = 0 ]; then st=passed; else st="FAILED (exit $rc, see $dir/$name.log)"; failed=1; fi
            if [ "$budget" != - ] && awk -v t="$t" -v b="$budget" 'BEGIN { exit !(t > b) }'; then
                st="$st, OVER BUDGET"
            fi
        else
            t=-
            st="not run"
            failed=1
        fi
        printf '%-12s %9s %9s  %s\n' "$name" "$t" "$budget" "$st"
    done
    if [ -f "$dir/begin" ]; then
        printf '%-12s %9s\n' "wall" "$(secs "$(cat "$dir/begin")" "$(now)")"
    fi
    exit "$failed"
    ;;
esac

dir=${1:?usage: stage.sh DIR NAME COMMAND...}
name=${2:?usage: stage.sh DIR NAME COMMAND...}
shift 2
mkdir -p "$dir"
rm -f "$dir/$name.time"
echo "== $name: started"
t0=$(now)
"$@" >"$dir/$name.log" 2>&1
rc=$?
t=$(secs "$t0" "$(now)")
echo "$rc $t" >"$dir/$name.time"
if [ "$rc" = 0 ]; then
    echo "== $name: passed in $t s"
else
    tail -n 60 "$dir/$name.log" | sed "s/^/$name| /"
    echo "== $name: FAILED in $t s (exit $rc; the whole output is in $dir/$name.log)"
fi
exit "$rc"
