//! The dense Hessian and the Jacobian: a kernel (`f_hvp`, `f_jvp`, `f_vjp`) run once per unit
//! direction, in a loop, so their code does not grow with the number of parameters. Each sweep's
//! result is laid out as one row or column part by part (a tuple's components named one by one,
//! arrays in row-major order, parameters in order) with the runtime's `scalar`, `write_parts`
//! and `set_unit`, which need a trait on each part (an `f64` or an array), never on a whole
//! tuple: no limit on the number of parameters or outputs. A Jacobian of a few rows known to the
//! macro is written out row by row, each seed a constant.

use proc_macro2::{Ident, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;

use super::names::Namer;
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
}

impl Call<'_> {
    /// `let mut d0: T0 = 0.0; let mut d1: [f64; N] = [0.0; N]; …; set_unit(&mut [&mut d0, …], k);`
    /// and the direction arguments (`d0, &d1`).
    fn unit(&self, namer: &mut Namer, k: &Ident) -> (TokenStream, Vec<TokenStream>) {
        let names: Vec<Ident> = self
            .dirs
            .iter()
            .map(|d| namer.local(&format!("{}_{}", d.name, symbol::SUFFIX_DOT)))
            .collect();
        let tys = self.dirs.iter().map(|d| &d.ty);
        let zeros = self.dirs.iter().map(|d| d.zero.clone().unwrap_or_else(|| zero(&d.ty)));
        let lent = names.iter().zip(self.dirs).map(|(n, d)| match d.span {
            Some(span) => {
                let ty = &d.ty;
                quote_spanned!(span=> <#ty as ::autodiff_runtime::__private::Part>::part_mut(&mut #n))
            }
            None => quote!(&mut #n),
        });
        let bind = quote! {
            #(let mut #names: #tys = #zeros;)*
            ::autodiff_runtime::__private::set_unit(&mut [#(#lent),*], #k);
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
fn zero(ty: &TokenStream) -> TokenStream {
    fn of(ty: &syn::Type) -> TokenStream {
        match ty {
            syn::Type::Array(a) => {
                let (elem, len) = (of(&a.elem), &a.len);
                quote!([#elem; #len])
            }
            syn::Type::Paren(p) => of(&p.elem),
            syn::Type::Group(g) => of(&g.elem),
            syn::Type::Path(p)
                if p.path.segments.last().is_some_and(|s| s.ident == symbol::F64) =>
            {
                quote!(0.0)
            }
            _ => quote!(::autodiff_runtime::__private::Flat::zero()),
        }
    }
    match syn::parse2::<syn::Type>(ty.clone()) {
        Ok(t) => of(&t),
        Err(_) => quote!(::autodiff_runtime::__private::Flat::zero()),
    }
}

/// `&[&v.0, &v.1, …]` for a result that is a tuple of `n` parts, `&[&v]` for one part; a part
/// that is a struct (its direction in `dirs` says so) is lent through `Part::part`, spanned at
/// the struct's type, where a struct that does not derive `Differentiable` is then reported.
fn parts(v: &Ident, n: usize, dirs: &[Dir]) -> TokenStream {
    let lent = |part: TokenStream, k: usize| match dirs.get(k).and_then(|d| Some((d, d.span?))) {
        Some((d, span)) => {
            let ty = &d.ty;
            quote_spanned!(span=> <#ty as ::autodiff_runtime::__private::Part>::part(&#part))
        }
        None => quote!(&#part),
    };
    match n {
        1 => {
            let part = lent(quote!(#v), 0);
            quote!(&[#part])
        }
        _ => {
            let all = (0..n).map(|k| {
                let field = syn::Index::from(k);
                lent(quote!(#v.#field), k)
            });
            quote!(&[#(#all),*])
        }
    }
}

/// The `k`-th scalar of the result `v` of `n` parts (`dirs` as [`parts`] reads them).
fn scalar(v: &Ident, n: usize, k: &Ident, dirs: &[Dir]) -> TokenStream {
    let parts = parts(v, n, dirs);
    quote!(::autodiff_runtime::__private::scalar(#parts, #k))
}

/// The body of `f_hessian`: row `i` is `H·eᵢ` from `hvp`, for `n` differentiated scalars.
pub fn hessian(namer: &mut Namer, hvp: &Ident, call: &Call, n: &TokenStream) -> TokenStream {
    let [h, row, i, j, x] = symbol::HESSIAN_LOCALS.map(|want| namer.local(want));
    let hv = namer.local("hv");
    let (unit, dirs) = call.unit(namer, &i);
    let (args, allow, prefix) = (call.args, call.allow(), &call.prefix);
    let get = scalar(&hv, call.dirs.len(), &j, call.dirs);
    quote! {
        let mut #h = [[0.0; #n]; #n];
        for (#i, #row) in #h.iter_mut().enumerate() {
            #unit
            #allow
            let (_, _, #hv) = #prefix #hvp(#(#args,)* #(#dirs),*);
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
    /// The number of parts of its value: a tuple's length, or 1 for an array.
    pub outputs: usize,
    /// Whether the value is a struct (its zero is `Differentiable::zero_like(&value)`).
    pub record: bool,
}

/// Up to how many rows, known to the macro, a Jacobian by rows is written out row by row rather
/// than looped over (each row is one call of `f_vjp`, seeded by a constant).
pub const UNROLLED_ROWS: u64 = 4;

/// The body of `f_jacobian`: `(value, J)`, by columns (`f_jvp`) or rows (`f_vjp`).
pub fn jacobian(namer: &mut Namer, jac: &Jacobian, call: &Call) -> TokenStream {
    let [value, jm, row, i, j, _, sweep] = symbol::JACOBIAN_LOCALS.map(|want| namer.local(want));
    let Jacobian { f, jvp, vjp, n, m, mode, .. } = jac;
    let (args, allow, prefix) = (call.args, call.allow(), &call.prefix);
    let (unit, dirs) = call.unit(namer, &j);
    let column = scalar(&sweep, jac.outputs, &i, &[]);
    let forward = quote! {
        for #j in 0..#n {
            #unit
            #allow
            let (_, #sweep) = #prefix #jvp(#(#args,)* #(#dirs),*);
            for (#i, #row) in #jm.iter_mut().enumerate() {
                #row[#j] = #column;
            }
        }
    };
    let out_bar = namer.local(symbol::OUT_BAR);
    let write = parts(&sweep, call.dirs.len(), call.dirs);
    let reverse_row = |r: TokenStream, dest: TokenStream| {
        let seed = cotangent(jac, &out_bar, &r, &value);
        quote! {
            #seed
            #allow
            let (_, #sweep) = #prefix #vjp(#(#args,)* #out_bar);
            ::autodiff_runtime::__private::write_parts(#write, #dest);
        }
    };
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
        let mut #jm = [[0.0; #n]; #m];
        #sweeps
        (#value, #jm)
    }
}

/// `let mut out_bar: R = …; set_unit(&mut [&mut out_bar.0, …], i);`: the `i`-th unit cotangent
/// of the function's value.
fn cotangent(jac: &Jacobian, out_bar: &Ident, i: &TokenStream, value: &Ident) -> TokenStream {
    let ret = &jac.ret;
    let (zero, parts) = match jac.outputs {
        1 if jac.record => {
            (quote!(::autodiff_runtime::Differentiable::zero_like(&#value)), quote!(&mut #out_bar))
        }
        1 => (zero(ret), quote!(&mut #out_bar)),
        n => {
            let zeros = (0..n).map(|_| quote!(::autodiff_runtime::__private::zero()));
            let fields = (0..n).map(syn::Index::from);
            (quote!((#(#zeros),*)), quote!(#(&mut #out_bar.#fields),*))
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
    let spaced = n.render(&|_| quote!(_)).to_string();
    let text = [(" :: ", "::"), (":: ", "::"), ("< ", "<"), (" >", ">")]
        .iter()
        .fold(spaced, |t, (from, to)| t.replace(from, to));
    match text.contains(' ') {
        true => format!("({text})"),
        false => text,
    }
}

/// The doc comment of `f_jacobian` for the kernels `(jvp, vjp)`, with its sizes (rows, then
/// columns) as the result's type writes them and as expressions.
pub fn jacobian_doc(
    name: &Ident,
    (jvp, vjp): (&Ident, &Ident),
    mode: Mode,
    sizes: [(&Size, &Int); 2],
) -> String {
    let chosen = match mode {
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
