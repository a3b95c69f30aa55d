//! Arrays: literals `[a, b]` and `[v; N]`, reads `x[i][j]` (a load, or a constant for data
//! passed through), and writes `y[i] = e;` (a store: a new array value bound to `y`).

use syn::{Expr, ExprArray, ExprIndex, ExprRepeat};

use super::int::IntCtx;
use super::konst::{Bad, Mode};
use super::{Binding, Lower};
use crate::ir::{Elem, Int, Name, Operand, Prim, Ty};
use crate::symbol;

/// The most elements of a constant array copied into a variable, element by element.
const CONSTANT_ARRAY_MAX: u64 = 256;

/// `x[i][j]` split into its base `x` and its indices `[i, j]`, outermost first.
pub(super) fn index_chain(e: &Expr) -> (&Expr, Vec<&Expr>) {
    let mut indices = Vec::new();
    let mut base = e;
    loop {
        match base {
            Expr::Index(i) => {
                indices.push(&*i.index);
                base = &i.expr;
            }
            Expr::Paren(p) if matches!(&*p.expr, Expr::Index(_)) => base = &p.expr,
            Expr::Group(g) => base = &g.expr,
            _ => break,
        }
    }
    indices.reverse();
    (base, indices)
}

impl Lower<'_> {
    /// The type of an array expression (a variable, or a variable indexed), without lowering it.
    pub(super) fn array_ty(&self, e: &Expr) -> Option<Ty> {
        let (base, indices) = index_chain(e);
        let base = match base {
            Expr::Paren(p) => &*p.expr,
            other => other,
        };
        if let Some(t) = self.field_array_ty(base, indices.len()) {
            return Some(t);
        }
        if self.is_flat_field(base) {
            return self.flat_array_ty(base, indices.len());
        }
        let Expr::Path(p) = base else { return None };
        let name = symbol::unraw(p.path.get_ident()?);
        let Some(Binding::Slot(s)) = self.lookup(&name) else { return None };
        let ty = self.b.ty(self.slots[*s].value?);
        ty.indexed(indices.len()).filter(|t| matches!(t, Ty::Array(_)))
    }

    /// `x[i]`, `x[i][j]`, `a[i]` (a row): a load from an array of the IR, or a constant when
    /// the array is data passed through.
    pub(super) fn index(&mut self, e: &Expr, _i: &ExprIndex) -> Operand {
        if let Some(plain) = self.unview(e) {
            return self.expr(&plain);
        }
        let (base, indices) = index_chain(e);
        if self.is_constant_data(base) {
            return match self.konst(e, Mode::Real) {
                Ok(k) => self.ext(k),
                Err(Bad::Reported) => Operand::Lit(0.0),
                Err(_) => {
                    // The base is constant, so an index is at fault: report it as one.
                    let mut reported = false;
                    for ix in indices {
                        reported |= self.int_konst(ix, IntCtx::Index).is_none();
                    }
                    if !reported {
                        self.cx.error_spanned(e, "`#[grad]` cannot read this element of constant data; index it with integer expressions, as in `data[i]`");
                    }
                    Operand::Lit(0.0)
                }
            };
        }
        if self.is_flat_field(base) {
            return self.flat_element(base, &indices);
        }
        if let Some(op) = self.row_element(base, &indices) {
            return op;
        }
        // `q.mul(&p).v[i]`: an array field of the value of a call read as a struct.
        if let Expr::Field(f) = super::value::peel(base)
            && matches!(f.member, syn::Member::Named(_))
            && self.is_inferred_struct_call(&f.base)
        {
            return self.call_field_indexed(f, &indices);
        }
        let array = match self.shaped_call(base, indices.len()) {
            Some(array) => array,
            None => self.expr(base),
        };
        let index: Vec<Int> = indices.iter().map(|ix| self.int_expr(ix, IntCtx::Index)).collect();
        let ty = self.b.ty(array);
        if array.var().is_none() {
            // A constant whose type the macro cannot see, a placeholder after an error (nothing
            // more to say), or a literal.
            if let Operand::Ext(_) = array {
                self.untyped_constant(e, base);
            } else if self.cx.is_ok() {
                self.too_deep(e, &ty, index.len());
            }
            return Operand::Lit(0.0);
        }
        if ty.indexed(index.len()).is_none() {
            if !self.vector_call(Some(array), super::call::Use::Indexed) {
                self.too_deep(e, &ty, index.len());
            }
            return Operand::Lit(0.0);
        }
        self.b.load(Name::temp(), array, index)
    }

    /// Reports `e`, which indexes `base`, a variable bound to a constant expression whose type
    /// the macro cannot see (`let mut x = INIT;`) and so reads as an `f64`; once per variable
    /// (it is poisoned after).
    fn untyped_constant(&mut self, e: &Expr, base: &Expr) {
        let name = quote::ToTokens::to_token_stream(base).to_string();
        if let Expr::Path(p) = base
            && let Some(id) = p.path.get_ident()
        {
            self.bind_name(&symbol::unraw(id), Binding::Poison);
        }
        self.cx.error_spanned(
            e,
            format!("this indexes `{name}`, bound to a constant that `#[grad]` reads as an `f64` (a macro sees no types); if it is an array, write its type where `{name}` is bound: `let mut {name}: [f64; N] = ...;`"),
        );
    }

    fn too_deep(&mut self, e: &Expr, ty: &Ty, depth: usize) {
        let message = match ty {
            Ty::Array(s) => format!(
                "this indexes {depth} dimension(s) of an array of type `{}`, which has {}",
                self.ty_text(ty),
                s.dims.len()
            ),
            Ty::F64 => "this indexes an `f64`, which is not an array".to_owned(),
            _ => format!(
                "this indexes a value of type `{}`, which is not an array",
                self.ty_text(ty)
            ),
        };
        self.cx.error_spanned(e, message);
    }

    /// `[a, b, c]`: elements of one type (`f64`, or arrays of one shape).
    pub(super) fn array_literal(&mut self, e: &Expr, a: &ExprArray) -> Operand {
        let elems: Vec<Operand> = a.elems.iter().map(|x| self.expr(x)).collect();
        let Some(first) = elems.first() else {
            self.cx.error_spanned(e, "`#[grad]` does not support empty arrays");
            return Operand::Lit(0.0);
        };
        // A literal or a constant takes the type of the other elements.
        let typed = elems.iter().find(|v| v.var().is_some()).unwrap_or(first);
        let elem_ty = self.b.ty(*typed);
        for (x, v) in a.elems.iter().zip(&elems) {
            let ty = self.b.ty(*v);
            if ty != elem_ty && !(v.var().is_none() && elem_ty.is_float()) {
                self.cx.error_spanned(
                    x,
                    format!(
                        "the elements of this array have different types: `{}` and `{}`",
                        self.ty_text(&elem_ty),
                        self.ty_text(&ty)
                    ),
                );
                return Operand::Lit(0.0);
            }
        }
        let ty = elem_ty.repeated(Int::lit(elems.len() as u64));
        self.b.array(Name::temp(), ty, elems)
    }

    /// The constant array `init` (a `const` item, an element of data passed through) that a
    /// `let` with the type `ty` binds, as a value of the IR, so that it can be updated: the array
    /// of its elements `init[i][j]`, which needs `ty`'s lengths to be literals (`None` after
    /// reporting that they are not).
    pub(super) fn constant_array(&mut self, init: &Expr, ty: &Ty) -> Option<Operand> {
        let dims: Option<Vec<u64>> =
            ty.shape().map_or(Some(Vec::new()), |s| s.dims.iter().map(|d| d.value).collect());
        let scalars = dims.as_ref().and_then(|d| d.iter().try_fold(1u64, |n, k| n.checked_mul(*k)));
        let (Some(dims), Some(1..=CONSTANT_ARRAY_MAX)) = (dims, scalars) else {
            self.cx.error_spanned(
                init,
                format!("`#[grad]` copies a constant array into a variable element by element, so its type needs literal lengths and at most {CONSTANT_ARRAY_MAX} elements, not `{}`; take the array as a parameter left out of `wrt(...)`, which can be copied and updated", self.ty_text(ty)),
            );
            return None;
        };
        match self.konst(init, Mode::Container) {
            Ok(base) => Some(self.elements(&base, &dims, ty)),
            Err(_) => Some(Operand::Lit(0.0)),
        }
    }

    /// The array of type `ty`, of lengths `dims`, whose elements are `base[i]…`.
    fn elements(&mut self, base: &super::konst::Konst, dims: &[u64], ty: &Ty) -> Operand {
        let Some((first, rest)) = dims.split_first() else { return self.ext(base.clone()) };
        let inner = ty.indexed(1).unwrap_or(Ty::F64);
        let elems = (0..*first)
            .map(|i| {
                let (b, i) =
                    (base.operand(crate::ir::Prec::Atom), proc_macro2::Literal::u64_unsuffixed(i));
                let k = super::konst::Konst::combine(
                    quote::quote!(#b[#i]),
                    crate::ir::Prec::Atom,
                    &[base],
                );
                self.elements(&k, rest, &inner)
            })
            .collect();
        self.b.array(Name::temp(), ty.clone(), elems)
    }

    /// `[v; N]` with an `f64` value, nested or not: `[[0.0; K]; M]`.
    pub(super) fn repeat(&mut self, e: &Expr, r: &ExprRepeat) -> Operand {
        let mut dims = vec![self.int_expr(&r.len, IntCtx::Length)];
        let mut inner = &*r.expr;
        loop {
            match inner {
                Expr::Repeat(r) => {
                    dims.push(self.int_expr(&r.len, IntCtx::Length));
                    inner = &r.expr;
                }
                Expr::Paren(p) => inner = &p.expr,
                _ => break,
            }
        }
        let value = self.expr(inner);
        if self.b.ty(value) != Ty::F64 {
            self.cx.error_spanned(
                e,
                "`#[grad]` supports `[v; N]` only with an `f64` value `v`; write a nested array as `[[0.0; K]; M]`",
            );
            return Operand::Lit(0.0);
        }
        self.b.fill(Name::temp(), Ty::array(Elem::F64, dims), value)
    }

    /// `y[i][j] = value` or `y[i][j] op= value` for the user variable in `slot`: a store, with
    /// `y` bound to the new array.
    pub(super) fn assign_element(
        &mut self,
        target: &Expr,
        slot: usize,
        indices: &[&Expr],
        op: Option<Prim>,
        rhs: &Expr,
    ) {
        let Some(array) = self.slots[slot].value else {
            self.cx.error_spanned(
                target,
                "`#[grad]` needs an array to be assigned before its elements",
            );
            return;
        };
        let index: Vec<Int> = indices.iter().map(|ix| self.int_expr(ix, IntCtx::Index)).collect();
        let ty = self.b.ty(array);
        let Some(elem) = ty.indexed(index.len()) else {
            if let Operand::Ext(_) = array {
                let base = index_chain(target).0;
                self.untyped_constant(target, base);
            } else if !self.vector_call(Some(array), super::call::Use::Indexed) {
                self.too_deep(target, &ty, index.len());
            }
            return;
        };
        let rhs_value = self.expr(rhs);
        let rhs_ty = self.b.ty(rhs_value);
        if rhs_ty != elem {
            self.cx.error_spanned(
                rhs,
                format!(
                    "this assigns a value of type `{}` to an element of type `{}`",
                    self.ty_text(&rhs_ty),
                    self.ty_text(&elem)
                ),
            );
            return;
        }
        let value = match op {
            None => rhs_value,
            Some(_) if elem != Ty::F64 => {
                self.cx.error_spanned(
                    target,
                    "`#[grad]` supports `+=`, `-=`, `*=` and `/=` only on `f64` elements; update each element",
                );
                return;
            }
            Some(prim) => {
                let old = self.b.load(Name::temp(), array, index.clone());
                self.b.push(prim, &[old, rhs_value])
            }
        };
        let name = self.next_name(&self.slots[slot].name.clone());
        let stored = self.b.store(name, array, index, value);
        self.slots[slot].value = Some(stored);
    }
}
