# The one way the Debian package is made, for scripts/package and tests/package/package_test.sh.
# Sourced, not run.

# rlda_make_deb BUILD_DIR OUT_DIR: packages what BUILD_DIR has built (rlda, rlda-workbench; the
# install rules are packaging/CMakeLists.txt) with CPack into OUT_DIR and prints the .deb's path.
# CPack's own output goes to OUT_DIR/cpack.log, shown when it fails.
rlda_make_deb() {
  local build="$1" out="$2"
  mkdir -p "$out"
  if ! cpack -G DEB --config "$build/CPackConfig.cmake" -B "$out" >"$out/cpack.log" 2>&1; then
    cat "$out/cpack.log" >&2
    echo "rlda_make_deb: cpack failed (log: $out/cpack.log)" >&2
    return 1
  fi
  local debs=("$out"/*.deb)
  [ -f "${debs[0]}" ] || { echo "rlda_make_deb: cpack made no .deb in $out" >&2; return 1; }
  echo "${debs[0]}"
}

# rlda_deb_summary DEB: its path, size and the dependency lines, for people.
rlda_deb_summary() {
  local deb="$1"
  echo "package: $deb"
  echo "size: $(du -h "$deb" | cut -f1) ($(stat -c %s "$deb") bytes; installed $(dpkg-deb -f "$deb" Installed-Size) KiB)"
  local field value
  for field in Depends Recommends Suggests; do
    value=$(dpkg-deb -f "$deb" "$field")
    [ -n "$value" ] && echo "$field: $value"
  done
  return 0
}
