"""Where Lark keeps the scoring language's parser between runs, so a command does not rebuild it.

Building the LALR tables takes longer than the rest of `boom validate`; Lark's own cache stores the
built parser (keyed by the grammar's hash, so a changed grammar is rebuilt) and loads it in a few
milliseconds. The cache is a pickle, so it must only ever live in a folder that the user alone can
write: never the shared temporary folder. With no such folder, there is no cache (False).
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path


def user_cache_folder() -> Path | None:
    """The user's own cache folder for boom ($XDG_CACHE_HOME/boom, else ~/.cache/boom), made if missing, or None
    when it is not a folder that this user owns and no one else can write (a pickle from there could run code)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = Path(base) / "boom"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = folder.stat()
        if not stat.S_ISDIR(info.st_mode) or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            return None
        if hasattr(os, "getuid") and info.st_uid != os.getuid():
            return None
    except OSError:
        return None
    return folder


def cache_file(name: str) -> str | bool:
    """A path for Lark's `cache=` in the user's own cache folder, or False for no cache."""
    folder = user_cache_folder()
    if folder is None:
        return False
    return str(folder / f"{name}-py{sys.version_info[0]}{sys.version_info[1]}.lark-cache")
