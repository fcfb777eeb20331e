#!/usr/bin/env python3
"""Lines of code of each Triton tutorial's kernels beside llk's port: the
non-blank, non-comment lines of the tutorial's @triton.jit functions (as
bench/triton/triton_kernels.py copies them, from `def` to the last line)
and of the llk sources (examples/triton/; every line but blank ones and
`//` comments). Pure Python, no Triton needed: the functions are found with
the ast module. Prints the Markdown table; --update writes it between the
README's `count_lines.py` markers, --check fails if the README's table is
not today's or a port is over --max-ratio (2) times Triton's lines (a
TUTORIALS entry with a third element, the reason, is reported instead).

    python3 bench/triton/count_lines.py [--update | --check]
"""
import argparse
import ast
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
README = REPO / "README.md"
BEGIN, END = "<!-- count_lines.py begin -->", "<!-- count_lines.py end -->"


def tutorials():
    """TUTORIALS of triton_kernels.py, read without importing Triton."""
    tree = ast.parse((HERE / "triton_kernels.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "TUTORIALS" for t in node.targets):
            return ast.literal_eval(node.value)
    raise SystemExit("triton_kernels.py has no TUTORIALS")


def python_lines(names):
    """Non-blank, non-comment lines of the functions `names` of
    triton_kernels.py (or, named `file.py:function`, of bench/file.py), each
    from its `def` (decorators left out)."""
    count = 0
    for qualified in names:
        path, _, name = qualified.rpartition(":")
        source = HERE.parent / path if path else HERE / "triton_kernels.py"
        text = source.read_text()
        lines = text.splitlines()
        functions = {n.name: n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.FunctionDef)}
        if name not in functions:
            raise SystemExit(f"{source.name} has no function {name}")
        node = functions[name]
        if not any(ast.unparse(d).startswith("triton.jit") for d in node.decorator_list):
            raise SystemExit(f"{name} is not a @triton.jit function")
        for line in lines[node.lineno - 1:node.end_lineno]:
            stripped = line.strip()
            count += bool(stripped) and not stripped.startswith("#")
    return count


def mlir_lines(sources):
    count = 0
    for source in sources:
        for line in (REPO / "examples" / source).read_text().splitlines():
            stripped = line.strip()
            count += bool(stripped) and not stripped.startswith("//")
    return count


def table():
    rows = ["| tutorial | Triton lines | llk lines | llk ÷ Triton | llk sources |",
            "|---|---:|---:|---:|---|"]
    ratios = {}
    for tutorial, (functions, sources, *_) in tutorials().items():
        py, ll = python_lines(functions), mlir_lines(sources)
        ratios[tutorial] = ll / py
        links = ", ".join(f"[{Path(s).name}](examples/{s})" for s in sources)
        rows.append(f"| {tutorial} | {py} | {ll} | {ll / py:.2f}× | {links} |")
    return "\n".join(rows), ratios


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--update", action="store_true", help="write the table into README.md")
    mode.add_argument("--check", action="store_true", help="fail if README.md's table is stale")
    ap.add_argument("--max-ratio", type=float, default=2.0)
    a = ap.parse_args()
    text, ratios = table()
    print(text)
    status = 0
    if a.update or a.check:
        readme = README.read_text()
        if BEGIN not in readme or END not in readme:
            raise SystemExit(f"README.md has no {BEGIN} ... {END}")
        head, rest = readme.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        updated = f"{head}{BEGIN}\n{text}\n{END}{tail}"
        if a.update:
            README.write_text(updated)
        elif updated != readme:
            print("README.md's line-count table is stale: run bench/triton/count_lines.py --update",
                  file=sys.stderr)
            status = 1
    # A tutorial whose entry carries a third element (why) is reported, not failed.
    known = {t: entry[2] for t, entry in tutorials().items() if len(entry) > 2}
    over = {t: r for t, r in ratios.items() if r > a.max_ratio}
    for t, r in over.items():
        print(f"{t}: llk has {r:.2f}x Triton's lines, more than {a.max_ratio}x"
              + (f" (known: {known[t]})" if t in known else ""), file=sys.stderr)
    over = {t: r for t, r in over.items() if t not in known}
    return 1 if (a.check and over) or status else 0


if __name__ == "__main__":
    sys.exit(main())
