//! Intersection and union, block by block: a block whose key range
//! `[first, last]` does not meet the other side is skipped through the
//! indexes without being decoded; two overlapping blocks are decoded and
//! merged (or galloped, when one side is much shorter); a block in bitmap
//! form is ANDed with another one a word at a time (a result block that
//! comes out a bitmap is built from the words, not from keys), or tests
//! the other side's decoded keys bit by bit. A union copies the coded
//! bytes of a block that does not overlap the other side.

use alloc::vec::Vec;

use super::intersect::{gallop, Kernel, PAD};
use super::iter::{Block, Cur};
use super::leaf::{Form, Raw};
use super::{bitmap, runs};
use super::{Builder, KeySet, BUF};
use crate::traits::{KernelChoice, SortedCodec};

/// A position on the blocks of a set, with the current block decoded on
/// demand.
struct Side<'a, C> {
    at: Block<'a, C>,
    decoded: bool,
}

impl<'a, C: SortedCodec + KernelChoice> Side<'a, C> {
    fn new(set: &'a KeySet<C>) -> Self {
        Side {
            at: Block::first(set),
            decoded: false,
        }
    }

    #[inline]
    fn keys(&mut self) -> &[u32] {
        if !self.decoded {
            self.at.decode();
            self.decoded = true;
        }
        &self.at.buf[..self.at.n]
    }

    #[inline]
    fn next_block(&mut self) {
        self.decoded = false;
        self.at.cur.step();
    }
}

impl<'a, C: SortedCodec + KernelChoice> Cur<'a, C> {
    /// Whether the current block holds every key from its first to its
    /// last (its keys are known without decoding it).
    #[inline]
    fn is_run(&self) -> bool {
        let l = &self.set.leaves[self.leaf];
        let b = self.block;
        l.meta[b].last - l.firsts[b] == u32::from(l.meta[b].count) - 1
    }

    /// The current block as stored.
    #[inline]
    fn raw(&self) -> Raw<'a> {
        self.set.leaves[self.leaf].raw(self.block)
    }

    /// Whether the current block is stored in form `form`.
    #[inline]
    fn is(&self, form: Form) -> bool {
        self.set.leaves[self.leaf].meta[self.block].form == form
    }

    /// The current block (in run form) as intervals in `out`; returns their
    /// number.
    #[inline]
    fn intervals(&self, kernel: Kernel, out: &mut [(u32, u32)]) -> usize {
        let raw = self.raw();
        runs::intervals(kernel, raw.stream, raw.first, raw.count, out)
    }
}

/// The keys of a decoded block (first key `first`, last `last`) in
/// `[lo, hi]`.
#[inline]
fn restrict(keys: &[u32], first: u32, last: u32, lo: u32, hi: u32) -> &[u32] {
    let s = if lo <= first {
        0
    } else {
        keys.partition_point(|&k| k < lo)
    };
    let e = if hi >= last {
        keys.len()
    } else {
        keys.partition_point(|&k| k <= hi)
    };
    &keys[s..e.max(s)]
}

/// The keys of `cur`'s block in `[lo, hi]`, decoded into `buf` first
/// unless `*n` (the keys decoded there, 0: none) says it already is.
#[inline]
fn cut<'b, C: SortedCodec + KernelChoice>(
    cur: &Cur<'_, C>,
    buf: &'b mut [u32],
    n: &mut usize,
    lo: u32,
    hi: u32,
) -> &'b [u32] {
    if *n == 0 {
        *n = cur.decode(buf);
    }
    let (first, last) = cur.bounds();
    restrict(&buf[..*n], first, last, lo, hi)
}

/// The keys of `keys` (within the range of the bitmap-form block `bm`)
/// that `bm` holds, written to `out`; returns their number.
#[inline]
fn filter_by_bitmap(bm: Raw<'_>, keys: &[u32], out: &mut [u32]) -> usize {
    let mut n = 0;
    for &k in keys {
        out[n] = k;
        n += usize::from(bitmap::holds(bm.first, bm.stream, k));
    }
    n
}

/// Where [`common_runs`] puts the common keys, in increasing order.
trait Sink {
    /// Takes increasing keys, above all taken before.
    fn keys(&mut self, keys: &[u32]);

    /// Takes the common keys of the bitmap-form blocks `x` and `y` in
    /// `[lo, hi]` (as for [`bitmap::intersect`]); `out` is room for them.
    #[inline]
    fn bitmaps(&mut self, x: Raw<'_>, y: Raw<'_>, lo: u32, hi: u32, out: &mut [u32]) {
        bitmaps_as_keys(self, x, y, lo, hi, out);
    }
}

/// [`Sink::bitmaps`] through [`Sink::keys`]: the common keys decoded into
/// `out`.
#[inline]
fn bitmaps_as_keys<S: Sink + ?Sized>(
    sink: &mut S,
    x: Raw<'_>,
    y: Raw<'_>,
    lo: u32,
    hi: u32,
    out: &mut [u32],
) {
    let isa = bitmap::best_isa();
    let n = bitmap::intersect(isa, (x.first, x.stream), (y.first, y.stream), lo, hi, out);
    if n > 0 {
        sink.keys(&out[..n]);
    }
}

/// A closure called on each run of common keys.
struct Each<F>(F);

impl<F: FnMut(&[u32])> Sink for Each<F> {
    #[inline]
    fn keys(&mut self, keys: &[u32]) {
        (self.0)(keys);
    }
}

/// The number of common keys (two bitmap blocks' by a count of bits).
struct Count(usize);

impl Sink for Count {
    #[inline]
    fn keys(&mut self, keys: &[u32]) {
        self.0 += keys.len();
    }

    #[inline]
    fn bitmaps(&mut self, x: Raw<'_>, y: Raw<'_>, lo: u32, hi: u32, _: &mut [u32]) {
        self.0 += bitmap::count_common((x.first, x.stream), (y.first, y.stream), lo, hi);
    }
}

/// A set built from the common keys (made at the first), with the codec
/// and block length of `like`: two bitmap blocks' common keys go in as
/// words of bits where the codec takes them ([`Builder::push_word`]).
struct Build<'a, C> {
    like: &'a KeySet<C>,
    out: Option<Builder<C>>,
}

impl<C: SortedCodec + KernelChoice> Build<'_, C> {
    #[inline]
    fn builder(&mut self) -> &mut Builder<C> {
        let like = self.like;
        self.out
            .get_or_insert_with(|| Builder::new(KeySet::with_block_len(like.codec, like.block_len)))
    }

    fn finish(self) -> KeySet<C> {
        match self.out {
            Some(b) => b.finish(),
            None => KeySet::with_block_len(self.like.codec, self.like.block_len),
        }
    }
}

impl<C: SortedCodec + KernelChoice> Sink for Build<'_, C> {
    #[inline]
    fn keys(&mut self, keys: &[u32]) {
        self.builder().extend_sorted(keys);
    }

    #[inline]
    fn bitmaps(&mut self, x: Raw<'_>, y: Raw<'_>, lo: u32, hi: u32, out: &mut [u32]) {
        let b = self.builder();
        if b.takes_words() {
            b.push_common_bitmaps((x.first, x.stream), (y.first, y.stream), lo, hi);
        } else {
            bitmaps_as_keys(self, x, y, lo, hi, out);
        }
    }
}

/// The intervals of the current block of each side (blocks of at most
/// `N` keys).
struct Intervals<const N: usize> {
    x: [(u32, u32); N],
    y: [(u32, u32); N],
}

impl<const N: usize> Intervals<N> {
    fn new() -> Self {
        Intervals {
            x: [(0, 0); N],
            y: [(0, 0); N],
        }
    }
}

/// Sets of at most this many keys are intersected with buffers of this
/// size: zeroing the buffers for the largest block (3 KiB) cost a fifth of
/// an intersection of two uscensus2000 sets (about 30 keys each).
const SMALL: usize = 64;

/// Calls `emit` on the common keys of `a` and `b`, a run at a time, in
/// increasing order: blocks whose key ranges do not meet are skipped
/// through the indexes; two that do are decoded (each once however many
/// blocks of the other side it meets), cut to the range they share and
/// intersected by `kernel`.
fn common_runs<C, D>(a: &KeySet<C>, b: &KeySet<D>, kernel: Kernel, emit: &mut impl Sink)
where
    C: SortedCodec + KernelChoice,
    D: SortedCodec + KernelChoice,
{
    let (Some(a_first), Some(a_last), Some(b_first), Some(b_last)) =
        (a.first(), a.last(), b.first(), b.last())
    else {
        return;
    };
    if a_last < b_first || b_last < a_first {
        return;
    }
    // A block holds at most its set's keys.
    if a.len().max(b.len()) <= SMALL {
        common_runs_in::<C, D, SMALL, { SMALL + PAD }>(a, b, kernel, emit);
    } else {
        common_runs_in::<C, D, BUF, { BUF + PAD }>(a, b, kernel, emit);
    }
}

/// [`common_runs`] with buffers for blocks of at most `N` keys (`O` =
/// `N + PAD` for the kernels' output).
fn common_runs_in<C, D, const N: usize, const O: usize>(
    a: &KeySet<C>,
    b: &KeySet<D>,
    kernel: Kernel,
    sink: &mut impl Sink,
) where
    C: SortedCodec + KernelChoice,
    D: SortedCodec + KernelChoice,
{
    let mut x = Cur::new(a);
    let mut y = Cur::new(b);
    let mut bx = [0u32; N];
    let mut by = [0u32; N];
    let mut out = [0u32; O];
    // Keys decoded in `bx` / `by` and intervals in `iv` (0: the
    // current block is not decoded).
    let (mut nx, mut ny) = (0usize, 0usize);
    let (mut rx, mut ry) = (0usize, 0usize);
    // Room for the intervals (zeroed only once two blocks in run form
    // meet: the 6 KiB cost a tenth of an intersection of two small sets).
    let mut iv: Option<Intervals<N>> = None;
    loop {
        let (xf, xl) = x.bounds();
        let (yf, yl) = y.bounds();
        if xl < yf {
            (nx, rx) = (0, 0);
            if !x.skip_to(yf) {
                break;
            }
            continue;
        }
        if yl < xf {
            (ny, ry) = (0, 0);
            if !y.skip_to(xf) {
                break;
            }
            continue;
        }
        let (lo, hi) = (xf.max(yf), xl.min(yl));
        // A block that is a run of consecutive keys meets the other in the
        // other's keys in the shared range: no decode, no merge.
        match (x.is_run(), y.is_run()) {
            (true, true) => {
                for (o, k) in out.iter_mut().zip(lo..=hi) {
                    *o = k;
                }
                sink.keys(&out[..(hi - lo) as usize + 1]);
            }
            (true, false) => {
                let sy = cut(&y, &mut by, &mut ny, lo, hi);
                if !sy.is_empty() {
                    sink.keys(sy);
                }
            }
            (false, true) => {
                let sx = cut(&x, &mut bx, &mut nx, lo, hi);
                if !sx.is_empty() {
                    sink.keys(sx);
                }
            }
            // Two blocks in bitmap form: a word of each at a time.
            (false, false) if x.is(Form::Bitmap) && y.is(Form::Bitmap) => {
                sink.bitmaps(x.raw(), y.raw(), lo, hi, &mut out);
            }
            // Two blocks in run form meet in their intervals' overlaps.
            (false, false) if x.is(Form::Runs) && y.is(Form::Runs) => {
                let iv = iv.get_or_insert_with(Intervals::new);
                if rx == 0 {
                    rx = x.intervals(kernel, &mut iv.x);
                }
                if ry == 0 {
                    ry = y.intervals(kernel, &mut iv.y);
                }
                let n = runs::intersect(kernel, &iv.x[..rx], &iv.y[..ry], lo, hi, &mut out);
                if n > 0 {
                    sink.keys(&out[..n]);
                }
            }
            // One block in bitmap form: the other's keys tested in it.
            (false, false) if x.is(Form::Bitmap) || y.is(Form::Bitmap) => {
                let n = if x.is(Form::Bitmap) {
                    filter_by_bitmap(x.raw(), cut(&y, &mut by, &mut ny, lo, hi), &mut out)
                } else {
                    filter_by_bitmap(y.raw(), cut(&x, &mut bx, &mut nx, lo, hi), &mut out)
                };
                if n > 0 {
                    sink.keys(&out[..n]);
                }
            }
            (false, false) => {
                let sx = cut(&x, &mut bx, &mut nx, lo, hi);
                let sy = cut(&y, &mut by, &mut ny, lo, hi);
                let n = kernel.run(sx, sy, &mut out);
                if n > 0 {
                    sink.keys(&out[..n]);
                }
            }
        }
        let (ax, ay) = (xl <= yl, yl <= xl);
        if ax {
            (nx, rx) = (0, 0);
            if !x.step() {
                break;
            }
        }
        if ay {
            (ny, ry) = (0, 0);
            if !y.step() {
                break;
            }
        }
    }
}

impl<C: SortedCodec + KernelChoice> KeySet<C> {
    /// Calls `f` on every key in both sets, in increasing order.
    pub fn for_each_common<D: SortedCodec + KernelChoice>(
        &self,
        other: &KeySet<D>,
        mut f: impl FnMut(u32),
    ) {
        common_runs(
            self,
            other,
            Kernel::best(),
            &mut Each(|run: &[u32]| run.iter().for_each(|&k| f(k))),
        );
    }

    /// Calls `f` on every key of the set that is in the increasing slice
    /// `keys` (a posting list), in increasing order.
    pub fn for_each_common_sorted(&self, keys: &[u32], mut f: impl FnMut(u32)) {
        self.common_runs_sorted(keys, Kernel::best(), &mut |run| {
            run.iter().for_each(|&k| f(k));
        });
    }

    /// [`KeySet::for_each_common_sorted`] a run of common keys at a time.
    fn common_runs_sorted(&self, keys: &[u32], kernel: Kernel, emit: &mut impl FnMut(&[u32])) {
        let (Some(first), Some(last)) = (self.first(), self.last()) else {
            return;
        };
        let mut i = gallop(keys, first);
        if i == keys.len() || keys[i] > last {
            return;
        }
        let mut a = Cur::new(self);
        let mut buf = [0u32; BUF];
        let mut out = [0u32; BUF + PAD];
        while i < keys.len() {
            let (af, al) = a.bounds();
            if al < keys[i] {
                if !a.skip_to(keys[i]) {
                    break;
                }
                continue;
            }
            let lo = i + gallop(&keys[i..], af);
            let hi = if al == u32::MAX {
                keys.len()
            } else {
                lo + gallop(&keys[lo..], al + 1)
            };
            if lo < hi && a.is_run() {
                // Every key of the slice in the block's range is in it.
                emit(&keys[lo..hi]);
            } else if lo < hi && a.is(Form::Bitmap) {
                // The slice's keys in the block's range, tested bit by bit.
                let raw = a.raw();
                for part in keys[lo..hi].chunks(out.len()) {
                    let m = filter_by_bitmap(raw, part, &mut out);
                    if m > 0 {
                        emit(&out[..m]);
                    }
                }
            } else if lo < hi {
                let n = a.decode(&mut buf);
                let block = restrict(&buf[..n], af, al, keys[lo], keys[hi - 1]);
                let m = kernel.run(block, &keys[lo..hi], &mut out);
                if m > 0 {
                    emit(&out[..m]);
                }
            }
            i = hi;
            if !a.step() {
                break;
            }
        }
    }

    /// The keys in both sets, as a set with this set's codec.
    pub fn intersection<D: SortedCodec + KernelChoice>(&self, other: &KeySet<D>) -> KeySet<C> {
        let mut out = Build {
            like: self,
            out: None,
        };
        common_runs(self, other, Kernel::best(), &mut out);
        out.finish()
    }

    /// The number of keys in both sets.
    pub fn intersection_len<D: SortedCodec + KernelChoice>(&self, other: &KeySet<D>) -> usize {
        let mut n = Count(0);
        common_runs(self, other, Kernel::best(), &mut n);
        n.0
    }

    /// The keys of the set that are in the increasing slice `keys`.
    pub fn intersect_sorted(&self, keys: &[u32]) -> Vec<u32> {
        let mut out = Vec::new();
        self.common_runs_sorted(keys, Kernel::best(), &mut |run| {
            out.extend_from_slice(run);
        });
        out
    }

    /// The keys in either set, as a set with this set's codec. Blocks that
    /// do not overlap the other set are copied without being decoded when
    /// both sets have the same codec and block length.
    pub fn union(&self, other: &KeySet<C>) -> KeySet<C> {
        let same = self.codec.name() == other.codec.name() && self.block_len == other.block_len;
        let mut out = Builder::new(KeySet::with_block_len(self.codec, self.block_len));
        let mut a = Side::new(self);
        let mut b = Side::new(other);
        // Keys of the current (decoded) block of each side not yet output.
        let (mut ai, mut bi) = (0usize, 0usize);
        // The keys of one merge of two blocks, handed to `out` at once.
        let mut merged = [0u32; 2 * BUF];
        loop {
            if a.at.cur.done() || b.at.cur.done() {
                break;
            }
            let (_, al) = a.at.cur.bounds();
            let (_, bl) = b.at.cur.bounds();
            // A whole block below every key the other side has left.
            if same && ai == 0 && al < pending(&mut b, bi) {
                out.push_raw(a.at.cur.raw());
                a.next_block();
                continue;
            }
            if same && bi == 0 && bl < pending(&mut a, ai) {
                out.push_raw(b.at.cur.raw());
                b.next_block();
                continue;
            }
            a.keys();
            b.keys();
            let (xa, xb) = (&a.at.buf[..a.at.n], &b.at.buf[..b.at.n]);
            let mut m = 0;
            while ai < xa.len() && bi < xb.len() {
                let (x, y) = (xa[ai], xb[bi]);
                // `m <= ai + bi`: inside `merged`.
                merged[m] = x.min(y);
                m += 1;
                ai += usize::from(x <= y);
                bi += usize::from(y <= x);
            }
            out.extend_sorted(&merged[..m]);
            if ai == xa.len() {
                a.next_block();
                ai = 0;
            }
            if bi == xb.len() {
                b.next_block();
                bi = 0;
            }
        }
        for (side, mut at) in [(&mut a, ai), (&mut b, bi)] {
            while !side.at.cur.done() {
                if at == 0 && same {
                    out.push_raw(side.at.cur.raw());
                } else {
                    out.extend_sorted(&side.keys()[at..]);
                }
                at = 0;
                side.next_block();
            }
        }
        out.finish()
    }

    /// The keys of the set and of the increasing slice `keys`.
    pub fn union_sorted(&self, keys: &[u32]) -> KeySet<C> {
        let mut out = Builder::new(KeySet::with_block_len(self.codec, self.block_len));
        let mut it = self.iter().peekable();
        let mut j = 0;
        loop {
            match (it.peek().copied(), keys.get(j).copied()) {
                (Some(x), Some(y)) => {
                    out.push(x.min(y));
                    if x <= y {
                        it.next();
                    }
                    j += usize::from(y <= x);
                }
                (Some(x), None) => {
                    out.push(x);
                    it.next();
                }
                (None, Some(y)) => {
                    out.push(y);
                    j += 1;
                }
                (None, None) => break,
            }
        }
        out.finish()
    }
}

/// The first key of the current block of `side` not yet output (`at` keys
/// of it already were).
#[inline]
fn pending<C: SortedCodec + KernelChoice>(side: &mut Side<'_, C>, at: usize) -> u32 {
    if at == 0 {
        side.at.cur.bounds().0
    } else {
        side.keys()[at]
    }
}
