#!/usr/bin/env bash
# ci/slurm-setup.sh installs and starts a single-node Slurm cluster (Debian's slurm-wlm with
# munge authentication) on this machine, so that the self-play Slurm test can submit the
# deploy/slurm.sbatch array job for real. Run it as root on Debian (bookworm or later).
#
# It is idempotent: run it again and it leaves a working cluster alone, restarts what is not
# running and brings a drained or down node back. It starts the daemons directly rather
# than through systemd, because CI containers usually have no init system.
#
# The configuration is the smallest that works on one machine: the node is this host
# (the NodeName must match `hostname -s`, or slurmd does not know which node it is), with the
# CPUs and memory `slurmd -C` detects; process tracking by /proc (proctrack/linuxproc) and no
# task binding (task/none), since containers often lack a writable cgroup hierarchy.
set -euo pipefail

if [ "$(id -u)" -ne 0 ]; then
	echo "slurm-setup: must run as root" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
	apt-get -o DPkg::Lock::Timeout=600 update -qq
	apt-get -o DPkg::Lock::Timeout=600 install -y -qq slurm-wlm munge >/dev/null
fi

# munge: one key shared by every daemon (here all on one host).
if [ ! -s /etc/munge/munge.key ]; then
	if command -v mungekey >/dev/null; then
		mungekey --create --keyfile=/etc/munge/munge.key
	else
		dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null
	fi
fi
chown munge:munge /etc/munge/munge.key
chmod 400 /etc/munge/munge.key
mkdir -p /run/munge /var/log/munge /var/lib/munge
chown munge:munge /run/munge /var/log/munge /var/lib/munge
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
	runuser -u munge -- /usr/sbin/munged --force
	for _ in $(seq 50); do
		munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break
		sleep 0.1
	done
	munge -n | unmunge >/dev/null || { echo "slurm-setup: munged did not start" >&2; exit 1; }
fi

# slurm.conf: written only when it would change, so a rerun does not disturb running daemons.
host=$(hostname -s)
# `slurmd -C` prints this host's NodeName line (CPUs, sockets, cores, RealMemory).
node_line=$(slurmd -C | head -n 1)
case "$node_line" in
NodeName=*) ;;
*) echo "slurm-setup: slurmd -C printed no NodeName line: $node_line" >&2; exit 1 ;;
esac
# Slurm refuses a node whose RealMemory exceeds what it finds; leave 5% headroom.
node_line=$(echo "$node_line" | awk '{for (i = 1; i <= NF; i++) if ($i ~ /^RealMemory=/) { split($i, a, "="); $i = "RealMemory=" int(a[2] * 0.95) } print}')
mkdir -p /etc/slurm /var/lib/slurm/slurmctld /var/lib/slurm/slurmd /var/log/slurm /run/slurm
conf=$(cat <<CONF
# Written by shogilab ci/slurm-setup.sh: a single-node cluster for tests.
ClusterName=shogilab
SlurmctldHost=$host
AuthType=auth/munge
CryptoType=crypto/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=/var/lib/slurm/slurmctld
SlurmdSpoolDir=/var/lib/slurm/slurmd
SlurmctldPidFile=/run/slurm/slurmctld.pid
SlurmdPidFile=/run/slurm/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
MaxArraySize=10001
$node_line State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
)
changed=0
if [ ! -f /etc/slurm/slurm.conf ] || [ "$(cat /etc/slurm/slurm.conf)" != "$conf" ]; then
	printf '%s\n' "$conf" >/etc/slurm/slurm.conf
	changed=1
fi

running() { pgrep -x "$1" >/dev/null; }
if [ "$changed" = 1 ] && running slurmctld; then
	scontrol reconfigure || true
fi
running slurmctld || slurmctld
for _ in $(seq 100); do
	scontrol ping 2>/dev/null | grep -q 'is UP' && break
	sleep 0.2
done
scontrol ping | grep -q 'is UP' || { echo "slurm-setup: slurmctld did not come up; see /var/log/slurm/slurmctld.log" >&2; exit 1; }
running slurmd || slurmd

# Wait for the node to register; bring it back if an earlier run left it down or drained.
for _ in $(seq 100); do
	state=$(sinfo -h -n "$host" -o '%T' 2>/dev/null | head -n 1)
	case "$state" in
	idle* | mixed* | allocated* | completing*) break ;;
	down* | drain* | fail*) scontrol update NodeName="$host" State=RESUME 2>/dev/null || true ;;
	esac
	sleep 0.2
done
state=$(sinfo -h -n "$host" -o '%T' | head -n 1)
case "$state" in
idle* | mixed* | allocated* | completing*) echo "slurm-setup: node $host is $state" ;;
*) echo "slurm-setup: node $host is '$state'; see /var/log/slurm/slurmd.log" >&2; exit 1 ;;
esac
