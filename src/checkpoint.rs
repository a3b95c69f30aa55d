//! Long loops in bounded memory: a damped harmonic oscillator integrated with velocity Verlet,
//! its reverse sweep checkpointed (binomial checkpointing in a few snapshots of its state) when
//! storing every step would not fit the stack budget. Checked in `tests/checkpoint.rs`.

use autodiff_runtime::grad;

/// The final energy `(x² + v²) / 2` of `x″ = −x − γ x′` after `steps` velocity-Verlet steps of
/// `dt` from `(x0, v0)`: the body every function of this module shares, and the checkpointing
/// benchmarks' (`oscillator!(name, steps, options of #[grad])`).
#[macro_export]
macro_rules! oscillator {
    ($name:ident, $steps:expr, $($option:tt)*) => {
        #[doc = concat!(
            "The energy of a damped oscillator after ", stringify!($steps),
            " velocity-Verlet steps of `dt` from `(x0, v0)` with damping `gamma`."
        )]
        #[::autodiff_runtime::grad($($option)*)]
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

/// The energy `Σ uᵢ²` of a 1-D reaction-diffusion chain `uᵢ′ = κ (uᵢ₋₁ − 2uᵢ + uᵢ₊₁) − uᵢ³`
/// (fixed ends at 0) after explicit Euler steps of `dt`: the function every nested-loop function of
/// this module shares. The outer loop over time carries the array `u`; the inner loops over the
/// chain compute each step.
macro_rules! chain {
    ($name:ident, $steps:expr, $($option:tt)*) => {
        #[doc = concat!(
            "The energy of a reaction-diffusion chain of 8 sites after ", stringify!($steps),
            " explicit Euler steps of `dt` with diffusion `kappa`, from `u0`."
        )]
        #[grad($($option)*)]
        pub fn $name(u0: [f64; 8], kappa: f64, dt: f64) -> f64 {
            let mut u = u0;
            for _ in 0..$steps {
                let mut next = [0.0; 8];
                for i in 0..8 {
                    let mut lap = -2.0 * u[i];
                    if i > 0 {
                        lap += u[i - 1];
                    }
                    if i < 7 {
                        lap += u[i + 1];
                    }
                    next[i] = u[i] + dt * (kappa * lap - u[i] * u[i] * u[i]);
                }
                u = next;
            }
            let mut energy = 0.0;
            for i in 0..8 {
                energy += u[i] * u[i];
            }
            energy
        }
    };
}

chain!(chain_stored, 2_000, hvp);
chain!(chain_checkpointed, 2_000, hvp, checkpoint(s = 8));

/// A control problem's cost: `x′ = −k sin x` by explicit Euler over 5 000 steps of 0.001, and the
/// running cost `Σ dt x²` the loop accumulates (which a checkpoint's snapshots need not hold).
macro_rules! control {
    ($name:ident, $($option:tt)*) => {
        #[doc = "The running cost `Σ dt x²` of `x′ = −k sin x` over 5 000 Euler steps from `x0`."]
        #[grad($($option)*)]
        pub fn $name(x0: f64, k: f64) -> f64 {
            let mut x = x0;
            let mut cost = 0.0;
            for _ in 0..5_000 {
                x = x - 0.001 * k * x.sin();
                cost += 0.001 * x * x;
            }
            cost
        }
    };
}

control!(control_stored, hvp);
control!(control_checkpointed, hvp, checkpoint(s = 6));
