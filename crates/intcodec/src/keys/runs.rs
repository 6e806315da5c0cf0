//! The run form of a block: its keys after the first as runs of consecutive
//! keys, for blocks where that is shorter than the block codec's stream.
//!
//! ```text
//!  w: u8                 bytes per start (1..=4): the fewest that hold
//!                        last - first
//!  starts: n x w bytes   each run's first key less the block's first key,
//!                        little-endian, increasing
//!  index: (n - 1) bytes  for runs 2..n, the block index of the run's first
//!                        key less one (run 1 starts at index 1)
//! ```
//!
//! `n`, the run count, is the stream's length over `w + 1`; run `i` ends
//! where run `i + 1` begins in the block (the last run at its last key).
//! Posting lists and Roaring sets with many short runs (wikileaks: 82% of
//! the gaps are 1, runs of 5.6 keys on average, the other gaps of about 10
//! bits) cost a bit-packed block the width of its largest gap for every
//! key; as runs they cost three bytes a run (`w` = 2).
//!
//! Fixed-width starts are there to be searched: `contains`, `lower_bound`
//! and `rank` binary-search the starts, `select` the indexes, as Roaring
//! searches its run containers. The form before (`IKS3` and older) was
//! LEB128 pairs (gap from the key before, length less one), a few percent
//! shorter on wikileaks but read run by run: walking about 20 runs with a
//! mispredicted branch on each value's length was two thirds of a
//! wikileaks `contains` (about 55 of 86 ns, 2026-12-03, Xeon). [`leb128`]
//! still reads it for the loader.
//!
//! The writer keeps runs maximal and `w` the fewest bytes; the reader
//! accepts any width of 1 to 4 and any runs that give strictly increasing
//! keys within `u32` and exactly the block's count.

use alloc::vec::Vec;

use super::intersect::Kernel;
use crate::error::{DecodeError, DecodeErrorKind};

/// Calls `f(start, len)` on each maximal run of `keys[1..]` (strictly
/// increasing).
#[inline]
fn each_run(keys: &[u32], mut f: impl FnMut(u32, u32)) {
    let mut i = 1;
    while i < keys.len() {
        let start = i;
        while i + 1 < keys.len() && keys[i + 1] == keys[i] + 1 {
            i += 1;
        }
        f(keys[start], (i - start + 1) as u32);
        i += 1;
    }
}

/// The bytes a start takes in a block whose keys span `span` (last less
/// first).
#[inline]
fn width(span: u32) -> usize {
    1 + usize::from(span >= 1 << 8) + usize::from(span >= 1 << 16) + usize::from(span >= 1 << 24)
}

/// The length of the run form of a block of `runs` runs after its first
/// key whose keys span `span` (last less first).
#[inline]
pub(crate) fn encoded_len(span: u32, runs: usize) -> usize {
    (width(span) + 1) * runs
}

/// The length of the run form of the block `keys` (first key included,
/// not coded; at least two keys) if it is below `limit`.
pub(crate) fn encoded_len_below(keys: &[u32], limit: usize) -> Option<usize> {
    // A run costs `w + 1` bytes (the first run's index byte is the `w`
    // byte): count the runs 16 keys at a time (vectorized), stopping once
    // they reach the limit, so that a block of scattered keys costs a few
    // compares.
    let per = width(keys[keys.len() - 1] - keys[0]) + 1;
    let rest = &keys[1..];
    let mut runs = 1;
    for (a, b) in rest.chunks(16).zip(rest[1..].chunks(16)) {
        runs += a
            .iter()
            .zip(b)
            .filter(|&(&x, &y)| y != x.wrapping_add(1))
            .count();
        if per * runs >= limit {
            return None;
        }
    }
    let len = per * runs;
    (len < limit).then_some(len)
}

/// Appends the run form of the block `keys` (at least two keys, at most
/// 257: the indexes are bytes) to `out`.
pub(crate) fn encode(keys: &[u32], out: &mut Vec<u8>) {
    debug_assert!((2..=257).contains(&keys.len()));
    let first = keys[0];
    let w = width(keys[keys.len() - 1] - first);
    out.push(w as u8);
    let mut index = [0u8; 256];
    let (mut n, mut at) = (0usize, 1usize);
    each_run(keys, |s, len| {
        out.extend_from_slice(&(s - first).to_le_bytes()[..w]);
        index[n] = (at - 1) as u8;
        n += 1;
        at += len as usize;
    });
    out.extend_from_slice(&index[1..n]);
}

/// A stream in run form taken apart: its starts (`W` bytes each) and the
/// indexes (less one) of runs 2 and on.
struct Parts<'a, const W: usize> {
    starts: &'a [[u8; W]],
    index: &'a [u8],
}

impl<const W: usize> Parts<'_, W> {
    /// Start `i` (less the first key).
    #[inline(always)]
    fn start(&self, i: usize) -> u32 {
        le(&self.starts[i])
    }

    /// The block index (less one) of run `i`'s first key; for `i` = the
    /// run count, `count - 1`.
    #[inline(always)]
    fn at(&self, i: usize, count: usize) -> usize {
        match i {
            0 => 0,
            _ => self.index.get(i - 1).map_or(count - 1, |&j| usize::from(j)),
        }
    }
}

#[inline(always)]
fn le<const W: usize>(b: &[u8; W]) -> u32 {
    let mut v = 0u32;
    for (k, &x) in b.iter().enumerate() {
        v |= u32::from(x) << (8 * k);
    }
    v
}

/// Splits `stream` into its parts for start width `W` (the width byte
/// already read); errors where its length is not a whole number of runs.
#[inline(always)]
fn parts<const W: usize>(stream: &[u8]) -> Result<Parts<'_, W>, DecodeError> {
    let n = stream.len() / (W + 1);
    if n == 0 || !stream.len().is_multiple_of(W + 1) {
        let kind = if n == 0 {
            DecodeErrorKind::Truncated
        } else {
            DecodeErrorKind::Malformed
        };
        return Err(DecodeError::new(kind, n * (W + 1), None));
    }
    let (starts, rest) = stream[1..].split_at(n * W);
    let (starts, _) = starts.as_chunks::<W>();
    Ok(Parts {
        starts,
        index: rest,
    })
}

/// Calls `$body` with `$p` the parts of `$stream` for its width (one
/// monomorphized body a width); an error where the width byte is not 1 to
/// 4.
macro_rules! by_width {
    ($stream:expr, |$p:ident| $body:expr) => {
        by_width!(@ $stream, $p, $body; 1 2 3 4)
    };
    (@ $stream:expr, $p:ident, $body:expr; $($w:literal)*) => {{
        let stream: &[u8] = $stream;
        match stream.first() {
            $(Some($w) => {
                let $p = parts::<$w>(stream)?;
                $body
            })*
            Some(_) => return Err(DecodeError::new(DecodeErrorKind::Malformed, 0, Some(1))),
            None => return Err(DecodeError::new(DecodeErrorKind::Truncated, 0, Some(1))),
        }
    }};
}

/// Walks the runs of a block in run form (first key `first`, `count`
/// keys), checked: calls `f(start, len, index)` for each run (`index` the
/// block index of `start`). Errors name the offset of the bad start or
/// index byte and the block index of the run's first key: a width other
/// than 1 to 4, a length that is not whole runs, indexes that do not
/// increase or pass the count, starts that do not increase past the run
/// before, a key past `u32::MAX`.
#[inline(always)]
fn walk(
    stream: &[u8],
    first: u32,
    count: usize,
    mut f: impl FnMut(u32, usize, usize),
) -> Result<(), DecodeError> {
    by_width!(stream, |p| {
        let n = p.starts.len();
        let w = p.starts[0].len();
        if n >= count {
            let kind = DecodeErrorKind::Malformed;
            return Err(DecodeError::new(kind, 1 + (count - 1) * w, Some(count)));
        }
        let mut prev_end = u64::from(first);
        let mut at = 0usize;
        for i in 0..n {
            let next = p.at(i + 1, count);
            if next <= at || next >= count {
                let off = 1 + n * w + i;
                return Err(DecodeError::new(
                    DecodeErrorKind::Malformed,
                    off,
                    Some(at + 1),
                ));
            }
            let start = u64::from(first) + u64::from(p.start(i));
            let end = start + (next - at) as u64 - 1;
            if start <= prev_end || end > u64::from(u32::MAX) {
                let off = 1 + i * w;
                return Err(DecodeError::new(
                    DecodeErrorKind::Malformed,
                    off,
                    Some(at + 1),
                ));
            }
            f(start as u32, next - at, at + 1);
            (prev_end, at) = (end, next);
        }
        Ok(())
    })
}

/// Decodes the keys after the first (`first`) of a block of `count` keys in
/// run form into `out[1..count]`; returns the bytes used, all of the
/// stream (errors: see [`walk`]).
pub(crate) fn decode(
    stream: &[u8],
    first: u32,
    count: usize,
    out: &mut [u32],
) -> Result<usize, DecodeError> {
    let out = &mut out[..count];
    walk(stream, first, count, |start, len, index| {
        fill(&mut out[index..], start, len);
    })?;
    Ok(stream.len())
}

/// Writes `start, start + 1, ...` to `out[..len]`, eight at a time where
/// `out` has room for the whole group (the keys past `len` are
/// overwritten by the next run or lie past the block).
#[inline(always)]
fn fill(out: &mut [u32], start: u32, len: usize) {
    let mut k = 0;
    while k < len {
        if let Some(group) = out.get_mut(k..k + 8) {
            for (j, o) in group.iter_mut().enumerate() {
                *o = start.wrapping_add((k + j) as u32);
            }
            k += 8;
        } else {
            out[k] = start.wrapping_add(k as u32);
            k += 1;
        }
    }
}

/// The keys of a block in run form (first key `first`, `count` keys) as
/// intervals `[start, end]` into `out`: the first key, then each run (the
/// first run continues the first key's interval where it starts at
/// `first + 1`: two intervals, adjacent); returns their number. For a
/// block this crate wrote or validated: on another stream, some intervals
/// or none, never a panic.
pub(crate) fn intervals(
    kernel: Kernel,
    stream: &[u8],
    first: u32,
    count: usize,
    out: &mut [(u32, u32)],
) -> usize {
    #[inline(always)]
    fn go<const W: usize>(
        kernel: Kernel,
        p: Parts<'_, W>,
        first: u32,
        count: usize,
        out: &mut [(u32, u32)],
    ) -> usize {
        let n = p.starts.len();
        let Some(runs) = out.get_mut(..=n) else {
            return 0;
        };
        runs[0] = (first, first);
        // Run r ends where run r + 1 starts (its index), the last one at
        // the block's last key (index count - 1).
        let run = |r: usize| {
            let start = first.wrapping_add(le(&p.starts[r]));
            let at = r.checked_sub(1).map_or(0, |q| usize::from(p.index[q]));
            let next = p.index.get(r).map_or(count - 1, |&j| usize::from(j));
            (start, start.wrapping_add(next.wrapping_sub(at + 1) as u32))
        };
        runs[1] = run(0);
        // Eight runs a step with SIMD (the kernel's), then one by one.
        let from = kernel.run_intervals(p.starts, p.index, first, runs);
        for (r, o) in runs.iter_mut().enumerate().skip(from + 1) {
            *o = run(r - 1);
        }
        n + 1
    }
    let by = |out: &mut [(u32, u32)]| -> Result<usize, DecodeError> {
        Ok(by_width!(stream, |p| go(kernel, p, first, count, out)))
    };
    by(out).unwrap_or(0)
}

/// The keys in both interval lists (increasing, disjoint) within
/// `[lo, hi]`, written to `out` in order; returns their number.
pub(crate) fn intersect(
    kernel: Kernel,
    a: &[(u32, u32)],
    b: &[(u32, u32)],
    lo: u32,
    hi: u32,
    out: &mut [u32],
) -> usize {
    // A block meets a block or two of the other side: start each list at
    // its first interval reaching `lo`, and stop at the first past `hi`.
    // The range is where both blocks' ranges meet: one side starts at its
    // first interval, one ends at its last (no search for those two).
    let end = |v: &[(u32, u32)]| match v.last() {
        Some(l) if l.0 > hi => v.partition_point(|iv| iv.0 <= hi),
        _ => v.len(),
    };
    let start = |v: &[(u32, u32)]| match v.first() {
        Some(f) if f.1 < lo => v.partition_point(|iv| iv.1 < lo),
        _ => 0,
    };
    let (a_end, b_end) = (end(a), end(b));
    let (mut i, mut j, mut n) = (start(a), start(b), 0);
    let mut put = |x: (u32, u32), y: (u32, u32), n: &mut usize| {
        let s = x.0.max(y.0).max(lo);
        let e = x.1.min(y.1).min(hi);
        if s <= e {
            let len = (e - s) as usize + 1;
            for (k, o) in out[*n..*n + len].iter_mut().enumerate() {
                *o = s + k as u32;
            }
            *n += len;
        }
    };
    // Eight intervals of each side at a time with SIMD (the kernel's),
    // then four (or all, without SIMD).
    (i, j) = kernel.interval_windows(a, b, (a_end, b_end), (i, j), &mut |x, y| put(x, y, &mut n));
    // Four intervals of each side at a time: the 16 overlap tests at once
    // (vectorized), then the side whose fourth interval ends first moves
    // on by four (both where they end together). The overlaps found are
    // emitted in order of `a`'s interval, then `b`'s, which is increasing.
    // Most steps only test: a pair of wikileaks sets of ~2,700 keys has 17
    // in common. A window may reach past `a_end` / `b_end`, to intervals
    // that start past `hi`: `put` emits nothing for them, and the step
    // goes by the last interval within the range.
    while i < a_end && j < b_end && i + 4 <= a.len() && j + 4 <= b.len() {
        let (qa, qb) = (&a[i..i + 4], &b[j..j + 4]);
        let mut m = 0u32;
        for (k, x) in qa.iter().enumerate() {
            for (l, y) in qb.iter().enumerate() {
                m |= (u32::from(x.0 <= y.1) & u32::from(y.0 <= x.1)) << (4 * k + l);
            }
        }
        while m != 0 {
            let t = m.trailing_zeros() as usize;
            m &= m - 1;
            put(qa[t / 4], qb[t % 4], &mut n);
        }
        let (ea, eb) = (a[(i + 3).min(a_end - 1)].1, b[(j + 3).min(b_end - 1)].1);
        i += 4 * usize::from(ea <= eb);
        j += 4 * usize::from(eb <= ea);
    }
    while i < a_end && j < b_end {
        put(a[i], b[j], &mut n);
        // Past whichever ends first (both where they end together: the
        // next of each starts after that end), without a branch: which
        // one is as good as random (it was a mispredict a step).
        let (ea, eb) = (a[i].1, b[j].1);
        i += usize::from(ea <= eb);
        j += usize::from(eb <= ea);
    }
    n
}

/// The first key `>= key` of a block in run form (first key `first`,
/// `count` keys), with its index in the block: a binary search of the
/// starts. On a stream [`decode`] accepts, the answer; on another, an
/// error or some answer (never a panic).
pub(crate) fn lower_bound(
    stream: &[u8],
    first: u32,
    count: usize,
    key: u32,
) -> Result<Option<(usize, u32)>, DecodeError> {
    if key <= first {
        return Ok(Some((0, first)));
    }
    let t = key - first;
    by_width!(stream, |p| {
        // The runs that start at or before `key`.
        let r = p.starts.partition_point(|s| le(s) <= t);
        if r == 0 {
            return Ok(Some((1, first.wrapping_add(p.start(0)))));
        }
        let (i, at) = (r - 1, p.at(r - 1, count));
        let off = (t - p.start(i)) as usize;
        let len = p.at(r, count).wrapping_sub(at);
        Ok(if off < len {
            Some((at + 1 + off, key))
        } else if r < p.starts.len() {
            Some((p.at(r, count) + 1, first.wrapping_add(p.start(r))))
        } else {
            None
        })
    })
}

/// Key `j` (`1 <= j < count`) of a block in run form: a binary search of
/// the indexes (answers as [`lower_bound`]'s).
pub(crate) fn select(
    stream: &[u8],
    first: u32,
    count: usize,
    j: usize,
) -> Result<Option<u32>, DecodeError> {
    if j == 0 || j >= count {
        return Ok(None);
    }
    let t = j - 1;
    by_width!(stream, |p| {
        // Run `r` holds index `j`: runs 2.. start at `index[..]`, run 1 at 1.
        let r = p.index.partition_point(|&x| usize::from(x) <= t);
        let start = p.start(r.min(p.starts.len() - 1));
        Ok(Some(
            first
                .wrapping_add(start)
                .wrapping_add((t - p.at(r, count).min(t)) as u32),
        ))
    })
}

/// The run form before `IKS4`, read by the loader: LEB128 pairs per run,
/// the gap from the key before (the block's first key for the first run)
/// and the length less one.
pub(crate) mod leb128 {
    use crate::codec::vbyte::scalar::one;
    use crate::error::{DecodeError, DecodeErrorKind};

    /// The LEB128 value at `stream[pos..]` where it takes one or two bytes
    /// and two are there (most gaps and run lengths), with its length.
    #[inline(always)]
    fn short_at(stream: &[u8], pos: usize) -> Option<(u32, usize)> {
        match *stream.get(pos..pos.checked_add(2)?)? {
            [a, _] if a < 0x80 => Some((u32::from(a), 1)),
            [a, b] if b < 0x80 => Some((u32::from(a & 0x7f) | u32::from(b) << 7, 2)),
            _ => None,
        }
    }

    /// Decodes the keys after the first (`first`) of a block of `count`
    /// keys in the old run form into `out[1..count]`; returns the bytes
    /// used. Errors name the block index of the run's first key and the
    /// offset of the bad LEB128 value (a run past `u32::MAX` or the count:
    /// the run's first byte).
    pub(crate) fn decode(
        stream: &[u8],
        first: u32,
        count: usize,
        out: &mut [u32],
    ) -> Result<usize, DecodeError> {
        let out = &mut out[..count];
        let (mut pos, mut prev, mut index) = (0usize, first, 1usize);
        while index < count {
            let err = |k, at| DecodeError::new(k, at, Some(index));
            let (gap, a) = match short_at(stream, pos) {
                Some(v) => v,
                None => one::<u32>(stream, pos).map_err(|k| err(k, pos))?,
            };
            let (more, b) = match short_at(stream, pos + a) {
                Some(v) => v,
                None => one::<u32>(stream, pos + a).map_err(|k| err(k, pos + a))?,
            };
            let start = u64::from(prev) + 1 + u64::from(gap);
            let end = start + u64::from(more);
            if end > u64::from(u32::MAX) || more as usize >= count - index {
                return Err(err(DecodeErrorKind::Malformed, pos));
            }
            pos += a + b;
            let len = more as usize + 1;
            super::fill(&mut out[index..], start as u32, len);
            index += len;
            prev = end as u32;
        }
        Ok(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn golden_bytes() {
        // first 10, span 291: two-byte starts. Runs 11..=13 (start 1,
        // index 1), 20 (start 10, index 4), 300..=301 (start 290 = 0x122,
        // index 5).
        let keys = [10, 11, 12, 13, 20, 300, 301];
        let mut out = Vec::new();
        encode(&keys, &mut out);
        assert_eq!(out, [2, 1, 0, 10, 0, 0x22, 0x01, 3, 4]);
        assert_eq!(encoded_len_below(&keys, 100), Some(out.len()));
        assert_eq!(encoded_len_below(&keys, out.len()), None);
        let mut back = [10u32; 7];
        assert_eq!(decode(&out, 10, 7, &mut back), Ok(out.len()));
        assert_eq!(back, keys);
        let lb = |key| lower_bound(&out, 10, 7, key).unwrap();
        assert_eq!(lb(9), Some((0, 10)));
        assert_eq!(lb(11), Some((1, 11)));
        assert_eq!(lb(14), Some((4, 20)));
        assert_eq!(lb(12), Some((2, 12)));
        assert_eq!(lb(301), Some((6, 301)));
        assert_eq!(lb(250), Some((5, 300)));
        assert_eq!(lb(302), None);
        for (j, &k) in keys.iter().enumerate().skip(1) {
            assert_eq!(select(&out, 10, 7, j).unwrap(), Some(k));
        }
        assert_eq!(select(&out, 10, 7, 7).unwrap(), None);
        // One run continuing the first key, one-byte starts: 5 | 6..=8.
        let mut out = Vec::new();
        encode(&[5, 6, 7, 8], &mut out);
        assert_eq!(out, [1, 1]);
        // Starts of three and four bytes.
        let mut out = Vec::new();
        encode(&[0, 1 << 16, (1 << 24) - 1], &mut out);
        assert_eq!(out, [3, 0, 0, 1, 0xff, 0xff, 0xff, 1]);
        let mut out = Vec::new();
        encode(&[7, 8, 9, u32::MAX], &mut out);
        assert_eq!(out, [4, 1, 0, 0, 0, 0xf8, 0xff, 0xff, 0xff, 2]);
    }

    #[test]
    fn intervals_and_their_intersection() {
        // 10 | 11..=13 joins it; 20; 300..=301.
        let mut out = Vec::new();
        encode(&[10, 11, 12, 13, 20, 300, 301], &mut out);
        let mut iv = [(0u32, 0u32); 8];
        let k = Kernel::SCALAR;
        let n = intervals(k, &out, 10, 7, &mut iv);
        assert_eq!(iv[..n], [(10, 10), (11, 13), (20, 20), (300, 301)]);
        // Too little room: none.
        assert_eq!(intervals(k, &out, 10, 7, &mut iv[..3]), 0);
        let other = [(0, 11), (13, 20), (299, 300), (400, 500)];
        let mut keys = [0u32; 16];
        let m = intersect(k, &iv[..n], &other, 0, u32::MAX, &mut keys);
        assert_eq!(keys[..m], [10, 11, 13, 20, 300]);
        let m = intersect(k, &iv[..n], &other, 11, 299, &mut keys);
        assert_eq!(keys[..m], [11, 13, 20]);
    }

    #[test]
    fn bad_streams_are_errors() {
        let err = |s: &[u8], first: u32, count: usize| {
            let mut b = [0u32; 8];
            let e = decode(s, first, count, &mut b).unwrap_err();
            (e.kind(), e.offset())
        };
        use DecodeErrorKind::{Malformed, Truncated};
        // Empty; a width of 0 or 5; no whole run; a byte past whole runs.
        assert_eq!(err(&[], 10, 3), (Truncated, 0));
        assert_eq!(err(&[0, 1], 10, 3), (Malformed, 0));
        assert_eq!(err(&[5, 1, 0, 0, 0, 0], 10, 3), (Malformed, 0));
        assert_eq!(err(&[2, 1], 10, 3), (Truncated, 0));
        assert_eq!(err(&[1, 1, 5], 10, 3), (Malformed, 2));
        // More runs than keys: three runs for two keys after the first.
        assert_eq!(err(&[1, 1, 3, 5, 0, 1], 10, 3), (Malformed, 3));
        // Indexes that do not increase, or pass the count.
        assert_eq!(err(&[1, 1, 3, 0], 10, 4), (Malformed, 3));
        assert_eq!(err(&[1, 1, 3, 5], 10, 4), (Malformed, 3));
        // A start at the first key; one not past the run before (run 1 is
        // 11..=12, run 2 starts at 12).
        assert_eq!(err(&[1, 0, 3, 2], 10, 4), (Malformed, 1));
        assert_eq!(err(&[1, 1, 2, 2], 10, 4), (Malformed, 2));
        // Past u32::MAX.
        assert_eq!(err(&[1, 1], u32::MAX - 1, 3), (Malformed, 1));
        assert_eq!(err(&[4, 0xff, 0xff, 0xff, 0xff], 1, 2), (Malformed, 1));
        // A run of non-maximal runs and a wide width are read.
        let mut b = [10u32; 8];
        assert_eq!(
            decode(&[4, 1, 0, 0, 0, 2, 0, 0, 0, 1], 10, 3, &mut b),
            Ok(10)
        );
        assert_eq!(b[..3], [10, 11, 12]);
    }

    /// Random blocks (short and long runs, starts of one to four bytes)
    /// round-trip, and `lower_bound`, `select` and `intervals` answer as
    /// the keys do.
    #[test]
    fn random_blocks_against_the_keys() {
        let mut rng = intcodec_testkit::SplitMix64::new(20);
        for round in 0..1500 {
            let n = 2 + round % 256;
            let mut keys = vec![(rng.next_u64() >> 34) as u32];
            let big = [1u64 << 4, 1 << 12, 1 << 20, 1 << 28][round % 4];
            while keys.len() < n {
                let step = match rng.below(8) {
                    0 => 2 + rng.below(big),
                    1 if round % 5 == 0 => 1 + rng.below(3),
                    _ => 1,
                };
                let Some(k) = keys[keys.len() - 1].checked_add(step as u32) else {
                    break;
                };
                keys.push(k);
            }
            let n = keys.len();
            if n < 2 {
                continue;
            }
            let mut out = Vec::new();
            encode(&keys, &mut out);
            assert_eq!(encoded_len_below(&keys, out.len() + 1), Some(out.len()));
            assert_eq!(encoded_len_below(&keys, out.len()), None);
            let mut back = vec![keys[0]; n];
            assert_eq!(decode(&out, keys[0], n, &mut back), Ok(out.len()));
            assert_eq!(back, keys, "round {round}");
            let mut iv = vec![(0u32, 0u32); n];
            let m = intervals(Kernel::SCALAR, &out, keys[0], n, &mut iv);
            let flat: Vec<u32> = iv[..m].iter().flat_map(|&(s, e)| s..=e).collect();
            assert_eq!(flat, keys, "round {round}");
            // Every kernel writes the same intervals (the SIMD ones eight
            // runs a step: blocks of 1 to 256 runs, starts of 1 to 4 bytes).
            for &k in &kernels() {
                let mut other = vec![(0u32, 0u32); n];
                let isa = k.isa();
                assert_eq!(intervals(k, &out, keys[0], n, &mut other), m, "{isa:?}");
                assert_eq!(other[..m], iv[..m], "{isa:?} round {round}");
            }
            // Disjoint and increasing; only the first key's interval may
            // touch the next.
            assert!(iv[1..m].windows(2).all(|w| w[0].1 + 1 < w[1].0));
            assert!(m == 1 || iv[0].1 < iv[1].0);
            for i in 0..n {
                let mid = keys
                    .get(i + 1)
                    .map_or(keys[i], |&k| keys[i] + (k - keys[i]) / 2);
                for probe in [
                    keys[i],
                    keys[i].saturating_add(1),
                    mid,
                    keys[i].saturating_sub(1),
                ] {
                    let want = keys.iter().position(|&k| k >= probe).map(|i| (i, keys[i]));
                    let got = lower_bound(&out, keys[0], n, probe).unwrap();
                    assert_eq!(got, want, "round {round} probe {probe}");
                }
                if i > 0 {
                    assert_eq!(select(&out, keys[0], n, i).unwrap(), Some(keys[i]));
                }
            }
        }
    }

    /// Streams with a byte changed, cut or added: `decode` either errors or
    /// gives `count` strictly increasing keys that re-encode to a stream it
    /// reads the same, and `lower_bound`, `select` and `intervals` never
    /// panic.
    #[test]
    fn damaged_streams_never_panic() {
        let mut rng = intcodec_testkit::SplitMix64::new(23);
        for round in 0..4000 {
            let count = 2 + rng.below(100) as usize;
            let mut keys = vec![rng.below(1 << 31) as u32];
            while keys.len() < count {
                let step = if rng.below(4) == 0 {
                    2 + rng.below(3000)
                } else {
                    1
                };
                keys.push(keys[keys.len() - 1] + step as u32);
            }
            let mut stream = Vec::new();
            encode(&keys, &mut stream);
            for _ in 0..1 + round % 3 {
                match rng.below(3) {
                    0 if !stream.is_empty() => {
                        let at = rng.below(stream.len() as u64) as usize;
                        stream[at] = rng.next_u64() as u8;
                    }
                    1 => stream.truncate(rng.below(stream.len() as u64 + 1) as usize),
                    0 => {}
                    _ => stream.push(rng.next_u64() as u8),
                }
            }
            let mut out = vec![keys[0]; count];
            if decode(&stream, keys[0], count, &mut out).is_ok() {
                assert!(out.windows(2).all(|w| w[0] < w[1]), "round {round}");
                let mut again = Vec::new();
                encode(&out, &mut again);
                let mut back = vec![keys[0]; count];
                decode(&again, keys[0], count, &mut back).unwrap();
                assert_eq!(back, out);
            }
            for &k in &kernels() {
                let mut iv = vec![(0u32, 0u32); count];
                let _ = intervals(k, &stream, keys[0], count, &mut iv);
            }
            for _ in 0..8 {
                let probe = keys[0].wrapping_add(rng.below(1 << 16) as u32);
                let _ = lower_bound(&stream, keys[0], count, probe);
                let _ = select(
                    &stream,
                    keys[0],
                    count,
                    rng.below(count as u64 + 1) as usize,
                );
            }
        }
    }

    /// `intersect` on every kernel against the keys of both interval lists
    /// compared one by one: random lists (0 to 40 intervals: the windows of
    /// eight and four and the scalar tail; overlaps of 0 to 20 keys, equal
    /// ends, runs past eight keys), random bounds, and an `out` of exactly
    /// the result's length or longer.
    /// Every intersection kernel this CPU runs.
    fn kernels() -> Vec<Kernel> {
        crate::isa::Isa::ALL
            .into_iter()
            .filter_map(Kernel::with_isa)
            .collect()
    }

    #[test]
    fn interval_intersection_against_the_keys() {
        let kernels = kernels();
        let mut rng = intcodec_testkit::SplitMix64::new(22);
        let list = |rng: &mut intcodec_testkit::SplitMix64| {
            let mut v = Vec::new();
            let mut at = rng.below(20) as u32;
            for _ in 0..rng.below(40) {
                let most = if rng.below(3) == 0 { 20 } else { 4 };
                let len = rng.below(most) as u32;
                v.push((at, at + len));
                at += len + 2 + rng.below(6) as u32;
            }
            v
        };
        for round in 0..4000 {
            let a = list(&mut rng);
            let b = list(&mut rng);
            let (lo, hi) = (rng.below(60) as u32, rng.below(400) as u32);
            let has = |l: &[(u32, u32)], k: u32| l.iter().any(|&(s, e)| s <= k && k <= e);
            let want: Vec<u32> = (lo..=hi).filter(|&k| has(&a, k) && has(&b, k)).collect();
            for &k in &kernels {
                let mut out = vec![0u32; want.len() + (round % 3) * 4];
                let n = intersect(k, &a, &b, lo, hi, &mut out);
                let isa = k.isa();
                assert_eq!(
                    out[..n],
                    want[..],
                    "{isa:?} round {round}: {a:?} {b:?} {lo}..={hi}"
                );
            }
        }
    }

    #[test]
    fn old_form_golden_and_bad_streams() {
        // first 10; runs 11..=13 (gap 0, len 3), 20 (gap 6, len 1),
        // 300..=301 (gap 279 = 0x97 0x02, len 2).
        let old = [0, 2, 6, 0, 0x97, 0x02, 1];
        let mut back = [10u32; 7];
        assert_eq!(leb128::decode(&old, 10, 7, &mut back), Ok(old.len()));
        assert_eq!(back, [10, 11, 12, 13, 20, 300, 301]);
        let err = |s: &[u8], first: u32, count: usize| {
            let mut b = [0u32; 8];
            leb128::decode(s, first, count, &mut b).unwrap_err()
        };
        let e = err(&[0], 10, 3);
        assert_eq!((e.kind(), e.index()), (DecodeErrorKind::Truncated, Some(1)));
        let e = err(&[0, 5], 10, 3);
        assert_eq!((e.kind(), e.offset()), (DecodeErrorKind::Malformed, 0));
        assert_eq!(
            err(&[0, 1], u32::MAX - 1, 3).kind(),
            DecodeErrorKind::Malformed
        );
        let e = err(&[0x80, 0x80, 0x80, 0x80, 0x80, 0], 1, 2);
        assert_eq!(e.kind(), DecodeErrorKind::Overlong);
        // Exactly the count: trailing bytes are left to the caller.
        let mut buf = [0u32; 8];
        assert_eq!(leb128::decode(&[0, 1, 9], 10, 3, &mut buf), Ok(2));
        assert_eq!(buf[1..3], [11, 12]);
    }
}
