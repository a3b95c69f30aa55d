//! Prints the nodes of a program's iterator form (`f_it`): iterator chains with their closures,
//! `for` loops over them, closures bound with `let`, and `match` on integers. Only the function
//! for `#[grad]` has them: the oracle is printed from the program as generated.

use std::collections::HashSet;

use super::ast::{Adaptor, Arm, Block, Closure, Consumer, Int, IntPat, Iter, Pat, Source, Stmt};
use super::print::{ADD, Printer, int, mutated, mutated_expr, reads_int, reads_int_block};

/// A pattern as written.
pub fn pat(p: &Pat) -> String {
    match p {
        Pat::Name(n) => n.clone(),
        Pat::Mut(n) => format!("mut {n}"),
        Pat::Ref(inner) => format!("&{}", pat(inner)),
        Pat::Tuple(ps) => format!("({})", ps.iter().map(pat).collect::<Vec<_>>().join(", ")),
        Pat::Wild => "_".to_string(),
    }
}

fn int_pat(p: IntPat) -> String {
    match p {
        IntPat::Lit(n) => n.to_string(),
        IntPat::From(n) => format!("{n}.."),
        IntPat::Below(n) => format!("..{n}"),
        IntPat::UpTo(n) => format!("..={n}"),
        IntPat::Wild => "_".to_string(),
    }
}

/// Whether `it` reads the integer variable `name` (in a bound or a closure).
pub fn reads_int_iter(it: &Iter, name: &str) -> bool {
    match it {
        Iter::Source(..) => false,
        Iter::Range(lo, hi, _) => reads_int(lo, name) || reads_int(hi, name),
        Iter::Adapt(inner, a) => {
            reads_int_iter(inner, name)
                || match a {
                    Adaptor::Zip(other) => reads_int_iter(other, name),
                    Adaptor::Skip(k) | Adaptor::Take(k) => reads_int(k, name),
                    Adaptor::Map(f) | Adaptor::Filter(f) => reads_int_block(&f.body, name),
                    _ => false,
                }
        }
    }
}

/// The names bound by `p`.
pub fn pat_names(p: &Pat, out: &mut Vec<String>) {
    match p {
        Pat::Name(n) | Pat::Mut(n) => out.push(n.clone()),
        Pat::Ref(inner) => pat_names(inner, out),
        Pat::Tuple(ps) => ps.iter().for_each(|p| pat_names(p, out)),
        Pat::Wild => {}
    }
}

/// The variables a closure assigns, but for its parameters.
pub fn mutated_closure(f: &Closure, out: &mut HashSet<String>) {
    let mut inner = HashSet::new();
    mutated(&f.body.stmts, &mut inner);
    mutated_expr(&f.body.tail, &mut inner);
    let mut params = Vec::new();
    f.params.iter().for_each(|p| pat_names(p, &mut params));
    out.extend(inner.into_iter().filter(|n| !params.contains(n)));
}

/// The variables assigned in the closures of `it`.
pub fn mutated_iter(it: &Iter, out: &mut HashSet<String>) {
    if let Iter::Adapt(inner, a) = it {
        mutated_iter(inner, out);
        match a {
            Adaptor::Zip(other) => mutated_iter(other, out),
            Adaptor::Map(f) | Adaptor::Filter(f) => mutated_closure(f, out),
            _ => {}
        }
    }
}

impl Printer {
    /// `it` as the receiver of a method: a range or a borrow parenthesised.
    fn receiver(&self, it: &Iter) -> String {
        match it {
            Iter::Range(..) | Iter::Source(_, Source::Borrow) => format!("({})", self.iter(it)),
            _ => self.iter(it),
        }
    }

    /// `it` as an argument (of `zip`) or as the collection of a `for` loop.
    pub fn iter(&self, it: &Iter) -> String {
        match it {
            Iter::Source(x, how) => match how {
                Source::Iter => format!("{x}.iter()"),
                Source::IntoIter => format!("{x}.into_iter()"),
                Source::Borrow => format!("&{x}"),
                Source::Plain => x.clone(),
                Source::Windows(k) => format!("{x}.windows({k})"),
            },
            Iter::Range(lo, hi, inclusive) => {
                let dots = if *inclusive { "..=" } else { ".." };
                format!("{}{dots}{}", int(lo, ADD), int(hi, ADD))
            }
            Iter::Adapt(inner, a) => {
                let recv = self.receiver(inner);
                let call = match a {
                    Adaptor::Copied => "copied()".to_string(),
                    Adaptor::Cloned => "cloned()".to_string(),
                    Adaptor::Enumerate => "enumerate()".to_string(),
                    Adaptor::Rev => "rev()".to_string(),
                    Adaptor::Zip(other) => format!("zip({})", self.iter(other)),
                    Adaptor::Skip(k) => format!("skip({})", int(k, 0)),
                    Adaptor::Take(k) => format!("take({})", int(k, 0)),
                    Adaptor::StepBy(k) => format!("step_by({k})"),
                    Adaptor::Map(f) => format!("map({})", self.closure(f)),
                    Adaptor::Filter(f) => format!("filter({})", self.closure(f)),
                };
                format!("{recv}.{call}")
            }
        }
    }

    /// `|params| body`, a body with statements as a block indented under the statement.
    pub fn closure(&self, f: &Closure) -> String {
        let params: Vec<String> = f.params.iter().map(pat).collect();
        let head = format!("|{}|", params.join(", "));
        if f.body.stmts.is_empty() {
            return format!("{head} {}", self.expr(&f.body.tail, 0));
        }
        let mut p = Printer::new(self.flavor, self.mutated.clone());
        p.stmts(&f.body.stmts, self.depth + 1);
        p.depth = self.depth + 1;
        let tail = p.expr(&f.body.tail, 0);
        let indent = "    ".repeat(self.depth);
        format!("{head} {{\n{}{indent}    {tail}\n{indent}}}", p.out)
    }

    /// `it.sum::<f64>()` or `it.fold(init, f)`.
    pub fn reduce(&self, it: &Iter, consumer: &Consumer) -> String {
        let recv = self.receiver(it);
        match consumer {
            Consumer::Sum => format!("{recv}.sum::<f64>()"),
            Consumer::Fold(init, f) => {
                format!("{recv}.fold({}, {})", self.expr(init, 0), self.closure(f))
            }
        }
    }

    fn arm_head<B>(&self, a: &Arm<B>) -> String {
        match &a.guard {
            Some(g) => format!("{} if {} =>", int_pat(a.pat), self.cond(g, 0)),
            None => format!("{} =>", int_pat(a.pat)),
        }
    }

    /// `match k { p => a, _ => b }` as a value, on one line.
    pub fn match_expr(&self, scrutinee: &Int, arms: &[Arm<Block>]) -> String {
        let arms: Vec<String> = arms
            .iter()
            .map(|a| match a.body.stmts.is_empty() {
                true => format!("{} {},", self.arm_head(a), self.expr(&a.body.tail, 0)),
                false => format!("{} {}", self.arm_head(a), self.block(&a.body)),
            })
            .collect();
        format!("match {} {{ {} }}", int(scrutinee, 0), arms.join(" "))
    }

    /// A statement of the iterator form at indentation `depth`.
    pub fn idiom_stmt(&mut self, s: &Stmt, depth: usize) {
        match s {
            Stmt::ForIn(p, it, body) => {
                let text = format!("for {} in {} {{", pat(p), self.iter(it));
                self.line(depth, &text);
                self.stmts(body, depth + 1);
                self.line(depth, "}");
            }
            Stmt::Closure(name, params, body) => {
                let params: Vec<String> = params.iter().map(|p| format!("{p}: f64")).collect();
                let text = format!("let {name} = |{}| {};", params.join(", "), self.expr(body, 0));
                self.line(depth, &text);
            }
            Stmt::LetTuple(names, e) => {
                let text = format!("let ({}) = {};", names.join(", "), self.expr(e, 0));
                self.line(depth, &text);
            }
            Stmt::Match(scrutinee, arms) => {
                self.line(depth, &format!("match {} {{", int(scrutinee, 0)));
                for a in arms {
                    self.depth = depth + 1;
                    let head = self.arm_head(a);
                    if a.body.is_empty() {
                        self.line(depth + 1, &format!("{head} {{}}"));
                        continue;
                    }
                    self.line(depth + 1, &format!("{head} {{"));
                    self.stmts(&a.body, depth + 2);
                    self.line(depth + 1, "}");
                }
                self.line(depth, "}");
            }
            _ => self.stmt(s, depth),
        }
    }
}
