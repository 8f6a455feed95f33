#!/usr/bin/env bats
# The set-up and build commands of README.md and docs/install.md, as
# written, where a user runs them: the install lines, and make, ./cdm,
# the man page and make install in a fresh git clone.  The package build
# with its make check and make dist/distcheck are in ship.bats; which test
# runs each command is tests/doc-commands.txt (tests/cli/34-doc-commands
# checks that every command of those blocks is there).

load ../cli/helpers
load tree

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)

# doc_commands - the commands of README.md's and docs/install.md's shell
# blocks, one a line
doc_commands() {
	awk -f "$ROOT/tests/tools/doc-commands.awk" "$ROOT/README.md" "$ROOT/docs/install.md"
}

@test "the install lines: every package README.md and docs/install.md name is one apt-get can install (apt-get -s)" {
	command -v apt-get >/dev/null || skip "not a Debian system (no apt-get)"
	ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1 ||
		skip "no package lists here (apt-get update, which needs the network)"
	n=0
	while IFS= read -r c; do
		# "apt-get update && apt-get install -y ...": the install, simulated
		pkgs=${c##*apt-get install -y }
		run apt-get -s install -y $pkgs
		[ "$status" -eq 0 ] || { echo "$c"; echo "$output" | tail -5; false; }
		n=$((n + 1))
	done < <(doc_commands | grep 'apt-get install -y ')
	[ "$n" -eq 3 ]
}

@test "a fresh clone: make, ./cdm ., man ./docs/cdm.1 and make install DESTDIR= work as written" {
	case $CDM in */asan/*) skip "the tree, tested in the plain pass already" ;; esac
	src_copy "$TD/src"
	git clone -q "$TD/src" "$TD/clone"
	cd "$TD/clone"
	# README.md's "make && ./cdm .": the build, then the run, on the null
	# engine's simulated device with short passes (the Default run itself
	# takes five minutes)
	run make
	[ "$status" -eq 0 ] || { echo "$output" | tail -20; false; }
	[[ "$output" != *"warning:"* ]] || { echo "$output" | grep warning:; false; }
	run ./cdm . -e null --null-device lat=200us "${QUICK[@]}"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"Profile: Default"* ]]
	[ -z "$(ls cdm-*.tmp 2>/dev/null)" ]
	# a clone with no tag: the Makefile's VERSION and the commit
	v=$(sed -n 's/^VERSION *:= *//p' Makefile)-g$(git describe --always)
	[ "$(./cdm --version | head -1)" = "cdm $v" ]
	# "man ./docs/cdm.1": the manual, before installing
	if command -v man >/dev/null; then
		run env MANPAGER=cat man ./docs/cdm.1
		[ "$status" -eq 0 ]
		[[ "$output" == *"--allow-destructive-write"* ]]
	fi
	# "make install", staged with DESTDIR= as docs/install.md says
	run make install DESTDIR="$TD/stage"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ "$("$TD/stage/usr/local/bin/cdm" --version | head -1)" = "cdm $v" ]
	[ -f "$TD/stage/usr/local/share/man/man1/cdm.1" ]
	[ -f "$TD/stage/usr/local/share/cdm/profiles/default.cdm" ]
	[ -f "$TD/stage/usr/local/share/bash-completion/completions/cdm" ]
	# and the clone is as clean as it came: every build output ignored
	[ -z "$(git status --porcelain)" ] || { git status --porcelain; false; }
}
