# doc-commands.awk - the commands of a Markdown file's shell blocks, one
# a line, as a reader pastes them: every line of a ```sh (or bash,
# shell, console) fence, a line ending in "\" joined to the next, a
# "# comment" after the command and lines that are only a comment
# dropped.  awk -f doc-commands.awk README.md docs/install.md
# (tests/cli/34-doc-commands.bats, tests/doc-commands.txt).
# line less a comment: a # after a blank, outside quotes
function uncomment(line,    i, c, q, prev) {
	q = ""
	prev = " "
	for (i = 1; i <= length(line); i++) {
		c = substr(line, i, 1)
		if (q != "") {
			if (c == q)
				q = ""
		} else if (c == "'" || c == "\"") {
			q = c
		} else if (c == "#" && (prev == " " || prev == "\t")) {
			return substr(line, 1, i - 1)
		}
		prev = c
	}
	return line
}

FNR == 1 { fence = 0; sh = 0; cont = "" }
/^[ \t]*```/ {
	if (fence) {
		fence = 0
	} else {
		fence = 1
		sh = ($0 ~ /^[ \t]*```(sh|bash|shell|console)[ \t]*$/)
	}
	next
}
fence && sh {
	line = $0
	if (cont != "") {
		sub(/^[ \t]+/, "", line)
		line = cont " " line
		cont = ""
	}
	if (line ~ /\\$/) {
		sub(/[ \t]*\\$/, "", line)
		cont = line
		next
	}
	sub(/^[ \t]+/, "", line)
	if (line ~ /^#/ || line == "")
		next
	line = uncomment(line)
	sub(/[ \t]+$/, "", line)
	print line
}
