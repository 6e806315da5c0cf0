//! [`Iter`]: a forward cursor over a [`KeySet`], one decoded block at a
//! time; [`Iter::seek`] jumps forward through the indexes without decoding
//! the blocks it skips.

use core::ops::{Bound, RangeBounds};

use super::{KeySet, BUF};
use crate::traits::{KernelChoice, SortedCodec};

/// A forward cursor over the keys of a [`KeySet`] (from
/// [`KeySet::iter`], [`KeySet::range`] or [`KeySet::cursor`]).
///
/// ```
/// use intcodec::keys::KeySet;
/// use intcodec::streamvbyte::StreamVByte;
///
/// let set = KeySet::from_sorted(StreamVByte::new(), &[1, 5, 9, 200, 201, 7000]).unwrap();
/// let mut c = set.cursor();
/// assert_eq!(c.seek(6), Some(9));
/// assert_eq!(c.next(), Some(9));
/// assert_eq!(c.seek(202), Some(7000));
/// assert_eq!(c.seek(8000), None);
/// ```
pub struct Iter<'a, C> {
    /// The current block; `at.n` is 0 once exhausted.
    at: Block<'a, C>,
    pos: usize,
    /// Exclusive upper bound.
    end: u64,
}

/// A position on the blocks of a set (leaf, block in the leaf), nothing
/// decoded: how [`Block`], the set operations and the intersections walk a
/// set.
pub(crate) struct Cur<'a, C> {
    pub(crate) set: &'a KeySet<C>,
    pub(crate) leaf: usize,
    pub(crate) block: usize,
}

impl<'a, C: SortedCodec + KernelChoice> Cur<'a, C> {
    /// The first block of `set`.
    #[inline]
    pub(crate) fn new(set: &'a KeySet<C>) -> Self {
        Cur {
            set,
            leaf: 0,
            block: 0,
        }
    }

    /// Whether the position is past the set's last block.
    #[inline]
    pub(crate) fn done(&self) -> bool {
        self.leaf >= self.set.leaves.len()
    }

    /// First and last key of the current block.
    #[inline]
    pub(crate) fn bounds(&self) -> (u32, u32) {
        let l = &self.set.leaves[self.leaf];
        (l.firsts[self.block], l.meta[self.block].last)
    }

    /// Decodes the current block into `buf`; returns its key count.
    #[inline]
    pub(crate) fn decode(&self, buf: &mut [u32]) -> usize {
        self.set.leaves[self.leaf].decode(&self.set.codec, self.block, buf)
    }

    /// Moves to the next block: the next leaf's first after a leaf's last
    /// (`leaf` is then the number of leaves after the set's last block);
    /// `false` past the last.
    #[inline]
    pub(crate) fn step(&mut self) -> bool {
        self.block += 1;
        if self.block == self.set.leaves[self.leaf].blocks() {
            self.block = 0;
            self.leaf += 1;
        }
        !self.done()
    }

    /// Moves forward to the first block whose last key is `>= key` (the
    /// current one's is below it); `false` when there is none.
    pub(crate) fn skip_to(&mut self, key: u32) -> bool {
        let set = self.set;
        let leaf = &set.leaves[self.leaf];
        if leaf.last() >= key {
            self.block += leaf.meta[self.block..].partition_point(|m| m.last < key);
            return true;
        }
        let mut li = set.leaf_for(key).max(self.leaf + 1);
        if li >= set.leaves.len() {
            self.leaf = li;
            return false;
        }
        let mut b = set.leaves[li].meta.partition_point(|m| m.last < key);
        if b == set.leaves[li].blocks() {
            li += 1;
            b = 0;
        }
        self.leaf = li;
        self.block = b;
        !self.done()
    }
}

/// A [`Cur`] and the keys of its block decoded into `buf`: how [`Iter`]
/// and the unions walk a set.
pub(crate) struct Block<'a, C> {
    pub(crate) cur: Cur<'a, C>,
    pub(crate) buf: [u32; BUF],
    /// Keys decoded in `buf`.
    pub(crate) n: usize,
}

impl<'a, C: SortedCodec + KernelChoice> Block<'a, C> {
    /// The first block of `set`, nothing decoded.
    pub(crate) fn first(set: &'a KeySet<C>) -> Self {
        Block {
            cur: Cur::new(set),
            buf: [0; BUF],
            n: 0,
        }
    }

    /// Decodes the current block into `buf`.
    #[inline]
    pub(crate) fn decode(&mut self) {
        self.n = self.cur.decode(&mut self.buf);
    }
}

impl<'a, C: SortedCodec + KernelChoice> Iter<'a, C> {
    fn new(set: &'a KeySet<C>, end: u64) -> Self {
        let mut it = Iter {
            at: Block::first(set),
            pos: 0,
            end,
        };
        if !set.is_empty() {
            it.load();
        }
        it
    }

    #[inline]
    fn load(&mut self) {
        self.at.decode();
        self.pos = 0;
    }

    fn exhaust(&mut self) {
        self.at.cur.leaf = self.at.cur.set.leaves.len();
        self.at.n = 0;
        self.pos = 0;
    }

    /// Moves to the next block; `false` when there is none.
    #[inline]
    fn next_block(&mut self) -> bool {
        if self.at.n == 0 {
            return false;
        }
        if !self.at.cur.step() {
            self.exhaust();
            return false;
        }
        self.load();
        true
    }

    /// The next key, without consuming it.
    #[inline]
    pub fn peek(&mut self) -> Option<u32> {
        if self.pos == self.at.n && !self.next_block() {
            return None;
        }
        let k = self.at.buf[self.pos];
        if u64::from(k) >= self.end {
            self.exhaust();
            return None;
        }
        Some(k)
    }

    /// Moves forward to the first key `>= key` (never backward: a `key` at
    /// or below the next key leaves the cursor where it is) and returns it
    /// without consuming it.
    pub fn seek(&mut self, key: u32) -> Option<u32> {
        if self.at.n == 0 {
            return None;
        }
        if key <= self.at.buf[self.at.n - 1] {
            self.pos += self.at.buf[self.pos..self.at.n].partition_point(|&k| k < key);
            return self.peek();
        }
        // Past this block (its last key is below `key`).
        if !self.at.cur.skip_to(key) {
            self.exhaust();
            return None;
        }
        self.load();
        self.pos = self.at.buf[..self.at.n].partition_point(|&k| k < key);
        self.peek()
    }
}

impl<C: SortedCodec + KernelChoice> Iterator for Iter<'_, C> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.pos < self.at.n {
            let k = self.at.buf[self.pos];
            if u64::from(k) < self.end {
                self.pos += 1;
                return Some(k);
            }
            self.exhaust();
            return None;
        }
        let k = self.peek()?;
        self.pos += 1;
        Some(k)
    }
}

impl<C: SortedCodec + KernelChoice> KeySet<C> {
    /// Every key in increasing order.
    pub fn iter(&self) -> Iter<'_, C> {
        Iter::new(self, 1 << 32)
    }

    /// A cursor at the first key (see [`Iter::seek`]).
    pub fn cursor(&self) -> Iter<'_, C> {
        self.iter()
    }

    /// The keys in `range`, in increasing order.
    pub fn range(&self, range: impl RangeBounds<u32>) -> Iter<'_, C> {
        let lo = match range.start_bound() {
            Bound::Included(&a) => u64::from(a),
            Bound::Excluded(&a) => u64::from(a) + 1,
            Bound::Unbounded => 0,
        };
        let hi = match range.end_bound() {
            Bound::Included(&b) => u64::from(b) + 1,
            Bound::Excluded(&b) => u64::from(b),
            Bound::Unbounded => 1 << 32,
        };
        let mut it = Iter::new(self, hi);
        if lo > u64::from(u32::MAX) || lo >= hi {
            it.exhaust();
        } else if lo > 0 {
            it.seek(lo as u32);
        }
        it
    }
}

impl<'a, C: SortedCodec + KernelChoice> IntoIterator for &'a KeySet<C> {
    type Item = u32;
    type IntoIter = Iter<'a, C>;

    fn into_iter(self) -> Iter<'a, C> {
        self.iter()
    }
}
