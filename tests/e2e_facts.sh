#!/bin/sh
# End-to-end: the host facts of a fresh experiment (configs/quick.ini,
# shortened, run from outside the checkout).  No stored meta value reads
# as a sentence (the rule of docs/STORAGE.md "Host facts", written here
# again in awk, independently of db/facts.c); `contend report --host`
# prints every fact; the default report fits one screen (at most 60
# lines of at most 80 columns) and ends with "N facts: ...".
NAME=e2e_facts
. "$(dirname "$0")/lib.sh"

db="$tmp/facts.db"
sed -e 's/^repetitions .*/repetitions = 2/' -e 's/^runtime .*/runtime = 50ms/' \
	configs/quick.ini >"$tmp/quick.ini"
(cd "$tmp" && "$CONTEND" run quick.ini --db "$db" --quiet) >/dev/null 2>&1 ||
	die "contend run quick.ini failed"

# Values copied verbatim from the kernel or the compiler may hold any text.
verbatim=' kernel_version cmdline cpu_model compiler preempt containment '

q "SELECT key || '	' || value FROM experiment_meta" >"$tmp/meta" ||
	die "no meta"
[ -s "$tmp/meta" ] || die "no meta stored"
while IFS='	' read -r key value; do
	case $verbatim in *" $key "*) continue ;; esac
	case $key in kmsg.*) continue ;; esac
	if printf '%s\n' "$value" | awk '
		{ if (NF > 3 || /[.:;] / || (/ / && /[0-9]%/)) exit 0; exit 1 }'
	then
		fail "$key = '$value' reads as a sentence"
	fi
done <"$tmp/meta"

# where cpu_mhz comes from: a word, the reason and the base in keys of
# their own (docs/STORAGE.md explains each word)
case $(q "SELECT value FROM experiment_meta WHERE key = 'cpu_freq_source'") in
aperf-mperf|cpufreq|none) ;;
*) fail "cpu_freq_source is not one of its words" ;;
esac

# --host: every fact by its key; the default: the count and one screen
"$CONTEND" report --db "$db" --host >"$tmp/host" ||
	fail "report --host exited $?"
n=0
while IFS='	' read -r key value; do
	case $key in primary.* | direction.* | repetitions.* | auto.*) continue ;; esac
	n=$((n + 1))
	grep -q "] $key=" "$tmp/host" || fail "report --host does not show $key"
done <"$tmp/meta"
(cd "$tmp" && "$CONTEND" report --db "$db") >"$tmp/report" ||
	fail "report exited $?"
lines=$(wc -l <"$tmp/report")
[ "$lines" -le 60 ] || fail "the default report has $lines lines, not <= 60"
awk 'length > 80 { bad = 1 } END { exit !bad }' "$tmp/report" &&
	fail "a line of the default report is wider than 80 columns"
grep -q "^  $n facts: \`contend report 1 --host" "$tmp/report" ||
	fail "no '$n facts: contend report 1 --host' in the report"
expect_status 2 report --db "$db" --host no-such-experiment

[ "$fails" -eq 0 ]
