//! [`KeySet`]: an ordered set of `u32` kept compressed, in the shape of
//! upscaledb's compressed B+-tree leaves (Rupp & Lemire, "32bit integer
//! compression algorithms", 2016): keys are cut into **blocks** of at most
//! `block_len + 1` keys, each stored as its first key (uncompressed, in an
//! index) plus a stream of the rest coded by a block codec; blocks are
//! grouped into **leaves** (pages of up to 64 blocks, one byte buffer each)
//! under a sorted array of leaf first keys.
//!
//! Queries never decode more than one block: `contains` and `lower_bound`
//! binary-search the leaf keys, then the leaf's block index, then run the
//! codec's own search on one block ([`SortedCodec::lower_bound`]);
//! `select` uses the codec's `select`. `insert` and `remove` decode one
//! block, edit it and re-encode it; a block that outgrows its capacity
//! splits in two (at the end of the set, full + 1, so that appends leave
//! full blocks), a leaf past 64 blocks splits in two, empty blocks and
//! leaves are dropped and small neighbours merge.
//!
//! The codec is any [`SortedCodec`] + [`KernelChoice`]: BP128 (D1),
//! FOR, SIMD-FOR, Stream VByte, VByte, VarInt-GB.
//!
//! ```
//! use intcodec::bp128::{Bp128, Layout};
//! use intcodec::keys::KeySet;
//!
//! let ids: Vec<u32> = (0..100_000).map(|i| i * 7).collect();
//! let mut set = KeySet::from_sorted(Bp128::new(Layout::Lanes4), &ids).unwrap();
//! assert!(set.contains(700));
//! assert_eq!(set.lower_bound(701), Some(707));
//! assert_eq!(set.rank(707), 101);
//! assert_eq!(set.select(101), Some(707));
//! assert!(set.insert(701));
//! assert_eq!(set.range(700..708).collect::<Vec<_>>(), [700, 701, 707]);
//! let bytes = set.to_bytes();
//! let back = KeySet::from_bytes(Bp128::new(Layout::Lanes4), &bytes).unwrap();
//! assert!(back == set);
//! ```

mod bitmap;
mod intersect;
mod iter;
mod leaf;
mod runs;
mod serial;
mod setops;
#[cfg(test)]
mod tests;

use alloc::vec::Vec;
use core::fmt;

use crate::traits::{KernelChoice, SortedCodec};
use leaf::{Form, Leaf, Leaves, Raw, LEAF_BLOCKS, VALID};

pub use iter::Iter;
pub use serial::{LoadError, LoadErrorKind};

/// The largest block payload (keys after the first one) a set accepts.
pub const MAX_BLOCK_LEN: usize = 256;
/// Room for a block plus the key being inserted.
const BUF: usize = MAX_BLOCK_LEN + 2;

/// Why [`KeySet::from_sorted`] refused its input: `keys[index]` is not
/// above `keys[index - 1]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotSorted {
    /// The first key out of order.
    pub index: usize,
}

impl fmt::Display for NotSorted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "keys not strictly increasing: key {} is not above the one before",
            self.index
        )
    }
}

#[cfg(feature = "std")]
impl std::error::Error for NotSorted {}

/// An ordered set of `u32` with compressed leaves (module docs).
#[derive(Clone)]
pub struct KeySet<C> {
    codec: C,
    block_len: usize,
    leaves: Leaves,
    /// The first key of each leaf.
    firsts: Vec<u32>,
    /// The keys up to the end of each leaf (its last entry the total):
    /// no entry for the empty set, which allocates nothing (an
    /// intersection of two small sets is mostly empty: the `[0]` this
    /// held was its one allocation).
    ends: Vec<u64>,
    /// The smallest and largest keys and the key count (0 when empty), in
    /// the handle: a query outside the range, on either bound or on a set
    /// of one or two keys touches no heap memory (three dependent loads
    /// fewer: half of uscensus2000's sets have one or two keys, as most
    /// posting lists do). Set by [`KeySet::sync`] after every change.
    lo: u32,
    hi: u32,
    count: u64,
}

impl<C: SortedCodec + KernelChoice> fmt::Debug for KeySet<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeySet")
            .field("codec", &self.codec.name())
            .field("block_len", &self.block_len)
            .field("len", &self.len())
            .field("leaves", &self.leaves.len())
            .finish()
    }
}

/// The block payload a codec works best with: one BP128 4x block (128), or
/// 256 (upscaledb's choice for the other codecs, one BP128 8x block).
pub fn default_block_len(name: &str) -> usize {
    match name {
        "bp128" | "bp128-d4" => 128,
        _ => 256,
    }
}

impl<C: SortedCodec + KernelChoice> KeySet<C> {
    /// An empty set with the codec's default block length.
    pub fn new(codec: C) -> Self {
        Self::with_block_len(codec, default_block_len(codec.name()))
    }

    /// An empty set whose blocks hold up to `block_len + 1` keys.
    ///
    /// # Panics
    /// If `block_len` is 0 or above [`MAX_BLOCK_LEN`].
    pub fn with_block_len(codec: C, block_len: usize) -> Self {
        assert!(
            (1..=MAX_BLOCK_LEN).contains(&block_len),
            "block_len {block_len}: use 1..={MAX_BLOCK_LEN}"
        );
        KeySet {
            codec,
            block_len,
            leaves: Leaves::default(),
            firsts: Vec::new(),
            ends: Vec::new(),
            lo: 0,
            hi: 0,
            count: 0,
        }
    }

    /// The bounds and the count the handle keeps, read from the leaves.
    fn derived(&self) -> (u32, u32, u64) {
        (
            self.firsts.first().copied().unwrap_or(0),
            self.leaves.last().map_or(0, Leaf::last),
            self.ends.last().copied().unwrap_or(0),
        )
    }

    /// Sets the bounds and the count kept in the handle from the leaves.
    fn sync(&mut self) {
        (self.lo, self.hi, self.count) = self.derived();
    }

    /// A set of strictly increasing `keys`, blocks and leaves filled.
    pub fn from_sorted(codec: C, keys: &[u32]) -> Result<Self, NotSorted> {
        Self::from_sorted_iter(codec, keys.iter().copied())
    }

    /// [`KeySet::from_sorted`] from an iterator (streamed: no copy of the
    /// keys is made).
    pub fn from_sorted_iter(
        codec: C,
        keys: impl IntoIterator<Item = u32>,
    ) -> Result<Self, NotSorted> {
        Self::from_sorted_with(codec, default_block_len(codec.name()), keys)
    }

    /// [`KeySet::from_sorted_iter`] with blocks of up to `block_len + 1`
    /// keys (see [`KeySet::with_block_len`]).
    pub fn from_sorted_with(
        codec: C,
        block_len: usize,
        keys: impl IntoIterator<Item = u32>,
    ) -> Result<Self, NotSorted> {
        let mut b = Builder::new(Self::with_block_len(codec, block_len));
        for (i, k) in keys.into_iter().enumerate() {
            if !b.push(k) {
                return Err(NotSorted { index: i });
            }
        }
        Ok(b.finish())
    }

    /// The codec.
    pub fn codec(&self) -> C {
        self.codec
    }

    /// The most keys after the first one in a block.
    pub fn block_len(&self) -> usize {
        self.block_len
    }

    /// The number of keys.
    pub fn len(&self) -> usize {
        self.count as usize
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The smallest key.
    pub fn first(&self) -> Option<u32> {
        (!self.is_empty()).then_some(self.lo)
    }

    /// The largest key.
    pub fn last(&self) -> Option<u32> {
        (!self.is_empty()).then_some(self.hi)
    }

    /// Heap and inline bytes of the set (indexes, block bytes, spare
    /// capacity).
    pub fn memory_bytes(&self) -> usize {
        core::mem::size_of::<Self>()
            + self.leaves.heap_bytes()
            + self.firsts.capacity() * 4
            + self.ends.capacity() * 8
            + self.leaves.iter().map(Leaf::heap_bytes).sum::<usize>()
    }

    /// The number of blocks (for statistics).
    pub fn block_count(&self) -> usize {
        self.leaves.iter().map(Leaf::blocks).sum()
    }

    /// The leaf that would hold `key` (the set is not empty).
    #[inline]
    fn leaf_for(&self, key: u32) -> usize {
        // A set of one leaf (up to 64 blocks) needs no load of the leaf
        // keys: one cache miss less for a query on a set out of cache.
        if self.leaves.len() == 1 {
            return 0;
        }
        self.firsts.partition_point(|&f| f <= key).saturating_sub(1)
    }

    /// The `count - 1` coded keys of block `b` of `leaf` searched for the
    /// first `>= key` (`key` above the block's first key): its index in the
    /// block and value.
    ///
    /// The codec's own search, not a decode of the block and a count:
    /// that measured 5-15 % slower per `contains` with BP128 (census1881,
    /// europarl, uscensus2000; alternating passes in one process,
    /// 2026-11-30). Always inlined: as a call of its own its result went
    /// through the stack once more (uscensus2000 `contains` 19.4 -> 18.1
    /// ns, sets of 3 to 17 keys 19.3 -> 15.7; 2026-12-07).
    #[inline(always)]
    fn search(&self, leaf: &Leaf, b: usize, key: u32) -> Option<(usize, u32)> {
        let count = leaf.count(b);
        let (stream, first) = (leaf.stream(b), leaf.firsts[b]);
        match leaf.meta[b].form {
            Form::Runs => runs::lower_bound(stream, first, count, key),
            Form::Bitmap => Ok(bitmap::lower_bound(stream, first, key)),
            Form::Codec => self
                .codec
                .lower_bound(stream, count - 1, first, key)
                .map(|r| r.map(|(i, v)| (i + 1, v))),
        }
        .expect(VALID)
    }

    /// Whether `key` is in the set.
    pub fn contains(&self, key: u32) -> bool {
        if self.is_empty() || key < self.lo || key > self.hi {
            return false;
        }
        if key == self.lo || key == self.hi {
            return true;
        }
        if self.count <= 2 {
            return false;
        }
        let leaf = &self.leaves[self.leaf_for(key)];
        let b = leaf.block_for(key);
        let (first, last) = (leaf.firsts[b], leaf.meta[b].last);
        if key < first || key > last {
            return false;
        }
        if key == first || key == last {
            return true;
        }
        if leaf.meta[b].form == Form::Bitmap {
            return bitmap::contains(leaf.stream(b), first, key);
        }
        matches!(self.search(leaf, b, key), Some((_, v)) if v == key)
    }

    /// The smallest key `>= key`.
    pub fn lower_bound(&self, key: u32) -> Option<u32> {
        if self.is_empty() || key > self.hi {
            return None;
        }
        if key <= self.lo {
            return Some(self.lo);
        }
        if self.count <= 2 {
            return Some(self.hi);
        }
        let li = self.leaf_for(key);
        let leaf = &self.leaves[li];
        let b = leaf.block_for(key);
        if key <= leaf.firsts[b] {
            return Some(leaf.firsts[b]);
        }
        if key <= leaf.meta[b].last {
            if leaf.meta[b].form == Form::Bitmap {
                return bitmap::next_key(leaf.stream(b), leaf.firsts[b], key);
            }
            return self.search(leaf, b, key).map(|(_, v)| v);
        }
        if b + 1 < leaf.blocks() {
            Some(leaf.firsts[b + 1])
        } else {
            self.firsts.get(li + 1).copied()
        }
    }

    /// The number of keys `< key`.
    pub fn rank(&self, key: u32) -> usize {
        if self.is_empty() {
            return 0;
        }
        let li = self.leaf_for(key);
        let leaf = &self.leaves[li];
        let b = leaf.block_for(key);
        let base = self.start_of(li) as usize
            + leaf.meta[..b]
                .iter()
                .map(|m| usize::from(m.count))
                .sum::<usize>();
        if key <= leaf.firsts[b] {
            base
        } else if key > leaf.meta[b].last {
            base + leaf.count(b)
        } else {
            base + self.search(leaf, b, key).map_or(0, |(i, _)| i)
        }
    }

    /// The key at index `i` in increasing order (`select(rank(x)) == x` for
    /// every key `x`).
    pub fn select(&self, i: usize) -> Option<u32> {
        if i >= self.len() {
            return None;
        }
        let i = i as u64;
        let li = self.ends.partition_point(|&e| e <= i);
        let leaf = &self.leaves[li];
        let mut j = (i - self.start_of(li)) as usize;
        let mut b = 0;
        while j >= leaf.count(b) {
            j -= leaf.count(b);
            b += 1;
        }
        if j == 0 {
            return Some(leaf.firsts[b]);
        }
        let count = leaf.count(b);
        let (stream, first) = (leaf.stream(b), leaf.firsts[b]);
        match leaf.meta[b].form {
            Form::Runs => runs::select(stream, first, count, j),
            Form::Bitmap => Ok(bitmap::select(stream, first, j)),
            Form::Codec => self.codec.select(stream, count - 1, first, j - 1),
        }
        .expect(VALID)
    }

    /// Inserts `key`; returns whether it was absent.
    pub fn insert(&mut self, key: u32) -> bool {
        if self.is_empty() {
            let mut leaf = Leaf::default();
            leaf.replace(&self.codec, 0, 0, &[&[key]]);
            self.push_leaf(leaf);
            return true;
        }
        let li = self.leaf_for(key);
        let last_leaf = li + 1 == self.leaves.len();
        let cap = self.block_len + 1;
        let codec = self.codec;
        let leaf = &mut self.leaves[li];
        let b = leaf.block_for(key);
        let (first, last) = (leaf.firsts[b], leaf.meta[b].last);
        if key == first || key == last {
            return false;
        }
        let mut buf = [0u32; BUF];
        let count = leaf.decode(&codec, b, &mut buf);
        let pos = if key < first {
            0
        } else if key > last {
            count
        } else {
            match buf[..count].binary_search(&key) {
                Ok(_) => return false,
                Err(p) => p,
            }
        };
        buf.copy_within(pos..count, pos + 1);
        buf[pos] = key;
        let n = count + 1;
        if n <= cap {
            leaf.replace(&codec, b, 1, &[&buf[..n]]);
        } else {
            // An append at the very end keeps the full block full.
            let at = if last_leaf && b + 1 == leaf.blocks() && pos == count {
                cap
            } else {
                n / 2
            };
            leaf.replace(&codec, b, 1, &[&buf[..at], &buf[at..n]]);
        }
        self.firsts[li] = leaf.firsts[0];
        for e in &mut self.ends[li..] {
            *e += 1;
        }
        if self.leaves[li].blocks() > LEAF_BLOCKS {
            self.split_leaf(li);
        }
        self.sync();
        true
    }

    fn split_leaf(&mut self, li: usize) {
        let leaf = &mut self.leaves[li];
        // A split of the last leaf by appends keeps the left leaf full.
        let at = leaf.blocks() / 2;
        let right = leaf.split_off(at);
        leaf.shrink_to_fit();
        let left_len = u64::from(leaf.len);
        self.firsts.insert(li + 1, right.firsts[0]);
        self.ends.insert(li, self.start_of(li) + left_len);
        self.leaves.insert(li + 1, right);
    }

    /// Removes `key`; returns whether it was present.
    pub fn remove(&mut self, key: u32) -> bool {
        if self.is_empty() {
            return false;
        }
        let li = self.leaf_for(key);
        let cap = self.block_len + 1;
        let codec = self.codec;
        let leaf = &mut self.leaves[li];
        let b = leaf.block_for(key);
        if key < leaf.firsts[b] || key > leaf.meta[b].last {
            return false;
        }
        let mut buf = [0u32; BUF];
        let count = leaf.decode(&codec, b, &mut buf);
        let Ok(pos) = buf[..count].binary_search(&key) else {
            return false;
        };
        buf.copy_within(pos + 1..count, pos);
        let n = count - 1;
        if n == 0 {
            leaf.replace(&codec, b, 1, &[]);
        } else if n <= cap / 4 && b + 1 < leaf.blocks() && n + leaf.count(b + 1) <= cap * 3 / 4 {
            // Merge a small block with the next one.
            let m = leaf.decode(&codec, b + 1, &mut buf[n..]);
            leaf.replace(&codec, b, 2, &[&buf[..n + m]]);
        } else if n <= cap / 4 && b > 0 && n + leaf.count(b - 1) <= cap * 3 / 4 {
            let mut both = [0u32; BUF];
            let m = leaf.decode(&codec, b - 1, &mut both);
            both[m..m + n].copy_from_slice(&buf[..n]);
            leaf.replace(&codec, b - 1, 2, &[&both[..m + n]]);
        } else {
            leaf.replace(&codec, b, 1, &[&buf[..n]]);
        }
        for e in &mut self.ends[li..] {
            *e -= 1;
        }
        if self.leaves[li].blocks() == 0 {
            self.leaves.remove(li);
            self.firsts.remove(li);
            self.ends.remove(li);
        } else {
            self.firsts[li] = self.leaves[li].firsts[0];
            self.merge_small_leaf(li);
        }
        self.sync();
        true
    }

    /// Merges leaf `li` into a neighbour when both are small.
    fn merge_small_leaf(&mut self, li: usize) {
        if self.leaves[li].blocks() > LEAF_BLOCKS / 4 {
            return;
        }
        let target = if li + 1 < self.leaves.len()
            && self.leaves[li].blocks() + self.leaves[li + 1].blocks() <= LEAF_BLOCKS * 3 / 4
        {
            li
        } else if li > 0
            && self.leaves[li].blocks() + self.leaves[li - 1].blocks() <= LEAF_BLOCKS * 3 / 4
        {
            li - 1
        } else {
            return;
        };
        let right = self.leaves.remove(target + 1);
        self.firsts.remove(target + 1);
        // Leaf `target` now ends where `target + 1` did.
        self.ends.remove(target);
        self.leaves[target].append(right);
    }

    /// The keys before leaf `li` (`li <= leaves.len()`).
    #[inline]
    fn start_of(&self, li: usize) -> u64 {
        if li == 0 {
            0
        } else {
            self.ends[li - 1]
        }
    }

    fn push_leaf(&mut self, leaf: Leaf) {
        if self.leaves.is_empty() {
            // One leaf first (Vec's growth would take four, then shrink).
            self.firsts.reserve_exact(1);
            self.ends.reserve_exact(1);
        }
        let total = self.start_of(self.leaves.len());
        self.firsts.push(leaf.firsts[0]);
        self.ends.push(total + u64::from(leaf.len));
        self.leaves.push(leaf);
        self.sync();
    }

    /// Every key in increasing order.
    pub fn to_vec(&self) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.len());
        let mut buf = [0u32; BUF];
        for leaf in self.leaves.iter() {
            for b in 0..leaf.blocks() {
                let n = leaf.decode(&self.codec, b, &mut buf);
                out.extend_from_slice(&buf[..n]);
            }
        }
        out
    }

    /// Checks every structural invariant (tests and fuzzing).
    #[doc(hidden)]
    pub fn check_invariants(&self) {
        assert_eq!(self.leaves.len(), self.firsts.len());
        assert_eq!(self.ends.len(), self.leaves.len());
        assert_eq!((self.lo, self.hi, self.count), self.derived());
        let mut prev: Option<u32> = None;
        let mut buf = [0u32; BUF];
        for (li, leaf) in self.leaves.iter().enumerate() {
            assert!(leaf.blocks() >= 1 && leaf.blocks() <= LEAF_BLOCKS);
            assert_eq!(self.firsts[li], leaf.firsts[0]);
            assert_eq!(self.ends[li] - self.start_of(li), u64::from(leaf.len));
            assert_eq!(leaf.meta.len(), leaf.blocks());
            assert_eq!(leaf.meta.last().unwrap().end as usize, leaf.bytes.len());
            let mut sum = 0u32;
            for b in 0..leaf.blocks() {
                let count = leaf.count(b);
                assert!(count >= 1 && count <= self.block_len + 1);
                let used = leaf::decode_block(
                    &self.codec,
                    leaf.meta[b].form,
                    leaf.stream(b),
                    leaf.firsts[b],
                    count,
                    &mut buf,
                )
                .unwrap();
                assert_eq!(used, leaf.stream(b).len());
                for &k in &buf[..count] {
                    assert!(prev.is_none_or(|p| p < k));
                    prev = Some(k);
                }
                assert_eq!(leaf.meta[b].last, buf[count - 1]);
                sum += count as u32;
            }
            assert_eq!(sum, leaf.len);
        }
    }
}

impl<C: SortedCodec + KernelChoice, D: SortedCodec + KernelChoice> PartialEq<KeySet<D>>
    for KeySet<C>
{
    /// Same keys (whatever the codecs and layouts).
    fn eq(&self, other: &KeySet<D>) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

/// Builds a set from increasing keys, filling blocks and leaves.
pub(crate) struct Builder<C> {
    set: KeySet<C>,
    leaf: Leaf,
    /// The keys of the block being filled.
    pending: Vec<u32>,
    prev: Option<u32>,
    /// The block being filled when it came in words of bits
    /// ([`Builder::push_word`]; `nbits` keys, 0: none, and then `pending`
    /// is empty): its first key `bfirst`, its last `blast`, and bit `i` of
    /// `words` the key `bfirst + 1 + i`.
    words: Vec<u64>,
    /// The words of `words` the block touched (the rest are 0).
    used: usize,
    nbits: usize,
    bfirst: u32,
    blast: u32,
    /// The most words such a block may span before it goes to `pending`
    /// (past them, its bitmap is longer than the codec's longest stream);
    /// 0 for a codec whose stream is measured from the keys (a value may
    /// take under a byte, and the range does not tell the length: BP128).
    max_words: usize,
}

impl<C: SortedCodec + KernelChoice> Builder<C> {
    pub(crate) fn new(set: KeySet<C>) -> Self {
        debug_assert!(set.is_empty());
        let cap = set.block_len + 1;
        // The codec's stream is measured without keys where every value
        // takes a byte or more (no stream of the bitmap's length holds a
        // block) or its length follows from the range (FOR, SIMD-FOR).
        let codec = &set.codec;
        let unkeyed =
            codec.max_values(4096) <= 4096 || codec.sorted_len_of_range(1, 0, 0, None).is_some();
        let max_words = match codec.max_compressed_len(set.block_len) {
            Some(most) if unkeyed => most / 8 + 2,
            _ => 0,
        };
        Builder {
            set,
            leaf: Leaf::default(),
            pending: Vec::with_capacity(cap),
            prev: None,
            words: Vec::new(),
            used: 0,
            nbits: 0,
            bfirst: 0,
            blast: 0,
            max_words,
        }
    }

    /// Whether [`Builder::push_common_bitmaps`] takes words of bits as
    /// they are (else it decodes them into keys first).
    pub(crate) fn takes_words(&self) -> bool {
        self.max_words > 0
    }

    /// Appends the keys in both bitmap-form blocks `x` and `y` (first key
    /// and stream each) within `[lo, hi]`, as for
    /// [`bitmap::common_words`], a word of bits at a time
    /// ([`Builder::push_word`]); `takes_words` must be true. With
    /// `popcnt` where the CPU has it (the `Avx2` level; the portable count
    /// of bits took a tenth of an intersection).
    pub(crate) fn push_common_bitmaps(
        &mut self,
        x: (u32, &[u8]),
        y: (u32, &[u8]),
        lo: u32,
        hi: u32,
    ) {
        #[cfg(target_arch = "x86_64")]
        if crate::isa::Isa::Avx2.is_enabled() {
            // SAFETY: the CPU has the `Avx2` level, `popcnt` and BMI1/2
            // included (checked just above).
            return unsafe { self.push_common_popcnt(x, y, lo, hi) };
        }
        self.push_common_in(x, y, lo, hi);
    }

    /// [`Builder::push_common_bitmaps`] compiled with `popcnt`.
    ///
    /// # Safety
    ///
    /// The CPU must have `popcnt`, BMI1 and BMI2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2")]
    unsafe fn push_common_popcnt(&mut self, x: (u32, &[u8]), y: (u32, &[u8]), lo: u32, hi: u32) {
        self.push_common_in(x, y, lo, hi);
    }

    #[inline(always)]
    fn push_common_in(&mut self, x: (u32, &[u8]), y: (u32, &[u8]), lo: u32, hi: u32) {
        let cap = self.set.block_len + 1;
        // The block's state in locals (in registers), stored back before
        // `push_word` and read again after it.
        let (mut n, mut first, mut used) = (self.nbits, self.bfirst, self.used);
        let mut last = None;
        for (base, m) in bitmap::common_words(x, y, lo, hi) {
            // Most words land in the block being built without filling it
            // (then `base` is past its first key and `pending` empty).
            if n > 0 && base > first {
                let c = m.count_ones() as usize;
                let at = (base - first - 1) as usize;
                let w = at / 64;
                if n + c < cap && w + 2 <= self.words.len() {
                    bitmap::or_bits_at(&mut self.words, at, m);
                    used = w + 2;
                    n += c;
                    last = Some(base + (63 - m.leading_zeros()));
                    continue;
                }
            }
            if let Some(l) = last.take() {
                (self.blast, self.prev) = (l, Some(l));
            }
            (self.nbits, self.used) = (n, used);
            self.push_word(base, m);
            (n, first, used) = (self.nbits, self.bfirst, self.used);
        }
        if let Some(l) = last {
            (self.blast, self.prev) = (l, Some(l));
        }
        (self.nbits, self.used) = (n, used);
    }

    /// Appends the keys `base + i` of the set bits `i` of `m` (all above the
    /// last pushed; `base + 63` may pass `u32::MAX` when those bits are
    /// clear). A block that comes whole in words and ends in bitmap form
    /// is stored from the words, without its keys; one that is not (keys
    /// pushed in between, too sparse, in run form or shorter in the
    /// codec's stream) is decoded and stored from its keys, so that the set
    /// is the one its keys build either way.
    #[inline(never)]
    fn push_word(&mut self, base: u32, mut m: u64) {
        if m == 0 {
            return;
        }
        let last = base.wrapping_add(63 - m.leading_zeros());
        debug_assert!(self
            .prev
            .is_none_or(|p| p < base.wrapping_add(m.trailing_zeros())));
        if !self.pending.is_empty() || self.max_words == 0 {
            self.push_word_keys(base, m);
            return;
        }
        let cap = self.set.block_len + 1;
        while m != 0 {
            if self.nbits == 0 {
                self.start_words(base.wrapping_add(m.trailing_zeros()));
                m &= m - 1;
                continue;
            }
            // This block's keys: the lowest `room` set bits of `m`.
            let room = cap - self.nbits;
            let mut rest = 0;
            if m.count_ones() as usize > room {
                rest = m;
                for _ in 0..room {
                    rest &= rest - 1;
                }
            }
            let take = m ^ rest;
            m = rest;
            // Their bit offset in `words` (a word that starts at or below
            // the first key is shifted down to the bit after it).
            let (at, bits) = if base > self.bfirst {
                ((base - self.bfirst - 1) as usize, take)
            } else {
                (0, take.checked_shr(self.bfirst + 1 - base).unwrap_or(0))
            };
            let w = at / 64;
            if w + 2 > self.words.len() {
                // Too sparse for a bitmap: the block goes on in keys.
                self.spill();
                self.push_word_keys(base, take | m);
                return;
            }
            bitmap::or_bits_at(&mut self.words, at, bits);
            self.used = w + 2;
            self.nbits += take.count_ones() as usize;
            self.blast = base.wrapping_add(63 - take.leading_zeros());
            if self.nbits == cap {
                self.flush_words();
            }
        }
        self.prev = Some(last);
    }

    /// [`Builder::push_word`] as keys.
    #[inline(never)]
    fn push_word_keys(&mut self, base: u32, m: u64) {
        let mut keys = [0u32; 64];
        let n = bitmap::word_keys(m, base, &mut keys);
        self.extend_sorted(&keys[..n]);
    }

    /// Starts a block in words at `first`: `words` zeroed (only its words
    /// the last block touched) and at its full length.
    #[inline(never)]
    fn start_words(&mut self, first: u32) {
        if self.words.len() < self.max_words {
            self.words.resize(self.max_words, 0);
        }
        self.words[..self.used].fill(0);
        self.used = 0;
        self.bfirst = first;
        self.blast = first;
        self.nbits = 1;
    }

    /// Moves the block held in words (if any) into `pending` as keys.
    #[inline]
    fn spill(&mut self) {
        if self.nbits > 0 {
            self.spill_words();
        }
    }

    #[inline(never)]
    fn spill_words(&mut self) {
        // `pending` is empty: the first key, the rest and 64 slots of room.
        self.pending.resize(self.nbits + 64, 0);
        self.pending[0] = self.bfirst;
        let n = bitmap::words_keys(
            &self.words[..self.used],
            self.bfirst,
            &mut self.pending[1..],
        );
        self.pending.truncate(1 + n);
        self.nbits = 0;
    }

    /// Stores the block held in words: from the words when its keys would
    /// store it in bitmap form (the same test as [`leaf::encode_block`]:
    /// the bitmap is shorter than the codec's stream, because none of its
    /// length holds the block or by the length the range gives, and the
    /// run form is not shorter than the bitmap), else from its keys.
    #[inline(never)]
    fn flush_words(&mut self) {
        let (first, last, count) = (self.bfirst, self.blast, self.nbits);
        let words = &self.words[..self.used];
        let codec = &self.set.codec;
        // The block's second key (its lowest bit), its codec stream's first
        // value.
        let second = words
            .iter()
            .position(|&w| w != 0)
            .map(|i| first + 1 + 64 * i as u32 + words[i].trailing_zeros());
        if let (true, Some(second)) = (count >= 2, second) {
            let len = (last - first).div_ceil(8) as usize;
            let prev = codec.supports_delta().then_some(first);
            let used = if codec.max_values(len) < count - 1 {
                Some(usize::MAX)
            } else {
                codec.sorted_len_of_range(count - 1, second, last, prev)
            };
            if used.is_some_and(|used| len < used)
                && runs::encoded_len(last - first, bitmap::runs_in(words)) > len
            {
                self.leaf.push_words(first, last, count, words, len);
                self.room();
                self.nbits = 0;
                if self.leaf.blocks() == LEAF_BLOCKS {
                    self.flush_leaf();
                }
                return;
            }
        }
        self.spill();
        self.flush_block();
    }

    /// Appends `key`; `false` (nothing done) unless it is above the last.
    #[inline]
    pub(crate) fn push(&mut self, key: u32) -> bool {
        if self.prev.is_some_and(|p| p >= key) {
            return false;
        }
        self.prev = Some(key);
        self.spill();
        self.pending.push(key);
        if self.pending.len() == self.set.block_len + 1 {
            self.flush_block();
        }
        true
    }

    /// Appends a block as coded bytes (keys above the last pushed).
    pub(crate) fn push_raw(&mut self, raw: Raw<'_>) {
        debug_assert!(self.prev.is_none_or(|p| p < raw.first));
        if self.nbits > 0 {
            self.flush_words();
        }
        if !self.pending.is_empty() {
            self.flush_block();
        }
        self.leaf.push_raw(raw);
        self.room();
        self.prev = Some(raw.last);
        if self.leaf.blocks() == LEAF_BLOCKS {
            self.flush_leaf();
        }
    }

    /// Appends strictly increasing `keys`, all above the last pushed (the
    /// same as pushing them one by one).
    pub(crate) fn extend_sorted(&mut self, keys: &[u32]) {
        let Some(&last) = keys.last() else {
            return;
        };
        debug_assert!(self.prev.is_none_or(|p| p < keys[0]));
        debug_assert!(keys.windows(2).all(|w| w[0] < w[1]));
        self.spill();
        let cap = self.set.block_len + 1;
        let mut rest = keys;
        while !rest.is_empty() {
            let take = (cap - self.pending.len()).min(rest.len());
            self.pending.extend_from_slice(&rest[..take]);
            rest = &rest[take..];
            if self.pending.len() == cap {
                self.flush_block();
            }
        }
        self.prev = Some(last);
    }

    fn flush_block(&mut self) {
        self.leaf.push_block(&self.set.codec, &self.pending);
        self.room();
        self.pending.clear();
        if self.leaf.blocks() == LEAF_BLOCKS {
            self.flush_leaf();
        }
    }

    /// Moves the leaf being built into the set as an exact-size copy, and
    /// keeps its buffers for the next (they grow for the first leaf only):
    /// one allocation and one copy a buffer and leaf, where growing each
    /// leaf from empty and shrinking it took a quarter of an intersection's
    /// time (europarl, Stream VByte, 2026-12-02).
    /// After the first block of the first leaf: room for a whole leaf's
    /// index and for 16 blocks of that block's length, so that the leaf
    /// does not grow its buffers block by block (a `memmove` and a
    /// `realloc` each: an intersection of europarl's frequent lists, two
    /// dozen blocks a result, grew them nine times). The last leaf is
    /// shrunk by [`Builder::finish`].
    #[inline]
    fn room(&mut self) {
        if self.leaf.blocks() == 1 && self.leaf.meta.capacity() < LEAF_BLOCKS {
            self.leaf
                .reserve(LEAF_BLOCKS - 1, 15 * self.leaf.bytes.len());
        }
    }

    fn flush_leaf(&mut self) {
        if self.leaf.blocks() > 0 {
            let leaf = self.leaf.take_exact();
            self.set.push_leaf(leaf);
        }
    }

    pub(crate) fn finish(mut self) -> KeySet<C> {
        if self.nbits > 0 {
            self.flush_words();
        }
        if !self.pending.is_empty() {
            self.flush_block();
        }
        // The last leaf is moved, its buffers shrunk (no copy to keep them).
        if self.leaf.blocks() > 0 {
            let mut leaf = core::mem::take(&mut self.leaf);
            leaf.shrink_to_fit();
            self.set.push_leaf(leaf);
        }
        self.set.leaves.shrink_to_fit();
        self.set.firsts.shrink_to_fit();
        self.set.ends.shrink_to_fit();
        self.set
    }
}
