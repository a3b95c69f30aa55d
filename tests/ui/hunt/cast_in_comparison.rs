// Bug: a comparison whose left side is a cast (`(n as f64) < x`) is emitted without the
// parentheses, `n as f64 < x`, which Rust parses as generic arguments of `f64` (a parse error in
// the expansion). `codegen/expr.rs`, `cond`: operands are parenthesised only below `Prec::Sum`,
// and a cast (`Prec::Cast`) before `<` needs them.
use autodiff_runtime::grad;

#[grad(jvp, hvp)]
fn cast_compare(x: f64, n: i32) -> f64 {
    if (n as f64) < x { x * x } else { x }
}

#[grad]
fn index_compare(x: [f64; 3]) -> f64 {
    let mut s = 0.0;
    for i in 0..3 {
        if (i as f64) < 1.5 {
            s += x[i];
        }
    }
    s
}

fn main() {
    assert_eq!(cast_compare_grad(2.0, 1), (4.0, 4.0));
    assert_eq!(cast_compare_grad(0.5, 1), (0.5, 1.0));
    assert_eq!(index_compare_grad([1.0, 2.0, 3.0]), (3.0, [1.0, 1.0, 0.0]));
}
