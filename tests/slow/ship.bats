#!/usr/bin/env bats
# Shipping cdm (issue 15): make static's one binary, run where nothing but
# the binary is (an empty chroot, with and without /proc, /sys and /dev);
# make dist's tarball; the Debian package; the container image.
#
# These test the shipped files, not $CDM, and build them (a static binary,
# a tarball built and checked, a package, a container): slow, so `make
# test` runs them (tests/slow/) and `make check` does not.

load ../cli/helpers
load tree

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)

# the chroot of a test: $CR, with MOUNTED the directories bound into it
CR=
MOUNTED=()

setup_file() {
	# one build of the static binary for every test of the file (tests of
	# one file may run side by side); its log for a test that needs it
	make -s -C "$ROOT" static > "$BATS_FILE_TMPDIR/static.log" 2>&1 ||
		echo failed >> "$BATS_FILE_TMPDIR/static.log"
}

teardown() {
	# nothing under $TD is removed while anything is still mounted in it:
	# rm -rf through a bound /dev would empty the host's /dev
	if ! chroot_teardown; then
		echo "30-ship: $CR still has mounts; $TD left in place" >&2
		return 1
	fi
	chmod -R u+rwx "$TD" 2>/dev/null
	rm -rf --one-file-system "$TD" "$OD"
}

# not_asan - skip in the sanitizer pass: these tests do not run $CDM
not_asan() {
	case $CDM in
	*/asan/*) skip "the shipped files, tested in the plain pass already" ;;
	esac
}

# static_bin - the static binary, built by setup_file; skip only when this
# machine cannot link a static C program at all (no libc.a)
static_bin() {
	not_asan
	if grep -q '^failed$' "$BATS_FILE_TMPDIR/static.log"; then
		if ! printf 'int main(void){return 0;}\n' | cc -static -x c - -o "$TD/probe" 2>/dev/null; then
			skip "no static C library (libc.a: Debian's libc6-dev) to link with"
		fi
		cat "$BATS_FILE_TMPDIR/static.log"
		echo "make static failed"
		return 1
	fi
	SBIN=$ROOT/cdm-static
}

# chroot_setup DIR... - an empty root at $TD/root holding only the static
# binary (/cdm) and a writable /data, with DIR (proc, sys, dev) of the host
# bound in; skips when not root or a bind mount is refused
chroot_setup() {
	[ "$(id -u)" -eq 0 ] || skip "needs root for chroot and mount --bind"
	command -v chroot >/dev/null || skip "chroot not installed"
	CR=$TD/root
	mkdir -p "$CR/data"
	cp "$SBIN" "$CR/cdm"
	for d in "$@"; do
		mkdir -p "$CR/$d"
		mount --bind "/$d" "$CR/$d" || skip "mount --bind /$d refused here"
		MOUNTED+=("$CR/$d")
	done
}

# chroot_teardown - unmount what chroot_setup bound, lazily if busy;
# fails when any mount is left under $CR
chroot_teardown() {
	local m left=0
	[ -n "$CR" ] || return 0
	for m in "${MOUNTED[@]}"; do
		umount_quiet "$m"
	done
	for m in "${MOUNTED[@]}"; do
		if mountpoint -q "$m" 2>/dev/null; then
			echo "cannot unmount $m" >&2
			left=1
		fi
	done
	[ "$left" -eq 0 ] && MOUNTED=()
	return $left
}

# works_here ENGINE - the static binary's --list-engines says ENGINE is
# built in and works on this machine
works_here() {
	"$SBIN" --list-engines | grep -qE "^$1 +yes +yes"
}

# a Default run's rows: the engine's number of tests, each read and write
# measured (its JSON tests with bytes and I/Os in every pass)
check_default_run() {	# $1 = JSON file, $2 = number of tests
	python3 - "$1" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
tests = d["tests"]
assert len(tests) == int(sys.argv[2]), len(tests)
for t in tests:
    assert t["complete"] and t["error"] is None, t["name"]
    assert t["passes_measured"] >= 1, t["name"]
    for p in t["passes"]:
        assert p["bytes"] > 0 and p["ios"] > 0, (t["name"], p)
EOF
}

@test "make static: a statically linked binary with every engine the build has" {
	static_bin
	if command -v file >/dev/null; then
		run file -L "$SBIN"
		[[ "$output" == *"statically linked"* ]]
	fi
	run "$SBIN" --version
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\nlinked: static'* ]]
	# the same engines as ./cdm: liburing and libaio are linked in, not lost
	[ "$(sed -n 's/^engines: //p' <<< "$output")" = "$("$ROOT/cdm" --version | sed -n 's/^engines: //p')" ]
	# and ./cdm is the dynamic one
	"$ROOT/cdm" --version | grep -qx 'linked: dynamic'
}

@test "the static binary in an empty chroot (/proc, /sys, /dev bound) runs the Default profile with each engine" {
	static_bin
	chroot_setup proc sys dev
	ran=
	for e in io_uring libaio sync; do
		if ! works_here "$e"; then
			echo "# $e: not usable on this machine, not run" >&3
			continue
		fi
		run chroot "$CR" /cdm -e "$e" --size 16MiB --count 1 --time 1 --interval 0 \
			--warmup 0 --save "/data/$e.json" /data
		echo "$output"
		[ "$status" -eq 0 ]
		[[ "$output" == *"Profile: Default"* ]]
		[[ "$output" == *"cdm "*" ($e, O_DIRECT)"* ]]
		# no os-release in the chroot: the distribution is unknown, the kernel is not
		[[ "$output" =~ OS:\ unknown\ \[[^]]+\]\ \(x86_64\) ]]
		# the mount holding /data is outside the chroot: its path stands for it
		[[ "$output" == *"Test: 16 MiB (x1) [/data: "* ]]
		case $e in
		sync) check_default_run "$CR/data/$e.json" 4 ;;	# every test at Q1
		*) check_default_run "$CR/data/$e.json" 8 ;;
		esac
		jq -e '.target.mount_point == null and .target.fs_type == "unknown" and
			.system.os == null and (.system.kernel | length > 0)' "$CR/data/$e.json"
		ran="$ran $e"
	done
	[[ "$ran" == *sync* ]]
	# nothing left behind in /data but the saved reports
	[ "$(ls "$CR/data" | grep -vc '\.json$')" -eq 0 ]
}

@test "the static binary with nothing mounted: every system file it reads is missing, each says unknown, the run completes" {
	static_bin
	chroot_setup	# no /proc, /sys or /dev at all
	for e in sync io_uring libaio null; do
		works_here "$e" || continue
		run chroot "$CR" /cdm -e "$e" -t "RND4K Q32T1" "${QUICK[@]}" -f json \
			--save "/data/$e.json" /data
		[ "$status" -eq 0 ] || { echo "$e: $output"; false; }
		check_default_run "$CR/data/$e.json" 2	# read and write
	done
	j=$CR/data/sync.json
	# /etc/os-release and /usr/lib/os-release: the distribution
	jq -e '.system.os == null' "$j"
	# /proc/self/mountinfo: the mount point, its type and source
	jq -e '.target.mount_point == null and .target.fs_type == "unknown" and .target.fs_source == null' "$j"
	# /sys/dev/block: the device, its model, rotational, scheduler
	jq -e '.target.device == null and .target.device_model == null and
		.target.rotational == null and .target.scheduler == null' "$j"
	# /proc/cpuinfo and /proc/meminfo
	jq -e '.system.cpu_model == null and .system.mem_total_bytes == null' "$j"
	# uname(2) needs no file: the kernel is known
	jq -e '(.system.kernel | length > 0) and .system.machine == "x86_64"' "$j"
	# the text report says unknown where the JSON says null
	run chroot "$CR" /cdm -e sync -t "SEQ1M Q1T1" "${QUICK[@]}" /data
	[ "$status" -eq 0 ]
	[[ "$output" =~ OS:\ unknown\ \[ ]]
	[[ "$output" == *"[/data: "* ]]
	run chroot "$CR" /cdm -e sync -t "SEQ1M Q1T1" "${QUICK[@]}" -f markdown /data
	[ "$status" -eq 0 ]
	[[ "$output" == *"CPU unknown"*"RAM unknown; unknown ["* ]]
}

@test "make dist, git tag and make distcheck: the tarball of every tracked file builds, passes make check and knows its version" {
	not_asan
	src_copy "$TD/src"
	run make -s -C "$TD/src" -j2 dist
	echo "$output"
	[ "$status" -eq 0 ]
	# no tag in the copy: the Makefile's VERSION and the commit
	v=$(sed -n 's/^VERSION *:= *//p' "$ROOT/Makefile")-g$(git -C "$TD/src" describe --always)
	tgz=$TD/src/cdm-$v.tar.gz bin=$TD/src/cdm-$v-linux-x86_64
	[ -f "$tgz" ]
	[ -x "$bin" ]
	# the release files are ignored: the checkout stays clean
	[ -z "$(git -C "$TD/src" status --porcelain)" ]
	# every entry under cdm-VERSION/, every tracked file, VERSION, nothing else
	tar tzf "$tgz" | grep -v "^cdm-$v/" && false
	diff <(tar tzf "$tgz" | grep -v '/$' | sed "s|^cdm-$v/||" | sort) \
		<( (git -C "$TD/src" ls-files; echo VERSION) | sort)
	# built from the tarball (no git), it says the tarball's version
	mkdir "$TD/x"
	tar xzf "$tgz" -C "$TD/x"
	[ "$(cat "$TD/x/cdm-$v/VERSION")" = "$v" ]
	# (unoptimised: the version is the subject; distcheck builds it as shipped)
	run make -s -C "$TD/x/cdm-$v" -j2 CFLAGS=-O0 cdm
	[ "$status" -eq 0 ]
	[ "$("$TD/x/cdm-$v/cdm" --version | head -1)" = "cdm $v" ]
	# the binary is the static one, of the same version
	[ "$("$bin" --version | head -1)" = "cdm $v" ]
	"$bin" --version | grep -qx 'linked: static'
	# the release, as docs/install.md makes it: tagged, then the release
	# check (the tarball unpacked elsewhere builds and passes make check)
	git -C "$TD/src" tag v0.1.0
	run as_user make -s -C "$TD/src" distcheck
	echo "$output" | tail -30
	[ "$status" -eq 0 ]
	[[ "$output" == *"make distcheck: cdm-0.1.0.tar.gz builds and passes make check"* ]]
	[ -f "$TD/src/cdm-0.1.0.tar.gz" ] && [ -x "$TD/src/cdm-0.1.0-linux-x86_64" ]
	# a tree with uncommitted changes is refused: the tarball would not hold them
	echo >> "$TD/src/README.md"
	run make -s -C "$TD/src" dist
	[ "$status" -ne 0 ]
	[[ "$output" == *"make dist: uncommitted changes"* ]]
}

@test "the Debian package: builds with its make check, lintian shows no error, installs cdm, man page, profiles and docs, removes to nothing" {
	not_asan
	[ "$(id -u)" -eq 0 ] || skip "needs root to install the package"
	command -v dpkg-buildpackage >/dev/null && command -v dh >/dev/null ||
		skip "dpkg-buildpackage or debhelper not installed (apt-get install dpkg-dev debhelper)"
	! dpkg -s cdm >/dev/null 2>&1 || skip "a cdm package is installed here already: not replaced"
	src_copy "$TD/pkg/cdm"
	# as README.md and docs/install.md say, in a git checkout, with the
	# make check the package build runs (whose --version test once wanted
	# the commit's version where debian/rules gives the package's); the
	# tree readable by all, as the tests that drop root's privileges run
	# the binary built there as nobody
	chmod 755 "$TD" "$TD/pkg"
	(cd "$TD/pkg/cdm" && as_user dpkg-buildpackage -us -uc -b) > "$TD/build.log" 2>&1 ||
		{ sed -n '/^not ok/,/^ok /p' "$TD/build.log"; tail -30 "$TD/build.log"; false; }
	grep -E '^[0-9]+ passed, 0 failed, [0-9]+ skipped$' "$TD/build.log"
	deb=$(ls "$TD"/pkg/cdm_*_*.deb)
	[[ "$deb" =~ /cdm_0\.1\.0-1_[a-z0-9]+\.deb$ ]]
	if command -v lintian >/dev/null; then
		# its own temporary files (an mldbm cache it leaves in $TMPDIR) under
		# $TD, removed with it
		run env TMPDIR="$TD" lintian "$deb"
		echo "$output"
		! grep -q '^E:' <<< "$output" || false
	fi
	run dpkg -c "$deb"
	for f in ./usr/bin/cdm ./usr/share/man/man1/cdm.1.gz ./usr/share/cdm/profiles/default.cdm \
		./usr/share/doc/cdm/copyright ./usr/share/doc/cdm/README.md.gz ./usr/share/doc/cdm/changelog.gz; do
		grep -q " $f\$" <<< "$output" || { echo "not in the package: $f"; false; }
	done
	# the completions, once the tree has them
	[ ! -f "$ROOT/completions/cdm.bash" ] ||
		grep -q ' ./usr/share/bash-completion/completions/cdm$' <<< "$output"
	[ ! -f "$ROOT/completions/_cdm" ] ||
		grep -q ' ./usr/share/zsh/vendor-completions/_cdm$' <<< "$output"
	# installed as docs/install.md says (apt-get, from the local file)
	if command -v apt-get >/dev/null; then
		(cd "$TD/pkg/cdm" && apt-get install -y "../$(basename "$deb")")
	else
		dpkg -i "$deb"
	fi
	files=$(dpkg -L cdm)
	run /usr/bin/cdm --version
	dpkg -r cdm
	dpkg --purge cdm
	[ "$status" -eq 0 ]
	# the package's upstream version, not the commit it was built from
	[ "${lines[0]}" = "cdm 0.1.0" ]
	! dpkg -s cdm >/dev/null 2>&1 || false
	# nothing the package installed is left (directories other packages share may stay)
	left=
	while read -r f; do
		[ -e "$f" ] && [ ! -d "$f" ] && left="$left $f"
	done <<< "$files"
	[ -z "$left" ] || { echo "left behind:$left"; false; }
	[ ! -e /usr/share/cdm ] && [ ! -e /usr/share/doc/cdm ]
}

# podman or buildah, whichever is installed, building Containerfile; with
# no cache, so that two tests side by side share no layer (the other's rmi
# removed a cached one mid-build: "layer not known")
container_build() {	# $1 = image name
	if command -v podman >/dev/null; then
		podman build --no-cache --layers=false --network none -f "$ROOT/Containerfile" -t "$1" "$ROOT"
	elif command -v buildah >/dev/null; then
		buildah bud --no-cache --network none -f "$ROOT/Containerfile" -t "$1" "$ROOT"
	else
		return 127
	fi
}

@test "Containerfile: FROM scratch, the static binary alone, cdm /data by default" {
	static_bin
	command -v podman >/dev/null || command -v buildah >/dev/null ||
		skip "neither podman nor buildah is installed (apt-get install podman)"
	[ "$(id -u)" -eq 0 ] || skip "needs root for the image's file system (podman image mount)"
	IMG=localhost/cdm-test-$$-$BATS_TEST_NUMBER
	run container_build "$IMG"
	echo "$output"
	[ "$status" -eq 0 ]
	cli=podman
	command -v podman >/dev/null || cli=buildah
	run $cli inspect --format '{{json .Config.Entrypoint}} {{json .Config.Cmd}}' "$IMG"
	[ "$status" -eq 0 ] && [ "$output" = '["/cdm"] ["/data"]' ] ||
		{ echo "$output"; $cli rmi -f "$IMG"; false; }
	# its file system: /cdm, the static binary, and nothing else (read
	# through podman's image mount; buildah's build is checked by its config)
	files=./cdm same=yes
	if [ $cli = podman ]; then
		m=$(podman image mount "$IMG") || { podman rmi -f "$IMG"; false; }
		files=$(cd "$m" && find . -mindepth 1)
		cmp -s "$m/cdm" "$SBIN" || same=no
		podman image unmount "$IMG" >/dev/null || true
	fi
	$cli rmi -f "$IMG" >/dev/null 2>&1 || true
	[ "$files" = ./cdm ] || { echo "the image holds: $files"; false; }
	[ "$same" = yes ]
}

@test "the container image runs cdm on a host directory (podman run)" {
	static_bin
	command -v podman >/dev/null || skip "podman not installed (apt-get install podman)"
	[ "$(id -u)" -eq 0 ] || skip "rootful podman needed for a volume on any directory"
	IMG=localhost/cdm-test-$$-$BATS_TEST_NUMBER
	run container_build "$IMG"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	run podman run --rm --network none "$IMG" --version
	if [ "$status" -ne 0 ] && [[ "$output" == *"OCI"* ]]; then
		podman rmi -f "$IMG" >/dev/null 2>&1
		skip "podman cannot start a container here: $(tail -1 <<< "$output")"
	fi
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\nlinked: static'* ]]
	run podman run --rm --network none -v "$TD:/data" "$IMG" -e sync -t "SEQ1M Q1T1" "${QUICK[@]}" \
		--save /data/r.json
	podman rmi -f "$IMG" >/dev/null 2>&1 || true
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" =~ OS:\ unknown\ \[ ]]
	check_default_run "$TD/r.json" 2
}

@test "make static without liburing or libaio says which package to install" {
	not_asan
	run make -C "$ROOT" -n static PKG_CONFIG=false
	[ "$status" -ne 0 ]
	[[ "$output" == *"make static: liburing not found: install liburing-dev"* ]]
	# a compiler that cannot find libaio.h stands in for a machine without it
	run make -C "$ROOT" -n static CC="cc -include /nonexistent/libaio-missing.h"
	[ "$status" -ne 0 ]
	[[ "$output" == *"make static: libaio not found: install libaio-dev"* ]]
}
