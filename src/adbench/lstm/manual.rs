//! ADBench's hand-written LSTM gradient (`lstm_objective_d` of
//! `src/cpp/modules/manual/lstm_d.cpp` and its structures of `lstm_d_structures.h`), ported to
//! Rust with its buffers on the stack.
//!
//! It is forward mode: each step propagates the Jacobian of the state (every layer's hidden and
//! cell values) in the parameters, using that the model is elementwise, so that the state's
//! element `i` depends only on the parameters of lane `i` (per element `10 L + 1` numbers: the 8
//! parameters of each layer, the previous step's hidden and cell values of each layer, and the
//! input weight). Each prediction's gradient is then chained into the loss's. ADBench's helper
//! structures are plain structs of arrays here; the loops and the order of their operations are
//! ADBench's.
// Index loops are the macro's subset, and ADBench's C++ loops ported as written.
#![allow(clippy::needless_range_loop)]

/// The derivatives of one state element (hidden or cell, one layer, lane `i`): ADBench's
/// `StateElementGradientPredict`.
#[derive(Clone, Copy)]
struct ElementGradient<const L: usize> {
    /// `params[g][k]`: by `main_params[k][g][i]`, `g` in ADBench's order (weights of the forget,
    /// input, output gates and of the change, then their biases).
    params: [[f64; L]; 8],
    /// By the previous step's hidden value of each layer (lane `i`).
    hidden: [f64; L],
    /// By the previous step's cell value of each layer (lane `i`).
    cell: [f64; L],
    /// By the input weight `extra_params[0][i]`.
    in_weight: f64,
}

impl<const L: usize> ElementGradient<L> {
    const ZERO: Self =
        ElementGradient { params: [[0.0; L]; 8], hidden: [0.0; L], cell: [0.0; L], in_weight: 0.0 };
}

/// ADBench's `LayerStateJacobianPredict`: the derivatives of one layer's state.
#[derive(Clone, Copy)]
struct LayerJacobian<const L: usize, const B: usize> {
    hidden: [ElementGradient<L>; B],
    cell: [ElementGradient<L>; B],
}

impl<const L: usize, const B: usize> LayerJacobian<L, B> {
    const ZERO: Self =
        LayerJacobian { hidden: [ElementGradient::ZERO; B], cell: [ElementGradient::ZERO; B] };
}

/// ADBench's `PredictionElementGradient`: the derivatives of one output element.
#[derive(Clone, Copy)]
struct PredictionGradient<const L: usize> {
    /// As for a hidden element of the top layer, times the output weight.
    g: ElementGradient<L>,
    /// By the output weight `extra_params[1][i]`.
    out_weight: f64,
    /// By the output bias `extra_params[2][i]`.
    out_bias: f64,
}

impl<const L: usize> PredictionGradient<L> {
    const ZERO: Self =
        PredictionGradient { g: ElementGradient::ZERO, out_weight: 0.0, out_bias: 0.0 };
}

/// ADBench's `StateElementGradientModel`: the derivatives of one element of a layer's new state
/// in that layer's 8 parameters, its old hidden and cell values, and its input.
#[derive(Clone, Copy, Default)]
struct ModelElement {
    params: [f64; 8],
    hidden: f64,
    cell: f64,
    input: f64,
}

/// A gradient in the parameters, shaped as they are (ADBench's `GradByParams`).
#[derive(Clone, Copy)]
struct ParamsGradient<const L: usize, const B: usize> {
    main: [[[f64; B]; 8]; L],
    extra: [[f64; B]; 3],
}

impl<const L: usize, const B: usize> ParamsGradient<L, B> {
    const ZERO: Self = ParamsGradient { main: [[[0.0; B]; 8]; L], extra: [[0.0; B]; 3] };
}

fn sigmoid_d(x: f64) -> (f64, f64) {
    let s = super::sigmoid(x);
    (s, s * (1.0 - s))
}

fn tanh_d(x: f64) -> (f64, f64) {
    let t = x.tanh();
    (t, 1.0 - t * t)
}

/// ADBench's `logsumexp_d`: `ln(Σ exp + 2)` and its gradient.
fn logsumexp_d<const B: usize>(v: &[f64; B]) -> (f64, [f64; B]) {
    let mut j = v.map(f64::exp);
    let sum = j.iter().sum::<f64>() + 2.0;
    for e in &mut j {
        *e /= sum;
    }
    (sum.ln(), j)
}

/// ADBench's `lstm_model_d`: one layer's step, updating `hidden` and `cell`, with the
/// derivatives of the new values in `jac_hidden` and `jac_cell`.
fn model_d<const B: usize>(
    params: &[[f64; B]; 8],
    hidden: &mut [f64; B],
    cell: &mut [f64; B],
    input: &[f64; B],
    jac_hidden: &mut [ModelElement; B],
    jac_cell: &mut [ModelElement; B],
) {
    for i in 0..B {
        let (forget, forget_sd) = sigmoid_d(input[i] * params[0][i] + params[4][i]);
        let (ingate, ingate_sd) = sigmoid_d(hidden[i] * params[1][i] + params[5][i]);
        let (outgate, outgate_sd) = sigmoid_d(input[i] * params[2][i] + params[6][i]);
        let (change, change_td) = tanh_d(hidden[i] * params[3][i] + params[7][i]);
        let (forget_dw, forget_di) = (forget_sd * input[i], forget_sd * params[0][i]);
        let (ingate_dw, ingate_dh) = (ingate_sd * hidden[i], ingate_sd * params[1][i]);
        let (outgate_dw, outgate_di) = (outgate_sd * input[i], outgate_sd * params[2][i]);
        let (change_dw, change_dh) = (change_td * hidden[i], change_td * params[3][i]);
        let orig_cell = cell[i];
        cell[i] = orig_cell * forget + ingate * change;
        let c = ModelElement {
            params: [
                orig_cell * forget_dw,
                change * ingate_dw,
                0.0,
                ingate * change_dw,
                orig_cell * forget_sd,
                change * ingate_sd,
                0.0,
                ingate * change_td,
            ],
            hidden: ingate * change_dh + change * ingate_dh,
            cell: forget,
            input: orig_cell * forget_di,
        };
        let (hidden_t, hidden_td) = tanh_d(cell[i]);
        hidden[i] = outgate * hidden_t;
        let hidden_td = hidden_td * outgate;
        jac_hidden[i] = ModelElement {
            params: [
                hidden_td * c.params[0],
                hidden_td * c.params[1],
                hidden_t * outgate_dw,
                hidden_td * c.params[3],
                hidden_td * c.params[4],
                hidden_td * c.params[5],
                hidden_t * outgate_sd,
                hidden_td * c.params[7],
            ],
            hidden: hidden_td * c.hidden,
            cell: hidden_td * c.cell,
            input: outgate_di * hidden_t + hidden_td * c.input,
        };
        jac_cell[i] = c;
    }
}

/// Row `i` of a state Jacobian's element from the model's derivatives, chained through the
/// layer's input (`prev`, the element of the layer below, read for the layers `k < i`).
fn chain_element<const L: usize>(
    out: &mut ElementGradient<L>,
    layer: usize,
    d_input: f64,
    direct: &ModelElement,
    prev: &ElementGradient<L>,
    prev_in_weight: f64,
) {
    out.in_weight = d_input * prev_in_weight;
    for k in 0..layer {
        for g in 0..8 {
            out.params[g][k] = d_input * prev.params[g][k];
        }
        out.hidden[k] = d_input * prev.hidden[k];
        out.cell[k] = d_input * prev.cell[k];
    }
    for g in 0..8 {
        out.params[g][layer] = direct.params[g];
    }
    out.hidden[layer] = direct.hidden;
    out.cell[layer] = direct.cell;
    for k in layer + 1..L {
        for g in 0..8 {
            out.params[g][k] = 0.0;
        }
        out.hidden[k] = 0.0;
        out.cell[k] = 0.0;
    }
}

/// ADBench's `lstm_predict_d`: one step of every layer, the prediction, and their derivatives
/// (`state_jac` in this step's parameters and previous state, `out_jac` likewise).
#[allow(clippy::too_many_arguments)]
fn predict_d<const L: usize, const B: usize>(
    main: &[[[f64; B]; 8]; L],
    extra: &[[f64; B]; 3],
    hidden: &mut [[f64; B]; L],
    cell: &mut [[f64; B]; L],
    input: &[f64; B],
    output: &mut [f64; B],
    state_jac: &mut [LayerJacobian<L, B>; L],
    out_jac: &mut [PredictionGradient<L>; B],
) {
    let mut layer_output: [f64; B] = core::array::from_fn(|i| input[i] * extra[0][i]);
    // ADBench's `zero_layer_jacobian`, of which only the input weight's column is read.
    let zero = ElementGradient::ZERO;
    let mut model_hidden = [ModelElement::default(); B];
    let mut model_cell = [ModelElement::default(); B];
    for i in 0..L {
        model_d(
            &main[i],
            &mut hidden[i],
            &mut cell[i],
            &layer_output,
            &mut model_hidden,
            &mut model_cell,
        );
        layer_output = hidden[i];
        let (below, rest) = state_jac.split_at_mut(i);
        let cur = &mut rest[0];
        for j in 0..B {
            let (prev, prev_in_weight) = match below.last() {
                Some(p) => (&p.hidden[j], p.hidden[j].in_weight),
                None => (&zero, input[j]),
            };
            chain_element(
                &mut cur.hidden[j],
                i,
                model_hidden[j].input,
                &model_hidden[j],
                prev,
                prev_in_weight,
            );
            chain_element(
                &mut cur.cell[j],
                i,
                model_cell[j].input,
                &model_cell[j],
                prev,
                prev_in_weight,
            );
        }
    }
    let top = &state_jac[L - 1];
    for i in 0..B {
        let w = extra[1][i];
        output[i] = layer_output[i] * w + extra[2][i];
        let p = &top.hidden[i];
        let o = &mut out_jac[i];
        o.g.in_weight = w * p.in_weight;
        o.out_weight = layer_output[i];
        o.out_bias = 1.0;
        for j in 0..L {
            for g in 0..8 {
                o.g.params[g][j] = w * p.params[g][j];
            }
            o.g.hidden[j] = w * p.hidden[j];
            o.g.cell[j] = w * p.cell[j];
        }
    }
}

/// ADBench's `logsumexp_grad`: the gradient of `logsumexp(prediction)` in the parameters.
fn logsumexp_grad<const L: usize, const B: usize>(
    lse_d: &[f64; B],
    out_jac: &[PredictionGradient<L>; B],
    grad: &mut ParamsGradient<L, B>,
) {
    for i in 0..B {
        let d = lse_d[i];
        for j in 0..L {
            for g in 0..8 {
                grad.main[j][g][i] = d * out_jac[i].g.params[g][j];
            }
        }
        grad.extra[0][i] = d * out_jac[i].g.in_weight;
        grad.extra[1][i] = d * out_jac[i].out_weight;
        grad.extra[2][i] = d * out_jac[i].out_bias;
    }
}

/// ADBench's `update_loss_gradient`: adds `Σᵢ ygoldᵢ (∂predᵢ − ∂lse)` to the loss's gradient
/// (the sign and the scaling are applied at the end), over every pair of lanes as ADBench does.
fn update_loss_gradient<const L: usize, const B: usize>(
    ygold: &[f64; B],
    grad_lse: &ParamsGradient<L, B>,
    out_jac: &[PredictionGradient<L>; B],
    loss: &mut ParamsGradient<L, B>,
) {
    for i in 0..B {
        let y = ygold[i];
        for j in 0..B {
            if i != j {
                for k in 0..L {
                    for g in 0..8 {
                        loss.main[k][g][j] -= y * grad_lse.main[k][g][j];
                    }
                }
                for e in 0..3 {
                    loss.extra[e][j] -= y * grad_lse.extra[e][j];
                }
            } else {
                let o = &out_jac[i];
                for k in 0..L {
                    for g in 0..8 {
                        loss.main[k][g][j] += y * (o.g.params[g][k] - grad_lse.main[k][g][j]);
                    }
                }
                loss.extra[0][j] += y * (o.g.in_weight - grad_lse.extra[0][j]);
                loss.extra[1][j] += y * (o.out_weight - grad_lse.extra[1][j]);
                loss.extra[2][j] += y * (o.out_bias - grad_lse.extra[2][j]);
            }
        }
    }
}

/// ADBench's `update_pred_jacobian_with_prev_state_jacobian`: adds
/// `(∂pred / ∂state₍ₜ₋₁₎) (∂state₍ₜ₋₁₎ / ∂params)` to the prediction's Jacobian.
fn update_pred_jacobian<const L: usize, const B: usize>(
    prev: &[LayerJacobian<L, B>; L],
    out_jac: &mut [PredictionGradient<L>; B],
) {
    for pos in 0..B {
        let o = &mut out_jac[pos].g;
        for i in 0..L {
            let (ph, pc) = (&prev[i].hidden[pos], &prev[i].cell[pos]);
            for j in 0..L {
                for g in 0..8 {
                    o.params[g][j] += o.hidden[i] * ph.params[g][j] + o.cell[i] * pc.params[g][j];
                }
            }
            o.in_weight += o.hidden[i] * ph.in_weight + o.cell[i] * pc.in_weight;
        }
    }
}

/// Adds the previous state's Jacobian, chained through `e`'s derivatives in the previous
/// state, to `e`'s derivatives in the parameters (one element of
/// `update_state_jacobian_with_prev_state_jacobian`).
fn chain_previous<const L: usize, const B: usize>(
    e: &mut ElementGradient<L>,
    prev: &[LayerJacobian<L, B>; L],
    pos: usize,
) {
    for j in 0..L {
        let (ph, pc) = (&prev[j].hidden[pos], &prev[j].cell[pos]);
        for k in 0..L {
            for g in 0..8 {
                e.params[g][k] += e.hidden[j] * ph.params[g][k] + e.cell[j] * pc.params[g][k];
            }
        }
        e.in_weight += e.hidden[j] * ph.in_weight + e.cell[j] * pc.in_weight;
    }
}

/// ADBench's `update_state_jacobian_with_prev_state_jacobian`: adds
/// `(∂state₍ₜ₎ / ∂state₍ₜ₋₁₎) (∂state₍ₜ₋₁₎ / ∂params)` to the state's Jacobian.
fn update_state_jacobian<const L: usize, const B: usize>(
    prev: &[LayerJacobian<L, B>; L],
    state_jac: &mut [LayerJacobian<L, B>; L],
) {
    for pos in 0..B {
        for layer in state_jac.iter_mut() {
            chain_previous(&mut layer.hidden[pos], prev, pos);
            chain_previous(&mut layer.cell[pos], prev, pos);
        }
    }
}

/// One prediction's contribution: its cross-entropy term to `total`, its gradient to `loss`.
fn add_prediction<const L: usize, const B: usize>(
    ypred: &[f64; B],
    ygold: &[f64; B],
    out_jac: &[PredictionGradient<L>; B],
    total: &mut f64,
    loss: &mut ParamsGradient<L, B>,
) {
    let (lse, lse_d) = logsumexp_d(ypred);
    let mut grad_lse = ParamsGradient::ZERO;
    logsumexp_grad(&lse_d, out_jac, &mut grad_lse);
    for i in 0..B {
        *total += ygold[i] * (ypred[i] - lse);
    }
    update_loss_gradient(ygold, &grad_lse, out_jac, loss);
}

/// ADBench's `lstm_objective_d`: the objective of [`super::objective`] and its gradient in
/// `(main_params, extra_params)`, for a sequence of at least 3 characters.
#[allow(clippy::type_complexity)] // the shape of the generated gradient
pub fn objective_grad<const L: usize, const B: usize>(
    main_params: &[[[f64; B]; 8]; L],
    extra_params: &[[f64; B]; 3],
    state: &[[[f64; B]; 2]; L],
    sequence: &[[f64; B]],
) -> (f64, ([[[f64; B]; 8]; L], [[f64; B]; 3])) {
    let c = sequence.len();
    assert!(c >= 3, "ADBench's manual LSTM gradient needs 3 characters or more");
    let count = (B * (c - 1)) as f64;
    let mut hidden: [[f64; B]; L] = core::array::from_fn(|l| state[l][0]);
    let mut cell: [[f64; B]; L] = core::array::from_fn(|l| state[l][1]);
    let mut ypred = [0.0; B];
    let mut jacs = [[LayerJacobian::ZERO; L]; 2];
    let [mut prev, mut cur] = jacs.each_mut();
    let mut out_jac = [PredictionGradient::ZERO; B];
    let mut loss = ParamsGradient::ZERO;
    let mut total = 0.0;
    let (main, extra) = (main_params, extra_params);
    predict_d(main, extra, &mut hidden, &mut cell, &sequence[0], &mut ypred, prev, &mut out_jac);
    add_prediction(&ypred, &sequence[1], &out_jac, &mut total, &mut loss);
    for t in 1..c - 2 {
        predict_d(main, extra, &mut hidden, &mut cell, &sequence[t], &mut ypred, cur, &mut out_jac);
        update_state_jacobian(prev, cur);
        update_pred_jacobian(prev, &mut out_jac);
        add_prediction(&ypred, &sequence[t + 1], &out_jac, &mut total, &mut loss);
        std::mem::swap(&mut prev, &mut cur);
    }
    predict_d(main, extra, &mut hidden, &mut cell, &sequence[c - 2], &mut ypred, cur, &mut out_jac);
    update_pred_jacobian(prev, &mut out_jac);
    add_prediction(&ypred, &sequence[c - 1], &out_jac, &mut total, &mut loss);
    for e in loss.main.iter_mut().flatten().flatten().chain(loss.extra.iter_mut().flatten()) {
        *e /= -count;
    }
    (-total / count, (loss.main, loss.extra))
}
