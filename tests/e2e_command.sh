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
	'argv="printf \"ops 12\\nlat 3.5\\n\"" shell=no env="" metric="^ops ([0-9]+)$" scale=1 contention="" contention_scale=1 metric.lat="^lat ([0-9.]+)$"' \
	"$(q "SELECT canon FROM configs WHERE section = 'b'")"
expect "config_params of [b]: metric.lat after the table" "metric.lat" \
	"$(q "SELECT key FROM config_params p JOIN configs c ON c.id = p.config_id
	WHERE c.section = 'b' AND p.pos = 7")"
"$CONTEND" report --db "$tmp/c.db" --verbose > "$tmp/report" 2>&1 || fail "report failed"
grep -q '^  lat ' "$tmp/report" || fail "report has no lat row"

# A bad family key: file:line, exit 2, no database made.
printf '[experiment]\nname = bad\n[workload c]\ntype = command\nargv = true\nmetric.9lives = (x)\n' > "$tmp/bad.ini"
"$CONTEND" run --db "$tmp/bad.db" "$tmp/bad.ini" > "$tmp/err" 2>&1
expect "bad family key status" 2 $?
grep -q "bad.ini:6: \[workload c\] 'metric.9lives'" "$tmp/err" ||
	fail "bad family key message: $(cat "$tmp/err")"
[ ! -e "$tmp/bad.db" ] || fail "a database was written for a bad config"

[ "$fails" -eq 0 ] && echo "$NAME: metric.NAME keys stored, scaled, swept and refused as documented"
