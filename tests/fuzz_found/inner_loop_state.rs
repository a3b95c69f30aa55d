// Macro bug 3: internal error "the reverse transform produced invalid IR (... reads %N where it
// is not defined)" when a loop's body runs an inner loop that stores state, then uses that state
// where the sweep needs its value (or runs another loop that stores state and updates it).
use autodiff_runtime::grad;

#[grad]
fn nonlinear_use_after_the_inner_loop(a: f64) -> f64 {
    let mut s = a;
    for _ in 0..2 {
        for _ in 0..3 {
            s = s.sin();
        }
        s = s.sin();
    }
    s
}

#[grad]
fn a_second_inner_loop(a: f64) -> f64 {
    let mut s = a;
    let mut t = a;
    for _ in 0..2 {
        for _ in 0..3 {
            s = s.sin();
        }
        for _ in 0..2 {
            t = t.sin();
            s += 0.5;
        }
    }
    s * t
}

fn main() {
    let _ = (nonlinear_use_after_the_inner_loop_grad(0.5), a_second_inner_loop_grad(0.5));
}
