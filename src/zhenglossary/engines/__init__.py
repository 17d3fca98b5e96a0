"""Translation engines behind one protocol (base.py), found by name in one registry.

Every engine is an entry point of the ``zhenglossary.engines`` group whose object is an
:class:`EngineSpec` (or a function returning one). A third-party engine installs as a
plugin by declaring one in its own package::

    [project.entry-points."zhenglossary.engines"]
    myengine = "my_package.zhen:SPEC"

The built-in engines (argos, gloss, llm) are entry points too, listed in :data:`BUILTIN`
and loaded by the same code as a plugin's (they are not read from zhen's installed
metadata, so a source checkout with stale metadata still has them). A plugin cannot take
a built-in's name; a plugin that fails to load is reported by :func:`engine_specs`, not
raised. ``auto`` is not an engine but a choice: argos when a usable zh→en model is
installed, else gloss.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING

from ..errors import ModelError, UsageError
from .base import EngineContext, EngineSpec, EngineStatus

if TYPE_CHECKING:
    from .base import Engine

__all__ = ["AUTO", "BUILTIN", "GROUP", "EngineContext", "EngineSpec", "EngineStatus",
           "Registry", "create_engine", "engine_names", "engine_specs"]

GROUP = "zhenglossary.engines"
AUTO = "auto"

BUILTIN = (
    EntryPoint("argos", "zhenglossary.engines.argos:SPEC", GROUP),
    EntryPoint("gloss", "zhenglossary.engines.gloss:SPEC", GROUP),
    EntryPoint("llm", "zhenglossary.engines.llm:SPEC", GROUP),
)

GLOSS_WARNING = ("no Chinese→English model is installed, so this is a dictionary gloss "
                 "(engine: gloss), not machine translation. For real MT run `zhen model install`, "
                 "or `zhen model install --file translate-zh_en.argosmodel`.")


@dataclass
class Registry:
    specs: dict[str, EngineSpec]
    problems: list[str]                               # plugins that could not be loaded


def _load(ep: EntryPoint, origin: str) -> EngineSpec:
    obj = ep.load()
    spec = obj() if callable(obj) and not isinstance(obj, EngineSpec) else obj
    if not isinstance(spec, EngineSpec):
        raise TypeError(f"{ep.value} is not an EngineSpec")
    if spec.name != ep.name:
        raise TypeError(f"{ep.value} names itself {spec.name!r}, not {ep.name!r}")
    return EngineSpec(spec.name, spec.summary, spec.create, spec.status, origin)


def engine_specs() -> Registry:
    """Every engine by name: built-ins first, then installed plugins."""
    specs: dict[str, EngineSpec] = {}
    problems: list[str] = []
    installed = [ep for ep in entry_points(group=GROUP)
                 if getattr(ep, "dist", None) is None or ep.dist.name != "zhenglossary"]
    for k, ep in enumerate([*BUILTIN, *installed]):
        dist = getattr(ep, "dist", None)
        origin = "built-in" if k < len(BUILTIN) else (
            f"plugin {dist.name} {dist.version}" if dist is not None else "plugin")
        if ep.name in specs or ep.name == AUTO:
            problems.append(f"{origin}: the engine name {ep.name!r} is taken; rename it")
            continue
        try:
            specs[ep.name] = _load(ep, origin)
        except Exception as exc:          # a broken plugin must not break zhen
            problems.append(f"{origin}: cannot load engine {ep.name!r} from {ep.value} "
                            f"({type(exc).__name__}: {exc}); reinstall or remove the plugin")
    return Registry(specs, problems)


def engine_names() -> list[str]:
    return [AUTO, *engine_specs().specs]


def create_engine(name: str, context: EngineContext) -> tuple["Engine", list[str]]:
    """The engine called ``name`` (or ``auto``'s choice) and notices for the user."""
    from dataclasses import replace

    registry = engine_specs()
    if context.fallback is None:
        context = replace(context, fallback=lambda: _auto(registry, replace(
            context, fallback=None))[0])
    if name == AUTO:
        return _auto(registry, context)
    spec = registry.specs.get(name)
    if spec is None:
        raise UsageError(f"unknown engine {name!r}; choose one of "
                         f"{', '.join([AUTO, *registry.specs])} (`zhen model list` lists them)")
    return spec.create(context), []


def _auto(registry: Registry, context: EngineContext) -> tuple["Engine", list[str]]:
    from . import argos

    notices: list[str] = []
    package = argos.find_zh_en()
    if package is not None and package.usable:
        return registry.specs["argos"].create(context), notices
    if package is not None:
        notices.append(f"the argos package {package.path} is broken ("
                       + "; ".join(package.problems) + "); using the gloss engine")
    if "gloss" not in registry.specs:
        raise ModelError(f"the gloss engine is unavailable ({'; '.join(registry.problems)}). "
                         + argos.INSTALL_HINT + ".")
    notices.append(GLOSS_WARNING)
    return registry.specs["gloss"].create(context), notices
