#!/bin/sh
# check-layers.sh - the include graph of contend's top-level source
# directories runs one way (docs/ARCHITECTURE.md, "Layers"):
#
#   lib  <-  db  <-  runner
#                <-  analysis  <-  plots  <-  cli
#
# Each directory may include its own headers and those of the layers it
# lists below; anything else is printed as FILE: includes "HEADER" and the
# script exits 1.  tests/ and bench/ may include anything.  Run from the
# top of the tree (make lint does).
set -u

allowed() { # DIR: the directories DIR may include
	case $1 in
	lib) echo "lib" ;;
	db) echo "lib db" ;;
	runner) echo "lib db runner" ;;
	analysis) echo "lib db analysis" ;;
	plots) echo "lib db analysis plots" ;;
	cli) echo "lib db runner analysis plots cli" ;;
	*) echo "" ;;
	esac
}

bad=0
for dir in lib db runner analysis plots cli; do
	ok=$(allowed "$dir")
	for f in $(find "$dir" -name '*.[ch]' | sort); do
		for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([a-z_]*\)\/.*".*/\1/p' "$f" | sort -u); do
			case " $ok " in
			*" $inc "*) ;;
			*)
				grep -n "#[[:space:]]*include[[:space:]]*\"$inc/" "$f" |
					sed "s|^|$f:|; s|\$|   ($dir may not include $inc/)|"
				bad=1
				;;
			esac
		done
	done
done
if [ $bad -ne 0 ]; then
	echo "check-layers: includes against the layer order (docs/ARCHITECTURE.md)" >&2
	exit 1
fi
echo "check-layers: lib <- db <- runner, analysis <- plots <- cli: no include against the order"
