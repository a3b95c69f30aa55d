// Macro bug 63: a function with stored and checkpointed variants (a loop of run-time length that
// fits the budget, stored up to a capacity) whose differentiated slice `value` has a constant
// parameter named like its buffer, `value_bar`. Each variant's body is named on its own, and the
// H·v buffer, named apart from `value_bar`, was `value_bar_dot` in the signature (the stored
// variant's naming) and `value_bar_1_dot` in the checkpointed one: "cannot find value
// `value_bar_1_dot`" (found by the fuzzer's slice twin). Each variant now binds the parameters
// a transform added to the signature's names where its naming differs.
use autodiff_runtime::grad;

#[grad(wrt(value), hvp)]
fn named_apart(value: &[f64], value_bar: &[f64]) -> f64 {
    let mut s: f64 = 0.0;
    for i in 0..value.len() {
        s = s.cos() * 1.5 + value[i] * value_bar[0];
    }
    s
}

// The same, always checkpointed.
#[grad(wrt(value), hvp, checkpoint)]
fn checkpointed(value: &[f64], value_bar: &[f64]) -> f64 {
    let mut s: f64 = 0.0;
    for i in 0..value.len() {
        s = s.cos() * 1.5 + value[i] * value_bar[0];
    }
    s
}

fn main() {
    let c = [0.7];
    // Stored (4 steps, within the first tier) and checkpointed (past the budget's capacity).
    for n in [4, 40_000] {
        let x: Vec<f64> = (0..n).map(|i| 0.1 + 0.01 * (i % 7) as f64).collect();
        let v: Vec<f64> = (0..n).map(|i| 1.0 - 0.02 * (i % 5) as f64).collect();
        let (mut g, mut hv) = (vec![0.0; n], vec![0.0; n]);
        let (mut cg, mut chv) = (vec![0.0; n], vec![0.0; n]);
        let value = named_apart_hvp(&x, &c, &v, &mut g, &mut hv);
        let c_value = checkpointed_hvp(&x, &c, &v, &mut cg, &mut chv);
        assert_eq!(value, c_value, "n = {n}");
        assert_eq!(g, cg, "n = {n}");
        assert_eq!(hv, chv, "n = {n}");
        assert!(hv.iter().all(|h| h.is_finite()));
    }
}
