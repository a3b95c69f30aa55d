//! The widening of a VJP to its unit cotangents at once (`transform/widen.rs`), checked with the
//! IR interpreter: each lane of the widened function gives what the VJP gives for that lane's
//! cotangent (the same numbers, a zero's sign aside: the lane computes no product by its
//! cotangent's zeros), and the widened function keeps one copy of each loop and branch.

use quote::quote;

use super::interp::{Consts, Val, run};
use crate::args::Args;
use crate::ctxt::Ctxt;
use crate::ir::{Block, Func, Prim, Stmt, verify};
use crate::lower::lower;
use crate::transform::{Options, Seed, dead_code, plan, reverse, widen};

/// The VJP of `item` (a function returning `[f64; M]`), its loops stored or, with
/// `snapshots`, checkpointed.
fn vjp_of(item: proc_macro2::TokenStream, snapshots: Option<u64>) -> Func {
    let mut cx = Ctxt::new();
    let item: syn::ItemFn = syn::parse2(item).expect("test input is a function");
    let f = lower(&mut cx, &item, &Args::default()).func;
    assert!(cx.is_ok());
    let options = Options { budget: 1 << 20, snapshots, checkpoint_unsized: false, tier: None };
    dead_code(&reverse(&f, &plan(&f, options), Seed::Inputs))
}

/// The loops, branches and checkpointed sweeps of `block`, nested ones included.
fn regions(block: &Block) -> usize {
    block
        .iter()
        .map(|s| match s {
            Stmt::For(l) => 1 + regions(&l.body),
            Stmt::While(w) => 1 + regions(&w.body),
            Stmt::If(b) => 1 + regions(&b.then) + regions(&b.otherwise),
            Stmt::Checkpoint(c) => 1 + regions(&c.step) + regions(&c.back),
            _ => 0,
        })
        .sum()
}

/// The `r`-th unit cotangent of `m` outputs.
fn unit(m: usize, r: usize) -> Val {
    Val::A((0..m).map(|k| Val::F(if k == r { 1.0 } else { 0.0 })).collect())
}

/// The products and quotients of `block`, nested ones included.
fn products(block: &Block) -> usize {
    let mut n = 0;
    for s in block {
        match s {
            Stmt::Op { prim: Prim::Mul | Prim::Div, .. } => n += 1,
            Stmt::For(l) => n += products(&l.body),
            Stmt::If(b) => n += products(&b.then) + products(&b.otherwise),
            Stmt::Checkpoint(c) => n += products(&c.step) + products(&c.back),
            _ => {}
        }
    }
    n
}

/// `item`'s VJP widened to its `m` rows: every lane against the VJP seeded alike, the same
/// numbers (the bits of every nonzero one). Returns the widened function.
fn check(item: proc_macro2::TokenStream, m: usize, inputs: &[Val], snapshots: Option<u64>) -> Func {
    let vjp = vjp_of(item, snapshots);
    let values = vjp.outputs.len() - vjp.active.len();
    let wide = widen(&vjp, values, m).expect("the VJP widens");
    verify(&wide).expect("the widened IR verifies");
    assert_eq!(regions(&wide.body), regions(&vjp.body), "each region once");
    assert_eq!(wide.inputs.len(), vjp.user_inputs, "the seeds are built in");
    let got = run(&wide, inputs, &Consts::default());
    let n = vjp.active.len();
    for r in 0..m {
        let mut one = inputs.to_vec();
        one.push(unit(m, r));
        let want = run(&vjp, &one, &Consts::default());
        let lane = &got[values + r * n..values + (r + 1) * n];
        // A zero's sign dropped: `+ 0.0` makes a negative zero positive.
        let bits = |vs: &[Val]| -> Vec<u64> {
            vs.iter().flat_map(Val::flat).map(|x| (x + 0.0).to_bits()).collect()
        };
        assert_eq!(bits(lane), bits(&want[values..]), "row {r}");
        assert_eq!(bits(&got[..values]), bits(&want[..values]), "values");
    }
    wide
}

fn arr(xs: &[f64]) -> Val {
    Val::A(xs.iter().map(|x| Val::F(*x)).collect())
}

#[test]
fn a_loop_with_a_branch_widens_to_each_rows_vjp() {
    let item = quote! {
        fn f(x: [f64; 4], k: f64) -> [f64; 3] {
            let mut s = 0.0;
            let mut p = 1.0;
            for i in 0..4 {
                if x[i] > k {
                    s += x[i] * x[i];
                } else {
                    p *= (x[i] * k).sin() + 2.0;
                }
            }
            let mut y = [0.0; 3];
            for i in 0..3 {
                y[i] = s * x[i + 1] + p * x[i];
            }
            y
        }
    };
    let inputs = [arr(&[0.3, 1.2, -0.5, 0.9]), Val::F(0.5)];
    check(item, 3, &inputs, None);
}

#[test]
fn a_checkpointed_loop_widens_its_sweep_not_its_steps() {
    let item = quote! {
        fn f(x: [f64; 2], k: f64) -> [f64; 2] {
            let mut a = x[0];
            let mut b = x[1];
            for _ in 0..20 {
                let t = a;
                a = a - 0.1 * k * b.sin();
                b = b + 0.1 * t.cos();
            }
            [a * b, a - b]
        }
    };
    let checkpointed = vjp_of(item.clone(), Some(3));
    assert!(checkpointed.body.iter().any(|s| matches!(s, Stmt::Checkpoint(_))));
    check(item.clone(), 2, &[arr(&[0.4, -0.7]), Val::F(1.3)], Some(3));
    check(item, 2, &[arr(&[0.4, -0.7]), Val::F(1.3)], None);
}

/// A unit cotangent's zeros fold: row 0 of `[a b, a c]` is `(b, a, 0)`, row 1 `(c, 0, a)`, and
/// neither lane multiplies by the other row's zero (the VJP's sweep has four products, each
/// lane two: no product by a seed's one either).
#[test]
fn a_unit_cotangents_zeros_leave_no_product() {
    let item = quote! {
        fn f(a: f64, b: f64, c: f64) -> [f64; 2] {
            [a * b, a * c]
        }
    };
    let inputs = [Val::F(0.5), Val::F(-1.5), Val::F(2.0)];
    let wide = check(item.clone(), 2, &inputs, None);
    let vjp = vjp_of(item, None);
    let forward = 2;
    assert_eq!(products(&vjp.body), forward + 4);
    assert_eq!(products(&wide.body), forward);
}
