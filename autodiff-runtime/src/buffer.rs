//! The zeroing of a caller's buffer before the reverse sweep writes a gradient into it.

/// Sets to `zero` every element of `buf` except `lo + offset .. end + offset`, the elements that
/// the first loop of the sweep (over `lo..end`) writes before it reads them; all of `buf` when
/// that loop runs no iteration. The range is clamped to `buf` (a loop that would write outside
/// it panics there).
#[inline]
pub fn zero_outside<T: Copy>(buf: &mut [T], zero: T, lo: usize, end: usize, offset: isize) {
    let shift = |i: usize| i.checked_add_signed(offset).map_or(0, |j| j.min(buf.len()));
    let (first, last) = (shift(lo), shift(end));
    if lo >= end || first >= last {
        buf.fill(zero);
        return;
    }
    buf[..first].fill(zero);
    buf[last..].fill(zero);
}

#[cfg(test)]
mod tests {
    use super::zero_outside;

    #[test]
    fn zeroes_all_but_the_written_elements() {
        let mut buf = [1.0; 6];
        zero_outside(&mut buf, 0.0, 0, 4, 1);
        assert_eq!(buf, [0.0, 1.0, 1.0, 1.0, 1.0, 0.0]);
        let mut buf = [1.0; 4];
        zero_outside(&mut buf, 0.0, 2, 2, 0);
        assert_eq!(buf, [0.0; 4], "an empty loop writes nothing");
        let mut buf = [1.0; 4];
        zero_outside(&mut buf, 0.0, 1, 4, -1);
        assert_eq!(buf, [1.0, 1.0, 1.0, 0.0]);
        let mut buf = [1.0; 3];
        zero_outside(&mut buf, 0.0, 0, 9, 0);
        assert_eq!(buf, [1.0; 3], "clamped to the buffer");
    }
}
