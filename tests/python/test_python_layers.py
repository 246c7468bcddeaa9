"""The Python package's layers point down (python/collnoise/__init__.py, LAYERS), run by ctest:

    /usr/bin/python3 -m pytest tests/python/test_python_layers.py

The package is python/collnoise of this source tree. Every module of it is
parsed with `ast`, nothing is imported or run, and every import of the package's own modules is
found: at the top of a module, inside functions and classes, under `if`s, and
importlib.import_module or __import__ called with a constant name. A module may import modules
of its own layer and of lower ones; the test fails naming the module, the line and the module of
a higher layer it imports. It also fails for a module LAYERS does not place, and for a name in
LAYERS that no module has. Before looking at the package it checks itself: an upward import
planted in a module's text must be found.
"""

from __future__ import annotations

import ast
import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = "collnoise"
ROOT = "__init__"  # the package's own __init__.py, as LAYERS names it




def read_layers(folder: str) -> list[tuple[str, ...]]:
    """LAYERS as __init__.py writes it (a literal: read, not run)."""
    path = os.path.join(folder, "__init__.py")
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == "LAYERS" for t in targets):
            return [tuple(layer) for layer in ast.literal_eval(node.value)]
    raise SystemExit(f"{path}: no LAYERS table")


def modules_of(folder: str) -> dict[str, tuple[str, bool]]:
    """Every module of the package by its name inside it ("result", "figures.common"; the
    package's own __init__.py is ROOT, a sub-package's is the sub-package's name): its file and
    whether it is a package."""
    modules = {}
    for where, folders, names in os.walk(folder):
        folders[:] = sorted(d for d in folders if d != "__pycache__")
        for name in sorted(names):
            if not name.endswith(".py"):
                continue
            path = os.path.join(where, name)
            parts = os.path.relpath(path, folder)[:-3].split(os.sep)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts = parts[:-1]
            modules[".".join(parts) or ROOT] = (path, is_package)
    return modules


def layer_of(module: str, layers: list[tuple[str, ...]]) -> int | None:
    """The layer of a module: the one naming it, or the longest name it lies under ("figures"
    places figures.common)."""
    best, best_length = None, -1
    for index, names in enumerate(layers):
        for name in names:
            if (module == name or module.startswith(name + ".")) and len(name) > best_length:
                best, best_length = index, len(name)
    return best


def _target(parts: list[str], known: set[str]) -> str:
    name = ".".join(parts)
    return name if name else ROOT


def imports_of(source: str, module: str, is_package: bool, known: set[str]):
    """(line, imported module) for every import of the package's own modules in `source`, the
    text of `module`. `from X import name` imports X.name when that is a module, else X."""
    tree = ast.parse(source)
    here = [] if module == ROOT else module.split(".")
    package = here if is_package else here[:-1]
    found = []

    def absolute(name: str) -> list[str] | None:
        if name == PACKAGE:
            return []
        if name.startswith(PACKAGE + "."):
            return name[len(PACKAGE) + 1:].split(".")
        return None

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = absolute(alias.name)
                if parts is not None:
                    found.append((node.lineno, _target(parts, known)))
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                base = absolute(node.module or "")
                if base is None:
                    continue
            else:
                if node.level - 1 > len(package):
                    found.append((node.lineno, "<above the package>"))
                    continue
                base = package[:len(package) - (node.level - 1)]
                base = base + (node.module.split(".") if node.module else [])
            for alias in node.names:
                submodule = ".".join(base + [alias.name])
                found.append((node.lineno, submodule if submodule in known
                              else _target(base, known)))
        elif isinstance(node, ast.Call) and node.args:
            function = node.func
            name = function.attr if isinstance(function, ast.Attribute) else \
                function.id if isinstance(function, ast.Name) else ""
            first = node.args[0]
            if name in ("import_module", "__import__") and isinstance(first, ast.Constant) \
                    and isinstance(first.value, str):
                parts = absolute(first.value)
                if parts is not None:
                    found.append((node.lineno, _target(parts, known)))
    return found


def upward_imports(source: str, module: str, is_package: bool, known: set[str],
                   layers: list[tuple[str, ...]], path: str) -> list[str]:
    """One line per import in `source` of a module above `module`'s layer."""
    own = layer_of(module, layers)
    bad = []
    for line, target in imports_of(source, module, is_package, known):
        theirs = layer_of(target, layers)
        if target not in known and target != ROOT:
            bad.append(f"{path}:{line}: {module} imports {target}, which is no module of "
                       f"the package")
        elif theirs is None:
            continue  # reported once, as a module without a layer
        elif own is not None and theirs > own:
            bad.append(f"{path}:{line}: {module} (layer {own + 1}: {', '.join(layers[own])}) "
                       f"imports {target} (layer {theirs + 1}: {', '.join(layers[theirs])}), "
                       f"a higher layer")
    return bad


def check_itself(layers: list[tuple[str, ...]], known: set[str]) -> None:
    """The checker finds an upward import planted in a module's text, at the top and inside a
    function, absolute and relative; and lets a downward one pass."""
    lowest, highest = layers[0][0], layers[-1][0]
    planted = {
        f"import {PACKAGE}.{highest}\n": 1,
        f"def f():\n    from . import {highest}\n": 2,
        f"def f():\n    from .{highest} import main\n": 2,
        f"from {PACKAGE} import {highest}\n": 1,
        f"import importlib\nimportlib.import_module('{PACKAGE}.{highest}')\n": 2,
        f"from . import {lowest}\n": None,
    }
    for text, line in planted.items():
        bad = upward_imports(text, lowest, False, known, layers, "planted.py")
        if line is None:
            assert bad == [], f"the checker refuses a downward import: {text!r} gives {bad}"
        else:
            assert len(bad) == 1 and bad[0].startswith(f"planted.py:{line}: {lowest} "), (
                f"the checker misses an upward import: {text!r} gives {bad}")


def test_layers_point_down():
    folder = os.path.join(os.path.dirname(os.path.dirname(HERE)), "python", PACKAGE)
    layers = read_layers(folder)
    modules = modules_of(folder)
    known = set(modules)
    check_itself(layers, known)
    declared = [name for names in layers for name in names]
    assert len(declared) == len(set(declared)), f"LAYERS names a module twice: {declared}"
    for name in declared:
        assert name in known, f"LAYERS names {name}, which is no module of {folder}"
    # Every module's upward imports, all of them named in the one failure.
    problems = []
    for module, (path, is_package) in sorted(modules.items()):
        shown = os.path.relpath(path, os.path.dirname(os.path.dirname(folder)))
        if layer_of(module, layers) is None:
            problems.append(f"{shown}: the module {module} is in no layer (add it to LAYERS in "
                            f"{PACKAGE}/__init__.py)")
            continue
        with open(path, encoding="utf-8") as f:
            source = f.read()
        problems += upward_imports(source, module, is_package, known, layers, shown)
    assert not problems, "\n".join(problems)
