"""The configuration set of examples/attention/ (pure Python, no GPU).

The kernels' blocks, warps and stages are the tables in the headers of
examples/attention/fwd.mlir and bwd_dkdv.mlir, one line a kernel and head
dim:

    //   kernel  D    BLOCK_M  BLOCK_N  warps  stages  programs
    //   fwd     64   128      64       8      3       -/2

(programs, which may be left out: the programs that should fit on one SM
at once, llkc's --min-programs-per-sm, `-` none; `a/b` is a on sm_80 and
sm_90, b on sm_90a). This module reads them (so that the headers stay the
one place they are written) and spans the set: each kernel at every element
type, head dim and, where the kernel takes it, causality; the grouping of query heads is a
runtime argument. build_ptx.py compiles it, bench.py launches it.
"""
import re
from dataclasses import dataclass
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "attention"

# kernel -> (source under examples/attention/, entry, whether it takes CAUSAL)
KERNELS = {
    "fwd": ("fwd.mlir", "attn_fwd_kernel", True),
    "bwd_preprocess": ("bwd_preprocess.mlir", "attn_bwd_preprocess_kernel", False),
    "bwd_dkdv": ("bwd_dkdv.mlir", "attn_bwd_dkdv_kernel", True),
    "bwd_dq": ("bwd_dq.mlir", "attn_bwd_dq_kernel", True),
}
DTYPES = ("f16", "bf16")
HEAD_DIMS = (64, 128)
# Query heads per KV head the set names (a runtime argument of the kernels).
GROUPS = (1, 4)
# The headers that hold the tables.
TABLES = ("fwd.mlir", "bwd_dkdv.mlir")

_ROW = re.compile(r"^//\s+(" + "|".join(KERNELS) + r")\s+(\d+)\s+(\d+)\s+(\d+|-)\s+(\d+)\s+(\d+|-)"
                  r"(?:\s+((?:\d+|-)(?:/(?:\d+|-))?))?\s*$")
# Targets whose dots run on warpgroup MMA: the second of a table's `a/b`.
WGMMA_ARCHS = ("sm_90a",)


@dataclass(frozen=True)
class Blocks:
    block_m: int
    block_n: int  # 0: the kernel has no BLOCK_N
    warps: int
    stages: int  # 0: no pipelined loop (llkc's default applies)
    # Programs an SM (--min-programs-per-sm) on sm_80/sm_90 and on
    # WGMMA_ARCHS; 0: none asked.
    programs: tuple = (0, 0)

    def programs_for(self, arch):
        return self.programs[arch in WGMMA_ARCHS]


@dataclass(frozen=True)
class Config:
    kernel: str
    dtype: str
    d: int
    causal: bool  # False for kernels that take no CAUSAL
    blocks: Blocks

    @property
    def source(self):
        return KERNELS[self.kernel][0]

    @property
    def entry(self):
        return KERNELS[self.kernel][1]

    def constants(self):
        c = {"T": self.dtype, "D": self.d, "BLOCK_M": self.blocks.block_m}
        if KERNELS[self.kernel][2]:
            c["BLOCK_N"] = self.blocks.block_n
            c["CAUSAL"] = int(self.causal)
        return c

    def name(self, arch):
        """File stem of its PTX: fwd_f16_d64_causal_sm_90a."""
        return f"{self.kernel}_{self.dtype}_d{self.d}{'_causal' if self.causal else ''}_{arch}"

    def llkc_args(self, arch, examples=EXAMPLES):
        args = [str(Path(examples) / self.source)]
        for k, v in self.constants().items():
            args += ["-D", f"{k}={v}"]
        args += ["--num-warps", str(self.blocks.warps)]
        if self.blocks.stages:
            args += ["--num-stages", str(self.blocks.stages)]
        if programs := self.blocks.programs_for(arch):
            args += ["--min-programs-per-sm", str(programs)]
        return args + ["--arch", arch]


def read_blocks(examples=EXAMPLES):
    """{(kernel, d): Blocks} from the headers' tables; every kernel must have
    a line for every head dim."""
    blocks = {}
    for table in TABLES:
        for line in (Path(examples) / table).read_text().splitlines():
            m = _ROW.match(line)
            if m:
                kernel, d, bm, bn, warps, stages, programs = m.groups()
                mma, _, wgmma = (programs or "-").partition("/")
                number = lambda cell: 0 if cell == "-" else int(cell)
                blocks[(kernel, int(d))] = Blocks(int(bm), number(bn), int(warps), number(stages),
                                                  (number(mma), number(wgmma or mma)))
    missing = [(k, d) for k in KERNELS for d in HEAD_DIMS if (k, d) not in blocks]
    if missing:
        raise ValueError(f"no configuration line for {missing} in {', '.join(TABLES)}")
    return blocks


def configurations(examples=EXAMPLES, kernels=None):
    """Every configuration of the set (of `kernels`, default all)."""
    blocks = read_blocks(examples)
    found = []
    for kernel in kernels or KERNELS:
        for dtype in DTYPES:
            for d in HEAD_DIMS:
                for causal in ((False, True) if KERNELS[kernel][2] else (False,)):
                    found.append(Config(kernel, dtype, d, causal, blocks[(kernel, d)]))
    return found
