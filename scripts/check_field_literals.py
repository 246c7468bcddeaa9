#!/usr/bin/env python3
"""Checks that no summary field's name is spelled twice in the sources.

A summary field is declared once (core/field_spec.hpp): its declaration is the one place its
name is written as a string, and everything else (the writer, table columns, plot hints, the
reference page, the Python package through python/collnoise/fields.py, generated from the
declarations) names it through that declaration. This script lists every string literal in the
C++ and Python sources (tests and the generated module aside) that equals a declared field's
name, and fails when a name is spelled more than once.

A few short field names are also words of other vocabularies, declared there once: a tally's
statistics (mean, min, max, sd, samples), the statistics a user bound names (mean, median, p90,
p99, p999), the keys of compare's JSON report, a run setting (confidence, samples), a law's
parameter (p). Those uses are listed in OTHER_MEANINGS, by file, with what they mean there; a
use of the name elsewhere still counts.

Usage: check_field_literals.py [SOURCE_DIR]   (exit 1 and one line per name spelled twice)
"""
import ast
import io
import pathlib
import re
import subprocess
import sys
import tokenize

GENERATED = "python/collnoise/fields.py"

# (name, file): the name's literal in that file means something other than the summary field.
OTHER_MEANINGS = {
}

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# C++ tokens that matter here: raw strings, strings, characters and comments (skipped).
CPP_TOKEN = re.compile(r'R"([^(\s]*)\((?:.|\n)*?\)\1"|"(?:\\.|[^"\\\n])*"|'
                       r"'(?:\\.|[^'\\\n])*'|//[^\n]*|/\*(?:.|\n)*?\*/")


def cpp_strings(text):
    """(line, value) of every ordinary string literal of a C++ source, comments skipped."""
    for match in CPP_TOKEN.finditer(text):
        token = match.group(0)
        if token.startswith('"'):
            yield text.count("\n", 0, match.start()) + 1, token[1:-1]


def python_strings(text):
    """(line, value) of every string literal of a Python source, comments skipped."""
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.STRING:
            try:
                value = ast.literal_eval(token.string)
            except (ValueError, SyntaxError):  # an f-string
                continue
            if isinstance(value, str):
                yield token.start[0], value


def declared_names(root):
    """The field names of the generated module: every declaration's name."""
    tree = ast.parse((root / GENERATED).read_text())
    names = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            target = node.targets[0]
            if isinstance(target, ast.Name) and isinstance(node.value.value, str):
                names.add(node.value.value)
    return names


def source_files(root):
    listed = subprocess.run(["git", "-C", str(root), "ls-files", "*.cpp", "*.hpp", "*.py"],
                            capture_output=True, text=True, check=True).stdout.split()
    return [f for f in listed if not f.startswith("tests/") and f != GENERATED]


def spellings(root, names):
    """name -> [(file, line)] of its literals outside OTHER_MEANINGS."""
    found = {}
    for path in source_files(root):
        text = (root / path).read_text(encoding="utf-8", errors="replace")
        strings = python_strings(text) if path.endswith(".py") else cpp_strings(text)
        for number, value in strings:
            if value in names and (value, path) not in OTHER_MEANINGS:
                found.setdefault(value, []).append((path, number))
    return found


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    names = declared_names(root)
    twice = {n: where for n, where in spellings(root, names).items() if len(where) > 1}
    for name in sorted(twice):
        places = ", ".join(f"{path}:{line}" for path, line in twice[name])
        print(f"summary field {name!r} is spelled {len(twice[name])} times: {places}")
    if twice:
        print(f"{len(twice)} of {len(names)} field names are spelled more than once: name each "
              "through its declaration (core/field_spec.hpp)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
