#!/usr/bin/env bash
# The .deb as a user gets it: built from BUILD_DIR with CPack (scripts/lib/package.sh), unpacked
# into a temporary root with dpkg -x, its files and dependencies checked, its own rlda run on an
# installed example with RLDA_DATA_DIR unset (so that it finds its share/ folder beside itself),
# its bash completion and man page used, its .desktop and AppStream files validated.
#   tests/package/package_test.sh BUILD_DIR SOURCE_DIR     (CTest's `package`, label package)
set -euo pipefail
build="$(realpath "$1")"
source_dir="$(realpath "$2")"
source "$source_dir/scripts/lib/package.sh"

fail() { echo "package_test: $*" >&2; exit 1; }
for tool in dpkg-deb:dpkg dpkg-shlibdeps:dpkg-dev desktop-file-validate:desktop-file-utils appstreamcli:appstream; do
  command -v "${tool%%:*}" >/dev/null || fail "${tool%%:*} not found (Debian package ${tool#*:}; scripts/lib/setup.sh installs it)"
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
deb=$(rlda_make_deb "$build" "$tmp/deb")
rlda_deb_summary "$deb"

# Dependencies: the libraries the binaries link (dpkg-shlibdeps), the Qt platform plugins, and
# what the default experiment needs.
depends=$(dpkg-deb -f "$deb" Depends)
recommends=$(dpkg-deb -f "$deb" Recommends)
for lib in libtorch libqt6widgets6 libqt6gui6 libqt6svg6 libqcustomplot libtomlplusplus libfmt zlib1g qt6-qpa-plugins; do
  [[ $depends == *"$lib"* ]] || fail "Depends lacks $lib: $depends"
done
[[ $recommends == *dataset-fashion-mnist* ]] || fail "Recommends lacks dataset-fashion-mnist: $recommends"

root="$tmp/root"
dpkg -x "$deb" "$root"
usr="$root/usr"
share="$usr/share"
for f in bin/rlda bin/rlda-workbench \
         share/rlda-workbench/examples/default.toml share/rlda-workbench/examples/synthetic-quick.toml \
         share/rlda-workbench/examples/models/small_convnet.toml \
         share/rlda-workbench/paper/tables/index.csv share/rlda-workbench/paper/ranks.csv \
         share/doc/rlda-workbench/README.md share/doc/rlda-workbench/copyright \
         share/doc/rlda-workbench/docs/architecture.md share/doc/rlda-workbench/docs/screenshots/03-training.png \
         share/applications/rlda-workbench.desktop share/metainfo/io.github.rlda.workbench.metainfo.xml \
         share/icons/hicolor/scalable/apps/rlda-workbench.svg \
         share/bash-completion/completions/rlda share/man/man1/rlda.1.gz; do
  [ -f "$usr/$f" ] || fail "the package does not install /usr/$f"
done
while IFS=, read -r file _; do # every table the index names
  [ "$file" = file ] || [ -f "$share/rlda-workbench/paper/tables/$file" ] || fail "paper table $file not installed"
done <"$share/rlda-workbench/paper/tables/index.csv"

# The installed rlda, from a folder of its own, finds the installed examples, not the source tree's.
unset RLDA_DATA_DIR
rlda="$usr/bin/rlda"
work="$tmp/work"
mkdir -p "$work"
cd "$work"
examples=$("$rlda" config examples)
[ "$examples" = "$(printf '%s\n' "$share/rlda-workbench/examples/default.toml" \
                   "$share/rlda-workbench/examples/synthetic-quick.toml")" ] ||
  fail "rlda config examples lists: $examples"
"$rlda" train "$share/rlda-workbench/examples/synthetic-quick.toml" --out run >"$tmp/train.out" ||
  fail "rlda train on the installed example failed: $(cat "$tmp/train.out")"
grep -q '^final_test_acc: ' "$tmp/train.out" || fail "rlda train printed no final_test_acc: $(cat "$tmp/train.out")"
[ -f run/config.toml ] && [ -f run/metrics/test_acc.csv ] || fail "the run folder lacks config.toml or metrics/"
"$rlda" train synthetic-quick --out by-name >"$tmp/train.out" || # an example by its name
  fail "rlda train synthetic-quick failed: $(cat "$tmp/train.out")"
"$rlda" model show "$share/rlda-workbench/examples/models/small_convnet.toml" --input 1x28x28 >/dev/null ||
  fail "rlda model show on the installed model failed"
# The shipped tables, found beside the program: a one-episode reproduction without figures.
"$rlda" reproduce --out paper --episodes 1 --stage-episodes 1 --no-figures >"$tmp/reproduce.out" ||
  fail "rlda reproduce on the installed tables failed: $(tail -3 "$tmp/reproduce.out")"
grep -q "$share/rlda-workbench/paper/tables" paper/*/events.jsonl ||
  fail "rlda reproduce did not read the installed tables"
"$usr/bin/rlda-workbench" --version | grep -q '^rlda-workbench ' || fail "rlda-workbench --version failed"

# The completion parses and completes; the man page reads.
completion="$share/bash-completion/completions/rlda"
bash -n "$completion" || fail "the bash completion does not parse"
reply=$(bash -c 'source "$1"; COMP_WORDS=(rlda sweep st); COMP_CWORD=2; _rlda; echo "${COMPREPLY[*]}"' _ "$completion")
[ "$reply" = status ] || fail "the completion of 'rlda sweep st' is '$reply'"
zcat "$share/man/man1/rlda.1.gz" | grep -q '^\.TH RLDA 1' || fail "rlda.1.gz is no man page"
if command -v groff >/dev/null; then
  warnings=$(zcat "$share/man/man1/rlda.1.gz" | groff -man -Tutf8 -ww -z 2>&1) || true
  [ -z "$warnings" ] || fail "groff warns on rlda.1: $warnings"
fi

# The desktop entry and the AppStream metadata, as software centres check them.
out=$(desktop-file-validate "$share/applications/rlda-workbench.desktop" 2>&1) || fail "desktop-file-validate: $out"
[ -z "$out" ] || fail "desktop-file-validate: $out"
out=$(appstreamcli validate --pedantic --no-net "$share/metainfo/io.github.rlda.workbench.metainfo.xml" 2>&1) ||
  fail "appstreamcli: $out"
! grep -qE '^[EWIP]: ' <<<"$out" || fail "appstreamcli --pedantic: $out"
echo "package_test: passed"
