#!/usr/bin/env bats
# The Makefile's promises: optional engines forced with =yes stop with the
# package to install, =no builds without them, and `make install` puts the
# binary, the man page and the profiles under DESTDIR/PREFIX.

load helpers

ROOT="$BATS_TEST_DIRNAME/../.."

@test "make WITH_LIBURING=yes without liburing says: install liburing-dev" {
	run make -C "$ROOT" -n WITH_LIBURING=yes PKG_CONFIG=false
	[ "$status" -ne 0 ]
	[[ "$output" == *"install liburing-dev"* ]]
}

@test "make WITH_LIBAIO=yes without libaio says: install libaio-dev" {
	# a compiler that cannot find libaio.h stands in for a machine without it
	run make -C "$ROOT" -n WITH_LIBAIO=yes CC="cc -include /nonexistent/libaio-missing.h"
	[ "$status" -ne 0 ]
	[[ "$output" == *"install libaio-dev"* ]]
}

@test "make install DESTDIR= PREFIX= installs binary, man page and profiles" {
	run make -C "$ROOT" install DESTDIR="$TD/root" PREFIX=/opt/cdm
	echo "$output"
	[ "$status" -eq 0 ]
	[ -x "$TD/root/opt/cdm/bin/cdm" ]
	[ -f "$TD/root/opt/cdm/share/man/man1/cdm.1" ]
	for p in default peak real demo nvme; do
		[ -f "$TD/root/opt/cdm/share/cdm/profiles/$p.cdm" ]
	done
	"$TD/root/opt/cdm/bin/cdm" --version
	# the installed profile files are the ones compiled in
	cmp "$TD/root/opt/cdm/share/cdm/profiles/default.cdm" "$ROOT/profiles/default.cdm"
}
