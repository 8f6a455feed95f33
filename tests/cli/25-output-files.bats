#!/usr/bin/env bats
# Every file cdm writes, of every command: -o/--output of cdm, compare,
# import, report and merge, --save (cdm, import, merge, sweep), --svg,
# --plot (cdm, sweep).  Each is written atomically (target/outfile.c: a
# temporary in the same directory, fsync, rename): a full disk names
# ENOSPC and leaves the old file as it was and no temporary; a signal
# (INT, TERM, HUP) during the write leaves no temporary and no new file.
# Standard output stays a stream.  "-" is stdin for every command that
# reads a result, "-o -" is stdout, "--save -"/"--svg -"/"--plot -" are
# refused.  A file's name with a newline or bytes that are not UTF-8 is
# one line in every error and label.

load helpers

FIX="$BATS_TEST_DIRNAME/../fixtures/cdm-reports"

NULLRUN=(--size 16MiB --count 1 --time 1 --interval 0 --warmup 0 --quiet
	--engine null --null-service-us 50)

setup() {
	watchdog_start "$BASHPID" "${CDM_TEST_TIMEOUT:-300}"
	TD=$(mktemp -d "${BATS_TMPDIR:-/tmp}/cdmtest.XXXXXX")
	OD=$(mktemp -d "${BATS_TMPDIR:-/tmp}/cdmout.XXXXXX")
	MNT=
	tail -n +2 "$FIX/cdm8-default-nvme-1.txt" > "$OD/X.txt"
	tail -n +2 "$FIX/cdm7-default-hdd-1.txt" > "$OD/Y.txt"
}

teardown() {
	# the small filesystem goes even when the test failed
	fs_teardown
}

# a cdm run on the null engine saved as $OD/run.json (for report, merge, compare)
saved_run() {
	"$CDM" "${NULLRUN[@]}" -t "RND4K Q1T1" --save "$OD/run.json" "$TD" > /dev/null
}

# full_fs - MNT: a 12 KiB tmpfs holding keep.txt ("old") and a filler that
# takes the rest, so that any write fails with ENOSPC
full_fs() {
	fs_setup mount
	mount -t tmpfs -o size=12k tmpfs "$MNT" || skip "cannot mount a tmpfs"
	echo old > "$MNT/keep.txt"
	head -c 65536 /dev/zero > "$MNT/fill" 2> /dev/null || true
	# a write that works means the filler left room: nothing here would fail
	if echo x > "$MNT/probe" 2> /dev/null; then
		skip "the tmpfs is not full"
	fi
	rm -f "$MNT/probe"
}

# enospc WHAT EXIT - the last run failed with one line naming ENOSPC and
# left MNT as it was: keep.txt "old", no temporary, no new file
enospc() {
	echo "$1: status $status: $output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"No space left on device"* ]]
	[[ "$output" != *"Input/output error"* ]]
	[ "$(cat "$MNT/keep.txt")" = old ]
	[ "$(ls -A "$MNT" | tr '\n' ' ')" = "fill keep.txt " ]
}

@test "a full disk: every -o of every command names ENOSPC, keeps the old file, leaves no temporary" {
	full_fs
	saved_run
	run "$CDM" import "$OD/X.txt" --format cdm -o "$MNT/keep.txt"
	enospc "import -o" && [ "${lines[0]}" = "cdm: $MNT/keep.txt: writing the report failed: No space left on device" ]
	run "$CDM" report "$OD/run.json" --format cdm -o "$MNT/keep.txt"
	enospc "report -o"
	run "$CDM" report "$OD/run.json" --format svg -o "$MNT/r.svg"
	enospc "report -o new file"
	run "$CDM" compare --format svg -o "$MNT/c.svg" "$OD/X.txt" "$OD/run.json"
	enospc "compare -o" && [ "${lines[-1]}" = "cdm: $MNT/c.svg: writing the comparison failed: No space left on device" ]
	run "$CDM" merge -o "$MNT/keep.txt" "$OD/run.json"
	enospc "merge -o"
	run "$CDM" "${NULLRUN[@]}" -t "RND4K Q1T1" --format svg -o "$MNT/run.svg" "$TD"
	enospc "cdm -o"
	assert_clean "$TD"
}

@test "a full disk: every --save, --svg and --plot names ENOSPC and leaves no temporary" {
	full_fs
	saved_run
	run "$CDM" import "$OD/X.txt" --save "$MNT/i.json"
	enospc "import --save" && [ "$output" = "cdm: $MNT/i.json: cannot save the imported run: No space left on device" ]
	run "$CDM" merge --save "$MNT/m.json" "$OD/run.json"
	enospc "merge --save"
	run "$CDM" "${NULLRUN[@]}" -t "RND4K Q1T1" --save "$MNT/s.json" "$TD"
	enospc "cdm --save"
	run "$CDM" "${NULLRUN[@]}" -t "RND4K Q1T1" --svg "$MNT/card.svg" "$TD"
	enospc "cdm --svg"
	run "$CDM" "${NULLRUN[@]}" -t "RND4K Q1T1" --log-interval 500ms --plot "$MNT/p.svg" "$TD"
	enospc "cdm --plot"
	run "$CDM" sweep "${NULLRUN[@]}" --threads 1,2 --save "$MNT/sw.json" "$TD"
	enospc "sweep --save"
	run "$CDM" sweep "${NULLRUN[@]}" --threads 1,2 --plot "$MNT/sw.svg" "$TD"
	enospc "sweep --plot"
	assert_clean "$TD"
}

@test "a full disk under stdout: the report's error names ENOSPC" {
	full_fs
	run sh -c '"$1" import "$2" --format svg > "$3"' sh "$CDM" "$OD/X.txt" "$MNT/keep.txt"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$output" = "cdm: stdout: writing the report failed: No space left on device" ]
}

@test "-o into a regular file replaces it atomically, keeping its mode; a symlink's file is replaced, a FIFO is written in place" {
	echo old > "$OD/r.txt"
	chmod 640 "$OD/r.txt"
	ino=$(stat -c %i "$OD/r.txt")
	run "$CDM" import "$OD/X.txt" -o "$OD/r.txt"
	[ "$status" -eq 0 ]
	[ "$(stat -c %a "$OD/r.txt")" = 640 ]
	[ "$(stat -c %i "$OD/r.txt")" != "$ino" ]
	grep -q "Crucial P2" "$OD/r.txt"
	# through a symlink: the file it names, the link kept
	echo old > "$OD/target.md"
	ln -s target.md "$OD/link.md"
	run "$CDM" import "$OD/X.txt" --format markdown -o "$OD/link.md"
	[ "$status" -eq 0 ]
	[ -L "$OD/link.md" ]
	grep -q "Crucial P2" "$OD/target.md"
	# a FIFO: written in place, as a shell's > does
	mkfifo "$OD/fifo"
	# the reader holds none of bats's descriptors (helpers.bash, watchdog_start)
	(
		for fd in /proc/self/fd/*; do
			fd=${fd##*/}
			[ "$fd" -gt 2 ] && eval "exec $fd>&-"
		done
		exec cat "$OD/fifo"
	) < /dev/null > "$OD/from-fifo" 2> /dev/null &
	reader=$!
	run "$CDM" import "$OD/X.txt" -o "$OD/fifo"
	wait "$reader"
	[ "$status" -eq 0 ]
	[ -p "$OD/fifo" ]
	grep -q "Crucial P2" "$OD/from-fifo"
	run "$CDM" import "$OD/X.txt" -o /dev/null
	[ "$status" -eq 0 ]
	[ -c /dev/null ]
	[ -z "$(find "$OD" -mindepth 1 -name '*.??????')" ]
}

@test "an existing output in a directory cdm cannot write is refused before any I/O" {
	[ "$(id -u)" -ne 0 ] || command -v setpriv > /dev/null || skip "root without setpriv"
	saved_run
	mkdir "$OD/ro"
	echo old > "$OD/ro/r.json"
	chmod 666 "$OD/ro/r.json"
	chmod 555 "$OD/ro"
	asuser=()
	[ "$(id -u)" -ne 0 ] || asuser=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	cp "$OD/run.json" "$TD/run.json"
	chmod 755 "$OD" "$TD"
	chmod 644 "$TD/run.json"
	run "${asuser[@]}" "$CDM" merge --save "$OD/ro/r.json" "$TD/run.json"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "cdm: $OD/ro/r.json: cannot replace it for --save: its directory $OD/ro: Permission denied" ]
	[ "$(cat "$OD/ro/r.json")" = old ]
	chmod 755 "$OD/ro"
}

@test "an output under a regular file, as if it were a directory: 'is not a directory', before any I/O" {
	saved_run
	echo keep > "$OD/afile"
	for opt in --output --save --svg --plot; do
		ext=txt
		case $opt in --save) ext=json ;; --svg | --plot) ext=svg ;; esac
		extra=()
		[ "$opt" != --plot ] || extra=(--log-interval 1s)
		run "$CDM" "${NULLRUN[@]}" -t RND4K "${extra[@]}" "$opt" "$OD/afile/x.$ext" "$TD"
		echo "$output"
		[ "$status" -eq 1 ]
		[ "${#lines[@]}" -eq 1 ]
		[ "${lines[0]}" = "cdm: $OD/afile/x.$ext: cannot create the file for $opt: $OD/afile is not a directory" ]
	done
	run "$CDM" report --svg "$OD/afile/c.svg" "$OD/run.json"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "cdm: $OD/afile/c.svg: cannot create the file for --svg: $OD/afile is not a directory" ]
	[ "$(cat "$OD/afile")" = keep ]
	assert_clean "$TD"
}

# signal_mid_write SIG FILE CMD... - run CMD with every fsync slowed by
# 2 s (strace's fault injection), send SIG to it as soon as the temporary
# of FILE ("FILE.XXXXXX") exists, i.e. while FILE is being written; ST is
# its exit status, its stderr in $OD/err.  The wait for the temporary uses
# only shell builtins, so a loaded machine cannot make it miss the window.
signal_mid_write() {
	local sig=$1 file=$2 sp pid=
	shift 2
	command -v strace > /dev/null || skip "strace not installed: no way to hold a write open"
	# set -m: a background job of a non-interactive shell ignores SIGINT otherwise
	set -m
	# LeakSanitizer cannot work under ptrace (helpers.bash, traced); not
	# traced itself: pgrep -P below must find cdm as strace's child
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -f -o /dev/null -e trace=fsync -e inject=fsync:delay_enter=2000000 "$@" \
		> "$OD/out" 2> "$OD/err" &
	sp=$!
	set +m
	for _ in $(seq 400); do
		pid=$(pgrep -P "$sp" | head -1)
		[ -n "$pid" ] && break
		sleep 0.05
	done
	for _ in $(seq 2000); do
		[ -n "$pid" ] && compgen -G "$file.??????" > /dev/null && break
		kill -0 "$sp" 2> /dev/null || { pid=; break; }
		sleep 0.01
	done
	compgen -G "$file.??????" > /dev/null || pid=
	[ -n "$pid" ] || { kill -9 "$sp" 2> /dev/null; wait "$sp"; echo "no temporary of $file appeared"; return 1; }
	kill -s "$sig" "$pid"
	ST=0
	wait "$sp" || ST=$?
	cat "$OD/err"
}

# nothing of FILE: no temporary, no new file
no_file() {
	[ -z "$(find "$(dirname "$1")" -maxdepth 1 -name "$(basename "$1")*")" ] || {
		ls -la "$(dirname "$1")"; return 1; }
}

@test "a signal while a subcommand writes its file: no temporary, no file, ended by the signal" {
	saved_run
	signal_mid_write INT "$OD/sig.json" "$CDM" import "$OD/X.txt" --save "$OD/sig.json"
	[ "$ST" -eq 130 ]
	no_file "$OD/sig.json"
	signal_mid_write TERM "$OD/sig.json" "$CDM" import "$OD/X.txt" --save "$OD/sig.json"
	[ "$ST" -eq 143 ]
	no_file "$OD/sig.json"
	signal_mid_write HUP "$OD/sig.json" "$CDM" import "$OD/X.txt" --save "$OD/sig.json"
	[ "$ST" -eq 129 ]
	no_file "$OD/sig.json"
	signal_mid_write INT "$OD/i.svg" "$CDM" import "$OD/X.txt" --format svg -o "$OD/i.svg"
	[ "$ST" -eq 130 ]
	no_file "$OD/i.svg"
	signal_mid_write TERM "$OD/rep.svg" "$CDM" report "$OD/run.json" --format svg -o "$OD/rep.svg"
	[ "$ST" -eq 143 ]
	no_file "$OD/rep.svg"
	signal_mid_write HUP "$OD/c.md" "$CDM" compare --format markdown -o "$OD/c.md" "$OD/X.txt" "$OD/run.json"
	[ "$ST" -eq 129 ]
	no_file "$OD/c.md"
	signal_mid_write INT "$OD/m.txt" "$CDM" merge -o "$OD/m.txt" "$OD/run.json"
	[ "$ST" -eq 130 ]
	no_file "$OD/m.txt"
	signal_mid_write TERM "$OD/m.json" "$CDM" merge --save "$OD/m.json" "$OD/run.json"
	[ "$ST" -eq 143 ]
	no_file "$OD/m.json"
	# an old file is left as it was
	echo old > "$OD/keep.txt"
	signal_mid_write INT "$OD/keep.txt" "$CDM" import "$OD/X.txt" -o "$OD/keep.txt"
	[ "$ST" -eq 130 ]
	[ "$(cat "$OD/keep.txt")" = old ]
	[ -z "$(find "$OD" -mindepth 1 -name '*.??????')" ]
}

@test "a signal while a run or a sweep writes its files: that file and those after it are not written, exit 128+N, nothing left" {
	signal_mid_write TERM "$OD/run.txt" "$CDM" "${NULLRUN[@]}" -t "RND4K Q1T1" -o "$OD/run.txt" \
		--save "$OD/run.json" --svg "$OD/run.svg" "$TD"
	[ "$ST" -eq 143 ]
	grep -qx "cdm: $OD/run.txt: not written: a signal came while cdm was writing it" "$OD/err"
	grep -qx "cdm: interrupted by Terminated after the run ended; the test file was removed" "$OD/err"
	no_file "$OD/run.txt"
	no_file "$OD/run.json"
	# the card is written first (a report links only a card that is there): whole
	xmllint --noout "$OD/run.svg"
	rm "$OD/run.svg"
	signal_mid_write HUP "$OD/card.svg" "$CDM" "${NULLRUN[@]}" -t "RND4K Q1T1" --svg "$OD/card.svg" "$TD"
	[ "$ST" -eq 129 ]
	no_file "$OD/card.svg"
	# --plot's chart is written first: a signal then stops the card, the
	# report and --save, and an old card is left as it was
	echo old > "$OD/old.svg"
	signal_mid_write TERM "$OD/pl.svg" "$CDM" "${NULLRUN[@]}" -t "RND4K Q1T1" --log-interval 250ms \
		--plot "$OD/pl.svg" --svg "$OD/old.svg" -o "$OD/pl.txt" --save "$OD/pl.json" "$TD"
	[ "$ST" -eq 143 ]
	grep -qx "cdm: $OD/pl.svg: not written: a signal came while cdm was writing it" "$OD/err"
	no_file "$OD/pl.svg"
	no_file "$OD/pl.txt"
	no_file "$OD/pl.json"
	[ "$(cat "$OD/old.svg")" = old ]
	rm "$OD/old.svg"
	signal_mid_write INT "$OD/sw.json" "$CDM" sweep "${NULLRUN[@]}" --threads 1,2 --save "$OD/sw.json" "$TD"
	grep -qx "cdm: interrupted by Interrupt after the sweep ended; the test file was removed" "$OD/err"
	[ "$ST" -eq 130 ]
	no_file "$OD/sw.json"
	assert_clean "$TD"
}

@test "- is standard input for compare, report, import and merge, once per command line" {
	saved_run
	run sh -c '"$1" compare - "$2" < "$3"' sh "$CDM" "$OD/run.json" "$OD/X.txt"
	[ "$status" -eq 0 ]
	[[ "$output" == *"1: Crucial P2 2TB"* ]]
	run sh -c '"$1" report --format markdown - < "$2"' sh "$CDM" "$OD/run.json"
	[ "$status" -eq 0 ]
	[[ "$output" == *"| RND4K Q1T1 Read |"* ]]
	run sh -c '"$1" import --format json - < "$2"' sh "$CDM" "$OD/X.txt"
	[ "$status" -eq 0 ]
	[[ "$output" == *'"file": "stdin"'* ]]
	run sh -c '"$1" merge - < "$2"' sh "$CDM" "$OD/run.json"
	[ "$status" -eq 0 ]
	# a report without a Comment read from stdin is labelled "stdin"
	run sh -c 'grep -v Comment "$2" | "$1" compare - "$3"' sh "$CDM" "$OD/X.txt" "$OD/Y.txt"
	[ "$status" -eq 0 ]
	[[ "$output" == *"  1: stdin "* ]]
	# its errors name stdin
	run sh -c 'echo "not a report" | "$1" compare "$2" -' sh "$CDM" "$OD/X.txt"
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "cdm: stdin: "* ]]
	for sub in compare merge; do
		run "$CDM" "$sub" - - < "$OD/run.json"
		[ "$status" -eq 2 ]
		[ "${lines[0]}" = "cdm: - (standard input) given more than once: it can be read once" ]
	done
}

@test "-o - is stdout; --save -, --svg - and --plot - are refused in one line, no file named -" {
	saved_run
	cd "$OD"
	run "$CDM" report "$OD/run.json" -o -
	[ "$status" -eq 0 ]
	[[ "$output" == *"RND    4KiB (Q=  1, T= 1):"* ]]
	run "$CDM" import "$OD/X.txt" --format markdown -o -
	[ "$status" -eq 0 ]
	[[ "$output" == *"| SEQ1M Q8T1 Read |"* ]]
	run "$CDM" import "$OD/X.txt" --save -
	[ "$status" -eq 2 ]
	[ "$output" = "cdm: --save -: --save writes a file, renamed into place; give it a name (--format json prints the JSON on stdout)" ]
	run "$CDM" merge --save - "$OD/run.json"
	[ "$status" -eq 2 ]
	run "$CDM" "${NULLRUN[@]}" --svg - "$TD"
	[ "$status" -eq 2 ]
	[ "$output" = "cdm: --svg -: --svg writes a file, renamed into place; give it a name (--format svg prints the card on stdout)" ]
	run "$CDM" "${NULLRUN[@]}" --log-interval 1s --plot - "$TD"
	[ "$status" -eq 2 ]
	run "$CDM" sweep "${NULLRUN[@]}" --threads 1,2 --save - "$TD"
	[ "$status" -eq 2 ]
	[ ! -e "$OD/-" ]
	assert_clean "$TD"
}

@test "a file name with a newline and a byte that is not UTF-8: one line in errors, labels, tables, JSON and Markdown" {
	bad=$(printf 'bad\nrow\xff.txt')
	grep -v Comment "$OD/X.txt" > "$OD/$bad"
	# an error naming it is one line, without the raw byte
	printf 'not a report\n' > "$OD/$bad.2"
	run "$CDM" import "$OD/$bad.2"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "${lines[0]}" == "cdm: $OD/bad row?.txt.2: "* ]]
	run "$CDM" compare "$OD/$bad.2" "$OD/X.txt"
	[ "${#lines[@]}" -eq 1 ]
	# the label made of its name: one line in the compare table
	run "$CDM" compare "$OD/$bad" "$OD/X.txt"
	[ "$status" -eq 0 ]
	[[ "$output" == *"  1: bad row? "* ]]
	[ "$(echo "$output" | grep -c '^  [12]: ')" -eq 2 ]
	# Markdown and JSON: valid UTF-8, the label one line
	"$CDM" import "$OD/$bad" --format markdown -o "$OD/b.md"
	iconv -f UTF-8 -t UTF-8 "$OD/b.md" > /dev/null
	grep -q "bad row?" "$OD/b.md"
	"$CDM" import "$OD/$bad" --save "$OD/b.json"
	python3 -c 'import json, sys; d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "strict")); assert d["label"] == "bad row?", d["label"]' "$OD/b.json"
	# --label with the same bytes follows the same rule
	"$CDM" import "$OD/X.txt" --label "$(printf 'a\tb\xfe')" --save "$OD/l.json"
	python3 -c 'import json, sys; d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "strict")); assert d["label"] == "a b?", d["label"]' "$OD/l.json"
	# a run's TARGET so named is its label
	mkdir "$TD/$(printf 'd\nir\xff')"
	"$CDM" "${NULLRUN[@]}" -t "RND4K Q1T1" --save "$OD/t.json" "$TD/$(printf 'd\nir\xff')" > /dev/null
	python3 -c 'import json, sys; d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "strict")); assert d["label"].endswith("/d ir?"), d["label"]' "$OD/t.json"
	assert_clean "$TD/$(printf 'd\nir\xff')"
}
