//! First-touch assignment on loops built by hand: which loads of an accumulator it replaces by
//! zero (and which it must leave: an element written by an earlier iteration, or earlier in the
//! same one, an array that does not start zeroed), with the interpreted results unchanged.

use proc_macro2::{Ident, Span};
use quote::{ToTokens, quote};

use super::interp::{Consts, Val, run};
use crate::ir::{
    Affine, Block, Bounds, Branch, Builder, Carry, Cmp, Cond, Elem, Func, Int, Loop, LoopId,
    LoopInfo, Name, Operand, Poly, Prim, Range, Stmt, Ty, Var, print, verify,
};
use crate::transform::first_touch;

/// A function of one array `x` that accumulates contributions into a zeroed array in loops.
struct Test {
    b: Builder,
    x: Var,
    shape: Ty,
}

impl Test {
    fn new(dims: &[u64]) -> Self {
        let mut b = Builder::literal();
        let shape = Ty::array(Elem::F64, dims.iter().map(|d| Int::lit(*d)).collect());
        let x = b.input(Name::user("x"), shape.clone());
        b.func_mut().active.push(x);
        b.func_mut().user_inputs = 1;
        Test { b, x, shape }
    }

    /// A new loop index named `name`.
    fn index(&mut self, name: &str) -> LoopId {
        let ident = Some(Ident::new(name, Span::call_site()));
        self.b.new_loop(LoopInfo { ident, span: Span::call_site() })
    }

    /// The zeroed array the reverse transform would make (an accumulator), or, with
    /// `accumulator` false, a zeroed array of the user's.
    fn zeroed(&mut self, accumulator: bool) -> Operand {
        let z = self.b.fill(Name::user("acc"), self.shape.clone(), Operand::Lit(0.0));
        if let (true, Some(v)) = (accumulator, z.var()) {
            self.b.func_mut().accumulators.push(v);
        }
        z
    }

    /// `acc[index] += k · x[index]`, as the reverse transform writes a contribution.
    fn add_at(&mut self, acc: Operand, index: Vec<Int>, k: f64) -> Operand {
        let old = self.b.load(Name::temp(), acc, index.clone());
        let xi = self.b.load(Name::temp(), Operand::Var(self.x), index.clone());
        let c = self.b.push(Prim::Mul, &[Operand::Lit(k), xi]);
        let new = self.b.push(Prim::Add, &[old, c]);
        self.b.store(Name::temp(), acc, index, new)
    }

    /// `for l in lo..hi` (reversed with `rev`) carrying `acc`, the body from `body`.
    fn run_loop(
        &mut self,
        l: LoopId,
        (lo, hi, rev): (u64, u64, bool),
        acc: Operand,
        body: impl FnOnce(&mut Self, Operand) -> Operand,
    ) -> Operand {
        let param = self.b.fresh(Name::user("acc"), self.shape.clone());
        self.b.begin();
        let next = body(self, Operand::Var(param));
        let body = self.b.end();
        let out = self.b.fresh(Name::user("acc"), self.shape.clone());
        let range = Range { lo: Int::lit(lo), hi: Int::lit(hi), inclusive: false, rev };
        let carried = vec![Carry { param, init: acc }];
        self.b.emit_loop(Loop {
            index: l,
            range,
            carried,
            body,
            yields: vec![next],
            outs: vec![out],
        });
        Operand::Var(out)
    }

    fn finish(self, out: Operand) -> Func {
        let f = self.b.finish(vec![out]);
        verify(&f).unwrap_or_else(|e| panic!("{e}\n{}", print(&f)));
        f
    }
}

/// `name + c` for the loop `l` named `name`.
fn at(l: LoopId, name: &str, c: i64) -> Int {
    let id = Ident::new(name, Span::call_site());
    let k = proc_macro2::Literal::i64_unsuffixed(c.abs());
    let (tokens, atom) = match c {
        0 => (quote!(#id), true),
        c if c > 0 => (quote!(#id + #k), false),
        _ => (quote!(#id - #k), false),
    };
    let mut i = Int::tokens(tokens, atom);
    i.loops = vec![l];
    i.affine = Some(Affine { index: l, offset: c });
    i
}

/// The indices of the loads of arrays other than the input left in `block`, in order.
fn loads_left(f: &Func, block: &Block, out: &mut Vec<String>) {
    for s in block {
        match s {
            Stmt::Load { array, index, .. } if *array != f.inputs[0] => {
                let ix: Vec<String> = index.iter().map(ToString::to_string).collect();
                out.push(ix.join("]["));
            }
            Stmt::For(l) => loads_left(f, &l.body, out),
            Stmt::If(b) => {
                loads_left(f, &b.then, out);
                loads_left(f, &b.otherwise, out);
            }
            _ => {}
        }
    }
}

/// Runs first touch on `f`: the loads of accumulators it leaves, after checking that the
/// interpreted result is the same to the bit.
fn after(f: &Func) -> Vec<String> {
    let g = first_touch(f);
    verify(&g).unwrap_or_else(|e| panic!("{e}\n{}", print(&g)));
    let n =
        f.ty(f.inputs[0]).shape().map_or(0, |s| s.dims.iter().filter_map(|d| d.value).product());
    let xs: Vec<f64> = (0..n).map(|k| 0.3 + 0.7 * k as f64).collect();
    let input = Val::F(0.0).unflat(&mut std::iter::empty());
    let like = match f.ty(f.inputs[0]).shape().map(|s| s.dims.len()) {
        Some(1) => Val::A(vec![input; n as usize]),
        _ => {
            let side = (n as f64).sqrt() as usize;
            Val::A(vec![Val::A(vec![input; side]); side])
        }
    };
    let x = like.unflat(&mut xs.into_iter());
    let consts = Consts::default();
    let x = std::slice::from_ref(&x);
    assert_eq!(run(&g, x, &consts), run(f, x, &consts), "{}", print(&g));
    let mut left = Vec::new();
    loads_left(&g, &g.body, &mut left);
    left
}

/// One loop over `lo..hi` adding at `i + c` for each `c` of `offsets`, in order.
fn shifts(offsets: &[i64], (lo, hi, rev): (u64, u64, bool), accumulator: bool) -> Func {
    let mut t = Test::new(&[6]);
    let i = t.index("i");
    let acc = t.zeroed(accumulator);
    let out = t.run_loop(i, (lo, hi, rev), acc, |t, mut a| {
        for (k, c) in offsets.iter().enumerate() {
            a = t.add_at(a, vec![at(i, "i", *c)], k as f64 + 1.5);
        }
        a
    });
    t.finish(out)
}

#[test]
fn each_element_written_by_its_own_iteration_is_assigned() {
    assert_eq!(after(&shifts(&[0], (0, 6, false), true)), Vec::<String>::new());
    assert_eq!(after(&shifts(&[0], (0, 6, true), true)), Vec::<String>::new());
}

#[test]
fn the_next_element_is_first_written_ahead_of_the_loop_order() {
    // `x̄[i]` then `x̄[i + 1]` (the extended Rosenbrock function): in ascending order, element
    // `i + 1` is first reached by iteration `i`, its own `i` was reached by iteration `i - 1`.
    assert_eq!(after(&shifts(&[0, 1], (0, 5, false), true)), ["i"]);
    assert_eq!(after(&shifts(&[1, 0], (0, 5, false), true)), ["i"]);
    // Reversed, element `i` is first reached by iteration `i`, and `i + 1` was reached before.
    assert_eq!(after(&shifts(&[0, 1], (0, 5, true), true)), ["i+1"]);
    // `x̄[i - 1]` then `x̄[i]`: `i - 1` was reached by the previous iteration.
    assert_eq!(after(&shifts(&[-1, 0], (1, 6, false), true)), ["i-1"]);
}

#[test]
fn an_element_written_earlier_in_the_same_iteration_is_added_to() {
    assert_eq!(after(&shifts(&[0, 0], (0, 6, false), true)), ["i"]);
    // `x̄[i + 2]` is new in each iteration, but it reaches element `i` two iterations before
    // either `x̄[i]` of iteration `i` does.
    assert_eq!(after(&shifts(&[0, 2, 0], (0, 4, false), true)), ["i", "i"]);
    assert_eq!(after(&shifts(&[0, 2, 0], (0, 4, true), true)), ["i+2", "i"]);
}

#[test]
fn an_array_that_is_not_an_accumulator_is_left() {
    // A zeroed array of the user's keeps its `0.0 + e` (the primal's value, to the bit).
    assert_eq!(after(&shifts(&[0], (0, 6, false), false)), ["i"]);
    // An accumulator already written before the loop does not start zeroed.
    let mut t = Test::new(&[6]);
    let i = t.index("i");
    let acc = t.zeroed(true);
    let acc = t.add_at(acc, vec![Int::lit(2)], 3.0);
    let out = t.run_loop(i, (0, 6, false), acc, |t, a| t.add_at(a, vec![at(i, "i", 0)], 1.0));
    assert_eq!(after(&t.finish(out)), ["2", "i"]);
}

#[test]
fn an_element_every_iteration_writes_is_added_to() {
    // `x̄[0]` in every iteration, then `x̄[i]`, which is `x̄[0]` again in the first iteration.
    let mut t = Test::new(&[6]);
    let i = t.index("i");
    let acc = t.zeroed(true);
    let out = t.run_loop(i, (0, 6, false), acc, |t, a| {
        let a = t.add_at(a, vec![Int::lit(0)], 2.0);
        t.add_at(a, vec![at(i, "i", 0)], 1.0)
    });
    assert_eq!(after(&t.finish(out)), ["0", "i"]);
    // A cyclic index `(i + 5) % 6` is not read as `i + c`: element 5 is written in the first
    // iteration and again in the last.
    let mut t = Test::new(&[6]);
    let i = t.index("i");
    let acc = t.zeroed(true);
    let mut prev = Int::tokens(quote!((i + 5) % 6), false);
    prev.loops = vec![i];
    let out = t.run_loop(i, (0, 6, false), acc, |t, a| {
        let a = t.add_at(a, vec![prev], 2.0);
        t.add_at(a, vec![at(i, "i", 0)], 1.0)
    });
    assert_eq!(after(&t.finish(out)), ["(i+5)%6", "i"]);
}

/// `for i in 0..4 { for j in (0..4) { acc[index(i, j)] += … } }`.
fn nest(index: impl Fn(LoopId, LoopId) -> Vec<Int>, rev: bool) -> Func {
    let mut t = Test::new(&[4, 4]);
    let (i, j) = (t.index("i"), t.index("j"));
    let acc = t.zeroed(true);
    let out = t.run_loop(i, (0, 4, false), acc, |t, a| {
        t.run_loop(j, (0, 4, rev), a, |t, a| {
            let a = t.add_at(a, index(i, j), 1.0);
            t.add_at(a, index(i, j), 2.0)
        })
    });
    t.finish(out)
}

#[test]
fn a_nest_writing_each_element_in_one_iteration_assigns_it() {
    // `w̄[i][j]` (the dense layer), and its transpose: the first of the two contributions.
    for rev in [false, true] {
        assert_eq!(after(&nest(|i, j| vec![at(j, "j", 0), at(i, "i", 0)], rev)), ["j][i"]);
        assert_eq!(after(&nest(|i, j| vec![at(i, "i", 0), at(j, "j", 0)], rev)), ["i][j"]);
    }
    // A row written in every iteration of the inner loop is added to (element `[i][0]`).
    let row = nest(|i, _| vec![at(i, "i", 0), Int::lit(0)], false);
    assert_eq!(after(&row), ["i][0", "i][0"]);
    // `[i][j]` and `[j][i]` meet on the diagonal, in different iterations elsewhere.
    let mut t = Test::new(&[4, 4]);
    let (i, j) = (t.index("i"), t.index("j"));
    let acc = t.zeroed(true);
    let out = t.run_loop(i, (0, 4, false), acc, |t, a| {
        t.run_loop(j, (0, 4, false), a, |t, a| {
            let a = t.add_at(a, vec![at(i, "i", 0), at(j, "j", 0)], 1.0);
            t.add_at(a, vec![at(j, "j", 0), at(i, "i", 0)], 2.0)
        })
    });
    assert_eq!(after(&t.finish(out)), ["i][j", "j][i"]);
}

#[test]
fn a_store_in_a_branch_may_have_run() {
    // `if x[i] < 2 { x̄[i + 1] += … }` then `x̄[i] += …`: the branch is new to its element, and
    // may have reached element `i` in iteration `i - 1` (it does for the first iterations).
    let mut t = Test::new(&[7]);
    let i = t.index("i");
    let acc = t.zeroed(true);
    let out = t.run_loop(i, (0, 6, false), acc, |t, a| {
        let xi = t.b.load(Name::temp(), Operand::Var(t.x), vec![at(i, "i", 0)]);
        let cond = t.b.test(Name::temp(), Cond::F64(Cmp::Lt, xi, Operand::Lit(2.0)));
        t.b.begin();
        let then_a = t.add_at(a, vec![at(i, "i", 1)], 1.0);
        let (then, then_yields) = t.b.end_yielding(&[then_a]);
        let joined = t.b.fresh(Name::user("acc"), t.shape.clone());
        t.b.emit_if(Branch {
            cond,
            then,
            then_yields,
            otherwise: Vec::new(),
            else_yields: vec![a],
            outs: vec![joined],
        });
        t.add_at(Operand::Var(joined), vec![at(i, "i", 0)], 2.0)
    });
    assert_eq!(after(&t.finish(out)), ["i"]);
}

#[test]
fn an_accumulator_that_flows_elsewhere_is_left() {
    // The array copied into another one in each iteration: what reads the copy is not followed.
    let mut t = Test::new(&[6]);
    let i = t.index("i");
    let acc = t.zeroed(true);
    let out = t.run_loop(i, (0, 6, false), acc, |t, a| {
        let rows = Ty::array(Elem::F64, vec![Int::lit(1), Int::lit(6)]);
        t.b.array(Name::temp(), rows, vec![a]);
        t.add_at(a, vec![at(i, "i", 0)], 1.0)
    });
    assert_eq!(after(&t.finish(out)), ["i"]);
    // The same loop without the copy assigns.
    let mut t = Test::new(&[6]);
    let i = t.index("i");
    let acc = t.zeroed(true);
    let out = t.run_loop(i, (0, 6, false), acc, |t, a| t.add_at(a, vec![at(i, "i", 0)], 1.0));
    assert_eq!(after(&t.finish(out)), Vec::<String>::new());
}

/// `Σ cₗ·iₗ + c` over the loops given with their names and literal coefficients, as lowering
/// reads `4 * i + j + 1`: a polynomial, not an affine index of one loop.
fn flat(terms: &[(LoopId, &str, u64)], c: u64) -> Int {
    let mut poly = Poly::constant(c).expect("small");
    let lit = proc_macro2::Literal::u64_unsuffixed;
    let mut tokens = lit(c).into_token_stream();
    for (l, name, k) in terms {
        let (id, k) = (Ident::new(name, Span::call_site()), lit(*k));
        let term = Poly::constant(k.to_string().parse().expect("a literal"))
            .and_then(|k| k.mul(&Poly::index(*l)))
            .expect("small");
        poly = poly.add(&term).expect("small");
        tokens = quote!(#tokens + #k * #id);
    }
    let mut i = Int::tokens(tokens, false);
    i.loops = terms.iter().map(|t| t.0).collect();
    i.poly = Some(poly);
    i
}

/// `for i in 0..3 { for j in 0..j_end { acc[index(i, j)] += …; acc[index(i, j)] += … } }`
/// over an array of `len`, then, with `tail`, `acc[tail(i)] += …` after the inner loop.
fn flat_nest(
    len: u64,
    j_end: u64,
    index: impl Fn(LoopId, LoopId) -> Int,
    tail: Option<&dyn Fn(LoopId) -> Int>,
) -> Func {
    let mut t = Test::new(&[len]);
    let (i, j) = (t.index("i"), t.index("j"));
    let acc = t.zeroed(true);
    let out = t.run_loop(i, (0, 3, false), acc, |t, a| {
        let a = t.run_loop(j, (0, j_end, false), a, |t, a| {
            let a = t.add_at(a, vec![index(i, j)], 1.0);
            t.add_at(a, vec![index(i, j)], 2.0)
        });
        match tail {
            Some(tail) => t.add_at(a, vec![tail(i)], 3.0),
            None => a,
        }
    });
    t.finish(out)
}

#[test]
fn a_flat_index_in_two_loops_assigns_when_no_two_iterations_meet() {
    // `acc[4 i + j]` with `j` in `0..4`: each element in one iteration (the dense layer's
    // `p̄[j * M + k]`); the second contribution of an iteration adds to the first.
    let row = |i, j| flat(&[(i, "i", 4), (j, "j", 1)], 0);
    assert_eq!(after(&flat_nest(12, 4, row, None)), ["0+4*i+1*j"]);
    // With the bias after the weights, `acc[12 + i]`: the two regions never meet.
    let bias = |i| flat(&[(i, "i", 1)], 12);
    assert_eq!(after(&flat_nest(15, 4, row, Some(&bias))), ["0+4*i+1*j"]);
    // `acc[3 i + j + 1]` with `j` in `0..3` (`i * N + j + 1` over `0..N - 1`).
    let shifted = |i, j| flat(&[(i, "i", 3), (j, "j", 1)], 1);
    assert_eq!(after(&flat_nest(10, 3, shifted, None)), ["1+3*i+1*j"]);
}

#[test]
fn a_flat_index_whose_iterations_meet_is_added_to() {
    // `acc[3 i + j]` with `j` in `0..4`: iteration `(0, 3)` and `(1, 0)` write element 3.
    let wide = |i, j| flat(&[(i, "i", 3), (j, "j", 1)], 0);
    assert_eq!(after(&flat_nest(12, 4, wide, None)), ["0+3*i+1*j", "0+3*i+1*j"]);
    // `acc[i + j]`: every anti-diagonal.
    let sum = |i, j| flat(&[(i, "i", 1), (j, "j", 1)], 0);
    assert_eq!(after(&flat_nest(12, 4, sum, None)), ["0+1*i+1*j", "0+1*i+1*j"]);
    // A bias region that overlaps the last row: `acc[8 + i]` meets `acc[4 i + j]` at 8..12 (in
    // both orders: the bias of `i = 0` before the row of `i = 2`, which comes before the bias
    // of `i = 2`).
    let row = |i, j| flat(&[(i, "i", 4), (j, "j", 1)], 0);
    let bias = |i| flat(&[(i, "i", 1)], 8);
    let left = ["0+4*i+1*j", "0+4*i+1*j", "8+1*i"];
    assert_eq!(after(&flat_nest(12, 4, row, Some(&bias))), left);
}

#[test]
fn polynomials_give_their_extremes_over_loop_ranges() {
    // `j * M + k` over `j` in `0..N`, `k` in `0..M`: from 0 to `N M − 1`, below `N M + j`.
    let (j, k) = (LoopId(0), LoopId(1));
    let name = |n: &str| Poly::name(n.to_owned());
    let one = Poly::constant(1).expect("small");
    let index = name("M").mul(&Poly::index(j)).and_then(|p| p.add(&Poly::index(k))).expect("ok");
    let (m, n) = (name("M"), name("N"));
    let loops = [
        Bounds { index: j, lo: Poly::default(), last: n.sub(&one).expect("ok") },
        Bounds { index: k, lo: Poly::default(), last: m.sub(&one).expect("ok") },
    ];
    let max = index.extreme(&loops, false).expect("signs known");
    assert_eq!(Some(max.clone()), n.mul(&m).and_then(|nm| nm.sub(&one)));
    assert_eq!(index.extreme(&loops, true), Some(Poly::default()));
    let bias = n.mul(&m).and_then(|nm| nm.add(&Poly::index(j))).expect("ok");
    let min = bias.extreme(&loops[..1], true).expect("signs known");
    assert!(min.sub(&max).and_then(|d| d.sub(&one)).expect("ok").nonneg());
    assert!(!max.sub(&min).expect("ok").nonneg());
    // A coefficient of unknown sign (`M − N`) has no extreme.
    let mixed = m.sub(&n).and_then(|c| c.mul(&Poly::index(j))).expect("ok");
    assert_eq!(mixed.extreme(&loops, true), None);
}

#[test]
fn flat_neighbours_in_a_row_meet_one_iteration_apart() {
    // `acc[4 i] += …`, then for `j` in `0..3`: `acc[4 i + j] += …; acc[4 i + j + 1] += …`
    // (the grid of `flat_grid`): the row's first element and each `j + 1` are new; `4 i + j`
    // was written by the iteration before (or by the row's first element).
    let mut t = Test::new(&[12]);
    let (i, j) = (t.index("i"), t.index("j"));
    let acc = t.zeroed(true);
    let out = t.run_loop(i, (0, 3, false), acc, |t, a| {
        let a = t.add_at(a, vec![flat(&[(i, "i", 4)], 0)], 1.0);
        t.run_loop(j, (0, 3, false), a, |t, a| {
            let a = t.add_at(a, vec![flat(&[(i, "i", 4), (j, "j", 1)], 0)], 2.0);
            t.add_at(a, vec![flat(&[(i, "i", 4), (j, "j", 1)], 1)], 3.0)
        })
    });
    assert_eq!(after(&t.finish(out)), ["0+4*i+1*j"]);
}
