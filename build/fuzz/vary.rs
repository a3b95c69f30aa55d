//! Signature and name variation (issue 20): transforms of a printed function's text that keep
//! its meaning, so that every oracle of the fuzzer still holds for it.
//!
//! - **Names**: every name the generator or the iterator rewrite wrote (`a0`, `x1`, `s2`, `i`,
//!   `data`, `v5`, ...) is renamed, one to one, to a name that the macro's generated code uses
//!   (`x_bar`, `t0`, `out_bar`, `saved`, `value`, `hessian`, `f_grad`, `g0_hvp`, `__private`,
//!   the index names `i`, `j`, `m`, `n`, the names derived from the user's, `a_bar`, `a_dot`,
//!   `a_saved`, `a_1`, ...). A renaming of every occurrence, where no new name is already a word
//!   of the text, is an alpha-renaming: scopes and shadowing stay as they were.
//! - **Shadowing**: a loop variable renamed to a parameter's name throughout a loop that does
//!   not read the parameter (`for i in` with a parameter `i: f64`, issue 20's bug 2), and a
//!   `let` renamed to a parameter's name from its declaration to the end of its block when the
//!   rest of the block does not read the parameter (`let x = x * 2.0;` is the case where the
//!   initializer reads it).
//! - **Const generics**: `const` items that size the parameters become const generic
//!   parameters of the function of the same name (`fn f<const N: usize>(x: [f64; N], a: f64)`),
//!   which shadow the items inside it; the test's glue passes arrays of the items' lengths.
//!
//! The `const` items themselves get names the generated code uses (`M`, `ROWS`, `COLS`, `N`)
//! in [`const_names`]. What varies is decided by [`Vary`], from the program's seed alone.

use std::collections::{HashMap, HashSet};

use super::rng::Rng;

/// What the printer varies in a program's functions.
#[derive(Clone, Copy, Default)]
pub struct Vary {
    /// Seed of the choices made while printing.
    pub seed: u64,
    /// Rename the program's names to the generated code's.
    pub names: bool,
    /// Shadow parameters by a loop variable or a `let`.
    pub shadow: bool,
    /// Make the `const` items sizing parameters const generics of the function.
    pub generic: bool,
}

impl Vary {
    /// The variation of the program of `seed`, from a generator of its own (so that the
    /// program's tree does not depend on it).
    pub fn new(seed: u64) -> Self {
        let mut rng = Rng::new(seed ^ 0x5a5a_0f0f_c3c3_9696);
        Vary { seed, names: rng.chance(50), shadow: rng.chance(40), generic: rng.chance(40) }
    }

    /// `text`, a function printed whole (attributes, signature, body), varied; `consts` are the
    /// names of the module's `const` items.
    pub fn apply(&self, text: &str, fn_name: &str, consts: &[String]) -> String {
        let mut rng = Rng::new(self.seed ^ hash(fn_name));
        let mut text = text.to_string();
        // The program's callees `g0`, `g1` (and their twins `g0_dual`).
        let mut callees: Vec<String> = Vec::new();
        for (_, _, w) in words(&text) {
            let base = w.strip_suffix("_dual").unwrap_or(&w);
            let callee =
                base.strip_prefix('g').is_some_and(|d| d.bytes().all(|c| c.is_ascii_digit()));
            if callee && w.len() > 1 && !callees.contains(&w) {
                callees.push(w);
            }
        }
        let callees = &callees;
        if self.names {
            let map = hostile(&text, fn_name, callees, &mut rng);
            text = rename(&text, &|w| map.get(w).cloned());
        }
        if self.shadow {
            text = shadow(&text, &mut rng);
        }
        if self.generic && !callees.iter().any(|c| words(&text).iter().any(|w| w.2 == *c)) {
            text = generic(&text, fn_name, consts);
        }
        text
    }
}

fn hash(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// The identifiers of `text` (not a method or a field, not part of a number), with where each
/// starts and ends.
fn words(text: &str) -> Vec<(usize, usize, String)> {
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = Vec::new();
    let mut k = 0;
    while k < b.len() {
        if !word(b[k]) {
            k += 1;
            continue;
        }
        let start = k;
        while k < b.len() && word(b[k]) {
            k += 1;
        }
        // `x.name` is a method or a field; `0..name` is a range.
        let after_dot = start > 0 && b[start - 1] == b'.' && !(start > 1 && b[start - 2] == b'.');
        if !b[start].is_ascii_digit() && !after_dot {
            out.push((start, k, text[start..k].to_string()));
        }
    }
    out
}

/// `text` with each identifier `w` for which `f` gives a name replaced by it.
fn rename(text: &str, f: &dyn Fn(&str) -> Option<String>) -> String {
    let mut out = String::new();
    let mut at = 0;
    for (start, end, w) in words(text) {
        if let Some(new) = f(&w) {
            out += &text[at..start];
            out += &new;
            at = end;
        }
    }
    out + &text[at..]
}

/// Whether `w` is a name the generator or the iterator rewrite writes.
fn is_program_name(w: &str) -> bool {
    const PREFIXES: &[&str] =
        &["row", "acc", "a", "x", "m", "r", "q", "c", "s", "y", "t", "n", "v", "w", "u", "h", "z"];
    if matches!(w, "i" | "j" | "k" | "l" | "data" | "steps") {
        return true;
    }
    PREFIXES.iter().any(|p| {
        w.strip_prefix(p).is_some_and(|d| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit()))
    })
}

/// Names the macro's generated code uses for its own variables, functions and paths.
const GENERATED: &[&str] = &[
    "x_bar",
    "x_dot",
    "y_bar",
    "out_bar",
    "out",
    "saved",
    "value",
    "step",
    "hessian",
    "jacobian",
    "row",
    "h",
    "sweep",
    "x",
    "i",
    "j",
    "k",
    "l",
    "m",
    "n",
    "i_1",
    "j_1",
    "t0",
    "t1",
    "t2",
    "t3",
    "acc",
    "elem",
    "unnamed",
    "assert_copy",
    "grad",
    "jvp",
    "hvp",
    "vjp",
    "__private",
    "autodiff_runtime",
    "core",
    "std",
    "took_then",
    "value_bar",
    "f_grad",
    "f_jvp",
    "f_hvp",
    "f_hessian",
    "f_vjp",
    "f_jacobian",
    "f_jacobian_mode",
];

/// A one-to-one renaming of the program names of `text` to generated-code names (and names
/// derived from the renamed parameters', `p_bar`, `p_dot`, `p_bar_dot`, `p_saved`, `p_1`).
fn hostile(
    text: &str,
    fn_name: &str,
    callees: &[String],
    rng: &mut Rng,
) -> HashMap<String, String> {
    let all = words(text);
    let mut keys: Vec<String> = Vec::new();
    let mut taken: HashSet<String> = HashSet::new();
    for (_, _, w) in &all {
        if is_program_name(w) {
            if !keys.contains(w) {
                keys.push(w.clone());
            }
        } else {
            taken.insert(w.clone());
        }
    }
    let mut pool: Vec<String> = GENERATED.iter().map(|s| s.to_string()).collect();
    // The functions the generated code calls by their bare names: a local of such a name is
    // named apart there. (Parameters, which the macro names apart too, bugs 27 and 37 in
    // `tests/fuzz_found/`, take names from the pool: the draws stay as they were.)
    let mut called: Vec<String> = Vec::new();
    for f in callees.iter().map(String::as_str).chain([fn_name]) {
        for suffix in ["grad", "jvp", "hvp", "vjp", "hessian", "jacobian"] {
            called.push(format!("{f}_{suffix}"));
        }
    }
    let ps = params(&text.lines().collect::<Vec<_>>());
    // A new name is no word of the text, kept or renamed (`t0` is both a name the generator
    // writes and one the generated code uses), and no other new name.
    taken.extend(keys.iter().cloned());
    let mut map = HashMap::new();
    for key in keys {
        // Keep a name now and then, so that renamed and kept names meet.
        let choice = match (rng.chance(15), ps.contains(&key) || rng.chance(70)) {
            (true, _) => key.clone(),
            (false, true) => pool[rng.below(pool.len())].clone(),
            (false, false) => called[rng.below(called.len())].clone(),
        };
        if choice == key {
            continue;
        }
        let name =
            if taken.contains(&choice) { format!("{choice}_{}", taken.len()) } else { choice };
        if taken.contains(&name) {
            continue;
        }
        for suffix in ["bar", "dot", "bar_dot", "saved", "1", "2"] {
            pool.push(format!("{name}_{suffix}"));
        }
        taken.insert(name.clone());
        map.insert(key, name);
    }
    map
}

/// Leading spaces of a line.
fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// The parameters' names, from the line `pub fn name(a: T, b: U) -> R {`.
fn params(lines: &[&str]) -> Vec<String> {
    typed_params(lines).into_iter().map(|(n, _)| n).collect()
}

/// The parameters' names and types.
fn typed_params(lines: &[&str]) -> Vec<(String, String)> {
    let Some(sig) = lines.iter().find(|l| l.starts_with("pub fn ")) else { return Vec::new() };
    let (Some(open), Some(close)) = (sig.find('('), sig.rfind(") ->")) else { return Vec::new() };
    sig[open + 1..close]
        .split(", ")
        .filter_map(|p| p.split_once(": "))
        .map(|(n, t)| (n.trim().to_string(), t.trim().to_string()))
        .filter(|(n, _)| !n.is_empty())
        .collect()
}

/// A declaration that can be renamed to a parameter's name: the line, the name, and the lines
/// of its scope after it.
struct Site {
    line: usize,
    name: String,
    end: usize,
}

/// `for NAME in` and `let [mut] NAME` lines, with the end of their scopes.
fn sites(lines: &[&str]) -> Vec<Site> {
    let mut out = Vec::new();
    let body = lines.iter().position(|l| l.starts_with("pub fn ")).map_or(0, |k| k + 1);
    for (k, line) in lines.iter().enumerate().skip(body) {
        let t = line.trim_start();
        let name = if let Some(rest) = t.strip_prefix("for ") {
            rest.split(' ').next().filter(|_| rest.contains(" in "))
        } else if let Some(rest) = t.strip_prefix("let ") {
            rest.strip_prefix("mut ").unwrap_or(rest).split([':', ' ']).next()
        } else {
            None
        };
        let Some(name) = name.filter(|n| n.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_'))
        else {
            continue;
        };
        if name == "_" || name.is_empty() {
            continue;
        }
        let d = indent(line);
        // A loop's scope ends at its `}`; a `let`'s at the end of its block.
        let stop = |l: &&str| match t.starts_with("for ") {
            true => indent(l) <= d,
            false => indent(l) < d,
        };
        let end = lines[k + 1..].iter().position(stop).map_or(lines.len(), |p| k + 1 + p);
        out.push(Site { line: k, name: name.to_string(), end });
    }
    out
}

/// `text` with up to two declarations renamed to the name of a parameter that their scope does
/// not read.
fn shadow(text: &str, rng: &mut Rng) -> String {
    let mut text = text.to_string();
    for _ in 0..2 {
        let lines: Vec<&str> = text.lines().collect();
        // Not `&[f64]` data: a view of it (`data.windows(2)` in a `fold`'s closure) read after
        // it is shadowed is refused (the generated code reads it by its name).
        let ps: Vec<String> = typed_params(&lines)
            .into_iter()
            .filter(|(_, t)| t != "&[f64]")
            .map(|(n, _)| n)
            .collect();
        let mut options = Vec::new();
        for s in sites(&lines) {
            // The declaration is the name's first occurrence in the body (no earlier binding).
            let before = lines[..s.line].iter().skip_while(|l| !l.starts_with("pub fn "));
            if before.skip(1).any(|l| words(l).iter().any(|w| w.2 == s.name))
                || ps.contains(&s.name)
            {
                continue;
            }
            let region: HashSet<String> =
                lines[s.line + 1..s.end].iter().flat_map(|l| words(l)).map(|w| w.2).collect();
            // An integer `let` is substituted where it is read: what it reads is read there
            // too (a shadowed name in it is a refusal of the macro's, with a clear message).
            let region = through_lets(&lines, region);
            // A loop's range is read outside the loop: it may read the parameter.
            let is_loop = lines[s.line].trim_start().starts_with("for ");
            let decl = decl_words(lines[s.line]);
            for p in &ps {
                let read_by_range = is_loop && decl.contains(p);
                if !region.contains(p) && !read_by_range {
                    options.push((s.line, s.name.clone(), s.end, p.clone()));
                }
            }
        }
        if options.is_empty() {
            break;
        }
        let (line, name, end, p) = options.swap_remove(rng.below(options.len()));
        let mut out: Vec<String> = Vec::new();
        for (k, l) in text.lines().enumerate() {
            out.push(match k {
                _ if k == line => rename_first(l, &name, &p),
                _ if k > line && k < end => rename(l, &|w| (w == name).then(|| p.clone())),
                _ => l.to_string(),
            });
        }
        text = out.join("\n") + "\n";
    }
    text
}

/// `names` with, for each name a `let` or a `for` of `lines` declares, the words of its line
/// (to a fixed point: the names read through chains of `let`s, and through views, `for w in
/// data.windows(2)`, which the macro reads as `data[i + j]` where `w[j]` is read).
fn through_lets(lines: &[&str], mut names: HashSet<String>) -> HashSet<String> {
    let lets: Vec<(String, Vec<String>)> = sites(lines)
        .into_iter()
        .map(|s| (s.name, words(lines[s.line]).into_iter().map(|w| w.2).collect()))
        .collect();
    loop {
        let before = names.len();
        for (name, read) in &lets {
            if names.contains(name) {
                names.extend(read.iter().cloned());
            }
        }
        if names.len() == before {
            return names;
        }
    }
}

/// The words of a `for` line (its range may not read the new name either).
fn decl_words(line: &str) -> HashSet<String> {
    words(line).into_iter().map(|w| w.2).collect()
}

/// `line` with the first occurrence of the word `name` (the declared name) renamed to `new`.
fn rename_first(line: &str, name: &str, new: &str) -> String {
    match words(line).into_iter().find(|w| w.2 == name) {
        Some((s, e, _)) => format!("{}{new}{}", &line[..s], &line[e..]),
        None => line.to_string(),
    }
}

/// `text` with the `const` items of `consts` that its parameters' types name declared as const
/// generic parameters of `fn_name`.
fn generic(text: &str, fn_name: &str, consts: &[String]) -> String {
    let head = format!("pub fn {fn_name}(");
    let Some(at) = text.find(&head) else { return text.to_string() };
    let sig_end = text[at..].find(") ->").map_or(text.len(), |k| at + k);
    let used: Vec<&String> =
        consts.iter().filter(|c| words(&text[at..sig_end]).iter().any(|w| w.2 == **c)).collect();
    if used.is_empty() {
        return text.to_string();
    }
    let list: Vec<String> = used.iter().map(|c| format!("const {c}: usize")).collect();
    let name_end = at + head.len() - 1;
    format!("{}<{}>{}", &text[..name_end], list.join(", "), &text[name_end..])
}

/// `text`, a program's whole module, with its `const` items (`N0`, `N1`, ...) renamed, when
/// names vary, to names the generated code gives its const generic parameters (`M` of
/// `f_hessian`, `ROWS` and `COLS` of `f_jacobian`) and others no word of `text` has.
pub fn rename_consts(vary: &Vary, text: &str, consts: &[(String, usize)]) -> String {
    if !vary.names {
        return text.to_string();
    }
    const NAMES: &[&str] = &["M", "ROWS", "COLS", "N", "K", "T0", "LEN", "STEPS"];
    let mut rng = Rng::new(vary.seed ^ 0x0c0e_5700);
    let taken: HashSet<String> = words(text).into_iter().map(|w| w.2).collect();
    let mut pool: Vec<&str> = NAMES.iter().copied().filter(|n| !taken.contains(*n)).collect();
    let mut map = HashMap::new();
    for (name, _) in consts {
        if !pool.is_empty() && rng.chance(70) {
            map.insert(name.clone(), pool.swap_remove(rng.below(pool.len())).to_string());
        }
    }
    rename(text, &|w| map.get(w).cloned())
}
