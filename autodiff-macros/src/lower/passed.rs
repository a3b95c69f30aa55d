//! What a constant argument of a call is to the callee. The callee's derivative functions take
//! one partial and one direction per parameter that is an `f64` or an array of `f64`: a constant
//! of such a type fills one (its partial dropped, its direction zero), any other passes through.
//! The type is read from the tokens: a parameter's or a typed `let`'s declared type, literals,
//! casts, indexing and tuple fields of those. A name from outside the function (a `const`) or a
//! field of a struct has a type the macro cannot see, and is reported at a call that needs it.

use syn::{BinOp, Expr, Lit, Member, Type, UnOp};

use super::{Binding, Lower, ScalarTy};
use crate::ir::{Ty, Zero};
use crate::symbol;

/// The type of a constant, as far as the tokens tell.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) enum ConstTy {
    /// The function's scalar type (`f64`, `f32` or `T`).
    F64,
    /// A fixed-size array of these.
    Array(Box<ConstTy>),
    /// A slice or a `Vec` of these: indexable, but not differentiated as a whole.
    Seq(Box<ConstTy>),
    /// A shared reference to this.
    Ref(Box<ConstTy>),
    /// A tuple of these.
    Tuple(Vec<ConstTy>),
    /// A struct of the user's (the callee's derivatives take a partial and a direction for it).
    Struct,
    /// Known not to be an `f64` or to contain one: an integer, a `bool`, ...
    Other,
    /// Not known from the tokens.
    #[default]
    Unknown,
}

/// How a constant argument is passed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Role {
    /// To a differentiated parameter, with this zero direction.
    Fixed(Zero),
    /// To a parameter that is not differentiated.
    Through,
    /// Not known: the macro cannot tell whether it is an `f64`.
    Unknown,
}

impl ConstTy {
    /// The type `ty` as written, in a function whose scalar type is `scalar`.
    pub(super) fn of(ty: &Type, scalar: &ScalarTy) -> ConstTy {
        let of = |t: &Type| ConstTy::of(t, scalar);
        match ty {
            _ if scalar.is(ty) => ConstTy::F64,
            Type::Path(_) if crate::aggregate::kind(ty) == crate::aggregate::TypeKind::Struct => {
                ConstTy::Struct
            }
            Type::Array(a) => ConstTy::Array(Box::new(of(&a.elem))),
            Type::Slice(s) => ConstTy::Seq(Box::new(of(&s.elem))),
            Type::Reference(r) => ConstTy::Ref(Box::new(of(&r.elem))),
            Type::Tuple(t) => ConstTy::Tuple(t.elems.iter().map(of).collect()),
            Type::Paren(p) => of(&p.elem),
            Type::Group(g) => of(&g.elem),
            Type::Path(p) if p.qself.is_none() => {
                let Some(last) = p.path.segments.last() else { return ConstTy::Other };
                match &last.arguments {
                    syn::PathArguments::AngleBracketed(a) if last.ident == symbol::VEC => {
                        match a.args.first() {
                            Some(syn::GenericArgument::Type(t)) => ConstTy::Seq(Box::new(of(t))),
                            _ => ConstTy::Other,
                        }
                    }
                    _ => ConstTy::Other,
                }
            }
            _ => ConstTy::Other,
        }
    }

    /// The type behind references.
    pub(super) fn owned(&self) -> &ConstTy {
        match self {
            ConstTy::Ref(r) => r.owned(),
            other => other,
        }
    }

    /// Its elements, when indexed (through references).
    fn elem(&self) -> ConstTy {
        match self {
            ConstTy::Array(e) | ConstTy::Seq(e) => (**e).clone(),
            ConstTy::Ref(r) => r.elem(),
            _ => ConstTy::Unknown,
        }
    }

    /// Field `k` of a tuple (through references).
    fn field(&self, k: usize) -> ConstTy {
        match self {
            ConstTy::Tuple(ts) => ts.get(k).cloned().unwrap_or(ConstTy::Unknown),
            ConstTy::Ref(r) => r.field(k),
            _ => ConstTy::Unknown,
        }
    }

    /// Whether it is an `f64` or an array of them (nested to any depth); `None` if unknown.
    fn differentiable(&self) -> Option<bool> {
        match self {
            ConstTy::F64 => Some(true),
            ConstTy::Array(e) => match **e {
                ConstTy::F64 | ConstTy::Array(_) => e.differentiable(),
                ConstTy::Unknown => None,
                _ => Some(false),
            },
            ConstTy::Unknown => None,
            _ => Some(false),
        }
    }

    /// How a constant of this type is passed to a callee.
    pub(super) fn role(&self) -> Role {
        let (inner, by_ref) = match self {
            ConstTy::Struct => return Role::Fixed(Zero::Like { by_ref: false }),
            ConstTy::Ref(r) if **r == ConstTy::Struct => {
                return Role::Fixed(Zero::Like { by_ref: true });
            }
            ConstTy::Ref(r) if matches!(**r, ConstTy::Array(_)) => (&**r, true),
            ConstTy::Ref(r) if **r == ConstTy::Unknown => return Role::Unknown,
            other => (other, false),
        };
        match (inner, inner.differentiable()) {
            (_, None) => Role::Unknown,
            (_, Some(false)) => Role::Through,
            (ConstTy::F64, Some(true)) => Role::Fixed(Zero::Scalar),
            (_, Some(true)) => Role::Fixed(Zero::Inferred { by_ref }),
        }
    }
}

/// The type of `a op b` for an arithmetic operator: an `f64` if either is one, an integer if
/// both are, otherwise not known.
fn arithmetic(a: ConstTy, b: ConstTy) -> ConstTy {
    match (a, b) {
        (ConstTy::F64, _) | (_, ConstTy::F64) => ConstTy::F64,
        (ConstTy::Other, ConstTy::Other) => ConstTy::Other,
        _ => ConstTy::Unknown,
    }
}

/// The type of a path from outside the function: `f64::EPSILON`, `std::f64::consts::PI` and
/// the like are scalars (in an `f64` function), `usize::MAX` an integer; anything else (a `const`
/// item) is not known.
fn outer_path(p: &syn::Path, scalar: &ScalarTy) -> ConstTy {
    let n = p.segments.len();
    let owners = p.segments.iter().take(n.saturating_sub(1));
    for s in owners {
        if scalar.names(std::iter::once(s)) {
            return ConstTy::F64;
        }
        if symbol::INT_TYPES.iter().any(|t| s.ident == t) {
            return ConstTy::Other;
        }
    }
    ConstTy::Unknown
}

impl Lower<'_> {
    /// The type of the constant expression `e`, as far as the tokens tell.
    pub(super) fn const_ty(&self, e: &Expr) -> ConstTy {
        match e {
            Expr::Lit(l) => match &l.lit {
                Lit::Float(f) if self.scalar.suffix_fits(f.suffix()) => ConstTy::F64,
                Lit::Int(i) if i.suffix() != "" && self.scalar.suffix_fits(i.suffix()) => {
                    ConstTy::F64
                }
                _ => ConstTy::Other,
            },
            Expr::Path(p) => match p.path.get_ident() {
                Some(id) if p.qself.is_none() => self.name_ty(&symbol::unraw(id)),
                _ if p.qself.is_none() => outer_path(&p.path, &self.scalar),
                _ => ConstTy::Unknown,
            },
            Expr::Paren(p) => self.const_ty(&p.expr),
            Expr::Group(g) => self.const_ty(&g.expr),
            Expr::Reference(r) => ConstTy::Ref(Box::new(self.const_ty(&r.expr))),
            Expr::Unary(u) => match (&u.op, self.const_ty(&u.expr)) {
                (UnOp::Deref(_), ConstTy::Ref(r)) => *r,
                (UnOp::Deref(_), _) => ConstTy::Unknown,
                (_, t) => t,
            },
            Expr::Binary(b) => match b.op {
                BinOp::Add(_) | BinOp::Sub(_) | BinOp::Mul(_) | BinOp::Div(_) | BinOp::Rem(_) => {
                    arithmetic(self.const_ty(&b.left), self.const_ty(&b.right))
                }
                _ => ConstTy::Other,
            },
            Expr::Cast(c) => ConstTy::of(&c.ty, &self.scalar),
            Expr::Index(i) => self.const_ty(&i.expr).elem(),
            Expr::Field(f) => match &f.member {
                Member::Unnamed(k) => self.const_ty(&f.base).field(k.index as usize),
                Member::Named(_) => ConstTy::Unknown,
            },
            Expr::MethodCall(m) => {
                let method = m.method.to_string();
                let recv = self.const_ty(&m.receiver);
                if method == symbol::LEN || recv == ConstTy::Other {
                    ConstTy::Other
                } else if symbol::INT_METHODS.contains(&method.as_str()) || recv == ConstTy::F64 {
                    recv
                } else {
                    ConstTy::Unknown
                }
            }
            // A `#[grad]` body calls functions returning one `f64`.
            Expr::Call(_) => ConstTy::F64,
            Expr::If(i) => match i.then_branch.stmts.last() {
                Some(syn::Stmt::Expr(tail, None)) => self.const_ty(tail),
                _ => ConstTy::Unknown,
            },
            Expr::Block(b) => match b.block.stmts.last() {
                Some(syn::Stmt::Expr(tail, None)) => self.const_ty(tail),
                _ => ConstTy::Unknown,
            },
            Expr::Array(a) => {
                let first = a.elems.first().map_or(ConstTy::Unknown, |e| self.const_ty(e));
                ConstTy::Array(Box::new(first))
            }
            Expr::Repeat(r) => ConstTy::Array(Box::new(self.const_ty(&r.expr))),
            _ => ConstTy::Unknown,
        }
    }

    /// The type of the name `name` in the body.
    fn name_ty(&self, name: &str) -> ConstTy {
        match self.lookup(name) {
            Some(Binding::Slot(s)) => {
                let slot = &self.slots[*s];
                match (&slot.alias, slot.value) {
                    // A value of the IR read as a constant: an `f64` parameter left out of `wrt`,
                    // or a local copy of one.
                    (None, Some(v)) if self.b.ty(v) == Ty::F64 => ConstTy::F64,
                    _ => slot.ty.clone(),
                }
            }
            Some(Binding::Param(_)) => {
                self.param_tys.get(name).cloned().unwrap_or(ConstTy::Unknown)
            }
            // An integer; or a name whose definition was reported already.
            Some(Binding::Int(_) | Binding::Counter(_) | Binding::Poison | Binding::Struct(_)) => {
                ConstTy::Other
            }
            // A view (`w` of `c.windows(2)`): a sequence of its array's elements, so that `w[0]`
            // of a constant array of `f64` is a constant `f64`.
            Some(Binding::View(v)) => match syn::parse2::<Expr>(v.base.clone()) {
                Ok(base) => match self.const_ty(&base).elem() {
                    ConstTy::Unknown => ConstTy::Unknown,
                    elem => ConstTy::Seq(Box::new(elem)),
                },
                Err(_) => ConstTy::Unknown,
            },
            // A tuple or a closure: not passed to a call as a constant.
            Some(Binding::Tuple(_) | Binding::Record(..) | Binding::Closure(_)) => ConstTy::Unknown,
            // A const generic parameter: never an `f64` (a const parameter cannot be one).
            None if self.generics.iter().any(|g| g == name) => ConstTy::Other,
            None => ConstTy::Unknown,
        }
    }
}
