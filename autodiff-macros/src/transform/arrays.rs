//! Whole-array arithmetic that the transforms need, built as IR loops over the elements: the sum
//! of two arrays (two contributions to one adjoint) and the sum of an array's elements (the
//! adjoint of `[x; N]`).

use proc_macro2::Span;

use crate::ir::{Builder, Carry, Int, Loop, LoopInfo, Name, Operand, Prim, Range, Ty};

/// `x + y` for two values of type `ty`: one addition, or a loop nest over the elements that adds
/// `y` into `x`, named `name`.
pub fn add(b: &mut Builder, ty: &Ty, x: Operand, y: Operand, name: Name) -> Operand {
    let Some(shape) = ty.shape() else { return b.push_named(name, Prim::Add, &[x, y]) };
    let dims = shape.dims.clone();
    nest(b, &dims, (x, ty.clone()), name, &mut Vec::new(), &mut |b, acc, index| {
        let a = b.load(Name::temp(), acc, index.to_vec());
        let c = b.load(Name::temp(), y, index.to_vec());
        let s = b.push(Prim::Add, &[a, c]);
        b.store(Name::temp(), acc, index.to_vec(), s)
    })
}

/// `x · y` for two values of type `ty`: a product, or the sum of the element-wise products.
pub fn dot(b: &mut Builder, ty: &Ty, x: Operand, y: Operand, name: Name) -> Operand {
    let Some(shape) = ty.shape() else { return b.push_named(name, Prim::Mul, &[x, y]) };
    let dims = shape.dims.clone();
    nest(b, &dims, (Operand::Lit(0.0), Ty::F64), name, &mut Vec::new(), &mut |b, acc, index| {
        let a = b.load(Name::temp(), x, index.to_vec());
        let c = b.load(Name::temp(), y, index.to_vec());
        let p = b.push(Prim::Mul, &[a, c]);
        b.push(Prim::Add, &[acc, p])
    })
}

/// `s · x` for a scalar `s` and a value `x` of type `ty` (each element, for an array).
pub fn scale(b: &mut Builder, ty: &Ty, s: Operand, x: Operand, name: Name) -> Operand {
    let Some(shape) = ty.shape() else { return b.push_named(name, Prim::Mul, &[s, x]) };
    let dims = shape.dims.clone();
    nest(b, &dims, (x, ty.clone()), name, &mut Vec::new(), &mut |b, acc, index| {
        let e = b.load(Name::temp(), acc, index.to_vec());
        let p = b.push(Prim::Mul, &[s, e]);
        b.store(Name::temp(), acc, index.to_vec(), p)
    })
}

/// The sum of the elements of `x`, of array type `ty`, named `name`.
pub fn sum_elements(b: &mut Builder, ty: &Ty, x: Operand, name: Name) -> Operand {
    let dims = ty.shape().map(|s| s.dims.clone()).unwrap_or_default();
    let elem = ty.shape().map_or(Ty::F64, |s| s.elem.scalar());
    nest(b, &dims, (Operand::Lit(0.0), elem), name, &mut Vec::new(), &mut |b, acc, index| {
        let e = b.load(Name::temp(), x, index.to_vec());
        b.push(Prim::Add, &[acc, e])
    })
}

/// Loops over `dims` (outermost first), carrying a value of the given initial value and type;
/// `step` makes the carried value of the next iteration from the current one and the index.
fn nest(
    b: &mut Builder,
    dims: &[Int],
    (init, ty): (Operand, Ty),
    name: Name,
    index: &mut Vec<Int>,
    step: &mut dyn FnMut(&mut Builder, Operand, &[Int]) -> Operand,
) -> Operand {
    let Some((len, rest)) = dims.split_first() else { return step(b, init, index) };
    let id = b.new_loop(LoopInfo { ident: None, span: Span::call_site() });
    let param = b.fresh(name.clone(), ty.clone());
    b.begin();
    index.push(Int::index(id));
    let next = nest(b, rest, (Operand::Var(param), ty.clone()), name.clone(), index, step);
    index.pop();
    let body = b.end();
    let out = b.fresh(name, ty);
    let range = Range { lo: Int::lit(0), hi: len.clone(), inclusive: false, rev: false };
    b.emit_loop(Loop {
        index: id,
        range,
        carried: vec![Carry { param, init }],
        body,
        yields: vec![next],
        outs: vec![out],
    });
    Operand::Var(out)
}
