"""Bit intrinsics for the games' numba bitboard kernels.

Each is one LLVM intrinsic, so one instruction where the CPU has it (numba compiles for the host:
``popcnt``, ``tzcnt``, ``lzcnt`` on x86-64 with BMI). They are usable from nopython code only;
wrap one in an ``@njit`` function to call it from Python. The scans are defined on an empty board
(64), so a kernel never has to guard against zero for correctness.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
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
