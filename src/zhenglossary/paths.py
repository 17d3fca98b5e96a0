"""Where zhen keeps its state (the translation memory and caches) and the user's config.

``ZHEN_HOME`` overrides both state folders. Without it, the memory lives in ``.zhen/`` at
the project root (the folder holding glossary.yaml) and caches in ``$XDG_CACHE_HOME/zhen``
(``~/.cache/zhen``). The user's own config file is ``$ZHEN_CONFIG``, else
``$XDG_CONFIG_HOME/zhen/config.toml`` (``~/.config/zhen/config.toml``).
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


def user_config_file() -> Path:
    """The user's own settings (config.py reads it): never part of a project, so it may
    hold what a project's file may not (the llm engine's ``allow_remote``)."""
    value = os.environ.get("ZHEN_CONFIG")
    if value:
        return Path(value).expanduser()
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "zhen" / "config.toml"
