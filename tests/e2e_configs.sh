#!/bin/sh
# End-to-end: every shipped experiment (configs/*.ini) still loads and
# plans, so none rots as the language and the workloads change.
#  - `contend run FILE --dry-run` must exit 0 and print its plan;
#  - a config of the command workload whose program is not installed fails
#    by design ("'perf' is not installed", exit 2): that file is skipped
#    with a message, but only when every error it printed is of that kind;
#    so is a futex_hash_slots sweep on a kernel without the private hash;
#  - each file states its expected run time in a comment.
# A dry run writes nothing; the test checks no database appeared.
set -u
CONTEND=${CONTEND:-./contend}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "e2e_configs: FAIL: $*" >&2; exit 1; }

n=0
for f in configs/*.ini; do
	[ -f "$f" ] || fail "no configs/*.ini found (run from the source tree)"
	n=$((n + 1))
	grep -qi '^;.*expected run time' "$f" ||
		fail "$f: no 'Expected run time' comment"
	rc=0
	"$CONTEND" run "$f" --dry-run --db "$tmp/dry.db" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" -eq 2 ] && [ -s "$tmp/err" ] &&
	   ! grep -v -e "is not installed (not found on PATH)" \
		-e "needs Linux 6.16 with CONFIG_FUTEX_PRIVATE_HASH" \
		"$tmp/err" | grep -q .; then
		echo "e2e_configs: skip $f: $(sed 's/.*argv: //' "$tmp/err" | sort -u | tr '\n' ' ')"
		continue
	fi
	[ "$rc" -eq 0 ] || fail "$f: contend run --dry-run exited $rc:
$(head -20 "$tmp/err")"
	grep -q '^plan: ' "$tmp/out" || fail "$f: --dry-run printed no plan"
	[ -e "$tmp/dry.db" ] && fail "$f: --dry-run created a database"
done
[ "$n" -gt 0 ] || fail "no configs"
exit 0
