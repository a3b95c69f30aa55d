//! Lowering: the user's function (syn) to IR in A-normal form, one primitive per statement.
//!
//! This is also the fence: every construct outside the supported subset is reported with its
//! span, all of them, not only the first; lowering goes on with a placeholder after each error.

mod body;
mod expr;
mod passive;
mod signature;

use std::collections::HashMap;

use proc_macro2::Ident;
use syn::{ItemFn, Type};

use crate::args::Args;
use crate::ctxt::Ctxt;
use crate::ir::{Builder, Func, Operand, Var};

/// One parameter of the user's function, as the generated functions re-emit it.
#[derive(Clone)]
pub struct Param {
    /// The parameter's name, with the user's span.
    pub ident: Ident,
    /// Its type, as written.
    pub ty: Type,
    /// The IR input, for `f64` parameters; `None` for parameters passed through as constants.
    pub input: Option<Var>,
}

/// The lowered function and what codegen needs to re-emit its signature.
pub struct Lowered {
    /// The function body as IR, with one output: the value.
    pub func: Func,
    /// Every parameter, in order.
    pub params: Vec<Param>,
}

/// What a name in the body refers to.
#[derive(Clone, Copy, Debug)]
enum Binding {
    /// An `f64` value of the IR (a local or an `f64` parameter).
    Value(Operand),
    /// A parameter that is not differentiated and not an IR value (integers, references, ...).
    Passive,
    /// A local declared with `let y;` and not assigned yet.
    Uninit,
}

/// The state of lowering one function.
struct Lower<'a> {
    cx: &'a mut Ctxt,
    b: Builder,
    env: HashMap<String, Binding>,
    /// How many times each user variable has been assigned (for names like `x_2`).
    versions: HashMap<String, u32>,
}

/// Lowers `item`, recording every unsupported construct in `cx`.
pub fn lower(cx: &mut Ctxt, item: &ItemFn, args: &Args) -> Lowered {
    let mut lower =
        Lower { cx, b: Builder::literal(), env: HashMap::new(), versions: HashMap::new() };
    let params = lower.signature(&item.sig, args);
    let value = lower.body(&item.block);
    Lowered { func: lower.b.finish(vec![value]), params }
}
