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
    # A tally's statistics, stored per metric (outputs/tally_io: min, max, mean, sd, samples).
    *{(n, "outputs/tally_io.cpp") for n in ("mean", "min", "max", "sd", "samples")},
    # compare's JSON report and its --mode values (app/compare_command, docs/compare.md).
    *{(n, f) for n in ("mean", "ci_low", "ci_high", "max", "ranks", "confidence", "warnings")
       for f in ("app/compare_command.cpp", "app/compare_command.hpp")},
    # The validation script reading compare's JSON report and passing its --mode values.
    *{(n, "bench/validate_measured.py")
      for n in ("ci_low", "ci_high", "max", "ranks", "median")},
    # The predictor's validation reading the same report (and its predictions' estimates by
    # their quantile names, whatever the model's prefix).
    *{(n, "bench/predict_measured.py")
      for n in ("ci_low", "ci_high", "max", "median", "p99")},
    # The authors' study reading the same report.
    *{(n, "bench/authors_study.py") for n in ("ci_low", "ci_high")},
    # ... and the QQ figure reading that report's quantile names.
    *{(n, "python/collnoise/figures/qq.py") for n in ("median", "p99", "ci_low", "ci_high")},
    # The match-queue statistics file's members (per queue: <queue>_samples, _mean, _max) and
    # its rank count (outputs/queue_stats_io, docs/timelines.md): a file of its own, not fields.
    *{(n, f) for n in ("samples", "mean", "max", "ranks")
      for f in ("outputs/queue_stats_io.cpp", "python/collnoise/queue_stats.py")},
    # The statistic a user bound names by default (runs/user_bound: mean or a quantile's name).
    ("mean", "runs/user_bound.cpp"),
    # The run's confidence and process count as the result's root attributes and run settings.
    ("confidence", "outputs/result_file.cpp"), ("confidence", "runs/run_settings.cpp"),
    ("confidence", "python/collnoise/figures/curve.py"),
    ("processes", "outputs/result_file.cpp"), ("processes", "app/merge_command.cpp"),
    ("samples", "outputs/result_file.cpp"), ("samples", "runs/run_settings.cpp"),
    ("samples", "runs/progress_display.cpp"),
    # precision.until's value (a run setting), not the field it waits for.
    ("bounds_decided", "runs/run_settings.cpp"),
    # The user bounds' pattern's members (bound_<i>_ci_low): suffixes, not fields.
    *{(n, "estimators/bound_fields.cpp") for n in ("ci_low", "ci_high", "ci_method")},
    # Table column titles that read as the field's suffix (stored as the table's headers).
    *{(n, f) for n in ("samples", "ci_low", "ci_high")
       for f in ("engine/schedules/schedule_study.cpp", "engine/network/network_study.cpp",
                 "engine/isoefficiency/isoefficiency_study.cpp")},
    # The name of a key group giving N, a command's option, a timeline's rank list.
    *{("ranks", f) for f in ("engine/cycles/cycle_model_kind.cpp",
                             "engine/schedules/schedule_model_kind.cpp",
                             "engine/tree_barrier/tree_params.cpp", "app/main.cpp",
                             "outputs/timeline_chrome.cpp", "python/collnoise/figures/timeline.py")},
    # The schedule model's and command's name; a figure's name.
    ("schedule", "engine/schedules/schedule_model_kind.cpp"), ("schedule", "app/main.cpp"),
    ("schedule", "python/collnoise/figures/__init__.py"),
    # The schedule model's collective kind, which the round model of the network leaves to it.
    ("schedule", "engine/network/network_study.cpp"),
    ("curve", "engine/study.hpp"), ("curve", "python/collnoise/figures/__init__.py"),
    # The Bernoulli law's parameter; an algorithm's functions refused when missing;
    # cgroup's "no limit".
    ("p", "distributions/bernoulli.cpp"), ("p", "distributions/bernoulli.hpp"),
    *{(n, "engine/schedules/algorithms/algorithms.cpp") for n in ("rounds", "operations")},
    ("max", "core/machine_memory.cpp"),
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
    own = "scripts/check_field_literals.py"
    return [f for f in listed if not f.startswith("tests/") and f not in (GENERATED, own)]


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
