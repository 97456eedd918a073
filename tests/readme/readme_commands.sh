#!/usr/bin/env bash
# The README's commands as a user pastes them into bash: every ```sh block that the line
# <!-- runnable --> introduces is run, command by command and in order, with this build's rlda first
# on PATH, in a scratch folder holding copies of config/ and data/ (so that the README's relative
# paths work and nothing is written into the repository); later blocks see what earlier ones wrote.
# <!-- runnable gui --> blocks need the GUI build (rlda figures) and run only in one. A command
# that exits non-zero fails the test with its README line and text and the end of its output.
#   tests/readme/readme_commands.sh SOURCE_DIR BIN_DIR gui|engine     (CTest's `readme_commands`)
set -euo pipefail
source_dir="$(realpath "$1")"
bin_dir="$(realpath "$2")"
build="$3"
readme="$source_dir/README.md"

fail() { echo "readme_commands: $*" >&2; exit 1; }
[ -x "$bin_dir/rlda" ] || fail "$bin_dir/rlda not found"
case "$build" in gui | engine) ;; *) fail "the third argument is gui or engine, not '$build'" ;; esac

# The marked commands, one per entry, a line continued with '\' joined to the next; `where` holds
# each one's README line.
commands=()
where=()
marker=""       # the marker of the block ahead or open: "", "runnable" or "runnable gui"
in_block=false
pending=""      # a command continued on the next line
number=0
while IFS= read -r line || [ -n "$line" ]; do
  number=$((number + 1))
  if ! $in_block; then
    if [[ $line =~ ^\<!--\ (runnable|runnable\ gui)\ --\>$ ]]; then
      marker="${BASH_REMATCH[1]}"
      marker_line=$number
    elif [ -n "$marker" ]; then
      [ "$line" = '```sh' ] || fail "README.md:$marker_line: <!-- $marker --> is not followed by a \`\`\`sh block"
      in_block=true
    fi
    continue
  fi
  if [ "$line" = '```' ]; then
    [ -z "$pending" ] || fail "README.md:$number: the block ends within a command continued with '\\'"
    in_block=false
    marker=""
    continue
  fi
  [ -n "$pending" ] || start=$number
  if [[ $line == *\\ ]]; then
    pending+="${line%\\} "
    continue
  fi
  command="$pending$line"
  pending=""
  [[ $command =~ ^[[:space:]]*(#|$) ]] && continue
  if [ "$marker" = "runnable gui" ] && [ "$build" != gui ]; then
    continue
  fi
  commands+=("$command")
  where+=("$start")
done <"$readme"
# A README that lost its markers would pass with nothing run.
[ "${#commands[@]}" -ge 10 ] || fail "only ${#commands[@]} runnable commands found in README.md"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
work="$tmp/work"
mkdir "$work"
cp -r "$source_dir/config" "$source_dir/data" "$work/"
cd "$work"
export PATH="$bin_dir:$PATH"

for i in "${!commands[@]}"; do
  echo "README.md:${where[$i]}: ${commands[$i]}"
  status=0
  timeout 600 bash -o pipefail -c "${commands[$i]}" </dev/null >"$tmp/output" 2>&1 || status=$?
  if [ "$status" -ne 0 ]; then
    tail -n 20 "$tmp/output" >&2
    fail "README.md:${where[$i]}: exit code $status: ${commands[$i]}"
  fi
done
echo "readme_commands: ${#commands[@]} commands of README.md ran ($build build)"
