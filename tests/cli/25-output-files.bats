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

# the null engine's device completes I/O whatever the load, as long as
# its worker has the CPU: two passes of 0.2 s, since a loaded machine has
# been seen to leave a worker without it for 0.2 s (both passes of 0.1 s,
# once), and a test without figures ends the run with status 1; the files
# are what is checked here, not the figures
NULLRUN=(--size 16MiB --count 2 --time 0.2 --interval 0 --warmup 0 --quiet
	--engine null --null-service-us 50)
# FILERUN: for what becomes of a file (a full disk, a signal while it is
# written), where the figures do not matter: a test without them changes
# neither the files cdm writes nor the exit status expected (1 on a full
# disk, 128+N after a signal), so one pass of 0.1 s, reads only
FILERUN=(--size 16MiB --count 1 --time 0.1 --interval 0 --warmup 0 --quiet
	--engine null --null-service-us 50 --mode read)

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

# a cdm run on the null engine saved as $OD/run.json (for report, merge,
# compare): a read test is all they need
saved_run() {
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" -t "RND4K Q1T1" --mode read --save "$OD/run.json" "$TD" > /dev/null
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
	assert_failure 1
	assert_output --partial "No space left on device"
	refute_output --partial "Input/output error"
	assert_equal "$(cat "$MNT/keep.txt")" old
	assert_equal "$(ls -A "$MNT" | tr '\n' ' ')" "fill keep.txt "
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
	run "$CDM" "${FILERUN[@]}" -t "RND4K Q1T1" --format svg -o "$MNT/run.svg" "$TD"
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
	run "$CDM" "${FILERUN[@]}" -t "RND4K Q1T1" --save "$MNT/s.json" "$TD"
	enospc "cdm --save"
	run "$CDM" "${FILERUN[@]}" -t "RND4K Q1T1" --svg "$MNT/card.svg" "$TD"
	enospc "cdm --svg"
	run "$CDM" "${FILERUN[@]}" -t "RND4K Q1T1" --log-interval 100ms --plot "$MNT/p.svg" "$TD"
	enospc "cdm --plot"
	run "$CDM" sweep "${FILERUN[@]}" --threads 1,2 --save "$MNT/sw.json" "$TD"
	enospc "sweep --save"
	run "$CDM" sweep "${FILERUN[@]}" --threads 1,2 --plot "$MNT/sw.svg" "$TD"
	enospc "sweep --plot"
	assert_clean "$TD"
}

@test "a full disk under stdout: the report's error names ENOSPC" {
	full_fs
	run sh -c '"$1" import "$2" --format svg > "$3"' sh "$CDM" "$OD/X.txt" "$MNT/keep.txt"
	echo "$output"
	assert_failure 1
	assert_output "cdm: stdout: writing the report failed: No space left on device"
}

@test "-o into a regular file replaces it atomically, keeping its mode; a symlink's file is replaced, a FIFO is written in place" {
	echo old > "$OD/r.txt"
	chmod 640 "$OD/r.txt"
	ino=$(stat -c %i "$OD/r.txt")
	run "$CDM" import "$OD/X.txt" -o "$OD/r.txt"
	assert_success
	assert_equal "$(stat -c %a "$OD/r.txt")" 640
	assert_not_equal "$(stat -c %i "$OD/r.txt")" "$ino"
	assert_grep "Crucial P2" "$OD/r.txt"
	# through a symlink: the file it names, the link kept
	echo old > "$OD/target.md"
	ln -s target.md "$OD/link.md"
	run "$CDM" import "$OD/X.txt" --format markdown -o "$OD/link.md"
	assert_success
	assert [ -L "$OD/link.md" ]
	assert_grep "Crucial P2" "$OD/target.md"
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
	assert_success
	assert [ -p "$OD/fifo" ]
	assert_grep "Crucial P2" "$OD/from-fifo"
	run "$CDM" import "$OD/X.txt" -o /dev/null
	assert_success
	assert [ -c /dev/null ]
	assert_equal "$(find "$OD" -mindepth 1 -name '*.??????')" ""
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
	assert_failure 1
	assert_line --index 0 "cdm: $OD/ro/r.json: cannot replace it for --save: its directory $OD/ro: Permission denied"
	assert_equal "$(cat "$OD/ro/r.json")" old
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
		run "${RT[@]}" "$CDM" "${NULLRUN[@]}" -t RND4K "${extra[@]}" "$opt" "$OD/afile/x.$ext" "$TD"
		echo "$output"
		assert_failure 1
		assert_equal "${#lines[@]}" 1
		assert_line --index 0 "cdm: $OD/afile/x.$ext: cannot create the file for $opt: $OD/afile is not a directory"
	done
	run "$CDM" report --svg "$OD/afile/c.svg" "$OD/run.json"
	assert_failure 1
	assert_line --index 0 "cdm: $OD/afile/c.svg: cannot create the file for --svg: $OD/afile is not a directory"
	assert_equal "$(cat "$OD/afile")" keep
	assert_clean "$TD"
}

# signal_mid_write SIG FILE CMD... - run CMD with the fault shim holding
# the fsync of FILE's temporary ("FILE.XXXXXX", written before its
# rename; $WRITES_BEFORE outputs, 0 unless set, are written before it),
# send SIG while it is held, then let it go: SIG comes while FILE is
# being written, however slow the machine.  The signal is sent only at
# that event, never at a guess: a CMD that ends without reaching the hold
# fails the test, naming its status, and is not signalled (a signal sent
# after a poll for the temporary once came when cdm had ended: "No such
# process").  ST is CMD's exit status, its stderr in $OD/err.
signal_mid_write() {
	local sig=$1 file=$2 hold=$OD/hold pid
	shift 2
	SHIM=$BATS_TEST_DIRNAME/../../build/tests/faultshim.so
	[ -f "$SHIM" ] || skip "build/tests/faultshim.so not built (make tools)"
	rm -rf "$hold"
	mkdir "$hold"
	# set -m: a background job of a non-interactive shell ignores SIGINT otherwise
	set -m
	CDM_FAULT=fsync:hold:${WRITES_BEFORE:-0} CDM_FAULT_HOLD=$hold LD_PRELOAD=$SHIM \
		ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
		"$@" > "$OD/out" 2> "$OD/err" &
	pid=$!
	set +m
	wait_for "the fsync of $file's temporary to be held" held_or_ended "$hold/fsync.held" "$pid"
	if [ ! -e "$hold/fsync.held" ]; then
		ST=0
		wait "$pid" || ST=$?
		cat "$OD/err"
		fail "cdm ended (status $ST) before the fsync of $file's temporary was held"
	fi
	# fsync.held is there: cdm waits in that fsync until fsync.go is (the
	# shim gives up only after 120 s), so it is alive and inside the write
	if ! compgen -G "$file.??????" > /dev/null; then
		kill -9 "$pid" 2> /dev/null
		wait "$pid" || true
		cat "$OD/err"
		fail "no temporary of $file was being written when the fsync was held"
	fi
	kill -s "$sig" "$pid"
	touch "$hold/fsync.go"
	ST=0
	wait "$pid" || ST=$?
	cat "$OD/err"
	rm -rf "$hold"
}

# nothing of FILE: no temporary, no new file
no_file() {
	[ -z "$(find "$(dirname "$1")" -maxdepth 1 -name "$(basename "$1")*")" ] || {
		ls -la "$(dirname "$1")"; return 1; }
}

@test "a signal while a subcommand writes its file: no temporary, no file, ended by the signal" {
	saved_run
	signal_mid_write INT "$OD/sig.json" "$CDM" import "$OD/X.txt" --save "$OD/sig.json"
	assert_equal "$ST" 130
	no_file "$OD/sig.json"
	signal_mid_write TERM "$OD/sig.json" "$CDM" import "$OD/X.txt" --save "$OD/sig.json"
	assert_equal "$ST" 143
	no_file "$OD/sig.json"
	signal_mid_write HUP "$OD/sig.json" "$CDM" import "$OD/X.txt" --save "$OD/sig.json"
	assert_equal "$ST" 129
	no_file "$OD/sig.json"
	signal_mid_write INT "$OD/i.svg" "$CDM" import "$OD/X.txt" --format svg -o "$OD/i.svg"
	assert_equal "$ST" 130
	no_file "$OD/i.svg"
	signal_mid_write TERM "$OD/rep.svg" "$CDM" report "$OD/run.json" --format svg -o "$OD/rep.svg"
	assert_equal "$ST" 143
	no_file "$OD/rep.svg"
	signal_mid_write HUP "$OD/c.md" "$CDM" compare --format markdown -o "$OD/c.md" "$OD/X.txt" "$OD/run.json"
	assert_equal "$ST" 129
	no_file "$OD/c.md"
	signal_mid_write INT "$OD/m.txt" "$CDM" merge -o "$OD/m.txt" "$OD/run.json"
	assert_equal "$ST" 130
	no_file "$OD/m.txt"
	signal_mid_write TERM "$OD/m.json" "$CDM" merge --save "$OD/m.json" "$OD/run.json"
	assert_equal "$ST" 143
	no_file "$OD/m.json"
	# an old file is left as it was
	echo old > "$OD/keep.txt"
	signal_mid_write INT "$OD/keep.txt" "$CDM" import "$OD/X.txt" -o "$OD/keep.txt"
	assert_equal "$ST" 130
	assert_equal "$(cat "$OD/keep.txt")" old
	assert_equal "$(find "$OD" -mindepth 1 -name '*.??????')" ""
}

@test "a signal while a run or a sweep writes its files: that file and those after it are not written, exit 128+N, nothing left" {
	# the card is written first (a report links only a card that is there)
	WRITES_BEFORE=1 signal_mid_write TERM "$OD/run.txt" "$CDM" "${FILERUN[@]}" -t "RND4K Q1T1" \
		-o "$OD/run.txt" --save "$OD/run.json" --svg "$OD/run.svg" "$TD"
	assert_equal "$ST" 143
	assert_grep -x "cdm: $OD/run.txt: not written: a signal came while cdm was writing it" "$OD/err"
	assert_grep -x "cdm: interrupted by Terminated after the run ended; the test file was removed" "$OD/err"
	no_file "$OD/run.txt"
	no_file "$OD/run.json"
	# the card is written first (a report links only a card that is there): whole
	xmllint --noout "$OD/run.svg"
	rm "$OD/run.svg"
	signal_mid_write HUP "$OD/card.svg" "$CDM" "${FILERUN[@]}" -t "RND4K Q1T1" --svg "$OD/card.svg" "$TD"
	assert_equal "$ST" 129
	no_file "$OD/card.svg"
	# --plot's chart is written first: a signal then stops the card, the
	# report and --save, and an old card is left as it was
	echo old > "$OD/old.svg"
	signal_mid_write TERM "$OD/pl.svg" "$CDM" "${FILERUN[@]}" -t "RND4K Q1T1" --log-interval 100ms \
		--plot "$OD/pl.svg" --svg "$OD/old.svg" -o "$OD/pl.txt" --save "$OD/pl.json" "$TD"
	assert_equal "$ST" 143
	assert_grep -x "cdm: $OD/pl.svg: not written: a signal came while cdm was writing it" "$OD/err"
	no_file "$OD/pl.svg"
	no_file "$OD/pl.txt"
	no_file "$OD/pl.json"
	assert_equal "$(cat "$OD/old.svg")" old
	rm "$OD/old.svg"
	signal_mid_write INT "$OD/sw.json" "$CDM" sweep "${FILERUN[@]}" --threads 1,2 --save "$OD/sw.json" "$TD"
	assert_grep -x "cdm: interrupted by Interrupt after the sweep ended; the test file was removed" "$OD/err"
	assert_equal "$ST" 130
	no_file "$OD/sw.json"
	assert_clean "$TD"
}

@test "- is standard input for compare, report, import and merge, once per command line" {
	saved_run
	run sh -c '"$1" compare - "$2" < "$3"' sh "$CDM" "$OD/run.json" "$OD/X.txt"
	assert_success
	assert_output --partial "1: Crucial P2 2TB"
	run sh -c '"$1" report --format markdown - < "$2"' sh "$CDM" "$OD/run.json"
	assert_success
	assert_output --partial "| RND4K Q1T1 Read |"
	run sh -c '"$1" import --format json - < "$2"' sh "$CDM" "$OD/X.txt"
	assert_success
	assert_like "$output" "*'\"file\": \"stdin\"'*"
	run sh -c '"$1" merge - < "$2"' sh "$CDM" "$OD/run.json"
	assert_success
	# a report without a Comment read from stdin is labelled "stdin"
	run sh -c 'grep -v Comment "$2" | "$1" compare - "$3"' sh "$CDM" "$OD/X.txt" "$OD/Y.txt"
	assert_success
	assert_output --partial "  1: stdin "
	# its errors name stdin
	run sh -c 'echo "not a report" | "$1" compare "$2" -' sh "$CDM" "$OD/X.txt"
	assert_failure 2
	assert_like "${lines[0]}" '"cdm: stdin: "*'
	for sub in compare merge; do
		run "$CDM" "$sub" - - < "$OD/run.json"
		assert_failure 2
		assert_line --index 0 "cdm: - (standard input) given more than once: it can be read once"
	done
}

@test "-o - is stdout; --save -, --svg - and --plot - are refused in one line, no file named -" {
	saved_run
	cd "$OD"
	run "$CDM" report "$OD/run.json" -o -
	assert_success
	assert_output --partial "RND    4KiB (Q=  1, T= 1):"
	run "$CDM" import "$OD/X.txt" --format markdown -o -
	assert_success
	assert_output --partial "| SEQ1M Q8T1 Read |"
	run "$CDM" import "$OD/X.txt" --save -
	assert_failure 2
	assert_output "cdm: --save -: --save writes a file, renamed into place; give it a name (--format json prints the JSON on stdout)"
	run "$CDM" merge --save - "$OD/run.json"
	assert_failure 2
	run "${RT[@]}" "$CDM" "${NULLRUN[@]}" --svg - "$TD"
	assert_failure 2
	assert_output "cdm: --svg -: --svg writes a file, renamed into place; give it a name (--format svg prints the card on stdout)"
	run "${RT[@]}" "$CDM" "${NULLRUN[@]}" --log-interval 1s --plot - "$TD"
	assert_failure 2
	run "$CDM" sweep "${NULLRUN[@]}" --threads 1,2 --save - "$TD"
	assert_failure 2
	refute [ -e "$OD/-" ]
	assert_clean "$TD"
}

@test "a file name with a newline and a byte that is not UTF-8: one line in errors, labels, tables, JSON and Markdown" {
	bad=$(printf 'bad\nrow\xff.txt')
	grep -v Comment "$OD/X.txt" > "$OD/$bad"
	# an error naming it is one line, without the raw byte
	printf 'not a report\n' > "$OD/$bad.2"
	run "$CDM" import "$OD/$bad.2"
	assert_failure 2
	assert_equal "${#lines[@]}" 1
	assert_like "${lines[0]}" '"cdm: $OD/bad row?.txt.2: "*'
	run "$CDM" compare "$OD/$bad.2" "$OD/X.txt"
	assert_equal "${#lines[@]}" 1
	# the label made of its name: one line in the compare table
	run "$CDM" compare "$OD/$bad" "$OD/X.txt"
	assert_success
	assert_output --partial "  1: bad row? "
	assert_equal "$(echo "$output" | grep -c '^  [12]: ')" 2
	# Markdown and JSON: valid UTF-8, the label one line
	"$CDM" import "$OD/$bad" --format markdown -o "$OD/b.md"
	iconv -f UTF-8 -t UTF-8 "$OD/b.md" > /dev/null
	assert_grep "bad row?" "$OD/b.md"
	"$CDM" import "$OD/$bad" --save "$OD/b.json"
	python3 -c 'import json, sys; d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "strict")); assert d["label"] == "bad row?", d["label"]' "$OD/b.json"
	# --label with the same bytes follows the same rule
	"$CDM" import "$OD/X.txt" --label "$(printf 'a\tb\xfe')" --save "$OD/l.json"
	python3 -c 'import json, sys; d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "strict")); assert d["label"] == "a b?", d["label"]' "$OD/l.json"
	# a run's TARGET so named is its label
	mkdir "$TD/$(printf 'd\nir\xff')"
	"${RT[@]}" "$CDM" "${NULLRUN[@]}" -t "RND4K Q1T1" --save "$OD/t.json" "$TD/$(printf 'd\nir\xff')" > /dev/null
	python3 -c 'import json, sys; d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "strict")); assert d["label"].endswith("/d ir?"), d["label"]' "$OD/t.json"
	assert_clean "$TD/$(printf 'd\nir\xff')"
}
