//! Long loops in bounded memory: a damped harmonic oscillator integrated with velocity Verlet,
//! its reverse sweep checkpointed (binomial checkpointing in a few snapshots of its state) when
//! storing every step would not fit the stack budget. Checked in `tests/checkpoint.rs`.

use autodiff_runtime::grad;

/// The final energy `(x² + v²) / 2` of `x″ = −x − γ x′` after `steps` velocity-Verlet steps of
/// `dt` from `(x0, v0)`: the body every function of this module shares.
macro_rules! oscillator {
    ($name:ident, $steps:expr, $($option:tt)*) => {
        #[doc = concat!(
            "The energy of a damped oscillator after ", stringify!($steps),
            " velocity-Verlet steps of `dt` from `(x0, v0)` with damping `gamma`."
        )]
        #[grad($($option)*)]
        pub fn $name(x0: f64, v0: f64, gamma: f64, dt: f64) -> f64 {
            let mut x = x0;
            let mut v = v0;
            let mut a = -x - gamma * v;
            for _ in 0..$steps {
                x += dt * v + 0.5 * dt * dt * a;
                let half = v + 0.5 * dt * a;
                let next = -x - gamma * half;
                v = half + 0.5 * dt * next;
                a = next;
            }
            0.5 * (x * x + v * v)
        }
    };
}

oscillator!(oscillator_stored, 10_000, hvp);
oscillator!(oscillator_checkpointed, 10_000, hvp, checkpoint(s = 16));
oscillator!(oscillator_few_snapshots, 10_000, checkpoint(s = 4));
oscillator!(oscillator_long, 1_000_000, hvp);

/// The state after `steps` steps (a number known only at run time): checkpointed, as a stored
/// sweep cannot be sized.
#[grad(hvp, wrt(x0, v0, gamma, dt))]
pub fn oscillator_steps(x0: f64, v0: f64, gamma: f64, dt: f64, steps: usize) -> f64 {
    let mut x = x0;
    let mut v = v0;
    let mut a = -x - gamma * v;
    for _ in 0..steps {
        x += dt * v + 0.5 * dt * dt * a;
        let half = v + 0.5 * dt * a;
        let next = -x - gamma * half;
        v = half + 0.5 * dt * next;
        a = next;
    }
    0.5 * (x * x + v * v)
}
