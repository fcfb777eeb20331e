#!/usr/bin/env python3
"""Register double buffering of a mat-vec kernel's K loop, as a variant to time.

    python3 bench/llama/probes/kloop_double_buffer.py SRC.mlir DST.mlir

For the q8_0 mat-vecs of examples/llama/ (mul_mat_vec_q_qkv, _swiglu,
linear_q8_0_res_norm): their `scf.for %kb = %c0 to %n_blocks step
%c_blocks` loop computes its addresses and masks, loads, then computes on
what it loaded. The variant loads iteration 0 before the loop and, in each
iteration, issues the loads of the next one (kb + BLOCKS: masked off past
the last block, as the kernels' masks already are) before it computes on
the current ones, carried as iter_args: twice the bytes in flight a thread
for a few more registers. decode_variants.sh times such files laid over
examples/ (e.g. DST under VARIANT/llama/); llk-check-kernels --examples on
a copy of examples/ with them checks them on the interpreter.
"""
import re
import sys


def double_buffer(s):
    m = re.search(r"^  (%[^=]+)= scf\.for %kb = %c0 to %n_blocks step %c_blocks "
                  r"iter_args\((.*?)\) -> \((.*?)\) : i32 \{\n", s, re.M)
    if not m:
        raise SystemExit("no `scf.for %kb = %c0 to %n_blocks step %c_blocks` loop")
    results, iters, types = m.group(1).strip(), m.group(2), m.group(3)
    yield_m = re.compile(r"^    scf\.yield (.*?) : (.*)$", re.M).search(s, m.end())
    close = s.index("\n  }\n", yield_m.end()) + 5
    body = s[m.end():yield_m.start()]
    load_lines = list(re.finditer(r"^    (%[A-Za-z0-9_]+) = tile\.load .* : (.*)$", body, re.M))
    if not load_lines:
        raise SystemExit("the loop loads nothing")
    cut = load_lines[-1].end() + 1
    loads, compute = body[:cut], body[cut:]
    defined = sorted(set(re.findall(r"(%[A-Za-z0-9_]+) =", loads)), key=len, reverse=True)

    def rename(text, suffix, kb):
        for name in defined:
            text = re.sub(re.escape(name) + r"(?![A-Za-z0-9_])", name + suffix, text)
        return re.sub(r"%kb(?![A-Za-z0-9_])", kb, text)

    # tensor<...x!tile.ptr<T>> -> tensor<...xT>
    loaded = [(l.group(1), re.sub(r"!tile\.ptr<([^>]+)>>$", r"\1>", l.group(2).strip()))
              for l in load_lines]
    first = rename(loads, "_0", "%c0").replace("\n    ", "\n  ")
    first = ("  // Register double buffering: iteration 0's loads here, each iteration\n"
             "  // issues the next one's before it computes on the current ones.\n  "
             + first.lstrip())
    nxt = "    %kbn = arith.addi %kb, %c_blocks : i32\n" + rename(loads, "_n", "%kbn")
    for name, _ in loaded:
        compute = re.sub(re.escape(name) + r"(?![A-Za-z0-9_])", name + "_cur", compute)
    new_results = results + ", " + ", ".join(n + "_last" for n, _ in loaded)
    new_iters = iters + ", " + ", ".join(f"{n}_cur = {n}_0" for n, _ in loaded)
    new_types = types + ", " + ", ".join(t for _, t in loaded)
    loop = (f"  {new_results} = scf.for %kb = %c0 to %n_blocks step %c_blocks\n"
            f"      iter_args({new_iters})\n      -> ({new_types}) : i32 {{\n")
    values = yield_m.group(1) + ", " + ", ".join(n + "_n" for n, _ in loaded)
    value_types = yield_m.group(2) + ", " + ", ".join(t for _, t in loaded)
    return (s[:m.start()] + first + loop + nxt + compute
            + f"    scf.yield {values} : {value_types}\n  }}\n" + s[close:])


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    with open(sys.argv[1]) as f:
        text = f.read()
    with open(sys.argv[2], "w") as f:
        f.write(double_buffer(text))
