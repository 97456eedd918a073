# Shared by scripts/run, scripts/test and the other scripts: install missing Debian packages,
# configure and build. Sourced, not run. Variables: RLDA_PRESET (default release),
# RLDA_SKIP_INSTALL=1 to skip apt.

rlda_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

# What a fresh Debian 12 machine needs to build and run rlda and the workbench (scripts/run).
rlda_packages=(
  g++ cmake ninja-build ccache pkg-config
  libtorch-dev libfmt-dev libtomlplusplus-dev libcli11-dev nlohmann-json3-dev zlib1g-dev
  qt6-base-dev libqcustomplot-dev libgl-dev qt6-svg-dev qt6-qpa-plugins
  dataset-fashion-mnist
)
# And what the tests need besides (scripts/test).
rlda_test_packages=(
  clang-tidy clang-format # CTest's tidy and format
  groff-base              # test_cli_usage reads the man page with groff
  slurm-wlm munge         # the throw-away Slurm cluster of the sweep suites
  # the package test (tests/package): dpkg-shlibdeps, desktop-file-validate, appstreamcli
  dpkg-dev desktop-file-utils appstream
)

# rlda_install_packages [test]: the missing packages of rlda_packages (and of rlda_test_packages
# with `test`), in one apt-get.
rlda_install_packages() {
  [ "${RLDA_SKIP_INSTALL:-0}" = 1 ] && return 0
  local wanted=("${rlda_packages[@]}")
  [ "${1:-}" = test ] && wanted+=("${rlda_test_packages[@]}")
  local missing=() p
  for p in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "scripts: installing missing Debian packages: ${missing[*]}"
  local sudo=()
  [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# rlda_build [TARGET...]: configures the preset and builds those targets and what they need, or
# everything. ninja shows its progress ([done/total]) as it goes.
rlda_build() {
  local preset="${RLDA_PRESET:-release}"
  cd "$rlda_root"
  # RLDA_CMAKE_ARGS: more -D settings for this build folder (e.g. -DRLDA_WERROR=ON).
  # shellcheck disable=SC2086
  cmake --preset "$preset" ${RLDA_CMAKE_ARGS:-}
  local targets=()
  [ $# -gt 0 ] && targets=(--target "$@")
  cmake --build --preset "$preset" --parallel "$(nproc)" "${targets[@]}"
}
