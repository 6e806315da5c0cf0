//! The run form of a block: its keys after the first as runs of consecutive
//! keys, for blocks where that is shorter than the block codec's stream.
//!
//! ```text
//!  per run (start s, length n >= 1; keys s, s+1, ..., s+n-1):
//!    gap: LEB128 u32    s - p - 1, where p is the key before the run (the
//!                       block's first key for the first run)
//!    len: LEB128 u32    n - 1
//! ```
//!
//! Posting lists and Roaring sets with many short runs (wikileaks: 82% of
//! the gaps are 1, runs of 5.6 keys on average, the other gaps of about 10
//! bits) cost a bit-packed block the width of its largest gap for every
//! key; as runs they cost about three bytes a run. The writer keeps runs
//! maximal (a gap of 0 only for a first run that continues the first key);
//! the reader accepts any runs that give strictly increasing keys within
//! `u32` and exactly the block's count.

use alloc::vec::Vec;

use super::serial::put_varint;
use crate::codec::vbyte::scalar::{len_of, one};
use crate::codec::vbyte::VByte;
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

/// The length of the run form of the block `keys` (first key included,
/// not coded) if it is below `limit`.
pub(crate) fn encoded_len_below(keys: &[u32], limit: usize) -> Option<usize> {
    // Each run costs at least two bytes: count the runs first, 16 keys at
    // a time (vectorized), stopping once they alone reach the limit, so
    // that a block of scattered keys costs a few compares.
    let rest = &keys[1..];
    let mut runs = 1;
    for (a, b) in rest.chunks(16).zip(rest[1..].chunks(16)) {
        runs += a
            .iter()
            .zip(b)
            .filter(|&(&x, &y)| y != x.wrapping_add(1))
            .count();
        if 2 * runs >= limit {
            return None;
        }
    }
    let len = encoded_len(keys);
    (len < limit).then_some(len)
}

/// The length of the run form of `keys` (at least two keys), in one
/// branch-free pass the compiler vectorizes (a walk run by run cost a
/// mispredicted branch a run: a 129-key block of wikileaks 581 -> 171 ns,
/// census 82 -> 69; 2026-11-30, Zen 3). A run starts at `keys[1]` and
/// wherever a key is not the one before plus one, and costs the LEB128
/// lengths of its gap and of its length less one. That second length is
/// one byte for runs of up to 128 keys: only where 128 keys or more follow
/// their predecessor does a walk add what longer runs cost.
fn encoded_len(keys: &[u32]) -> usize {
    // The LEB128 length of `v` (`len_of`'s value) from four compares, so
    // that the pass vectorizes: with `len_of`'s leading-zero count it did
    // not, and took 379 ns a wikileaks block against 75.
    let len_of_v = |v: u32| {
        1 + u32::from(v >= 1 << 7)
            + u32::from(v >= 1 << 14)
            + u32::from(v >= 1 << 21)
            + u32::from(v >= 1 << 28)
    };
    let first = 1 + len_of_v(keys[1].wrapping_sub(keys[0]).wrapping_sub(1));
    let (starts, next): (u32, u32) = keys[1..]
        .iter()
        .zip(&keys[2..])
        .map(|(&a, &b)| {
            let d = b.wrapping_sub(a);
            let start = u32::from(d != 1);
            (start * (1 + len_of_v(d.wrapping_sub(1))), 1 - start)
        })
        .fold((0, 0), |(s, n), (c, m)| (s + c, n + m));
    let mut len = (first + starts) as usize;
    if next >= 128 {
        each_run(keys, |_, n| len += len_of(n - 1) - 1);
    }
    len
}

/// Appends the run form of the block `keys` to `out`.
pub(crate) fn encode(keys: &[u32], out: &mut Vec<u8>) {
    let mut prev = keys[0];
    each_run(keys, |s, n| {
        put_varint(out, s - prev - 1);
        put_varint(out, n - 1);
        prev = s + (n - 1);
    });
}

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

/// Walks the runs of a block in run form (first key `first`, `count`
/// keys), checked: calls `f(start, len, index)` for each run (`index` the
/// block index of `start`) until it returns `Some`. Errors name the block
/// index of the run's first key and the offset of the bad LEB128 value (a
/// run past `u32::MAX` or the count: the run's first byte).
#[inline(always)]
fn walk<R>(
    stream: &[u8],
    first: u32,
    count: usize,
    mut f: impl FnMut(u32, usize, usize) -> Option<R>,
) -> Result<(Option<R>, usize), DecodeError> {
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
        if let Some(r) = f(start as u32, len, index) {
            return Ok((Some(r), pos));
        }
        index += len;
        prev = end as u32;
    }
    Ok((None, pos))
}

/// Decodes the keys after the first (`first`) of a block of `count` keys in
/// run form into `out[1..count]`; returns the bytes used (errors: see
/// [`walk`]).
pub(crate) fn decode(
    stream: &[u8],
    first: u32,
    count: usize,
    out: &mut [u32],
) -> Result<usize, DecodeError> {
    let out = &mut out[..count];
    let (_, used): (Option<()>, usize) = walk(stream, first, count, |start, len, index| {
        fill(&mut out[index..], start, len);
        None
    })?;
    Ok(used)
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

/// The keys of a block in run form as intervals `[start, end]`, the first
/// key included (joined to the first run when that continues it), into
/// `out`; returns their number (at most `count`). `vals` is scratch room
/// for the stream's LEB128 values (two a run; `2 * count` slots suffice).
///
/// The values are decoded at once by VByte's SIMD kernel and the intervals
/// summed from them, so that no value's length waits on the one before:
/// the walk's length-dependent loads and branches cost 41% of a
/// wikileaks intersection. A stream the fast path does not accept (odd
/// value count, a key past `u32::MAX`, keys other than `count`, too many
/// values for `vals`) is walked, which names the error.
pub(crate) fn intervals(
    stream: &[u8],
    first: u32,
    count: usize,
    vals: &mut [u32],
    out: &mut [(u32, u32)],
) -> Result<usize, DecodeError> {
    match intervals_at_once(stream, first, count, vals, out) {
        Some(n) => Ok(n),
        None => intervals_walked(stream, first, count, out),
    }
}

/// [`intervals`] from the values decoded at once; `None` where the stream
/// is not exactly `count` keys within `u32`.
#[inline]
fn intervals_at_once(
    stream: &[u8],
    first: u32,
    count: usize,
    vals: &mut [u32],
    out: &mut [(u32, u32)],
) -> Option<usize> {
    let m = VByte::new().decode_all(stream, vals).ok()?;
    if m % 2 != 0 {
        return None;
    }
    *out.first_mut()? = (first, first);
    let (mut n, mut prev, mut keys) = (1usize, u64::from(first), 1u64);
    for p in vals[..m].chunks_exact(2) {
        let (gap, more) = (u64::from(p[0]), u64::from(p[1]));
        // At most 2 * 256 values of at most 2^32: no overflow of u64.
        let end = prev + 1 + gap + more;
        keys += more + 1;
        if gap == 0 {
            // Continues the interval before (`prev` is its end).
            out[n - 1].1 = end as u32;
        } else {
            *out.get_mut(n)? = ((prev + 1 + gap) as u32, end as u32);
            n += 1;
        }
        prev = end;
    }
    // The ends increase: the last within `u32` puts every one there.
    (prev <= u64::from(u32::MAX) && keys == count as u64).then_some(n)
}

/// [`intervals`] by the checked walk, run by run (errors: see [`walk`]).
fn intervals_walked(
    stream: &[u8],
    first: u32,
    count: usize,
    out: &mut [(u32, u32)],
) -> Result<usize, DecodeError> {
    out[0] = (first, first);
    let mut n = 1;
    walk(stream, first, count, |start, len, _| {
        let end = start + (len as u32 - 1);
        if out[n - 1].1.wrapping_add(1) == start {
            out[n - 1].1 = end;
        } else {
            out[n] = (start, end);
            n += 1;
        }
        None::<()>
    })?;
    Ok(n)
}

/// The keys in both interval lists (increasing, disjoint) within
/// `[lo, hi]`, written to `out` in order; returns their number.
pub(crate) fn intersect(
    a: &[(u32, u32)],
    b: &[(u32, u32)],
    lo: u32,
    hi: u32,
    out: &mut [u32],
) -> usize {
    // A block meets a block or two of the other side: start each list at
    // its first interval reaching `lo`, and stop at the first past `hi`.
    let (a_end, b_end) = (
        a.partition_point(|iv| iv.0 <= hi),
        b.partition_point(|iv| iv.0 <= hi),
    );
    let (mut i, mut j, mut n) = (
        a.partition_point(|iv| iv.1 < lo),
        b.partition_point(|iv| iv.1 < lo),
        0,
    );
    while i < a_end && j < b_end {
        let s = a[i].0.max(b[j].0).max(lo);
        let e = a[i].1.min(b[j].1).min(hi);
        if s <= e {
            let len = (e - s) as usize + 1;
            for (k, o) in out[n..n + len].iter_mut().enumerate() {
                *o = s + k as u32;
            }
            n += len;
        }
        if a[i].1 <= b[j].1 {
            i += 1;
        } else {
            j += 1;
        }
    }
    n
}

/// The first key `>= key` of a block in run form whose first key is
/// below `key` (and whose last key is `last`), with its index in the
/// block.
///
/// The runs are walked from the end of the block that `key` is nearer
/// to: from the last run back where `key` is nearer to `last` (a run's
/// end is the key after it less its gap, and LEB128 values can be read
/// backwards, their last byte being the only one below 0x80). That halves
/// the walk on average: it was 44% of a `contains` on wikileaks
/// (2026-12-02).
pub(crate) fn lower_bound(
    stream: &[u8],
    first: u32,
    last: u32,
    count: usize,
    key: u32,
) -> Result<Option<(usize, u32)>, DecodeError> {
    if key - first > last.wrapping_sub(key) && key <= last {
        if let Some(r) = lower_bound_back(stream, first, last, count, key) {
            return Ok(r);
        }
    }
    lower_bound_forward(stream, first, count, key)
}

/// The LEB128 value (at most five bytes) that ends just before
/// `stream[end]`, and where it starts; `None` if there is none.
#[inline(always)]
fn value_before(stream: &[u8], end: usize) -> Option<(u32, usize)> {
    let tail = stream.get(..end)?;
    let last = *tail.last()?;
    if last >= 0x80 {
        return None;
    }
    // One or two bytes (most gaps and run lengths) without a loop.
    match tail.get(end.wrapping_sub(3)..end - 1) {
        Some(&[_, b]) if b < 0x80 => return Some((u32::from(last), end - 1)),
        Some(&[a, b]) if a < 0x80 => {
            return Some((u32::from(b & 0x7f) | u32::from(last) << 7, end - 2));
        }
        _ => {}
    }
    // The bytes before the last one with their continuation bit set.
    let more = tail[..end - 1]
        .iter()
        .rev()
        .take(4)
        .take_while(|&&b| b >= 0x80)
        .count();
    let start = end - 1 - more;
    let (v, used) = one::<u32>(tail, start).ok()?;
    (used == end - start).then_some((v, start))
}

/// [`lower_bound`] walking the runs from the last one back (`key` within
/// the block's keys); `None` where the stream is not runs that end at
/// `last` with `count` keys from `first` (the forward walk then names the
/// error).
#[inline]
fn lower_bound_back(
    stream: &[u8],
    first: u32,
    last: u32,
    count: usize,
    key: u32,
) -> Option<Option<(usize, u32)>> {
    // The run [start, end] whose keys have the block indices
    // [index - (end - start), index], walked back; `next` the start of the
    // run after it and its index.
    let (mut pos, mut end, mut index) = (stream.len(), last, count - 1);
    let mut next = None;
    while pos > 0 {
        let (more, at) = value_before(stream, pos)?;
        let (gap, at) = value_before(stream, at)?;
        pos = at;
        let start = end.checked_sub(more)?;
        let start_index = index.checked_sub(more as usize)?;
        if key > end {
            return Some(next);
        }
        if key >= start {
            return Some(Some((start_index + (key - start) as usize, key)));
        }
        next = Some((start_index, start));
        end = start.checked_sub(gap)?.checked_sub(1)?;
        index = start_index.checked_sub(1)?;
    }
    // Back at the first key: it ends the walk with index 0.
    (end == first && index == 0).then_some(next)
}

/// [`lower_bound`] walking the runs from the first one (checked).
fn lower_bound_forward(
    stream: &[u8],
    first: u32,
    count: usize,
    key: u32,
) -> Result<Option<(usize, u32)>, DecodeError> {
    let (r, _) = walk(stream, first, count, |start, len, index| {
        if key <= start {
            Some((index, start))
        } else {
            let off = (key - start) as usize;
            (off < len).then_some((index + off, key))
        }
    })?;
    Ok(r)
}

/// Key `j` (`1 <= j < count`) of a block in run form.
pub(crate) fn select(
    stream: &[u8],
    first: u32,
    count: usize,
    j: usize,
) -> Result<Option<u32>, DecodeError> {
    let (r, _) = walk(stream, first, count, |start, len, index| {
        (j < index + len).then(|| start + (j - index) as u32)
    })?;
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn golden_bytes() {
        // first 10; runs 11..=13 (gap 0, len 3), 20 (gap 6, len 1),
        // 300..=301 (gap 279 = 0x97 0x02, len 2).
        let keys = [10, 11, 12, 13, 20, 300, 301];
        let mut out = Vec::new();
        encode(&keys, &mut out);
        assert_eq!(out, [0, 2, 6, 0, 0x97, 0x02, 1]);
        assert_eq!(encoded_len_below(&keys, 100), Some(out.len()));
        assert_eq!(encoded_len_below(&keys, out.len()), None);
        let mut back = [10u32; 7];
        assert_eq!(decode(&out, 10, 7, &mut back), Ok(out.len()));
        assert_eq!(back, keys);
        // Walked forward (14, 12), back (301, 250, 200), past the end.
        let lb = |key| lower_bound(&out, 10, 301, 7, key).unwrap();
        assert_eq!(lb(14), Some((4, 20)));
        assert_eq!(lb(12), Some((2, 12)));
        assert_eq!(lb(301), Some((6, 301)));
        assert_eq!(lb(250), Some((5, 300)));
        assert_eq!(lb(200), Some((5, 300)));
        assert_eq!(lower_bound_back(&out, 10, 301, 7, 20), Some(Some((4, 20))));
        assert_eq!(lower_bound_back(&out, 10, 301, 7, 11), Some(Some((1, 11))));
        assert_eq!(lb(302), None);
        // Back on a stream that is not the block's runs, walked to its
        // start: no answer (the walk trusts the runs it has passed).
        assert_eq!(lower_bound_back(&out, 10, 302, 7, 11), None);
        assert_eq!(lower_bound_back(&out[1..], 10, 301, 7, 11), None);
        assert_eq!(lower_bound_back(&[0x80], 10, 301, 7, 200), None);
        for (j, &k) in keys.iter().enumerate().skip(1) {
            assert_eq!(select(&out, 10, 7, j).unwrap(), Some(k));
        }
    }

    #[test]
    fn intervals_and_their_intersection() {
        // 10 | 11..=13 joins it; 20; 300..=301.
        let mut out = Vec::new();
        encode(&[10, 11, 12, 13, 20, 300, 301], &mut out);
        let mut iv = [(0u32, 0u32); 8];
        let mut vals = [0u32; 16];
        let n = intervals(&out, 10, 7, &mut vals, &mut iv).unwrap();
        assert_eq!(iv[..n], [(10, 13), (20, 20), (300, 301)]);
        assert_eq!(intervals_at_once(&out, 10, 7, &mut vals, &mut iv), Some(n));
        let other = [(0, 11), (13, 20), (299, 300), (400, 500)];
        let mut keys = [0u32; 16];
        let m = intersect(&iv[..n], &other, 0, u32::MAX, &mut keys);
        assert_eq!(keys[..m], [10, 11, 13, 20, 300]);
        let m = intersect(&iv[..n], &other, 11, 299, &mut keys);
        assert_eq!(keys[..m], [11, 13, 20]);
    }

    #[test]
    fn bad_streams_are_errors() {
        let mut buf = [0u32; 8];
        let err = |s: &[u8], first: u32, count: usize| {
            let mut b = [0u32; 8];
            decode(s, first, count, &mut b).unwrap_err()
        };
        // Truncated: a gap with no length.
        let e = err(&[0], 10, 3);
        assert_eq!((e.kind(), e.index()), (DecodeErrorKind::Truncated, Some(1)));
        // A run longer than the block.
        let e = err(&[0, 5], 10, 3);
        assert_eq!((e.kind(), e.offset()), (DecodeErrorKind::Malformed, 0));
        // Past u32::MAX.
        let e = err(&[0, 1], u32::MAX - 1, 3);
        assert_eq!(e.kind(), DecodeErrorKind::Malformed);
        let e = err(&[0xff, 0xff, 0xff, 0xff, 0x0f, 0], 1, 2);
        assert_eq!(e.kind(), DecodeErrorKind::Malformed);
        // Overlong LEB128.
        let e = err(&[0x80, 0x80, 0x80, 0x80, 0x80, 0], 1, 2);
        assert_eq!(e.kind(), DecodeErrorKind::Overlong);
        // Exactly the count: trailing bytes are left to the caller.
        assert_eq!(decode(&[0, 1, 9], 10, 3, &mut buf), Ok(2));
        assert_eq!(buf[1..3], [11, 12]);
    }

    #[test]
    fn random_blocks_round_trip() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for round in 0..500 {
            let n = 2 + round % 257;
            let mut keys = vec![(round as u32) * 1000];
            while keys.len() < n {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Short runs and gaps of 1-2 bytes; gaps of up to 4 bytes
                // (the first one 5); runs past 128 keys (2-byte lengths).
                let step = match round % 3 {
                    0 if x.is_multiple_of(3) => 1 + (x >> 40) as u32 % 5000,
                    1 if keys.len() == 1 => (1 << 28) + (x >> 54) as u32,
                    1 => 1 + (x >> 41) as u32 % (1 << 23),
                    2 if x.is_multiple_of(200) => 2 + (x >> 40) as u32 % 300,
                    _ => 1,
                };
                keys.push(keys[keys.len() - 1] + step);
            }
            let mut out = Vec::new();
            encode(&keys, &mut out);
            assert_eq!(encoded_len(&keys), out.len(), "round {round}");
            assert_eq!(encoded_len_below(&keys, out.len() + 1), Some(out.len()));
            assert_eq!(encoded_len_below(&keys, out.len()), None);
            let mut back = vec![keys[0]; n];
            assert_eq!(decode(&out, keys[0], n, &mut back), Ok(out.len()));
            assert_eq!(back, keys);
            // Each key, the key after it and one between it and the next,
            // both ways (the back walk where the probe is in the block).
            let last = keys[n - 1];
            for i in 0..n {
                let mid = keys
                    .get(i + 1)
                    .map_or(keys[i], |&k| keys[i] + (k - keys[i]) / 2);
                for probe in [keys[i], keys[i] + 1, mid] {
                    let want = keys.iter().position(|&k| k >= probe).map(|i| (i, keys[i]));
                    if probe > keys[0] {
                        assert_eq!(lower_bound(&out, keys[0], last, n, probe).unwrap(), want);
                        let forward = lower_bound_forward(&out, keys[0], n, probe).unwrap();
                        assert_eq!(forward, want, "round {round}");
                        if probe <= last {
                            let back = lower_bound_back(&out, keys[0], last, n, probe);
                            assert_eq!(back, Some(want), "round {round}");
                        }
                    }
                }
            }
        }
    }

    /// The at-once path gives the walk's intervals wherever it answers, and
    /// `intervals` the walk's result (values or error) on every stream:
    /// random blocks, then the same with a byte changed, cut or added.
    #[test]
    fn intervals_at_once_agrees_with_the_walk() {
        let mut rng = intcodec_testkit::SplitMix64::new(21);
        for round in 0..3000 {
            let count = 2 + rng.below(200) as usize;
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
            match round % 4 {
                1 => {
                    let at = rng.below(stream.len() as u64) as usize;
                    stream[at] = rng.next_u64() as u8;
                }
                2 => stream.truncate(rng.below(stream.len() as u64) as usize),
                3 => stream.push(rng.next_u64() as u8),
                _ => {}
            }
            let (mut a, mut b) = ([(0u32, 0u32); 260], [(0u32, 0u32); 260]);
            let mut vals = [0u32; 520];
            let want = intervals_walked(&stream, keys[0], count, &mut b);
            let got = intervals(&stream, keys[0], count, &mut vals, &mut a);
            assert_eq!(got, want, "round {round}");
            if let Ok(n) = got {
                assert_eq!(a[..n], b[..n], "round {round}");
            }
            if round % 4 == 0 {
                assert!(intervals_at_once(&stream, keys[0], count, &mut vals, &mut a).is_some());
            }
        }
    }

    /// `intersect` against the keys of both interval lists compared one by
    /// one: random lists (overlaps of 0 to 20 keys, equal ends, runs past
    /// eight keys), random bounds, and an `out` of exactly the result's
    /// length or longer.
    #[test]
    fn interval_intersection_against_the_keys() {
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
            let mut out = vec![0u32; want.len() + (round % 3) * 4];
            let n = intersect(&a, &b, lo, hi, &mut out);
            assert_eq!(out[..n], want[..], "round {round}: {a:?} {b:?} {lo}..={hi}");
        }
    }
}
