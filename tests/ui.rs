//! Compile-fail cases: every unsupported construct gets a clear error at its span.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    // One glob per category, listed explicitly so that `pass/` is not run as compile-fail.
    for category in [
        "argmin",
        "attr",
        "body",
        "calls",
        "control_flow",
        "expr",
        "modes",
        "multiple",
        "signature",
        "storage",
        "structs",
    ] {
        t.compile_fail(format!("tests/ui/{category}/*.rs"));
    }
    t.pass("tests/ui/pass/*.rs");
}
