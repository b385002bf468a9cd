#!/bin/sh
# e2e_outlive.sh - nothing outlives the runner (docs/RELIABILITY.md,
# "Nothing outlives the runner").  The runner is SIGKILLed while, in turn,
# a `command` run has a setsid child, a prepare hook has one (and a child
# in its own group), and a creat run works in its scratch directory; within a
# bounded poll no process of theirs is alive and no scratch directory is
# left.  A hook's escapees are killed after the hook and noted as the
# hook's in the run's stored error, not the next run's.  A runner killed
# with its guard leaves its cgroup and scratch directory to the next
# `contend run`, which removes them and says so.  All of it with the
# runner's cgroup (skipped, with the reason, where the host has no usable
# cgroup v2) and, what does not need one, again with CONTEND_CGROUP=off:
# process groups and the subreaper.  The processes are found by their
# executable, a private copy of sleep, so nothing else on the machine
# counts.
NAME=e2e_outlive
. "$(dirname "$0")/lib.sh"

S=$tmp/sleeper
cp "$(command -v sleep)" "$S"
mkdir "$tmp/scr" "$tmp/ptmp"
# The runs' temporary files (perf's data) where the test looks for them.
TMPDIR=$tmp/ptmp
export TMPDIR

# Sleepers alive: found by their executable, zombies not counted (an init
# that does not reap keeps them as such).
sleepers() {
	for e in $(find /proc -mindepth 2 -maxdepth 2 -name exe -lname "$S" 2>/dev/null); do
		d=${e%/exe}
		st=$(sed 's/.*) //' "$d/stat" 2>/dev/null | cut -c1)
		[ -n "$st" ] && [ "$st" != Z ] && echo "${d#/proc/}"
	done
}
count() { sleepers | wc -l | tr -d ' '; }
# Entries of the scratch parents (a runner's scratch directories).
scratch_left() { ls -A "$tmp/scr" "$tmp/ptmp" 2>/dev/null | grep contend; }

# poll N CMD...: until CMD succeeds, N tries 50 ms apart; status of CMD.
poll() {
	n=$1
	shift
	while [ "$n" -gt 0 ]; do
		"$@" && return 0
		n=$((n - 1))
		sleep 0.05
	done
	"$@"
}
# Within 3 s of the kill (a loaded machine included): no sleeper, no
# scratch directory.
none_left() { [ "$(count)" = 0 ] && [ -z "$(scratch_left)" ]; }
at_least() { [ "$(count)" -ge "$1" ]; }

# ini NAME BODY: an experiment of one run (no calibration, no warm-up).
ini() {
	cat > "$tmp/$1.ini" <<INI
[experiment]
name        = $1
repetitions = 1
warmup      = 0
timeout     = 120s
calibration = 100

$2
INI
}

# start NAME: the runner in the background, on a database of its own.
start() {
	db=$tmp/$1.$mode.db
	"$CONTEND" run "$tmp/$1.ini" --db "$db" --quiet > /dev/null 2> "$tmp/err.$1" &
	runner=$!
}

# killed WHAT: SIGKILL of the runner, then nothing of it may be left.
killed() {
	kill -9 "$runner"
	wait "$runner" 2>/dev/null
	runner=
	if ! poll 60 none_left; then
		fail "$mode: $1: left behind 3 s after the runner's SIGKILL:" \
		     "sleepers '$(sleepers | tr '\n' ' ')', scratch '$(scratch_left)'"
		for p in $(sleepers); do kill -9 "$p"; done
		rm -rf "$tmp/scr/"* "$tmp/ptmp/"*
	fi
}

# The guard of the runner: its child named contend-guard.
guard_of() {
	for s in /proc/[0-9]*/stat; do
		line=$(cat "$s" 2>/dev/null) || continue
		case $line in
		*"(contend-guard) "?" $1 "*) p=${s#/proc/}; echo "${p%/stat}" ;;
		esac
	done
}

# ---- the runner killed while ... ----

# a command run's child has left its session (setsid)
ini cmd "[workload cmd]
type   = command
shell  = yes
argv   = setsid $S 300 > /dev/null 2>&1 < /dev/null & $S 301; echo ops 1
metric = ops ([0-9]+)"

# a prepare hook has a child of its own group and one that left it
cat > "$tmp/hook" <<SH
#!/bin/sh
setsid $S 302 > /dev/null 2>&1 < /dev/null &
$S 303 &
exec $S 304
SH
chmod +x "$tmp/hook"
ini hook "[workload hooked]
type    = noop
prepare = $tmp/hook"

# a creat run works in its scratch directory
ini creat "[workload creat]
type    = creat
dir     = $tmp/scr
runtime = 100s"

# leave FLAG SECONDS: a hook whose child leaves its session (setsid),
# waiting until it has, so that the hook's end does not kill it first.
# The flag is made by the shell itself, not by touch(1): a touch still
# exiting when the hook ends is a second escapee (seen under load).
cat > "$tmp/away" <<SH
#!/bin/sh
: > "\$1"
exec $S "\$2"
SH
cat > "$tmp/leave" <<SH
#!/bin/sh
rm -f "\$1"
setsid $tmp/away "\$1" "\$2" > /dev/null 2>&1 < /dev/null &
until [ -e "\$1" ]; do sleep 0.01; done
SH
chmod +x "$tmp/away" "$tmp/leave"
ini attr "[workload hooked]
type    = noop
runtime = 10ms
prepare = $tmp/leave $tmp/flagp 305
cleanup = $tmp/leave $tmp/flagc 306"
# Stored as the hook's: "prepare: 1 process left the hook's process group
# and was killed after it", cleanup's likewise; nothing the run's.
check_attr() {
	"$CONTEND" run "$tmp/attr.ini" --db "$tmp/attr.$mode.db" --quiet \
		> /dev/null 2> "$tmp/err" ||
		fail "$mode: hooks leaving processes: exit $?: $(cat "$tmp/err")"
	want="prepare: 1 process left the hook's process group and was killed after it; cleanup: 1 process left the hook's process group and was killed after it"
	expect "$mode: the hooks' escapees, stored with the run" "ok|$want" \
		"$(q "$tmp/attr.$mode.db" "SELECT status || '|' || error FROM runs")"
	poll 60 none_left || fail "$mode: the hooks' escapees outlived the runner"
}

# The runner and its guard killed: what they leave, the next run removes
# (here the cgroup of the first is the second's to remove).
check_stale() {
	for what in cmd creat; do
		start $what
		if [ $what = cmd ]; then
			poll 400 at_least 2 || fail "$mode: stale: the command never started"
		else
			poll 400 eval '[ -n "$(ls -A "$tmp/scr"/contend-run.* 2>/dev/null)" ]' ||
				fail "$mode: stale: creat never made its scratch directory"
		fi
		g=$(guard_of "$runner")
		[ -n "$g" ] || fail "$mode: stale: no guard process found"
		kill -9 $g "$runner"
		wait "$runner" 2>/dev/null
		runner=
	done
	[ -n "$(scratch_left)" ] || fail "$mode: stale: the dead runner left no scratch directory to sweep"
	ini quick "[workload creat]
type = creat
dir  = $tmp/scr
jobs = 10"
	"$CONTEND" run "$tmp/quick.ini" --db "$tmp/quick.$mode.db" --quiet \
		> /dev/null 2> "$tmp/err" || fail "$mode: stale: the next run failed: $(cat "$tmp/err")"
	grep -q "contend: removed the scratch directory $tmp/scr/contend-run\.[0-9-]*\.[^ ]*, left by a runner that died" "$tmp/err" ||
		fail "$mode: stale: the next run did not say it removed the scratch directory: $(cat "$tmp/err")"
	if [ "$mode" = cgroup ]; then
		cat "$tmp/err.creat" >> "$tmp/err"
		grep -q "contend: removed the cgroup .*/contend-[0-9-]*, left by a runner that died; [1-9][0-9]* process" "$tmp/err" ||
			fail "$mode: stale: the next run did not say it removed the cgroup: $(cat "$tmp/err")"
		poll 60 none_left || fail "$mode: stale: left behind after the next run: sleepers '$(sleepers | tr '\n' ' ')', scratch '$(scratch_left)'"
	else
		for p in $(sleepers); do kill -9 "$p"; done
		poll 60 none_left || fail "$mode: stale: scratch left after the next run: '$(scratch_left)'"
	fi
}

# scenario: each kill, in the current $mode.
scenario() {
	if [ "$mode" = cgroup ]; then
		start cmd
		poll 400 at_least 2 || fail "$mode: the command's sleepers never started"
		killed "a command's setsid child"
	fi
	start hook
	poll 400 at_least 3 || fail "$mode: the hook's sleepers never started"
	if [ "$mode" = off ]; then
		# without a cgroup, one that left the hook's session is out
		# of reach of a dead runner: the group's must die all the same
		setsid_one=$(for p in $(sleepers); do
			tr '\0' ' ' < /proc/$p/cmdline | grep -q " 302 " && echo $p; done)
		kill -9 $setsid_one 2>/dev/null
	fi
	killed "a prepare hook's children"
	start creat
	poll 400 eval '[ -n "$(ls -A "$tmp/scr"/contend-run.*/ 2>/dev/null)" ]' ||
		fail "$mode: creat never worked in its scratch directory"
	killed "a creat run's scratch directory"
	check_attr
	check_stale
	expect "$mode: containment stored with the experiment" "$1" \
		"$(q "$tmp/quick.$mode.db" "SELECT value LIKE '$2' FROM experiment_meta WHERE key = 'containment'")"
}

# Why the host gives this test no cgroup v2 to make a child cgroup with
# cgroup.kill in (empty: it does), found without the binary's help.
mnt=$(awk '$0 ~ / - cgroup2 / { print $5; exit }' /proc/self/mountinfo)
self=$(sed -n 's/^0:://p' /proc/self/cgroup)
no_v2() {
	[ -n "$mnt" ] || { echo "cgroup v2 is not mounted"; return; }
	probe=$mnt${self%/}/contend-probe-$$
	mkdir "$probe" 2>/dev/null || { echo "cannot make a cgroup in $mnt$self"; return; }
	[ -e "$probe/cgroup.kill" ] || echo "no cgroup.kill (Linux < 5.14)"
	rmdir "$probe"
}

# ---- with the runner's cgroup ----
# Under a cgroup of the test's own (CONTEND_CGROUP=DIR), so that no other
# contend on the machine sweeps what the killed runners leave before the
# next run of this test does.
mode=cgroup
why=$(no_v2)
if [ -z "$why" ]; then
	cgp=$mnt${self%/}/outlive-test.$$
	mkdir "$cgp" || die "cannot make $cgp"
	trap '[ -n "$runner" ] && kill -9 "$runner" 2>/dev/null; rmdir "$cgp" 2>/dev/null; rm -rf "$tmp"' EXIT
	CONTEND_CGROUP=$cgp
	export CONTEND_CGROUP
	ini probe "[workload n]
type = noop
jobs = 1"
	"$CONTEND" run "$tmp/probe.ini" --db "$tmp/probe.db" --quiet > /dev/null 2>&1
	how=$(q "$tmp/probe.db" "SELECT value FROM experiment_meta WHERE key = 'containment'")
	case $how in
	"cgroup v2 "*) ;;
	*) fail "cgroup v2 is usable here, yet the runner's containment is '$how'" ;;
	esac
	scenario 1 "cgroup v2 $cgp/contend-%"
	[ -z "$(ls -d "$cgp"/*/ 2>/dev/null)" ] ||
		fail "cgroups left behind: $(ls -d "$cgp"/*/)"
else
	echo "$NAME: SKIP: the cgroup half: $why"
fi

# ---- without: process groups and the subreaper ----
mode=off
CONTEND_CGROUP=off
export CONTEND_CGROUP
scenario 1 'process groups and subreaper (no cgroup: CONTEND_CGROUP=off)'

[ "$fails" -eq 0 ]
