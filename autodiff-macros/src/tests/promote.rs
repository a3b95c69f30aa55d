//! Store-to-load forwarding and scalar promotion on lowered functions: which loads they remove,
//! which carried arrays become scalars (and which stay arrays), with the interpreted results
//! unchanged to the bit; and storage made once before a loop rather than in every iteration,
//! through the whole grad pipeline against a closed form.

use super::interp::{Consts, Val, run};
use super::lowering::lowered;
use crate::ir::{Block, Func, Stmt, verify};
use crate::transform::{forward_stores, promote};

/// How many loads `block` has, nested blocks included.
fn loads(block: &Block) -> usize {
    block
        .iter()
        .map(|s| match s {
            Stmt::Load { .. } => 1,
            Stmt::For(l) => loads(&l.body),
            Stmt::If(b) => loads(&b.then) + loads(&b.otherwise),
            _ => 0,
        })
        .sum()
}

/// The number of values each loop at the top level of `block` carries as arrays.
fn carried_arrays(f: &Func) -> Vec<usize> {
    let arrays =
        |l: &crate::ir::Loop| l.carried.iter().filter(|c| f.ty(c.param).shape().is_some()).count();
    f.body
        .iter()
        .filter_map(|s| match s {
            Stmt::For(l) => Some(arrays(l)),
            _ => None,
        })
        .collect()
}

/// Runs `f` and `g` on the same `x` of length 5 (`N = 5`); their outputs must be equal to the
/// bit.
fn same_values(f: &Func, g: &Func) {
    assert_eq!(verify(g), Ok(()));
    let consts = Consts { ints: [("N".to_owned(), 5)].into(), ..Consts::default() };
    let x = Val::A((0..5).map(|k| Val::F((0.3 + 0.77 * k as f64).cos() - 0.1)).collect());
    let bits = |out: Vec<Val>| out.iter().flat_map(Val::flat).map(f64::to_bits).collect::<Vec<_>>();
    let inputs = [x];
    assert_eq!(bits(run(f, &inputs, &consts)), bits(run(g, &inputs, &consts)));
}

#[test]
fn a_load_of_the_element_just_stored_is_the_stored_value() {
    let f = lowered(
        "",
        "fn f(x: [f64; N]) -> f64 {
            let mut y = [0.0; N];
            let mut s = 0.0;
            for i in 0..N {
                y[i] = x[i].sin();
                s += y[i] * x[i];
            }
            s + y[0]
        }",
    )
    .func;
    let g = forward_stores(&f);
    // `y[i]` after `y[i] = …` goes; `x[i]` (twice: lowering keeps both) and `y[0]` stay.
    assert_eq!(loads(&g.body) + 1, loads(&f.body), "{}", super::lowering::text(&g));
    same_values(&f, &g);
}

#[test]
fn a_load_at_another_index_or_of_an_older_version_stays() {
    let f = lowered(
        "",
        "fn f(x: [f64; N]) -> f64 {
            let mut y = [1.0; N];
            let mut s = 0.0;
            for i in 1..N {
                y[i] = x[i].sin();
                s += y[i - 1] * x[i];
            }
            s
        }",
    )
    .func;
    let g = forward_stores(&f);
    assert_eq!(loads(&g.body), loads(&f.body), "{}", super::lowering::text(&g));
    same_values(&f, &g);
}

#[test]
fn an_array_read_at_one_fixed_index_in_a_loop_is_carried_as_a_scalar() {
    let f = lowered(
        "",
        "fn f(x: [f64; N]) -> f64 {
            let mut a = [0.5; 3];
            for i in 0..N {
                a[1] = a[1] * x[i] + x[i];
            }
            a[1] + a[0]
        }",
    )
    .func;
    assert_eq!(carried_arrays(&f), [1]);
    let g = promote(&f);
    assert_eq!(carried_arrays(&g), [0], "{}", super::lowering::text(&g));
    same_values(&f, &g);
}

#[test]
fn arrays_read_at_several_or_moving_indices_stay_arrays() {
    let stays = |body: &str| {
        let src = format!(
            "fn f(x: [f64; N]) -> f64 {{ let mut a = [0.5; N]; {body} a[1] + a[0] + a[N - 1] }}"
        );
        let f = lowered("", &src).func;
        let g = promote(&f);
        assert_eq!(carried_arrays(&g), carried_arrays(&f), "{body}");
        same_values(&f, &g);
    };
    stays("for i in 0..N { a[i] += x[i]; }");
    stays("for i in 0..N { a[1] += x[i]; a[0] += x[i]; }");
    stays("for i in 0..N { a[1] += x[i] * a[1]; let t = a; a[0] = t[1]; }");
}

/// The grad pipeline's result for `src` (parameters `x: [f64; N]`, `c: [f64; 3]`).
fn grad_of(src: &str) -> Func {
    let l = lowered("", src);
    let mut cx = crate::ctxt::Ctxt::new();
    let args = crate::args::parse(&mut cx, proc_macro2::TokenStream::new());
    match crate::expand::derivatives(&l, &args, false) {
        Ok(d) => d.grad,
        Err(crate::expand::Failure::Internal(e)) => panic!("{e}"),
    }
}

/// Whether a loop's body at `block`'s level, or deeper, fills an array at its own top level.
fn fills_in_loops(block: &Block) -> bool {
    block.iter().any(|s| match s {
        Stmt::For(l) => {
            l.body.iter().any(|s| matches!(s, Stmt::Fill { .. })) || fills_in_loops(&l.body)
        }
        Stmt::If(b) => fills_in_loops(&b.then) || fills_in_loops(&b.otherwise),
        _ => false,
    })
}

#[test]
fn storage_made_afresh_each_iteration_is_made_once_before_the_loop() {
    // A reduction over points whose sweep keeps, per point, what the loop over components
    // computed: that storage is made before the loop over points and reused.
    let src = "fn f(x: [f64; N], c: [f64; 3]) -> f64 {
        let mut s = 0.0;
        for i in 0..N {
            let mut t = 0.0;
            for k in 0..3 {
                t += (x[i] - c[k]).sin() * c[k];
            }
            s += (t * t).exp();
        }
        s
    }";
    let g = grad_of(src);
    assert_eq!(verify(&g), Ok(()));
    let text = super::lowering::text(&g);
    assert!(!fills_in_loops(&g.body), "{text}");
    // Value and gradient against the closed form, at N = 3.
    let (x, c) = ([0.3, -0.7, 1.1], [0.5, -0.2, 0.9]);
    let consts = Consts { ints: [("N".to_owned(), 3)].into(), ..Consts::default() };
    let arr = |v: &[f64]| Val::A(v.iter().map(|a| Val::F(*a)).collect());
    let out = run(&g, &[arr(&x), arr(&c)], &consts);
    let mut value = 0.0;
    let (mut x_bar, mut c_bar) = ([0.0; 3], [0.0; 3]);
    for i in 0..3 {
        let t: f64 = (0..3).map(|k| (x[i] - c[k]).sin() * c[k]).sum();
        let e = (t * t).exp();
        value += e;
        for k in 0..3 {
            let dt = 2.0 * t * e;
            x_bar[i] += dt * (x[i] - c[k]).cos() * c[k];
            c_bar[k] += dt * ((x[i] - c[k]).sin() - (x[i] - c[k]).cos() * c[k]);
        }
    }
    let got: Vec<f64> = out.iter().flat_map(Val::flat).collect();
    let want: Vec<f64> = [value].iter().chain(&x_bar).chain(&c_bar).copied().collect();
    assert_eq!(got.len(), want.len(), "{text}");
    for (a, b) in got.iter().zip(&want) {
        assert!((a - b).abs() <= 1e-12 * b.abs().max(1.0), "{got:?} against {want:?}");
    }
}
