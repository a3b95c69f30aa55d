//! The dense Hessian and the Jacobian: a kernel (`f_hvp`, `f_jvp`, `f_vjp`) run once per unit
//! direction, in a loop, so their code does not grow with the number of parameters. Each sweep's
//! result is laid out as one row or column part by part (a tuple's components named one by one,
//! arrays in row-major order, parameters in order) with the runtime's `scalar`, `write_parts`
//! and `set_unit`, which see each part as a flat slice of scalars, never a whole tuple: no limit
//! on the number of parameters or outputs, and no trait on the scalar type beyond `Float`. A
//! struct (which holds `f64`s) is seen through its scalars laid flat in an array on the stack
//! (`Differentiable::LEN` long), its direction built from such an array. A Jacobian of a few
//! rows known to the macro is written out row by row, each seed a constant.

use proc_macro2::{Ident, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;

use super::names::Namer;
use super::scalar::Tokens;
use crate::args::Mode;
use crate::ir::Int;
use crate::lower::Param;
use crate::symbol;

/// The direction of one differentiated parameter, as a wrapper builds it.
pub struct Dir {
    /// The parameter's name.
    pub name: String,
    /// Its owned type (a direction is built owned and lent when the parameter is a reference).
    pub ty: TokenStream,
    /// Whether the parameter is taken by reference.
    pub by_ref: bool,
    /// Its number of array dimensions (0 for a scalar or a struct).
    pub depth: usize,
    /// The zero to start from, when its type does not tell it (a struct's
    /// `Differentiable::zero_like(m)`).
    pub zero: Option<TokenStream>,
    /// For a struct, its type's span: where the code asking it for its scalars is spanned.
    pub span: Option<proc_macro2::Span>,
}

/// What a wrapper passes to a kernel: the user's parameters, and the differentiated ones'
/// directions.
pub struct Call<'a> {
    /// The user's parameters, in order, as passed (a struct taken by value is cloned).
    pub args: &'a [TokenStream],
    /// For each differentiated parameter, its direction.
    pub dirs: &'a [Dir],
    /// `Self::` when the kernels are associated functions, else nothing.
    pub prefix: TokenStream,
    /// Whether the kernels are deprecated (as `f` is), so calling them needs an `allow`.
    pub deprecated: bool,
    /// The scalar type.
    pub scalar: &'a Tokens,
}

impl Call<'_> {
    /// `let mut d0: T0 = 0.0; let mut d1: [f64; N] = [0.0; N]; …; set_unit(&mut [&mut d0, …], k);`
    /// and the direction arguments (`d0, &d1`). A struct's direction is set in an array of its
    /// scalars laid flat, then added to its zero.
    fn unit(&self, namer: &mut Namer, k: &Ident) -> (TokenStream, Vec<TokenStream>) {
        let names: Vec<Ident> = self
            .dirs
            .iter()
            .map(|d| namer.local(&format!("{}_{}", d.name, symbol::SUFFIX_DOT)))
            .collect();
        let (mut bind, mut views, mut after) = (Vec::new(), Vec::new(), Vec::new());
        for (n, d) in names.iter().zip(self.dirs) {
            let ty = &d.ty;
            match d.span {
                Some(span) => {
                    let flat = namer.local(&format!("{n}_flat"));
                    let len = flat_len(ty, span);
                    bind.push(quote!(let mut #flat = [0.0_f64; #len];));
                    views.push(quote!(&mut #flat));
                    let z = d.zero.clone().unwrap_or_else(|| zero(ty, self.scalar));
                    let add = match of_structs(ty) {
                        true => quote!(add_flat_elements),
                        false => quote!(add_flat),
                    };
                    after.push(quote! {
                        let mut #n: #ty = #z;
                        ::autodiff_runtime::__private::#add(&mut #n, &#flat);
                    });
                }
                None => {
                    let z = d.zero.clone().unwrap_or_else(|| zero(ty, self.scalar));
                    bind.push(quote!(let mut #n: #ty = #z;));
                    views.push(view(quote!(#n), d.depth, true));
                }
            }
        }
        let bind = quote! {
            #(#bind)*
            ::autodiff_runtime::__private::set_unit(&mut [#(#views),*], #k);
            #(#after)*
        };
        let pass = names
            .iter()
            .zip(self.dirs)
            .map(|(n, d)| if d.by_ref { quote!(&#n) } else { quote!(#n) })
            .collect();
        (bind, pass)
    }

    fn allow(&self) -> Option<TokenStream> {
        self.deprecated.then(|| quote!(#[allow(deprecated)]))
    }
}

/// The zero of a direction's or a cotangent's type, written out: `0.0`, `[0.0; N]`,
/// `[[0.0; K]; M]` (`Flat::zero()` for a type written otherwise, through an alias say).
fn zero(ty: &TokenStream, scalar: &Tokens) -> TokenStream {
    fn of(ty: &syn::Type, scalar: &Tokens) -> TokenStream {
        match ty {
            syn::Type::Array(a) => {
                let (elem, len) = (of(&a.elem, scalar), &a.len);
                quote!([#elem; #len])
            }
            syn::Type::Paren(p) => of(&p.elem, scalar),
            syn::Type::Group(g) => of(&g.elem, scalar),
            syn::Type::Path(p)
                if p.path.segments.last().is_some_and(|s| {
                    s.ident == symbol::F64
                        || s.ident == symbol::F32
                        || s.ident == scalar.ty.to_string()
                }) =>
            {
                scalar.zero()
            }
            _ => quote!(::autodiff_runtime::__private::Flat::zero()),
        }
    }
    match syn::parse2::<syn::Type>(ty.clone()) {
        Ok(t) => of(&t, scalar),
        Err(_) => quote!(::autodiff_runtime::__private::Flat::zero()),
    }
}

/// The value `v` with `depth` array dimensions seen as a flat slice of scalars in row-major
/// order, mutable or not: `from_ref(&v)`, `&v`, `v.as_flattened()`.
fn view(v: TokenStream, depth: usize, mutable: bool) -> TokenStream {
    match (depth, mutable) {
        (0, true) => quote!(::core::slice::from_mut(&mut #v)),
        (0, false) => quote!(::core::slice::from_ref(&#v)),
        (1, true) => quote!(&mut #v),
        (1, false) => quote!(&#v),
        (d, true) => {
            let flatten = (1..d).map(|_| quote!(.as_flattened_mut()));
            quote!(#v #(#flatten)*)
        }
        (d, false) => {
            let flatten = (1..d).map(|_| quote!(.as_flattened()));
            quote!(#v #(#flatten)*)
        }
    }
}

/// How a wrapper sees one part of a result: an array of the given depth (0 for a scalar), or a
/// struct of the given type, spanned at it (where a struct that does not derive
/// `Differentiable` is then reported).
pub enum Part {
    /// A scalar or an array.
    Array(usize),
    /// A struct.
    Struct(TokenStream, proc_macro2::Span),
}

impl Dir {
    /// The part its derivative is in a result.
    fn part(&self) -> Part {
        match self.span {
            Some(span) => Part::Struct(self.ty.clone(), span),
            None => Part::Array(self.depth),
        }
    }
}

/// `<T as Differentiable>::LEN`, spanned at `T` (`elements_len::<P>(N)` for an array of
/// structs `[P; N]`).
fn flat_len(ty: &TokenStream, span: proc_macro2::Span) -> TokenStream {
    match syn::parse2::<syn::Type>(ty.clone()) {
        Ok(syn::Type::Array(a)) => {
            let (elem, len) = (&a.elem, &a.len);
            quote_spanned!(span=> ::autodiff_runtime::__private::elements_len::<#elem>(#len))
        }
        _ => quote_spanned!(span=> <#ty as ::autodiff_runtime::Differentiable>::LEN),
    }
}

/// Whether the struct type `ty` is an array of structs (`[P; N]`).
fn of_structs(ty: &TokenStream) -> bool {
    matches!(syn::parse2::<syn::Type>(ty.clone()), Ok(syn::Type::Array(_)))
}

/// The part `v` seen as a slice of scalars: a view of an array, or a struct's scalars laid flat
/// in an array (a temporary, extended by the `let` that binds the parts).
fn read_view(v: TokenStream, part: &Part) -> TokenStream {
    match part {
        Part::Array(depth) => view(v, *depth, false),
        Part::Struct(ty, span) => {
            let len = flat_len(ty, *span);
            quote_spanned!(*span=> &::autodiff_runtime::__private::flat::<#ty, { #len }>(&#v))
        }
    }
}

/// `let parts: &[&[S]] = &[from_ref(&v.0), &v.1, …];` for a result that is a tuple of the given
/// parts, `&[&v]` for one part: bound once per sweep, read for each scalar.
fn bind_parts(bound: &Ident, v: &Ident, parts: &[Part], scalar: &Tokens) -> TokenStream {
    let views: Vec<TokenStream> = match parts {
        [one] => vec![read_view(quote!(#v), one)],
        _ => parts
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let field = syn::Index::from(k);
                read_view(quote!(#v.#field), p)
            })
            .collect(),
    };
    let s = &scalar.ty;
    quote!(let #bound: &[&[#s]] = &[#(#views),*];)
}

/// The `k`-th scalar of the parts bound to `bound`.
fn scalar(bound: &Ident, k: &Ident) -> TokenStream {
    quote!(::autodiff_runtime::__private::scalar(#bound, #k))
}

/// The body of `f_hessian`: row `i` is `H·eᵢ` from `hvp`, for `n` differentiated scalars.
pub fn hessian(namer: &mut Namer, hvp: &Ident, call: &Call, n: &TokenStream) -> TokenStream {
    let [h, row, i, j, x] = symbol::HESSIAN_LOCALS.map(|want| namer.local(want));
    let hv = namer.local("hv");
    let bound = namer.local("parts");
    let (unit, dirs) = call.unit(namer, &i);
    let (args, allow, prefix) = (call.args, call.allow(), &call.prefix);
    let parts: Vec<Part> = call.dirs.iter().map(Dir::part).collect();
    let bind = bind_parts(&bound, &hv, &parts, call.scalar);
    let get = scalar(&bound, &j);
    let zero = call.scalar.zero();
    quote! {
        let mut #h = [[#zero; #n]; #n];
        for (#i, #row) in #h.iter_mut().enumerate() {
            #unit
            #allow
            let (_, _, #hv) = #prefix #hvp(#(#args,)* #(#dirs),*);
            #bind
            for (#j, #x) in #row.iter_mut().enumerate() {
                *#x = #get;
            }
        }
        #h
    }
}

/// The kernels and sizes of a Jacobian.
pub struct Jacobian<'a> {
    /// The user's function, for the value.
    pub f: &'a Ident,
    /// The forward kernel.
    pub jvp: &'a Ident,
    /// The reverse kernel.
    pub vjp: &'a Ident,
    /// The number of columns (differentiated scalars).
    pub n: TokenStream,
    /// The number of rows (scalar outputs).
    pub m: TokenStream,
    /// The number of rows, when the macro knows it.
    pub rows: Option<u64>,
    /// The mode asked for.
    pub mode: Mode,
    /// The function's return type.
    pub ret: TokenStream,
    /// The parts of its value: a tuple's scalars, one array, or one struct.
    pub outputs: Vec<Part>,
    /// In one pass: the kernel `f_vjp_rows` taking every row's cotangent at once (by rows), or
    /// `f_jvp_cols` giving every column (by columns), and the number of rows or columns.
    pub one_pass: Option<(&'a Ident, u64)>,
}

/// Up to how many rows, known to the macro, a Jacobian by rows is written out row by row rather
/// than looped over (each row is one call of `f_vjp`, seeded by a constant).
pub const UNROLLED_ROWS: u64 = 4;

/// Up to how many rows (columns), known to the macro, a Jacobian by rows (columns) is made in
/// one pass: one forward pass and one sweep carrying every row's adjoint (`f_vjp_rows`, whose
/// sweep repeats each adjoint statement once per row), or one forward sweep carrying every
/// column's tangent (`f_jvp_cols`). Past it, one `f_vjp` per row (`f_jvp` per column).
pub const WIDE_LANES: u64 = 8;

/// The body of `f_jacobian`: `(value, J)`, by columns (`f_jvp`) or rows (`f_vjp`).
pub fn jacobian(namer: &mut Namer, jac: &Jacobian, call: &Call) -> TokenStream {
    let [value, jm, row, i, j, _, sweep] = symbol::JACOBIAN_LOCALS.map(|want| namer.local(want));
    let Jacobian { f, jvp, vjp, n, m, mode, .. } = jac;
    let bound = namer.local("parts");
    let (args, allow, prefix) = (call.args, call.allow(), &call.prefix);
    let zero = call.scalar.zero();
    let (unit, dirs) = call.unit(namer, &j);
    let bind_column = bind_parts(&bound, &sweep, &jac.outputs, call.scalar);
    let column = scalar(&bound, &i);
    let forward = quote! {
        for #j in 0..#n {
            #unit
            #allow
            let (_, #sweep) = #prefix #jvp(#(#args,)* #(#dirs),*);
            #bind_column
            for (#i, #row) in #jm.iter_mut().enumerate() {
                #row[#j] = #column;
            }
        }
    };
    let out_bar = namer.local(symbol::OUT_BAR);
    let flat = namer.local(&format!("{out_bar}_flat"));
    let parts: Vec<Part> = call.dirs.iter().map(Dir::part).collect();
    let bind_row = bind_parts(&bound, &sweep, &parts, call.scalar);
    let reverse_row = |r: TokenStream, dest: TokenStream| {
        let seed = cotangent(jac, call.scalar, (&out_bar, &value, &flat), &r);
        quote! {
            #seed
            #allow
            let (_, #sweep) = #prefix #vjp(#(#args,)* #out_bar);
            #bind_row
            ::autodiff_runtime::__private::write_parts(#bound, #dest);
        }
    };
    let locals = Locals { value: &value, jm: &jm, row: &row, i: &i, sweep: &sweep, bound: &bound };
    if let Some(body) = in_one_pass(namer, jac, call, &locals) {
        return body;
    }
    let reverse = match jac.rows {
        // A few rows, known: one block each, its seed a constant (the sweep's chains of the other
        // outputs then fold away once the kernel is inlined).
        Some(rows) if rows <= UNROLLED_ROWS => {
            let blocks = (0..rows).map(|r| {
                let r = proc_macro2::Literal::u64_unsuffixed(r);
                let block = reverse_row(quote!(#r), quote!(&mut #jm[#r]));
                quote!({ #block })
            });
            quote!(#(#blocks)*)
        }
        _ => {
            let block = reverse_row(quote!(#i), quote!(#row));
            quote! {
                for (#i, #row) in #jm.iter_mut().enumerate() {
                    #block
                }
            }
        }
    };
    let sweeps = match mode {
        Mode::Forward => forward,
        Mode::Reverse => reverse,
        Mode::Auto => quote!(if #n < #m { #forward } else { #reverse }),
    };
    quote! {
        #allow
        let #value = #prefix #f(#(#args),*);
        let mut #jm = [[#zero; #n]; #m];
        #sweeps
        (#value, #jm)
    }
}

/// The local names of `f_jacobian`'s body.
struct Locals<'a> {
    value: &'a Ident,
    jm: &'a Ident,
    row: &'a Ident,
    i: &'a Ident,
    sweep: &'a Ident,
    bound: &'a Ident,
}

/// The body of `f_jacobian` in one pass, if it is made so: one call of `f_jvp_cols` giving
/// every column, or of `f_vjp_rows` giving every row (each seeded within by its unit vector).
fn in_one_pass(namer: &mut Namer, jac: &Jacobian, call: &Call, l: &Locals) -> Option<TokenStream> {
    let Locals { value, jm, row, i, sweep, bound } = *l;
    let (args, allow, prefix) = (call.args, call.allow(), &call.prefix);
    let (zero, n, m) = (call.scalar.zero(), &jac.n, &jac.m);
    let column = scalar(bound, i);
    let parts: Vec<Part> = call.dirs.iter().map(Dir::part).collect();
    if let (Some((kernel, cols)), Mode::Forward) = (jac.one_pass, jac.mode) {
        let (mut names, mut writes) = (Vec::new(), Vec::new());
        for c in 0..cols {
            let tangent = match c {
                0 => sweep.clone(),
                _ => namer.local(&sweep.to_string()),
            };
            let c = proc_macro2::Literal::u64_unsuffixed(c);
            let bind = bind_parts(bound, &tangent, &jac.outputs, call.scalar);
            writes.push(quote! {{
                #bind
                for (#i, #row) in #jm.iter_mut().enumerate() {
                    #row[#c] = #column;
                }
            }});
            names.push(tangent);
        }
        return Some(quote! {
            let mut #jm = [[#zero; #n]; #m];
            #allow
            let (#value, #(#names),*) = #prefix #kernel(#(#args),*);
            #(#writes)*
            (#value, #jm)
        });
    }
    if let (Some((kernel, rows)), Mode::Reverse) = (jac.one_pass, jac.mode) {
        let mut sweeps = Vec::new();
        let mut writes = Vec::new();
        for r in 0..rows {
            let sw = match r {
                0 => sweep.clone(),
                _ => namer.local(&sweep.to_string()),
            };
            let r = proc_macro2::Literal::u64_unsuffixed(r);
            let bind = bind_parts(bound, &sw, &parts, call.scalar);
            writes.push(quote! {{
                #bind
                ::autodiff_runtime::__private::write_parts(#bound, &mut #jm[#r]);
            }});
            sweeps.push(sw);
        }
        return Some(quote! {
            let mut #jm = [[#zero; #n]; #m];
            #allow
            let (#value, #(#sweeps),*) = #prefix #kernel(#(#args),*);
            #(#writes)*
            (#value, #jm)
        });
    }
    None
}

/// `let mut out_bar: R = …; set_unit(&mut [&mut out_bar.0, …], i);`: the `i`-th unit cotangent
/// of the function's value (a struct's set in its scalars laid flat in `flat`, then added to
/// the zero of the function's `value`).
fn cotangent(
    jac: &Jacobian,
    scalar: &Tokens,
    (out_bar, value, flat): (&Ident, &Ident, &Ident),
    i: &TokenStream,
) -> TokenStream {
    let ret = &jac.ret;
    let (zero, parts) = match jac.outputs.as_slice() {
        [Part::Struct(ty, span)] => {
            let len = flat_len(ty, *span);
            return quote! {
                let mut #flat = [0.0_f64; #len];
                ::autodiff_runtime::__private::set_unit(&mut [&mut #flat], #i);
                let mut #out_bar: #ret = ::autodiff_runtime::Differentiable::zero_like(&#value);
                ::autodiff_runtime::__private::add_flat(&mut #out_bar, &#flat);
            };
        }
        [Part::Array(depth)] => (zero(ret, scalar), view(quote!(#out_bar), *depth, true)),
        many => {
            let zeros = many.iter().map(|_| scalar.zero());
            let views = many.iter().enumerate().map(|(k, d)| {
                let field = syn::Index::from(k);
                let depth = match d {
                    Part::Array(depth) => *depth,
                    Part::Struct(..) => 0,
                };
                view(quote!(#out_bar.#field), depth, true)
            });
            (quote!((#(#zeros),*)), quote!(#(#views),*))
        }
    };
    quote! {
        let mut #out_bar: #ret = #zero;
        ::autodiff_runtime::__private::set_unit(&mut [#parts], #i);
    }
}

/// A size of a wrapper's result (`f_hessian`'s, `f_jacobian`'s), as its type writes it.
pub struct Size {
    /// The length in the result's type: the expression, or the added parameter.
    pub tokens: TokenStream,
    /// The const generic parameter added for it, when the expression reads the function's const
    /// generics (`N + 1`), which stable Rust does not take as an array length in a type; the
    /// caller then writes the size in the result's type, and rustc checks it against the
    /// expression.
    pub generic: Option<Ident>,
    /// The check that the caller's size is the expression (a `const` block).
    pub check: TokenStream,
    /// What the doc comment says about the parameter.
    pub doc: String,
}

impl Size {
    /// The size `n`; `name` for the parameter it may need, whose value `what` describes
    /// (`the number of differentiated scalars`), in the result `ret` of `function`.
    pub fn new(namer: &mut Namer, n: &Int, name: &str, what: &str, function: &Ident) -> Size {
        let expr = n.render(&|_| quote!(_));
        if !n.generic || n.is_name() {
            return Size {
                tokens: expr,
                generic: None,
                check: TokenStream::new(),
                doc: String::new(),
            };
        }
        let id = namer.local(name);
        let n = expr.to_string();
        let message = format!(
            "`{function}` takes `{id}`, {what}, from the type of its result: `{id}` must be `{n}`"
        );
        let text = id.to_string();
        let check = quote! {
            const { ::autodiff_runtime::__private::check_size(#id, #expr, #message, #text) };
        };
        let doc = format!(
            " `{id}` is {what}, `{n}`: the caller writes it in the result's type, and a wrong `{id}` is a compile error (in `cargo build`; `cargo check` does not evaluate it)."
        );
        Size { tokens: id.to_token_stream(), generic: Some(id), check, doc }
    }
}

/// A size as the doc comments write it: `3`, `N`, `(N + 1)`.
pub fn dim_text(n: &Int) -> String {
    let text = n.render(&|_| quote!(_)).to_string();
    match text.contains(' ') {
        true => format!("({text})"),
        false => text,
    }
}

/// The doc comment of `f_jacobian` for the kernels `(jvp, vjp)`, with its sizes (rows, then
/// columns) as the result's type writes them and as expressions; `one_pass` when it is made by
/// one forward pass and one sweep carrying every row.
pub fn jacobian_doc(
    name: &Ident,
    (jvp, vjp): (&Ident, &Ident),
    (mode, one_pass): (Mode, bool),
    sizes: [(&Size, &Int); 2],
) -> String {
    let chosen = match mode {
        Mode::Forward if one_pass => format!(
            "forward mode in one pass: one forward sweep carrying every column's tangent (vector mode), each column what `{jvp}` gives along its unit direction, with no product by the direction's zeros computed"
        ),
        Mode::Reverse if one_pass => format!(
            "reverse mode in one pass: one forward pass and one sweep carrying every row's adjoint (vector mode), each row what `{vjp}` gives for its unit cotangent, with no product by the cotangent's zeros computed"
        ),
        Mode::Forward => format!("forward mode: one call of `{jvp}` per column"),
        Mode::Reverse => format!("reverse mode: one call of `{vjp}` per row"),
        Mode::Auto => format!(
            "forward mode (`{jvp}` per column) when it has fewer columns than rows, reverse mode (`{vjp}` per row) otherwise"
        ),
    };
    let [(rows, m), (cols, n)] = sizes;
    format!(
        " Value and Jacobian of `{name}`: `{m}×{n}`, row `i` for the `i`-th output scalar, column `j` for\n the `j`-th differentiated scalar (parameters in order, array elements in row-major order).\n\n Generated by `#[grad(jacobian)]`, by {chosen}.{}{}",
        rows.doc,
        cols.doc,
        m = dim_text(m),
        n = dim_text(n),
    )
}

/// The body of `f_jacobian_mode`.
pub fn mode(jac: &Jacobian) -> TokenStream {
    let (forward, reverse) = (symbol::MODE_FORWARD, symbol::MODE_REVERSE);
    let (n, m) = (&jac.n, &jac.m);
    match jac.mode {
        Mode::Forward => quote!(#forward),
        Mode::Reverse => quote!(#reverse),
        Mode::Auto => quote!(if #n < #m { #forward } else { #reverse }),
    }
}

/// Checks that the constant parameters are `Copy`, each at its type: the wrappers pass them to
/// the kernel once per direction, and without the check a `Vec` parameter would be reported as a
/// moved value at the attribute.
pub fn copy_checks(namer: &mut Namer, constants: &[&Param]) -> TokenStream {
    if constants.is_empty() {
        return TokenStream::new();
    }
    let check = namer.local(symbol::HESSIAN_COPY_CHECK);
    let calls = constants.iter().map(|p| {
        let (ident, ty) = (&p.ident, &p.ty);
        quote_spanned!(ty.span()=> #check::<#ty>(&#ident);)
    });
    quote! {
        fn #check<T: ::core::marker::Copy>(_: &T) {}
        #(#calls)*
    }
}
