// Macro bug 16: internal error "the reverse transform produced invalid IR (... reads %N where it
// is not defined)" for `hypot(s, t)` in a loop whose state `t` is not differentiated: the rule
// computed `t / hypot` for `t`'s partial, which nothing needed, from a `t` the sweep had not
// kept (the planner rightly kept only what the partial for `s` reads).
use autodiff_runtime::grad;

#[grad(jvp, hvp)]
fn hypot_with_a_constant_state(a: f64) -> f64 {
    let mut s = a;
    let mut t = 0.5;
    for _ in 0..2 {
        t -= 0.25;
        s = s.hypot(t);
    }
    s
}

fn main() {
    // s = √(a² + 0.25² + 0²) = √(a² + 1/16): ds/da = a / s.
    let (y, d) = hypot_with_a_constant_state_grad(1.5);
    assert_eq!(y, hypot_with_a_constant_state(1.5));
    assert!((d - 1.5 / y).abs() < 1e-15);
    let (_, _, hv) = hypot_with_a_constant_state_hvp(1.5, 1.0);
    assert!((hv - 0.0625 / (y * y * y)).abs() < 1e-14);
}
