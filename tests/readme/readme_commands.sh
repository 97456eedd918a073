#!/usr/bin/env bash
# The documentation's commands as a user pastes them into bash: in each page given, every ```sh block
# that the line <!-- runnable --> introduces is run, command by command and in order, with this
# build's rlda first on PATH, in a scratch folder holding copies of config/ and data/ (so that the
# pages' relative paths work and nothing is written into the repository); later blocks of a page see
# what its earlier ones wrote, and each page starts from a fresh folder, so that a page stands alone.
# <!-- runnable gui --> blocks need the GUI build (rlda figures) and run only in one. A command
# that exits non-zero fails the test with its page, line and text and the end of its output.
#   tests/readme/readme_commands.sh SOURCE_DIR BIN_DIR gui|engine PAGE...
# (CTest's `readme_commands`; the pages are the list tests/CMakeLists.txt declares, README.md and
# docs/*.md, relative to SOURCE_DIR.)
set -euo pipefail
source_dir="$(realpath "$1")"
bin_dir="$(realpath "$2")"
build="$3"
shift 3
pages=("$@")
# The commands marked in the pages today (README.md, docs/cli.md, docs/models.md), not counting the
# GUI build's: pages that lost their markers would pass with less run.
minimum=14

fail() { echo "readme_commands: $*" >&2; exit 1; }
[ -x "$bin_dir/rlda" ] || fail "$bin_dir/rlda not found"
case "$build" in gui | engine) ;; *) fail "the third argument is gui or engine, not '$build'" ;; esac

[ "${#pages[@]}" -gt 0 ] || fail "no pages given"

# The marked commands, one per entry, a line continued with '\' joined to the next; `where` holds
# each one's PAGE:LINE and `page_of` its page's index.
commands=()
where=()
page_of=()
counted=0       # the commands of <!-- runnable --> blocks, which every build runs
for p in "${!pages[@]}"; do
  page="${pages[$p]}"
  [ -f "$source_dir/$page" ] || fail "$page: no such page in $source_dir"
  marker=""     # the marker of the block ahead or open: "", "runnable" or "runnable gui"
  in_block=false
  pending=""    # a command continued on the next line
  number=0
  while IFS= read -r line || [ -n "$line" ]; do
    number=$((number + 1))
    if ! $in_block; then
      if [[ $line =~ ^\<!--\ (runnable|runnable\ gui)\ --\>$ ]]; then
        marker="${BASH_REMATCH[1]}"
        marker_line=$number
      elif [ -n "$marker" ]; then
        [ "$line" = '```sh' ] || fail "$page:$marker_line: <!-- $marker --> is not followed by a \`\`\`sh block"
        in_block=true
      fi
      continue
    fi
    if [ "$line" = '```' ]; then
      [ -z "$pending" ] || fail "$page:$number: the block ends within a command continued with '\\'"
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
    if [ "$marker" = "runnable gui" ]; then
      [ "$build" = gui ] || continue
    else
      counted=$((counted + 1))
    fi
    commands+=("$command")
    where+=("$page:$start")
    page_of+=("$p")
  done <"$source_dir/$page"
done
[ "$counted" -ge "$minimum" ] ||
  fail "only $counted runnable commands found in ${pages[*]}, not the $minimum these pages hold"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PATH="$bin_dir:$PATH"

current=-1
for i in "${!commands[@]}"; do
  if [ "${page_of[$i]}" != "$current" ]; then # a fresh folder for each page
    current="${page_of[$i]}"
    work="$tmp/page-$current"
    mkdir "$work"
    cp -r "$source_dir/config" "$source_dir/data" "$work/"
    cd "$work"
  fi
  echo "${where[$i]}: ${commands[$i]}"
  status=0
  timeout 600 bash -o pipefail -c "${commands[$i]}" </dev/null >"$tmp/output" 2>&1 || status=$?
  if [ "$status" -ne 0 ]; then
    tail -n 20 "$tmp/output" >&2
    fail "${where[$i]}: exit code $status: ${commands[$i]}"
  fi
done
echo "readme_commands: ${#commands[@]} commands of ${#pages[@]} pages ran ($build build)"
