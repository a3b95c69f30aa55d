//! Store-to-load forwarding and scalar promotion on lowered functions: which loads they remove,
//! which carried arrays become scalars (and which stay arrays), with the interpreted results
//! unchanged to the bit.

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
