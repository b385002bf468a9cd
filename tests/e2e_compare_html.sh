#!/bin/sh
# e2e_compare_html.sh - `contend compare --html DIR`: DIR/compare.html
# carries compare's text output line for line (its header and its table,
# every configuration), HTML-escaped (sides named with markup and quotes
# print as text), and the figure inlined; DIR/compare.png is a PNG.  Two
# experiments of two configurations, and two files of numbers with
# hostile names.
NAME=e2e_compare_html
. "$(dirname "$0")/lib.sh"
command -v gnuplot >/dev/null 2>&1 || { echo "SKIP: gnuplot not installed"; exit 0; }
need_python3

cat > "$tmp/c.ini" <<'EOI'
[experiment]
name        = cmp
repetitions = 3
warmup      = 0
seed        = 5

[workload w]
type    = noop
threads = 1, 2
runtime = 10ms
EOI
for l in A B; do
	"$CONTEND" run "$tmp/c.ini" --db "$tmp/c.db" --label "$l" --quiet \
		> /dev/null 2> "$tmp/err" || die "run $l: $(cat "$tmp/err")"
done

# check DIR TEXT: the page holds every line of compare's TEXT escaped, inlines an
# image, and DIR/compare.png is a PNG
check() {
	head -c 8 "$1/compare.png" | od -An -tx1 | tr -d ' \n' |
		grep -q '^89504e470d0a1a0a$' || fail "$1/compare.png is not a PNG"
	python3 - "$1/compare.html" "$2" <<'PY' || fail "$1/compare.html"
import html, sys
page = open(sys.argv[1], encoding="utf-8").read()
text = open(sys.argv[2], encoding="utf-8").read()
# compare's own text, from its metric line (number files get ministat's
# table first, on standard output only)
lines = text.splitlines()
lines = [l for l in lines[next(i for i, l in enumerate(lines)
                              if l.startswith("metric ")):] if l.strip()]
assert lines, "no text"
for l in lines:
    assert html.escape(l, quote=True).replace("&#x27;", "&#39;") in page, l
assert "data:image/svg+xml;base64," in page or "data:image/png;base64," in page
assert "<script" not in page
PY
}

"$CONTEND" compare --db "$tmp/c.db" A B --html "$tmp/out" > "$tmp/text" \
	2> "$tmp/err" || fail "compare --html exited $?: $(cat "$tmp/err")"
for f in compare.html compare.png compare.gp compare.dat; do
	[ -s "$tmp/out/$f" ] || fail "no $f"
done
grep -q "w threads=1" "$tmp/text" && grep -q "w threads=2" "$tmp/text" ||
	fail "the text lacks a configuration: $(cat "$tmp/text")"
check "$tmp/out" "$tmp/text"

# Hostile names: markup and quotes in the sides' names are text.
base="$tmp/<b>base&'q\".txt"
cand="$tmp/cand<script>x.txt"
printf '100\n102\n98\n101\n99\n' > "$base"
printf '110\n112\n109\n111\n113\n' > "$cand"
"$CONTEND" compare "$base" "$cand" --html "$tmp/h" > "$tmp/text2" \
	2> "$tmp/err" || fail "compare --html of files exited $?: $(cat "$tmp/err")"
check "$tmp/h" "$tmp/text2"
grep -q '&lt;b&gt;base&amp;&#39;q&quot;' "$tmp/h/compare.html" ||
	fail "the baseline's name is not escaped"
grep -q '<b>base' "$tmp/h/compare.html" && fail "markup of a name reached the page"

# Several candidates: a page each, in DIR/1 and DIR/2.
"$CONTEND" compare --db "$tmp/c.db" A B A --html "$tmp/m" > /dev/null 2>&1 ||
	fail "two candidates: exit $?"
[ -s "$tmp/m/1/compare.html" ] && [ -s "$tmp/m/2/compare.html" ] ||
	fail "two candidates: no DIR/1 and DIR/2 pages"

[ "$fails" -eq 0 ] && echo "$NAME: compare --html writes its page (text escaped, figure inlined) and PNG"
[ "$fails" -eq 0 ]
