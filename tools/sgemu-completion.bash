# bash completion for sgemu: subcommands from `sgemu --help`, options from
# `sgemu COMMAND --help`, so it follows the binary it completes.
_sgemu() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local sgemu=${COMP_WORDS[0]} cmd=${COMP_WORDS[1]}
    if (( COMP_CWORD == 1 )); then
        local cmds
        cmds=$("$sgemu" --help 2>/dev/null | sed -n '/^commands:/,/^$/s/^  \([a-z0-9]*\) .*/\1/p')
        COMPREPLY=($(compgen -W "$cmds --help --version" -- "$cur"))
        return
    fi
    case $prev in
        --config)
            local names
            names=$("$sgemu" replay /dev/null --config '?' 2>&1 |
                    sed -n 's/^  bundled configs://p')
            COMPREPLY=($(compgen -W "$names" -- "$cur") $(compgen -f -X '!*.yaml' -- "$cur"))
            compopt -o filenames 2>/dev/null
            return ;;
        -o|--out|--record|--trace)
            COMPREPLY=($(compgen -f -- "$cur"))
            compopt -o filenames 2>/dev/null
            return ;;
    esac
    if [[ $cur == -* ]]; then
        local opts
        opts=$("$sgemu" "$cmd" --help 2>/dev/null | grep -oE -- '(^|[ [,])--?[a-zA-Z][a-zA-Z0-9-]*' |
               sed 's/^[ [,]//' | sort -u)
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
    compopt -o filenames 2>/dev/null
}
complete -F _sgemu sgemu
