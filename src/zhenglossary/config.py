"""Project settings for engines: a file, then the environment, then command-line flags.

The file is ``zhen.toml`` in the project root (the glossary's folder), or else the
``[tool.zhen]`` table of ``pyproject.toml`` there. Each engine reads its own table::

    # zhen.toml                           # pyproject.toml
    [llm]                                 [tool.zhen.llm]
    model = "qwen2.5:7b-instruct"         model = "qwen2.5:7b-instruct"

An environment variable ``ZHEN_<ENGINE>_<FIELD>`` (``ZHEN_LLM_MODEL``) overrides the
file, and a flag (``--model``) overrides both. The fields, their types and defaults are
the engine's own dataclass; this module only finds and converts the values.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from pathlib import Path
from typing import Any, TypeVar

from .errors import ZhenError

T = TypeVar("T")

_KINDS = {"str": str, "int": int, "float": float, "bool": bool}   # annotations as strings
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


class ConfigError(ZhenError):
    """zhen.toml, [tool.zhen] or a ZHEN_* variable holds a value zhen cannot use."""


def project_table(root: Path | None) -> tuple[dict, str | None]:
    """The ``zhen`` settings table of the project at ``root`` and where it came from."""
    if root is None:
        return {}, None
    own = root / "zhen.toml"
    pyproject = root / "pyproject.toml"
    for path, inner in ((own, ()), (pyproject, ("tool", "zhen"))):
        if not path.is_file():
            continue
        try:
            data = tomllib.loads(path.read_text("utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"{path} cannot be read ({exc}); fix its TOML syntax") from exc
        for key in inner:
            data = data.get(key, {}) if isinstance(data, dict) else {}
        if path == own or data:
            where = str(path) + ("" if path == own else " [tool.zhen]")
            return (data if isinstance(data, dict) else {}), where
    return {}, None


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
                  flags: dict[str, Any] | None = None) -> tuple[T, dict[str, str]]:
    """An instance of the dataclass ``cls`` from defaults < file < environment < flags,
    and where each non-default value came from (for ``zhen model list``)."""
    table, where = project_table(root)
    file_values = table.get(section, {})
    if not isinstance(file_values, dict):
        raise ConfigError(f"{where}: [{section}] must be a table")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(file_values) - set(fields))
    if unknown:
        raise ConfigError(f"{where}: [{section}] has no setting {', '.join(unknown)}; "
                          f"known: {', '.join(fields)}")
    values: dict[str, Any] = {}
    origin: dict[str, str] = {}
    kinds = {name: _KINDS[f.type] if isinstance(f.type, str) else f.type
             for name, f in fields.items()}
    for name, value in file_values.items():
        values[name] = _convert(value, kinds[name], f"{where}: [{section}] {name}")
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
    return cls(**values), origin
