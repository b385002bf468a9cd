#!/bin/sh
# e2e_ansible.sh - the fleet playbook of docs/FLEET.md
# (scripts/fleet/fleet.yml) run for real: two inventory hosts on a local
# connection, each with its own install directory, label and database;
# the playbook installs contend, runs one experiment a host, fetches the
# databases, merges and compares them on the controller.  Checked: each
# host's database holds its one experiment under its label, the merged
# one holds both, and the comparison names both sides.  Skips, saying
# why, where ansible-playbook is missing (Debian's ansible-core:
# sh scripts/lint-deps.sh installs it).
NAME=e2e_ansible
. "$(dirname "$0")/lib.sh"
if ! command -v ansible-playbook > /dev/null 2>&1; then
	echo "$NAME: SKIP: ansible-playbook not found (Debian's ansible-core;" \
		"sh scripts/lint-deps.sh installs it)"
	exit 0
fi
book=$(pwd)/scripts/fleet/fleet.yml
[ -f "$book" ] || die "$book is missing"

cat > "$tmp/exp.ini" <<INI
[experiment]
name        = fleet-test
repetitions = 3
warmup      = 0
runtime     = 20ms

[workload idle]
type = noop
INI
for h in alpha beta; do mkdir -p "$tmp/$h"; done
cat > "$tmp/hosts" <<INV
[benchmark]
alpha contend_dir=$tmp/alpha contend_label=base
beta  contend_dir=$tmp/beta  contend_label=cand

[benchmark:vars]
ansible_connection=local
ansible_python_interpreter=$(command -v python3)
INV
# Everything ansible writes stays in $tmp; -f 1: the two "hosts" are one
# machine, so their runs go one after the other.
ANSIBLE_HOME=$tmp/ansible ANSIBLE_LOCAL_TEMP=$tmp/ansible/tmp \
ANSIBLE_REMOTE_TEMP=$tmp/ansible/tmp ANSIBLE_NOCOLOR=1 \
ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_HOST_KEY_CHECKING=0 \
	ansible-playbook -i "$tmp/hosts" -f 1 "$book" \
	-e contend_bin="$CONTEND" -e contend_config="$tmp/exp.ini" \
	-e contend_reboot=false -e contend_become=false \
	-e contend_results="$tmp/results" \
	-e contend_baseline=base -e contend_candidate=cand \
	> "$tmp/log" 2>&1 || die "ansible-playbook exited $?: $(tail -30 "$tmp/log")"

for pair in alpha:base beta:cand; do
	h=${pair%%:*} label=${pair#*:}
	set -- "$tmp/results/$h"/contend-"$h"-*.db
	[ -f "$1" ] || { fail "no database fetched from $h"; continue; }
	expect "$h's experiments" "1 $label fleet-test complete" "$(q "$1" \
		"SELECT count(*), label, name, status FROM experiments" | tr '|' ' ')"
	expect "$h's runs" 3 "$(q "$1" "SELECT count(*) FROM runs
		WHERE status = 'ok' AND warmup = 0")"
done
expect "merged experiments" "base cand" "$(q "$tmp/results/all.db" \
	"SELECT group_concat(label, ' ') FROM
	 (SELECT label FROM experiments ORDER BY label)")"
[ -s "$tmp/results/compare.txt" ] || die "no comparison written"
grep -q "base" "$tmp/results/compare.txt" &&
	grep -q "cand" "$tmp/results/compare.txt" ||
	fail "the comparison does not name both sides: $(head -20 "$tmp/results/compare.txt")"
[ "$fails" -eq 0 ]
