//! Lowering: the user's function (syn) to IR in A-normal form, one primitive per statement, with
//! loops and branches as structured regions that carry their values explicitly.
//!
//! This is also the fence: every construct outside the supported subset is reported with its
//! span, all of them, not only the first; lowering goes on with a placeholder after each error.

mod arrays;
mod assigned;
mod body;
mod call;
mod call_shape;
mod closure;
mod cond;
mod control;
mod counter;
mod expr;
mod generic;
mod int;
mod kind;
mod konst;
mod method;
mod passed;
mod pattern;
mod problem;
mod returned;
mod scalar;
mod signature;
mod structs;
mod sugar;
mod types;
mod value;
mod view;
mod whiles;

use std::collections::HashMap;
use std::rc::Rc;

use proc_macro2::Ident;
use syn::{ItemFn, Type};

use crate::args::Args;
use crate::ctxt::Ctxt;
use crate::ir::{Builder, Func, Name, Operand, Var};
use crate::symbol;
use konst::Konst;
use passed::ConstTy;
pub use problem::{Constant, Problem, Shape, problem};
pub use scalar::ScalarTy;

/// One parameter of the user's function, as the generated functions re-emit it.
#[derive(Clone)]
pub struct Param {
    /// The parameter's name, with the user's span (`_` for a parameter written `_`).
    pub ident: Ident,
    /// Its type, as written.
    pub ty: Type,
    /// The IR input, for `f64` and array parameters (differentiated or not); `None` for
    /// parameters passed through as constants.
    pub input: Option<Var>,
    /// Whether the parameter is taken by reference (`&[f64; N]`); its gradient is still an owned
    /// array.
    #[allow(dead_code, reason = "for codegen, which does not emit array parameters yet")]
    pub by_ref: bool,
    /// For a differentiated struct parameter: the inputs its fields are.
    pub strukt: Option<StructParam>,
}

/// A differentiated struct parameter: the fields that the body reads as values, each an input
/// of the IR.
#[derive(Clone)]
pub struct StructParam {
    /// The struct's type without references: `Model` for `&Model`, `Self` for `&self`.
    pub owned: Type,
    /// The field inputs, in order of first read.
    pub fields: Vec<FieldInput>,
    /// The whole struct as one input, its scalars laid flat, when it is passed whole to a call.
    pub whole: Option<Var>,
    /// Whether it is an array of structs (`ps: &[P; N]`, `owned` the array's type), each field
    /// input the field of every element, an array (see `structs/arrays.rs`).
    pub array: bool,
}

/// A field of a struct parameter that is an input of the IR.
#[derive(Clone)]
pub struct FieldInput {
    /// The fields from the parameter down (`[inner, c]` for `m.inner.c`).
    pub path: Vec<syn::Member>,
    /// The input.
    pub input: Var,
    /// The field's first read in the body (its spans).
    pub at: proc_macro2::TokenStream,
    /// Whether its type is a guess: passed whole to a call (itself or a row of it), and typed
    /// from the body's other reads, an `f64` if never indexed (rustc checks the guess where
    /// codegen reads it, `scalar_field`, `array_field`).
    pub guessed: bool,
    /// Whether it is held as its differentiated scalars laid flat
    /// (`[f64; field_len::<Model>("w")]`): a field that the body reads only whole, as an
    /// argument of calls or a method's receiver, whose type nothing in the body tells. Calls
    /// are passed the field itself, and its gradient is added into the struct's at the field's
    /// first scalar.
    pub flat: bool,
    /// Whether, held laid flat, rows of it are passed to calls (`g(m.x[i])`): then it holds all
    /// the field's scalars (`[f64; field_value_len(|m: &Model| &m.x)]`), read from its value,
    /// differentiated or not (`#[no_grad]`), and its gradient is added only if it is
    /// differentiated.
    pub rows: bool,
}

/// What the function returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// One `f64`: [`Func::outputs`] is that value.
    Scalar,
    /// An array `[f64; M]` (nested or not): [`Func::outputs`] is the array variable.
    Array,
    /// A tuple of `n` `f64` values and arrays: [`Func::outputs`] are the `n` parts.
    Tuple(usize),
    /// A struct: [`Func::outputs`] are its fields that are values, as [`Lowered::record`] says.
    Record,
}

/// The value of a function returning a struct: the struct's fields, each an output of the IR
/// or a constant.
#[derive(Clone)]
pub struct RecordOut {
    /// The struct's path, as the body's literal writes it.
    pub path: syn::Path,
    /// Its fields, in order (none when it is laid flat).
    pub fields: Vec<(syn::Member, FieldOut)>,
    /// For a struct returned by a call and returned as it is: the output that holds it laid
    /// flat.
    pub flat: Option<usize>,
}

/// One field of a returned struct.
#[derive(Clone)]
pub enum FieldOut {
    /// The `k`-th output of the IR.
    Output(usize),
    /// A constant, as written (an integer).
    Const(proc_macro2::TokenStream),
    /// A nested struct.
    Record(RecordOut),
    /// The `k`-th output of the IR, the field's scalars laid flat (a field copied whole, whose
    /// type the macro does not know): rebuilt in the field's type by rustc's inference.
    Flat(usize),
}

/// The lowered function and what codegen needs to re-emit its signature.
pub struct Lowered {
    /// The function body as IR, with its outputs as [`Lowered::output`] says.
    pub func: Func,
    /// Every parameter, in order.
    pub params: Vec<Param>,
    /// What kind of value the function returns.
    #[allow(dead_code, reason = "for codegen, which does not emit vector outputs yet")]
    pub output: Output,
    /// The function's scalar type.
    pub scalar: ScalarTy,
    /// For a function returning a struct: where its fields are.
    pub record: Option<RecordOut>,
}

/// What a value is, as far as lowering can tell from the syntax.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// An `f64` (a value of the IR, or a constant).
    Real,
    /// An array of `f64`.
    Array,
    /// An integer (an index, a length, a loop variable).
    Int,
    /// A boolean.
    Bool,
    /// Not known from the syntax (a `const` from outside, a field of a parameter).
    Unknown,
}

/// A user variable holding a value of the IR (an `f64` or an array), reassigned in place.
struct Slot {
    /// The user's name for it.
    name: String,
    /// Its current value; `None` after `let y;` until the first assignment.
    value: Option<Operand>,
    /// For an immutable binding of a constant expression: that expression, substituted where
    /// the variable is read as a constant (`row[j]` for `let row = data[i];`)...
    alias: Option<Rc<Konst>>,
    /// ... and, when it may be an integer (`let m = N - 1;`), where it is read as an integer.
    int_alias: Option<Rc<Konst>>,
    /// Its type as a constant, where it is one (an argument of a call needs it).
    ty: ConstTy,
    /// For a struct returned by a call (`let r: Quat = q.mul(&p);`), held laid flat (an array
    /// of its differentiated scalars): the struct's type.
    strukt: Option<Rc<syn::Type>>,
    /// For such a struct, how many dimensions its scope indexes each field with (by the names
    /// of the fields from the struct down): the shape of a field read whole (`whole.rs`).
    field_depths: Rc<Vec<structs::FieldDepth>>,
}

/// What a `let` of a constant expression may stand for where its variable is read.
#[derive(Default)]
struct Aliases {
    alias: Option<Rc<Konst>>,
    int_alias: Option<Rc<Konst>>,
    /// The type of the constant, as far as the tokens tell.
    ty: ConstTy,
}

/// The text of an IR type, as messages write it (for tests).
#[cfg(test)]
pub fn ty_text(ty: &crate::ir::Ty) -> String {
    types::ty_text(ty, crate::symbol::F64)
}

/// What a name in the body refers to.
#[derive(Clone)]
enum Binding {
    /// A user variable (a local, or an `f64` or array parameter): an index into `slots`.
    Slot(usize),
    /// An integer: a loop variable or an integer `let`, substituted where it is read.
    Int(Rc<Konst>),
    /// An integer declared `let mut` (a counter): an index into `counters`, its closed form
    /// substituted where it is read.
    Counter(usize),
    /// A parameter passed through as a constant, of the given kind.
    Param(Kind),
    /// A tuple: `let t = (a, b);`, its components bound as names are (`t.0`, `t.1`).
    Tuple(Vec<Binding>),
    /// A struct value of the body: `let q = Quat { w, x, y, z };`, its fields bound as names
    /// are (`q.w`).
    Record(Rc<structs::Record>, Vec<Binding>),
    /// A closure, inlined where it is called.
    Closure(Rc<closure::Closure>),
    /// A view of an array's or a slice's elements: `let w = &x[i..i + 2];`.
    View(Rc<view::View>),
    /// A differentiated struct parameter: an index into [`Lower::structs`].
    Struct(usize),
    /// A name whose definition was refused: reads of it report nothing more.
    Poison,
}

/// A binding, with a number that tells it apart from earlier bindings of the same name.
#[derive(Clone)]
struct Bound {
    serial: u32,
    binding: Binding,
}

/// The state of lowering one function.
struct Lower<'a> {
    cx: &'a mut Ctxt,
    b: Builder,
    env: HashMap<String, Bound>,
    slots: Vec<Slot>,
    /// How many times each user variable has been assigned (for names like `x_2`).
    versions: HashMap<String, u32>,
    /// The last serial number given to a binding.
    serial: u32,
    /// The function's const generic parameters.
    generics: Vec<String>,
    /// The function's type parameters (none is a struct of the user's).
    type_params: Vec<String>,
    /// Whether a call's arguments are being read: there an `f64` parameter left out of `wrt` is
    /// a constant like any other constant parameter (its value is an input of the IR elsewhere).
    call_args: bool,
    /// The function's names, and fresh ones for what the sugar introduces.
    names: sugar::Names,
    /// The type the value being lowered is bound to, when written (`let y: [f64; N] = ...`, the
    /// return type): what `from_fn` builds.
    expected: Option<crate::ir::Ty>,
    /// The type of each parameter, as written (for the constant arguments of calls).
    param_tys: HashMap<String, ConstTy>,
    /// The type of each struct parameter left out of `wrt`, without references (the receiver
    /// of a method whose value is read as a struct, see `structs/infer.rs`).
    param_structs: HashMap<String, syn::Type>,
    /// Whether the statement being lowered is a `let` of the body of a function returning a
    /// struct (not of a block inside it): one whose variable may be the function's value.
    top_let: bool,
    /// The variables that hold a `loop`'s value (`sugar::values`), for messages.
    loop_values: std::collections::HashSet<String>,
    /// The labels of the loops differentiated implicitly (`implicit('solve)`), and those found.
    implicit: Vec<Ident>,
    implicit_found: std::collections::HashSet<String>,
    /// The value of each call of a user's function, with the call's tokens: where to report a
    /// call whose result is used as an array or a tuple.
    calls: HashMap<Var, proc_macro2::TokenStream>,
    /// The function's scalar type.
    scalar: ScalarTy,
    /// The calls reported so (once each).
    reported_calls: std::collections::HashSet<Var>,
    /// The differentiated struct parameters.
    structs: Vec<structs::StructState>,
    /// Where the fields of a returned struct are (set by the body's value).
    record: Option<RecordOut>,
    /// The integer counters, by [`Binding::Counter`].
    counters: Vec<counter::Counter>,
    /// How many branches (`if` arms) are open here.
    branches: usize,
    /// What is known of the variables of the loops open here (for the closed forms of
    /// counters), innermost last.
    facts: Vec<counter::Fact<counter::Leaf>>,
}

/// Lowers `item`, recording every unsupported construct in `cx`.
pub fn lower(cx: &mut Ctxt, item: &ItemFn, args: &Args) -> Lowered {
    let mut lower = Lower {
        cx,
        b: Builder::literal(),
        env: HashMap::new(),
        slots: Vec::new(),
        versions: HashMap::new(),
        serial: 0,
        generics: Vec::new(),
        type_params: Vec::new(),
        call_args: false,
        names: sugar::Names::of(item),
        expected: None,
        param_tys: HashMap::new(),
        param_structs: HashMap::new(),
        top_let: false,
        loop_values: std::collections::HashSet::new(),
        implicit: args.implicit.clone(),
        implicit_found: std::collections::HashSet::new(),
        calls: HashMap::new(),
        reported_calls: std::collections::HashSet::new(),
        scalar: ScalarTy::default(),
        structs: Vec::new(),
        record: None,
        counters: Vec::new(),
        branches: 0,
        facts: Vec::new(),
    };
    // Arrays of structs read as structs of arrays (`ps[i].x` as `ps.x[i]`), then copies of
    // fields (`let w = m.w;`) read as the fields, before the fields are typed.
    let arrays = structs::arrays::differentiated(&item.sig, args);
    let block = structs::arrays::rewrite(lower.cx, &mut lower.names, &arrays, &item.block);
    let block = structs::inline_copies(&item.sig, &block);
    let (mut params, returns) = lower.signature(&item.sig, &block, args);
    let outputs = lower.body(&block, &returns);
    for p in &mut params {
        if let Some(s) = &mut p.strukt {
            let name = symbol::unraw(&p.ident);
            let state = lower.structs.iter().find(|st| st.name == name);
            s.fields = state.map(|st| st.fields.clone()).unwrap_or_default();
            s.whole = state.and_then(|st| st.whole);
        }
    }
    lower.implicit_labels_found();
    // Inputs made while the body was lowered (a struct passed whole) are the user's too.
    lower.b.func_mut().user_inputs = lower.b.func().inputs.len();
    let record = lower.record.take();
    let scalar = lower.scalar.clone();
    Lowered { func: lower.b.finish(outputs), params, output: returns.kind(), scalar, record }
}

impl Lower<'_> {
    /// The text of an IR type for messages, its scalars named as the function's scalar type.
    fn ty_text(&self, ty: &crate::ir::Ty) -> String {
        types::ty_text(ty, &self.scalar.text())
    }

    /// Binds `name` to `binding` from here to the end of the enclosing block.
    fn bind_name(&mut self, name: &str, binding: Binding) -> u32 {
        self.serial += 1;
        self.env.insert(name.to_owned(), Bound { serial: self.serial, binding });
        self.serial
    }

    /// Binds every name in `pat` to [`Binding::Poison`]: its definition was refused.
    fn poison(&mut self, pat: &syn::Pat) {
        match pat {
            syn::Pat::Ident(pi) => {
                self.bind_name(&crate::symbol::unraw(&pi.ident), Binding::Poison);
            }
            syn::Pat::Tuple(t) => t.elems.iter().for_each(|p| self.poison(p)),
            syn::Pat::Type(t) => self.poison(&t.pat),
            syn::Pat::Reference(r) => self.poison(&r.pat),
            syn::Pat::Paren(p) => self.poison(&p.pat),
            _ => {}
        }
    }

    /// What `name` refers to, if it is bound.
    fn lookup(&self, name: &str) -> Option<&Binding> {
        self.env.get(name).map(|b| &b.binding)
    }

    /// A new user variable `name` holding `value`; names `value` if it is a temporary defined
    /// from variable `since` on (by the `let`'s own expression).
    fn declare(&mut self, name: &str, value: Option<Operand>, aliases: Aliases, since: usize) {
        if let Some(v) = value {
            self.name_value(name, v, since);
        }
        let Aliases { alias, int_alias, ty } = aliases;
        let field_depths = Rc::default();
        self.slots.push(Slot {
            name: name.to_owned(),
            value,
            alias,
            int_alias,
            ty,
            strukt: None,
            field_depths,
        });
        self.bind_name(name, Binding::Slot(self.slots.len() - 1));
    }

    /// Gives `value` the next version of `name` if it is a temporary (computed by a statement,
    /// a load, an array literal or a region) defined from variable `since` on: a value computed
    /// earlier (a load shared with an earlier expression) keeps its name.
    fn name_value(&mut self, name: &str, value: Operand, since: usize) {
        let Some(v) = value.var() else { return };
        if v.index() < since || !self.b.func().name(v).is_temp() {
            return;
        }
        let version = self.versions.entry(name.to_owned()).or_insert(0);
        self.b.rename(v, Name::version(name, *version));
        *version += 1;
    }

    /// The number of variables so far: values defined from here on are at least this.
    fn mark(&self) -> usize {
        self.b.func().names.len()
    }

    /// The next version of the user's name `name`, for a value defined by a region or a store.
    fn next_name(&mut self, name: &str) -> Name {
        let version = self.versions.entry(name.to_owned()).or_insert(0);
        let n = Name::version(name, *version);
        *version += 1;
        n
    }

    /// Runs `f` in a nested scope: the names it binds are forgotten afterwards (assignments to
    /// user variables declared outside are kept).
    fn scoped<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        let saved = self.env.clone();
        let r = f(self);
        self.env = saved;
        r
    }
}
