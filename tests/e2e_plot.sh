#!/bin/sh
# compare --plot with hostile file names: images are drawn, and nothing in
# a name is ever executed by gnuplot.
set -e
CONTEND=${CONTEND:-./contend}
command -v gnuplot >/dev/null 2>&1 || { echo "SKIP: gnuplot not installed"; exit 0; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
base="$dir/base\`touch pwned1\`'\".txt"
cand="$dir/cand@x system(\"touch pwned2\").txt"
printf '100\n102\n98\n101\n99\n' > "$base"
printf '110\n112\n109\n111\n113\n' > "$cand"
(cd "$dir" && "$CONTEND" compare "$base" "$cand" --plot "$dir/out" >/dev/null 2>&1)
for f in compare.gp compare.dat compare.png compare.svg; do
	[ -s "$dir/out/$f" ] || { echo "missing $f"; exit 1; }
done
for p in "$dir/pwned1" "$dir/pwned2" "$dir/out/pwned1" "$dir/out/pwned2"; do
	[ ! -e "$p" ] || { echo "a name was executed: $p"; exit 1; }
done
grep -q "faster" "$dir/out/compare.gp"
# Re-rendering the kept script by hand works too.
(cd "$dir/out" && gnuplot -e "fmt='svg'" compare.gp)
for p in "$dir/out/pwned1" "$dir/out/pwned2"; do
	[ ! -e "$p" ] || { echo "re-render executed a name: $p"; exit 1; }
done

# The invocations figure of a hostile label: the name only in quotes.
label="L\`touch pwned3\`'\" system(\"touch pwned4\")
!touch pwned5"
cat > "$dir/l.ini" <<'EOF2'
[experiment]
name        = inv
repetitions = 2
warmup      = 0
seed        = 3

[workload w]
type    = noop
threads = 1, 2
runtime = 10ms
EOF2
for i in 1 2; do
	"$CONTEND" run "$dir/l.ini" --db "$dir/l.db" --label "$label" --quiet >/dev/null 2>&1
done
(cd "$dir" && "$CONTEND" plot --db "$dir/l.db" "$label" --out "$dir/inv" >/dev/null 2>&1)
[ -s "$dir/inv/invocations.png" ] || { echo "no invocations.png for a hostile label"; exit 1; }
(cd "$dir/inv" && gnuplot invocations.gp)
for p in "$dir/pwned3" "$dir/pwned4" "$dir/pwned5" "$dir/inv/pwned3" "$dir/inv/pwned4" "$dir/inv/pwned5"; do
	[ ! -e "$p" ] || { echo "the invocations figure executed a name: $p"; exit 1; }
done
