# Sourced by bench/encoded_input.sh and bench/ladder.sh (which set $here, their folder): route
# NAME CMD... runs CMD through measure.py (output discarded) and keeps, per NAME, the fastest
# wall time in best[NAME] and its CPU seconds in cpu[NAME]; names lists the NAMEs in order. A
# failing run is named on stderr and kept out.
declare -A best cpu
names=()
route() {
  local name=$1
  shift
  [[ " ${names[*]} " == *" $name "* ]] || names+=("$name")
  local m
  if ! m=$(python3 "$here/measure.py" "$@"); then
    echo "$name: $m" >&2
    return
  fi
  read -r wall cpus _ <<<"$m"
  if [ -z "${best[$name]:-}" ] || python3 -c "import sys; sys.exit(not $wall < ${best[$name]})"; then
    best[$name]=$wall
    cpu[$name]=$cpus
  fi
}
