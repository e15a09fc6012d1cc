"""The compiled kernels' pieces written in LLVM IR (numba intrinsics): a prefetch, which numba
lacks, and three steps of :func:`~fltheory.sim.cpu_kernels.linear_local` where numba's own loops
leave speed behind.

* ``prefetch``: LLVM's prefetch of an element's address (the next minibatch's rows).
* ``gather_row``: copy one sample's f inputs into the minibatch block — whole vectors,
  the last partial one by a masked load, so nothing past column f − 1 is read (numba's copy
  loop of f = 61 values ran a vector part and a scalar tail per row).
* ``softmax_lanes``: the softmax residuals of one vector of samples across every class,
  the exponential inlined as vector instructions (Cephes ``expf``, the polynomial of
  :func:`~fltheory.sim.cpu_kernels.exp32`, in float32; LLVM's ``exp`` in float64) — numba's
  version made a pass over the block per operation and called :func:`exp32`.
* ``momentum_step``: the SGD step with momentum and weight decay over the padded
  parameters, whole vectors (numba's loop took about 0.17 µs a step for 640 values).

The three steps change sums and roundings only, not what is computed.

Vectors are 32 bytes: 8 float32 or 4 float64 lanes (LLVM splits them where the CPU's vector
registers are narrower, and expands a masked load where it has none). Each has a
plain-Python twin of the same name in :mod:`~fltheory.sim.cpu_kernels`, which runs where
numba is not installed and which the tests hold the compiled one to.
``python benchmarks/bench_kernel_ir.py`` measures what they gain.

Numba and llvmlite are imported inside :func:`intrinsics`, when the kernels compile.
"""

from typing import Any

#: Cephes ``expf`` (here and in :func:`~fltheory.sim.cpu_kernels.exp32`): exp's argument range
#: (2^k stays a normal float32), ln 2 split in two, log2(e) and the polynomial for exp(x) on
#: |x| <= ln(2)/2 (degree 7, x² and x folded in).
EXP_LO, EXP_HI = -87.0, 88.0
LOG2E, LN2_HI, LN2_LO = 1.4426950408889634, 0.693359375, -2.12194440e-4
EXP_POLY = (
    1.9875691500e-4,
    1.3981999507e-3,
    8.3334519073e-3,
    4.1665795894e-2,
    1.6666665459e-1,
    5.0000001201e-1,
)


def intrinsics() -> dict[str, Any]:
    """The compiled ``_prefetch``, ``_gather_row``, ``_softmax_lanes`` and ``_momentum_step``
    (numba intrinsics), by the names the kernels call them.

    >>> sorted(intrinsics())
    ['_gather_row', '_momentum_step', '_prefetch', '_softmax_lanes']
    """
    from llvmlite import ir
    from numba.core import cgutils as numba_cgutils
    from numba.core import types
    from numba.extending import intrinsic

    cgutils: Any = numba_cgutils  # numba's IR helpers carry no annotations

    i32 = ir.IntType(32)

    class Lanes:
        """Vector helpers for arrays of one dtype: 32-byte vectors of ``width`` lanes."""

        def __init__(self, context: Any, builder: Any, dtype: Any) -> None:
            self.context, self.builder = context, builder
            self.elt = context.get_value_type(dtype)
            self.size = context.get_abi_sizeof(self.elt)
            self.width = 32 // self.size
            self.vec = ir.VectorType(self.elt, self.width)
            self.intp = context.get_value_type(types.intp)
            self.suffix = f"v{self.width}{'f32' if self.size == 4 else 'f64'}"

        def index(self, value: int) -> Any:
            return ir.Constant(self.intp, value)

        def splat(self, value: float) -> Any:
            return ir.Constant(self.vec, [value] * self.width)

        def broadcast(self, scalar: Any, vec: Any = None) -> Any:
            """``scalar`` in every lane of a ``vec`` (default: the arrays' vector type)."""
            vec = self.vec if vec is None else vec
            one = self.builder.insert_element(ir.Constant(vec, None), scalar, i32(0))
            zeros = ir.Constant(ir.VectorType(i32, self.width), [0] * self.width)
            return self.builder.shuffle_vector(one, one, zeros)

        def pointer(self, aty: Any, ary: Any, idx: list[Any]) -> Any:
            """A vector pointer to ``ary[idx]``."""
            ptr = cgutils.get_item_pointer(
                self.context, self.builder, aty, ary, idx, wraparound=False
            )
            return self.builder.bitcast(ptr, self.vec.as_pointer())

        def offset(self, ptr: Any, j: Any) -> Any:
            """``ptr`` (to a vector) moved on by j elements."""
            raw = self.builder.bitcast(ptr, self.elt.as_pointer())
            moved = self.builder.gep(raw, [j], inbounds=True)
            return self.builder.bitcast(moved, self.vec.as_pointer())

        def load(self, ptr: Any) -> Any:
            return self.builder.load(ptr, align=self.size)

        def store(self, value: Any, ptr: Any) -> None:
            self.builder.store(value, ptr, align=self.size)

        def function(self, name: str, args: int) -> Any:
            fnty = ir.FunctionType(self.vec, [self.vec] * args)
            return cgutils.get_or_insert_function(self.builder.module, fnty, name)

        def masked_load(self, ptr: Any, count: Any) -> Any:
            """The first ``count`` lanes at ``ptr``, zeros after (nothing else is read)."""
            builder, width = self.builder, self.width
            mask_ty = ir.VectorType(ir.IntType(1), width)
            fnty = ir.FunctionType(self.vec, [self.vec.as_pointer(), i32, mask_ty, self.vec])
            name = f"llvm.masked.load.{self.suffix}.p0"
            fn = cgutils.get_or_insert_function(builder.module, fnty, name)
            lanes = ir.Constant(ir.VectorType(self.intp, width), list(range(width)))
            mask = builder.icmp_signed("<", lanes, self.broadcast(count, lanes.type))
            return builder.call(fn, [ptr, i32(self.size), mask, self.splat(0.0)])

    @intrinsic
    def prefetch(typingctx: Any, a: Any, row: Any, col: Any) -> Any:
        """LLVM's ``llvm.prefetch`` (read, keep in all cache levels) on ``a[row, col]``'s
        address — numba has no prefetch of its own."""

        def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
            ary = context.make_array(sig.args[0])(context, builder, args[0])
            ptr = cgutils.get_item_pointer(
                context, builder, sig.args[0], ary, [args[1], args[2]], wraparound=False
            )
            fnty = ir.FunctionType(ir.VoidType(), [ptr.type, i32, i32, i32])
            fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
            builder.call(fn, [ptr, i32(0), i32(3), i32(1)])
            return context.get_dummy_value()

        return types.void(a, row, col), codegen

    @intrinsic
    def gather_row(typingctx: Any, xb: Any, xy: Any, i: Any, row: Any, f: Any) -> Any:
        def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
            v = Lanes(context, builder, sig.args[0].dtype)
            xba = context.make_array(sig.args[0])(context, builder, args[0])
            xya = context.make_array(sig.args[1])(context, builder, args[1])
            src = v.pointer(sig.args[1], xya, [args[3], v.index(0)])
            dst = v.pointer(sig.args[0], xba, [args[2], v.index(0)])
            step = v.index(v.width)
            whole = builder.mul(builder.sdiv(args[4], step), step)
            with cgutils.for_range_slice(builder, v.index(0), whole, step, v.intp) as (j, _):
                v.store(v.load(v.offset(src, j)), v.offset(dst, j))
            rest = builder.sub(args[4], whole)
            with builder.if_then(builder.icmp_signed(">", rest, v.index(0))):
                v.store(v.masked_load(v.offset(src, whole), rest), v.offset(dst, whole))
            return context.get_dummy_value()

        return types.void(xb, xy, i, row, f), codegen

    @intrinsic
    def softmax_lanes(typingctx: Any, z: Any, i: Any, cls: Any, scale: Any) -> Any:
        def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
            v = Lanes(context, builder, sig.args[0].dtype)
            za = context.make_array(sig.args[0])(context, builder, args[0])
            i_, cls_ = args[1], args[2]
            scale_ = context.cast(builder, args[3], sig.args[3], sig.args[0].dtype)
            fast = ("contract",)

            def at(c: Any) -> Any:
                return v.pointer(sig.args[0], za, [c, i_])

            def larger(a: Any, b: Any) -> Any:  # a if a > b else b: a NaN b stays
                return builder.select(builder.fcmp_ordered(">", a, b), a, b)

            top = cgutils.alloca_once(builder, v.vec)
            builder.store(v.load(at(v.index(0))), top)
            one = v.index(1)
            with cgutils.for_range_slice(builder, one, cls_, one, v.intp) as (c, _):
                t = builder.load(top)  # top += max(z − top, 0), as numba's loop (NaN spreads)
                d = builder.fsub(v.load(at(c)), t)
                builder.store(builder.fadd(t, larger(v.splat(0.0), d)), top)
            t = builder.load(top)
            total = cgutils.alloca_once(builder, v.vec)
            builder.store(v.splat(0.0), total)
            with cgutils.for_range(builder, cls_, intp=v.intp) as loop:
                ptr = at(loop.index)
                x = builder.fsub(v.load(ptr), t)
                if v.size == 4:
                    e = _exp32_ir(builder, v, x, larger, fast)
                else:
                    e = builder.call(v.function(f"llvm.exp.{v.suffix}", 1), [x])
                v.store(e, ptr)
                builder.store(builder.fadd(builder.load(total), e, flags=fast), total)
            inv = builder.fdiv(v.broadcast(scale_), builder.load(total))
            with cgutils.for_range(builder, cls_, intp=v.intp) as loop:
                ptr = at(loop.index)
                v.store(builder.fmul(v.load(ptr), inv, flags=fast), ptr)
            return context.get_dummy_value()

        return types.void(z, i, cls, scale), codegen

    @intrinsic
    def momentum_step(
        typingctx: Any, w: Any, g: Any, v: Any, lr: Any, mu: Any, wd: Any, ridge: Any
    ) -> Any:
        def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
            dtype = sig.args[0].dtype
            lanes = Lanes(context, builder, dtype)
            arrays = [
                context.make_array(t)(context, builder, a)
                for t, a in zip(sig.args[:3], args[:3], strict=True)
            ]
            lr_, mu_, wd_, ridge_ = (
                lanes.broadcast(context.cast(builder, a, t, dtype))
                for a, t in zip(args[3:], sig.args[3:], strict=True)
            )
            fast = ("contract",)
            step = lanes.index(lanes.width)
            with cgutils.for_range_slice(
                builder, lanes.index(0), arrays[0].nitems, step, lanes.intp
            ) as (q, _):
                wp, gp, vp = (
                    lanes.pointer(t, a, [q]) for t, a in zip(sig.args[:3], arrays, strict=True)
                )
                th = lanes.load(wp)
                d = builder.fadd(lanes.load(gp), builder.fmul(ridge_, th, flags=fast), flags=fast)
                d = builder.fadd(d, builder.fmul(wd_, th, flags=fast), flags=fast)
                d = builder.fadd(d, builder.fmul(mu_, lanes.load(vp), flags=fast), flags=fast)
                lanes.store(d, vp)
                lanes.store(builder.fsub(th, builder.fmul(lr_, d, flags=fast), flags=fast), wp)
            return context.get_dummy_value()

        return types.void(w, g, v, lr, mu, wd, ridge), codegen

    def _exp32_ir(builder: Any, v: Any, x: Any, larger: Any, fast: Any) -> Any:
        """exp(x) of a float32 vector: :func:`~fltheory.sim.cpu_kernels.exp32`'s steps."""
        x = larger(v.splat(EXP_LO), x)  # max(x, lo) with NaN kept, then min(x, hi)
        x = builder.select(builder.fcmp_ordered("<", v.splat(EXP_HI), x), v.splat(EXP_HI), x)
        floor = v.function(f"llvm.floor.{v.suffix}", 1)
        scaled = builder.fmul(x, v.splat(LOG2E), flags=fast)
        k = builder.call(floor, [builder.fadd(scaled, v.splat(0.5), flags=fast)])
        x = builder.fsub(x, builder.fmul(k, v.splat(LN2_HI), flags=fast), flags=fast)
        x = builder.fsub(x, builder.fmul(k, v.splat(LN2_LO), flags=fast), flags=fast)
        y = v.splat(EXP_POLY[0])
        for coef in EXP_POLY[1:]:
            y = builder.fadd(builder.fmul(y, x, flags=fast), v.splat(coef), flags=fast)
        y = builder.fmul(builder.fmul(y, x, flags=fast), x, flags=fast)
        e = builder.fadd(builder.fadd(y, x, flags=fast), v.splat(1.0), flags=fast)
        ints = ir.VectorType(i32, v.width)
        biased = builder.add(builder.fptosi(k, ints), ir.Constant(ints, [127] * v.width))
        power = builder.bitcast(builder.shl(biased, ir.Constant(ints, [23] * v.width)), v.vec)
        return builder.fmul(e, power, flags=fast)

    return {
        "_prefetch": prefetch,
        "_gather_row": gather_row,
        "_softmax_lanes": softmax_lanes,
        "_momentum_step": momentum_step,
    }
