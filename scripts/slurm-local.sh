#!/usr/bin/env bash
# A real single-node SLURM cluster on this Debian/Ubuntu box, for trying profiles/slurm (and for
# the `slurm` test): munge, MariaDB + slurmdbd (accounting: sacct works), slurmctld and slurmd,
# a CPU partition `cpu` (the default) and, when `nvidia-smi -L` lists GPUs, a `gpu` partition
# whose node has them as GRES. Root only (it installs packages and starts daemons).
#
#   bash scripts/slurm-local.sh up       # install what is missing, start what is not running
#   bash scripts/slurm-local.sh install  # only install what is missing (no daemon is started)
#   bash scripts/slurm-local.sh status   # each daemon's PID, then sinfo
#   bash scripts/slurm-local.sh down     # stop every daemon it started, by PID (state is kept)
#   bash scripts/slurm-local.sh purge    # down, then delete the state (accounting database...)
#
# Idempotent: `up` twice starts nothing twice; `down` on a stopped cluster does nothing.
# Everything lives under $IME_SLURM_DIR (default /var/lib/ime-slurm): configs, PID files, logs,
# the database, spool. The SLURM configs are written to /etc/slurm (so sinfo, sbatch and sacct
# need no SLURM_CONF) unless a slurm.conf that this script did not write is there: then it stops.
# Account `ime` is created, and root (plus $SUDO_USER and $IME_SLURM_USERS, if set) may use it:
#   snakemake --profile profiles/slurm ...   with   export IME_SLURM_ACCOUNT=ime
set -euo pipefail

STATE=${IME_SLURM_DIR:-/var/lib/ime-slurm}
CONF_DIR=/etc/slurm
DB_PORT=${IME_SLURM_DB_PORT:-3307}  # MariaDB on 127.0.0.1 only, away from a system MySQL's 3306
CLUSTER=ime
ACCOUNT=ime
MARK="# written by IME scripts/slurm-local.sh"
HOST=$(hostname -s)
DAEMONS=(munged mariadbd slurmdbd slurmctld slurmd)  # start order; stopped in reverse

say() { printf '[slurm-local] %s\n' "$*"; }
die() { printf '[slurm-local] error: %s\n' "$*" >&2; exit 1; }

# munged insists on its own directories (owned by munge, not group/world-writable): its PID file
# stays in /run/munge; the others are under $STATE/run.
pidfile() { if [[ $1 == munged ]]; then echo /run/munge/munged.pid; else echo "$STATE/run/$1.pid"; fi; }

# The PID in a daemon's PID file, if that process is alive and is that program.
live_pid() {
  local f pid
  f=$(pidfile "$1")
  [[ -s $f ]] || return 1
  pid=$(tr -dc 0-9 <"$f")
  [[ -n $pid ]] && alive "$pid" || return 1
  grep -q "$1" "/proc/$pid/comm" "/proc/$pid/cmdline" 2>/dev/null || return 1
  echo "$pid"
}

# Alive: the process exists and is not a zombie (a daemon that exited stays a zombie until its
# parent reaps it; under a child subreaper, such as a test runner, that may be never).
alive() {
  local st
  st=$(sed -E 's/.*\) ([A-Za-z]).*/\1/' "/proc/$1/stat" 2>/dev/null) || return 1
  [[ -n $st && $st != Z && $st != X ]]
}

wait_for() {  # wait_for SECONDS DESCRIPTION COMMAND...
  local secs=$1 what=$2
  shift 2
  for _ in $(seq $((secs * 5))); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.2
  done
  die "$what did not come up in ${secs}s (logs: $STATE/log/)"
}

install_packages() {
  local missing=()
  for cmd in munged mariadbd slurmdbd slurmctld slurmd sacctmgr; do
    command -v "$cmd" >/dev/null 2>&1 || [[ -x /usr/sbin/$cmd ]] || missing+=("$cmd")
  done
  if ((${#missing[@]} == 0)); then
    say "packages: installed"
    return
  fi
  command -v apt-get >/dev/null || die "missing ${missing[*]} and no apt-get (Debian/Ubuntu only)"
  say "packages: installing slurm-wlm slurmdbd munge mariadb-server (missing: ${missing[*]})"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # policy-rc.d 101: the packages must not start their own daemons; this script starts them
  local policy=/usr/sbin/policy-rc.d created_policy=0
  if [[ ! -e $policy ]]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && created_policy=1
  fi
  apt-get install -y -qq --no-install-recommends slurm-wlm slurmdbd munge mariadb-server \
    mariadb-client >/dev/null
  ((created_policy)) && rm -f "$policy"
  say "packages: installed"
}

gpu_count() {
  if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true
  else
    echo 0
  fi
}

write_configs() {
  if [[ -e $CONF_DIR/slurm.conf ]] && ! grep -qF "$MARK" "$CONF_DIR/slurm.conf"; then
    die "$CONF_DIR/slurm.conf exists and was not written by this script: not touching a real cluster's config"
  fi
  mkdir -p "$CONF_DIR" "$STATE"/{run,log,ctld,slurmd,mysql}
  local cpus mem gpus gres_node="" gpu_part=""
  cpus=$(nproc)
  mem=$(($(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 * 9 / 10))  # MB, 10% for the OS
  gpus=$(gpu_count)
  if ((gpus > 0)); then
    gres_node=" Gres=gpu:$gpus"
    gpu_part="PartitionName=gpu Nodes=$HOST MaxTime=INFINITE State=UP"
    {
      echo "$MARK"
      echo "NodeName=$HOST Name=gpu File=/dev/nvidia[0-$((gpus - 1))]"
    } >"$CONF_DIR/gres.conf"
  fi
  cat >"$CONF_DIR/slurm.conf" <<EOF
$MARK
ClusterName=$CLUSTER
SlurmctldHost=$HOST
SlurmUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
MinJobAge=600
StateSaveLocation=$STATE/ctld
SlurmdSpoolDir=$STATE/slurmd
SlurmctldPidFile=$(pidfile slurmctld)
SlurmdPidFile=$(pidfile slurmd)
SlurmctldLogFile=$STATE/log/slurmctld.log
SlurmdLogFile=$STATE/log/slurmd.log
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=localhost
JobAcctGatherType=jobacct_gather/linux
JobCompType=jobcomp/none
$( ((gpus > 0)) && echo "GresTypes=gpu")
NodeName=$HOST CPUs=$cpus RealMemory=$mem$gres_node State=UNKNOWN
PartitionName=cpu Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
$gpu_part
EOF
  cat >"$CONF_DIR/slurmdbd.conf" <<EOF
$MARK
AuthType=auth/munge
DbdHost=localhost
SlurmUser=root
PidFile=$(pidfile slurmdbd)
LogFile=$STATE/log/slurmdbd.log
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$DB_PORT
StorageUser=slurm
StoragePass=ime-local
StorageLoc=slurm_acct_db
EOF
  chmod 600 "$CONF_DIR/slurmdbd.conf"
  say "configs: $CONF_DIR/slurm.conf ($HOST: $cpus CPUs, ${mem} MB, $gpus GPUs), slurmdbd.conf"
}

start_munged() {
  [[ -s /etc/munge/munge.key ]] || { mungekey --create 2>/dev/null || create-munge-key; }
  mkdir -p /run/munge /var/log/munge /var/lib/munge
  chown munge:munge /run/munge /var/log/munge /var/lib/munge /etc/munge/munge.key
  chmod 0400 /etc/munge/munge.key
  runuser -u munge -- munged 2>"$STATE/log/munged.start.log" ||
    die "munged: $(cat "$STATE/log/munged.start.log") (log: /var/log/munge/munged.log)"
  wait_for 10 munged munge -n
}

sql() { mariadb --protocol=socket --socket="$STATE/run/mysqld.sock" -uroot "$@"; }

start_mariadbd() {
  chown mysql:mysql "$STATE/mysql"
  if [[ ! -d $STATE/mysql/mysql ]]; then
    mariadb-install-db --user=mysql --datadir="$STATE/mysql" --skip-test-db \
      --auth-root-authentication-method=socket >"$STATE/log/mariadb-install.log" 2>&1 ||
      die "mariadb-install-db failed: $STATE/log/mariadb-install.log"
  fi
  chown mysql:mysql "$STATE/run"
  touch "$STATE/log/mariadbd.log" && chown mysql:mysql "$STATE/log/mariadbd.log"  # mysql writes it
  # its own session: a signal to the caller's process group (Ctrl-C, timeout) must not stop it
  setsid mariadbd --user=mysql --datadir="$STATE/mysql" --socket="$STATE/run/mysqld.sock" \
    --pid-file="$(pidfile mariadbd)" --bind-address=127.0.0.1 --port="$DB_PORT" \
    --log-error="$STATE/log/mariadbd.log" >/dev/null 2>&1 &
  disown
  wait_for 30 mariadbd sql -e "SELECT 1"
  chown root:root "$STATE/run"
  chmod 755 "$STATE/run"
  sql <<EOF
CREATE DATABASE IF NOT EXISTS slurm_acct_db;
CREATE USER IF NOT EXISTS 'slurm'@'localhost' IDENTIFIED BY 'ime-local';
CREATE USER IF NOT EXISTS 'slurm'@'127.0.0.1' IDENTIFIED BY 'ime-local';
GRANT ALL ON slurm_acct_db.* TO 'slurm'@'localhost';
GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';
FLUSH PRIVILEGES;
EOF
}

start_slurmdbd() {
  slurmdbd
  wait_for 30 slurmdbd sacctmgr -n list cluster
}

add_accounts() {
  sacctmgr -n list cluster format=cluster%40 | grep -qw "$CLUSTER" ||
    sacctmgr -i add cluster "$CLUSTER" >/dev/null
  sacctmgr -n list account format=account%40 | grep -qw "$ACCOUNT" ||
    sacctmgr -i add account "$ACCOUNT" Cluster="$CLUSTER" Description="IME local cluster" \
      Organization=ime >/dev/null
  local users=(root ${SUDO_USER:-} ${IME_SLURM_USERS:-})
  for u in "${users[@]}"; do
    [[ -n $u ]] || continue
    sacctmgr -n list assoc user="$u" account="$ACCOUNT" format=user%40 | grep -qw "$u" ||
      sacctmgr -i add user "$u" Account="$ACCOUNT" DefaultAccount="$ACCOUNT" >/dev/null
  done
  say "accounting: cluster $CLUSTER, account $ACCOUNT for ${users[*]}"
}

node_ready() { sinfo -h -N -o %t | grep -qE '^(idle|mix|alloc)'; }

start_slurmctld() {
  slurmctld
  wait_for 30 slurmctld scontrol ping
}

start_slurmd() {
  slurmd
  wait_for 30 "slurmd (node $HOST idle)" node_ready
}

up() {
  [[ $EUID -eq 0 ]] || die "run as root (it installs packages and starts daemons)"
  install_packages
  write_configs
  for d in "${DAEMONS[@]}"; do
    if pid=$(live_pid "$d"); then
      say "$d: already running (pid $pid)"
    else
      "start_$d"
      say "$d: started (pid $(live_pid "$d"))"
    fi
    [[ $d == slurmdbd ]] && add_accounts
  done
  sinfo
  say "up. Try: srun hostname; sacct; export IME_SLURM_ACCOUNT=$ACCOUNT"
}

down() {
  local i d pid
  for ((i = ${#DAEMONS[@]} - 1; i >= 0; i--)); do
    d=${DAEMONS[i]}
    if pid=$(live_pid "$d"); then
      kill -TERM "$pid" 2>/dev/null || true
      for _ in $(seq 100); do alive "$pid" || break; sleep 0.1; done
      if alive "$pid"; then
        kill -KILL "$pid" 2>/dev/null || true
        say "$d: killed (pid $pid did not stop in 10 s)"
      else
        say "$d: stopped (pid $pid)"
      fi
    else
      say "$d: not running"
    fi
    rm -f "$(pidfile "$d")"
  done
}

status() {
  local d pid rc=0
  for d in "${DAEMONS[@]}"; do
    if pid=$(live_pid "$d"); then say "$d: running (pid $pid)"; else say "$d: stopped"; rc=1; fi
  done
  ((rc == 0)) && sinfo
  return $rc
}

purge() {
  down
  rm -rf "$STATE"
  for f in slurm.conf slurmdbd.conf gres.conf; do
    if [[ -e $CONF_DIR/$f ]] && grep -qF "$MARK" "$CONF_DIR/$f"; then rm -f "$CONF_DIR/$f"; fi
  done
  say "purged $STATE and the configs this script wrote"
}

case ${1:-} in
  up) up ;;
  install)
    [[ $EUID -eq 0 ]] || die "run as root (it installs packages)"
    install_packages ;;
  down) down ;;
  status) status ;;
  purge) purge ;;
  *) echo "usage: $0 up|install|status|down|purge" >&2; exit 2 ;;
esac
