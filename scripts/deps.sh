#!/bin/sh
# Checks contend's build and run dependencies; installs the missing ones
# with apt-get when run as root, otherwise prints the exact command and
# fails.  Does nothing when everything is present.
set -e
need="pkg-config libgsl-dev libsqlite3-dev libinih-dev zlib1g-dev libcmocka-dev"
# The kernel lock wait of every run (runner/kinstr/bpf.c): the BPF program is
# compiled with clang and bpftool into a skeleton linked with libbpf.
# Without them contend still builds and counts with perf events alone.
need="$need clang bpftool libbpf-dev"
missing=""
for p in $need; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
# Either gnuplot flavour draws the plots; prefer the one without X11.
if ! command -v gnuplot >/dev/null 2>&1; then
	missing="$missing gnuplot-nox"
fi
# shellcheck disable=SC2086  # a list of package names
exec sh "$(dirname "$0")/install-missing.sh" $missing
