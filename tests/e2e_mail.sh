#!/bin/sh
# e2e_mail.sh - `contend compare --format mail` and `report --format mail` (docs/USER-GUIDE.md,
# "compare"): the lockdep A/B of docs/AB-KERNEL.md in small, two labels of
# two invocations each; every line within 72 columns, both sides' kernel
# and label, the design, how often B beat A, and a reproduce block whose
# compare command runs as printed and prints the same mail.
NAME=e2e_mail
. "$(dirname "$0")/lib.sh"
db=$tmp/m.db
cd "$tmp" || die "no $tmp"

cat > ld.ini <<'EOF'
[experiment]
name        = ld
repetitions = 3
warmup      = 0
seed        = 15597056076736544055

[workload spin]
type                 = pthread-mutex
threads              = 2
contended_delay_ns   = 0, 10000
contended_delay_mode = spin
runtime              = 20ms
EOF
for label in off off on on; do
	"$CONTEND" run ld.ini --db "$db" --label $label --quiet \
		>/dev/null 2>&1 || die "run $label failed"
done

"$CONTEND" compare --db "$db" off on --format mail >mail.txt 2>err
st=$?
[ "$st" -eq 0 ] || fail "compare --format mail exited $st ($(cat err))"
awk 'length($0) > 72 { print "line " NR " is " length($0) " columns"; bad = 1 }
     END { exit bad }' mail.txt || fail "a line passes 72 columns"
rel=$(uname -r | cut -c1-36)
grep -q "^A: $rel, label off$" mail.txt || fail "no A header: $(head -3 mail.txt)"
grep -q "^B: $rel, label on$" mail.txt || fail "no B header"
grep -q "^design: A 2 x 3 runs, B 2 x 3 runs" mail.txt || fail "no design"
# two 20-digit seeds pass 72 columns: B's goes below, whole (it was cut)
grep -q "order .*, seed A 15597056076736544055,$" mail.txt &&
	grep -q "^        seed B 15597056076736544055$" mail.txt ||
	fail "no order and whole seeds: $(grep seed mail.txt)"
expect "rows with a beat count" 2 \
	"$(grep -c 'B beat A in [0-9]* of 4 invocation pairs; 2 and 2 invocations are too few' mail.txt)"
grep -q "^reproduce: config ld.ini (FNV-1a [0-9a-f]*)" mail.txt ||
	fail "no reproduce line"
grep -q "^  contend run ld.ini --db $db --label on$" mail.txt ||
	fail "no run line for B"
# The compare command as printed, with this build's contend.
sed -n '/^  contend compare/,/--format mail$/p' mail.txt |
	sed "s|^  contend|\"\$CONTEND\"|" >again.sh
CONTEND=$CONTEND sh again.sh >again.txt 2>err || fail "the printed compare failed: $(cat again.sh err)"
cmp -s mail.txt again.txt || fail "the printed compare prints another mail"

# text and JSON say it too; the format is checked
"$CONTEND" compare --db "$db" off on >text.txt 2>/dev/null
grep -q "B beat A in [0-9]* of 4 invocation pairs" text.txt ||
	fail "the text has no beat count"
"$CONTEND" compare --db "$db" off on --format json >j.json 2>/dev/null
grep -q '"secondary": \[' j.json || fail "JSON has no secondary metrics"
grep -q '"wins": ' j.json || fail "JSON has no beat count"
expect_status 2 compare --db "$db" off on --format post

# report --format mail: one experiment, 72 columns; several refused
"$CONTEND" report --db "$db" --format mail >r.txt 2>err ||
	fail "report --format mail failed: $(cat err)"
awk 'length($0) > 72 { bad = 1 } END { exit bad }' r.txt ||
	fail "a report line passes 72 columns"
grep -q "^kernel: $rel, label on$" r.txt || fail "no kernel line: $(head -3 r.txt)"
grep -q "^spin contended_delay_ns=10000 *3  " r.txt || fail "no row: $(cat r.txt)"
grep -q "^  contend run ld.ini --label on$" r.txt || fail "no run line"
expect_status 2 report --db "$db" on --format mail
exit $((fails > 0))
