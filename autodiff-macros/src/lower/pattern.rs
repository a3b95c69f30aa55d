//! Patterns: the names of `let (a, b) = ...;`, `let [x0, x1] = x;`, `let &v = r;`, a closure's
//! parameters and a loop's element, bound to the parts of a [`Value`]. A pattern only names
//! parts: it emits nothing but the loads of an array's elements.

use std::rc::Rc;

use syn::{Pat, PatSlice, PatTuple};

use super::types::is_int;
use super::value::Value;
use super::{Aliases, Binding, Lower, Slot};
use crate::ir::{Int, Name, Ty};
use crate::symbol;

/// What the patterns `#[grad]` binds are, for messages.
const PATTERNS: &str = "names, `_`, tuples `(a, b)`, arrays `[a, b]` and references `&a`";

impl Lower<'_> {
    /// Binds the names of `pat` to the parts of `v`.
    pub(super) fn bind(&mut self, pat: &Pat, v: Value) {
        match pat {
            Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
                let name = symbol::unraw(&pi.ident);
                self.bind_value(&name, v, pi.mutability.is_some());
            }
            Pat::Wild(_) => {}
            Pat::Paren(p) => self.bind(&p.pat, v),
            Pat::Reference(r) if r.mutability.is_none() => self.bind(&r.pat, dereferenced(v)),
            Pat::Type(t) => {
                if is_int(strip_refs(&t.ty)) != matches!(v, Value::Int(_))
                    && !matches!(*t.ty, syn::Type::Infer(_))
                    && matches!(v, Value::Int(_) | Value::Real { .. })
                {
                    self.cx.error_spanned(
                        &t.ty,
                        "this type does not match the value bound here (an integer and an `f64` value)",
                    );
                }
                self.bind(&t.pat, v);
            }
            Pat::Tuple(t) => self.bind_tuple(t, v),
            Pat::Slice(s) => self.bind_slice(s, v),
            other => {
                self.cx.error_spanned(
                    other,
                    format!("`#[grad]` supports as patterns only {PATTERNS}"),
                );
                self.poison(other);
            }
        }
    }

    /// `(a, b, ..)` against a tuple.
    fn bind_tuple(&mut self, t: &PatTuple, v: Value) {
        let v = self.constant_tuple(v, t.elems.len());
        let Value::Tuple(parts) = v else {
            if !matches!(v, Value::Int(None)) {
                self.cx.error_spanned(t, "this tuple pattern binds a value that is not a tuple");
            }
            return self.poison(&Pat::Tuple(t.clone()));
        };
        let pats: Vec<&Pat> = t.elems.iter().collect();
        let rest = pats.iter().position(|p| matches!(p, Pat::Rest(_)));
        let n = parts.len();
        let fits = match rest {
            Some(_) => pats.len() - 1 <= n,
            None => pats.len() == n,
        };
        if !fits {
            self.cx.error_spanned(
                t,
                format!("this pattern has {} parts, the tuple it binds {n}", pats.len()),
            );
            return self.poison(&Pat::Tuple(t.clone()));
        }
        let mut parts: Vec<Option<Value>> = parts.into_iter().map(Some).collect();
        for (i, p) in pats.iter().enumerate() {
            let at = match rest {
                Some(r) if i == r => continue,
                Some(r) if i > r => n - (pats.len() - i),
                _ => i,
            };
            if let Some(part) = parts[at].take() {
                self.bind(p, part);
            }
        }
    }

    /// A constant that a tuple pattern of `n` parts binds (a tuple parameter passed through) as
    /// the tuple of its fields `t.0`, `t.1`, ...; any other value as it is.
    fn constant_tuple(&mut self, v: Value, n: usize) -> Value {
        let Value::Real { aliases: Aliases { alias: Some(k), ty: whole, .. }, .. } = &v else {
            return v;
        };
        let (k, whole) = (std::rc::Rc::clone(k), whole.clone());
        let parts = (0..n)
            .map(|i| {
                let member = syn::Index::from(i);
                let base = k.tokens.clone();
                let field = crate::lower::konst::Konst::combine(
                    quote::quote!(#base.#member),
                    crate::ir::Prec::Atom,
                    &[&k],
                );
                let field = std::rc::Rc::new(field);
                let op = self.ext((*field).clone());
                let ty = match &whole {
                    super::passed::ConstTy::Tuple(parts) => {
                        parts.get(i).cloned().unwrap_or_default()
                    }
                    _ => super::passed::ConstTy::Unknown,
                };
                let aliases =
                    Aliases { alias: Some(std::rc::Rc::clone(&field)), int_alias: Some(field), ty };
                Value::Real { op, aliases, since: usize::MAX }
            })
            .collect();
        Value::Tuple(parts)
    }

    /// `[a, b, c]` (or `[first, .., last]`) against an array: each element loaded.
    fn bind_slice(&mut self, s: &PatSlice, v: Value) {
        let array = match v {
            Value::Real { op, .. } if matches!(self.b.ty(op), Ty::Array(_)) => op,
            Value::Int(None) => return self.poison(&Pat::Slice(s.clone())),
            _ => {
                self.cx.error_spanned(s, "this array pattern binds a value that is not an array");
                return self.poison(&Pat::Slice(s.clone()));
            }
        };
        let len = self.b.ty(array).shape().and_then(|sh| sh.dims[0].value);
        let pats: Vec<&Pat> = s.elems.iter().collect();
        let rest = pats.iter().position(|p| matches!(p, Pat::Rest(_)));
        let Some(n) = len.or((rest.is_none()).then_some(pats.len() as u64)) else {
            self.cx.error_spanned(
                s,
                "`#[grad]` needs to know the array's length to bind elements after `..`; index them instead",
            );
            return self.poison(&Pat::Slice(s.clone()));
        };
        let wanted = (pats.len() - usize::from(rest.is_some())) as u64;
        if (rest.is_none() && wanted != n) || wanted > n {
            self.cx.error_spanned(
                s,
                format!("this pattern binds {wanted} elements of an array of {n}"),
            );
            return self.poison(&Pat::Slice(s.clone()));
        }
        for (i, p) in pats.iter().enumerate() {
            let at = match rest {
                Some(r) if i == r => continue,
                Some(r) if i > r => n - (pats.len() - i) as u64,
                _ => i as u64,
            };
            let since = self.mark();
            let op = self.b.load(Name::temp(), array, vec![Int::lit(at)]);
            self.bind(p, Value::Real { op, aliases: Aliases::default(), since });
        }
    }

    /// Binds `name` to `v`.
    pub(super) fn bind_value(&mut self, name: &str, v: Value, mutable: bool) {
        match v {
            Value::Real { op, aliases, since } => {
                let aliases = if mutable { Aliases::default() } else { aliases };
                self.declare(name, Some(op), aliases, since);
            }
            Value::Int(Some(k)) if mutable => self.declare_counter(name, &k),
            Value::Int(Some(k)) => {
                self.bind_name(name, Binding::Int(k));
            }
            Value::Int(None) => {
                self.bind_name(name, Binding::Poison);
            }
            Value::Closure(c) => {
                self.bind_name(name, Binding::Closure(c));
            }
            Value::View(v) => {
                self.bind_name(name, Binding::View(v));
            }
            Value::Tuple(parts) => {
                let b = self.tuple_binding(name, parts);
                self.bind_name(name, b);
            }
            Value::Record(shape, parts) => {
                let b = self.record_binding(name, &shape, parts);
                self.bind_name(name, b);
            }
        }
    }

    /// The binding of a tuple named `name`: a slot per value of the IR.
    fn tuple_binding(&mut self, name: &str, parts: Vec<Value>) -> Binding {
        let parts = parts.into_iter().map(|p| self.part_binding(name, p)).collect();
        Binding::Tuple(parts)
    }

    /// The binding of one part of a tuple or a struct value, named `name`.
    pub(super) fn part_binding(&mut self, name: &str, p: Value) -> Binding {
        match p {
            Value::Real { op, since, .. } => {
                self.name_value(name, op, since);
                let slot = Slot {
                    ty: super::passed::ConstTy::Unknown,
                    name: name.to_owned(),
                    value: Some(op),
                    alias: None,
                    int_alias: None,
                    strukt: None,
                    field_depths: std::rc::Rc::default(),
                };
                self.slots.push(slot);
                Binding::Slot(self.slots.len() - 1)
            }
            Value::Int(Some(k)) => Binding::Int(k),
            Value::Int(None) => Binding::Poison,
            Value::Closure(c) => Binding::Closure(Rc::clone(&c)),
            Value::View(v) => Binding::View(Rc::clone(&v)),
            Value::Tuple(inner) => self.tuple_binding(name, inner),
            Value::Record(shape, inner) => self.record_binding(name, &shape, inner),
        }
    }
}

/// `ty` without its leading `&`s: the type a pattern's value has once references are looked
/// through (as `#[grad]` does: a reference to a value is the value).
pub(super) fn strip_refs(ty: &syn::Type) -> &syn::Type {
    match ty {
        syn::Type::Reference(r) if r.mutability.is_none() => strip_refs(&r.elem),
        syn::Type::Paren(p) => strip_refs(&p.elem),
        syn::Type::Group(g) => strip_refs(&g.elem),
        other => other,
    }
}

/// What `&a` binds `a` to: the value itself (a reference to a value is the value to lowering),
/// as a constant of the type behind the reference (`for &v in data` binds `v` to `data[i]`, an
/// `f64`, which fills a callee's differentiated parameter where a `&f64` would pass through).
fn dereferenced(v: Value) -> Value {
    match v {
        Value::Real { op, mut aliases, since } => {
            aliases.ty = match std::mem::take(&mut aliases.ty) {
                super::passed::ConstTy::Ref(inner) => *inner,
                other => other,
            };
            Value::Real { op, aliases, since }
        }
        other => other,
    }
}
