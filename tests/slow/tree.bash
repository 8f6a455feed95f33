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

# as_user CMD... - CMD as a user's shell runs it, not as this test: without
# bats's variables and its libexec at the head of PATH, where a `bats`
# that the suite inside (make check) runs from sh would be bats's inner
# script, which needs functions sh does not pass on ("bats_readlinkf:
# command not found", then no test run at all)
as_user() {
	local p=":$PATH:" v
	p=${p//:$BATS_LIBEXEC:/:}
	p=${p#:}
	p=${p%:}
	env $(for v in $(compgen -v BATS_); do printf -- '-u %s ' "$v"; done) PATH="$p" "$@"
}
