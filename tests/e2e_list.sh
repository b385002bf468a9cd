#!/bin/sh
# contend list: every visible workload with its parameter table, markdown
# for the docs, and usage errors with exit status 2.
set -eu
CONTEND=${CONTEND:-./contend}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "e2e_list: $*" >&2; exit 1; }

"$CONTEND" list >"$tmp/all" || fail "list exited $?"
grep -q '^noop: ' "$tmp/all" || fail "noop is not listed"
grep -q '^    threads=int ' "$tmp/all" || fail "noop's threads is not listed"
grep -q '^every workload also takes:' "$tmp/all" || fail "no harness keys"
grep -q '^    runtime=duration ' "$tmp/all" || fail "runtime is not listed"
! grep -q paramtest "$tmp/all" || fail "a hidden workload is listed"

"$CONTEND" list noop --format markdown >"$tmp/md" || fail "markdown exited $?"
grep -q '^### noop$' "$tmp/md" || fail "no markdown heading"
grep -qx '| `threads` | int | `1` | 1 .. 4096 | worker threads |' "$tmp/md" ||
	fail "noop's threads row is wrong"
grep -q '^| `runtime` | duration | `1s` | 1ms .. 24h |' "$tmp/md" ||
	fail "runtime row is wrong"
# every table row of every workload has the same 5 cells (escaped pipes
# do not count)
"$CONTEND" list --format markdown >"$tmp/all.md" || fail "markdown exited $?"
rows=$(grep '^|' "$tmp/all.md" | sed 's/\\|//g' | awk -F'|' '{print NF}' | sort -u)
[ "$rows" = 7 ] || fail "markdown rows have uneven cells: $rows"
[ "$(grep -c '^### ' "$tmp/all.md")" -gt 1 ] || fail "markdown lists one section"

# a hidden workload is still shown when named
"$CONTEND" list paramtest >/dev/null || fail "list paramtest exited $?"

status=0
"$CONTEND" list nop 2>"$tmp/err" >/dev/null || status=$?
[ "$status" = 2 ] || fail "unknown workload: exit $status, not 2"
grep -q "unknown workload 'nop'; did you mean 'noop'?" "$tmp/err" ||
	fail "no suggestion: $(cat "$tmp/err")"

status=0
"$CONTEND" list --format xml 2>"$tmp/err" >/dev/null || status=$?
[ "$status" = 2 ] || fail "bad format: exit $status, not 2"
grep -q "unknown format 'xml'" "$tmp/err" || fail "bad format message"

status=0
"$CONTEND" list --bogus 2>/dev/null >/dev/null || status=$?
[ "$status" = 2 ] || fail "bad option: exit $status, not 2"
exit 0
