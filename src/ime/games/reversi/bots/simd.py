"""Move generation and flips with four axes (or rays) in one vector (LLVM ``<4 x i64>``).

Why: the search spends most of its time in these two kernels (per leaf a flip and two move
generations for the mobility term; per move scored by the ``mobility`` ordering a flip and one
move generation). :func:`ime.games.reversi.bitboard.legal_moves_inline` runs its doubling fill
axis by axis, the same dozen scalar operations four times over, and ``flips_inline`` scans its
eight rays one by one; here the four axes (shifts 1, 8, 9, 7, as Edax's AVX2 ``get_moves``) and
the rays (four towards higher bits, four towards lower) are the lanes of a vector, so the CPU does
them at once. Measured on the zoo's searches (issue 31, BENCHMARKS.md) this took rev1 from 6.7 to
4.7 CPU ms per decision. The arithmetic is the scalar kernels' lane by lane, hence the same moves
and flips (tests/games/reversi/test_reversi_search_workspace.py checks them against the scalar
kernels); a host without a vector unit gets the vectors lowered to scalar code, still exact.
Nothing here is floating point.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core.extending import intrinsic

_I64 = ir.IntType(64)
_V4 = ir.VectorType(_I64, 4)
_INNER = 0x7E7E7E7E7E7E7E7E  # x in 1..6: blocks wrap-around in E/W/diagonal fills
_SHIFT = ir.Constant(_V4, [1, 8, 9, 7])
_SHIFT2 = ir.Constant(_V4, [2, 16, 18, 14])
_MASK = ir.Constant(_V4, [_INNER, 0xFFFFFFFFFFFFFFFF, _INNER, _INNER])


def _splat(builder: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """``x`` in all four lanes."""
    v = builder.insert_element(ir.Constant(_V4, ir.Undefined), x, ir.Constant(ir.IntType(32), 0))
    return builder.shuffle_vector(v, ir.Constant(_V4, ir.Undefined),
                                  ir.Constant(ir.VectorType(ir.IntType(32), 4), [0, 0, 0, 0]))


def _intrinsic(b: ir.IRBuilder, name: str, args: list[ir.Type]) -> ir.Function:
    """The LLVM vector intrinsic ``name`` returning ``<4 x i64>``, declared once per module."""
    mod = b.module
    try:
        return mod.get_global(name)
    except KeyError:
        return ir.Function(mod, ir.FunctionType(_V4, args), name=name)


def _moves_ir(b: ir.IRBuilder, P: ir.Value, O: ir.Value) -> ir.Value:
    """IR of the legal moves of ``P`` against ``O`` (``uint64`` values)."""
    pp = _splat(b, P)
    mask = b.and_(_splat(b, O), _MASK)
    fl = b.and_(mask, b.shl(pp, _SHIFT))
    fr = b.and_(mask, b.lshr(pp, _SHIFT))
    fl = b.or_(fl, b.and_(mask, b.shl(fl, _SHIFT)))
    fr = b.or_(fr, b.and_(mask, b.lshr(fr, _SHIFT)))
    pl = b.and_(mask, b.shl(mask, _SHIFT))
    pr = b.lshr(pl, _SHIFT)
    fl = b.or_(fl, b.and_(pl, b.shl(fl, _SHIFT2)))
    fr = b.or_(fr, b.and_(pr, b.lshr(fr, _SHIFT2)))
    fl = b.or_(fl, b.and_(pl, b.shl(fl, _SHIFT2)))
    fr = b.or_(fr, b.and_(pr, b.lshr(fr, _SHIFT2)))
    m = b.or_(b.shl(fl, _SHIFT), b.lshr(fr, _SHIFT))
    i32 = ir.IntType(32)
    acc = b.extract_element(m, ir.Constant(i32, 0))
    for k in (1, 2, 3):
        acc = b.or_(acc, b.extract_element(m, ir.Constant(i32, k)))
    empty = b.xor(b.or_(P, O), ir.Constant(_I64, -1))
    return b.and_(acc, empty)


@intrinsic
def legal_moves_v(typingctx, P, O):
    """Legal moves of the side owning ``P`` (``uint64`` boards), the four axes as vector lanes."""
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        return _moves_ir(builder, args[0], args[1])

    return sig, codegen


def _flips_ir(b: ir.IRBuilder, P: ir.Value, O: ir.Value, rays: list[ir.Value]) -> ir.Value:
    """IR of the discs flipped by a move whose eight rays are ``rays`` (``RAYS[sq, 0..7]``):
    :func:`ime.games.reversi.bitboard.flips_inline` with the four rays towards higher bits in
    one vector and the four towards lower bits in another."""
    i32 = ir.IntType(32)
    zero = ir.Constant(_V4, [0, 0, 0, 0])
    one = ir.Constant(_V4, [1, 1, 1, 1])

    def vec(vals: list[ir.Value]) -> ir.Value:
        v = ir.Constant(_V4, ir.Undefined)
        for k, x in enumerate(vals):
            v = b.insert_element(v, x, ir.Constant(i32, k))
        return v

    pp = _splat(b, P)
    notO = _splat(b, b.xor(O, ir.Constant(_I64, -1)))
    # towards higher bits: the first non-O square is the lowest set bit of m & ~O
    mu = vec(rays[:4])
    xu = b.and_(mu, notO)
    first = b.and_(xu, b.sub(zero, xu))
    keep_u = b.icmp_unsigned("!=", b.and_(first, pp), zero)
    up = b.select(keep_u, b.and_(b.sub(first, one), mu), zero)
    # towards lower bits: the highest set bit (ctlz; bit 0 or-ed in keeps it defined)
    md = vec(rays[4:])
    lz = b.call(_intrinsic(b, "llvm.ctlz.v4i64", [_V4, ir.IntType(1)]),
                [b.or_(b.and_(md, notO), one), ir.Constant(ir.IntType(1), 0)])
    hb = b.lshr(ir.Constant(_V4, [1 << 63] * 4), lz)
    keep_d = b.icmp_unsigned("!=", b.and_(b.and_(hb, pp), md), zero)
    above = b.xor(b.sub(b.shl(hb, one), one), ir.Constant(_V4, [-1] * 4))  # bits above hb
    down = b.select(keep_d, b.and_(md, above), zero)
    f = b.or_(up, down)
    acc = b.extract_element(f, ir.Constant(i32, 0))
    for k in (1, 2, 3):
        acc = b.or_(acc, b.extract_element(f, ir.Constant(i32, k)))
    return acc


@intrinsic
def flips_v(typingctx, P, O, r0, r1, r2, r3, r4, r5, r6, r7):
    """Discs of ``O`` flipped when ``P`` plays the square whose rays are ``r0..r7``
    (``RAYS[sq, 0..7]`` of :mod:`ime.games.reversi.bitboard`), in two vectors of four rays."""
    sig = types.uint64(*([types.uint64] * 10))

    def codegen(context, builder, signature, args):
        return _flips_ir(builder, args[0], args[1], list(args[2:]))

    return sig, codegen
