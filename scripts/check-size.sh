#!/bin/sh
# check-size.sh - no product source file over 700 lines: a longer file
# holds more than one concern (docs/STYLE.md).  Prints each one with its
# length and exits 1.  Run from the top of the tree.
set -u
MAX=${MAX:-700}
bad=0
for f in lib/*.[ch] db/*.[ch] runner/*.[ch] runner/*/*.[ch] analysis/*.[ch] \
	plots/*.[ch] cli/*.[ch]; do
	[ -f "$f" ] || continue
	n=$(wc -l < "$f")
	if [ "$n" -gt "$MAX" ]; then
		echo "check-size: $f: $n lines (at most $MAX)"
		bad=1
	fi
done
[ $bad -eq 0 ] && echo "check-size: no product file over $MAX lines"
exit $bad
