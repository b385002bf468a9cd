#!/bin/sh
# e2e_fleet.sh - the recipes of docs/FLEET.md and the examples of
# docs/COMING-FROM.md hold up: every ```yaml block parses (python3-yaml,
# installed by scripts/lint-deps.sh) and has the keys its tool requires
# (a LAVA test definition, one for a run and one for a bisect step:
# metadata.format, name, run.steps), and so does the Ansible playbook
# scripts/fleet/fleet.yml (a list of plays with hosts and tasks, each
# task naming one module; tests/e2e_ansible.sh runs it), every ```sh block is valid sh (sh -n), and the contend command
# lines of FLEET.md name real commands.  Without python3 the YAML checks
# are skipped, saying so; without the yaml module they fail.
NAME=e2e_fleet
. "$(dirname "$0")/lib.sh"
doc=docs/FLEET.md
[ -f "$doc" ] || die "$doc is missing"

# blocks FENCE FILE: each fenced block of that kind as $tmp/FENCE.N
blocks() {
	awk -v fence="$1" -v out="$tmp/$1" '
		$0 == "```" fence { n++; on = 1; next }
		on && $0 == "```" { on = 0; next }
		on { print > (out "." n) }
	' "$2"
}
blocks sh "$doc"
blocks yaml "$doc"
nsh=$(ls "$tmp"/sh.* 2>/dev/null | wc -l)
nyaml=$(ls "$tmp"/yaml.* 2>/dev/null | wc -l)
expect "sh blocks in $doc" 1 "$nsh"
expect "yaml blocks in $doc" 2 "$nyaml"
for f in "$tmp"/sh.*; do
	sh -n "$f" 2> "$tmp/err" || fail "$doc: a sh block does not parse: $(cat "$tmp/err")"
done

# contend's command lines (indented examples, `code`): real commands
grep -hoE '(^[ 	]+|`)contend [a-z]+' "$doc" docs/COMING-FROM.md | tr -d '`' |
	sort -u | while read -r _ cmd; do
	case $cmd in
	run | report | compare | export | merge | plot | list | exec | levels | \
	history | bisect) ;;
	*) echo "unknown: contend $cmd" ;;
	esac
done > "$tmp/unknown"
[ -s "$tmp/unknown" ] && fail "$(cat "$tmp/unknown")"

if ! command -v python3 > /dev/null 2>&1; then
	echo "$NAME: SKIP: python3 not found: the YAML was not parsed"
	[ "$fails" -eq 0 ]
	exit
fi
python3 - "$tmp"/yaml.* scripts/fleet/fleet.yml <<'PY' || fail "the YAML blocks of $doc or scripts/fleet/fleet.yml"
import sys
try:
    import yaml
except ImportError:
    sys.exit("python3-yaml is missing: sh scripts/lint-deps.sh installs it")
bad = []
docs = [yaml.safe_load(open(f)) for f in sys.argv[1:]]
lava = [d for d in docs if isinstance(d, dict) and "metadata" in d]
plays = [d for d in docs if isinstance(d, list)]
if len(lava) != 2 or len(plays) != 1:
    bad.append("want two LAVA definitions and one Ansible playbook")
for d in lava:
    m = d["metadata"]
    if m.get("format") != "Lava-Test Test Definition 1.0" or not m.get("name"):
        bad.append("LAVA: metadata.format and metadata.name")
    steps = d.get("run", {}).get("steps")
    if not steps or not all(isinstance(s, str) for s in steps):
        bad.append("LAVA: run.steps must be a list of strings")
    if not any("contend run" in s or "contend bisect" in s
               for s in steps or []):
        bad.append("LAVA: no step runs contend")
for p in plays:
    for play in p:
        if "hosts" not in play or not play.get("tasks"):
            bad.append("Ansible: a play needs hosts and tasks")
        for t in play.get("tasks", []):
            mods = [k for k in t if "." in k]
            if "name" not in t or len(mods) != 1:
                bad.append(f"Ansible: task {t.get('name')!r} must name one module")
if bad:
    sys.exit("; ".join(bad))
PY

[ "$fails" -eq 0 ] && echo "$NAME: FLEET.md's LAVA definition and Ansible playbook parse, its sh is valid"
