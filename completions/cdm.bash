# bash completion for cdm(1), the disk benchmark                -*- shell-script -*-
#
# Options are read from cdm's own --help (bash-completion's _parse_help), so
# they follow the binary; the values of the options that take a word from a
# fixed set are listed here (tests/cli/31-completion.bats checks them
# against the binary).  Installed as /usr/share/bash-completion/completions/cdm.
# The cdm asked is the one being completed, as typed: on PATH, or by its
# path (./cdm, /opt/x/cdm, ~/bin/cdm), which bash completes with the
# compspec of the path's last part, cdm's.

_cdm_subcommands="compare import merge report sweep"

# built-in profile names, from cdm --list-profiles ("name: what it imitates")
_cdm_profiles()
{
	"$1" --list-profiles 2> /dev/null | sed -n 's/^\([a-z0-9][a-z0-9-]*\): .*/\1/p'
}

_cdm()
{
	local cur prev words cword split
	_init_completion -s || return

	# the cdm to ask, as the shell will run it: a tilde is expanded (bash
	# hands the command word over as typed, "~/bin/cdm")
	local cdm=$1
	__expand_tilde_by_ref cdm

	local sub=
	if ((cword > 1)) && [[ " $_cdm_subcommands " == *" ${words[1]} "* ]]; then
		sub=${words[1]}
	fi

	# the values of options that take one
	case $prev in
	-p | --profile)
		COMPREPLY=($(compgen -W "$(_cdm_profiles "$cdm")" -- "$cur"))
		_filedir cdm
		return
		;;
	-e | --engine)
		COMPREPLY=($(compgen -W "auto io_uring libaio sync null" -- "$cur"))
		return
		;;
	-f | --format)
		case $sub in
		compare) COMPREPLY=($(compgen -W "cdm markdown svg" -- "$cur")) ;;
		sweep) COMPREPLY=($(compgen -W "cdm markdown" -- "$cur")) ;;
		*) COMPREPLY=($(compgen -W "cdm cdm7 cdm6 json csv markdown svg" -- "$cur")) ;;
		esac
		return
		;;
	--aggregate)
		COMPREPLY=($(compgen -W "best median mean" -- "$cur"))
		return
		;;
	--mode)
		if [[ $sub == sweep ]]; then
			COMPREPLY=($(compgen -W "all read write" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "all read write mix" -- "$cur"))
		fi
		return
		;;
	--data)
		COMPREPLY=($(compgen -W "random zero" -- "$cur"))
		return
		;;
	--metric)
		if [[ $sub == sweep ]]; then
			COMPREPLY=($(compgen -W "iops mb_s" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "mb_s iops latency" -- "$cur"))
		fi
		return
		;;
	-t | --test)
		# the usual specs; a space inside needs quoting on the command line
		local IFS=$'\n'
		COMPREPLY=($(compgen -W $'SEQ1M Q8T1\nSEQ1M Q1T1\nSEQ128K Q32T1\nRND4K Q32T1\nRND4K Q32T16\nRND4K Q1T1\nRND4K Q8T8\nRND8K Q8T1\nSEQ64K Q8T1' -- "$cur"))
		local i
		for i in "${!COMPREPLY[@]}"; do
			COMPREPLY[i]=$(printf '%q' "${COMPREPLY[i]}")
		done
		return
		;;
	--log-interval)
		COMPREPLY=($(compgen -W "500ms 1s 2s 5s" -- "$cur"))
		return
		;;
	-s | --size)
		COMPREPLY=($(compgen -W "64MiB 256MiB 512MiB 1GiB 4GiB 16GiB 32GiB 64GiB" -- "$cur"))
		return
		;;
	-o | --output | --file)
		_filedir
		return
		;;
	--save)
		_filedir json
		return
		;;
	--plot | --svg)
		_filedir svg
		return
		;;
	-n | --count | -T | --time | --interval | --warmup | --mix | --rate-iops | --seed | --fsync | \
	--label | --cv-threshold | --comment | --null-service-us | --null-device | --batch | \
	--start-at | \
	--threads | --qd | --max-rounds | --cpus)
		return          # a number, a list or a text: nothing to offer
		;;
	esac
	$split && return

	if [[ $cur == -* ]]; then
		local opts
		if [[ -n $sub ]]; then
			opts=$(_parse_help "$cdm" "$sub --help")
		else
			opts=$(_parse_help "$cdm")
		fi
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		[[ ${COMPREPLY-} == *= ]] && compopt -o nospace
		return
	fi

	case $sub in
	compare | report)
		_filedir '@(json|txt)'  # saved runs and CrystalDiskMark reports
		;;
	merge)
		_filedir json
		;;
	import)
		_filedir txt
		;;
	*)
		if ((cword == 1)); then
			COMPREPLY=($(compgen -W "$_cdm_subcommands" -- "$cur"))
		fi
		# TARGET: a directory, or a block device
		local d
		_filedir -d
		if [[ $cur == /dev/* ]]; then
			for d in "$cur"*; do
				[[ -b $d ]] && COMPREPLY+=("$d")
			done
		fi
		;;
	esac
} &&
	complete -F _cdm cdm
