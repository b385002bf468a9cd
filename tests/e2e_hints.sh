#!/bin/sh
# e2e_hints.sh - every command contend prints for its user to run next
# (the resume hint of an interrupted run, the report's INCOMPLETE line,
# its --verbose pointer and its host facts' --host) is copied from the output as printed, between its
# backticks, and run from another directory: the database named, by its
# absolute path, the experiment and its filters kept, a path with a space
# and a quote quoted.  The default database is made a place that does not
# exist, so a hint without --db fails.
NAME=e2e_hints
. "$(dirname "$0")/lib.sh"

dir="$tmp/it's a dir"
db="$dir/lab one.db"
mkdir -p "$dir" "$tmp/elsewhere" "$tmp/bin" || die "mkdir"
ln -s "$CONTEND" "$tmp/bin/contend" || die "ln"
PATH="$tmp/bin:$PATH"
CONTEND_DB="$tmp/elsewhere/missing/none.db"
export PATH CONTEND_DB

# Sequential: the good runs first, then a run that fails: --fail-fast
# stops there with the rest of the plan not run.
cat > "$tmp/h.ini" <<'EOI'
[experiment]
name        = hints
repetitions = 2
warmup      = 0
runtime     = 10ms
timeout     = 5s
seed        = 1
order       = sequential

[workload good]
type    = noop
threads = 1, 2

[workload bad]
type  = noop
fault = exit
EOI

# The hints in file $1, one a line, without their backticks.
hints() {
	grep -o '`contend [^`]*`' "$1" | sed 's/^`//; s/`$//'
}

# Runs hint $1 from elsewhere; its output in $tmp/hint.out, status in $st.
run_hint() {
	(cd "$tmp/elsewhere" && sh -c "$1") > "$tmp/hint.out" 2>&1
	st=$?
}

(cd "$dir" && contend run ../h.ini --db "lab one.db" --label "it's mine" \
	--fail-fast --quiet) > /dev/null 2> "$tmp/run.err"
expect "exit status of --fail-fast" 1 $?

# ---- the runner's resume hint ----
h=$(hints "$tmp/run.err")
case $h in
"contend run --resume 1 --db "*) ;;
*) fail "no runnable resume hint in: $(cat "$tmp/run.err")" ;;
esac

# ---- the report's hints, read back by label and a filter ----
contend report --db "$db" "it's mine@threads=1" > "$tmp/report" 2>&1 ||
	fail "report by label exited $?: $(cat "$tmp/report")"
nh=$(hints "$tmp/report" | wc -l)
expect "hints in the report" 3 "$nh"
host=$(hints "$tmp/report" | grep -- '--host')
run_hint "$host"
expect "the --host hint's exit status" 0 "$st"
grep -q '^  \[start\] hostname=' "$tmp/hint.out" ||
	fail "the --host hint printed no host facts: $(cat "$tmp/hint.out")"
verbose=$(hints "$tmp/report" | grep -- '--verbose')
run_hint "$verbose"
expect "the --verbose hint's exit status" 0 "$st"
# the per-configuration detail only --verbose prints (whatever the runs
# measured: on a loaded machine a 10 ms noop run may count no operation)
grep -q '^config 1 \[good\] noop:' "$tmp/hint.out" ||
	fail "the --verbose hint printed no detail: $(cat "$tmp/hint.out")"
grep -q "threads=2" "$tmp/hint.out" &&
	fail "the --verbose hint lost the filter @threads=1"

# The resume hints of the runner and the report are the same command,
# and it finishes the plan (the bad runs fail again: exit 1, not 2).
resume=$(hints "$tmp/report" | grep -- '--resume')
expect "the two resume hints" "$h" "$resume"
run_hint "$resume"
[ "$st" -eq 0 ] || [ "$st" -eq 1 ] ||
	fail "the resume hint exited $st: $(cat "$tmp/hint.out")"
expect "runs left planned after the hint" 0 \
	"$(q "$db" "SELECT count(*) FROM runs WHERE status = 'planned'")"

[ "$fails" -eq 0 ] && echo "$NAME: ok"
[ "$fails" -eq 0 ]
