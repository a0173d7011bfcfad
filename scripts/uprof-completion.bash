# bash completion for uprof: commands, each command's long and short options as its own
# --help lists them, and option values as uprof itself lists them (info --list ...): so
# completion never disagrees with the binary. profile takes collect's and report's.
# Source it, or install it as share/bash-completion/completions/uprof.

# _uprof_first_column BIN ARGS...: the first word of each line uprof prints
_uprof_first_column() {
	local bin=$1
	shift
	"$bin" "$@" 2>/dev/null | awk 'NF { print $1 }'
}

# _uprof_values BIN CMD OPTION: the values OPTION of CMD takes, one a line (none: files)
_uprof_values() {
	local bin=$1 cmd=$2 opt=$3 ev
	case "$cmd:$opt" in
	collect:--config | profile:--config | info:--collect-config)
		_uprof_first_column "$bin" info --list collect-configs ;;
	collect:-e | collect:--event | profile:-e | profile:--event)
		"$bin" info --list predefined-events 2>/dev/null |
			awk '$2 ~ /^PMCx/ { print $1 }' ;;
	collect:--trace | profile:--trace)
		_uprof_first_column "$bin" info --list trace-events
		for ev in $(_uprof_first_column "$bin" info --list ostrace-events); do
			echo "os=$ev"
		done ;;
	report:-s | report:--sort-by)
		# the usual ones; any event collect's -e takes is a sort key
		printf '%s\n' event=timer event=ibs-op event=ibs-fetch page-faults
		"$bin" info --list predefined-events 2>/dev/null |
			awk '$2 ~ /^PMCx/ { print $1 }' ;;
	report:--export | profile:--export)
		_uprof_first_column "$bin" info --list export-formats
		echo all ;;
	report:--view | info:--view-config)
		# the views uprof can show here; the IBS ones are listed but need IBS
		"$bin" info --list view-configs 2>/dev/null | awk '$2 == "available" { print $1 }' ;;
	info:--list)
		_uprof_first_column "$bin" info --list lists ;;
	pcm:-m | pcm:--metrics)
		_uprof_first_column "$bin" info --list metric-groups ;;
	*)
		return 1 ;;
	esac
}

# _uprof_options BIN CMD...: the long and short options the commands' --help lists (the
# option column starts at the second column: "  -o, --output-dir <dir>", "  --tid <tids>",
# or, where the command aligns long-only options, "      --dry-run")
_uprof_options() {
	local bin=$1 c
	shift
	for c in "$@"; do
		"$bin" $c --help 2>/dev/null |
			grep -oE -- '^  (-[a-zA-Z0-9](, --[a-z][a-z0-9-]*)?|( {4})?--[a-z][a-z0-9-]*)' |
			grep -oE -- '-[-a-zA-Z0-9]+'
	done | sort -u
}

_uprof() {
	local cur=${COMP_WORDS[COMP_CWORD]} bin=${COMP_WORDS[0]} cmd=${COMP_WORDS[1]}
	local prev=${COMP_WORDS[COMP_CWORD - 1]} values head
	if [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W "$("$bin" --help 2>/dev/null |
			awk '/^commands:/ { f = 1; next } f && !NF { exit } f { print $1 }') help --help --version" -- "$cur"))
		return
	fi
	if [ "$cmd" = help ]; then
		COMPREPLY=($(compgen -W "$("$bin" --help 2>/dev/null |
			awk '/^commands:/ { f = 1; next } f && !NF { exit } f { print $1 }')" -- "$cur"))
		return
	fi
	# pcm's own commands: top, profile, compare, roofline, hreport (roofline's and hreport's
	# options from their --help; hreport reads a directory)
	if [ "$cmd" = pcm ] && [ "$COMP_CWORD" -eq 2 ] && [ "${cur:0:1}" != - ]; then
		COMPREPLY=($(compgen -W "top profile compare roofline hreport" -- "$cur") $(compgen -f -- "$cur"))
		return
	fi
	[ "$cmd" = pcm ] && [ "${COMP_WORDS[2]}" = roofline ] && cmd="pcm roofline"
	if [ "$cmd" = pcm ] && [ "${COMP_WORDS[2]}" = hreport ]; then
		cmd="pcm hreport"
		if [ "${cur:0:1}" != - ] && [ "$prev" != -o ] && [ "$prev" != --output ]; then
			COMPREPLY=($(compgen -d -- "$cur"))
			return
		fi
	fi
	# an option's value: --export a,b,<cur> completes the last of a comma list
	if [ "$COMP_CWORD" -gt 2 ] && values=$(_uprof_values "$bin" "$cmd" "$prev"); then
		head=
		case "$prev" in
		--export | -m | --metrics)
			[[ $cur == *,* ]] && head=${cur%,*},
			;;
		esac
		COMPREPLY=($(compgen -P "$head" -W "$values" -- "${cur#"$head"}"))
		return
	fi
	case $cur in
	-*)
		COMPREPLY=($(compgen -W "$(_uprof_options "$bin" "$cmd" \
			$([ "$cmd" = profile ] && echo collect report))" -- "$cur"))
		;;
	*)
		COMPREPLY=($(compgen -f -- "$cur"))
		;;
	esac
}
complete -F _uprof uprof
