// Macro bug 39: a slice read in a loop over a run-time count nested, under two `if`s, in another
// such loop (both checkpointed): `_grad` stopped at an internal error ("a value of run-time
// length outside a buffer"). The inner branch's result, the gradient's buffer as one side or the
// other yields it, was not known to be that buffer (codegen joined a buffer's variables through
// slots and checkpoints, not through branches). Found by the fuzzer's slice twin (`f_sl`, seed
// 300243).
use autodiff_runtime::grad;

#[grad(wrt(a, x), hvp)]
fn f(a: f64, x: &[f64], steps: usize) -> f64 {
    let mut s = a;
    for i in 0..steps {
        if x[i] >= 0.1 {
            if s > 2.0 {
                for _ in 0..steps {
                    s = s.hypot(x[steps]);
                }
            }
        }
    }
    s
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-14 * (1.0 + b.abs())
}

fn main() {
    // Taken nowhere: the value is `a`, its derivative 1.
    let mut g = [f64::NAN; 3];
    assert_eq!(f_grad(1.0, &[0.0, 0.0, 0.0], 2, &mut g), (1.0, 1.0));
    assert_eq!(g, [0.0; 3]);

    // Taken every time (x₀, x₁ ≥ 0.1, s ≥ a > 2): s ← hypot(s, u) four times, u = x₂, so
    // f = √(a² + 4u²), ∇f = (a, 4u) / f over (a, u), H = (4u², −4au; −4au, 4a²) / f³.
    let (a, u): (f64, f64) = (3.0, 0.4);
    let x = [0.5, 0.2, u];
    let r = (a * a + 4.0 * u * u).sqrt();
    let mut g = [f64::NAN; 3];
    let (value, ga) = f_grad(a, &x, 2, &mut g);
    assert!(close(value, r) && close(ga, a / r), "{value} {ga}");
    assert!(g[0] == 0.0 && g[1] == 0.0 && close(g[2], 4.0 * u / r), "{g:?}");
    // H·v along v = (a: 1, x₂: 2).
    let (mut g, mut hv) = ([f64::NAN; 3], [f64::NAN; 3]);
    let (value, ga, hva) = f_hvp(a, &x, 2, 1.0, &[0.0, 0.0, 2.0], &mut g, &mut hv);
    let r3 = r * r * r;
    assert!(close(value, r) && close(ga, a / r) && close(g[2], 4.0 * u / r), "{g:?}");
    assert!(close(hva, (4.0 * u * u - 2.0 * 4.0 * a * u) / r3), "{hva}");
    assert!(hv[0] == 0.0 && hv[1] == 0.0, "{hv:?}");
    assert!(close(hv[2], (-4.0 * a * u + 2.0 * 4.0 * a * a) / r3), "{hv:?}");
}
