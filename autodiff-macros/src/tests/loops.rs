//! The transforms on loops, branches and arrays, checked numerically with the IR interpreter:
//! gradients and tangents against central differences of the interpreted primal,
//! Hessian-vector products against differences of the interpreted gradient.

use proc_macro2::Span;
use quote::quote;

use super::interp::{Consts, Val, run};
use crate::ir::{
    Builder, Carry, Cmp, Cond, Elem, Func, Int, Loop, LoopInfo, Name, Operand, Prim, Range, Ty,
    print, verify,
};
use crate::transform::{
    Seed, dead_code, first_touch, forward, fuse, hoist, plan, reverse, select_outputs,
};

fn n_int(n: u64) -> Int {
    Int::lit(n)
}

/// `s = Σ sin(x[i]) · x[(i + n - 1) % n]`, the lessons' function, built by hand.
fn lessons(n: u64) -> Func {
    let mut b = Builder::literal();
    let x = b.input(Name::user("x"), Ty::array(Elem::F64, vec![n_int(n)]));
    b.func_mut().active.push(x);
    b.func_mut().user_inputs = 1;
    let i = b.new_loop(LoopInfo {
        ident: Some(proc_macro2::Ident::new("i", Span::call_site())),
        span: Span::call_site(),
    });
    let s = b.fresh(Name::version("s", 1), Ty::F64);
    b.begin();
    let mut prev = Int::tokens(quote!((i + #n - 1) % #n), false);
    prev.loops = vec![i];
    let mut ii = Int::tokens(quote!(i), true);
    ii.loops = vec![i];
    let xi = b.load(Name::temp(), Operand::Var(x), vec![ii]);
    let sin = b.push(Prim::Sin, &[xi]);
    let xp = b.load(Name::temp(), Operand::Var(x), vec![prev]);
    let t = b.push(Prim::Mul, &[sin, xp]);
    let s2 = b.push_named(Name::version("s", 2), Prim::Add, &[Operand::Var(s), t]);
    let body = b.end();
    let out = b.fresh(Name::version("s", 3), Ty::F64);
    let range = Range { lo: Int::lit(0), hi: n_int(n), inclusive: false, rev: false };
    b.emit_loop(Loop {
        index: i,
        range,
        carried: vec![Carry { param: s, init: Operand::Lit(0.0) }],
        body,
        yields: vec![s2],
        outs: vec![out],
    });
    b.finish(vec![Operand::Var(out)])
}

/// Explicit Euler for x' = -k x: `x = x - dt * k * x` for `n` steps, over `(x0, k)`.
fn euler(n: u64, dt: f64) -> Func {
    let mut b = Builder::literal();
    let x0 = b.input(Name::user("x0"), Ty::F64);
    let k = b.input(Name::user("k"), Ty::F64);
    b.func_mut().active.extend([x0, k]);
    b.func_mut().user_inputs = 2;
    let l = b.new_loop(LoopInfo { ident: None, span: Span::call_site() });
    let x = b.fresh(Name::version("x", 1), Ty::F64);
    b.begin();
    let a = b.push(Prim::Mul, &[Operand::Lit(dt), Operand::Var(k)]);
    let c = b.push(Prim::Mul, &[a, Operand::Var(x)]);
    let x2 = b.push_named(Name::version("x", 2), Prim::Sub, &[Operand::Var(x), c]);
    let body = b.end();
    let out = b.fresh(Name::version("x", 3), Ty::F64);
    let range = Range { lo: Int::lit(0), hi: n_int(n), inclusive: false, rev: false };
    b.emit_loop(Loop {
        index: l,
        range,
        carried: vec![Carry { param: x, init: Operand::Var(x0) }],
        body,
        yields: vec![x2],
        outs: vec![out],
    });
    b.finish(vec![Operand::Var(out)])
}

/// Huber's loss: `if |r| <= d { r²/2 } else { d (|r| - d/2) }` over `(r, d)`.
fn huber() -> Func {
    let mut b = Builder::literal();
    let r = b.input(Name::user("r"), Ty::F64);
    let d = b.input(Name::user("d"), Ty::F64);
    b.func_mut().active.extend([r, d]);
    b.func_mut().user_inputs = 2;
    let abs = b.push(Prim::Abs, &[Operand::Var(r)]);
    let c = b.test(Name::temp(), Cond::F64(Cmp::Le, abs, Operand::Var(d)));
    b.begin();
    let h = b.push(Prim::Mul, &[Operand::Lit(0.5), Operand::Var(r)]);
    let t = b.push(Prim::Mul, &[h, Operand::Var(r)]);
    let then = b.end();
    b.begin();
    let abs2 = b.push(Prim::Abs, &[Operand::Var(r)]);
    let hd = b.push(Prim::Mul, &[Operand::Lit(0.5), Operand::Var(d)]);
    let diff = b.push(Prim::Sub, &[abs2, hd]);
    let e = b.push(Prim::Mul, &[Operand::Var(d), diff]);
    let otherwise = b.end();
    let out = b.fresh(Name::temp(), Ty::F64);
    b.emit_if(crate::ir::Branch {
        cond: c,
        then,
        then_yields: vec![t],
        otherwise,
        else_yields: vec![e],
        outs: vec![out],
    });
    b.finish(vec![Operand::Var(out)])
}

/// The gradient of `f` (value first), with the IR verified after each pass.
fn grad(f: &Func) -> Func {
    grad_with(f, None)
}

/// The gradient of `f`, its loops checkpointed in `snapshots` snapshots if given.
fn grad_with(f: &Func, snapshots: Option<u64>) -> Func {
    verify(f).unwrap_or_else(|e| panic!("lowered IR: {e}\n{}", print(f)));
    let plans = plan(
        f,
        crate::transform::Options {
            budget: 1 << 20,
            snapshots,
            checkpoint_unsized: false,
            tier: None,
        },
    );
    let g = hoist(&first_touch(&dead_code(&fuse(&dead_code(&reverse(f, &plans, Seed::One))))));
    verify(&g).unwrap_or_else(|e| panic!("reverse IR: {e}\n{}", print(&g)));
    g
}

/// H·v of `f`: forward over the gradient, keeping value, gradient and H·v.
fn hvp(f: &Func, g: &Func) -> Func {
    let n = f.active.len();
    let t = forward(g);
    verify(&t).unwrap_or_else(|e| panic!("forward IR: {e}\n{}", print(&t)));
    let wanted: Vec<usize> = (0..=n).chain(n + 2..=2 * n + 1).collect();
    hoist(&dead_code(&select_outputs(&t, &wanted)))
}

/// Central differences of the interpreted `f` at the flattened point `x` (shaped like `like`).
fn numeric_grad(f: &Func, like: &[Val], x: &[f64], out: usize, consts: &Consts) -> Vec<f64> {
    let eval = |xs: &[f64]| {
        let mut it = xs.iter().copied();
        let inputs: Vec<Val> = like.iter().map(|v| v.unflat(&mut it)).collect();
        run(f, &inputs, consts)[out].flat()
    };
    (0..x.len())
        .map(|k| {
            let h = 1e-5 * x[k].abs().max(1.0);
            let (mut p, mut m) = (x.to_vec(), x.to_vec());
            p[k] += h;
            m[k] -= h;
            let (fp, fm) = (eval(&p), eval(&m));
            fp.iter().zip(&fm).map(|(a, b)| (a - b) / (2.0 * h)).sum::<f64>()
        })
        .collect()
}

fn close(a: &[f64], b: &[f64], tol: f64) {
    assert_eq!(a.len(), b.len());
    for (k, (x, y)) in a.iter().zip(b).enumerate() {
        assert!(
            (x - y).abs() <= tol * (1.0 + y.abs()),
            "component {k}: {x} against {y}\n{a:?}\n{b:?}"
        );
    }
}

/// Checks the gradient and H·v of `f` at `inputs` against differences of the interpreter.
fn check(f: &Func, inputs: &[Val], dirs: &[Val]) {
    check_with(f, inputs, dirs, &Consts::default());
}

/// [`check`], with the values of the names that `f`'s constants read.
pub(super) fn check_with(f: &Func, inputs: &[Val], dirs: &[Val], consts: &Consts) {
    let g = grad(f);
    let out = run(&g, inputs, consts);
    assert_eq!(out[0], run(f, inputs, consts)[0], "value");
    let x: Vec<f64> = inputs.iter().flat_map(Val::flat).collect();
    let analytic: Vec<f64> = out[1..].iter().flat_map(Val::flat).collect();
    close(&analytic, &numeric_grad(f, inputs, &x, 0, consts), 1e-6);
    let h = hvp(f, &g);
    verify(&h).unwrap_or_else(|e| panic!("hvp IR: {e}\n{}", print(&h)));
    let mut all = inputs.to_vec();
    all.extend(dirs.iter().cloned());
    let hout = run(&h, &all, consts);
    let n = f.active.len();
    let hv: Vec<f64> = hout[1 + n..].iter().flat_map(Val::flat).collect();
    // H·v by differences of the interpreted gradient along v.
    let v: Vec<f64> = dirs.iter().flat_map(Val::flat).collect();
    let eps = 1e-6;
    let shifted = |s: f64| {
        let xs: Vec<f64> = x.iter().zip(&v).map(|(a, d)| a + s * d).collect();
        let mut it = xs.iter().copied();
        let ins: Vec<Val> = inputs.iter().map(|val| val.unflat(&mut it)).collect();
        run(&g, &ins, consts)[1..].iter().flat_map(Val::flat).collect::<Vec<f64>>()
    };
    let (gp, gm) = (shifted(eps), shifted(-eps));
    let numeric: Vec<f64> = gp.iter().zip(&gm).map(|(a, b)| (a - b) / (2.0 * eps)).collect();
    close(&hv, &numeric, 1e-5);
}

fn array(xs: &[f64]) -> Val {
    Val::A(xs.iter().map(|x| Val::F(*x)).collect())
}

#[test]
fn lessons_function_gradient_and_hvp() {
    for n in [1, 2, 3, 7] {
        let xs: Vec<f64> = (0..n).map(|i| 0.3 + 0.7 * i as f64).collect();
        let vs: Vec<f64> = (0..n).map(|i| 1.0 - 0.4 * i as f64).collect();
        check(&lessons(n as u64), &[array(&xs)], &[array(&vs)]);
    }
}

#[test]
fn euler_gradient_and_hvp() {
    check(&euler(20, 0.05), &[Val::F(1.5), Val::F(0.8)], &[Val::F(0.3), Val::F(-1.0)]);
}

#[test]
fn huber_gradient_and_hvp_on_both_sides() {
    for r in [-3.0, -0.5, 0.4, 2.5] {
        check(&huber(), &[Val::F(r), Val::F(1.0)], &[Val::F(1.0), Val::F(0.5)]);
    }
}

#[test]
fn checkpointed_sweeps_give_the_stored_sweeps_values_to_the_bit() {
    let consts = Consts::default();
    let f = euler(20, 0.05);
    let inputs = [Val::F(1.5), Val::F(0.8)];
    let stored = run(&grad(&f), &inputs, &consts);
    for s in [1, 2, 5] {
        let g = grad_with(&f, Some(s));
        assert!(print(&g).contains("checkpoint"), "{}", print(&g));
        assert_eq!(run(&g, &inputs, &consts), stored, "{s} snapshots");
        // And its H·v, forward mode over the checkpointed sweep.
        let mut all = inputs.to_vec();
        all.extend([Val::F(0.3), Val::F(-1.0)]);
        assert_eq!(run(&hvp(&f, &g), &all, &consts), run(&hvp(&f, &grad(&f)), &all, &consts));
    }
}

#[test]
fn a_checkpoint_keeps_only_the_state_its_sweep_needs() {
    // The running cost is carried by the loop but read neither by the sweep nor by the step's
    // computation of `x`: the snapshots hold `x` alone, 8 bytes each.
    let item = quote::quote! {
        fn control(x0: f64, k: f64) -> f64 {
            let mut x = x0;
            let mut cost = 0.0;
            for _ in 0..100 {
                x = x - 0.01 * k * x.sin();
                cost += 0.01 * x * x;
            }
            cost
        }
    };
    let text = crate::expand::expand(quote::quote!(hvp, checkpoint(s = 4)), item).to_string();
    assert!(text.contains("4 snapshots of its state, 32 bytes"), "{text}");
    // Forward mode over the sweep adds the tangent of `x`: 16 bytes a snapshot.
    assert!(text.contains("4 snapshots of its state, 64 bytes"), "{text}");
}

/// Checks `f` as [`check`] does, and that checkpointing its loops in `snapshots` snapshots gives
/// the stored sweep's gradient and H·v to the bit.
fn check_checkpointed(f: &Func, inputs: &[Val], dirs: &[Val], snapshots: u64) {
    check(f, inputs, dirs);
    let consts = Consts::default();
    let g = grad_with(f, Some(snapshots));
    assert!(print(&g).contains("checkpoint"), "{}", print(&g));
    assert_eq!(run(&g, inputs, &consts), run(&grad(f), inputs, &consts));
    let mut all = inputs.to_vec();
    all.extend(dirs.iter().cloned());
    assert_eq!(run(&hvp(f, &g), &all, &consts), run(&hvp(f, &grad(f)), &all, &consts));
}

#[test]
fn an_inner_loops_result_read_by_what_the_outer_sweep_stores() {
    // The shape of a time loop: an inner loop updates the state, then a cost reads it through a
    // value the outer sweep needs stored (`sin s`: its adjoint reads `cos s`). The outer loop
    // saves the inner loop's result and its whole storage each iteration, so the inner loop
    // does not run again in the outer sweep (a stored copy of the result alone once made the
    // sweep skip the run, and the inner sweep read values that existed nowhere).
    let scalar = "fn f(a: f64, b: f64) -> f64 {
        let mut s = a;
        let mut t = 0.0;
        for _ in 0..2 {
            for _ in 0..2 {
                s *= b;
            }
            t += s.sin();
        }
        t
    }";
    let f = super::lowering::lowered("", scalar).func;
    let g = grad(&f);
    let text = print(&g);
    assert!(text.contains("s_1_saved%26 = load s_1_saved%22 [@0]"), "not nested\n{text}");
    assert_eq!(text.matches("mul s_1%").count(), 1, "the inner loop runs again\n{text}");
    let (inputs, dirs) = ([Val::F(0.7), Val::F(1.1)], [Val::F(0.4), Val::F(-1.3)]);
    for s in [1, 3] {
        check_checkpointed(&f, &inputs, &dirs, s);
    }
    // A run-time number of steps: the outer loop stores its steps in an array of the capacity
    // the budget holds (the function runs that sweep when `n` is at most it); in the variant
    // taken past the capacity, it is checkpointed, the inner one stored.
    let steps = "fn f(a: f64, b: f64, n: usize) -> f64 {
        let mut s = a;
        let mut t = 0.0;
        for _ in 0..n {
            for _ in 0..2 {
                s *= b;
            }
            t += s.sin();
        }
        t
    }";
    let f = super::lowering::lowered("", steps).func;
    assert!(!print(&grad(&f)).contains("checkpoint"));
    let options = crate::transform::Options {
        budget: 1 << 20,
        snapshots: None,
        checkpoint_unsized: true,
        tier: None,
    };
    let plans = plan(&f, options);
    assert!(print(&reverse(&f, &plans, Seed::One)).contains("checkpoint"));
    let consts = Consts { ints: [("n".to_owned(), 3)].into(), ..Consts::default() };
    check_with(&f, &inputs, &dirs, &consts);
    let arrays = "fn f(x: [f64; 2]) -> f64 {
        let mut s = 0.0;
        let mut y = x;
        for _ in 0..3 {
            for j in 0..2 {
                y[j] = y[j].sin();
            }
            for k in 0..2 {
                s += y[k].sin() * y[1 - k];
            }
        }
        s
    }";
    let f = super::lowering::lowered("", arrays).func;
    for s in [1, 2] {
        check_checkpointed(&f, &[array(&[0.4, 0.9])], &[array(&[1.0, -0.5])], s);
    }
}

/// Checks the tangent of `f` (forward mode over the primal, as `_jvp` is made) at `inputs` along
/// `dirs` against central differences of the interpreted primal.
fn check_jvp(f: &Func, inputs: &[Val], dirs: &[Val]) {
    let t = forward(f);
    verify(&t).unwrap_or_else(|e| panic!("forward IR: {e}\n{}", print(&t)));
    let t = hoist(&dead_code(&t));
    verify(&t).unwrap_or_else(|e| panic!("hoisted IR: {e}\n{}", print(&t)));
    let consts = Consts::default();
    let mut all = inputs.to_vec();
    all.extend(dirs.iter().cloned());
    let out = run(&t, &all, &consts);
    assert_eq!(out[0], run(f, inputs, &consts)[0], "value");
    let (x, v): (Vec<f64>, Vec<f64>) =
        (inputs.iter().flat_map(Val::flat).collect(), dirs.iter().flat_map(Val::flat).collect());
    let along = |s: f64| {
        let xs: Vec<f64> = x.iter().zip(&v).map(|(a, d)| a + s * d).collect();
        let mut it = xs.iter().copied();
        let ins: Vec<Val> = inputs.iter().map(|val| val.unflat(&mut it)).collect();
        run(f, &ins, &consts)[0].f()
    };
    let h = 1e-6;
    close(&out[1].flat(), &[(along(h) - along(-h)) / (2.0 * h)], 1e-6);
}

#[test]
fn a_body_yielding_a_product_it_computes_twice() {
    // The forward transform merges `p * x` into the equal `x * p` computed just before it, a
    // record kept by the block being built: the loop or branch must yield the merged value
    // before that block is closed.
    let branch = "fn f(x: f64, y: f64) -> f64 {
        let mut s = 0.0;
        let mut p = y;
        if x > 0.0 {
            s = x * p;
            p = p * x;
        }
        s + p
    }";
    let f = super::lowering::lowered("", branch).func;
    for x in [2.0, -0.5] {
        let inputs = [Val::F(x), Val::F(3.0)];
        for dirs in [[Val::F(1.0), Val::F(0.0)], [Val::F(0.3), Val::F(-1.2)]] {
            check_jvp(&f, &inputs, &dirs);
        }
        check(&f, &inputs, &[Val::F(0.3), Val::F(-1.2)]);
    }
    let in_loop = "fn f(x: f64) -> f64 {
        let mut p = 1.0;
        let mut q = 0.0;
        for _ in 0..3 {
            q = p * x;
            p = x * p;
        }
        p + q.sin()
    }";
    let f = super::lowering::lowered("", in_loop).func;
    check_jvp(&f, &[Val::F(1.5)], &[Val::F(1.0)]);
    check_checkpointed(&f, &[Val::F(1.5)], &[Val::F(-0.7)], 2);
}
