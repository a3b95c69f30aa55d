// Macro bug 14: `powi` of a value Rust cannot type from the expression (`0.0 * 0.0`, the
// elements of a literal array multiplied) was written `(0.0 * 0.0).powi(3)`, a call on an
// ambiguous `{float}`; other methods were already written `f64::name(x)` there.
// Macro bug 15: a loop's state copied from an array of literals (`let mut y1 = y;` with
// `let y = [0.0; 3];` in the generated code) and a method called on one of its elements: the
// copy had no type either.
// Macro bug 18: the same for the state of a loop a checkpoint's closures recompute, started from
// an array of literals in the other closure's body.
// Macro bug 22: the same for a checkpoint's state inside another checkpoint's sweep, an element
// of it written before the method is called (the typing did not follow the array through the
// store).
use autodiff_runtime::grad;

#[grad(jvp, hvp)]
fn powi_of_literals(x: f64) -> f64 {
    let y: [f64; 3] = [0.0; 3];
    x + (y[1] * y[2]).powi(3)
}

#[grad(jvp, hvp)]
fn method_on_loop_state(a: f64, steps: usize) -> f64 {
    let mut s = a;
    let mut y: [f64; 3] = [0.0; 3];
    for i in 0..steps {
        s += a * y[steps % 3].tanh();
        y[(steps + 3) % 3] += 0.5 * (i as f64);
    }
    s
}

#[grad(jvp, hvp, checkpoint)]
fn method_on_checkpointed_state(x: [f64; 2]) -> f64 {
    let mut s = x[0];
    for i in 0..2 {
        if x[i] > s {
            let mut y: [f64; 3] = [0.0; 3];
            for _ in 0..2 {
                s += y[0].powi(2);
                y[0] *= 1.5;
                s *= x[1];
            }
            s += y[0];
        }
    }
    s
}

#[grad(jvp, hvp)]
fn method_on_nested_checkpoint_state(x: [f64; 2], steps: usize) -> f64 {
    let mut s = x[0];
    for i in 0..steps {
        for j in 1..3 {
            s += x[1] * (j as f64);
            let mut y: [f64; 3] = [0.0; 3];
            for _ in 0..steps {
                y[steps % 3] *= 0.5;
                let t = ((j as f64) - s).max((y[(steps + 2) % 3] * y[(steps + 2) % 3]).ln_1p());
                s += t;
            }
            s += y[1];
        }
        s = s * s.cos() + (i as f64);
    }
    s
}

fn main() {
    assert_eq!(powi_of_literals_grad(2.0), (2.0, 1.0));
    assert_eq!(powi_of_literals_hvp(2.0, 1.0), (2.0, 1.0, 0.0));
    // Three steps: `s = a + a tanh(0) + a tanh(0) + a tanh(0.5)`.
    let t = 0.5_f64.tanh();
    let (y, d) = method_on_loop_state_grad(2.0, 3);
    assert_eq!((y, d), (method_on_loop_state(2.0, 3), 1.0 + t));
    assert_eq!(method_on_loop_state_jvp(2.0, 3, 1.0).1, 1.0 + t);
    assert_eq!(method_on_loop_state_hvp(2.0, 3, 1.0).2, 0.0);
    // Only the second iteration takes the branch: `s = a b²`.
    let (a, b) = (0.5, 2.0);
    assert_eq!(method_on_checkpointed_state_grad([a, b]), (a * b * b, [b * b, 2.0 * a * b]));
    let x = [0.5, 0.25];
    let value = method_on_nested_checkpoint_state(x, 2);
    assert_eq!(method_on_nested_checkpoint_state_grad(x, 2).0, value);
}
