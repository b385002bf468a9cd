#!/bin/sh
# e2e_command.sh - the command workload through the whole tool: any number
# of metric.NAME keys, each with its scale.NAME, reach the database as
# metrics of their own; a swept scale.NAME makes configurations; the order
# of keys in the file does not change a configuration's identity; a bad
# family key is refused at load time with file:line, exit status 2, and
# nothing written.
NAME=e2e_command
. "$(dirname "$0")/lib.sh"

q() {
	sqlite3 -readonly "$tmp/c.db" "$1"
}

# printf's \n escapes make the lines; the splitter keeps \n as written.
cat > "$tmp/c.ini" <<'EOF2'
[experiment]
name        = e2e-command
repetitions = 2
warmup      = 0
seed        = 7

[workload a]
type = command
argv = printf "ops 12\nlat 3.5\nq 1\nr 2\ns 3\nt 4\nu 5\nv 6\nw 7\nx 8\n"
metric = ^ops ([0-9]+)$
metric.lat = ^lat ([0-9.]+)$
scale.lat = 1000, 1
metric.q = ^q ([0-9]+)$
metric.r = ^r ([0-9]+)$
metric.s = ^s ([0-9]+)$
metric.t = ^t ([0-9]+)$
metric.u = ^u ([0-9]+)$
metric.v = ^v ([0-9]+)$
metric.w = ^w ([0-9]+)$
metric.x = ^x ([0-9]+)$

[workload b]
type = command
metric.lat = ^lat ([0-9.]+)$
metric = ^ops ([0-9]+)$
argv = printf "ops 12\nlat 3.5\n"
EOF2

"$CONTEND" run --db "$tmp/c.db" "$tmp/c.ini" > "$tmp/out" 2>&1 ||
	{ cat "$tmp/out"; fail "run failed"; }
expect "ok runs" 6 "$(q "SELECT count(*) FROM runs WHERE status = 'ok'")"
# nine extra metrics (more than the eight numbered keys there used to be)
expect "metric x" 8 "$(q "SELECT DISTINCT printf('%g', value) FROM samples WHERE metric = 'x'")"
expect "metrics of a run of [a]" 9 "$(q "SELECT count(*) FROM samples s
	JOIN runs r ON r.id = s.run_id JOIN configs c ON c.id = r.config_id
	WHERE c.section = 'a' AND s.metric IN ('lat','q','r','s','t','u','v','w','x')
	GROUP BY r.id LIMIT 1")"
expect "lat scaled by the swept scale.lat" "3.5 2
3500 2" "$(q "SELECT printf('%g', value), count(*) FROM samples WHERE metric = 'lat'
	AND run_id IN (SELECT r.id FROM runs r JOIN configs c
	ON c.id = r.config_id WHERE c.section = 'a') GROUP BY value ORDER BY value" |
	tr '|' ' ')"
expect "configurations of [a]" 2 "$(q "SELECT count(*) FROM configs WHERE section = 'a'")"
# [b] names its keys in another order than [a]: its canonical string
# still lists metric.lat after the table's parameters
expect "canon of [b]" \
	'argv="printf \"ops 12\\nlat 3.5\\n\"" shell=no env="" metric="^ops ([0-9]+)$" scale=1 contention="" contention_scale=1 ok_status=0 metric.lat="^lat ([0-9.]+)$"' \
	"$(q "SELECT canon FROM configs WHERE section = 'b'")"
expect "config_params of [b]: metric.lat after the table" "metric.lat" \
	"$(q "SELECT key FROM config_params p JOIN configs c ON c.id = p.config_id
	WHERE c.section = 'b' AND p.pos = 8")"
"$CONTEND" report --db "$tmp/c.db" --verbose > "$tmp/report" 2>&1 || fail "report failed"
grep -q '^  lat ' "$tmp/report" || fail "report has no lat row"

# A bad family key: file:line, exit 2, no database made.
printf '[experiment]\nname = bad\n[workload c]\ntype = command\nargv = true\nmetric.9lives = (x)\n' > "$tmp/bad.ini"
"$CONTEND" run --db "$tmp/bad.db" "$tmp/bad.ini" > "$tmp/err" 2>&1
expect "bad family key status" 2 $?
grep -q "bad.ini:6: \[workload c\] 'metric.9lives'" "$tmp/err" ||
	fail "bad family key message: $(cat "$tmp/err")"
[ ! -e "$tmp/bad.db" ] || fail "a database was written for a bad config"
printf '[experiment]\nname = bad\n[workload c]\ntype = command\nargv = true\nok_status = 0,one\n' > "$tmp/bad.ini"
"$CONTEND" run --db "$tmp/bad.db" "$tmp/bad.ini" > "$tmp/err" 2>&1
expect "bad ok_status status" 2 $?
grep -q "bad.ini:6: \[workload c\] ok_status: 'one' is not an exit status" "$tmp/err" ||
	fail "bad ok_status message: $(cat "$tmp/err")"
[ ! -e "$tmp/bad.db" ] || fail "a database was written for a bad ok_status"

# The runner spawns the command itself: stdout and stderr together, env
# on the run's environment, elapsed_s; and today's failure reasons, each a
# failed (or timed-out) run that does not stop the experiment.
cat > "$tmp/gone.sh" <<'EOF2'
#!/bin/sh
echo ops 1
EOF2
chmod +x "$tmp/gone.sh"
cat > "$tmp/d.ini" <<EOF2
[experiment]
name        = e2e-command-direct
repetitions = 1
warmup      = 0
order       = sequential
timeout     = 1.5s

[workload stderr]
type   = command
shell  = yes
argv   = echo "ops \$N" >&2
env    = N=7
metric = ^ops ([0-9]+)$

[workload exit3]
type  = command
shell = yes
argv  = echo last words; exit 3

[workload signal]
type  = command
shell = yes
argv  = kill -9 \$\$

[workload okone]
type      = command
shell     = yes
argv      = echo ops 5; exit 1
metric    = ^ops ([0-9]+)$
ok_status = 0,1

[workload nomatch]
type   = command
argv   = echo nothing
metric = ^ops ([0-9]+)$

[workload flood]
type = command
argv = yes

[workload slow]
type = command
argv = sleep 10

[workload remove]
type = command
argv = rm $tmp/gone.sh

[workload gone]
type = command
argv = $tmp/gone.sh
EOF2
# Exit status 1: every run of a configuration failed (as designed here).
"$CONTEND" run --db "$tmp/d.db" "$tmp/d.ini" --quiet 2> "$tmp/err"
expect "direct: exit status" 1 $?
dq() {
	sqlite3 -readonly "$tmp/d.db" "$1"
}
# st SECTION: status|error of its run
st() {
	dq "SELECT r.status || '|' || coalesce(r.error, '') FROM runs r
	    JOIN configs c ON c.id = r.config_id WHERE c.section = '$1'"
}
expect "direct: stderr + env" 7 "$(dq "SELECT printf('%g', s.value)
	FROM samples s JOIN runs r ON r.id = s.run_id JOIN configs c
	ON c.id = r.config_id WHERE c.section = 'stderr'
	AND s.metric = 'throughput'")"
expect "direct: elapsed_s" 1 "$(dq "SELECT count(*) FROM samples
	WHERE metric = 'elapsed_s' AND run_id = (SELECT r.id FROM runs r
	JOIN configs c ON c.id = r.config_id WHERE c.section = 'stderr')")"
# check SECTION PATTERN: its run's status|error matches the glob
check() {
	got=$(st "$1")
	# shellcheck disable=SC2254  # the pattern is a glob on purpose
	case $got in $2) ;; *) fail "direct: $1: '$got' is not '$2'" ;; esac
}
check exit3 'failed|command exited with status 3; output ends:*last words'
check signal 'failed|command was killed by signal 9*'
check nomatch "failed|command: metric regex '^ops (\[0-9\]+)\$' did not match*nothing"
check flood 'failed|command: output exceeds 16 MiB; killed it'
check slow 'timeout|timed out after 1.5s*'
check remove 'ok|'
check okone 'ok|'
check gone "failed|command: cannot run '$tmp/gone.sh': *"
expect "direct: experiment" complete "$(dq "SELECT status FROM experiments")"

[ "$fails" -eq 0 ] && echo "$NAME: metric.NAME keys stored, scaled, swept and refused as documented"
