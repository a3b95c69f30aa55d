//! The dense Hessian and the Jacobian: a kernel (`f_hvp`, `f_jvp`, `f_vjp`) run once per unit
//! direction, in a loop, so their code does not grow with the number of parameters. Each sweep's
//! result is laid out as one row or column part by part (a tuple's components named one by one,
//! arrays in row-major order, parameters in order) with the runtime's `scalar` and `set_unit`,
//! which see each part as a flat slice of scalars, never a whole tuple: no limit on the number
//! of parameters or outputs, and no trait on the scalar type beyond `Float`.

use proc_macro2::{Ident, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;

use super::names::Namer;
use super::scalar::Tokens;
use crate::args::Mode;
use crate::ir::Int;
use crate::lower::Param;
use crate::symbol;

/// A differentiated parameter, as a wrapper builds its direction: its name, its owned type,
/// whether it is taken by reference, and how many array dimensions it has.
pub struct Dir {
    /// The parameter's name.
    pub name: String,
    /// Its owned type (`[f64; N]` for `&[f64; N]`).
    pub ty: TokenStream,
    /// Whether it is taken by reference (its direction is lent).
    pub by_ref: bool,
    /// Its number of array dimensions (0 for a scalar).
    pub depth: usize,
}

/// What a wrapper passes to a kernel: the user's parameters, and the differentiated ones' owned
/// types (a direction is built owned and lent when the parameter is a reference).
pub struct Call<'a> {
    /// The identifiers of the user's parameters, in order.
    pub args: &'a [Ident],
    /// The differentiated parameters.
    pub dirs: &'a [Dir],
    /// Whether the kernels are deprecated (as `f` is), so calling them needs an `allow`.
    pub deprecated: bool,
    /// The scalar type.
    pub scalar: &'a Tokens,
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
        let zeros = self.dirs.iter().map(|d| zero(&d.ty, self.scalar));
        let views = names.iter().zip(self.dirs).map(|(n, d)| view(quote!(#n), d.depth, true));
        let bind = quote! {
            #(let mut #names: #tys = #zeros;)*
            ::autodiff_runtime::__private::set_unit(&mut [#(#views),*], #k);
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

/// `&[from_ref(&v.0), &v.1, …]` for a result that is a tuple of parts of the given depths,
/// `&[&v]` for one part.
fn parts(v: &Ident, depths: &[usize]) -> TokenStream {
    match depths {
        [one] => {
            let part = view(quote!(#v), *one, false);
            quote!(&[#part])
        }
        _ => {
            let views = depths.iter().enumerate().map(|(k, d)| {
                let field = syn::Index::from(k);
                view(quote!(#v.#field), *d, false)
            });
            quote!(&[#(#views),*])
        }
    }
}

/// The `k`-th scalar of the result `v` whose parts have the given depths.
fn scalar(v: &Ident, depths: &[usize], k: &Ident) -> TokenStream {
    let parts = parts(v, depths);
    quote!(::autodiff_runtime::__private::scalar(#parts, #k))
}

/// The body of `f_hessian`: row `i` is `H·eᵢ` from `hvp`, for `n` differentiated scalars.
pub fn hessian(namer: &mut Namer, hvp: &Ident, call: &Call, n: &TokenStream) -> TokenStream {
    let [h, row, i, j, x] = symbol::HESSIAN_LOCALS.map(|want| namer.local(want));
    let hv = namer.local("hv");
    let (unit, dirs) = call.unit(namer, &i);
    let (args, allow) = (call.args, call.allow());
    let depths: Vec<usize> = call.dirs.iter().map(|d| d.depth).collect();
    let get = scalar(&hv, &depths, &j);
    let zero = call.scalar.zero();
    quote! {
        let mut #h = [[#zero; #n]; #n];
        for (#i, #row) in #h.iter_mut().enumerate() {
            #unit
            #allow
            let (_, _, #hv) = #hvp(#(#args,)* #(#dirs),*);
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
    /// The mode asked for.
    pub mode: Mode,
    /// The function's return type.
    pub ret: TokenStream,
    /// The depth of each part of its value: a tuple's scalars (0 each), or one array's.
    pub outputs: Vec<usize>,
}

/// The body of `f_jacobian`: `(value, J)`, by columns (`f_jvp`) or rows (`f_vjp`).
pub fn jacobian(namer: &mut Namer, jac: &Jacobian, call: &Call) -> TokenStream {
    let [value, jm, row, i, j, x, sweep] = symbol::JACOBIAN_LOCALS.map(|want| namer.local(want));
    let Jacobian { f, jvp, vjp, n, m, mode, .. } = jac;
    let (args, allow) = (call.args, call.allow());
    let zero = call.scalar.zero();
    let (unit, dirs) = call.unit(namer, &j);
    let column = scalar(&sweep, &jac.outputs, &i);
    let forward = quote! {
        for #j in 0..#n {
            #unit
            #allow
            let (_, #sweep) = #jvp(#(#args,)* #(#dirs),*);
            for (#i, #row) in #jm.iter_mut().enumerate() {
                #row[#j] = #column;
            }
        }
    };
    let out_bar = namer.local(symbol::OUT_BAR);
    let seed = cotangent(jac, call.scalar, &out_bar, &i);
    let depths: Vec<usize> = call.dirs.iter().map(|d| d.depth).collect();
    let row_of = scalar(&sweep, &depths, &j);
    let reverse = quote! {
        for (#i, #row) in #jm.iter_mut().enumerate() {
            #seed
            #allow
            let (_, #sweep) = #vjp(#(#args,)* #out_bar);
            for (#j, #x) in #row.iter_mut().enumerate() {
                *#x = #row_of;
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
        let #value = #f(#(#args),*);
        let mut #jm = [[#zero; #n]; #m];
        #sweeps
        (#value, #jm)
    }
}

/// `let mut out_bar: R = …; set_unit(&mut [&mut out_bar.0, …], i);`: the `i`-th unit cotangent
/// of the function's value.
fn cotangent(jac: &Jacobian, scalar: &Tokens, out_bar: &Ident, i: &Ident) -> TokenStream {
    let ret = &jac.ret;
    let (zero, parts) = match jac.outputs.as_slice() {
        [depth] => (zero(ret, scalar), view(quote!(#out_bar), *depth, true)),
        many => {
            let zeros = many.iter().map(|_| scalar.zero());
            let views = many.iter().enumerate().map(|(k, d)| {
                let field = syn::Index::from(k);
                view(quote!(#out_bar.#field), *d, true)
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
