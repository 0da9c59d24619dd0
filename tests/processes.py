"""What /proc says about a server and its worker processes (Linux), for the network attack tests and
bench/net_load.py: one reader, so a test's memory figure and the benchmark's mean the same thing."""

from __future__ import annotations

from pathlib import Path


def family(pid: int) -> list[int]:
    """The process and its direct children (a server's table workers)."""
    try:
        return [pid] + [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return [pid]


def memory_mib(pids: list[int], field: str) -> float:
    """The sum of one memory line of /proc/PID/status over these processes: `VmRSS` (resident now) or `VmHWM`
    (the peak). A process that has ended counts nothing."""
    total = 0.0
    for pid in pids:
        try:
            lines = Path(f"/proc/{pid}/status").read_text().splitlines()
        except OSError:
            continue
        total += sum(int(line.split()[1]) / 1024 for line in lines if line.startswith(f"{field}:"))
    return total
