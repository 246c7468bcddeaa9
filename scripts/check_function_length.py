#!/usr/bin/env python3
"""No function of the C++ sources is longer than 120 lines (the house rule; tests are exempt).

    check_function_length.py [SOURCE_DIR] [--limit N]

Scans every .cpp and .hpp below core/, distributions/, estimators/, engine/, outputs/, runs/ and
app/ of SOURCE_DIR (default: the folder above this script's). A function is a brace-delimited
body opened at namespace or class scope after a header holding '(' (free functions, member
functions, constructors, lambdas given to a variable at namespace scope); the braces inside it
(blocks, lambdas, local classes) count as its lines. Its length runs from the first line of its
header to its closing brace. Strings, character literals, raw strings, comments and preprocessor
lines are skipped, so braces inside them do not count. Prints each function over the limit as
`path:line: name: N lines` and exits 1 if there is any, 0 otherwise.
"""
from __future__ import annotations

import argparse
import os
import re
import sys

ROOMS = ("core", "distributions", "estimators", "engine", "outputs", "runs", "app")
LIMIT = 120


def code_only(text: str) -> str:
    """`text` with comments, string and character literals and preprocessor lines blanked out
    (newlines kept, so that offsets give the same line numbers)."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":  # a preprocessor line, with its continuations
            while i < n and (text[i] != "\n" or text[i - 1] == "\\"):
                out.append("\n" if text[i] == "\n" else " ")
                i += 1
            continue
        if c == "\n":
            out.append(c)
            line_start = True
            i += 1
            continue
        if not c.isspace():
            line_start = False
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        raw = re.match(r'(?:u8|u|U|L)?R"([^()\\\s]{0,16})\(', text[i:i + 24])
        if raw and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            close = ")" + raw.group(1) + '"'
            end = text.find(close, i + raw.end())
            end = n if end < 0 else end + len(close)
            out.append('""' + re.sub(r"[^\n]", " ", text[i + 2:end]))
            i = end
            continue
        if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
            out.append(" ")  # a digit separator (1'000'000)
            i += 1
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + c)
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def long_functions(text: str, limit: int):
    """(line, name, length) of every function of `text` longer than `limit` lines."""
    code = code_only(text)
    found = []
    scopes = []  # "namespace", "class", "function" or "other" per open brace
    prelude_start = 0  # where the text before the next brace begins
    function_start = None  # (offset of its header, its name) of the function being read
    for i, c in enumerate(code):
        if c == ";" and (not scopes or scopes[-1] in ("namespace", "class")):
            prelude_start = i + 1
        if c == "{":
            if scopes and scopes[-1] in ("function", "other"):
                scopes.append(scopes[-1])
                continue
            prelude = code[prelude_start:i]
            access = re.match(r"\s*((public|private|protected)\s*:)+", prelude)
            if access:  # "public:" opens no function: what follows it does
                prelude_start += access.end()
                prelude = prelude[access.end():]
            head = " ".join(prelude.split())
            if re.match(r"(inline\s+)?namespace\b|extern\s*\"", head) or head == "":
                scopes.append("namespace" if head else "other")
            elif re.search(r"\b(class|struct|union)\b[^()]*$", head) or re.match(r"enum\b", head):
                scopes.append("class" if not head.startswith("enum") else "other")
            elif "(" in head and not head.endswith("="):
                scopes.append("function")
                start = prelude_start + len(prelude) - len(prelude.lstrip())
                words = head.split("(")[0].split()
                function_start = (start, words[-1] if words else head[:40])
            else:
                scopes.append("other")
            prelude_start = i + 1
        elif c == "}":
            if not scopes:
                continue
            kind = scopes.pop()
            if kind == "function" and (not scopes or scopes[-1] != "function"):
                start, name = function_start
                first = code.count("\n", 0, start) + 1
                last = code.count("\n", 0, i) + 1
                if last - first + 1 > limit:
                    found.append((first, name, last - first + 1))
            if not scopes or scopes[-1] in ("namespace", "class"):
                prelude_start = i + 1
    return found


def self_test() -> None:
    """The scan finds a long function, and no braces of strings, comments and lambdas fool it."""
    body = "\n".join(f"  x += {k};" for k in range(130))
    text = (f'namespace a {{\nint f(int x) {{\n  const char* s = "}}{{";  // }}\n'
            f"  auto g = [] {{ return 1; }};\n{body}\n  return x;\n}}\n"
            f"struct S {{\n  int m() const {{ return 1; }}\n}};\n"
            f'const char* r = R"(}})";\nint h() {{ return 2\'000; }}\n}}  // namespace a\n')
    got = long_functions(text, LIMIT)
    assert got == [(2, "f", 135)], got
    assert long_functions(text, 200) == []


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("source", nargs="?",
                        default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser.add_argument("--limit", type=int, default=LIMIT)
    args = parser.parse_args()
    self_test()
    over = []
    files = 0
    for room in ROOMS:
        for folder, subfolders, names in os.walk(os.path.join(args.source, room)):
            subfolders.sort()
            for name in sorted(names):
                if not name.endswith((".cpp", ".hpp")):
                    continue
                path = os.path.join(folder, name)
                files += 1
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                for line, function, length in long_functions(text, args.limit):
                    over.append(f"{os.path.relpath(path, args.source)}:{line}: {function}: "
                                f"{length} lines")
    for line in over:
        print(line)
    if over:
        print(f"{len(over)} function(s) over {args.limit} lines: split them into phases whose "
              f"names say what they do")
        return 1
    print(f"function length: {files} files, no function over {args.limit} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
