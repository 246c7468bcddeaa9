# bash completion for collnoise: commands, options, and for `collnoise run` the names of the
# shipped run files besides *.toml files. Installed as
# <prefix>/share/bash-completion/completions/collnoise (bash-completion loads it on first use);
# from a source tree: `source scripts/collnoise-completion.bash`.
# shellcheck disable=SC2207  # COMPREPLY=($(compgen ...)) is how completions are written

# The shipped run files of the collnoise being completed: <prefix>/share/collnoise/runs beside its
# bin/, or, for a collnoise in a build directory, the runs/ of the source tree (found through
# the CMakeCache.txt there).
_collnoise_run_names() {
  local exe dir src
  exe=$(type -P "$1" 2> /dev/null) || return 0
  exe=$(readlink -f "$exe") || return 0
  dir=${exe%/*}
  if [[ -d $dir/../share/collnoise/runs ]]; then
    src=$dir/../share/collnoise/runs
  elif [[ -f $dir/CMakeCache.txt ]]; then
    src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$dir/CMakeCache.txt")/runs
  fi
  [[ -n $src && -d $src ]] || return 0
  local f
  for f in "$src"/*.toml; do
    [[ -e $f ]] || continue
    f=${f##*/}
    printf '%s\n' "${f%.toml}"
  done
}

_collnoise() {
  local cur prev words cword
  if declare -F _init_completion > /dev/null; then
    _init_completion || return
  else
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    words=("${COMP_WORDS[@]}")
    cword=$COMP_CWORD
  fi

  local commands="run merge summary verify schedule plot"
  local command="" i
  for ((i = 1; i < cword; i++)); do
    case ${words[i]} in
      run | merge | summary | verify | schedule | plot)
        command=${words[i]}
        break
        ;;
    esac
  done

  local options files=""
  case $command in
    "")
      COMPREPLY=($(compgen -W "$commands --help --version --verbose" -- "$cur"))
      return
      ;;
    run)
      options="--out --threads --seed --part --resume --checkpoint --checkpoint-every
               --no-checkpoint --restart --no-verify --validate-only --max-core-hours --max-memory-gib
               --quiet --progress --progress-every --force --help"
      case $prev in
        --out | --resume | --checkpoint)
          COMPREPLY=($(compgen -f -- "$cur"))
          return
          ;;
        --progress)
          COMPREPLY=($(compgen -W "auto none bar lines" -- "$cur"))
          return
          ;;
        --threads | --seed | --part | --checkpoint-every | --max-core-hours | --max-memory-gib | \
          --progress-every)
          return
          ;;
      esac
      if [[ $cur != -* ]]; then
        local IFS=$'\n'
        COMPREPLY=($(compgen -W "$(_collnoise_run_names "${words[0]}")" -- "$cur")
                   $(compgen -f -X '!*.toml' -- "$cur") $(compgen -d -- "$cur"))
        return
      fi
      ;;
    merge)
      options="--out --force --quiet --no-verify --help"
      files='!*.h5'
      ;;
    summary)
      options="--json --no-verify --help"
      files='!*.h5'
      ;;
    plot)
      options="--out --format --no-verify --help"
      case $prev in
        --format)
          COMPREPLY=($(compgen -W "png pdf svg" -- "$cur"))
          return
          ;;
        --out)
          COMPREPLY=($(compgen -f -- "$cur"))
          return
          ;;
      esac
      files='!*.h5'
      ;;
    verify)
      options="--help"
      files='!*.*'  # results (.h5) and checkpoints (.ckpt) and parts: any file with a suffix
      ;;
    schedule)
      options="--list --ranks --bytes --k --segments --receives --goal --force --help"
      case $prev in
        --receives)
          COMPREPLY=($(compgen -W "in_order preposted" -- "$cur"))
          return
          ;;
        --goal)
          COMPREPLY=($(compgen -f -- "$cur"))
          return
          ;;
        --ranks | --bytes | --k | --segments)
          return
          ;;
      esac
      if [[ $cur != -* ]]; then
        COMPREPLY=($(compgen -W "$("${words[0]}" schedule --list 2> /dev/null |
          awk 'NF { print $1 }')" -- "$cur"))
        return
      fi
      ;;
  esac
  if [[ $cur == -* || -z $files ]]; then
    COMPREPLY=($(compgen -W "$options" -- "$cur"))
  else
    local IFS=$'\n'
    COMPREPLY=($(compgen -f -X "$files" -- "$cur") $(compgen -d -- "$cur"))
  fi
}

complete -F _collnoise collnoise
