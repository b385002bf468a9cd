#!/bin/sh
# Installs the tools of contend's checks beyond the build itself (which
# scripts/deps.sh covers): clang (make asan, tsan, fuzz), clang-tidy and
# scan-build (make lint, from clang-tools), cppcheck (make lint) and the
# sqlite3 shell (make check-faults inspects databases with it) and
# python3-yaml (make check parses docs/FLEET.md's YAML with it) and
# ansible-core (make check runs scripts/fleet/fleet.yml: e2e_ansible).  Installs
# with apt-get when run as root, otherwise prints the command and fails.
# Does nothing when everything is present.
set -e
missing=""
have() { command -v "$1" >/dev/null 2>&1; }
have clang || missing="$missing clang"
# The sanitizer and libFuzzer runtimes are a separate package of clang's.
dpkg-query -W -f='${Status}' libclang-rt-dev 2>/dev/null | grep -q "ok installed" ||
	missing="$missing libclang-rt-dev"
have clang-tidy || missing="$missing clang-tidy"
have scan-build || missing="$missing clang-tools"
have cppcheck || missing="$missing cppcheck"
have sqlite3 || missing="$missing sqlite3"
python3 -c 'import yaml' 2>/dev/null || missing="$missing python3-yaml"
have ansible-playbook || missing="$missing ansible-core"
# shellcheck disable=SC2086  # a list of package names
exec sh "$(dirname "$0")/install-missing.sh" $missing
