#!/usr/bin/env bash
# A throw-away single-node Slurm cluster (munged + slurmctld + slurmd) for the Slurm sweep tests.
#
#   scripts/lib/slurm-test-cluster.sh start DIR    prints "export SLURM_CONF=DIR/slurm.conf"
#   scripts/lib/slurm-test-cluster.sh status DIR
#   scripts/lib/slurm-test-cluster.sh stop DIR
# or sourced: slurm_cluster_start DIR / slurm_cluster_status DIR / slurm_cluster_stop DIR, and
# slurm_cluster_for_tests DIR, scripts/test's start (an error in CI, a skip elsewhere).
#
# Everything lives in DIR (config, munge key and socket, state, spool, logs, pid files), the daemons
# run as the current user and listen on 127.0.0.1 only, on ports free at start time, so two clusters
# in two folders do not clash and nothing under /etc or /run is touched. Needs Debian's slurm-wlm and
# munge. DIR/pids holds the process ids started; stop kills exactly those. When start fails, it
# prints why and the last SLURM_CLUSTER_LOG_LINES (5) lines of each daemon's log, and leaves the
# reason, one line, in $slurm_cluster_failure.

# Ports in use on this machine (any state, IPv4 and IPv6), one decimal number per line.
_slurm_cluster_used_ports() {
  local f
  for f in /proc/net/tcp /proc/net/tcp6; do
    [ -r "$f" ] || continue
    # mawk has no strtonum: convert the hex port in bash.
    awk 'NR > 1 { split($2, a, ":"); print a[2] }' "$f" | while read -r h; do echo $((16#$h)); done
  done
}

# Two distinct free ports (random, so that concurrent starts rarely pick the same ones; a clash
# still fails loudly when the daemon cannot bind).
_slurm_cluster_free_ports() {
  local used port picked=()
  used=" $(_slurm_cluster_used_ports | tr '\n' ' ') "
  while [ ${#picked[@]} -lt 2 ]; do
    port=$((20000 + RANDOM % 30000))
    case "$used" in *" $port "*) continue ;; esac
    [ "${picked[0]:-}" = "$port" ] && continue
    picked+=("$port")
  done
  echo "${picked[@]}"
}

# Waits up to $2 tenths of a second for the file $1 to hold a pid; prints it.
_slurm_cluster_wait_pidfile() {
  local file="$1" tries="$2" pid
  while [ "$tries" -gt 0 ]; do
    if [ -s "$file" ]; then
      pid=$(tr -dc '0-9' <"$file")
      [ -n "$pid" ] && { echo "$pid"; return 0; }
    fi
    sleep 0.1
    tries=$((tries - 1))
  done
  return 1
}

# The reason start failed: printed, and kept in $slurm_cluster_failure.
_slurm_cluster_error() {
  slurm_cluster_failure="$*"
  echo "slurm-test-cluster: $*" >&2
}

# The reason, then the daemons' logs; stops what was started.
_slurm_cluster_fail() {
  local dir="$1"; shift
  _slurm_cluster_error "$@"
  local log
  for log in "$dir"/log/*.log; do
    [ -s "$log" ] && {
      echo "--- last lines of $log:" >&2
      tail -n "${SLURM_CLUSTER_LOG_LINES:-5}" "$log" >&2
    }
  done
  slurm_cluster_stop "$dir" >/dev/null 2>&1
  return 1
}

slurm_cluster_start() {
  local dir="${1:?slurm_cluster_start: DIR missing}"
  local tool
  slurm_cluster_failure=""
  for tool in munged slurmctld slurmd sinfo sbatch squeue scancel; do
    command -v "$tool" >/dev/null 2>&1 || {
      _slurm_cluster_error "$tool not found; install it: apt-get install slurm-wlm munge"
      return 1
    }
  done
  mkdir -p "$dir" || { _slurm_cluster_error "$dir: cannot create the folder"; return 1; }
  dir="$(cd "$dir" && pwd)"
  if [ -s "$dir/pids" ]; then
    _slurm_cluster_error "$dir/pids exists: a cluster may be running there; stop it first"
    return 1
  fi
  # munged refuses keys and sockets in group- or world-writable folders.
  chmod 0700 "$dir"
  mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log" "$dir/run"
  chmod 0700 "$dir/munge"
  : >"$dir/pids"

  local user key="$dir/munge/munge.key" socket="$dir/munge/munge.socket"
  user="$(id -un)"
  rm -f "$key"
  dd if=/dev/urandom of="$key" bs=1024 count=1 status=none ||
    { _slurm_cluster_fail "$dir" "cannot write the munge key $key"; return 1; }
  chmod 0400 "$key"
  munged --socket="$socket" --key-file="$key" --pid-file="$dir/run/munged.pid" \
    --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munged.seed" --force ||
    { _slurm_cluster_fail "$dir" "munged did not start (see $dir/log/munged.log)"; return 1; }
  local pid
  pid=$(_slurm_cluster_wait_pidfile "$dir/run/munged.pid" 50) ||
    { _slurm_cluster_fail "$dir" "munged wrote no pid file"; return 1; }
  echo "$pid munged" >>"$dir/pids"

  local cpus mem_mb ports ctld_port slurmd_port
  cpus="$(nproc)"
  mem_mb=$(($(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) / 1024 * 9 / 10))
  read -r ctld_port slurmd_port <<<"$(_slurm_cluster_free_ports)"
  cat >"$dir/slurm.conf" <<EOF
# Throw-away test cluster written by scripts/lib/slurm-test-cluster.sh; everything under $dir.
ClusterName=rldatest$$
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
# Bind to the configured addresses (127.0.0.1) rather than to every interface.
CommunicationParameters=NoInAddrAny,NoCtldInAddrAny
SrunPortRange=$((slurmd_port + 1))-$((slurmd_port + 20))
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
SlurmUser=$user
SlurmdUser=$user
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/slurmd-%n
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# Quick turnaround for tests: schedule often, keep finished jobs visible to squeue for 5 minutes.
SchedulerParameters=sched_interval=2
MinJobAge=300
KillWait=5
InactiveLimit=0
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF

  export SLURM_CONF="$dir/slurm.conf"
  # -i: ignore state left in the folder; the daemons fork into the background and write pid files.
  slurmctld -i -f "$SLURM_CONF" ||
    { _slurm_cluster_fail "$dir" "slurmctld did not start (see $dir/log/slurmctld.log)"; return 1; }
  pid=$(_slurm_cluster_wait_pidfile "$dir/run/slurmctld.pid" 100) ||
    { _slurm_cluster_fail "$dir" "slurmctld wrote no pid file"; return 1; }
  echo "$pid slurmctld" >>"$dir/pids"
  slurmd -N localhost -f "$SLURM_CONF" ||
    { _slurm_cluster_fail "$dir" "slurmd did not start (see $dir/log/slurmd.log)"; return 1; }
  pid=$(_slurm_cluster_wait_pidfile "$dir/run/slurmd.pid" 100) ||
    { _slurm_cluster_fail "$dir" "slurmd wrote no pid file"; return 1; }
  echo "$pid slurmd" >>"$dir/pids"

  local deadline=$((SECONDS + 30)) state=""
  while [ $SECONDS -lt $deadline ]; do
    state="$(sinfo -h -n localhost -o %t 2>/dev/null | head -n 1)"
    [ "$state" = idle ] && break
    sleep 0.5
  done
  if [ "$state" != idle ]; then
    _slurm_cluster_fail "$dir" "node not idle after 30 s (sinfo says '${state:-nothing}')"
    return 1
  fi
  echo "export SLURM_CONF=$SLURM_CONF"
}

slurm_cluster_status() {
  local dir="${1:?slurm_cluster_status: DIR missing}" pid name rc=0
  if [ ! -s "$dir/pids" ]; then
    echo "slurm-test-cluster: no cluster in $dir"
    return 1
  fi
  while read -r pid name; do
    if _slurm_cluster_alive "$pid" "$name"; then
      echo "$name: running (pid $pid)"
    else
      echo "$name: not running (pid $pid)"
      rc=1
    fi
  done <"$dir/pids"
  SLURM_CONF="$dir/slurm.conf" sinfo 2>&1 || rc=1
  return $rc
}

# True while process $1 exists, runs the program $2 and is not a zombie (a container's init may
# never reap it).
_slurm_cluster_alive() {
  local stat
  [ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ] || return 1
  stat="$(cat "/proc/$1/stat" 2>/dev/null)" || return 1
  stat="${stat##*) }"
  [ "${stat%% *}" != Z ]
}

slurm_cluster_stop() {
  local dir="${1:?slurm_cluster_stop: DIR missing}" pid name entries=() entry waited
  [ -f "$dir/pids" ] || return 0
  # Reverse order: slurmd and slurmctld before the munged they authenticate through. A pid is only
  # signalled while it still runs the program recorded with it (pids get reused).
  while read -r pid name; do
    [ -n "$pid" ] && entries=("$pid $name" "${entries[@]}")
  done <"$dir/pids"
  for entry in "${entries[@]}"; do
    read -r pid name <<<"$entry"
    _slurm_cluster_alive "$pid" "$name" && kill -TERM "$pid" 2>/dev/null
  done
  for entry in "${entries[@]}"; do
    read -r pid name <<<"$entry"
    waited=0
    while _slurm_cluster_alive "$pid" "$name" && [ $waited -lt 100 ]; do
      sleep 0.1
      waited=$((waited + 1))
    done
    _slurm_cluster_alive "$pid" "$name" && kill -KILL "$pid" 2>/dev/null
  done
  rm -f "$dir/pids"
  return 0
}

# scripts/test's cluster: starts one in DIR and exports SLURM_CONF. When it does not start, with
# CI=true it returns 1 after the logs (200 lines each) and a last line naming what failed, so that
# CI is never green with the Slurm tests skipped; otherwise it says that they will skip and why,
# exports the reason as RLDA_NO_SLURM_CLUSTER (their skip messages show it) and returns 0.
slurm_cluster_for_tests() {
  local dir="${1:?slurm_cluster_for_tests: DIR missing}" ci=false lines=5
  if [ "${CI:-}" = true ]; then
    ci=true
    lines=200
  fi
  if SLURM_CLUSTER_LOG_LINES=$lines slurm_cluster_start "$dir" >/dev/null; then
    export SLURM_CONF="$dir/slurm.conf"
    unset RLDA_NO_SLURM_CLUSTER
    return 0
  fi
  if [ $ci = true ]; then
    echo "scripts/test: error: the Slurm test cluster did not start: $slurm_cluster_failure (CI=true: the Slurm tests must run)" >&2
    return 1
  fi
  export RLDA_NO_SLURM_CLUSTER="$slurm_cluster_failure"
  echo "scripts/test: no Slurm test cluster ($slurm_cluster_failure): the Slurm tests skip; with CI=true this is an error" >&2
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  case "${1:-}" in
    start) slurm_cluster_start "${2:?usage: $0 start DIR}" ;;
    stop) slurm_cluster_stop "${2:?usage: $0 stop DIR}" ;;
    status) slurm_cluster_status "${2:?usage: $0 status DIR}" ;;
    *) echo "usage: $0 start|stop|status DIR" >&2; exit 2 ;;
  esac
fi
