"""Where zhen keeps its state: the translation memory and caches.

``ZHEN_HOME`` overrides both. Without it, the memory lives in ``.zhen/`` at the project
root (the folder holding glossary.yaml) and caches in ``$XDG_CACHE_HOME/zhen``
(``~/.cache/zhen``).
"""

from __future__ import annotations

import os
from pathlib import Path


def zhen_home() -> Path | None:
    value = os.environ.get("ZHEN_HOME")
    return Path(value).expanduser() if value else None


def state_dir(project_root: Path) -> Path:
    return zhen_home() or project_root / ".zhen"


def cache_dir() -> Path:
    home = zhen_home()
    if home is not None:
        return home / "cache"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "zhen"
