//! Rendering IR statements as Rust: one `let` per named variable (declarations then assignments in
//! very long functions), single-use temporaries inlined into their reader, parentheses only where
//! precedence needs them.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{ToTokens, quote};

use crate::ir::{Cmp, Func, Operand, Prec, Prim, Stmt};
use crate::symbol;

/// How many statements after its definition a single-use temporary may be read and still be
/// inlined into its reader. Inlining a value read much later would move its computation there and
/// keep all its operands alive across the statements in between (across libm calls every `f64`
/// register is caller-saved, so that means spills): measured, unlimited inlining made a 93-statement
/// gradient about 7 % slower than this (see BENCHMARKS.md).
const INLINE_DISTANCE: usize = 8;

/// How many statements deep inlined temporaries may nest in one expression. The adjoint of a
/// value read by many statements is a sum with one term per read, a chain of single-use
/// temporaries; inlined whole it would be one expression as deep as the number of reads, which
/// codegen renders recursively (a parameter read by 4,000 statements overflowed rustc's stack
/// inside the macro). Past this depth the chain is cut by a named temporary.
const MAX_INLINED_DEPTH: usize = 16;

/// Up to this many named values, a body has one `let` per value. Every `let` opens a lexical scope
/// nested in the previous one, and in a debug build LLVM's DWARF writer recurses once per nested
/// scope (`DwarfCompileUnit::createAndAddScopeChildren`): about 2,900 nested `let`s overflow the
/// 2 MiB stack of rustc's codegen threads (rustc 1.95, x86-64 Linux), which kills rustc with a
/// SIGSEGV. The limit leaves a margin for platforms with larger stack frames.
const MAX_LETS: usize = 1000;

/// Past [`MAX_LETS`], values are declared about this many at a time, `let [a, b, ...]: [f64; n];`,
/// each declaration followed by the assignments of its values, so scopes nest once per
/// declaration. Declarations stay short because rustc's cost for one grows faster than its length
/// (one of 28,000 names took 6 s and 10 GB in MIR building and borrow checking).
const DECLARED_TOGETHER: usize = 128;

/// Which variables are inlined: temporaries defined by a statement and read exactly once, within
/// [`INLINE_DISTANCE`] statements (the outputs count as read after the last statement), unless
/// the expression would nest more than [`MAX_INLINED_DEPTH`] of them.
pub fn inlined(f: &Func) -> Vec<bool> {
    let mut uses = vec![0_usize; f.names.len()];
    let mut last_read = vec![0_usize; f.names.len()];
    let reads = f.stmts.iter().enumerate().flat_map(|(i, s)| s.args.iter().map(move |a| (i, a)));
    let outputs = f.outputs.iter().map(|a| (f.stmts.len(), a));
    for (at, v) in reads.chain(outputs).filter_map(|(i, op)| Some((i, op.var()?))) {
        uses[v.index()] += 1;
        last_read[v.index()] = at;
    }
    let mut inline = vec![false; f.names.len()];
    // The depth of the expression of each inlined variable; 0 for a variable that is named.
    let mut depth = vec![0_usize; f.names.len()];
    for (i, s) in f.stmts.iter().enumerate() {
        let v = s.out.index();
        let nested = s.args.iter().filter_map(|a| a.var()).map(|a| depth[a.index()]).max();
        let own = nested.unwrap_or(0) + 1;
        inline[v] = f.name(s.out).is_temp()
            && uses[v] == 1
            && last_read[v] - i <= INLINE_DISTANCE
            && own <= MAX_INLINED_DEPTH;
        if inline[v] {
            depth[v] = own;
        }
    }
    inline
}

/// An expression and how tightly it binds.
struct Expr {
    tokens: TokenStream,
    prec: Prec,
}

impl Expr {
    fn new(tokens: TokenStream, prec: Prec) -> Self {
        Expr { tokens, prec }
    }

    /// The tokens, parenthesised unless the expression binds at least as tightly as `min`.
    fn at_least(self, min: Prec) -> TokenStream {
        let t = self.tokens;
        if self.prec >= min { t } else { quote!((#t)) }
    }
}

/// Renders the statements and outputs of one function.
pub struct Renderer<'a> {
    f: &'a Func,
    idents: &'a [Option<Ident>],
    defs: Vec<Option<usize>>,
}

impl<'a> Renderer<'a> {
    /// A renderer for `f` with the identifiers chosen by the namer (`None` = inlined).
    pub fn new(f: &'a Func, idents: &'a [Option<Ident>]) -> Self {
        let mut defs = vec![None; f.names.len()];
        for (i, s) in f.stmts.iter().enumerate() {
            defs[s.out.index()] = Some(i);
        }
        Renderer { f, idents, defs }
    }

    /// `let name = expr;` for every variable that is not inlined, in order; past [`MAX_LETS`]
    /// such variables, runs of about [`DECLARED_TOGETHER`] are each declared by one `let` and then
    /// assigned (`name = expr;`).
    pub fn statements(&self) -> Vec<TokenStream> {
        let named: Vec<(&Ident, TokenStream)> = self
            .f
            .stmts
            .iter()
            .filter_map(|s| Some((self.idents[s.out.index()].as_ref()?, self.stmt(s).tokens)))
            .collect();
        if named.len() <= MAX_LETS {
            return named.into_iter().map(|(id, e)| quote!(let #id = #e;)).collect();
        }
        // Runs of equal length to one, so that none is a lone value.
        let runs = named.len().div_ceil(DECLARED_TOGETHER);
        let start = |k: usize| k * named.len() / runs;
        let declared = (0..runs).flat_map(|k| {
            let run = &named[start(k)..start(k + 1)];
            let ids = run.iter().map(|(id, _)| id);
            let n = Literal::usize_unsuffixed(run.len());
            let assigned = run.iter().map(|(id, e)| quote!(#id = #e;));
            std::iter::once(quote!(let [#(#ids),*]: [f64; #n];)).chain(assigned)
        });
        declared.collect()
    }

    /// An output (or any operand) as an expression in a position that needs no parentheses.
    pub fn value(&self, op: Operand) -> TokenStream {
        self.operand(op).tokens
    }

    fn operand(&self, op: Operand) -> Expr {
        match op {
            Operand::Var(v) => match (&self.idents[v.index()], self.defs[v.index()]) {
                (Some(id), _) => Expr::new(id.to_token_stream(), Prec::Atom),
                (None, Some(i)) => self.stmt(&self.f.stmts[i]),
                (None, None) => Expr::new(quote!(::core::f64::NAN), Prec::Atom),
            },
            Operand::Lit(x) => literal(x, false),
            Operand::Ext(e) => {
                let ext = &self.f.exts[e.0 as usize];
                Expr::new(ext.tokens.clone(), ext.prec)
            }
        }
    }

    /// The operand as a method receiver: literals get an `f64` suffix.
    fn receiver(&self, op: Operand) -> TokenStream {
        match op {
            Operand::Lit(x) => literal(x, true).at_least(Prec::Atom),
            other => self.operand(other).at_least(Prec::Atom),
        }
    }

    fn stmt(&self, s: &Stmt) -> Expr {
        let a = |i: usize| s.args[i];
        let binary = |op: TokenStream, prec: Prec| {
            let l = self.operand(a(0)).at_least(prec);
            let r = self.operand(a(1));
            let r = if r.prec > prec {
                r.tokens
            } else {
                Expr::new(r.tokens, r.prec).at_least(Prec::Atom)
            };
            Expr::new(quote!(#l #op #r), prec)
        };
        match s.prim {
            Prim::Neg => {
                let x = self.operand(a(0));
                let x = if x.prec > Prec::Unary { x.tokens } else { x.at_least(Prec::Atom) };
                Expr::new(quote!(-#x), Prec::Unary)
            }
            Prim::Add => binary(quote!(+), Prec::Sum),
            Prim::Sub => binary(quote!(-), Prec::Sum),
            Prim::Mul => binary(quote!(*), Prec::Product),
            Prim::Div => binary(quote!(/), Prec::Product),
            Prim::Select(cmp) => self.select(cmp, s),
            Prim::Powi(n) => {
                let x = self.receiver(a(0));
                let n = Literal::i32_unsuffixed(n);
                Expr::new(quote!(#x.powi(#n)), Prec::Atom)
            }
            prim => {
                let name =
                    Ident::new(symbol::prim_method(prim).unwrap_or("abs"), Span::call_site());
                let x = self.receiver(a(0));
                let rest: Vec<TokenStream> =
                    s.args[1..].iter().map(|o| self.operand(*o).tokens).collect();
                Expr::new(quote!(#x.#name(#(#rest),*)), Prec::Atom)
            }
        }
    }

    /// `if p <cmp> q { a } else { b }`, with a nested select in `b` written as `else if`.
    fn select(&self, cmp: Cmp, s: &Stmt) -> Expr {
        let side = |op: Operand| self.operand(op).at_least(Prec::Unary);
        let (p, q) = (side(s.args[0]), side(s.args[1]));
        let op = match cmp {
            Cmp::Eq => quote!(==),
            Cmp::Lt => quote!(<),
            Cmp::Gt => quote!(>),
        };
        let then = self.operand(s.args[2]).tokens;
        let otherwise = self.operand(s.args[3]);
        let otherwise = if otherwise.prec == Prec::If {
            otherwise.tokens
        } else {
            let t = otherwise.tokens;
            quote!({ #t })
        };
        Expr::new(quote!(if #p #op #q { #then } else #otherwise), Prec::If)
    }
}

/// An `f64` literal; a receiver gets the `_f64` suffix so that its type is known. Named constants
/// of `core::f64::consts` are written by name, and non-finite values by their constant.
fn literal(x: f64, receiver: bool) -> Expr {
    if let Some((name, _)) = symbol::CONSTS.iter().find(|(_, c)| c.to_bits() == x.abs().to_bits()) {
        let name = Ident::new(name, Span::call_site());
        return match x.is_sign_negative() {
            false => Expr::new(quote!(::core::f64::consts::#name), Prec::Atom),
            true => Expr::new(quote!(-::core::f64::consts::#name), Prec::Unary),
        };
    }
    if x.is_nan() {
        return Expr::new(quote!(::core::f64::NAN), Prec::Atom);
    }
    if x.is_infinite() {
        let t =
            if x > 0.0 { quote!(::core::f64::INFINITY) } else { quote!(::core::f64::NEG_INFINITY) };
        return Expr::new(t, Prec::Atom);
    }
    let magnitude = if x != 0.0 && !(1e-5..1e16).contains(&x.abs()) {
        // `1e308`, not a 309-digit literal
        format!("{:e}", x.abs())
            .parse::<Literal>()
            .unwrap_or_else(|_| Literal::f64_unsuffixed(x.abs()))
    } else {
        Literal::f64_unsuffixed(x.abs())
    };
    let magnitude = if receiver {
        format!("{magnitude}_f64")
            .parse::<Literal>()
            .unwrap_or_else(|_| Literal::f64_suffixed(x.abs()))
    } else {
        magnitude
    };
    if x.is_sign_negative() {
        Expr::new(quote!(-#magnitude), Prec::Unary)
    } else {
        Expr::new(magnitude.into_token_stream(), Prec::Atom)
    }
}
