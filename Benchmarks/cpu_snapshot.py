#!/usr/bin/env python3
"""CPU seconds used so far by groups of processes, read from /proc (user + system, all threads).

  cpu_snapshot.py NAME=PID[,PID…][+] …

A PID followed by `+` also counts its living children (a PostgreSQL postmaster and its backends, nginx's
master and workers). Prints one line: NAME=SECONDS … . Two snapshots around a wrk run give each group's CPU
for that run (Benchmarks/postgres.sh).
"""

import os
import sys

TICKS = os.sysconf("SC_CLK_TCK")


def stat(pid):
    with open(f"/proc/{pid}/stat") as f:
        text = f.read()
    fields = text[text.rindex(")") + 2:].split()
    # fields[0] is field 3 (state): ppid is field 4, utime 14, stime 15, cutime 16, cstime 17.
    return int(fields[1]), int(fields[11]) + int(fields[12]), int(fields[13]) + int(fields[14])


def children(parent):
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                ppid = stat(int(entry))[0]
            except (OSError, ValueError):
                continue
            if ppid == parent:
                out.append(int(entry))
    return out


def seconds(spec):
    total = 0
    for item in spec.split(","):
        with_children = item.endswith("+")
        pid = int(item.rstrip("+"))
        pids = [pid] + (children(pid) if with_children else [])
        for p in pids:
            try:
                _, own, reaped = stat(p)
            except OSError:
                continue
            # The root of a group also counts the children it has reaped (short-lived workers).
            total += own + (reaped if with_children and p == pid else 0)
    return total / TICKS


def main():
    parts = []
    for arg in sys.argv[1:]:
        name, spec = arg.split("=", 1)
        parts.append(f"{name}={seconds(spec):.3f}")
    print(" ".join(parts))


if __name__ == "__main__":
    main()
