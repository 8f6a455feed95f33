#!/bin/bash
# tests/golden/update.sh [-j] - write tests/golden/expected/ again: every
# case of tests/golden/golden.sh (each saved run of tests/golden/runs/ and
# each CrystalDiskMark report of tests/fixtures/cdm-reports/ in every
# format, cdm merge, cdm compare, the files written beside a report),
# rendered by ./cdm (or $CDM) as tests/cli/33-golden.bats renders them.
#
# Run it only when a change of output is intended.  The golden set holds
# what cdm prints today: a refactor must leave it as it is, and a change
# in it is a change of behaviour.  Then read `git diff --stat` and `git
# diff tests/golden/expected/` whole, line by line, and commit the new
# files with the change that made them, saying in the message what
# changed in the outputs and why.
#
#   -j   the one exception: a new JSON writer changes only the layout of
#        the JSON (whitespace, line breaks).  Each .json file is then
#        checked to hold the same content as before (the same keys in the
#        same order, the same values: golden.sh's golden_json_values)
#        before it is written; any other change to a .json is refused.
#        The other files are written as always.
#
# Every case must exit 0, and the commands that share a file must print
# the same; the files no case writes any more are removed.  Takes a few
# seconds.
set -euo pipefail

. "$(dirname "$0")/golden.sh"
CDM=${CDM:-$GOLDEN_TOP/cdm}
layout=no
if [ "${1:-}" = -j ]; then
	layout=yes
	shift
fi
if [ $# -ne 0 ]; then
	echo "usage: tests/golden/update.sh [-j]" >&2
	exit 2
fi
[ -x "$CDM" ] || { echo "update.sh: no cdm at $CDM (make, or set CDM)" >&2; exit 2; }
[ -x "$GOLDEN_PLOT" ] || { echo "update.sh: no $GOLDEN_PLOT (make tools)" >&2; exit 2; }

version=$(golden_version)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cdm-golden-update.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
new=$tmp/expected
golden_render_all "$version" "$new"
if [ -s "$new/failed" ]; then
	echo "update.sh: every case must exit 0:" >&2
	cat "$new/failed" >&2
	exit 1
fi
if ! golden_check_again "$new" >&2; then
	echo "update.sh: the commands of one file must print the same (golden.sh)" >&2
	exit 1
fi
rm -rf "$new/again" "$new/failed"

if [ $layout = yes ]; then
	for f in "$new"/*.json; do
		old=$GOLDEN_EXPECTED/${f##*/}
		if [ -e "$old" ] && ! golden_json_values "$old" "$f"; then
			echo "update.sh -j: ${f##*/}: its content changed, not only its layout:" >&2
			diff -u "$old" "$f" >&2 || true
			exit 1
		fi
	done
fi

mkdir -p "$GOLDEN_EXPECTED"
rm -f "$GOLDEN_EXPECTED"/*
cp "$new"/* "$GOLDEN_EXPECTED"/
echo "update.sh: $(find "$GOLDEN_EXPECTED" -type f | wc -l) files in tests/golden/expected/; read git diff before committing" >&2
