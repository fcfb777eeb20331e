"""Prints a kernel NAME taking POINTERS f32 pointers, then one scalar of each
TYPE: many-params.py NAME POINTERS [TYPE...]."""
import sys

name, pointers, types = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
params = [f'%p{i}: !tile.ptr<f32>' for i in range(pointers)]
params += [f'%s{i}: {t}' for i, t in enumerate(types)]
print(f'func.func @{name}({", ".join(params)}) {{ return }}')
