#!/usr/bin/env bats
# Real runs on a small test file: the CDM 8 layout line by line, the
# MB/s / IOPS identity, every engine this build and kernel can run.

load helpers

# check a full Default report ($1 = file) line by line against the layout
check_default_layout() {
	local f=$1 dashes
	dashes=$(printf '%078d' 0 | tr 0 -)
	[ "$(wc -l < "$f")" -eq 26 ] || { echo "expected 26 lines, got $(wc -l < "$f")"; return 1; }
	assert_equal "$(sed -n 1p "$f")" "$dashes"
	sed -n 2p "$f" | assert_grep -E '^cdm [0-9]+\.[0-9]+\.[0-9]+(-[0-9]+)?(-g[0-9a-f]+)?(-dirty)? [A-Za-z0-9_]+ \((io_uring|libaio|sync|null), (O_DIRECT|buffered)\)$' -
	assert_equal "$(sed -n 3p "$f" | wc -c)" 79            # credit line ends at column 78
	if sed -n 2,3p "$f" | grep -qi crystal; then false; fi
	assert_equal "$(sed -n 4p "$f")" "$dashes"
	assert_equal "$(sed -n 5p "$f")" "* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]"
	assert_equal "$(sed -n 6p "$f")" "* KB = 1000 bytes, KiB = 1024 bytes"
	assert_equal "$(sed -n 7p "$f")" ""
	assert_equal "$(sed -n 8p "$f")" "[Read]"
	assert_equal "$(sed -n 13p "$f")" ""
	assert_equal "$(sed -n 14p "$f")" "[Write]"
	assert_equal "$(sed -n 19p "$f")" ""
	local row='^  (SEQ|RND) +[0-9]+(MiB|KiB) \(Q= {0,2}[0-9]+, T= {0,1}[0-9]+\): +[0-9]+\.[0-9]{3} MB/s \[ *[0-9]+\.[0-9] IOPS\] < *[0-9]+\.[0-9]{2} us>$'
	for n in 9 10 11 12 15 16 17 18; do
		sed -n "${n}p" "$f" | grep -qE "$row" || { echo "row $n: $(sed -n "${n}p" "$f")"; return 1; }
	done
	for s in 9 15; do
		sed -n "${s}p" "$f" | assert_grep '^  SEQ    1MiB (Q=  8, T= 1):' -
		sed -n "$((s + 1))p" "$f" | assert_grep '^  SEQ    1MiB (Q=  1, T= 1):' -
		sed -n "$((s + 2))p" "$f" | assert_grep '^  RND    4KiB (Q= 32, T= 1):' -
		sed -n "$((s + 3))p" "$f" | assert_grep '^  RND    4KiB (Q=  1, T= 1):' -
	done
	assert_equal "$(sed -n 20p "$f")" "Profile: Default"
	sed -n 21p "$f" | assert_grep -E '^   Test: 16 MiB \(x1\) \[.+: [0-9]+% \([0-9]+/[0-9]+GiB\)\]$' -
	sed -n 22p "$f" | assert_grep -E '^   Mode:( \[Admin\])?$' -
	assert_equal "$(sed -n 23p "$f")" "   Time: Measure 0.5 sec / Interval 0 sec "
	sed -n 24p "$f" | assert_grep -E '^   Date: [0-9]{4}/[0-9]{2}/[0-9]{2} ([1-9]|1[0-9]|2[0-3]|0):[0-5][0-9]:[0-5][0-9]$' -
	sed -n 25p "$f" | assert_grep -E '^     OS: .+ \[.+\] \(.+\)$' -
	sed -n 26p "$f" | assert_grep -E '^Comment: layout test$' -
}

# on every row, MB/s / IOPS = block / 1e6 (to printing precision)
check_identity() {
	grep -E '^  (SEQ|RND)' "$1" | while IFS= read -r line; do
		set -- $(row_fields "$line")
		awk -v blk="$2" -v mbs="$5" -v iops="$6" 'BEGIN {
			b = blk + 0; if (blk ~ /MiB/) b *= 1048576; else if (blk ~ /KiB/) b *= 1024
			want = mbs * 1e6 / b
			# IOPS is printed to 0.1, MB/s to 0.001
			tol = 0.05 + 0.0005 * 1e6 / b
			d = iops - want; if (d < 0) d = -d
			if (d > tol) { printf "row %s: %s MB/s vs %s IOPS (want %.2f)\n", blk, mbs, iops, want; exit 1 }
			if (mbs <= 0) { print "zero MB/s"; exit 1 }
		}' || return 1
	done
}


@test "a Default run with io_uring: full report in the CDM 8 layout, no file left" {
	engine_works io_uring || skip "$SKIP_WHY"
	"$CDM" "${QUICK[@]}" --engine io_uring --comment "layout test" "$TD" > "$OD/out"
	check_default_layout "$OD/out"
	check_identity "$OD/out"
	assert_grep '(io_uring, O_DIRECT)' "$OD/out"
	assert_clean "$TD"
	rm -f "$OD/out"
}

@test "a Default run with libaio: full report, identity, no file left" {
	engine_works libaio || skip "$SKIP_WHY"
	"$CDM" "${QUICK[@]}" --engine libaio --comment "layout test" "$TD" > "$OD/out"
	check_default_layout "$OD/out"
	check_identity "$OD/out"
	assert_clean "$TD"
	rm -f "$OD/out"
}

# issue 12, item 9: with -e sync a Q>1 test ran at Q1 and printed a row
# like the Q1 test's, with a note per row.  Now: one note; a Q>1 test that
# is at Q1 the same as another is left out (no duplicate row); one that is
# not runs at Q1 and its row says Q=1.
@test "the sync engine runs every test at Q1: one note, no duplicate rows" {
	"$CDM" "${QUICK[@]}" --engine sync --comment "layout test" "$TD" > "$OD/out" 2> "$OD/err"
	cat "$OD/err"
	assert_equal "$(grep -c '^cdm: note:' "$OD/err")" 1
	assert_grep -x 'cdm: note: the sync engine keeps one I/O in flight per thread, so every test runs at Q1 (the report shows Q=1); left out, the same as another test at Q1: SEQ1M Q8T1 (= SEQ1M Q1T1), RND4K Q32T1 (= RND4K Q1T1)' "$OD/err"
	assert_equal "$(grep -c '(Q=  1, T= 1)' "$OD/out")" 4
	assert_equal "$(grep -c '(Q=' "$OD/out")" 4
	assert_equal "$(sort "$OD/out" | grep '(Q=' | cut -c1-28 | uniq -d | wc -l)" 2   # one per section
	# a Q>1 test with no Q1 twin runs at Q1, its row says so; JSON says what ran
	"$CDM" "${QUICK[@]}" --engine sync -t "RND4K Q32T2" -t "SEQ1M Q8T1" -t "SEQ1M Q4T1" --mode read \
		--format json "$TD" > "$OD/out" 2> "$OD/err"
	cat "$OD/err"
	assert_equal "$(grep -c '^cdm: note:' "$OD/err")" 1
	assert_grep 'run at Q1: RND4K Q32T2, SEQ1M Q8T1; left out, the same as another test at Q1: SEQ1M Q4T1 (= SEQ1M Q1T1)$' "$OD/err"
	assert_equal "$(jq -c '[.tests[] | [.name, .queue_depth, .queue_depth_run]]' "$OD/out")" '[["RND4K Q1T2",1,1],["SEQ1M Q1T1",1,1]]'
	assert_clean "$TD"
	rm -f "$OD/out" "$OD/err"
}

@test "auto picks an engine that works and the header names it" {
	"$CDM" "${QUICK[@]}" --test "RND4K Q4T2" "$TD" > "$OD/out"
	pick=$("$CDM" --list-engines | awk '/used by auto/ {print $1}')
	assert_grep "($pick, O_DIRECT)" "$OD/out"
	assert_grep -E '^  RND    4KiB \(Q=  [14], T= 2\):' "$OD/out"
	assert_clean "$TD"
	rm -f "$OD/out"
}

@test "--mode read and --mode write print only that section" {
	"$CDM" "${QUICK[@]}" --test "SEQ128K Q2T1" --mode read "$TD" > "$OD/out"
	assert_grep '^\[Read\]$' "$OD/out"
	refute_grep '^\[Write\]$' "$OD/out"
	assert_grep '^  SEQ  128KiB (Q=  [12], T= 1):' "$OD/out"
	"$CDM" "${QUICK[@]}" --test "SEQ128K Q2T1" --mode write "$TD" > "$OD/out"
	refute_grep '^\[Read\]$' "$OD/out"
	assert_grep '^\[Write\]$' "$OD/out"
	assert_clean "$TD"
	rm -f "$OD/out"
}

@test "--data zero says <0Fill> in Mode, --output writes the report to a file" {
	"$CDM" "${QUICK[@]}" --test "RND4K" --data zero --output "$OD/rep" "$TD" > "$OD/out"
	refute [ -s "$OD/out" ]
	assert_grep -E '^   Mode:( \[Admin\])? <0Fill>$' "$OD/rep"
	assert_grep '^  RND    4KiB (Q=  1, T= 1):' "$OD/rep"
	assert_clean "$TD"
	rm -f "$OD/out" "$OD/rep"
}

@test "--size is rounded down to a whole number of the largest block, and said so" {
	run "$CDM" "${QUICK[@]}" --size 17MiB --test "SEQ2M" --mode read "$TD"
	assert_success
	assert_output --partial "rounded down to 16 MiB"
	assert_output --partial "   Test: 16 MiB (x1)"
	assert_clean "$TD"
}

@test "--keep keeps the test file under a .keep name that the next run leaves alone" {
	"$CDM" "${QUICK[@]}" --test "RND4K" --keep "$TD" > /dev/null 2> "$OD/err"
	kept=$(find "$TD" -name 'cdm-*.keep')
	assert [ -n "$kept" ]
	assert [ "$(stat -c %s "$kept")" -eq $((16 << 20)) ]
	assert_grep "kept the test file as" "$OD/err"
	"$CDM" "${QUICK[@]}" --test "RND4K" "$TD" > /dev/null
	assert [ -f "$kept" ]
	rm -f "$kept" "$OD/err"
	assert_clean "$TD"
}

@test "the report uses '.' as decimal point whatever the locale" {
	# build a German locale privately (LOCPATH), so the test is real even
	# where the system has only C.UTF-8; printf there would print 1,5.
	# Latin-1, not UTF-8: the decimal comma is the same, and its small
	# charmap builds in a fifth of the time (0.25 s CPU, not 1.25 s)
	command -v localedef > /dev/null || skip "localedef not installed (package locales)"
	[ -f /usr/share/i18n/locales/de_DE ] || skip "no locale sources (package locales)"
	mkdir -p "$OD/loc"
	localedef -i de_DE -f ISO-8859-1 "$OD/loc/de_DE.ISO-8859-1" 2> /dev/null || true
	[ -d "$OD/loc/de_DE.ISO-8859-1" ] || skip "localedef could not build de_DE.ISO-8859-1"
	[ "$(LOCPATH=$OD/loc LC_ALL=de_DE.ISO-8859-1 awk 'BEGIN { printf "%.1f", 1.5 }')" = "1,5" ] ||
		skip "the de_DE locale does not switch the decimal point here"
	LOCPATH=$OD/loc LC_ALL=de_DE.ISO-8859-1 "$CDM" "${QUICK[@]}" --test "RND4K" "$TD" > "$OD/out"
	assert_grep -E 'MB/s \[ *[0-9]+\.[0-9] IOPS\] < *[0-9]+\.[0-9]{2} us>' "$OD/out"
	refute_grep -E '^  (SEQ|RND).*[0-9],[0-9]' "$OD/out"
}

@test "a tmpfs target runs but warns that the figures are memory, not disk" {
	[ -d /dev/shm ] && [ -w /dev/shm ] || skip "no writable /dev/shm"
	d=$(mktemp -d /dev/shm/cdmtest.XXXXXX)
	run "$CDM" "${QUICK[@]}" --test "RND4K" "$d"
	st=$status
	left=$(find "$d" -name 'cdm-*')
	rm -rf "$d"
	if [ "$st" -ne 0 ]; then
		# tmpfs before Linux 6.6 refuses O_DIRECT: then the message must say so
		assert_like "$output" '*"does not support O_DIRECT"*"--buffered"*'
	else
		assert_output --partial "memory speed, not disk speed"
	fi
	assert_equal "$left" ""
}

@test "--file reuses a kept test file, and refuses files cdm did not keep" {
	"$CDM" "${QUICK[@]}" --test "RND4K" --keep "$TD" > /dev/null 2>&1
	kept=$(find "$TD" -name 'cdm-*.keep')
	assert [ -n "$kept" ]
	run "$CDM" --quiet --count 1 --time 0.5 --warmup 0 --interval 0 --test "RND4K Q2T1" --file "$kept"
	assert_success
	assert_output --partial "   Test: 16 MiB (x1)"
	assert_line --regexp '^  RND    4KiB \(Q=  [12], T= 1\):'
	# reused, not removed, and no new file made beside it
	assert [ -f "$kept" ]
	assert_equal "$(find "$TD" -name 'cdm-*' | grep -vc '\.cdm$')" 1
	# a user's file is never written
	echo "precious" > "$TD/user.dat"
	run "$CDM" --quiet --file "$TD/user.dat"
	assert_failure 1
	assert_output --partial "$TD/user.dat: not a test file that cdm prepared and kept"
	assert [ "$(cat "$TD/user.dat")" = precious ]
	# a kept file whose size changed is refused too
	truncate -s 8M "$kept"
	run "$CDM" --quiet --file "$kept"
	assert_failure 1
	run "$CDM" --quiet --size 16MiB --file "$kept"
	assert_failure 2
	rm -f "$TD"/cdm-* "$TD/user.dat"
}

@test "io_uring --sqpoll runs or is refused clearly; --hipri runs or says the device cannot poll" {
	engine_works io_uring || skip "$SKIP_WHY"
	run "$CDM" "${QUICK[@]}" --engine io_uring --sqpoll --test "RND4K Q4T1" --mode read "$TD"
	if [ "$status" -eq 0 ]; then
		assert_line --regexp '^  RND    4KiB \(Q=  4, T= 1\):'
	else
		assert_failure 1
		assert_output --partial "SQPOLL"
	fi
	run "$CDM" "${QUICK[@]}" --engine io_uring --hipri --test "RND4K Q4T1" --mode read "$TD"
	if [ "$status" -ne 0 ]; then
		assert_failure 1
		[[ "$output" == *"--hipri needs polled I/O"* || "$output" == *"refuses polled I/O"* ]] ||
			fail "--hipri failed without saying it needs polled I/O: $output"
	fi
	assert_clean "$TD"
	run "$CDM" "${QUICK[@]}" --engine sync --sqpoll "$TD"
	assert_failure 2
	run "$CDM" "${QUICK[@]}" --engine io_uring --hipri --buffered "$TD"
	assert_failure 2
}

# issue 12, item 8: the text says which run it is and whether it is whole,
# on CDM's one free line (Comment:), and names a profile whose tests -t
# replaced for what it is.
@test "--label and --comment share the Comment line; the default label is not repeated" {
	"$CDM" "${QUICK[@]}" --engine null --time 0.1 --test "RND4K Q2T1" --mode read --label LOCAL "$TD" > "$OD/a"
	assert_equal "$(tail -n 1 "$OD/a")" "Comment: LOCAL"
	"$CDM" "${QUICK[@]}" --engine null --time 0.1 --test "RND4K Q2T1" --mode read --label LOCAL \
		--comment "Samsung 840 EVO 120GB" "$TD" > "$OD/b"
	assert_equal "$(tail -n 1 "$OD/b")" "Comment: LOCAL - Samsung 840 EVO 120GB"
	"$CDM" "${QUICK[@]}" --engine null --time 0.1 --test "RND4K Q2T1" --mode read "$TD" > "$OD/c"
	refute_grep '^Comment' "$OD/c"
	# a CDM parser reads each footer line by its key: the Comment line
	# holds no other key, nor a row's "(Q="
	for f in a b; do
		assert_equal "$(grep -cE '(Profile|Test|Mode|Time|Date|OS): ' "$OD/$f")" 6
		refute_grep -E '^Comment.*((Profile|Test|Mode|Time|Date|OS): |\(Q=)' "$OD/$f"
	done
	assert_clean "$TD"
}

@test "-t replacing the profile's tests prints Profile: Custom, in text and JSON; the same tests keep the name" {
	"$CDM" "${QUICK[@]}" --engine null --time 0.1 --test "RND4K Q2T1" --mode read --save "$OD/r.json" "$TD" > "$OD/a"
	assert_grep -x 'Profile: Custom' "$OD/a"
	python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["settings"]["profile"] == "Custom"' "$OD/r.json"
	"$CDM" "${QUICK[@]}" --engine null --time 0.1 --profile real --test "SEQ1M Q1T1" --test "RND4K Q1T1" --mode read "$TD" > "$OD/b"
	assert_grep -x 'Profile: Real' "$OD/b"
	"$CDM" "${QUICK[@]}" --engine null --time 0.1 --profile real --test "RND4K Q1T1" --mode read "$TD" > "$OD/c"
	assert_grep -x 'Profile: Custom' "$OD/c"
	"$CDM" "${QUICK[@]}" --engine null --time 0.1 --profile peak --mode read "$TD" > "$OD/d"
	assert_grep -x 'Profile: Peak' "$OD/d"
	assert_clean "$TD"
}

# interrupted_comment WHAT ARGS... - run cdm (ARGS, three tests, null
# engine) on a terminal, SIGINT once its progress line shows WHAT; check
# its exit status and that its Comment line says what the run did, from
# the JSON it saved: the tests it completed and the one it was in, with
# the passes that one completed; the Comment's bracket into $COMMENT
interrupted_comment() {
	local what=$1
	shift
	tty_start "$OD" --size 16MiB --warmup 0 --engine null --null-service-us 100 \
		--test RND4K --test SEQ128K --test SEQ1M --mode read \
		--label SAN --comment "ext4 on LUN 3" --save "$OD/r.json" "$@" "$TD"
	wait_for "$what" tty_shows "$what"
	kill -INT "$PID"
	tty_wait
	cat "$OD/err"
	assert_equal "$TTY_STATUS" 130
	COMMENT=$(python3 -c 'import json,sys
t = json.load(open(sys.argv[1]))["tests"]
cut = ["; %s Read: %d of %d passes" % (x["name"], len(x["passes"]), int(sys.argv[2]))
       for x in t if not x["complete"] and x["passes"]]
print("interrupted after %d of 3 tests%s" % (sum(x["complete"] for x in t), "".join(cut[:1])))' \
		"$OD/r.json" "$COUNT")
	assert_equal "$(tail -n 1 "$OD/out")" "Comment: SAN - ext4 on LUN 3 [$COMMENT]"
	assert_clean "$TD"
}

@test "an interrupted run's text says so on the Comment line, with the tests it completed" {
	# in the 600 s interval after the first test: one test completed (the
	# interval's progress line is drawn as it begins: short passes do)
	COUNT=2
	interrupted_comment "test 2 of 3  Interval 600 s before SEQ128K Q1T1 Read" \
		--count 2 --time 0.1 --interval 600
	assert_equal "$COMMENT" "interrupted after 1 of 3 tests"
	# in the second of 30 passes of the first test: its first pass
	# measured.  Passes of 1 s: a pass's line is drawn every 0.5 s, so a
	# shorter pass may never be shown; the run ends at the signal
	COUNT=30
	interrupted_comment "test 1 of 3  RND4K Q1T1 Read  pass 2/30" --count 30 --time 1 --interval 0
	assert_regex "$COMMENT" '^interrupted after 0 of 3 tests; RND4K Q1T1 Read: [1-9][0-9]? of 30 passes$'
}

# issue 12, item 9: --hipri failed at the first I/O, after the test file was
# prepared, and printed an empty report.  Whether polled I/O can work is
# asked of the device first: on a directory whose disk has no poll queues
# (io_poll 0) or on tmpfs (no disk), one line, exit 1, no file, no report.
@test "--hipri on a device that cannot poll fails before any file is created, with one line and no report" {
	engine_works io_uring || skip "$SKIP_WHY"
	# the disk under $TD by its device number: findmnt's SOURCE of a bind
	# mount (a build chroot) is "/dev/vda[/path]", which no tool resolves
	mm=$(findmnt -no MAJ:MIN -T "$TD" | head -1 | tr -d " ")
	[ -e "/sys/dev/block/$mm" ] || skip "no block device under $TD ($mm)"
	sys=$(readlink -f "/sys/dev/block/$mm")
	[ ! -e "$sys/partition" ] || sys=$(dirname "$sys")
	dev=$(basename "$sys")
	poll=$(cat "/sys/block/$dev/queue/io_poll" 2>/dev/null || echo 0)
	[ "$poll" = 0 ] || skip "$dev can poll: --hipri runs here"
	# every file cdm opens, traced: none under $TD (no test file, ever)
	command -v strace > /dev/null || skip "strace not installed: no way to see that no file is created"
	run traced -f -qq -e trace=open,openat,creat -o "$OD/trace" \
		"$CDM" "${QUICK[@]}" --engine io_uring --hipri --test "RND4K Q4T1" --mode read "$TD"
	assert_failure 1
	assert_equal "${#lines[@]}" 1
	assert_line --index 0 "cdm: $TD: --hipri needs polled I/O, which $dev does not offer (/sys/block/$dev/queue/io_poll: 0); run without --hipri"
	refute_grep -F "\"$TD/" "$OD/trace"
	assert_clean "$TD"
	mountpoint -q /dev/shm || skip "no tmpfs at /dev/shm"
	d=$(mktemp -d /dev/shm/cdmtest.XXXXXX)
	run "$CDM" "${QUICK[@]}" --engine io_uring --hipri --test "RND4K Q4T1" --mode read "$d"
	ls -A "$d"; rmdir "$d"
	assert_failure 1
	assert_equal "${#lines[@]}" 1
	assert_line --index 0 --partial "--hipri polls a block device's completion queues, and no block device is under it"
}
