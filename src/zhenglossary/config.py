"""Settings for engines: the user's own config, the project's file, the environment, flags.

Lowest to highest precedence:

1. the user's config file, ``config.toml`` in ``$XDG_CONFIG_HOME/zhen/`` (else
   ``~/.config/zhen/``; ``ZHEN_CONFIG`` names another file) — the user's own defaults;
2. the project's file: ``zhen.toml`` in the project root (the glossary's folder), or else
   the ``[tool.zhen]`` table of ``pyproject.toml`` there;
3. an environment variable ``ZHEN_<ENGINE>_<FIELD>`` (``ZHEN_LLM_MODEL``);
4. a flag (``--model``).

Each engine reads its own table::

    # zhen.toml                           # pyproject.toml
    [llm]                                 [tool.zhen.llm]
    model = "qwen2.5:7b-instruct"         model = "qwen2.5:7b-instruct"

A field whose dataclass metadata says ``trusted`` (the llm engine's ``allow_remote``) is
one only the user may set: a project's file comes with the notes (a cloned repository), so
its value is ignored — with a warning when it would have changed anything — and only the
user's config, the environment and flags count. The fields, their types and defaults are
the engine's own dataclass; this module only finds and converts the values.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from pathlib import Path
from typing import Any, TypeVar

from .errors import ZhenError
from .paths import user_config_file

T = TypeVar("T")

_KINDS = {"str": str, "int": int, "float": float, "bool": bool}   # annotations as strings
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


class ConfigError(ZhenError):
    """zhen.toml, [tool.zhen] or a ZHEN_* variable holds a value zhen cannot use."""


def _read_toml(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path} cannot be read ({exc}); fix its TOML syntax") from exc


def project_table(root: Path | None) -> tuple[dict, str | None]:
    """The ``zhen`` settings table of the project at ``root`` and where it came from."""
    if root is None:
        return {}, None
    own = root / "zhen.toml"
    pyproject = root / "pyproject.toml"
    for path, inner in ((own, ()), (pyproject, ("tool", "zhen"))):
        if not path.is_file():
            continue
        data = _read_toml(path)
        for key in inner:
            data = data.get(key, {}) if isinstance(data, dict) else {}
        if path == own or data:
            where = str(path) + ("" if path == own else " [tool.zhen]")
            return (data if isinstance(data, dict) else {}), where
    return {}, None


def user_table() -> tuple[dict, str | None]:
    """The user's own settings table (``user_config_file()``) and its path; none is fine."""
    path = user_config_file()
    if not path.is_file():
        return {}, None
    return _read_toml(path), str(path)


def _section(table: dict, section: str, where: str | None, fields: dict) -> dict:
    values = table.get(section, {})
    if not isinstance(values, dict):
        raise ConfigError(f"{where}: [{section}] must be a table")
    unknown = sorted(set(values) - set(fields))
    if unknown:
        raise ConfigError(f"{where}: [{section}] has no setting {', '.join(unknown)}; "
                          f"known: {', '.join(fields)}")
    return values


def _convert(value: Any, kind: type, where: str) -> Any:
    try:
        if kind is bool:
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in _TRUE | _FALSE:
                return text in _TRUE
            raise ValueError(value)
        if kind is int and isinstance(value, float) and not value.is_integer():
            raise ValueError(value)
        if kind in (int, float) and isinstance(value, bool):
            raise ValueError(value)
        return kind(value)
    except (TypeError, ValueError):
        name = {bool: "true or false", int: "a whole number", float: "a number",
                str: "a string"}.get(kind, kind.__name__)
        raise ConfigError(f"{where} must be {name}, not {value!r}") from None


def load_settings(cls: type[T], section: str, root: Path | None,
                  flags: dict[str, Any] | None = None,
                  warnings: list[str] | None = None) -> tuple[T, dict[str, str]]:
    """An instance of the dataclass ``cls`` from defaults < user config < project file <
    environment < flags, and where each non-default value came from (for ``zhen model
    list``). A ``trusted`` field set by the project file is ignored; when that changed the
    result, a message saying so is appended to ``warnings``."""
    fields = {f.name: f for f in dataclasses.fields(cls)}
    kinds = {name: _KINDS[f.type] if isinstance(f.type, str) else f.type
             for name, f in fields.items()}
    trusted = {name for name, f in fields.items() if f.metadata.get("trusted")}
    values: dict[str, Any] = {}
    origin: dict[str, str] = {}
    ignored: dict[str, tuple[Any, str]] = {}
    for (table, where), is_project in ((user_table(), False), (project_table(root), True)):
        if where is None:
            continue
        for name, value in _section(table, section, where, fields).items():
            converted = _convert(value, kinds[name], f"{where}: [{section}] {name}")
            if is_project and name in trusted:
                ignored[name] = (converted, where)
                continue
            values[name] = converted
            origin[name] = where
    for name in fields:
        variable = f"ZHEN_{section}_{name}".upper()
        if variable in os.environ:
            values[name] = _convert(os.environ[variable], kinds[name], variable)
            origin[name] = variable
    for name, value in (flags or {}).items():
        if value is None:
            continue
        if name not in fields:
            raise ConfigError(f"--{name.replace('_', '-')} is not a setting of {section}")
        values[name] = _convert(value, kinds[name], f"--{name.replace('_', '-')}")
        origin[name] = "command line"
    settings = cls(**values)
    for name, (value, where) in ignored.items():
        if warnings is not None and getattr(settings, name) != value:
            shown = str(value).lower() if isinstance(value, bool) else repr(value)
            warnings.append(_trusted_advice(where, section, name, shown))
    return settings, origin


def _trusted_advice(where: str, section: str, name: str, shown: str) -> str:
    flag = "--" + name.replace("_", "-")
    return (f"{where} sets {name} = {shown} in [{section}]; ignored: a project's file cannot "
            f"set {name}, only you can — with {flag}, ZHEN_{section.upper()}_{name.upper()}, "
            f"or {name} = {shown} under [{section}] in your own config {user_config_file()}")
