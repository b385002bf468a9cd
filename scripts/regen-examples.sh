#!/bin/sh
# regen-examples.sh - reruns the commands whose output the documentation
# pastes, exactly as the documents print them, and keeps each output in a
# file, so that a later session can paste them again after the output
# changes.  Not run by `make check`: it runs about 6-8 minutes of lock
# benchmarks on 2 CPUs (configs/quick.ini once, configs/ab-kernel.ini four
# times), which would disturb anything else the machine runs.
#
#   README.md "Example session"                      quick-*.txt
#   docs/EXPERIMENTS.md "quick"                      quick-report.txt,
#                                                    quick-verbose.txt
#   docs/AB-KERNEL.md step 3 (report --levels)       ab-levels.txt
#   docs/AB-KERNEL.md step 8, docs/USER-GUIDE.md
#     "The output" (compare of a one-CPU candidate)  ab-compare.txt
#   docs/EXPERIMENTS.md "lockdep-effect" (only when asked for, part
#     lockdep: its section is a measurement, taken alone)  lockdep-report.txt
#
# The numbers are whatever the machine gives (the docs say which machine
# and its load); they are examples of the output, not performance claims.
# Paste them trimmed with "..." to 80 columns, and make the prose around
# them agree with them.
#
# quick.ini runs as docs/EXPERIMENTS.md ("The machine, and how it was
# measured") says: in its own session, its scheduler autogroup at nice -20
# when the script runs as root (without it, on a loaded machine, the two
# threads seldom run at once and nothing shows).  ab-kernel.ini runs
# plain, as docs/AB-KERNEL.md step 8 says: nine minutes at nice -20 would
# take the machine from everyone else.
#
# usage: sh scripts/regen-examples.sh [OUTDIR [quick|ab|lockdep]]
#        (after make; default regen-examples/, which must not exist yet;
#        quick and ab when no part is named)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-regen-examples}
part=${2:-all}
case $part in all|quick|ab|lockdep) ;; *) echo "regen-examples: quick, ab or lockdep" >&2; exit 2;; esac
[ -x "$root/contend" ] || { echo "regen-examples: run make first" >&2; exit 1; }
[ -e "$out" ] && { echo "regen-examples: $out exists" >&2; exit 1; }
mkdir -p "$out/bin"
out=$(cd "$out" && pwd)
# The commands as printed: ./contend and configs/ from the work directory,
# `contend` on PATH, the default database in the work directory.
ln -s "$root/contend" "$out/contend"
ln -s "$root/contend" "$out/bin/contend"
ln -s "$root/configs" "$out/configs"
PATH="$out/bin:$PATH"
CONTEND_DB="$out/contend.db"
export PATH CONTEND_DB
cd "$out"
{ echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -r), $(nproc) CPUs"
  uptime; } > host.txt

# Runs "$@" in a session of its own at nice -20 (root), else as it is.
prio() {
	if [ "$(id -u)" -eq 0 ]; then
		setsid -w sh -c 'echo -20 > /proc/self/autogroup && exec nice -n -20 "$@"' \
			prio "$@"
	else
		"$@"
	fi
}

# ---- docs/EXPERIMENTS.md "lockdep-effect": 264 runs, about 3 minutes ----
if [ "$part" = lockdep ]; then
	prio contend run configs/lockdep-effect.ini --db lockdep.db --quiet
	contend report --db lockdep.db > lockdep-report.txt
	contend report --db lockdep.db --verbose > lockdep-verbose.txt
	contend plot --db lockdep.db --out plots/lockdep
	uptime >> host.txt
	echo "regen-examples: outputs in $out"
	exit 0
fi

# ---- README.md "Example session", docs/EXPERIMENTS.md "quick" ----
[ "$part" = ab ] || {
	echo '$ ./contend run configs/quick.ini --label quick'
	prio ./contend run configs/quick.ini --label quick 2>&1
	echo "\$ ./contend report | grep -A4 'misleading-throughput, config 3 (vs 1)'"
	./contend report | grep -A4 'misleading-throughput, config 3 (vs 1)' || true
	echo '$ ./contend plot --out plots/quick'
	./contend plot --out plots/quick 2>&1
} > quick-session.txt
[ "$part" = ab ] || ./contend report > quick-report.txt
[ "$part" = ab ] || ./contend report --verbose > quick-verbose.txt
[ "$part" = quick ] && { uptime >> host.txt; echo "regen-examples: outputs in $out"; exit 0; }

# ---- docs/AB-KERNEL.md steps 3 and 8, docs/USER-GUIDE.md "The output" ----
# A: plain; C: the same file under taskset -c 0 (a "kernel" that
# serialises every lock on one CPU); alternated A, C, A, C.
for side in A C A C; do
	if [ "$side" = C ]; then
		taskset -c 0 contend run configs/ab-kernel.ini --db ab.db \
			--label C --quiet
	else
		contend run configs/ab-kernel.ini --db ab.db --label A --quiet
	fi
done
contend report --levels ab-kernel --db ab.db > ab-levels.txt
contend compare --db ab.db A C > ab-compare.txt
uptime >> host.txt
echo "regen-examples: outputs in $out"
