#!/bin/sh
# e2e_gitbisect.sh - real `git bisect run` over a throwaway history whose
# commits change what a `command` workload prints, with the step script
# of docs/AB-KERNEL.md: the regression at commit 11 of 16 is found; a
# kernel whose runs collapse (every second run prints 0) is bad, so the
# commit that brings the collapse is found; a mistyped --baseline, a
# read-only database and a full disk (tmpfs mounts; skipped with the
# reason where mount fails) abort the bisection: git exits non-zero and
# names no commit.
NAME=e2e_gitbisect
. "$(dirname "$0")/lib.sh"
command -v git > /dev/null 2>&1 || { echo "$NAME: SKIP: git not found"; exit 0; }

export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org \
	GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org
repo=$tmp/repo
db=$tmp/lab.db
git init -q "$repo" || die "git init"
# the "kernel": the level it runs at, or "collapse" (every second run 0)
cat > "$tmp/b.ini" <<INI
[experiment]
name        = gitbisect
repetitions = 10
warmup      = 0

[workload cmd]
type   = command
shell  = yes
argv   = read l < $repo/level; read c < $tmp/count; echo \$((c + 1)) > $tmp/count; if [ "\$l" = collapse ]; then [ \$((c % 2)) = 0 ] && { echo ops 0; exit 0; }; l=1000; fi; echo ops \$((\$\$ % 7 + l))
metric = ^ops ([0-9]+)\$
INI
echo 0 > "$tmp/count"

# history COMMITS BAD_FROM BAD_LEVEL: a fresh branch of COMMITS commits,
# level 1000 before commit BAD_FROM and BAD_LEVEL from it on
history() {
	git -C "$repo" checkout -q --orphan "h$1$2$3" 2> /dev/null ||
		die "branch"
	git -C "$repo" rm -rfq . > /dev/null 2>&1
	i=1
	while [ "$i" -le "$1" ]; do
		if [ "$i" -lt "$2" ]; then echo 1000; else echo "$3"; fi \
			> "$repo/level"
		echo "$i" > "$repo/n"
		git -C "$repo" add level n &&
			git -C "$repo" commit -qm "commit $i" || die "commit $i"
		i=$((i + 1))
	done
}
# sha N: commit N of the current branch
sha() { git -C "$repo" rev-list --reverse HEAD | sed -n "${1}p"; }

# the step over up to three boots, as docs/AB-KERNEL.md prints it
# (here the kernel is booted already: booting it again does nothing)
cat > "$tmp/step.sh" <<EOF
#!/bin/sh
boot_again() { :; }
cont=
for boot in 1 2 3; do
	[ "\$boot" -eq 1 ] || boot_again || exit 128
	"$CONTEND" bisect "$tmp/b.ini" --db "\$STEP_DB" \\
		--baseline "\$STEP_BASELINE" --regression 5 --quiet \$cont
	st=\$?
	[ "\$st" -eq 125 ] || exit "\$st"
	cont=--continue
done
exit 125
EOF
# bisect DB BASELINE: git bisect run between commit 1 and HEAD; git's
# output in $tmp/git, its status returned
bisect() {
	git -C "$repo" bisect reset > /dev/null 2>&1
	git -C "$repo" bisect start HEAD "$(sha 1)" > /dev/null 2>&1 ||
		die "bisect start"
	(cd "$repo" && STEP_DB=$1 STEP_BASELINE=$2 \
		git bisect run sh "$tmp/step.sh") > "$tmp/git" 2>&1
	st=$?
	git -C "$repo" bisect reset > /dev/null 2>&1
	return $st
}
# aborted WHAT: git failed and named no commit
aborted() {
	[ "$1" -ne 0 ] || fail "$2: git bisect run exited 0: $(tail -3 "$tmp/git")"
	grep -q "is the first bad commit" "$tmp/git" &&
		fail "$2: a commit was blamed: $(grep "first bad" "$tmp/git")"
	grep -q "exit code 12[89]" "$tmp/git" ||
		fail "$2: not stopped by a status >= 128: $(tail -3 "$tmp/git")"
}

history 16 11 900
k=$(sha 11)
# the baseline: three boots of the good kernel (commit 1)
git -C "$repo" checkout -q "$(sha 1)"
for boot in 1 2 3; do
	"$CONTEND" run "$tmp/b.ini" --db "$db" --label good --quiet \
		> /dev/null 2>&1 || die "baseline boot $boot"
done
git -C "$repo" checkout -q "h1611900"

bisect "$db" good
expect "regression found: git's status" 0 $?
grep -q "^$k is the first bad commit" "$tmp/git" ||
	fail "commit 11 not named: $(grep "first bad" "$tmp/git")"

# a mistyped baseline is bad input (128), not "bad"
bisect "$db" goood
aborted $? "mistyped --baseline"
grep -q "no experiment 'goood'" "$tmp/git" ||
	fail "the mistyped baseline is not said: $(cat "$tmp/git")"

# a kernel whose runs collapse (every second one prints 0) is bad
history 16 6 collapse
bisect "$db" good
expect "collapse found: git's status" 0 $?
grep -q "collapsed runs (failed, or not above 0): [0-9]* of" "$tmp/git" ||
	fail "the collapse is not said: $(cat "$tmp/git")"
grep -q "^$(sha 6) is the first bad commit" "$tmp/git" ||
	fail "the collapse at commit 6 not named: $(tail -5 "$tmp/git")"
git -C "$repo" checkout -q "h1611900"

# a read-only database and a full disk: tmpfs mounts
mnt=$tmp/mnt
mkdir -p "$mnt"
if mount -t tmpfs -o size=4m tmpfs "$mnt" 2> "$tmp/mount"; then
	trap 'umount "$mnt" 2>/dev/null; rm -rf "$tmp"' EXIT
	cp "$db" "$mnt/lab.db" || die "copy to tmpfs"
	mount -o remount,ro "$mnt" || die "remount read-only"
	bisect "$mnt/lab.db" good
	aborted $? "read-only database"
	mount -o remount,rw "$mnt" || die "remount read-write"
	# full: what is left of the 4 MiB taken by a file, so that the
	# step's writes fail on ENOSPC: at once, and with 256 KiB left,
	# mid-step (its plan written, its looks or status not)
	dd if=/dev/zero of="$mnt/fill" bs=4k > /dev/null 2>&1
	bisect "$mnt/lab.db" good
	aborted $? "full disk"
	truncate -s -256K "$mnt/fill" || fail "truncate"
	bisect "$mnt/lab.db" good
	aborted $? "a disk that fills mid-step"
	umount "$mnt" || fail "umount"
	trap 'rm -rf "$tmp"' EXIT
else
	echo "$NAME: SKIP (read-only and full disk): mount failed: $(cat "$tmp/mount")"
fi
[ "$fails" -eq 0 ] && echo "$NAME: git bisect run finds the regression and the collapse; bad input, a read-only database and a full disk abort it"
[ "$fails" -eq 0 ]
