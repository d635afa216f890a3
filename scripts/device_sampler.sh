#!/usr/bin/env bash
# The device scripts' shared pieces (scripts/device_thesis.sh, scripts/device_dmc.sh), sourced by
# them: `now` (seconds since the epoch, to the nanosecond), `since T` (seconds from T to now,
# one decimal), `machine_facts`, and the sampler: `sample T0` prints a CSV row every 2 s until killed, with t_s counted from T0 (`date +%s.%N`):
#   cpu_busy_pct   all cores busy, from /proc/stat (user+nice+system+irq+softirq+steal)
#   steal_pct      time the hypervisor gave another guest (/proc/stat's steal): a VM's
#                  neighbours or its CPU quota taking cores away
#   load1..load15  /proc/loadavg
#   probe_ms       wall ms of one fixed single-thread loop (awk, 300k additions), timed here: it
#                  rises when this process's core is slower, whatever the cause (steal, a cgroup's
#                  quota, throttling, contention), which cpu_busy_pct alone does not tell
#   gpu_util_pct, gpu_mem_mib   nvidia-smi's first GPU (empty without one)
# Cost: the probe takes about 20-40 ms of one core every 2 s.

now() { date +%s.%N; }
since() { awk -v a="$(now)" -v b="$1" 'BEGIN { printf "%.1f", a - b }'; }

sample() {
    local t0=$1 prev_total=0 prev_idle=0 prev_steal=0 total idle busy steal g p0 probe
    echo "t_s,cpu_busy_pct,steal_pct,load1,load5,load15,probe_ms,gpu_util_pct,gpu_mem_mib"
    while :; do
        read -r _ u n s i w q sq st _ < /proc/stat
        total=$((u + n + s + i + w + q + sq + st)); idle=$((i + w))
        busy=""; steal=""
        if [ "$prev_total" -gt 0 ] && [ "$total" -gt "$prev_total" ]; then
            busy=$(( 100 * (total - prev_total - idle + prev_idle) / (total - prev_total) ))
            steal=$(( 100 * (st - prev_steal) / (total - prev_total) ))
        fi
        prev_total=$total; prev_idle=$idle; prev_steal=$st
        read -r l1 l5 l15 _ < /proc/loadavg
        p0=$(now)
        awk 'BEGIN { for (i = 0; i < 300000; i++) s += i }'
        probe=$(awk -v a="$(now)" -v b="$p0" 'BEGIN { printf "%.0f", 1000 * (a - b) }')
        g=""
        command -v nvidia-smi > /dev/null && g=$(nvidia-smi --query-gpu=utilization.gpu,memory.used \
            --format=csv,noheader,nounits 2>/dev/null | head -1 | tr -d ' ')
        echo "$(since "$t0"),$busy,$steal,$l1,$l5,$l15,$probe,${g:-,}"
        sleep 2
    done
}

machine_facts() {  # what a slowdown's cause may hang on: the CPU model, a cgroup CPU quota
    echo "cpu: $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo); nproc $(nproc);" \
        "memory $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)"
    echo "cgroup cpu.max: $(cat /sys/fs/cgroup/cpu.max 2> /dev/null || echo none)"
    command -v nvidia-smi > /dev/null && nvidia-smi -L || echo "nvidia-smi: not found"
}
