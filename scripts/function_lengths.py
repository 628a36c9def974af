#!/usr/bin/env python3
"""Lists C and C++ function bodies longer than a limit (default 60 lines) in the given folders
or files and exits 1 if there are any: the readability rule that scripts/test.sh checks
(docs/design.md, section 7).

A body is counted from the line of its opening brace to its closing brace. Braces in comments,
string and character literals are ignored; namespace, class, struct, enum and extern blocks are
not functions (their members are checked on their own).
"""
import pathlib
import re
import sys

LITERALS = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])\'')
NOT_FUNCTIONS = re.compile(r"\b(namespace|class|struct|enum|extern|union)\b[^;(]*$")


def long_bodies(path: pathlib.Path, limit: int):
    lines = path.read_text().split("\n")
    stack = []  # (line of the opening brace, whether it opens a function-like body)
    in_block_comment = False
    for i, line in enumerate(lines):
        code = line
        if in_block_comment:
            if "*/" not in code:
                continue
            code, in_block_comment = code.split("*/", 1)[1], False
        code = LITERALS.sub('""', code)
        code = re.sub(r"/\*.*?\*/", "", code)
        if "/*" in code:
            code, in_block_comment = code.split("/*", 1)[0], True
        code = code.split("//", 1)[0]
        for pos, ch in enumerate(code):
            if ch == "{":
                head = (lines[i - 1] if i > 0 else "") + " " + code[:pos]
                stack.append((i, not NOT_FUNCTIONS.search(head.strip())))
            elif ch == "}" and stack:
                start, is_body = stack.pop()
                outer_is_body = any(b for _, b in stack)
                if is_body and not outer_is_body and i - start + 1 > limit:
                    yield start + 1, i - start + 1, lines[start].strip()


def main(argv):
    limit = 60
    roots = argv[1:] or ["src", "cli", "python/src", "fuzz", "examples", "tests/c_api_pure_test.c"]
    found = 0
    for root in roots:
        top = pathlib.Path(root)
        for path in [top] if top.is_file() else sorted(top.rglob("*")):
            if path.suffix not in (".c", ".cpp", ".hpp", ".h"):
                continue
            for line, length, head in long_bodies(path, limit):
                print(f"{path}:{line}: {length} lines (limit {limit}): {head[:70]}")
                found += 1
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
