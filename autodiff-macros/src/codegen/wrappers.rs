//! The dense Hessian and the Jacobian: a kernel (`f_hvp`, `f_jvp`, `f_vjp`) run once per unit
//! direction, in a loop, so their code does not grow with the number of parameters. The
//! runtime's `Flat` lays each sweep's result out as one row or column (arrays in row-major order,
//! parameters in order).

use proc_macro2::{Ident, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::names::Namer;
use crate::args::Mode;
use crate::lower::Param;
use crate::symbol;

/// What a wrapper passes to a kernel: the user's parameters, and the differentiated ones' owned
/// types (a direction is built owned and lent when the parameter is a reference).
pub struct Call<'a> {
    /// The identifiers of the user's parameters, in order.
    pub args: &'a [Ident],
    /// For each differentiated parameter: its name, its owned type, and whether it is taken by
    /// reference.
    pub dirs: &'a [(String, TokenStream, bool)],
    /// Whether the kernels are deprecated (as `f` is), so calling them needs an `allow`.
    pub deprecated: bool,
}

impl Call<'_> {
    /// `let (d0, d1): (T0, T1) = Flat::unit(k);` and the direction arguments (`d0, &d1`).
    fn unit(&self, namer: &mut Namer, k: &Ident) -> (TokenStream, Vec<TokenStream>) {
        let names: Vec<Ident> = self
            .dirs
            .iter()
            .map(|(name, _, _)| namer.local(&format!("{name}_{}", symbol::SUFFIX_DOT)))
            .collect();
        let tys = self.dirs.iter().map(|(_, t, _)| t);
        let pattern = match names.as_slice() {
            [one] => quote!(#one),
            many => quote!((#(#many),*)),
        };
        let ty = match self.dirs {
            [(_, t, _)] => t.clone(),
            _ => quote!((#(#tys),*)),
        };
        let bind = quote!(let #pattern: #ty = ::autodiff_runtime::__private::Flat::unit(#k););
        let pass = names
            .iter()
            .zip(self.dirs)
            .map(|(n, (_, _, by_ref))| if *by_ref { quote!(&#n) } else { quote!(#n) })
            .collect();
        (bind, pass)
    }

    fn allow(&self) -> Option<TokenStream> {
        self.deprecated.then(|| quote!(#[allow(deprecated)]))
    }
}

/// The body of `f_hessian`: row `i` is `H·eᵢ` from `hvp`, for `n` differentiated scalars.
pub fn hessian(namer: &mut Namer, hvp: &Ident, call: &Call, n: &TokenStream) -> TokenStream {
    let [h, row, i, j, x] = symbol::HESSIAN_LOCALS.map(|want| namer.local(want));
    let hv = namer.local("hv");
    let (unit, dirs) = call.unit(namer, &i);
    let (args, allow) = (call.args, call.allow());
    quote! {
        let mut #h = [[0.0; #n]; #n];
        for (#i, #row) in #h.iter_mut().enumerate() {
            #unit
            #allow
            let (_, _, #hv) = #hvp(#(#args,)* #(#dirs),*);
            for (#j, #x) in #row.iter_mut().enumerate() {
                *#x = ::autodiff_runtime::__private::Flat::get(&#hv, #j);
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
}

/// The body of `f_jacobian`: `(value, J)`, by columns (`f_jvp`) or rows (`f_vjp`).
pub fn jacobian(namer: &mut Namer, jac: &Jacobian, call: &Call) -> TokenStream {
    let [value, jm, row, i, j, x, sweep] = symbol::JACOBIAN_LOCALS.map(|want| namer.local(want));
    let Jacobian { f, jvp, vjp, n, m, mode } = jac;
    let (args, allow) = (call.args, call.allow());
    let (unit, dirs) = call.unit(namer, &j);
    let forward = quote! {
        for #j in 0..#n {
            #unit
            #allow
            let (_, #sweep) = #jvp(#(#args,)* #(#dirs),*);
            for (#i, #row) in #jm.iter_mut().enumerate() {
                #row[#j] = ::autodiff_runtime::__private::Flat::get(&#sweep, #i);
            }
        }
    };
    let reverse = quote! {
        for (#i, #row) in #jm.iter_mut().enumerate() {
            #allow
            let (_, #sweep) = #vjp(#(#args,)* ::autodiff_runtime::__private::Flat::unit(#i));
            for (#j, #x) in #row.iter_mut().enumerate() {
                *#x = ::autodiff_runtime::__private::Flat::get(&#sweep, #j);
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
        let mut #jm = [[0.0; #n]; #m];
        #sweeps
        (#value, #jm)
    }
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
