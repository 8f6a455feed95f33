# zsh-complete.zsh FPATH_DIR CDM_DIR LINE - type LINE and a Tab in an
# interactive zsh (on a pseudo-terminal, zsh/zpty) whose completion loads
# _cdm from FPATH_DIR and runs cdm from CDM_DIR; print the candidates zsh
# lists, one per line, without terminal escapes.  For tests/cli/31-completion.bats.
setopt extendedglob
zmodload zsh/zpty || exit 3
# the terminal zle draws for is ours, whatever TERM the caller has (none
# under env -i or a package build, "dumb" in some CI): without a real one
# zle lists no choices
zpty z env TERM=xterm zsh -f -i
zpty -w z "PS1='' PATH=${(q)2}:\$PATH; fpath=(${(q)1} \$fpath); autoload -U compinit; compinit -u -D; bindkey '^I' list-choices; zstyle ':completion:*' list-packed false; zstyle ':completion:*' verbose no; echo READ""Y"
while zpty -r z line; do [[ $line == *READY* ]] && break; done
zpty -w -n z "$3"$'\t'
# wait for the listing, however slow a loaded machine makes compinit and
# cdm: zle echoes the line, clears below it (ESC[J), prints the choices and
# moves the cursor back up (ESC[nA).  Typing ahead to mark the end would not
# do: with input pending, zle shows no listing.  60 s at most.
out=""
SECONDS=0
while (( SECONDS < 60 )); do
	if zpty -r -t z chunk; then
		out+=$chunk
		[[ $out == *"$3"*$'\e[J'*$'\e['[0-9]#A* ]] && break
	else
		sleep 0.05
	fi
done
zpty -d z
# the listing is what follows the echoed line; strip escapes and split
out=${out//$'\e'\[[0-9;?]#[A-Za-z]/}
out=${out//$'\r'/$'\n'}
for line in ${(f)out}; do
	[[ $line == *"$3"* ]] && continue
	for w in ${=line}; do [[ $w == [A-Za-z0-9/._-]## ]] && print -r -- $w; done
done
