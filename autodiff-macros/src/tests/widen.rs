//! The widening of a VJP to several cotangents at once (`transform/widen.rs`), checked with the
//! IR interpreter: each lane of the widened function gives, to the bit, what the VJP gives for
//! that lane's cotangent, and the widened function keeps one copy of each loop and branch.

use quote::quote;

use super::interp::{Consts, Val, run};
use crate::args::Args;
use crate::ctxt::Ctxt;
use crate::ir::{Block, Func, Stmt, verify};
use crate::lower::lower;
use crate::transform::{Options, Seed, Seeds, dead_code, plan, reverse, widen};

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

/// `item`'s VJP widened to its `m` rows: every lane against the VJP seeded alike, to the bit.
fn check(item: proc_macro2::TokenStream, m: usize, inputs: &[Val], snapshots: Option<u64>) {
    let vjp = vjp_of(item, snapshots);
    let values = vjp.outputs.len() - vjp.active.len();
    let wide = widen(&vjp, values, m, Seeds::Inputs).expect("the VJP widens");
    verify(&wide).expect("the widened IR verifies");
    assert_eq!(regions(&wide.body), regions(&vjp.body), "each region once");
    let mut args = inputs.to_vec();
    args.extend((0..m).map(|r| unit(m, r)));
    let got = run(&wide, &args, &Consts::default());
    let n = vjp.active.len();
    for r in 0..m {
        let mut one = inputs.to_vec();
        one.push(unit(m, r));
        let want = run(&vjp, &one, &Consts::default());
        let lane = &got[values + r * n..values + (r + 1) * n];
        let bits =
            |vs: &[Val]| -> Vec<u64> { vs.iter().flat_map(Val::flat).map(f64::to_bits).collect() };
        assert_eq!(bits(lane), bits(&want[values..]), "row {r}");
        assert_eq!(bits(&got[..values]), bits(&want[..values]), "values");
    }
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
