#!/bin/sh
# End-to-end for scripts/check-symbols.sh (make lint-symbols): in a fake
# lib/, an external symbol only its own file uses is file-local, one only
# a test uses is only-tests, one nothing uses is unused, one another file
# calls passes, and a test seam named in scripts/symbols-allow.txt is
# skipped (reported again once the list no longer names it); with every
# fault fixed the script passes.
set -u
NAME=e2e_symbols
. tests/lib.sh
top=$(pwd)
CC=${CC:-cc}

mkdir -p "$tmp/src/lib" "$tmp/src/tests" "$tmp/src/scripts" \
	"$tmp/obj/lib" || die "mkdir"
cat > "$tmp/src/lib/a.c" <<'C'
int a_used(int x) { return x + 1; }
int a_local(int x) { return x * 2; }
int a_driver(int x) { return a_local(x); }
int a_test_only(int x) { return x - 1; }
int a_unused(int x) { return x; }
int a_seam(int x) { return x * 3; }
C
cat > "$tmp/src/lib/b.c" <<'C'
int a_used(int);
int a_driver(int);
int c_top(int);
int b_main(int x) { return a_used(x) + a_driver(x) + (x ? c_top(x - 1) : 0); }
C
cat > "$tmp/src/lib/c.c" <<'C'
int b_main(int);
int c_top(int x) { return b_main(x); }
C
cat > "$tmp/src/tests/test_a.c" <<'C'
/* calls a_test_only and a_seam */
C
echo 'a_seam the tests replace what the product reads' \
	> "$tmp/src/scripts/symbols-allow.txt"
for f in a b c; do
	"$CC" -c -o "$tmp/obj/lib/$f.o" "$tmp/src/lib/$f.c" ||
		die "cannot compile $f.c"
done
check() {
	(cd "$tmp/src" && BUILD="$tmp/obj" sh "$top/scripts/check-symbols.sh") \
		> "$tmp/out" 2>&1
}

# 1. each fault named with its file; the listed seam and the used pass
check
st=$?
expect "status with faults" 1 "$st"
grep -qx 'file-local: lib/a.c: a_local' "$tmp/out" ||
	fail "a_local not file-local: $(cat "$tmp/out")"
grep -qx 'only-tests: lib/a.c: a_test_only' "$tmp/out" ||
	fail "a_test_only not only-tests"
grep -qx 'unused: lib/a.c: a_unused' "$tmp/out" || fail "a_unused not unused"
grep -q 'a_seam' "$tmp/out" && fail "a_seam, in the allow-list, reported"
grep -qE 'a_used|a_driver|b_main|c_top' "$tmp/out" &&
	fail "a symbol another file uses reported"

# 2. the list no longer names it: the seam is only-tests again
echo 'a_other not this one' > "$tmp/src/scripts/symbols-allow.txt"
check
grep -qx 'only-tests: lib/a.c: a_seam' "$tmp/out" ||
	fail "a_seam, not listed, not only-tests: $(cat "$tmp/out")"

# 3. the faults fixed: passes
echo 'a_seam the tests replace what the product reads' \
	> "$tmp/src/scripts/symbols-allow.txt"
cat > "$tmp/src/lib/a.c" <<'C'
int a_used(int x) { return x + 1; }
static int a_local(int x) { return x * 2; }
int a_driver(int x) { return a_local(x); }
int a_seam(int x) { return x * 3; }
C
"$CC" -c -o "$tmp/obj/lib/a.o" "$tmp/src/lib/a.c" || die "cannot compile a.c"
check
st=$?
expect "status without faults" 0 "$st"
grep -q 'every external symbol' "$tmp/out" ||
	fail "no success line: $(cat "$tmp/out")"

[ "$fails" -eq 0 ]
