//! The compile-time check of the stack the generated reverse sweeps use for stored values, when
//! their size depends on a `const` the macro cannot read: evaluated by rustc in a `const` block,
//! so an oversized sweep is a compile error, never a stack overflow at run time.

/// Fails to compile, saying both numbers, when `bytes` exceeds `budget`.
pub const fn check_stack(bytes: usize, budget: usize) {
    if bytes <= budget {
        return;
    }
    let mut buf = [0u8; 480];
    let mut n = 0;
    n = push(&mut buf, n, b"the reverse sweep of this `#[grad]` function stores ");
    n = push_number(&mut buf, n, bytes);
    n = push(&mut buf, n, b" bytes on the stack, over the budget of ");
    n = push_number(&mut buf, n, budget);
    n = push(&mut buf, n, b" bytes; checkpoint its loops with `#[grad(checkpoint)]` (a few snapshots instead of every step) or take fewer snapshots with `#[grad(checkpoint(s = 4))]`, or raise the budget with `#[grad(stack = BYTES)]` (the thread must have that much stack to spare)");
    let (text, _) = buf.split_at(n);
    match core::str::from_utf8(text) {
        Ok(message) => panic!("{}", message),
        Err(_) => {
            panic!("the reverse sweep of this `#[grad]` function stores more than its stack budget")
        }
    }
}

const fn push(buf: &mut [u8; 480], mut n: usize, text: &[u8]) -> usize {
    let mut i = 0;
    while i < text.len() && n < buf.len() {
        buf[n] = text[i];
        n += 1;
        i += 1;
    }
    n
}

const fn push_number(buf: &mut [u8; 480], n: usize, value: usize) -> usize {
    let mut digits = [0u8; 20];
    let (mut len, mut v) = (0, value);
    loop {
        digits[len] = b'0' + (v % 10) as u8;
        len += 1;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    let mut out = [0u8; 20];
    let mut i = 0;
    while i < len {
        out[i] = digits[len - 1 - i];
        i += 1;
    }
    let (used, _) = out.split_at(len);
    push(buf, n, used)
}

#[cfg(test)]
mod tests {
    use super::check_stack;

    #[test]
    fn within_budget_passes_and_over_budget_says_both_numbers() {
        check_stack(100, 100);
        let err = std::panic::catch_unwind(|| check_stack(8_000_000, 524_288)).unwrap_err();
        let text = err.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(
            text.contains("stores 8000000 bytes") && text.contains("budget of 524288 bytes"),
            "{text}"
        );
    }
}
