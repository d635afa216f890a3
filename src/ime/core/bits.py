"""Bit intrinsics for the games' numba bitboard kernels.

Each is one LLVM intrinsic, so one instruction where the CPU has it (numba compiles for the host:
``popcnt``, ``tzcnt``, ``lzcnt`` on x86-64 with BMI). They are usable from nopython code only;
wrap one in an ``@njit`` function to call it from Python. The scans are defined on an empty board
(64), so a kernel never has to guard against zero for correctness. :func:`position_seed` mixes
two bitboards into a seed, for the Monte-Carlo kernels that must decide a position the same way
on any worker.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core.extending import intrinsic


@intrinsic
def ctpop(typingctx, b):
    """Number of set bits of a ``uint64`` (LLVM ``ctpop``)."""
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def cttz(typingctx, b):
    """Trailing zeros of a ``uint64``; 64 for zero (LLVM ``cttz``, zero defined)."""
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@intrinsic
def ctlz(typingctx, b):
    """Leading zeros of a ``uint64``; 64 for zero (LLVM ``ctlz``, zero defined)."""
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@njit(cache=True)
def position_seed(P, O, seed):
    """A 31-bit seed from a position's two ``uint64`` boards and an imitator's seed
    (splitmix64's finaliser), so a seeded search of a position is a pure function of it."""
    z = P ^ ((O << np.uint64(1)) | (O >> np.uint64(63))) \
        ^ (np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15))
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return np.int64(z & np.uint64(0x7FFFFFFF))
