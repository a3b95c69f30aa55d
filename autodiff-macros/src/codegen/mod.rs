//! Codegen: IR to tokens. The only place that makes tokens; it cannot fail.

mod argmin;
mod attrs;
mod body;
mod buffers;
pub mod call;
mod checkpoints;
mod choice;
mod expr;
mod indices;
mod layout;
mod names;
mod reads;
pub mod records;
mod scalar;
mod shape;
mod signature;
mod split;
mod structs;
mod wrappers;

use std::collections::{HashMap, HashSet};

use proc_macro2::{Ident, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::ItemFn;

use crate::args::Mode;
use crate::ir::{Func, Int, Ty};
use crate::lower::Param;
use crate::symbol;
use names::Namer;

pub use argmin::problem;

/// The scalar type of a lowered function, as the generated code writes it.
pub fn scalar_tokens(s: &crate::lower::ScalarTy) -> scalar::Tokens {
    scalar::Tokens::of(s)
}

/// Which derivative function is being emitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `f_grad`: value and gradient.
    Grad,
    /// `f_jvp`: value and directional derivative.
    Jvp,
    /// `f_hvp`: value, gradient and Hessian-vector product.
    Hvp,
    /// `f_vjp`: value and the cotangents of the parameters, for a vector function.
    Vjp,
    /// `f_hvp` of a vector function: the forward mode of `f_vjp`, along directions of the
    /// parameters and of the cotangent.
    VectorHvp,
    /// `f_fwd`: the forward half of `f_vjp`, returning the value and this many residuals.
    Fwd(usize),
    /// `f_rev`: the reverse half of `f_vjp`, taking this many residuals and the cotangent.
    Rev(usize),
    /// `f_vjp_rows`: `f_vjp` over this many unit cotangents at once (vector mode, one forward
    /// pass and one sweep carrying them all), the kernel of a Jacobian by rows; it takes no
    /// cotangent.
    Rows(usize),
    /// `f_jvp_cols`: `f_jvp` along this many unit directions at once (vector mode, one forward
    /// sweep carrying them all), the kernel of a Jacobian by columns; it takes no direction.
    Cols(usize),
}

impl Kind {
    fn suffix(self) -> &'static str {
        match self {
            Kind::Grad => symbol::FN_GRAD,
            Kind::Jvp => symbol::FN_JVP,
            Kind::Hvp | Kind::VectorHvp => symbol::FN_HVP,
            Kind::Vjp => symbol::FN_VJP,
            Kind::Fwd(_) => symbol::FN_FWD,
            Kind::Rev(_) => symbol::FN_REV,
            Kind::Rows(_) => symbol::FN_VJP_ROWS,
            Kind::Cols(_) => symbol::FN_JVP_COLS,
        }
    }

    /// Sizes of the output groups, for `values` outputs of the function and `n` differentiated
    /// parameters.
    fn groups(self, values: usize, n: usize) -> Vec<usize> {
        match self {
            Kind::Grad | Kind::Vjp => vec![values, n],
            Kind::Jvp => vec![values, values],
            Kind::Hvp => vec![1, n, n],
            Kind::VectorHvp => vec![values, n, values, n],
            Kind::Fwd(r) => vec![values, r],
            Kind::Rev(_) => vec![0, n],
            Kind::Rows(m) => std::iter::once(values).chain(std::iter::repeat_n(n, m)).collect(),
            Kind::Cols(n) => std::iter::repeat_n(values, n + 1).collect(),
        }
    }

    /// For each output, the differentiated parameter (its position among them) whose derivative
    /// it is, `None` for a value or a value's tangent.
    fn owners(self, values: usize, n: usize) -> Vec<Option<usize>> {
        let derivative = |g: usize| match self {
            Kind::Grad | Kind::Vjp | Kind::Rev(_) | Kind::Rows(_) => g > 0,
            Kind::Jvp | Kind::Fwd(_) | Kind::Cols(_) => false,
            Kind::Hvp => g == 1 || g == 2,
            Kind::VectorHvp => g == 1 || g == 3,
        };
        let groups = self.groups(values, n);
        let mut owners = Vec::new();
        for (g, size) in groups.iter().enumerate() {
            owners.extend((0..*size).map(|k| derivative(g).then_some(k)));
        }
        owners
    }

    /// How many outputs of the transformed function are derivatives (the rest are values).
    fn derived_outputs(self, f: &Func) -> usize {
        let n = f.active.len();
        match self {
            Kind::Grad | Kind::Vjp => n,
            Kind::Jvp => f.outputs.len() / 2,
            Kind::Hvp => 2 * n,
            // `[values, cotangents, values_dot, cotangents_dot]`.
            Kind::VectorHvp => (f.outputs.len() + 2 * n) / 2,
            Kind::Fwd(r) => r,
            Kind::Rev(_) => n,
            Kind::Rows(m) => m * n,
            // `[values, values_dot of each column…]`.
            Kind::Cols(n) => f.outputs.len() - f.outputs.len() / (n + 1),
        }
    }
}

/// The body of a derivative function, rendered, and what its signature needs.
#[derive(Default)]
struct Rendered {
    /// Its statements, the last one its value.
    stmts: Vec<TokenStream>,
    /// Its return type.
    ret: TokenStream,
    /// The user's parameters it reads.
    used: HashSet<String>,
    /// The parameters a transform added (directions, cotangents), with their types...
    extra: Vec<(TokenStream, TokenStream)>,
    /// ... and the names the doc comment gives as the directions.
    doc_names: Vec<Ident>,
    /// A paragraph of its doc comment per checkpointed loop (and one for buffers).
    notes: Vec<String>,
    /// The checks of the buffers' and the slice directions' lengths, at entry.
    checks: TokenStream,
    /// The user's parameters it names apart (from a function its body calls by the same name).
    renamed: HashMap<String, Ident>,
}

/// What distinguishes one generated function's signature.
struct Piece<'a> {
    /// `grad`, `jvp`, ...
    suffix: &'a str,
    /// Its doc comment.
    doc: &'a str,
    /// The user's parameters its body reads.
    used: &'a HashSet<String>,
    /// The parameters it adds (directions, cotangents): patterns with their types.
    extra: &'a [(TokenStream, TokenStream)],
    /// Whether its body has loops over arrays (a sweep), which clippy's
    /// `needless_range_loop` would object to.
    sweeps: bool,
    /// Whether a loop's range may be empty for some values of the user's constants (the rest
    /// of a ring split at its wrap-around, `for i in 2..N` with `N` 2): clippy's
    /// `reversed_empty_ranges` would object where it knows the constant.
    may_be_empty: bool,
    /// Const generic parameters it adds to the user's (the sizes of a Hessian or a Jacobian
    /// that stable Rust cannot compute in a type).
    sizes: &'a [Ident],
    /// Whether it checks lengths at entry, whose panics belong to its caller.
    track_caller: bool,
    /// The user's parameters it names apart (from a function its body calls by the same name).
    renamed: &'a HashMap<String, Ident>,
}

/// What every generated function shares: the user's function and its parameters.
pub struct Context<'a> {
    /// The user's function.
    pub item: &'a ItemFn,
    /// Its parameters.
    pub params: &'a [Param],
    /// The stack budget for stored values, in bytes.
    pub budget: u64,
    /// The function's scalar type.
    pub scalar: scalar::Tokens,
    /// For a function returning a struct: where its fields are.
    pub record: Option<&'a crate::lower::RecordOut>,
    /// Whether `f_vjp` is always inlined: it is the kernel of a Jacobian written out row by row
    /// ([`Context::by_few_rows`]), whose rows then share what they compute once inlined.
    pub inline_vjp: bool,
    /// Whether `f_grad` is rendered as `f_grad_into`: the gradients of arrays written into the
    /// caller's arrays, as those of slices are, and the value returned (`#[grad(into)]`).
    pub into: bool,
}

impl Context<'_> {
    fn wrt_list(&self, f: &Func) -> String {
        let names: Vec<String> = self
            .components(f)
            .iter()
            .map(|c| match c {
                structs::Component::Input(k) => format!("`{}`", self.param_of(f.active[*k])),
                structs::Component::Struct(p, _) => format!("`{}`", p.ident),
            })
            .collect();
        names.join(", ")
    }

    fn param_of(&self, v: crate::ir::Var) -> &Ident {
        let p = self.params.iter().find(|p| p.input == Some(v));
        p.map_or(&self.item.sig.ident, |p| &p.ident)
    }

    /// The suffix of `f_<kind>`'s name: `grad_into` for the gradient into the caller's arrays.
    fn suffix(&self, kind: Kind) -> &'static str {
        match (kind, self.into) {
            (Kind::Grad, true) => symbol::FN_GRAD_INTO,
            _ => kind.suffix(),
        }
    }

    fn doc(&self, kind: Kind, f: &Func, extra: &[Ident]) -> String {
        let name = &self.item.sig.ident;
        let s = self.scalar.ty.to_string();
        let wrt = self.wrt_list(f);
        let dirs: Vec<String> = extra.iter().map(|d| format!("`{d}`")).collect();
        let dirs = dirs.join(", ");
        match kind {
            Kind::Grad if self.into => format!(
                " Value of `{name}`, with its gradient with respect to {wrt} written into the caller's arrays, from one\n forward pass and one reverse (adjoint) sweep.\n\n Generated by `#[grad(into)]`: returns the value; the gradient is that of `{name}_grad`, to the bit, written into\n one `&mut` array per differentiated parameter, after the parameters and in their order. Each is overwritten, not added into."
            ),
            Kind::Grad => format!(
                " Value and gradient of `{name}` with respect to {wrt}, from one\n forward pass and one reverse (adjoint) sweep.\n\n Generated by `#[grad]`: returns `(value, gradient)`, the gradient in parameter order (a bare `{s}` for one parameter)."
            ),
            Kind::Jvp => format!(
                " Value and directional derivative of `{name}` along ({dirs}), by forward (tangent) mode.\n\n Generated by `#[grad(jvp)]`: returns `(value, ∇{name}·v)`."
            ),
            Kind::Hvp => format!(
                " Value, gradient and Hessian-vector product H·v of `{name}` with respect to {wrt}, along ({dirs}).\n\n Generated by `#[grad(hvp)]` as forward mode over the reverse sweep; the Hessian is never formed. Returns `(value, gradient, H·v)`."
            ),
            Kind::VectorHvp => format!(
                " The forward mode of `{name}_vjp`: value, cotangents with respect to {wrt}, and the derivatives of both along\n the directions of the parameters and of the cotangent, ({dirs}).\n\n Generated by `#[grad(hvp)]` for a function with several outputs: returns `(value, cotangents, value_dot, cotangents_dot)`;\n a caller's H·v runs it for the sweep of a call of `{name}`."
            ),
            Kind::Vjp => format!(
                " Value of `{name}` and the vector-Jacobian product with the cotangent ({dirs}), with respect to {wrt},\n from one forward pass and one reverse (adjoint) sweep.\n\n Generated by `#[grad]` for a function with several outputs: returns `(value, cotangents)`, the cotangents in parameter order."
            ),
            Kind::Fwd(_) => format!(
                " The forward half of `{name}_vjp`: the value of `{name}` and the residuals that `{name}_rev` reads.\n\n Generated by `#[grad]` for a function with several outputs: a caller's gradient runs it in its forward pass,\n keeps the residuals, and passes them to `{name}_rev` in its sweep, so that `{name}` runs once per call."
            ),
            Kind::Cols(n) => format!(
                " Value of `{name}` and its derivatives along the {n} unit directions of {wrt}, from one forward sweep\n carrying the {n} tangents of every value (vector mode).\n\n Generated by `#[grad(jacobian)]` as the kernel of `{name}_jacobian`: returns `(value, value_dot…)`, one tangent\n per column, each what `{name}_jvp` returns along that unit direction, with no product by a direction's zeros computed."
            ),
            Kind::Rows(m) => format!(
                " Value of `{name}` and its vector-Jacobian products with the {m} unit cotangents, with respect to {wrt},\n from one forward pass and one reverse sweep carrying the {m} adjoints of every value (vector mode).\n\n Generated by `#[grad(jacobian)]` as the kernel of `{name}_jacobian`: returns `(value, cotangents…)`, one group of\n cotangents per row, each what `{name}_vjp` returns for that row's unit cotangent, with no product by its zeros computed."
            ),
            Kind::Rev(_) => format!(
                " The reverse half of `{name}_vjp`: the vector-Jacobian product with the cotangent ({dirs}), with respect to {wrt},\n from the residuals that `{name}_fwd` returned with the value.\n\n Generated by `#[grad]` for a function with several outputs: returns the cotangents in parameter order, as `{name}_vjp` does."
            ),
        }
    }

    /// The names the body of `f` reads among the user's parameters.
    fn used_params(&self, f: &Func) -> HashSet<String> {
        let mut read: HashSet<crate::ir::Var> = HashSet::new();
        let mut names = HashSet::new();
        reads::collect(f, &mut read, &mut names);
        let inputs = self.params.iter().filter(|p| p.input.is_some_and(|v| read.contains(&v)));
        names.extend(inputs.map(|p| symbol::unraw(&p.ident)));
        names
    }

    /// A derivative function `f_<kind>` with the body `f`.
    pub fn derivative(&self, kind: Kind, f: &Func) -> TokenStream {
        let mut namer = Namer::new(self.item.to_token_stream());
        let r = self.render(&mut namer, kind, f);
        let check = self.stack_check(f);
        let stmts = &r.stmts;
        let body = quote! {
            #check
            #(#stmts)*
        };
        let tail: String = r.notes.iter().map(|note| format!("\n\n{note}")).collect();
        self.assemble(&mut namer, kind, f, &r, &tail, body)
    }

    /// The statements of the derivative function `f_<kind>` with the body `f`, ending with its
    /// value, and what its signature needs.
    fn render(&self, namer: &mut Namer, kind: Kind, f: &Func) -> Rendered {
        let layout = layout::layout(f);
        let params: HashMap<_, _> =
            self.params.iter().filter_map(|p| Some((p.input?, p.ident.clone()))).collect();
        let mut read = HashSet::new();
        reads::collect(f, &mut read, &mut HashSet::new());
        // The struct directions are named before the body (as the scalar ones, inputs of `f`,
        // are first in `assign`): their names then depend on the user's identifiers alone, the
        // same in every body of one function (`stored` and `checkpointed`, bugs 31 and 32).
        names::claim_called(namer, f);
        // A struct parameter is no variable of `f` (its fields are), but the generated code reads
        // it after the body (`zero_like(&m)`): a local of the user's that shadows it is named
        // apart, as one shadowing a scalar parameter is.
        let structs = self.params.iter().filter(|p| p.strukt.is_some());
        structs.for_each(|p| namer.claim(&symbol::unraw(&p.ident)));
        let struct_dirs = self.struct_directions(kind, f, &read, namer, values_of(kind, f));
        let (idents, loops) = names::assign(namer, f, &params, &layout);
        let passed = self.params.iter().filter(|p| p.input.is_none()).map(|p| &p.ident);
        let constants = names::constants_apart(namer, f, passed);
        // The directions follow the cotangent of the value in a vector function's `f_hvp`.
        let values = values_of(kind, f);
        let dirs_at = match kind {
            Kind::Jvp | Kind::Hvp => Some(0),
            Kind::VectorHvp => Some(values),
            Kind::Grad
            | Kind::Vjp
            | Kind::Fwd(_)
            | Kind::Rev(_)
            | Kind::Rows(_)
            | Kind::Cols(_) => None,
        };
        let by_ref = self.by_ref(f, dirs_at);
        let result = namer.local(symbol::BRANCH_VALUE);
        let step = namer.local(symbol::STEP_COUNTER);
        let ident = signature::fn_ident(&self.item.sig.ident, self.suffix(kind));
        let raw: Vec<Ident> = f.inputs[f.user_inputs..]
            .iter()
            .map(|v| idents[v.index()].clone().unwrap_or_else(|| namer.local("_")))
            .collect();
        let site = buffers::Site {
            f,
            layout: &layout,
            idents: &idents,
            params: self.params,
            name: &ident,
            values,
            extra: &raw,
            dirs_at: dirs_at.unwrap_or(0),
            owners: kind.owners(values, f.active.len()),
            scalar: &self.scalar,
            arrays: self.into && kind == Kind::Grad,
        };
        let buffers = match buffers::buffers(&site) {
            Ok(b) => b,
            Err(e) => {
                let stmts = vec![internal(&e)];
                return Rendered { stmts, ret: quote!(()), ..Rendered::default() };
            }
        };
        let named = buffers.named(&idents);
        let mut renderer =
            body::Renderer::new(f, &layout, &named, &loops, &by_ref, &self.scalar, (result, step));
        renderer.buffers = Some(&buffers);
        renderer.tapes = names::tapes(namer, f);
        renderer.stop = namer.local(symbol::LOOP_EXIT);
        renderer.params = constants.clone();
        // A slice's direction is read by its length check, if by nothing else.
        let added = &f.inputs[f.user_inputs..];
        read.extend(buffers.checked_dirs.iter().filter_map(|j| added.get(*j).copied()));
        let (mut extra, mut names, dirs) =
            self.extra_params(kind, f, (&idents, &struct_dirs), &read, namer, values);
        renderer.wholes = self.wholes(f, &dirs, dirs_at.unwrap_or(0));
        let mut fields = self.field_reads(f, &idents, &read, &dirs, dirs_at.unwrap_or(0));
        // A returned struct's cotangent (and its tangent) is one parameter of the struct's type.
        let mut bar_names = values;
        if let Some(record) = self.record {
            let added = &f.inputs[f.user_inputs..];
            let ty = self.return_type();
            let bars = (f, &added[..values.min(added.len())], symbol::OUT_BAR);
            match kind {
                Kind::Vjp => {
                    let (out_bar, reads) =
                        self.record_cotangent(namer, bars, record, &idents, &read);
                    (extra, names) = (vec![(quote!(#out_bar), ty)], vec![out_bar]);
                    fields.extend(reads);
                }
                Kind::VectorHvp if extra.len() >= 2 => {
                    let from = (values + f.active.len()).min(added.len());
                    let dot_name = format!("{}_{}", symbol::OUT_BAR, symbol::SUFFIX_DOT);
                    let dots = (f, &added[from..], dot_name.as_str());
                    let (out_bar, reads) =
                        self.record_cotangent(namer, bars, record, &idents, &read);
                    let (out_bar_dot, dot_reads) =
                        self.record_cotangent(namer, dots, record, &idents, &read);
                    let last = extra.len() - 1;
                    (extra[0], extra[last]) =
                        ((quote!(#out_bar), ty.clone()), (quote!(#out_bar_dot), ty));
                    let end = names.len().saturating_sub(values).max(values.min(names.len()));
                    let dirs = names[values.min(names.len())..end].to_vec();
                    names = std::iter::once(out_bar).chain(dirs).chain([out_bar_dot]).collect();
                    bar_names = 1;
                    fields.extend(reads);
                    fields.extend(dot_reads);
                }
                _ => {}
            }
        }
        extra.extend(buffers.params.iter().cloned());
        let mut stmts = vec![fields];
        stmts.extend(renderer.block(&f.body));
        let (parts, types, assembly) = self.outputs(kind, f, &renderer, namer, &buffers.outputs);
        for (k, id) in &buffers.copies {
            let value = renderer.value(f.outputs[*k]);
            stmts.push(quote!(*#id = #value;));
        }
        stmts.push(assembly);
        let (parts, types) = match (parts.as_slice(), types.as_slice()) {
            ([p], [t]) => (p.clone(), t.clone()),
            _ => (quote!((#(#parts),*)), quote!((#(#types),*))),
        };
        stmts.push(parts);
        let mut used = self.used_params(f);
        // A struct whose fields are read, or whose gradient starts from its zero.
        let gradient = !matches!(kind, Kind::Jvp | Kind::Fwd(_) | Kind::Cols(_));
        for p in self.params {
            let Some(s) = &p.strukt else { continue };
            let whole = s.whole.is_some_and(|v| read.contains(&v));
            if gradient || whole || s.fields.iter().any(|x| read.contains(&x.input)) {
                used.insert(symbol::unraw(&p.ident));
            }
        }
        // A vector function's `f_hvp` names its directions after the value's cotangent.
        let doc_names = match kind {
            Kind::VectorHvp => names[bar_names.min(names.len())..].to_vec(),
            _ => names,
        };
        let renamed: HashMap<String, Ident> = self
            .params
            .iter()
            .filter_map(|p| {
                let id = idents[p.input?.index()].clone()?;
                let own = symbol::unraw(&p.ident);
                (symbol::unraw(&id) != own).then_some((own, id))
            })
            .chain(constants)
            .collect();
        let mut notes = checkpoints::notes(f, &loops);
        notes.extend(buffers::note(&buffers, f.accumulate));
        let checks = buffers.checks.clone();
        Rendered { stmts, ret: types, used, extra, doc_names, notes, checks, renamed }
    }

    /// The function `f_<kind>` with `body`, from what [`Context::render`] gave.
    fn assemble(
        &self,
        namer: &mut Namer,
        kind: Kind,
        f: &Func,
        r: &Rendered,
        tail: &str,
        body: TokenStream,
    ) -> TokenStream {
        let doc = self.doc(kind, f, &r.doc_names) + tail;
        let lengths = &r.checks;
        let body = quote! {
            #lengths
            #body
        };
        let piece = Piece {
            suffix: self.suffix(kind),
            doc: &doc,
            used: &r.used,
            extra: &r.extra,
            sweeps: true,
            may_be_empty: attrs::may_be_empty(&f.body),
            sizes: &[],
            track_caller: !lengths.is_empty(),
            renamed: &r.renamed,
        };
        self.function(namer, piece, r.ret.clone(), body)
    }

    /// The direction of each struct parameter of `f_<kind>` (none but in `f_jvp` and `f_hvp`):
    /// its name (`m_dot`, `_m_dot` when not read, numbered apart from the user's identifiers),
    /// and whether it is read. (`values`: the cotangents before the directions among the inputs
    /// that `f` adds.)
    fn struct_directions(
        &self,
        kind: Kind,
        f: &Func,
        read: &HashSet<crate::ir::Var>,
        namer: &mut Namer,
        values: usize,
    ) -> Vec<(Ident, bool)> {
        let at = match kind {
            Kind::Jvp | Kind::Hvp => 0,
            Kind::VectorHvp => values.min(f.inputs.len() - f.user_inputs),
            Kind::Grad
            | Kind::Vjp
            | Kind::Fwd(_)
            | Kind::Rev(_)
            | Kind::Rows(_)
            | Kind::Cols(_) => {
                return Vec::new();
            }
        };
        let mut dirs = Vec::new();
        for c in self.components(f) {
            let structs::Component::Struct(p, fields) = c else { continue };
            let used = Self::reads_direction(f, p, &fields, read, at);
            let want = format!("{}_{}", symbol::unraw(&p.ident), symbol::SUFFIX_DOT);
            let id = match used {
                true => namer.local(&want),
                false => namer.local(&format!("_{want}")),
            };
            dirs.push((id, used));
        }
        dirs
    }

    /// The parameters a derivative adds (directions, a cotangent), with their names for the doc
    /// comment; and, for each struct parameter, its direction's name and whether it is read
    /// (`struct_dirs`, named by [`Context::struct_directions`]).
    #[allow(clippy::type_complexity)]
    fn extra_params(
        &self,
        kind: Kind,
        f: &Func,
        (idents, struct_dirs): (&[Option<Ident>], &[(Ident, bool)]),
        read: &HashSet<crate::ir::Var>,
        namer: &mut Namer,
        values: usize,
    ) -> (Vec<(TokenStream, TokenStream)>, Vec<Ident>, Vec<(Ident, bool)>) {
        let name_of = |v: &crate::ir::Var, namer: &mut Namer| {
            let id = idents[v.index()].clone().unwrap_or_else(|| namer.local("_"));
            match read.contains(v) {
                true => id,
                false => namer.local(&format!("_{id}")),
            }
        };
        let added = &f.inputs[f.user_inputs..];
        let (mut extra, mut names, mut dirs) = (Vec::new(), Vec::new(), Vec::new());
        match kind {
            Kind::Grad | Kind::Fwd(_) | Kind::Rows(_) | Kind::Cols(_) => {
                return (extra, names, dirs);
            }
            // The residuals, in one pattern, then the cotangent.
            Kind::Rev(r) => {
                let r = r.min(added.len());
                // A residual the sweep does not read is `_` in the pattern (asked of `read`, not
                // of its name: a user's `__private_saved` starts with `_` too, bug 55).
                let res: Vec<Ident> = added[..r]
                    .iter()
                    .map(|v| match read.contains(v) {
                        true => name_of(v, namer),
                        false => Ident::new("_", proc_macro2::Span::mixed_site()),
                    })
                    .collect();
                let names: Vec<Ident> = added[r..].iter().map(|v| name_of(v, namer)).collect();
                let tys: Vec<TokenStream> =
                    added[..r].iter().map(|v| signature::ty(f.ty(*v), &self.scalar.ty)).collect();
                let pattern = split::pack(res.iter().map(|i| quote!(#i)).collect());
                let extra = vec![(pattern, split::pack(tys)), self.cotangent_param(&names)];
                return (extra, names, dirs);
            }
            // The cotangent of a vector function's value has the function's return type; a
            // tuple's components are named in a pattern.
            Kind::Vjp => {
                let names: Vec<Ident> = added.iter().map(|v| name_of(v, namer)).collect();
                return (vec![self.cotangent_param(&names)], names, dirs);
            }
            Kind::Jvp | Kind::Hvp | Kind::VectorHvp => {}
        }
        // A vector function's `f_hvp` takes the value's cotangent first, the directions after
        // it, and the cotangent's tangent last.
        let at = match kind {
            Kind::VectorHvp => values.min(added.len()),
            _ => 0,
        };
        let bars: Vec<Ident> = added[..at].iter().map(|v| name_of(v, namer)).collect();
        if kind == Kind::VectorHvp {
            extra.push(self.cotangent_param(&bars));
            names.extend(bars);
        }
        for c in self.components(f) {
            match c {
                structs::Component::Input(k) => {
                    let Some(v) = added.get(at + k) else { continue };
                    let id = name_of(v, namer);
                    extra.push((quote!(#id), self.extra_type(f, *v, at)));
                    names.push(id);
                }
                structs::Component::Struct(p, _) => {
                    let Some((id, used)) = struct_dirs.get(dirs.len()).cloned() else { continue };
                    let ty = &p.ty;
                    let ty = match structs::direction_by_ref(p) && !p.by_ref {
                        true => quote!(&#ty),
                        false => quote!(#ty),
                    };
                    extra.push((quote!(#id), ty));
                    names.push(id.clone());
                    dirs.push((id, used));
                }
            }
        }
        if kind == Kind::VectorHvp {
            let from = (at + f.active.len()).min(added.len());
            let bar_dots: Vec<Ident> = added[from..].iter().map(|v| name_of(v, namer)).collect();
            extra.push(self.cotangent_param(&bar_dots));
            names.extend(bar_dots);
        }
        (extra, names, dirs)
    }

    /// The function's results: the value, then each group of derivatives (a gradient's
    /// struct parameters written into values of their type by `assembly`), and their types.
    fn outputs(
        &self,
        kind: Kind,
        f: &Func,
        renderer: &body::Renderer,
        namer: &mut Namer,
        buffered: &HashSet<usize>,
    ) -> (Vec<TokenStream>, Vec<TokenStream>, TokenStream) {
        let values = f.outputs.len() - kind.derived_outputs(f);
        // Whether each output is returned (not written into a caller's buffer).
        let kept: Vec<bool> = (0..f.outputs.len()).map(|k| !buffered.contains(&k)).collect();
        let groups = kind.groups(values, f.active.len());
        // An array input bound by reference (a struct parameter's array field, a `&[f64; N]`
        // parameter): a returned struct's field copied from it (`let w: [f64; 3] = m.w;
        // Model { w, .. }`) is its value.
        let lent = |v: &crate::ir::Var| renderer.by_ref.contains(v) && !f.ty(*v).is_flat_field();
        let value = |o: &crate::ir::Operand| match o.var().filter(lent) {
            Some(_) if self.record.is_some() => {
                let t = renderer.value(*o);
                quote!(*#t)
            }
            _ => renderer.value(*o),
        };
        let rendered: Vec<(TokenStream, Ty)> =
            f.outputs.iter().map(|o| (value(o), f.operand_ty(*o))).collect();
        let (mut parts, mut types, mut assembly) = (Vec::new(), Vec::new(), TokenStream::new());
        if let Some(record) = self.record {
            let k = values;
            let rest_kept = &kept[k..];
            let (values, rest) = rendered.split_at(k);
            let values: Vec<TokenStream> = values.iter().map(|(t, _)| t.clone()).collect();
            let ty = self.return_type();
            let tokens = |s: &[(TokenStream, Ty)]| -> Vec<TokenStream> {
                s.iter().map(|(t, _)| t.clone()).collect()
            };
            if kind == Kind::Jvp {
                let (stmts, value, dot) = self.record_jvp(namer, record, &values, &tokens(rest));
                return (vec![quote!(#value), quote!(#dot)], vec![ty.clone(), ty], stmts);
            }
            // `f_hvp`: `(value, cotangents, value_dot, cotangents_dot)`, the value and its
            // tangent as the struct.
            let n = f.active.len().min(rest.len());
            let (cotangents, after) = (&rest[..n], &rest[n..]);
            let (dots, cotangent_dots) = after.split_at(k.min(after.len()));
            let kept_dots = rest_kept.get(n + dots.len()..).unwrap_or(&[]);
            let dot = match kind {
                Kind::VectorHvp => {
                    let (stmts, value, dot) =
                        self.record_jvp(namer, record, &values, &tokens(dots));
                    assembly.extend(stmts);
                    parts.push(quote!(#value));
                    Some(dot)
                }
                _ => {
                    parts.push(records::literal(record, &values));
                    None
                }
            };
            types.push(ty.clone());
            let bars = (cotangents, &rest_kept[..n]);
            let (items, tys) =
                self.gradient_group(f, bars, &mut assembly, namer, symbol::SUFFIX_BAR);
            parts.push(grouped(items));
            types.push(grouped(tys));
            if let Some(dot) = dot {
                parts.push(quote!(#dot));
                types.push(ty);
                let suffix = format!("{}_{}", symbol::SUFFIX_BAR, symbol::SUFFIX_DOT);
                let bar_dots = (cotangent_dots, kept_dots);
                let (items, tys) = self.gradient_group(f, bar_dots, &mut assembly, namer, &suffix);
                parts.push(grouped(items));
                types.push(grouped(tys));
            }
            return (parts, types, assembly);
        }
        let mut at = 0;
        for (g, n) in groups.iter().enumerate() {
            let (slice, returned) = (&rendered[at..at + n], &kept[at..at + n]);
            at += n;
            // Which groups are gradients (or H·v): a vector function's `f_hvp` returns
            // `(value, cotangents, value_dot, cotangents_dot)`.
            let gradient = match kind {
                Kind::Jvp | Kind::Fwd(_) | Kind::Cols(_) => false,
                Kind::VectorHvp => g % 2 == 1,
                _ => g > 0,
            };
            // `f_rev` returns no value.
            if *n == 0 && matches!(kind, Kind::Rev(_)) {
                continue;
            }
            // `f_fwd`'s residuals, packed in tuples of at most twelve.
            if g == 1 && matches!(kind, Kind::Fwd(_)) {
                let (items, tys): (Vec<TokenStream>, Vec<TokenStream>) = slice
                    .iter()
                    .map(|(t, ty)| (t.clone(), signature::ty(ty, &self.scalar.ty)))
                    .unzip();
                parts.push(split::pack(items));
                types.push(split::pack(tys));
                continue;
            }
            let (items, tys): (Vec<TokenStream>, Vec<TokenStream>) = match gradient {
                false => slice
                    .iter()
                    .map(|(t, ty)| (t.clone(), signature::ty(ty, &self.scalar.ty)))
                    .unzip(),
                true => {
                    let suffix = match (kind, g) {
                        (Kind::Hvp, 2) | (Kind::VectorHvp, 3) => {
                            format!("{}_{}", symbol::SUFFIX_BAR, symbol::SUFFIX_DOT)
                        }
                        _ => symbol::SUFFIX_BAR.to_owned(),
                    };
                    self.gradient_group(f, (slice, returned), &mut assembly, namer, &suffix)
                }
            };
            // A gradient whose every component went to buffers is left out.
            if *n > 0 && items.is_empty() {
                continue;
            }
            parts.push(grouped(items));
            types.push(grouped(tys));
        }
        (parts, types, assembly)
    }

    /// One gradient (or H·v) in parameter order from `slice`, the rendered outputs of `f` that
    /// are its components' inputs' derivatives: a struct parameter's written into a value of the
    /// struct by statements added to `assembly` (its locals named `{param}_{suffix}`); the
    /// components written into buffers (not `returned`) left out.
    fn gradient_group(
        &self,
        f: &Func,
        (slice, returned): (&[(TokenStream, Ty)], &[bool]),
        assembly: &mut TokenStream,
        namer: &mut Namer,
        suffix: &str,
    ) -> (Vec<TokenStream>, Vec<TokenStream>) {
        let values: Vec<TokenStream> = slice.iter().map(|(t, _)| t.clone()).collect();
        let (mut items, mut tys) = (Vec::new(), Vec::new());
        for c in self.components(f) {
            if let structs::Component::Input(k) = c
                && !returned.get(k).copied().unwrap_or(true)
            {
                continue;
            }
            tys.push(self.component_type(f, &c));
            match c {
                structs::Component::Input(k) => items.push(values[k].clone()),
                structs::Component::Struct(p, fields) => {
                    let (stmts, id) = self.assemble_struct(namer, (f, p), &fields, &values, suffix);
                    assembly.extend(stmts);
                    items.push(id.to_token_stream());
                }
            }
        }
        (items, tys)
    }

    /// The parameter holding the cotangent of the function's value (or its tangent): one name,
    /// or a pattern of the names of a tuple's parts, of the function's return type.
    fn cotangent_param(&self, names: &[Ident]) -> (TokenStream, TokenStream) {
        let (ret, tuple) = match &self.item.sig.output {
            syn::ReturnType::Type(_, t) => {
                (t.to_token_stream(), matches!(**t, syn::Type::Tuple(_)))
            }
            syn::ReturnType::Default => (quote!(()), false),
        };
        match (names, tuple) {
            ([one], false) => (quote!(#one), ret),
            (many, _) => (quote!((#(#many),*)), ret),
        }
    }

    /// A check, evaluated by rustc, that the stored values fit the budget, when their size is an
    /// expression of the user's constants (known sizes were checked by the macro).
    fn stack_check(&self, f: &Func) -> TokenStream {
        let parts = crate::transform::storage(f);
        let bytes = crate::transform::total(&parts);
        let Some(first) = parts.first() else { return TokenStream::new() };
        if bytes.value.is_some() {
            return TokenStream::new();
        }
        // A struct's array field's length is read at run time (`m.w.len()`), and in the `const`
        // block from the struct's `Differentiable::TREE` (bug 66: it was read there as written,
        // E0435).
        let Some(bytes) = bytes.render_konst() else { return TokenStream::new() };
        let budget = proc_macro2::Literal::u64_unsuffixed(self.budget);
        quote::quote_spanned! {first.span=>
            const { ::autodiff_runtime::__private::check_stack(#bytes, #budget) };
        }
    }

    /// The inputs of `f` taken by reference: the user's `&[f64; N]` parameters and, when the
    /// inputs after them hold directions from the `dirs_at`-th on, theirs.
    fn by_ref(&self, f: &Func, dirs_at: Option<usize>) -> HashSet<crate::ir::Var> {
        let mut out = self.lent_fields(f, dirs_at);
        for p in self.params {
            if let (Some(v), true) = (p.input, p.by_ref) {
                out.insert(v);
                // The directions are one per differentiated parameter; a `_vjp`'s extra input
                // is the cotangent of the output.
                if let Some(at) = dirs_at
                    && let Some(k) = f.active.iter().position(|a| *a == v)
                    && let Some(d) = f.inputs.get(f.user_inputs + at + k)
                {
                    out.insert(*d);
                }
            }
        }
        out
    }

    /// The inputs of `f` that are a struct's array fields (differentiated or not), bound by
    /// reference (`let m_w: &[f64; _] = &m.w;`), and their directions (see [`Self::by_ref`]).
    fn lent_fields(&self, f: &Func, dirs_at: Option<usize>) -> HashSet<crate::ir::Var> {
        let mut out = HashSet::new();
        let all = self.params.iter().filter_map(|p| p.strukt.as_ref()).flat_map(|s| &s.fields);
        for field in all {
            if !matches!(f.ty(field.input), Ty::Array(_)) {
                continue;
            }
            out.insert(field.input);
            if let Some(at) = dirs_at
                && let Some(k) = f.active.iter().position(|a| *a == field.input)
                && let Some(d) = f.inputs.get(f.user_inputs + at + k)
            {
                out.insert(*d);
            }
        }
        out
    }

    /// The type of an input added by a transform, the directions starting at the `at`-th: a
    /// direction has its parameter's type.
    fn extra_type(&self, f: &Func, v: crate::ir::Var, at: usize) -> TokenStream {
        let k = f.inputs[f.user_inputs..].iter().position(|x| *x == v).unwrap_or(0);
        let param = k
            .checked_sub(at)
            .and_then(|k| f.active.get(k))
            .and_then(|a| self.params.iter().find(|p| p.input == Some(*a)));
        match param {
            // A slice's direction is a slice (`&[f64]` for `&Vec<f64>` too).
            Some(_) if f.ty(v).run_time_length() => {
                let elem = buffers::element(f.ty(v), &self.scalar);
                quote!(&[#elem])
            }
            Some(p) => p.ty.to_token_stream(),
            None => signature::ty(f.ty(v), &self.scalar.ty),
        }
    }

    /// The parameters as a wrapper re-emits them (fresh hygienic names that cannot shadow the
    /// kernels, `self` kept; `unnamed` for one written `_`, which the wrapper passes on), the
    /// checks that its constants are `Copy`, how it passes them, and the directions.
    fn wrapper_params(
        &self,
        namer: &mut Namer,
        f: &Func,
    ) -> (Vec<Param>, TokenStream, Vec<TokenStream>, Vec<wrappers::Dir>) {
        let params: Vec<Param> = self
            .params
            .iter()
            .map(|p| {
                let ident = match symbol::unraw(&p.ident) {
                    n if n == symbol::WILD => namer.local(symbol::WILD_PARAM),
                    n if n == symbol::SELF_VALUE => p.ident.clone(),
                    _ => namer.local_param(&p.ident),
                };
                Param { ident, ..p.clone() }
            })
            .collect();
        let constants: Vec<&Param> =
            params.iter().filter(|p| p.input.is_none() && p.strukt.is_none()).collect();
        let checks = wrappers::copy_checks(namer, &constants);
        // A struct taken by value is passed once per direction: cloned.
        let args = params
            .iter()
            .map(|p| {
                let id = &p.ident;
                match p.strukt.is_some() && !p.by_ref {
                    true => quote!(::core::clone::Clone::clone(&#id)),
                    false => quote!(#id),
                }
            })
            .collect();
        let cx = Context { params: &params, scalar: self.scalar.clone(), ..*self };
        let dirs = cx
            .components(f)
            .iter()
            .map(|c| {
                let p = match c {
                    structs::Component::Input(k) => {
                        params.iter().find(|p| p.input == Some(f.active[*k]))
                    }
                    structs::Component::Struct(p, _) => Some(*p),
                };
                let Some(p) = p else {
                    return wrappers::Dir {
                        name: String::new(),
                        ty: quote!(f64),
                        by_ref: false,
                        depth: 0,
                        zero: None,
                        span: None,
                    };
                };
                let (ty, by_ref) = match &p.ty {
                    syn::Type::Reference(r) => (r.elem.to_token_stream(), true),
                    other => (other.to_token_stream(), structs::direction_by_ref(p)),
                };
                let zero = p.strukt.as_ref().map(|s| {
                    let id = &p.ident;
                    let lent = if p.by_ref { quote!(#id) } else { quote!(&#id) };
                    let span = syn::spanned::Spanned::span(&s.owned);
                    let owned = &s.owned;
                    // At the struct's type: a struct without the derive is reported there.
                    let z = match structs::elements(p) {
                        Some((elem, _)) => {
                            let span = syn::spanned::Spanned::span(elem);
                            quote_spanned!(span=> ::autodiff_runtime::__private::zero_elements::<#elem, _>)
                        }
                        None => quote_spanned!(span=> <#owned as ::autodiff_runtime::Differentiable>::zero_like),
                    };
                    (quote!(#z(#lent)), span)
                });
                let (zero, span) = (zero.as_ref().map(|z| z.0.clone()), zero.map(|z| z.1));
                let depth = match c {
                    structs::Component::Input(k) => {
                        f.ty(f.active[*k]).shape().map_or(0, |s| s.dims.len())
                    }
                    structs::Component::Struct(..) => 0,
                };
                wrappers::Dir { name: symbol::unraw(&p.ident), ty, by_ref, depth, zero, span }
            })
            .collect();
        (params, checks, args, dirs)
    }

    /// The number of differentiated scalars of `f` (array parameters count every element, a
    /// struct every differentiated scalar it has).
    /// The mode of `f_jacobian` of the vector function `f` (the primal) asked in `mode`, and its
    /// number of rows (by reverse mode) or columns (by forward mode), when it is made in one pass:
    /// one forward pass and one sweep carrying every row's adjoint (`f_vjp_rows`), or one
    /// forward sweep carrying every column's tangent (`f_jvp_cols`). For a number the macro knows
    /// and at most [`wrappers::WIDE_LANES`]; not for a function returning a struct, nor by
    /// columns for one with a struct parameter.
    pub fn one_pass(&self, f: &Func, mode: Mode) -> Option<(Mode, usize)> {
        if self.record.is_some() {
            return None;
        }
        let (n, m) = (self.columns(f), rows(f));
        let mode = resolved(mode, &n, &m);
        let lanes = match mode {
            Mode::Reverse => m.value?,
            Mode::Forward => {
                let structs =
                    self.components(f).iter().any(|c| !matches!(c, structs::Component::Input(_)));
                n.value.filter(|_| !structs)?
            }
            Mode::Auto => return None,
        };
        let wide = lanes <= wrappers::WIDE_LANES;
        usize::try_from(lanes).ok().filter(|_| wide).map(|lanes| (mode, lanes))
    }

    /// Whether `f_jacobian` of the vector function `f` (the primal) in `mode` is written out row
    /// by row: by reverse sweeps, over a number of rows the macro knows and at most
    /// [`wrappers::UNROLLED_ROWS`] (a function returning a struct is not).
    pub fn by_few_rows(&self, f: &Func, mode: Mode) -> bool {
        let m = rows(f);
        self.record.is_none()
            && resolved(mode, &self.columns(f), &m) != Mode::Forward
            && m.value.is_some_and(|m| m <= wrappers::UNROLLED_ROWS)
    }

    fn columns(&self, f: &Func) -> Int {
        self.components(f)
            .iter()
            .map(|c| self.component_size(f, c))
            .fold(Int::lit(0), |acc, s| acc.add(&s))
    }

    /// `f_hessian`, calling `f_hvp` once per unit direction.
    pub fn hessian(&self, f: &Func) -> TokenStream {
        let mut namer = Namer::new(self.item.to_token_stream());
        let hvp = signature::fn_ident(&self.item.sig.ident, symbol::FN_HVP);
        namer.claim(&hvp.to_string());
        let (params, checks, args, dirs) = self.wrapper_params(&mut namer, f);
        // A deprecated `f` has a deprecated `f_hvp`, which its own Hessian may still call.
        let deprecated = self.item.attrs.iter().any(|a| a.path().is_ident(symbol::DEPRECATED));
        let n = self.columns(f);
        let name = &self.item.sig.ident;
        let hessian = signature::fn_ident(name, symbol::FN_HESSIAN);
        let what = "the number of differentiated scalars";
        let size = wrappers::Size::new(&mut namer, &n, symbol::SIZE_HESSIAN, what, &hessian);
        let prefix = self.impl_prefix();
        let call =
            wrappers::Call { args: &args, dirs: &dirs, prefix, deprecated, scalar: &self.scalar };
        let body = wrappers::hessian(&mut namer, &hvp, &call, &size.tokens);
        let check = &size.check;
        let body = quote!(#check #checks #body);
        let all: HashSet<String> = params.iter().map(|p| symbol::unraw(&p.ident)).collect();
        let doc = format!(
            " Hessian of `{name}`: the `{n}×{n}` matrix of second derivatives, as one call of\n `{hvp}` per unit direction.\n\n Generated by `#[grad(hessian)]`; row and column `i` belong to the `i`-th differentiated scalar (parameters in order, array elements in row-major order); row `i` is `H·eᵢ`.{}",
            size.doc,
            n = wrappers::dim_text(&n),
        );
        let cx = Context { params: &params, scalar: self.scalar.clone(), ..*self };
        let sizes: Vec<Ident> = size.generic.iter().cloned().collect();
        let piece = Piece {
            suffix: symbol::FN_HESSIAN,
            doc: &doc,
            used: &all,
            extra: &[],
            sweeps: false,
            may_be_empty: false,
            sizes: &sizes,
            track_caller: false,
            renamed: &HashMap::new(),
        };
        let (t, s) = (&size.tokens, &self.scalar.ty);
        cx.function(&mut namer, piece, quote!([[#s; #t]; #t]), body)
    }

    /// `f_jacobian` and `f_jacobian_mode` for a vector function `f` (the primal), whose outputs
    /// hold `m` scalars.
    /// With `one_pass`, the number of rows that `f_vjp_rows` (or columns that `f_jvp_cols`)
    /// computes in one pass.
    pub fn jacobian(&self, f: &Func, mode: Mode, one_pass: Option<usize>) -> TokenStream {
        let mut namer = Namer::new(self.item.to_token_stream());
        let name = &self.item.sig.ident;
        let (jvp, vjp) =
            (signature::fn_ident(name, symbol::FN_JVP), signature::fn_ident(name, symbol::FN_VJP));
        let rows_kernel = signature::fn_ident(name, symbol::FN_VJP_ROWS);
        let cols_kernel = signature::fn_ident(name, symbol::FN_JVP_COLS);
        for k in [&jvp, &vjp, &rows_kernel, &cols_kernel] {
            namer.claim(&k.to_string());
        }
        namer.claim(&name.to_string());
        let (params, checks, args, dirs) = self.wrapper_params(&mut namer, f);
        let deprecated = self.item.attrs.iter().any(|a| a.path().is_ident(symbol::DEPRECATED));
        let n = self.columns(f);
        let m = match self.record {
            Some(_) => {
                let ret = self.return_type();
                Int::tokens(quote!(<#ret as ::autodiff_runtime::Differentiable>::LEN), true)
            }
            None => rows(f),
        };
        let mode = resolved(mode, &n, &m);
        let jacobian = signature::fn_ident(name, symbol::FN_JACOBIAN);
        let [rows_name, cols_name] = symbol::SIZES_JACOBIAN;
        let cols = wrappers::Size::new(
            &mut namer,
            &n,
            cols_name,
            "the number of differentiated scalars",
            &jacobian,
        );
        let rows = wrappers::Size::new(
            &mut namer,
            &m,
            rows_name,
            "the number of output scalars",
            &jacobian,
        );
        let (ret, _) = self.returned();
        let outputs = match self.record {
            Some(_) => {
                let ty = self.return_type();
                let span = syn::spanned::Spanned::span(&ty);
                vec![wrappers::Part::Struct(ty, span)]
            }
            None => f
                .outputs
                .iter()
                .map(|o| {
                    wrappers::Part::Array(f.operand_ty(*o).shape().map_or(0, |s| s.dims.len()))
                })
                .collect(),
        };
        let jac = wrappers::Jacobian {
            f: name,
            jvp: &jvp,
            vjp: &vjp,
            n: cols.tokens.clone(),
            m: rows.tokens.clone(),
            rows: m.value,
            mode,
            ret: ret.clone(),
            outputs,
            one_pass: one_pass.map(|k| match mode {
                Mode::Forward => (&cols_kernel, k as u64),
                _ => (&rows_kernel, k as u64),
            }),
        };
        let prefix = self.impl_prefix();
        let call =
            wrappers::Call { args: &args, dirs: &dirs, prefix, deprecated, scalar: &self.scalar };
        let body = wrappers::jacobian(&mut namer, &jac, &call);
        let (rc, cc) = (&rows.check, &cols.check);
        let body = quote!(#rc #cc #checks #body);
        let all: HashSet<String> = params.iter().map(|p| symbol::unraw(&p.ident)).collect();
        let sizes = [(&rows, &m), (&cols, &n)];
        let doc = wrappers::jacobian_doc(name, (&jvp, &vjp), (mode, one_pass.is_some()), sizes);
        let (ns, ms) = (&jac.n, &jac.m);
        let cx = Context { params: &params, scalar: self.scalar.clone(), ..*self };
        let sizes: Vec<Ident> = rows.generic.iter().chain(&cols.generic).cloned().collect();
        let piece = Piece {
            suffix: symbol::FN_JACOBIAN,
            doc: &doc,
            used: &all,
            extra: &[],
            sweeps: false,
            may_be_empty: false,
            sizes: &sizes,
            track_caller: false,
            renamed: &HashMap::new(),
        };
        let s = &self.scalar.ty;
        let mut out = cx.function(&mut namer, piece, quote!((#ret, [[#s; #ns]; #ms])), body);
        // The mode function compares the sizes as expressions: it has no result to take them from.
        let exprs =
            wrappers::Jacobian { n: n.render(&|_| quote!(_)), m: m.render(&|_| quote!(_)), ..jac };
        out.extend(self.mode_fn(&wrappers::mode(&exprs)));
        out
    }

    /// The user's return type, and how many parts its value has: a tuple's length, or 1.
    fn returned(&self) -> (TokenStream, usize) {
        match &self.item.sig.output {
            syn::ReturnType::Type(_, t) => match &**t {
                syn::Type::Tuple(tuple) => (t.to_token_stream(), tuple.elems.len()),
                _ => (t.to_token_stream(), 1),
            },
            syn::ReturnType::Default => (quote!(()), 1),
        }
    }

    /// A stand-in for a derivative function `#[grad]` does not generate here (`f_jvp` without
    /// `jvp`, ...): calling it, as a caller's derivatives do through a call of `f`, is a compile
    /// error at the call that says how to get the real one. It takes any arguments and never
    /// returns.
    pub fn stand_in(&self, kind: Kind, f: &Func) -> TokenStream {
        // The kernels take the parameters, then one direction per differentiated parameter.
        let arity = match kind {
            Kind::Jvp | Kind::Hvp => self.params.len() + self.components(f).len(),
            // `f_hvp(params…, out_bar, directions…, out_bar_dot)`.
            Kind::VectorHvp => self.params.len() + self.components(f).len() + 2,
            Kind::Grad | Kind::Vjp | Kind::Fwd(_) => self.params.len(),
            Kind::Rev(_) => self.params.len() + 2,
            Kind::Rows(_) | Kind::Cols(_) => self.params.len(),
        };
        let bound = match kind {
            Kind::Jvp => quote!(::autodiff_runtime::__private::JvpGenerated),
            Kind::Hvp | Kind::VectorHvp => quote!(::autodiff_runtime::__private::HvpGenerated),
            // The others take no directions (a caller calls only `f_grad` of these).
            _ => quote!(::autodiff_runtime::__private::ScalarCallee),
        };
        let vis = &self.item.vis;
        let ident = signature::fn_ident(&self.item.sig.ident, kind.suffix());
        // Type parameters named apart from the function's own generic parameters (a const
        // generic `T0`).
        let mut namer = Namer::new(self.item.sig.generics.to_token_stream());
        let types: Vec<Ident> = (0..arity.max(1)).map(|_| namer.type_param()).collect();
        let first = &types[0];
        let rest = &types[1..];
        let cfgs = self.item.attrs.iter().filter(|a| a.path().is_ident(symbol::CFG));
        let doc = format!(
            " Not generated: `{ident}` is a stand-in whose call is a compile error saying how to get it."
        );
        // The real function's return type, so that its caller type-checks past the one error.
        let value = match &self.item.sig.output {
            syn::ReturnType::Type(_, t) => t.to_token_stream(),
            syn::ReturnType::Default => quote!(()),
        };
        // A slice's derivatives go to buffers, not into the result.
        let grads: Vec<TokenStream> = self
            .components(f)
            .iter()
            .filter(|c| {
                !matches!(c, structs::Component::Input(k) if f.ty(f.active[*k]).run_time_length())
            })
            .map(|c| self.component_type(f, c))
            .collect();
        let grad = match grads.as_slice() {
            [one] => one.clone(),
            many => quote!((#(#many),*)),
        };
        let s = &self.scalar.ty;
        let ret = match kind {
            Kind::Jvp => quote!((#value, #value)),
            Kind::Hvp => quote!((#value, #grad, #grad)),
            Kind::VectorHvp => quote!((#value, #grad, #value, #grad)),
            Kind::Grad | Kind::Vjp => quote!((#s, #grad)),
            Kind::Fwd(_) => quote!((#s, ())),
            Kind::Rev(_) | Kind::Rows(_) | Kind::Cols(_) => grad,
        };
        // The function's own generic parameters, which its types may name; lifetimes first.
        let generics = &self.item.sig.generics;
        let lifetimes = generics.lifetimes();
        let others =
            generics.params.iter().filter(|p| !matches!(p, syn::GenericParam::Lifetime(_)));
        let clause = &generics.where_clause;
        quote! {
            #[doc = #doc]
            #[doc(hidden)]
            #(#cfgs)*
            #[allow(dead_code, clippy::too_many_arguments)]
            #vis fn #ident<#(#lifetimes,)* #(#others,)* #first: #bound, #(#rest),*>(_: #first, #(_: #rest),*) -> #ret #clause {
                ::core::panic!()
            }
        }
    }

    /// `f_jacobian_mode() -> &'static str`: which mode `f_jacobian` uses.
    fn mode_fn(&self, body: &TokenStream) -> TokenStream {
        let vis = &self.item.vis;
        let ident = signature::fn_ident(&self.item.sig.ident, symbol::FN_JACOBIAN_MODE);
        let generics = &self.item.sig.generics;
        let clause = &generics.where_clause;
        let jac = signature::fn_ident(&self.item.sig.ident, symbol::FN_JACOBIAN);
        let doc = format!(" Which mode `{jac}` uses: `\"forward\"` or `\"reverse\"`.");
        let inherited = self.item.attrs.iter().filter_map(attrs::inherited);
        quote! {
            #[doc = #doc]
            #(#inherited)*
            #[allow(dead_code)]
            #vis const fn #ident #generics() -> &'static str #clause {
                #body
            }
        }
    }

    fn function(
        &self,
        namer: &mut Namer,
        piece: Piece,
        ret: TokenStream,
        body: TokenStream,
    ) -> TokenStream {
        let Piece { suffix, doc, used, extra, sweeps, may_be_empty, sizes, track_caller, renamed } =
            piece;
        let vis = &self.item.vis;
        let generics = match sizes {
            [] => self.item.sig.generics.to_token_stream(),
            _ => {
                let own = self.item.sig.generics.params.iter();
                quote!(<#(#own,)* #(const #sizes: usize),*>)
            }
        };
        // `Generics` prints without its `where` clause, which goes after the return type.
        let clause = &self.item.sig.generics.where_clause;
        let ident = signature::fn_ident(&self.item.sig.ident, suffix);
        let user = signature::user_params(namer, self.params, used, renamed);
        let inherited = self.item.attrs.iter().filter_map(attrs::inherited);
        let extra = signature::extra_params(extra);
        let lints =
            (user.len() + extra.len() > 7).then(|| quote!(#[allow(clippy::too_many_arguments)]));
        // Folding literals can make one that the user never wrote, such as `0.5236` from
        // `2.0 * 0.2618`, and clippy reads it as an approximation of `FRAC_PI_6`.
        let approx = attrs::mentions_near_constant(body.clone())
            .then(|| quote!(#[allow(clippy::approx_constant)]));
        // A sweep indexes several arrays with one loop index, which is the clearest way to write
        // it, and what clippy's `needless_range_loop` objects to.
        let allowed = self.item.attrs.iter().any(|a| attrs::allows(a, symbol::RANGE_LOOP_LINT));
        let ranges = (sweeps && attrs::has_loop(body.clone()) && !allowed)
            .then(|| quote!(#[allow(clippy::needless_range_loop)]));
        let empty = may_be_empty.then(|| quote!(#[allow(clippy::reversed_empty_ranges)]));
        let remainder = attrs::has_remainder_test(body.clone())
            .then(|| quote!(#[allow(clippy::manual_is_multiple_of)]));
        let doc = doc.lines().map(|line| quote!(#[doc = #line]));
        let track_caller = track_caller.then(|| quote!(#[track_caller]));
        let hint = match suffix {
            symbol::FN_VJP if self.inline_vjp => quote!(#[inline(always)]),
            // The kernel of `f_jacobian`, with its type of one tuple per row.
            symbol::FN_VJP_ROWS | symbol::FN_JVP_COLS => {
                quote!(#[doc(hidden)] #[inline(always)] #[allow(clippy::type_complexity)])
            }
            _ => TokenStream::new(),
        };
        quote! {
            #(#doc)*
            #(#inherited)*
            #track_caller
            #lints
            #approx
            #ranges
            #empty
            #remainder
            #hint
            #vis fn #ident #generics(#(#user,)* #(#extra),*) -> #ret #clause {
                #body
            }
        }
    }
}

/// The tokens of an internal error: a bug in the macro, reported with what broke.
fn internal(what: &str) -> TokenStream {
    let message = format!(
        "internal error in `{}` (codegen: {what}); please report this with the function that caused it",
        symbol::ATTR
    );
    quote!(::core::compile_error!(#message);)
}

/// One part of a result: the bare item for one, a tuple for several.
fn grouped(items: Vec<TokenStream>) -> TokenStream {
    match items.as_slice() {
        [one] => one.clone(),
        many => quote!((#(#many),*)),
    }
}

/// The number of scalars in a value of type `ty`.
fn flat_size(ty: &Ty) -> Int {
    match ty.shape() {
        None => Int::lit(1),
        Some(s) => s.dims.iter().fold(Int::lit(1), |acc, d| acc.times(d)),
    }
}

/// The Jacobian's mode: sizes the macro knows decide it here; others, in the generated code.
fn resolved(mode: Mode, n: &Int, m: &Int) -> Mode {
    match (mode, n.value, m.value) {
        (Mode::Auto, Some(a), Some(b)) if a < b => Mode::Forward,
        (Mode::Auto, Some(_), Some(_)) => Mode::Reverse,
        (other, _, _) => other,
    }
}

/// The number of scalar outputs of the vector function `f`.
fn rows(f: &Func) -> Int {
    f.outputs.iter().map(|o| flat_size(&f.operand_ty(*o))).fold(Int::lit(0), |acc, s| acc.add(&s))
}

/// The number of value outputs of `f_<kind>` (its outputs but the derivatives it adds).
fn values_of(kind: Kind, f: &Func) -> usize {
    f.outputs.len() - kind.derived_outputs(f)
}
