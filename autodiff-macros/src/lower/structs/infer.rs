//! The struct type of a call's value written without its type (issue 15): `q.mul(&p).mul(&c)`,
//! `let r = q.mul(&p); r.w`, `u.sandwich(&p)` lent with `&`. A macro sees tokens, not types, and
//! holds a struct returned by a call laid flat, `[f64; <Quat as Differentiable>::LEN]`, so it
//! needs the type's name. Where the value is read as a struct (a field read, a method called on
//! it, lent with `&` to a call, the function's value when it returns a struct) and no typed
//! `let` says the type, it is taken from the call:
//! - a method call `recv.m(..)`: the type of its receiver, when that is known (a struct
//!   parameter, `self` as `Self`, a struct value of the body, a variable holding a struct
//!   returned by a call, or the value of such a call itself: chains), as for the methods that
//!   return `Self` (`mul`, `conj`, `normalized`), Rust's common idiom;
//! - a call by path `Type::f(..)`, `Self::f(..)`: `Type`, `Self`;
//! - a call of a free function `make(..)`: `make_value`, the alias of its struct type that
//!   `#[grad]` writes next to it (`codegen/shape.rs`), where the value is read by a field or a
//!   method; lent with `&` (`g(&make(x))`, `let r = make(x); g(&r)`) it could be an array (see
//!   `call_shape.rs`), and is not read as a struct.
//!
//! A variable holding a struct keeps its type when assigned (`acc = acc.mul(q)`). Anywhere
//! else a call's value is one `f64`, as before.
//!
//! What this does not know: what the callee returns. The guess is written in the generated code
//! as the type of the call's value, spanned at the call, so a method returning another type is
//! rustc's type error there (E0308, "expected `(Quat, _)`, found `(Polar, ())`" at the call's
//! method), never a wrong value. A value
//! passed by value to a call (`g(q.conj())`) is not read as a struct: an `f64` goes so too.

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::visit::Visit;
use syn::{Expr, Member, Pat, Stmt, Type};

use super::super::value::peel;
use super::super::{Binding, Lower};
use crate::ir::Operand;
use crate::symbol;

/// Whether `name` is a method of `f64` or of an array that `#[grad]` knows (`sqrt`, `sin_cos`,
/// `iter`, `len`): a value it is called on is not read as a struct.
pub(in crate::lower) fn known_method(name: &syn::Ident) -> bool {
    let name = name.to_string();
    symbol::method_prim(&name).is_some()
        || [symbol::SIN_COS, symbol::LEN, symbol::MAP].contains(&name.as_str())
        || symbol::ITER_METHODS.contains(&name.as_str())
}

/// `tokens` with every span set to `span`: a type written at a call, where rustc reports it.
pub(in crate::lower) fn respanned(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|t| match t {
            TokenTree::Group(g) => {
                let mut out = proc_macro2::Group::new(g.delimiter(), respanned(g.stream(), span));
                out.set_span(span);
                TokenTree::Group(out)
            }
            mut other => {
                other.set_span(span);
                other
            }
        })
        .collect()
}

/// The type named by `path`.
fn type_of_path(path: syn::Path) -> Type {
    Type::Path(syn::TypePath { attrs: Vec::new(), qself: None, path })
}

/// The span where a call is reported: its method's name, or its function's path.
pub(in crate::lower) fn call_span(e: &Expr) -> Span {
    let at: &dyn ToTokens = match e {
        Expr::MethodCall(m) => &m.method,
        Expr::Call(c) => &c.func,
        other => other,
    };
    at.to_token_stream().into_iter().next().map_or(Span::call_site(), |t| t.span())
}

impl Lower<'_> {
    /// The struct type the value of the call `e` is taken to have when it is read as a struct
    /// (see the module's comment), spanned at the call; `None` when the tokens do not tell.
    pub(in crate::lower) fn inferred_struct(&self, e: &Expr) -> Option<Type> {
        let e = peel(e);
        let ty = match e {
            Expr::MethodCall(m) if m.turbofish.is_none() && !known_method(&m.method) => {
                self.struct_type(&m.receiver)?
            }
            Expr::Call(c) => self.path_call_type(c).or_else(|| self.value_alias_of(e))?,
            _ => return None,
        };
        let tokens = respanned(ty.to_token_stream(), call_span(e));
        Some(syn::parse2(tokens).unwrap_or(ty))
    }

    /// `g_value` for a call of a free function `g(..)` (`module::g_value` for `module::g(..)`):
    /// the alias of its struct type that `#[grad]` writes next to a free function returning a
    /// struct (see `codegen/shape.rs`).
    fn value_alias_of(&self, e: &Expr) -> Option<Type> {
        let (_, p) = self.call_of_user_fn(e)?;
        suffixed(p, symbol::FN_VALUE).map(type_of_path)
    }

    /// Whether `e` is a call of a free function, whose value is taken to be of its `g_value`
    /// type only where it is read by a field or a method: lent with `&`, it could be an array.
    pub(in crate::lower) fn is_free_struct_call(&self, e: &Expr) -> bool {
        match peel(e) {
            Expr::Call(c) => self.path_call_type(c).is_none() && self.value_alias_of(e).is_some(),
            _ => false,
        }
    }

    /// Whether `e` is a call whose value is taken to be a struct where it is read as one.
    pub(in crate::lower) fn is_inferred_struct_call(&self, e: &Expr) -> bool {
        matches!(peel(e), Expr::MethodCall(_) | Expr::Call(_)) && self.inferred_struct(e).is_some()
    }

    /// `call.w`, a field of the value of a call read as a struct: lowered as
    /// `{ let mul = call; mul.w }`, the call's value bound to a fresh name (its method's or
    /// function's), so that it is held and read as a struct bound by a `let` is.
    pub(in crate::lower) fn call_field(&mut self, f: &syn::ExprField) -> Operand {
        self.call_field_indexed(f, &[])
    }

    /// `call.v[i][j]`, an element (or a row) of an array field of the value of a call read as
    /// a struct (`q.mul(&p).v[i]`, `Quat::new(..).v[0]`): lowered as `{ let mul = call;
    /// mul.v[i][j] }`, as [`Self::call_field`] lowers `call.v`, so that it reads as the bound
    /// form does, bit for bit.
    pub(in crate::lower) fn call_field_indexed(
        &mut self,
        f: &syn::ExprField,
        indices: &[&Expr],
    ) -> Operand {
        let hint = match peel(&f.base) {
            Expr::MethodCall(m) => symbol::unraw(&m.method),
            Expr::Call(c) => match peel(&c.func) {
                Expr::Path(p) => p.path.segments.last().map(|s| symbol::unraw(&s.ident)),
                _ => None,
            }
            .unwrap_or_default(),
            _ => String::new(),
        };
        let hint = if hint.is_empty() { symbol::CALL_VALUE } else { hint.as_str() };
        let id = proc_macro2::Ident::new(&self.names.fresh(hint).to_string(), call_span(&f.base));
        let (base, member) = (&f.base, &f.member);
        let block = quote::quote!({ let #id = #base; #id.#member #([#indices])* });
        match syn::parse2::<Expr>(block) {
            Ok(e) => self.expr(&e),
            Err(_) => Operand::Lit(0.0),
        }
    }

    /// The struct type of the receiver `e` (through `&`): a struct parameter's, a struct value
    /// of the body's, a struct returned by a call's, or the value of a call read as a struct.
    pub(in crate::lower) fn struct_type(&self, e: &Expr) -> Option<Type> {
        let e = match peel(e) {
            Expr::Reference(r) if r.mutability.is_none() => peel(&r.expr),
            other => other,
        };
        let Expr::Path(p) = e else { return self.inferred_struct(e) };
        let name = symbol::unraw(p.path.get_ident().filter(|_| p.qself.is_none())?);
        match self.lookup(&name)? {
            Binding::Struct(k) => Some(self.structs[*k].owned.clone()),
            Binding::Record(shape, _) => Some(type_of_path(shape.path.clone())),
            Binding::Slot(s) => self.slots[*s].strukt.as_deref().cloned(),
            Binding::Param(_) => self.param_structs.get(&name).cloned(),
            _ => None,
        }
    }

    /// `Type` for a call `Type::f(..)` or `Self::f(..)` (a path whose next to last segment is
    /// `Self` or starts with a capital, as a type's name does and a module's does not), when it
    /// is not a method of the function's scalar type (`f64::max`, `T::sin`).
    fn path_call_type(&self, c: &syn::ExprCall) -> Option<Type> {
        let Expr::Path(p) = peel(&c.func) else { return None };
        let segments = &p.path.segments;
        let n = segments.len();
        if p.qself.is_some() || n < 2 || segments.iter().any(|s| !s.arguments.is_none()) {
            return None;
        }
        let owner = &segments[n - 2].ident;
        let text = symbol::unraw(owner);
        let capital = text.chars().next().is_some_and(char::is_uppercase);
        let scalar = self.scalar.owns_methods(segments.iter().take(n - 1))
            || self.type_params.contains(&text)
            || self.generics.contains(&text);
        if !(capital || owner == symbol::SELF_TYPE) || scalar || self.is_closure(&c.func) {
            return None;
        }
        let mut path = p.path.clone();
        path.segments.pop();
        path.segments.pop_punct();
        Some(type_of_path(path))
    }
}

/// `module::g_suffix` for the path `module::g` of a called function (`g_shape`, `g_value`: the
/// items `#[grad]` writes next to `g`); `None` for a qualified path or one with generic
/// arguments.
pub(in crate::lower) fn suffixed(p: &syn::ExprPath, suffix: &str) -> Option<syn::Path> {
    if p.qself.is_some() || p.path.segments.iter().any(|s| !s.arguments.is_none()) {
        return None;
    }
    let mut path = p.path.clone();
    let last = path.segments.last_mut()?;
    last.ident =
        syn::Ident::new(&format!("{}_{suffix}", symbol::unraw(&last.ident)), last.ident.span());
    Some(path)
}

/// Whether `rest` (the statements after `let name = ...;` in its block) reads `name` as a
/// struct: a named field (`name.w`), a method that is not one of `f64`'s (`name.mul(..)`),
/// lent with `&` to a call (`g(&name)`), or, when `tail` (the `let` is in the function's body
/// and the function returns a struct), the function's value. Up to where `name` is bound again.
pub(in crate::lower) fn read_as_struct(name: &str, rest: &[Stmt], tail: bool, lent: bool) -> bool {
    let mut found = false;
    in_scope(name, rest, &mut |e| {
        found |= match e {
            Expr::Field(f) => matches!(f.member, Member::Named(_)) && is_name(&f.base, name),
            Expr::MethodCall(m) => {
                (!known_method(&m.method) && is_name(&m.receiver, name))
                    || (lent && m.args.iter().any(|a| lends(a, name)))
            }
            Expr::Call(c) => lent && c.args.iter().any(|a| lends(a, name)),
            _ => false,
        };
        found
    });
    if found || !tail {
        return found;
    }
    // The function's value: its last statement, after no other `let` of the name.
    let rebound = rest.iter().any(|s| matches!(s, Stmt::Local(l) if binds(&l.pat, name)));
    let last = match rest.last() {
        Some(Stmt::Expr(Expr::Return(r), _)) => r.expr.as_deref(),
        Some(Stmt::Expr(e, None)) => Some(e),
        _ => None,
    };
    !rebound && last.is_some_and(|e| is_name(e, name))
}

/// Whether `e` is the name `name`.
pub(in crate::lower) fn is_name(e: &Expr, name: &str) -> bool {
    match peel(e) {
        Expr::Path(p) => {
            p.qself.is_none() && p.path.get_ident().is_some_and(|id| symbol::unraw(id) == name)
        }
        _ => false,
    }
}

/// Whether `e` is `&name`.
pub(in crate::lower) fn lends(e: &Expr, name: &str) -> bool {
    matches!(peel(e), Expr::Reference(r) if r.mutability.is_none() && is_name(&r.expr, name))
}

/// Whether the pattern `pat` binds `name`.
fn binds(pat: &Pat, name: &str) -> bool {
    struct Binds<'a>(&'a str, bool);
    impl<'ast> Visit<'ast> for Binds<'_> {
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            self.1 |= symbol::unraw(&p.ident) == self.0;
            syn::visit::visit_pat_ident(self, p);
        }
    }
    let mut b = Binds(name, false);
    b.visit_pat(pat);
    b.1
}

/// Gives `each` the expressions of `rest` (the statements after `let name = ...;` in its
/// block) where `name` is that binding: up to a `let` that binds it again, and not in a
/// closure, a `for` loop's body or a `match` arm that binds it; until `each` returns `true`.
pub(in crate::lower) fn in_scope(name: &str, rest: &[Stmt], each: &mut dyn FnMut(&Expr) -> bool) {
    Scope { name, each, done: false }.stmts(rest);
}

/// The expressions in one name's scope, given to `each`.
struct Scope<'a> {
    name: &'a str,
    each: &'a mut dyn FnMut(&Expr) -> bool,
    done: bool,
}

impl Scope<'_> {
    /// The statements of a block, up to a `let` that binds the name again.
    fn stmts(&mut self, stmts: &[Stmt]) {
        for stmt in stmts {
            if let Stmt::Local(l) = stmt {
                if let Some(init) = &l.init {
                    self.visit_local_init(init);
                }
                if binds(&l.pat, self.name) {
                    return;
                }
                continue;
            }
            self.visit_stmt(stmt);
        }
    }
}

impl<'ast> Visit<'ast> for Scope<'_> {
    fn visit_block(&mut self, b: &'ast syn::Block) {
        self.stmts(&b.stmts);
    }

    fn visit_expr(&mut self, e: &'ast Expr) {
        if self.done {
            return;
        }
        self.done = (self.each)(e);
        let name = self.name;
        match e {
            // A closure, a loop or an arm binding the name again: its body reads another one.
            Expr::Closure(c) if c.inputs.iter().any(|p| binds(p, name)) => {}
            Expr::ForLoop(f) if binds(&f.pat, name) => self.visit_expr(&f.expr),
            _ => syn::visit::visit_expr(self, e),
        }
    }

    fn visit_arm(&mut self, arm: &'ast syn::Arm) {
        if !binds(&arm.pat, self.name) {
            syn::visit::visit_arm(self, arm);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::read_as_struct;

    fn reads(body: &str, tail: bool) -> bool {
        let block: syn::Block = syn::parse_str(body).expect("a block");
        read_as_struct("r", &block.stmts, tail, true)
    }

    #[test]
    fn a_name_is_read_as_a_struct_by_fields_methods_and_references() {
        for body in [
            "{ r.w + 1.0 }",
            "{ let s = r.mul(&p); s.x }",
            "{ g(&r) }",
            "{ q.dot(&r) }",
            "{ for k in 0..3 { s += r.x * k as f64; } s }",
            "{ let t = { let u = 2.0; u * r.y }; t }",
        ] {
            assert!(reads(body, false), "{body}");
        }
    }

    #[test]
    fn a_name_read_as_an_f64_or_bound_again_is_not() {
        for body in [
            "{ r * 2.0 + r.sqrt() + r.max(1.0) }",
            "{ g(r) + r.0 }",
            "{ let r = q.mul(&p); r.w }",
            "{ let t = { let r = q.conj(); r.x }; t + r }",
            "{ xs.iter().map(|r| r.w).sum::<f64>() + r }",
            "{ r }",
        ] {
            assert!(!reads(body, false), "{body}");
        }
    }

    #[test]
    fn the_functions_value_is_read_as_a_struct_where_it_returns_one() {
        assert!(reads("{ let a = 1.0; r }", true));
        assert!(reads("{ return r; }", true));
        assert!(!reads("{ let r = 2.0; r }", true));
        assert!(!reads("{ r.sqrt() }", true));
    }
}
