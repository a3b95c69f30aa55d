//! A hand-written reverse sweep (backpropagation through time) for ADBench's LSTM objective:
//! the derivative a person writing it by hand would give, as a second reference beside ADBench's
//! forward-propagating [`super::manual`].
//!
//! The forward pass stores, per step, layer and lane, the layer's input, the old hidden and cell
//! values, the four gates and `tanh` of the new cell (8 numbers), and per step the prediction's
//! softmax weights; the sweep runs the steps backwards, carrying the adjoints of the hidden and
//! cell values. The storage is one heap buffer per call (`8 L B + B` numbers per step).
// Index loops are the macro's subset, and ADBench's C++ loops ported as written.
#![allow(clippy::needless_range_loop)]

use super::sigmoid;

/// What the sweep reads of one layer and lane at one step.
#[derive(Clone, Copy, Default)]
struct Tape {
    input: f64,
    hidden: f64,
    cell: f64,
    forget: f64,
    ingate: f64,
    outgate: f64,
    change: f64,
    cell_tanh: f64,
}

/// What the sweep reads of one step.
#[derive(Clone, Copy)]
struct Step<const L: usize, const B: usize> {
    lanes: [[Tape; B]; L],
    /// `exp(ypredᵢ) / (Σ exp(ypred) + 2)`.
    softmax: [f64; B],
    /// The top layer's output.
    top: [f64; B],
}

/// The forward pass of one step: updates `hidden` and `cell`, returns the step's tape and its
/// term `Σᵢ ygoldᵢ (ypredᵢ − lse)`.
fn step<const L: usize, const B: usize>(
    main: &[[[f64; B]; 8]; L],
    extra: &[[f64; B]; 3],
    hidden: &mut [[f64; B]; L],
    cell: &mut [[f64; B]; L],
    input: &[f64; B],
    ygold: &[f64; B],
) -> (Step<L, B>, f64) {
    let mut lanes = [[Tape::default(); B]; L];
    let mut x: [f64; B] = core::array::from_fn(|i| input[i] * extra[0][i]);
    for l in 0..L {
        let p = &main[l];
        for i in 0..B {
            let forget = sigmoid(x[i] * p[0][i] + p[4][i]);
            let ingate = sigmoid(hidden[l][i] * p[1][i] + p[5][i]);
            let outgate = sigmoid(x[i] * p[2][i] + p[6][i]);
            let change = (hidden[l][i] * p[3][i] + p[7][i]).tanh();
            let new_cell = cell[l][i] * forget + ingate * change;
            let cell_tanh = new_cell.tanh();
            lanes[l][i] = Tape {
                input: x[i],
                hidden: hidden[l][i],
                cell: cell[l][i],
                forget,
                ingate,
                outgate,
                change,
                cell_tanh,
            };
            cell[l][i] = new_cell;
            hidden[l][i] = outgate * cell_tanh;
        }
        x = hidden[l];
    }
    let ypred: [f64; B] = core::array::from_fn(|i| x[i] * extra[1][i] + extra[2][i]);
    let mut softmax = ypred.map(f64::exp);
    let sum = softmax.iter().sum::<f64>() + 2.0;
    let lse = sum.ln();
    let mut term = 0.0;
    for i in 0..B {
        softmax[i] /= sum;
        term += ygold[i] * (ypred[i] - lse);
    }
    (Step { lanes, softmax, top: x }, term)
}

/// The sweep of one lane of one layer: from the adjoints of its new hidden and cell values,
/// adds to the parameters' adjoints and returns those of its input, old hidden and old cell.
fn lane_sweep<const B: usize>(
    t: &Tape,
    p: &[[f64; B]; 8],
    p_bar: &mut [[f64; B]; 8],
    i: usize,
    hidden_bar: f64,
    cell_bar: f64,
) -> (f64, f64, f64) {
    let outgate_bar = hidden_bar * t.cell_tanh;
    let cell_bar = cell_bar + hidden_bar * t.outgate * (1.0 - t.cell_tanh * t.cell_tanh);
    let forget_in = cell_bar * t.cell * t.forget * (1.0 - t.forget);
    let ingate_in = cell_bar * t.change * t.ingate * (1.0 - t.ingate);
    let change_in = cell_bar * t.ingate * (1.0 - t.change * t.change);
    let outgate_in = outgate_bar * t.outgate * (1.0 - t.outgate);
    p_bar[0][i] += forget_in * t.input;
    p_bar[1][i] += ingate_in * t.hidden;
    p_bar[2][i] += outgate_in * t.input;
    p_bar[3][i] += change_in * t.hidden;
    p_bar[4][i] += forget_in;
    p_bar[5][i] += ingate_in;
    p_bar[6][i] += outgate_in;
    p_bar[7][i] += change_in;
    let input_bar = forget_in * p[0][i] + outgate_in * p[2][i];
    let old_hidden_bar = ingate_in * p[1][i] + change_in * p[3][i];
    (input_bar, old_hidden_bar, cell_bar * t.forget)
}

/// The objective of [`super::objective`] and its gradient in `(main_params, extra_params)`,
/// by backpropagation through time; `sequence` has at least 2 characters.
#[allow(clippy::type_complexity)] // the shape of the generated gradient
pub fn objective_grad<const L: usize, const B: usize>(
    main_params: &[[[f64; B]; 8]; L],
    extra_params: &[[f64; B]; 3],
    state: &[[[f64; B]; 2]; L],
    sequence: &[[f64; B]],
) -> (f64, ([[[f64; B]; 8]; L], [[f64; B]; 3])) {
    let steps = sequence.len() - 1;
    let count = (B * steps) as f64;
    let mut hidden: [[f64; B]; L] = core::array::from_fn(|l| state[l][0]);
    let mut cell: [[f64; B]; L] = core::array::from_fn(|l| state[l][1]);
    let mut tape = Vec::with_capacity(steps);
    let mut total = 0.0;
    for t in 0..steps {
        let (s, term) =
            step(main_params, extra_params, &mut hidden, &mut cell, &sequence[t], &sequence[t + 1]);
        tape.push(s);
        total += term;
    }
    let mut main_bar = [[[0.0; B]; 8]; L];
    let mut extra_bar = [[0.0; B]; 3];
    let mut hidden_bar = [[0.0; B]; L];
    let mut cell_bar = [[0.0; B]; L];
    let scale = -1.0 / count;
    for t in (0..steps).rev() {
        let s = &tape[t];
        let ygold = &sequence[t + 1];
        let gold_sum: f64 = ygold.iter().sum();
        // ∂loss/∂ypredᵢ = −(ygoldᵢ − Σ ygold · softmaxᵢ) / count.
        let mut x_bar = [0.0; B];
        for i in 0..B {
            let ypred_bar = scale * (ygold[i] - gold_sum * s.softmax[i]);
            extra_bar[1][i] += ypred_bar * s.top[i];
            extra_bar[2][i] += ypred_bar;
            x_bar[i] = ypred_bar * extra_params[1][i];
        }
        for l in (0..L).rev() {
            for i in 0..B {
                let h_bar = hidden_bar[l][i] + x_bar[i];
                let (input_bar, old_hidden_bar, old_cell_bar) = lane_sweep(
                    &s.lanes[l][i],
                    &main_params[l],
                    &mut main_bar[l],
                    i,
                    h_bar,
                    cell_bar[l][i],
                );
                x_bar[i] = input_bar;
                hidden_bar[l][i] = old_hidden_bar;
                cell_bar[l][i] = old_cell_bar;
            }
        }
        for i in 0..B {
            extra_bar[0][i] += x_bar[i] * sequence[t][i];
        }
    }
    (-total / count, (main_bar, extra_bar))
}
