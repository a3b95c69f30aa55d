//! The pipeline, and the only place that knows its order:
//! args -> lower (syn to IR, with every error collected) -> sink -> reverse -> [forward] ->
//! codegen.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::Item;

use crate::args::{self, Args, Mode};
use crate::codegen::{Context, Kind};
use crate::ctxt::Ctxt;
use crate::ir::{Func, Scalar, has_while, verify};
use crate::lower::{self, Lowered, Output};
use crate::symbol;
use crate::transform::{
    Options, Seed, carry_elements, dead_code, first_touch, fission, forward, forward_stores, fuse,
    grad_calls, halves, has_vector_calls, hoist, hoist_storage, join_branches, keep_residuals,
    plan, promote, reverse, reverse_marked, select_outputs, sink, split_wraps, storage, total,
    widen,
};

/// Expands `#[grad(attr)] item`: the item unchanged, followed by the generated functions, or by
/// the errors found.
pub fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut cx = Ctxt::new();
    let args = args::parse(&mut cx, attr);
    let item_fn = match syn::parse2::<Item>(item.clone()) {
        Ok(Item::Fn(f)) => f,
        Ok(other) => {
            let (at, message) = not_a_function(&other);
            cx.error_spanned(at, message);
            return with_item(cx.into_compile_errors(), item);
        }
        Err(e) => return with_item(e.to_compile_error(), item),
    };
    let lowered = lower::lower(&mut cx, &item_fn, &args);
    if !cx.is_ok() {
        return with_item(cx.into_compile_errors(), item);
    }
    let vector = lowered.output != Output::Scalar;
    check_modes(&mut cx, &args, &item_fn, vector);
    check_sizes(&mut cx, &args, &lowered);
    if args.accumulate {
        check_accumulate(&mut cx, &args, &lowered);
    }
    if let Some(at) = args.span_of(symbol::OPT_INTO) {
        check_into(&mut cx, &args, &lowered, at, vector);
    }
    let problem = args
        .span_of(symbol::OPT_ARGMIN)
        .and_then(|at| lower::problem(&mut cx, &item_fn, &lowered, at).map(|p| (p, at)));
    if !cx.is_ok() {
        return with_item(cx.into_compile_errors(), item);
    }
    let budget = args.stack.unwrap_or(symbol::STACK_BUDGET);
    match derivatives(&lowered, &args, vector) {
        Ok(mut derived) => {
            if let Some(record) = &lowered.record {
                name_record_cotangents(&mut derived, record);
            }
            let fs = [Some(&derived.grad), derived.hvp.as_ref()];
            check_budget(&mut cx, &fs.into_iter().flatten().collect::<Vec<_>>(), budget);
            if !cx.is_ok() {
                return with_item(cx.into_compile_errors(), item);
            }
            let scalar = crate::codegen::scalar_tokens(&lowered.scalar);
            let record = lowered.record.as_ref();
            let mut cx = Context {
                item: &item_fn,
                params: &lowered.params,
                budget,
                scalar,
                record,
                inline_vjp: false,
                into: false,
            };
            // A Jacobian by rows in one pass: `f_vjp` widened to every row's cotangent.
            let wide = match one_pass(&cx, &lowered.func, &args, &derived) {
                Ok(w) => w,
                Err(Failure::Internal(internal)) => return internal_error(&internal, item),
            };
            let few_rows = args.jacobian.is_some_and(|m| cx.by_few_rows(&lowered.func, m));
            cx.inline_vjp = vector && few_rows && wide.is_none();
            // `f` is annotated for its derivatives: using only them is using it. (rustc's
            // `dead_code` lint does not report the generated functions, whose spans come from
            // the macro, so an annotated function that nothing uses goes unreported.)
            let mut out = quiet_unless_user_says(&item_fn, item);
            // The labels `implicit(...)` names are read by the macro, not by a `break`.
            if !args.implicit.is_empty() {
                out = quote!(#[allow(unused_labels)] #out);
            }
            let kind = if vector { Kind::Vjp } else { Kind::Grad };
            // With loops whose storage only rustc can size, rustc chooses between the stored
            // sweep and the checkpointed one; with loops of run-time length stored up to a
            // capacity, their lengths choose, when the function starts.
            let other = derived.checkpointed.as_deref();
            let stored = derived.stored(|d| Some(&d.grad));
            // `f_grad_into` (`into`): the same sweeps, the arrays' gradients written into the
            // caller's arrays.
            let into = args.into.then(|| Context { scalar: cx.scalar.clone(), into: true, ..cx });
            for cx in std::iter::once(&cx).chain(&into) {
                out.extend(match other.filter(|_| !stored.is_empty()) {
                    Some(c) => cx.derivative_choice(kind, &stored, &c.grad),
                    None => cx.derivative(kind, &derived.grad),
                });
            }
            if let Some(jvp) = &derived.jvp {
                out.extend(cx.derivative(Kind::Jvp, jvp));
            }
            // A caller's gradient calls `f_fwd` and `f_rev` (not of a function with a slice
            // parameter, whose `f_vjp` writes into buffers that a call does not pass).
            if vector && !cx.has_slices(&lowered.func) {
                out.extend(match &derived.halves {
                    Some((fwd, rev, r))
                        if cx.splits(&lowered.func)
                            && !unsized_storage(fwd)
                            && !unsized_storage(rev) =>
                    {
                        cx.split(fwd, rev, *r)
                    }
                    _ => cx.unsplit(&lowered.func),
                });
            }
            if let Some(hvp) = &derived.hvp {
                let kind = if vector { Kind::VectorHvp } else { Kind::Hvp };
                let stored = derived.stored(|d| d.hvp.as_ref());
                let other = other.and_then(|c| c.hvp.as_ref()).filter(|_| !stored.is_empty());
                out.extend(match other {
                    Some(c) => cx.derivative_choice(kind, &stored, c),
                    None => cx.derivative(kind, hvp),
                });
            }
            if args.hessian {
                out.extend(cx.hessian(&lowered.func));
            }
            if let Some((kind, _, w)) = &wide {
                out.extend(cx.derivative(*kind, w));
            }
            if let Some(mode) = args.jacobian {
                out.extend(cx.jacobian(&lowered.func, mode, wide.as_ref().map(|(_, k, _)| *k)));
            }
            out.extend(cx.shape());
            out.extend(cx.value_alias());
            if let Some((problem, at)) = &problem {
                out.extend(crate::codegen::problem(&item_fn, problem, args.hessian, *at));
            }
            // Stand-ins for what a caller of `f` could need and is not generated.
            if vector {
                out.extend(cx.stand_in(Kind::Grad, &lowered.func));
                if derived.jvp.is_none() {
                    out.extend(cx.stand_in(Kind::Jvp, &lowered.func));
                }
                if derived.hvp.is_none() {
                    // `f_hvp(params…, out_bar, directions…, out_bar_dot)`.
                    out.extend(cx.stand_in(Kind::VectorHvp, &lowered.func));
                }
            } else {
                if !args.jvp {
                    out.extend(cx.stand_in(Kind::Jvp, &lowered.func));
                }
                if !(args.hvp || args.hessian) {
                    out.extend(cx.stand_in(Kind::Hvp, &lowered.func));
                }
            }
            out
        }
        Err(Failure::Internal(internal)) => internal_error(&internal, item),
    }
}

fn internal_error(internal: &str, item: TokenStream) -> TokenStream {
    let message = format!(
        "internal error in `{}`: {internal}; please report this with the function that caused it",
        symbol::ATTR
    );
    with_item(quote!(::core::compile_error!(#message);), item)
}

/// The kernel of a Jacobian in one pass, with its number of rows or columns (`transform/widen.rs`):
/// by rows, the VJP `f_vjp` widened to take every row's cotangent at once (`f_vjp_rows`); by
/// columns, the JVP `f_jvp` widened to every unit direction (`f_jvp_cols`). None for more rows
/// or columns than [`crate::codegen::wrappers::WIDE_LANES`] or a number the macro does not
/// know, when asked row by row or column by column (the hidden `jacobian(row_by_row)`,
/// `jacobian(column_by_column)`), with a `while` loop, when
/// `f_vjp` chooses among stored and checkpointed sweeps when it runs, or when control depends
/// on the seeds.
fn one_pass(
    cx: &Context,
    f: &Func,
    args: &Args,
    derived: &Derived,
) -> Result<Option<(Kind, usize, Func)>, Failure> {
    let Some(mode) = args.jacobian.filter(|_| !args.one_by_one) else { return Ok(None) };
    let Some((mode, k)) = cx.one_pass(f, mode) else { return Ok(None) };
    if derived.checkpointed.is_some() || !derived.tiers.is_empty() || has_while(&f.body) {
        return Ok(None);
    }
    let (kind, kernel, values) = match (mode, &derived.jvp) {
        (Mode::Forward, Some(jvp)) => (Kind::Cols(k), jvp, jvp.outputs.len() / 2),
        (Mode::Forward, None) => return Ok(None),
        _ => {
            let grad = &derived.grad;
            (Kind::Rows(k), grad, grad.outputs.len() - grad.active.len())
        }
    };
    match widen(kernel, values, k) {
        Some(w) => Ok(Some((kind, k, checked(w, "widening a kernel of the Jacobian")?))),
        None => Ok(None),
    }
}

/// `item` with `#[allow(dead_code)]`, unless its own attributes already name that lint (an
/// `#[expect(dead_code)]` must stay fulfilled).
fn quiet_unless_user_says(item_fn: &syn::ItemFn, item: TokenStream) -> TokenStream {
    let names_it = |a: &syn::Attribute| a.meta.to_token_stream().to_string().contains("dead_code");
    match item_fn.attrs.iter().any(names_it) {
        true => item,
        false => quote!(#[allow(dead_code)] #item),
    }
}

/// Refuses the generated functions when the stored values of one, known in size, exceed the
/// budget: one error, at the biggest part of the function that needs most, with that need (sizes
/// the macro cannot read are checked by rustc, in the generated code).
fn check_budget(cx: &mut Ctxt, fs: &[&Func], budget: u64) {
    let needs = fs.iter().map(|f| {
        let parts = storage(f);
        let bytes = total(&parts).value;
        (bytes, parts)
    });
    let Some((Some(bytes), parts)) = needs.max_by_key(|(b, _)| b.unwrap_or(0)) else { return };
    if bytes <= budget {
        return;
    }
    let Some(biggest) = parts.iter().max_by_key(|p| p.bytes.value.unwrap_or(u64::MAX)) else {
        return;
    };
    let part = biggest.bytes.value.unwrap_or(bytes);
    cx.error_at(
        biggest.span,
        format!("the reverse sweeps of this function need {bytes} bytes of stack for what they store ({part} for this loop), over `#[grad]`'s budget of {budget} bytes; take fewer snapshots with `#[grad(checkpoint(s = N))]`, or raise the budget with `#[grad(stack = {bytes})]` (the thread must have that much stack to spare)"),
    );
}

/// The modes that need a scalar function, or a vector one, refused on the other kind.
fn check_modes(cx: &mut Ctxt, args: &Args, item: &syn::ItemFn, vector: bool) {
    let at = |name: &str| args.span_of(name).unwrap_or_else(|| item.sig.ident.span());
    if vector {
        let name = symbol::OPT_HESSIAN;
        if args.span_of(name).is_some() {
            cx.error_at(
                at(name),
                format!("`{name}` needs a function returning one `f64`: the second derivatives of a function with several outputs form a tensor, not a matrix; use `jacobian` (or `jvp`), `hvp` (the forward mode of its VJP, which callers use), or differentiate a scalar function of the outputs"),
            );
        }
    } else if args.jacobian.is_some() {
        cx.error_at(
            at(symbol::OPT_JACOBIAN),
            "`jacobian` is for functions returning an array or a tuple of `f64`; the Jacobian of a function returning one `f64` is its gradient, which `f_grad` gives",
        );
    }
}

/// Refuses `hessian` and `jacobian` for a function with a differentiated slice: their results are
/// arrays sized by the number of differentiated scalars, which is then known only at run time.
fn check_sizes(cx: &mut Ctxt, args: &Args, lowered: &Lowered) {
    let f = &lowered.func;
    let Some(slice) = lowered
        .params
        .iter()
        .find(|p| p.input.is_some_and(|v| f.active.contains(&v) && f.ty(v).run_time_length()))
    else {
        return;
    };
    for name in [symbol::OPT_HESSIAN, symbol::OPT_JACOBIAN] {
        if let Some(at) = args.span_of(name) {
            let x = &slice.ident;
            cx.error_at(
                at,
                format!("`{name}` needs the number of differentiated scalars at compile time, and the length of the slice `{x}` is known only at run time; use `hvp` (H·v into a buffer of `{x}`'s length) or `jvp`"),
            );
        }
    }
}

/// Refuses `accumulate` on a function with no differentiated slice: its derivatives are returned,
/// and there is no buffer to add into.
fn check_accumulate(cx: &mut Ctxt, args: &Args, lowered: &Lowered) {
    let f = &lowered.func;
    if f.active.iter().any(|v| f.ty(*v).run_time_length()) {
        return;
    }
    let name = symbol::OPT_ACCUMULATE;
    if let Some(at) = args.span_of(name) {
        cx.error_at(
            at,
            format!("`{name}` adds the derivatives of differentiated slices into the caller's buffers, and this function differentiates no slice: its derivatives are returned; remove `{name}`, or take the parameter as `&[f64]`"),
        );
    }
}

/// Refuses `into` where `f_grad_into` would not read naturally: on a function with several
/// outputs (its `f_vjp` takes a cotangent), with `accumulate` (the arrays are overwritten), and
/// unless every differentiated parameter is an array or a slice, one at least an array (a
/// scalar's derivative has no buffer to go to; slices alone are already written into buffers by
/// `f_grad`).
fn check_into(cx: &mut Ctxt, args: &Args, lowered: &Lowered, at: proc_macro2::Span, vector: bool) {
    let name = symbol::OPT_INTO;
    let f = &lowered.func;
    if vector {
        let message = format!(
            "`{name}` writes the gradient of a function returning one `f64` into the caller's arrays; this function has several outputs, whose `f_vjp` takes a cotangent and returns the cotangents; remove `{name}`"
        );
        return cx.error_at(at, message);
    }
    if args.accumulate {
        let message = format!(
            "`{name}` overwrites the caller's arrays, and `accumulate` adds into them; keep one of the two"
        );
        return cx.error_at(at, message);
    }
    let array = |v: &crate::ir::Var| matches!(f.ty(*v), crate::ir::Ty::Array(_));
    let plain = |v: &crate::ir::Var| {
        lowered.params.iter().any(|p| p.input == Some(*v) && p.strukt.is_none())
    };
    let other = f.active.iter().find(|v| !(array(v) && plain(v)));
    let known = f.active.iter().any(|v| !f.ty(*v).run_time_length());
    match (other, known) {
        (Some(v), _) => {
            let x = lowered.params.iter().find(|p| p.input == Some(*v) || p.strukt.as_ref().is_some_and(|s| s.fields.iter().any(|x| x.input == *v)));
            let what = x.map_or_else(|| "a differentiated parameter".to_owned(), |p| format!("the parameter `{}`", p.ident));
            cx.error_at(at, format!("`{name}` writes the gradient into one `&mut [f64; N]` per differentiated parameter, and {what} is not an array or a slice; differentiate only arrays (`wrt(...)`), or remove `{name}` and use `f_grad`"));
        }
        (None, false) => cx.error_at(at, format!("`{name}` writes the gradients of arrays `[f64; N]` into the caller's arrays, and this function differentiates only slices, whose gradients `f_grad` already writes into buffers; remove `{name}`")),
        (None, true) => {}
    }
}

/// Names the cotangent inputs of a function returning a struct after its fields, in each
/// variant of its derivatives.
fn name_record_cotangents(derived: &mut Derived, record: &lower::RecordOut) {
    crate::codegen::records::name_cotangents(&mut derived.grad, record);
    if let Some(hvp) = &mut derived.hvp {
        crate::codegen::records::name_hvp_cotangents(hvp, record);
    }
    if let Some(other) = &mut derived.checkpointed {
        name_record_cotangents(other, record);
    }
    for tier in &mut derived.tiers {
        name_record_cotangents(tier, record);
    }
}

/// Why the transforms did not run.
pub enum Failure {
    /// A bug in the macro.
    Internal(String),
}

/// The transformed functions, each already cleaned up.
pub struct Derived {
    /// Value and gradient (or cotangents, for a vector function): `reverse(f)`.
    pub grad: Func,
    /// Value and directional derivative: `forward(f)`.
    pub jvp: Option<Func>,
    /// Value, gradient and H·v: `forward(reverse(f))`.
    pub hvp: Option<Func>,
    /// For a vector function: its VJP split into `f_fwd` and `f_rev`, with the number of
    /// residuals that the first returns and the second takes.
    pub halves: Option<(Func, Func, usize)>,
    /// When `grad` (or `hvp`) stores values in arrays whose size only rustc knows (the trip
    /// count of a `const` item or a const generic), or of a capacity that a run-time trip count
    /// may exceed: the same with those loops checkpointed, for the generated code to choose from
    /// by that size, or by those lengths when it starts.
    pub checkpointed: Option<Box<Derived>>,
    /// With loops of run-time length: the same planned with their storage's capacity at most
    /// each of [`symbol::CAPACITY_TIERS`] in turn, those that differ from the others and from
    /// this one (smallest first), for the generated code to choose from by those lengths.
    pub tiers: Vec<Derived>,
}

impl Derived {
    /// The variants of the derivative `part` picks (`grad` or `hvp`) that store what only
    /// rustc or the run-time lengths can check against the budget, in the order the generated
    /// function tries them: the tiers, smallest first, then this one. Empty when `part` stores
    /// only what the macro checked.
    pub fn stored<'a>(&'a self, part: impl Fn(&'a Derived) -> Option<&'a Func>) -> Vec<&'a Func> {
        let mut out: Vec<&Func> = self.tiers.iter().filter_map(&part).collect();
        out.extend(part(self).filter(|f| unsized_storage(f)));
        out
    }
}

/// Runs the transforms that `args` asks for, verifying the IR after each; with the variant
/// whose loops of unknown storage size are checkpointed, when there are such loops and
/// `checkpoint` does not already checkpoint every loop.
pub fn derivatives(lowered: &Lowered, args: &Args, vector: bool) -> Result<Derived, Failure> {
    let mut derived = derive(lowered, args, vector, false, None)?;
    if args.checkpoint.is_none() && crate::transform::has_run_time_loop(&lowered.func.body) {
        derived.tiers = tiers(lowered, args, vector, &derived)?;
    }
    let fs = [Some(&derived.grad), derived.hvp.as_ref()];
    let choose = fs.into_iter().flatten().any(unsized_storage) || !derived.tiers.is_empty();
    if choose && args.checkpoint.is_none() {
        let checkpointed = derive(lowered, args, vector, true, None)?;
        derived.checkpointed = Some(Box::new(checkpointed));
    }
    Ok(derived)
}

/// The variants of `widest` (planned with the capacity the budget holds) whose loops of
/// run-time length have the capacities of [`symbol::CAPACITY_TIERS`] (or less), smallest first:
/// each different from the one before and from `widest`. A tier is planned while the budget
/// could hold it (`symbol::LEAST_ITERATION_BYTES` an iteration) and `widest` holds more.
fn tiers(
    lowered: &Lowered,
    args: &Args,
    vector: bool,
    widest: &Derived,
) -> Result<Vec<Derived>, Failure> {
    let budget = plan_budget(args);
    let most = crate::transform::capacities(&widest.grad);
    let mut out: Vec<Derived> = Vec::new();
    for tier in symbol::CAPACITY_TIERS {
        let covered = !most.is_empty() && most.iter().all(|(_, cap)| *cap <= tier);
        if covered || tier.saturating_mul(symbol::LEAST_ITERATION_BYTES) > budget {
            break;
        }
        let d = derive(lowered, args, vector, false, Some(tier))?;
        let caps = crate::transform::capacities(&d.grad);
        let seen = out.last().map(|p| crate::transform::capacities(&p.grad));
        let same = |a: &[(crate::ir::Int, u64)], b: &[(crate::ir::Int, u64)]| {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.0.key() == y.0.key() && x.1 == y.1)
        };
        if caps.is_empty() || same(&caps, &most) || seen.is_some_and(|s| same(&caps, &s)) {
            continue;
        }
        out.push(d);
    }
    Ok(out)
}

/// The stack budget the plan gets: `stack = ...` or the default, half of it with `hvp` (forward
/// mode over the sweep doubles what it stores).
fn plan_budget(args: &Args) -> u64 {
    let budget = args.stack.unwrap_or(symbol::STACK_BUDGET);
    if args.hvp || args.hessian { budget / 2 } else { budget }
}

/// Whether `f` stores values in arrays whose size the macro cannot read, or in arrays of a
/// capacity that a loop's run-time length may exceed: then it has a variant with those loops
/// checkpointed, for the generated code to choose.
pub fn unsized_storage(f: &Func) -> bool {
    storage(f).iter().any(|part| part.bytes.value.is_none() && part.stored)
        || !crate::transform::capacities(f).is_empty()
}

/// The transforms, with the loops whose storage the macro cannot size checkpointed if
/// `checkpoint_unsized`.
fn derive(
    lowered: &Lowered,
    args: &Args,
    vector: bool,
    checkpoint_unsized: bool,
    tier: Option<u64>,
) -> Result<Derived, Failure> {
    let lowered = Func { accumulate: args.accumulate, ..lowered.func.clone() };
    let lowered = checked(lowered, "lowering")?;
    // What only one side of a branch reads is computed in that side, for every mode: then the
    // sweep of another side never multiplies its zero adjoint by partials there (a NaN one would
    // poison the gradient).
    let primal = checked(sink(&lowered), "sinking into branches")?;
    // Forward mode over the sweep doubles what it stores (each stored value and each snapshot
    // gets its tangent): with `hvp` the plan must fit half the budget, so that the sweep of
    // `f_hvp` fits the whole.
    let second_order = args.hvp || args.hessian;
    let budget = plan_budget(args);
    let options = Options { budget, snapshots: args.checkpoint, checkpoint_unsized, tier };
    // The reverse sweep reads each call's partials from the forward pass: `g_grad` there, and
    // a vector callee's residuals, `g_fwd` there (not in a generic function, whose storage of
    // them would need the scalar type to have a zero the runtime's `Residuals` knows).
    // A loop over a ring is split at its wrap-around, so that its sweep indexes affinely.
    let split = checked(split_wraps(&primal), "splitting at wrap-arounds")?;
    let split_calls = primal.scalar != Scalar::Generic;
    let fused = !args.unfused;
    let grad = swept(&split, (options, fused), vector, split_calls)?;
    // Forward mode over the sweep (H·v) calls vector callees through `g_vjp`: it knows no
    // `g_fwd`. (So do the halves of a vector function's own VJP: residuals are values of types
    // the generated code can write.)
    let plain = match split_calls && second_order && has_vector_calls(&primal) {
        true => swept(&split, (options, fused), vector, false)?,
        false => grad.clone(),
    };
    // (A loop of unknown length keeps its tape outside the IR's values: no split.)
    let halves = match vector && !checkpoint_unsized && !has_while(&split.body) {
        true => Some(split_halves(&split, (options, fused))?),
        false => None,
    };
    // A caller's H·v runs a vector callee's `f_jvp` in its forward pass and its `f_hvp` in its
    // sweep: `hvp` on a vector function gives both.
    let jvp = match args.jvp || args.jacobian.is_some() || (vector && args.hvp) {
        true => Some(checked(hoist(&dead_code(&forward(&primal))), "the forward transform")?),
        false => None,
    };
    let hvp = match args.hvp || args.hessian {
        true if vector => Some(vector_hvp(&plain)?),
        true => {
            let n = primal.active.len();
            let tangent = checked(forward(&plain), "the forward transform of the gradient")?;
            // forward(grad) returns [value, gradient, value_dot, gradient_dot]; H·v is gradient_dot.
            let wanted: Vec<usize> = (0..=n).chain(n + 2..=2 * n + 1).collect();
            Some(checked(hoist(&dead_code(&select_outputs(&tangent, &wanted))), "hoisting")?)
        }
        false => None,
    };
    // Last, on the gradient as it is emitted: the load before a guarded loop stays a load (the
    // cleanup would fold a zeroed buffer's element into its zero), and H·v stays the forward
    // mode of the plain sweep, which is faster uncarried (BENCHMARKS.md, "Number types": the
    // array Rosenbrock's H·v at n = 100, 0.95 × the hand-written one plain, 1.14 carried).
    let grad = carried(grad)?;
    Ok(Derived { grad, jvp, hvp, halves, checkpointed: None, tiers: Vec::new() })
}

/// `reverse(f)` cleaned up (its loops fused when `fused`), with the calls' partials from the
/// forward pass (and, with `split_calls`, vector callees run as `g_fwd` there and `g_rev` in
/// the sweep).
fn swept(
    f: &Func,
    (options, fused): (Options, bool),
    vector: bool,
    split_calls: bool,
) -> Result<Func, Failure> {
    let with_partials = checked(grad_calls(f, split_calls), "the calls' partials")?;
    // The plan sees what the forward pass computes: a load of an element just stored is the
    // stored value (the sweep then needs no copy of it).
    let with_partials = checked(forward_stores(&with_partials), "store-to-load forwarding")?;
    let plans = plan(&with_partials, options);
    let seed = if vector { Seed::Inputs } else { Seed::One };
    let grad = checked(reverse(&with_partials, &plans, seed), "the reverse transform")?;
    cleaned(grad, fused)
}

/// The cleanup passes after the reverse transform, loop fusion among them when `fused` (not
/// under the hidden option `__unfused`, for tests that compare the two forms).
fn cleaned(grad: Func, fused: bool) -> Result<Func, Failure> {
    // Dead code goes first: fusion must not depend on what the sweep recomputed and then did not
    // use, which a checkpointed sweep and a stored one differ in (their gradients are the same
    // to the bit only if their loops fuse alike).
    let grad = dead_code(&grad);
    let grad = match fused {
        true => checked(dead_code(&fuse(&grad)), "loop fusion")?,
        false => grad,
    };
    let grad = checked(first_touch(&grad), "first-touch assignment")?;
    // Joined, a branch's results that only the other branch read (what a forward branch
    // carries out for its sweep, see `transform/reverse/replay.rs`) are read by nothing.
    let grad = checked(dead_code(&join_branches(&grad)), "branch joining")?;
    let grad = checked(promote(&grad), "scalar promotion")?;
    let grad = checked(hoist_storage(&grad), "storage made once")?;
    checked(hoist(&grad), "loop-invariant code motion")
}

/// The VJP of the vector function `f` split at the end of its forward pass into `f_fwd` and
/// `f_rev` (see `transform/split.rs`), each cleaned up; with the number of residuals.
fn split_halves(
    f: &Func,
    (options, fused): (Options, bool),
) -> Result<(Func, Func, usize), Failure> {
    let with_partials = checked(grad_calls(f, false), "the calls' partials")?;
    let with_partials = checked(forward_stores(&with_partials), "store-to-load forwarding")?;
    let plans = plan(&with_partials, options);
    let (vjp, at) = reverse_marked(&with_partials, &plans, Seed::Inputs);
    let vjp = checked(vjp, "the reverse transform")?;
    let values = vjp.outputs.len() - vjp.active.len();
    let mut h = halves(&vjp, at);
    let mut rev = cleaned(checked(h.rev.clone(), "the reverse half")?, fused)?;
    let r = keep_residuals(&mut h, &mut rev, values);
    let fwd = cleaned(checked(h.fwd, "the forward half")?, fused)?;
    Ok((fwd, checked(rev, "the reverse half")?, r))
}

/// The forward mode of a vector function's VJP, `forward(vjp(f))`, with the cotangent inputs
/// differentiated too: `f_hvp(params…, out_bar, directions…, out_bar_dot)` returns the value,
/// the cotangents, and the derivative of each along the directions. A caller's H·v runs it for
/// the sweep of a call of `f`.
fn vector_hvp(vjp: &Func) -> Result<Func, Failure> {
    let mut with_bars = vjp.clone();
    with_bars.active.extend(vjp.inputs[vjp.user_inputs..].iter().copied());
    let mut tangent = checked(forward(&with_bars), "the forward transform of the VJP")?;
    tangent.active = vjp.active.clone();
    checked(hoist(&dead_code(&tangent)), "hoisting")
}

/// `f` with the elements its loops store for the next iteration carried as scalars, then its
/// loops that carry a sum and an independent array update split when long.
fn carried(f: Func) -> Result<Func, Failure> {
    let f = checked(carry_elements(&f), "carried elements")?;
    // A sum and an array's updates in one loop become two loops when it is long.
    checked(fission(&f), "loop fission")
}

fn checked(f: Func, pass: &str) -> Result<Func, Failure> {
    verify(&f).map_err(|e| Failure::Internal(format!("{pass} produced invalid IR ({e})")))?;
    Ok(f)
}

fn with_item(errors: TokenStream, item: TokenStream) -> TokenStream {
    quote!(#errors #item)
}

/// Where to report, and what, for an item that is not a function with a body.
fn not_a_function(item: &Item) -> (TokenStream, String) {
    // `fn f(x: f64) -> f64;`, a declaration in a trait, reaches here as verbatim tokens.
    if let Item::Verbatim(tokens) = item
        && let Ok(decl) = syn::parse2::<syn::TraitItemFn>(tokens.clone())
    {
        let message = "needs the function's body: the derivatives are generated from it";
        return (decl.sig.into_token_stream(), format!("`{}` {message}", symbol::ATTR));
    }
    let at = item_kind_token(item).unwrap_or_else(|| quote!(#item));
    (at, format!("`{}` applies only to functions", symbol::ATTR))
}

/// The keyword and name of a non-function item (`struct Point`, ...), to point the error at.
fn item_kind_token(item: &Item) -> Option<TokenStream> {
    let (keyword, name): (&dyn ToTokens, &dyn ToTokens) = match item {
        Item::Struct(s) => (&s.struct_token, &s.ident),
        Item::Enum(e) => (&e.enum_token, &e.ident),
        Item::Const(c) => (&c.const_token, &c.ident),
        Item::Static(s) => (&s.static_token, &s.ident),
        Item::Trait(t) => (&t.trait_token, &t.ident),
        Item::Mod(m) => (&m.mod_token, &m.ident),
        Item::Type(t) => (&t.type_token, &t.ident),
        Item::Impl(i) => (&i.impl_token, &i.self_ty),
        _ => return None,
    };
    Some(quote!(#keyword #name))
}
