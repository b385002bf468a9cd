#!/bin/sh
# install-missing.sh [PACKAGE...]: the end of deps.sh and lint-deps.sh.
# Installs the packages they found missing with apt-get when run as root,
# otherwise prints the exact command and fails.  Does nothing without any.
set -e
[ $# -eq 0 ] && exit 0
missing=" $*"
if [ "$(id -u)" -ne 0 ]; then
	echo "contend: missing packages:$missing" >&2
	echo "run: sudo apt-get update && sudo apt-get install -y$missing" >&2
	exit 1
fi
echo "contend: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086  # a list of package names
apt-get install -y -qq $missing >/dev/null
