#!/usr/bin/env python3
"""The extending guide, executed: docs/extending.md's walk-through applied to a scratch copy.

    extending_walkthrough.py SCRATCH [--source DIR] [--guide PATH]

SCRATCH/src receives a fresh copy of the source tree (the files git tracks and untracked ones it
does not ignore: no build directories). Then every fenced block of the guide that an HTML
comment marks is applied to the copy, in the guide's order:

    <!-- walkthrough: write PATH -->                     the block is the new file PATH
    <!-- walkthrough: append to PATH -->                 the block goes at the end of PATH
    <!-- walkthrough: insert into PATH after 'TEXT' -->  the block goes after the one line holding TEXT
    <!-- walkthrough: insert into PATH before 'TEXT' --> ... or before it
    <!-- walkthrough: replace in PATH 'TEXT' -->         the block (its last newline dropped)
                                                         replaces the one occurrence of TEXT
    <!-- walkthrough: run -->                            the block runs in SCRATCH/src under
                                                         bash -euo pipefail

A TEXT found on no line or on several fails the step: the guide no longer matches the code. The
C++ files the guide writes or edits must also be formatted (clang-format, when installed). Exit 0
when every step succeeded, 1 otherwise; each step is printed with its time.

The scratch build compiles only the test files the guide writes and the registry-wide ones
(COLLNOISE_TEST_FILES, tests/CMakeLists.txt, by their paths relative to tests/): every test_*.cpp
below tests/ that loops over a registry
(algorithm_kinds(), law_kinds(), model_kinds(), ...: REGISTRY_CALL), which an addition must pass
with no edit of its own, found by that call, so that a new registry-wide test is run without an
edit here. The test files that use COLLNOISE_SOURCE_DIR or COLLNOISE_BINARY (their compile lines
name the scratch directory) are compiled again; ccache finds the others. With ccache installed and
CMAKE_CXX_COMPILER_LAUNCHER not set, the build uses ccache as its launcher: put SCRATCH beside the
main build (build-walkthrough in the source directory) and set CCACHE_BASEDIR to a folder holding
both, so that the library's unchanged files are found in the cache.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# A test file that calls one of these loops over a registry (the algorithms, the laws, the kinds
# of time-based noise, the models and their summary fields, the reference docs built from them).
REGISTRY_CALL = re.compile(r"\b(algorithm_kinds|law_kinds|law_names|time_noise_kinds|model_kinds|"
                           r"run_kinds|collective_kinds|for_each_small_schedule)\(")
MARKER = re.compile(r"^<!-- walkthrough: (.*?) -->\s*$")
FENCE = re.compile(r"^```")


class StepFailed(Exception):
    pass


def blocks(guide_text):
    """(marker, block text, line number) for every marked fenced block, in order."""
    lines = guide_text.splitlines(keepends=True)
    out = []
    i = 0
    while i < len(lines):
        m = MARKER.match(lines[i])
        if not m:
            i += 1
            continue
        marker, where = m.group(1), i + 1
        i += 1
        if i >= len(lines) or not FENCE.match(lines[i]):
            raise StepFailed(f"guide line {where}: a walkthrough marker must precede a fenced block")
        i += 1
        body = []
        while i < len(lines) and not FENCE.match(lines[i]):
            body.append(lines[i])
            i += 1
        if i >= len(lines):
            raise StepFailed(f"guide line {where}: the block is not closed")
        i += 1
        out.append((marker, "".join(body), where))
    return out


def source_files(source):
    """The files git knows (tracked, or untracked and not ignored); without git, every file but
    those of .git and the build directories."""
    listed = subprocess.run(
        ["git", "-C", source, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True)
    if listed.returncode == 0:
        return listed.stdout.decode().split("\0")
    files = []
    for folder, subfolders, names in os.walk(source):
        if folder == source:
            subfolders[:] = [d for d in subfolders if d != ".git" and not d.startswith("build")]
        files += [os.path.relpath(os.path.join(folder, n), source) for n in names]
    return files


def copy_tree(source, destination):
    files = source_files(source)
    for name in files:
        src = os.path.join(source, name)
        if not name or not os.path.isfile(src):
            continue  # deleted in the working tree, or a submodule
        dst = os.path.join(destination, name)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(src, dst)


def registry_tests(tree):
    """The test files of `tree` that loop over a registry (REGISTRY_CALL), in any folder below
    tests/: their paths relative to tests/, without .cpp ("engine/schedules/algorithms/test_x")."""
    tests = os.path.join(tree, "tests")
    found = []
    for folder, subfolders, names in os.walk(tests):
        subfolders.sort()
        for name in sorted(names):
            if re.fullmatch(r"test_\w+\.cpp", name):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    if REGISTRY_CALL.search(f.read()):
                        found.append(os.path.relpath(path, tests)[:-len(".cpp")])
    return sorted(found)


def one_line(path, anchor):
    with open(path) as f:
        lines = f.read().splitlines(keepends=True)
    hits = [i for i, line in enumerate(lines) if anchor in line]
    if len(hits) != 1:
        raise StepFailed(f"{path}: {len(hits)} lines hold {anchor!r}, the guide expects one")
    return lines, hits[0]


def apply(marker, body, tree, edited):
    m = re.fullmatch(r"write (\S+)", marker)
    if m:
        path = os.path.join(tree, m.group(1))
        if os.path.exists(path):
            raise StepFailed(f"{m.group(1)} exists already: the guide writes it as a new file")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(body)
        edited.add(m.group(1))
        return
    m = re.fullmatch(r"append to (\S+)", marker)
    if m:
        with open(os.path.join(tree, m.group(1)), "a") as f:
            f.write(body)
        edited.add(m.group(1))
        return
    m = re.fullmatch(r"insert into (\S+) (after|before) '(.*)'", marker)
    if m:
        path = os.path.join(tree, m.group(1))
        lines, at = one_line(path, m.group(3))
        at = at + 1 if m.group(2) == "after" else at
        lines[at:at] = [body]
        with open(path, "w") as f:
            f.write("".join(lines))
        edited.add(m.group(1))
        return
    m = re.fullmatch(r"replace in (\S+) '(.*)'", marker)
    if m:
        path = os.path.join(tree, m.group(1))
        with open(path) as f:
            text = f.read()
        if text.count(m.group(2)) != 1:
            raise StepFailed(f"{m.group(1)}: {text.count(m.group(2))} occurrences of "
                             f"{m.group(2)!r}, the guide expects one")
        with open(path, "w") as f:
            f.write(text.replace(m.group(2), body[:-1] if body.endswith("\n") else body))
        edited.add(m.group(1))
        return
    if marker == "run":
        check_format(tree, edited)
        env = dict(os.environ)
        # Python sets LC_CTYPE=C.UTF-8 for its children when no locale is set (PEP 538); ccache
        # hashes the locale variables, so the scratch build would find none of the main build's
        # objects (measured: the whole library compiled again, 9 minutes in CI).
        if env.get("LC_CTYPE") == "C.UTF-8" and not env.get("LC_ALL") and not env.get("LANG"):
            del env["LC_CTYPE"]
        if shutil.which("ccache") and "CMAKE_CXX_COMPILER_LAUNCHER" not in env:
            env["CMAKE_CXX_COMPILER_LAUNCHER"] = "ccache"  # CMake's default for a new build tree
        written = [f[len("tests/"):-len(".cpp")] for f in edited
                   if re.fullmatch(r"tests/([\w/]+/)?test_\w+\.cpp", f)]
        tests = sorted(set(registry_tests(tree) + written))
        print(f"walkthrough: test files built: {' '.join(tests)}", flush=True)
        env.setdefault("COLLNOISE_TEST_FILES", ";".join(tests))
        done = subprocess.run(["bash", "-euo", "pipefail", "-xc", body], cwd=tree, env=env)
        if done.returncode != 0:
            raise StepFailed(f"the commands exited with {done.returncode}")
        return
    raise StepFailed(f"unknown walkthrough marker {marker!r}")


def check_format(tree, edited):
    """The guide's C++ is formatted as CI requires (clang-format --dry-run -Werror)."""
    files = sorted(f for f in edited if f.endswith((".cpp", ".hpp")))
    if not files or not shutil.which("clang-format"):
        return
    done = subprocess.run(["clang-format", "--dry-run", "-Werror", *files], cwd=tree)
    if done.returncode != 0:
        raise StepFailed("the guide's C++ is not formatted as .clang-format asks (diff above)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("scratch", help="scratch directory (its src/ is replaced)")
    parser.add_argument("--source", default=os.path.dirname(HERE), help="the source tree")
    parser.add_argument("--guide", help="the guide (default: SOURCE/docs/extending.md)")
    args = parser.parse_args()
    source = os.path.abspath(args.source)
    guide = args.guide or os.path.join(source, "docs", "extending.md")
    tree = os.path.join(os.path.abspath(args.scratch), "src")
    start = time.monotonic()
    try:
        with open(guide) as f:
            steps = blocks(f.read())
        if not any(marker == "run" for marker, _, _ in steps):
            raise StepFailed("the guide has no walkthrough step that runs anything")
        if os.path.exists(tree):
            shutil.rmtree(tree)
        copy_tree(source, tree)
        print(f"walkthrough: copied {source} to {tree} ({time.monotonic() - start:.0f} s)",
              flush=True)
        edited = set()
        for marker, body, where in steps:
            step_start = time.monotonic()
            try:
                apply(marker, body, tree, edited)
            except StepFailed as e:
                raise StepFailed(f"docs/extending.md line {where} ({marker}): {e}") from None
            print(f"walkthrough: line {where}: {marker} ({time.monotonic() - step_start:.0f} s)",
                  flush=True)
    except StepFailed as e:
        print(f"walkthrough: FAILED: {e}", file=sys.stderr)
        return 1
    print(f"walkthrough: every step of docs/extending.md's walk-through succeeded in "
          f"{time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
