# bash completion for uprof: commands, and each command's long options as its own --help
# lists them (so completion never disagrees with the binary); profile takes collect's and
# report's. Source it, or install it as share/bash-completion/completions/uprof.
_uprof() {
	local cur=${COMP_WORDS[COMP_CWORD]} bin=${COMP_WORDS[0]} cmd=${COMP_WORDS[1]} opts c
	if [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W "$("$bin" --help 2>/dev/null |
			awk '/^commands:/ { f = 1; next } f && NF { print $1 }') help --help --version" -- "$cur"))
		return
	fi
	if [ "$cmd" = help ]; then
		COMPREPLY=($(compgen -W "$("$bin" --help 2>/dev/null |
			awk '/^commands:/ { f = 1; next } f && NF { print $1 }')" -- "$cur"))
		return
	fi
	# pcm's own command: roofline (its options from its --help)
	if [ "$cmd" = pcm ] && [ "$COMP_CWORD" -eq 2 ] && [ "${cur:0:1}" != - ]; then
		COMPREPLY=($(compgen -W roofline -- "$cur") $(compgen -f -- "$cur"))
		return
	fi
	[ "$cmd" = pcm ] && [ "${COMP_WORDS[2]}" = roofline ] && cmd="pcm roofline"
	case $cur in
	-*)
		for c in "$cmd" $([ "$cmd" = profile ] && echo collect report); do
			opts+=" $("$bin" $c --help 2>/dev/null | grep -oE -- '--[a-z][a-z0-9-]*')"
		done
		COMPREPLY=($(compgen -W "$(tr ' ' '\n' <<<"$opts" | sort -u)" -- "$cur"))
		;;
	*)
		COMPREPLY=($(compgen -f -- "$cur"))
		;;
	esac
}
complete -F _uprof uprof
