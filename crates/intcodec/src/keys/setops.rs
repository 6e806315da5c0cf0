//! Intersection and union, block by block: a block whose key range
//! `[first, last]` does not meet the other side is skipped through the
//! indexes without being decoded; two overlapping blocks are decoded and
//! merged (or galloped, when one side is much shorter). A union copies the
//! coded bytes of a block that does not overlap the other side.

use alloc::vec::Vec;

use super::iter::Block;
use super::{Builder, KeySet};
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
    fn done(&self) -> bool {
        self.at.leaf >= self.at.set.leaves.len()
    }

    /// First and last key of the current block.
    #[inline]
    fn bounds(&self) -> (u32, u32) {
        let l = &self.at.set.leaves[self.at.leaf];
        (l.firsts[self.at.block], l.lasts[self.at.block])
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
        self.at.step();
    }

    /// Moves forward to the first block whose last key is `>= key`;
    /// `false` when there is none.
    fn skip_to(&mut self, key: u32) -> bool {
        if self.done() {
            return false;
        }
        if self.bounds().1 >= key {
            return true;
        }
        self.decoded = false;
        let set = self.at.set;
        let leaf = &set.leaves[self.at.leaf];
        if leaf.last() >= key {
            self.at.block += leaf.lasts[self.at.block..].partition_point(|&l| l < key);
            return true;
        }
        let mut li = set.leaf_for(key).max(self.at.leaf + 1);
        if li >= set.leaves.len() {
            self.at.leaf = li;
            return false;
        }
        let mut b = set.leaves[li].lasts.partition_point(|&l| l < key);
        if b == set.leaves[li].blocks() {
            li += 1;
            b = 0;
        }
        self.at.leaf = li;
        self.at.block = b;
        !self.done()
    }

    /// The coded bytes of the current block.
    fn raw(&self) -> (u32, u32, usize, &'a [u8]) {
        let l = &self.at.set.leaves[self.at.leaf];
        let b = self.at.block;
        (
            l.firsts[b],
            l.lasts[b],
            usize::from(l.counts[b]),
            l.stream(b),
        )
    }
}

/// The first index of `s` whose value is `>= key` (galloping from 0).
#[inline]
fn gallop(s: &[u32], key: u32) -> usize {
    let mut hi = 1;
    while hi < s.len() && s[hi - 1] < key {
        hi *= 2;
    }
    let lo = hi / 2;
    let hi = hi.min(s.len());
    lo + s[lo..hi].partition_point(|&v| v < key)
}

/// Calls `f` on every value in both increasing slices.
#[inline]
fn intersect_slices(a: &[u32], b: &[u32], f: &mut impl FnMut(u32)) {
    let (small, large) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if small.len() * 16 < large.len() {
        let mut j = 0;
        for &x in small {
            j += gallop(&large[j..], x);
            if j == large.len() {
                return;
            }
            if large[j] == x {
                f(x);
            }
        }
        return;
    }
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        if x == y {
            f(x);
        }
        i += usize::from(x <= y);
        j += usize::from(y <= x);
    }
}

impl<C: SortedCodec + KernelChoice> KeySet<C> {
    /// Calls `f` on every key in both sets, in increasing order.
    pub fn for_each_common<D: SortedCodec + KernelChoice>(
        &self,
        other: &KeySet<D>,
        mut f: impl FnMut(u32),
    ) {
        let mut a = Side::new(self);
        let mut b = Side::new(other);
        while !a.done() && !b.done() {
            let (af, al) = a.bounds();
            let (bf, bl) = b.bounds();
            if al < bf {
                if !a.skip_to(bf) {
                    break;
                }
                continue;
            }
            if bl < af {
                if !b.skip_to(af) {
                    break;
                }
                continue;
            }
            a.keys();
            b.keys();
            intersect_slices(&a.at.buf[..a.at.n], &b.at.buf[..b.at.n], &mut f);
            if al <= bl {
                a.next_block();
            }
            if bl <= al {
                b.next_block();
            }
        }
    }

    /// Calls `f` on every key of the set that is in the increasing slice
    /// `keys` (a posting list), in increasing order.
    pub fn for_each_common_sorted(&self, keys: &[u32], mut f: impl FnMut(u32)) {
        let mut a = Side::new(self);
        let mut i = 0;
        while i < keys.len() {
            if !a.skip_to(keys[i]) {
                break;
            }
            let (af, al) = a.bounds();
            let lo = i + gallop(&keys[i..], af);
            let hi = lo + gallop(&keys[lo..], al.saturating_add(1));
            let hi = if al == u32::MAX { keys.len() } else { hi };
            if lo < hi {
                let block = a.keys();
                intersect_slices(block, &keys[lo..hi], &mut f);
            }
            i = hi;
            a.next_block();
        }
    }

    /// The keys in both sets, as a set with this set's codec.
    pub fn intersection<D: SortedCodec + KernelChoice>(&self, other: &KeySet<D>) -> KeySet<C> {
        let mut out = Builder::new(KeySet::with_block_len(self.codec, self.block_len));
        self.for_each_common(other, |k| {
            out.push(k);
        });
        out.finish()
    }

    /// The number of keys in both sets.
    pub fn intersection_len<D: SortedCodec + KernelChoice>(&self, other: &KeySet<D>) -> usize {
        let mut n = 0;
        self.for_each_common(other, |_| n += 1);
        n
    }

    /// The keys of the set that are in the increasing slice `keys`.
    pub fn intersect_sorted(&self, keys: &[u32]) -> Vec<u32> {
        let mut out = Vec::new();
        self.for_each_common_sorted(keys, |k| out.push(k));
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
        loop {
            if a.done() || b.done() {
                break;
            }
            let (_, al) = a.bounds();
            let (_, bl) = b.bounds();
            // A whole block below every key the other side has left.
            if same && ai == 0 && al < pending(&mut b, bi) {
                let (f, l, c, s) = a.raw();
                out.push_raw(f, l, c, s);
                a.next_block();
                continue;
            }
            if same && bi == 0 && bl < pending(&mut a, ai) {
                let (f, l, c, s) = b.raw();
                out.push_raw(f, l, c, s);
                b.next_block();
                continue;
            }
            a.keys();
            b.keys();
            let (xa, xb) = (&a.at.buf[..a.at.n], &b.at.buf[..b.at.n]);
            while ai < xa.len() && bi < xb.len() {
                let (x, y) = (xa[ai], xb[bi]);
                out.push(x.min(y));
                ai += usize::from(x <= y);
                bi += usize::from(y <= x);
            }
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
            while !side.done() {
                if at == 0 && same {
                    let (f, l, c, s) = side.raw();
                    out.push_raw(f, l, c, s);
                } else {
                    let n = side.keys().len();
                    for j in at..n {
                        out.push(side.at.buf[j]);
                    }
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
        side.bounds().0
    } else {
        side.keys()[at]
    }
}
