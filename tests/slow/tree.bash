# tree.bash - the source tree as a user gets it, for the slow tests
# (ship.bats, readme.bats).

# src_copy DIR - the working tree's files (git's list: tracked and new, not
# ignored) in DIR as a fresh git repository of one commit, so that make
# dist there sees a clean checkout of exactly this tree
src_copy() {
	command -v git >/dev/null && [ -e "$ROOT/.git" ] || skip "not a git checkout"
	mkdir -p "$1"
	git -C "$ROOT" ls-files -z --cached --others --exclude-standard |
		(cd "$ROOT" && xargs -0 tar cf -) | tar xf - -C "$1"
	git -C "$1" init -q
	git -C "$1" add -A
	git -C "$1" -c user.name=cdm-test -c user.email=cdm-test@localhost commit -qm copy
}

# the package build and make distcheck run make check inside a test:
# minutes, under the other slow tests beside them
CDM_TEST_TIMEOUT=${CDM_SLOW_TEST_TIMEOUT:-900}
