"""Resident memory of a process and of the processes it started, read from /proc (Linux)."""

from __future__ import annotations

import os


def process_tree(root: int) -> list[int]:
    """`root` and its descendants, from /proc (just `root` where there is no /proc)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    parents[int(entry)] = int(handle.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    tree, todo = [], [root]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo.extend(child for child, parent in parents.items() if parent == pid)
    return tree


def rss_mb(pid: int) -> float:
    """The resident memory of `pid` in MB (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return 0.0
