//! The closed forms on their own: sums over loops against counting by hand, for every small
//! size, evaluated in unsigned arithmetic that fails on any partial result below zero; the
//! prover's facts; and the expressions as they are written.

use std::collections::HashMap;

use super::poly::{Atom, Build, Fact, Poly, nonneg};

/// A name; it reads another name when it contains it (`i%n` reads `i`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Name(&'static str);

impl Atom for Name {
    fn reads(&self, var: &Self) -> bool {
        self != var && self.0.contains(var.0)
    }
}

type P = Poly<Name>;

fn c(n: i64) -> P {
    Poly::constant(n)
}

fn v(name: &'static str) -> P {
    Poly::atom(Name(name))
}

/// Writes an expression as text, with the parentheses Rust needs: each part with how tightly
/// it binds (0 a sum, 1 a product, 2 an atom).
struct Text;

fn wrap((s, prec): (String, u8), min: u8) -> String {
    if prec < min { format!("({s})") } else { s }
}

impl Build<Name> for Text {
    type Out = (String, u8);
    fn lit(&mut self, n: u64) -> (String, u8) {
        (n.to_string(), 2)
    }
    fn atom(&mut self, a: &Name) -> (String, u8) {
        (a.0.to_owned(), 2)
    }
    fn add(&mut self, a: (String, u8), b: (String, u8)) -> (String, u8) {
        (format!("{} + {}", a.0, wrap(b, 1)), 0)
    }
    fn sub(&mut self, a: (String, u8), b: (String, u8)) -> (String, u8) {
        (format!("{} - {}", a.0, wrap(b, 1)), 0)
    }
    fn mul(&mut self, a: (String, u8), b: (String, u8)) -> (String, u8) {
        (format!("{} * {}", wrap(a, 1), wrap(b, 2)), 1)
    }
    fn half(&mut self, a: (String, u8)) -> (String, u8) {
        (format!("{} / 2", wrap(a, 1)), 1)
    }
    fn pred(&mut self, a: (String, u8)) -> (String, u8) {
        (format!("{}.saturating_sub(1)", wrap(a, 2)), 2)
    }
    fn at_least_one(&self, n: &P) -> bool {
        nonneg(&n.sub(&c(1)).unwrap(), &[])
    }
}

/// Evaluates an expression in `u64`, `None` if any partial result would be below zero.
struct Eval<'a>(&'a HashMap<&'static str, u64>);

impl Build<Name> for Eval<'_> {
    type Out = Option<u64>;
    fn lit(&mut self, n: u64) -> Option<u64> {
        Some(n)
    }
    fn atom(&mut self, a: &Name) -> Option<u64> {
        self.0.get(a.0).copied()
    }
    fn add(&mut self, a: Option<u64>, b: Option<u64>) -> Option<u64> {
        a?.checked_add(b?)
    }
    fn sub(&mut self, a: Option<u64>, b: Option<u64>) -> Option<u64> {
        a?.checked_sub(b?)
    }
    fn mul(&mut self, a: Option<u64>, b: Option<u64>) -> Option<u64> {
        a?.checked_mul(b?)
    }
    fn half(&mut self, a: Option<u64>) -> Option<u64> {
        let a = a?;
        // The division must be exact.
        (a % 2 == 0).then_some(a / 2)
    }
    fn pred(&mut self, a: Option<u64>) -> Option<u64> {
        Some(a?.saturating_sub(1))
    }
    fn at_least_one(&self, n: &P) -> bool {
        nonneg(&n.sub(&c(1)).unwrap(), &[])
    }
}

fn eval(p: &P, at: &[(&'static str, u64)]) -> Option<u64> {
    p.render(&mut Eval(&at.iter().copied().collect()))
}

fn text(p: &P) -> String {
    p.render(&mut Text).0
}

#[test]
fn sums_of_constant_and_linear_amounts() {
    // Σ_{t<i} 2 = 2i; Σ_{t<i} t = i (i − 1) / 2.
    let i = Name("i");
    assert_eq!(text(&c(2).sum_over(&i, &c(0), &v("i")).unwrap()), "2 * i");
    let tri = v("i").sum_over(&i, &c(0), &v("i")).unwrap();
    assert_eq!(text(&tri), "i * i.saturating_sub(1) / 2");
    for n in 0..20 {
        assert_eq!(eval(&tri, &[("i", n)]), Some((0..n).sum()), "Σ t, t < {n}");
    }
    // A second degree or an atom reading the variable has no sum here.
    assert!(v("i").mul(&v("i")).unwrap().sum_over(&i, &c(0), &v("n")).is_none());
    assert!(v("i%n").sum_over(&i, &c(0), &v("n")).is_none());
    assert!(Poly::tri(v("i")).unwrap().sum_over(&i, &c(0), &v("n")).is_none());
    // Other atoms are constants of the sum: Σ_{t<n} (m + 2t) = m n + 2 T(n).
    let s = v("m").add(&v("i").scale(2).unwrap()).unwrap().sum_over(&i, &c(0), &v("n")).unwrap();
    assert_eq!(text(&s), "m * n + 2 * n * n.saturating_sub(1) / 2");
}

/// ADBench's GMM: `idx = d` before `for j in 0..d { for i in j + 1..d { ...; idx += 1 } }`.
fn gmm() -> (P, P, P) {
    let (i, j) = (Name("i"), Name("j"));
    let inner = c(1).sum_over(&i, &v("j").add(&c(1)).unwrap(), &v("d")).unwrap();
    let top = v("d").add(&inner.sum_over(&j, &c(0), &v("j")).unwrap()).unwrap();
    let at = top.add(&c(1).sum_over(&i, &v("j").add(&c(1)).unwrap(), &v("i")).unwrap()).unwrap();
    let after = v("d").add(&inner.sum_over(&j, &c(0), &v("d")).unwrap()).unwrap();
    (top, at, after)
}

#[test]
fn the_strictly_lower_triangle_column_by_column() {
    let (top, at, after) = gmm();
    assert_eq!(text(&top), "d + d * j - j - j * j.saturating_sub(1) / 2");
    assert_eq!(text(&at), "d + d * j + i - 2 * j - j * j.saturating_sub(1) / 2 - 1");
    assert_eq!(text(&after), "d * d - d * d.saturating_sub(1) / 2");
    for d in 0..12u64 {
        let mut idx = d;
        for j in 0..d {
            assert_eq!(eval(&top, &[("d", d), ("j", j)]), Some(idx), "d = {d}, j = {j}");
            for i in j + 1..d {
                let ltri = d + j * (2 * d - j - 1) / 2 + i - j - 1;
                assert_eq!(idx, ltri);
                assert_eq!(eval(&at, &[("d", d), ("j", j), ("i", i)]), Some(idx));
                idx += 1;
            }
        }
        assert_eq!(eval(&after, &[("d", d)]), Some(idx), "after, d = {d}");
        assert_eq!(idx, d * (d + 1) / 2);
    }
}

#[test]
fn reversed_and_inclusive_ranges() {
    // `for i in (1..=n).rev() { idx += i }` from 0: at the top of iteration i, the sum of
    // t = i + 1 ..= n.
    let i = Name("i");
    let end = v("n").add(&c(1)).unwrap();
    let top = v("i").sum_over(&i, &v("i").add(&c(1)).unwrap(), &end).unwrap();
    assert_eq!(text(&top), "(n + 1) * n / 2 - (i + 1) * i / 2");
    for n in 0..15u64 {
        let mut idx = 0;
        for k in (1..=n).rev() {
            assert_eq!(eval(&top, &[("n", n), ("i", k)]), Some(idx), "n = {n}, i = {k}");
            idx += k;
        }
    }
}

#[test]
fn terms_are_added_before_any_is_subtracted() {
    assert_eq!(text(&v("n").sub(&c(1)).unwrap()), "n - 1");
    assert_eq!(text(&c(1).sub(&v("i")).unwrap().add(&v("n")).unwrap()), "n + 1 - i");
    assert_eq!(text(&c(0).sub(&v("i")).unwrap()), "0 - i");
    assert_eq!(text(&c(0)), "0");
    assert_eq!(text(&Poly::tri(c(5)).unwrap()), "10");
    // `n (n − 1) / 2` after a product: exact whatever multiplies it first.
    let m = v("m").mul(&Poly::tri(v("n")).unwrap()).unwrap().scale(3).unwrap();
    assert_eq!(text(&m), "3 * m * n * n.saturating_sub(1) / 2");
    assert_eq!(eval(&m, &[("m", 7), ("n", 5)]), Some(3 * 7 * 10));
}

#[test]
fn what_the_facts_of_the_loops_prove() {
    // In `for j in 0..d`, `j ≤ d − 1`: `d − j − 1 ≥ 0`, not `d − j − 2`.
    let j = Fact { var: Name("j"), lo: c(0), hi: v("d").sub(&c(1)).unwrap() };
    let facts = [j.clone()];
    assert!(nonneg(&v("d").sub(&v("j")).unwrap().sub(&c(1)).unwrap(), &facts));
    assert!(!nonneg(&v("d").sub(&v("j")).unwrap().sub(&c(2)).unwrap(), &facts));
    assert!(!nonneg(&v("n").sub(&c(1)).unwrap(), &facts));
    // In `for i in 1..=n`, `i − 1 ≥ 0`; in `for i in 0..n`, not.
    let from_one = Fact { var: Name("i"), lo: c(1), hi: v("n") };
    assert!(nonneg(&v("i").sub(&c(1)).unwrap(), &[from_one]));
    let from_zero = Fact { var: Name("i"), lo: c(0), hi: v("n").sub(&c(1)).unwrap() };
    assert!(!nonneg(&v("i").sub(&c(1)).unwrap(), &[from_zero]));
    // Nested: in `for i in j + 1..d` inside `for j in 0..d`, `d − i ≥ 0` through both.
    let i = Fact { var: Name("i"), lo: v("j").add(&c(1)).unwrap(), hi: v("d").sub(&c(1)).unwrap() };
    assert!(nonneg(&v("d").sub(&v("i")).unwrap(), &[j.clone(), i.clone()]));
    assert!(nonneg(&v("i").sub(&v("j")).unwrap().sub(&c(1)).unwrap(), &[j, i]));
}
