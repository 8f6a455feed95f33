# zsh-complete.zsh FPATH_DIR CDM_DIR LINE... - type each LINE and a Tab in
# an interactive zsh (on a pseudo-terminal, zsh/zpty) whose completion
# loads _cdm from FPATH_DIR and runs cdm from CDM_DIR; print the
# candidates zsh lists, one per line, without terminal escapes, after a
# line "# LINE" (no candidate has a '#').  The LINEs are typed one after
# the other in one zsh, so that its compinit (half a second of CPU) runs
# once.  For tests/cli/31-completion.bats.
setopt extendedglob
zmodload zsh/zpty || exit 3
fpath_dir=$1 cdm_dir=$2
shift 2
# the terminal zle draws for is ours, whatever TERM the caller has (none
# under env -i or a package build, "dumb" in some CI): without a real one
# zle lists no choices
zpty z env TERM=xterm zsh -f -i
zpty -w z "stty rows 500 columns 200; PS1='' PATH=${(q)cdm_dir}:\$PATH; fpath=(${(q)fpath_dir} \$fpath); autoload -U compinit; compinit -u -D; bindkey '^I' list-choices; zstyle ':completion:*' list-packed false; zstyle ':completion:*' verbose no; echo READ""Y"
while zpty -r z line; do [[ $line == *READY* ]] && break; done
first=1
for typed in "$@"; do
	# the line before is killed (^U, kill-whole-line) and this one typed with its Tab
	if (( first )); then
		zpty -w -n z "$typed"$'\t'
	else
		zpty -w -n z $'\C-u'"$typed"$'\t'
	fi
	first=0
	# wait for the listing, however slow a loaded machine makes compinit and
	# cdm: zle echoes the line, clears below it (ESC[J), prints the choices and
	# moves the cursor back up (ESC[nA).  Typing ahead to mark the end would not
	# do: with input pending, zle shows no listing.  60 s at most.
	out=""
	done_=0
	SECONDS=0
	while (( SECONDS < 60 )); do
		if zpty -r -t z chunk; then
			out+=$chunk
			[[ $out == *"$typed"*$'\e[J'*$'\e['[0-9]#A* ]] && { done_=1; break; }
		else
			sleep 0.05
		fi
	done
	# a listing whose end never came is not a listing: say so, do not pass on part of it
	if (( ! done_ )); then
		print -u2 -r -- "zsh-complete.zsh: no end of the listing for '$typed' in 60 s"
		zpty -d z
		exit 4
	fi
	print -r -- "# $typed"
	# the listing is what follows the echoed line; strip escapes and split
	out=${out//$'\e'\[[0-9;?]#[A-Za-z]/}
	out=${out//$'\r'/$'\n'}
	for line in ${(f)out}; do
		[[ $line == *"$typed"* ]] && continue
		for w in ${=line}; do [[ $w == [A-Za-z0-9/._-]## ]] && print -r -- $w; done
	done
done
zpty -d z
