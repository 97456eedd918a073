# Shared by scripts/run and scripts/test: install missing Debian packages, configure and build.
# Sourced, not run. Variables: RLDA_PRESET (default release), RLDA_SKIP_INSTALL=1 to skip apt.

rlda_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

# Everything a fresh Debian 12 machine needs to build, test and run the workbench.
rlda_packages=(
  g++ cmake ninja-build ccache pkg-config clang-tidy
  libtorch-dev libfmt-dev libtomlplusplus-dev libcli11-dev nlohmann-json3-dev zlib1g-dev
  qt6-base-dev libqcustomplot-dev libgl-dev qt6-svg-dev qt6-qpa-plugins
  dataset-fashion-mnist
  slurm-wlm munge
  # the package test (tests/package): dpkg-shlibdeps, desktop-file-validate, appstreamcli
  dpkg-dev desktop-file-utils appstream
)

rlda_install_packages() {
  [ "${RLDA_SKIP_INSTALL:-0}" = 1 ] && return 0
  local missing=() p
  for p in "${rlda_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "scripts: installing missing Debian packages: ${missing[*]}"
  local sudo=()
  [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

rlda_build() {
  local preset="${RLDA_PRESET:-release}"
  cd "$rlda_root"
  # RLDA_CMAKE_ARGS: more -D settings for this build folder (e.g. -DRLDA_WERROR=ON).
  # shellcheck disable=SC2086
  cmake --preset "$preset" ${RLDA_CMAKE_ARGS:-}
  cmake --build --preset "$preset" --parallel "$(nproc)"
}
