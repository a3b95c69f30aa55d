//! Carried elements (`transform/carry.rs`) on lowered functions: which loads become a carried
//! scalar and which stores move after the loop, in loops going up and down, with two carried
//! elements, with an element read again after its store (the store stays), and with an empty
//! range (the guard); the interpreted results unchanged to the bit every time. Through the grad
//! pipeline, the first loop's buffer is still zeroed only where the sweep does not write first.

use super::interp::{Consts, Val, run};
use super::lowering::{lowered, text};
use crate::ir::{Block, Func, Stmt, verify};
use crate::transform::{carry_elements, written_first};

/// The loads and the stores in the bodies of `block`'s loops (nested blocks included).
fn in_loops(block: &Block, inside: bool) -> (usize, usize) {
    block.iter().fold((0, 0), |(l, s), stmt| {
        let (dl, ds) = match stmt {
            Stmt::Load { .. } => (usize::from(inside), 0),
            Stmt::Store { .. } => (0, usize::from(inside)),
            Stmt::For(lp) => in_loops(&lp.body, true),
            Stmt::If(b) => {
                let (a, c) = in_loops(&b.then, inside);
                let (d, e) = in_loops(&b.otherwise, inside);
                (a + d, c + e)
            }
            _ => (0, 0),
        };
        (l + dl, s + ds)
    })
}

/// `src` (over `x: [f64; N]`) lowered, and carried.
fn both(src: &str) -> (Func, Func) {
    let f = lowered("", src).func;
    let g = carry_elements(&f);
    assert_eq!(verify(&g), Ok(()), "{}", text(&g));
    (f, g)
}

/// Runs `f` and `g` on the same `x` of length `n` (`N = n`): equal to the bit.
fn same_values(f: &Func, g: &Func, n: usize) {
    let consts = Consts { ints: [("N".to_owned(), n as i64)].into(), ..Consts::default() };
    let x = Val::A((0..n).map(|k| Val::F((0.3 + 0.77 * k as f64).cos() - 0.1)).collect());
    let bits = |out: Vec<Val>| out.iter().flat_map(Val::flat).map(f64::to_bits).collect::<Vec<_>>();
    let inputs = [x];
    assert_eq!(bits(run(f, &inputs, &consts)), bits(run(g, &inputs, &consts)), "N = {n}");
}

fn same_at_every_size(f: &Func, g: &Func) {
    for n in [1, 2, 3, 6] {
        same_values(f, g, n);
    }
}

#[test]
fn the_element_stored_for_the_next_iteration_is_carried_and_stored_once() {
    let (f, g) = both(
        "fn f(x: [f64; N]) -> f64 {
            let mut y = [0.5; N];
            for i in 0..N - 1 {
                y[i] += x[i];
                y[i + 1] = x[i] * x[i + 1];
            }
            y[0] * y[N - 1]
        }",
    );
    // `y[i]` is the carried value, `y[i + 1] = …` goes after the loop: one store in the loop.
    assert_eq!(in_loops(&f.body, false), (3, 2), "{}", text(&f));
    assert_eq!(in_loops(&g.body, false), (2, 1), "{}", text(&g));
    same_at_every_size(&f, &g);
}

#[test]
fn a_loop_going_down_carries_the_element_below() {
    let (f, g) = both(
        "fn f(x: [f64; N]) -> f64 {
            let mut y = [0.5; N];
            for i in (1..N).rev() {
                y[i] += x[i].sin();
                y[i - 1] = x[i] * x[i - 1];
            }
            y[0] + y[N - 1] * x[0]
        }",
    );
    assert_eq!(in_loops(&g.body, false).1, 1, "{}", text(&g));
    same_at_every_size(&f, &g);
}

#[test]
fn a_three_point_stencil_carries_two_elements() {
    let (f, g) = both(
        "fn f(x: [f64; N]) -> f64 {
            let mut y = [0.25; N];
            for i in 1..N - 1 {
                y[i - 1] += x[i];
                y[i] += x[i] * x[i - 1];
                y[i + 1] = x[i + 1].sin();
            }
            y[0] + y[N - 1] * x[0]
        }",
    );
    assert_eq!(in_loops(&g.body, false).1, 1, "{}", text(&g));
    for n in [1, 2, 3, 4, 7] {
        same_values(&f, &g, n);
    }
}

#[test]
fn an_element_read_again_after_its_store_keeps_the_store() {
    let (f, g) = both(
        "fn f(x: [f64; N]) -> f64 {
            let mut y = [0.5; N];
            let mut s = 0.0;
            for i in 0..N - 1 {
                y[i] += x[i];
                y[i + 1] = x[i] * x[i + 1];
                s += y[i + 1] * y[i];
            }
            s + y[N - 1]
        }",
    );
    // The load of `y[i]` is carried; both stores stay.
    let (loads, stores) = in_loops(&g.body, false);
    assert_eq!((loads + 1, stores), in_loops(&f.body, false), "{}", text(&g));
    same_at_every_size(&f, &g);
}

#[test]
fn elements_not_stored_by_the_iteration_before_stay_loads() {
    let stays = |body: &str| {
        let src =
            format!("fn f(x: [f64; N]) -> f64 {{ let mut y = [0.5; N]; {body} y[0] + y[N - 1] }}");
        let (f, g) = both(&src);
        assert_eq!(in_loops(&g.body, false), in_loops(&f.body, false), "{body}");
        assert!(!g.body.iter().any(|s| matches!(s, Stmt::If(_))), "{body}");
        for n in [2, 3, 6] {
            same_values(&f, &g, n);
        }
    };
    // Two iterations apart; stored in the same iteration first; read as a whole.
    stays("for i in 0..N - 2 { y[i] += x[i]; y[i + 2] = x[i]; }");
    stays("for i in 0..N - 1 { y[i] = x[i]; y[i] += y[i + 1]; y[i + 1] = x[i]; }");
    stays("for i in 0..N - 1 { y[i] += x[i]; y[i + 1] = y[0] * x[i]; let z = y; y = z; }");
}

#[test]
fn the_sweep_writes_each_element_of_a_slice_once_and_zeroes_only_the_first() {
    let l = lowered(
        "wrt(x)",
        "fn f(x: &[f64]) -> f64 {
            let mut f = 0.0;
            for i in 0..x.len() - 1 {
                let a = x[i + 1] - x[i] * x[i];
                f += 100.0 * a * a + (1.0 - x[i]) * (1.0 - x[i]);
            }
            f
        }",
    );
    let mut cx = crate::ctxt::Ctxt::new();
    let args = crate::args::parse(&mut cx, "wrt(x)".parse().unwrap_or_default());
    let g = match crate::expand::derivatives(&l, &args, false) {
        Ok(d) => d.grad,
        Err(crate::expand::Failure::Internal(e)) => panic!("{e}"),
    };
    assert_eq!(in_loops(&g.body, false).1, 1, "{}", text(&g));
    // `x_bar[0]`, which the load before the loop reads, stays zeroed; the loop writes the
    // others first (`x_bar[1 ..]`, the last after it).
    let fill = g.body.iter().find_map(|s| match s {
        Stmt::Fill { out, .. } => Some(*out),
        _ => None,
    });
    let written = fill.and_then(|v| written_first(&g, v)).map(|w| w.offset);
    assert_eq!(written, Some(1), "{}", text(&g));
}
