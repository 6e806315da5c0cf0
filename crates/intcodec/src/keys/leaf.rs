//! A leaf (page) of a [`KeySet`](super::KeySet): up to [`LEAF_BLOCKS`]
//! compressed blocks in one byte buffer, with a block index beside it.
//!
//! ```text
//!  index (one entry per block b):  firsts[b], meta[b] = { last, end, count, form }
//!  bytes: [ block 0 stream | block 1 stream | ... ]
//!  block b = keys firsts[b] (kept in the index) followed by count - 1
//!            keys coded by the codec (delta from firsts[b]), as runs
//!            (see `runs`) or as a bitmap (see `bitmap`), as form says, in
//!            bytes[meta[b-1].end .. meta[b].end]   (meta[-1].end = 0)
//! ```
//!
//! The first keys are an array of their own, for the binary search; the
//! rest of a block's entry is one 12-byte struct, so that a query past the
//! search touches one more cache line for it, not one per field (with an
//! array per field, the chain of loads of a `contains` on a set out of
//! cache was most of its time: wikileaks, 2026-12-02).
//!
//! A block is written in the shortest of the three forms (on a tie the
//! codec's, then runs).

use alloc::vec::Vec;

use super::{bitmap, runs};
use crate::error::DecodeError;
use crate::traits::SortedCodec;

/// How a block's keys after the first are coded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// The block codec's stream (delta-coded from the first key when the
    /// codec has a delta mode).
    Codec,
    /// Runs of consecutive keys ([`runs`]).
    Runs,
    /// One bit per key value from the first key to the last ([`bitmap`]).
    Bitmap,
}

/// The most blocks in one leaf; a leaf that grows past it splits in two.
pub(crate) const LEAF_BLOCKS: usize = 64;

/// The message of the `expect`s on blocks this crate wrote or validated.
pub(crate) const VALID: &str = "keys: blocks are written by the codec or validated on load";

/// Appends the stream of block `keys` (all but the first key) to `out` in
/// the shortest form: the codec's (delta-coded from the first key when the
/// codec has a delta mode), runs or a bitmap; returns the form.
pub(crate) fn encode_block<C: SortedCodec>(codec: &C, keys: &[u32], out: &mut Vec<u8>) -> Form {
    let rest = &keys[1..];
    if rest.is_empty() {
        return Form::Codec;
    }
    let old = out.len();
    let prev = codec.supports_delta().then_some(keys[0]);
    let bitmap_len = bitmap::encoded_len(keys);
    // The codec's stream is written once it is sure to be the shortest, or
    // first when its length is not known without writing it. No stream of
    // `bitmap_len` bytes holds `rest.len()` values of a codec whose every
    // value takes a byte or more (VByte, Stream VByte): where keys are
    // dense the bitmap wins without the codec's encode. FOR tells its
    // length from the range (its encode was a third of an intersection of
    // europarl's frequent lists).
    let (used, written) = if codec.max_values(bitmap_len) < rest.len() {
        (usize::MAX, false)
    } else if let Some(len) = codec.sorted_len(rest, prev) {
        (len, false)
    } else {
        (encode_codec(codec, rest, prev, out), true)
    };
    // Runs are only worth measuring up to the shorter of the others (up to
    // the bitmap's length included, runs winning that tie): the run count
    // alone often rules them out.
    if runs::encoded_len_below(keys, used.min(bitmap_len + 1)).is_some() {
        out.truncate(old);
        runs::encode(keys, out);
        return Form::Runs;
    }
    if bitmap_len < used {
        out.truncate(old);
        bitmap::encode(keys, out);
        return Form::Bitmap;
    }
    if !written {
        encode_codec(codec, rest, prev, out);
    }
    Form::Codec
}

/// Appends the codec's stream of `values` (delta-coded from `prev` when
/// given) to `out`; returns its length.
fn encode_codec<C: SortedCodec>(
    codec: &C,
    values: &[u32],
    prev: Option<u32>,
    out: &mut Vec<u8>,
) -> usize {
    let old = out.len();
    let max = codec
        .max_compressed_len(values.len())
        .expect("a block's size fits usize");
    out.resize(old + max, 0);
    let used = codec
        .encode_opt(values, prev, &mut out[old..])
        .expect("max_compressed_len bytes are enough");
    out.truncate(old + used);
    used
}

/// Decodes the `count` keys of a block (first key `first`, stream `stream`
/// in form `form`) into `out[..count]`; returns the stream bytes consumed
/// (checked).
pub(crate) fn decode_block<C: SortedCodec>(
    codec: &C,
    form: Form,
    stream: &[u8],
    first: u32,
    count: usize,
    out: &mut [u32],
) -> Result<usize, DecodeError> {
    out[0] = first;
    if count <= 1 {
        return Ok(0);
    }
    match form {
        Form::Runs => runs::decode(stream, first, count, out),
        Form::Bitmap => bitmap::decode(stream, first, count, out),
        Form::Codec => {
            let prev = codec.supports_delta().then_some(first);
            codec.decode_opt(stream, count - 1, prev, &mut out[1..count])
        }
    }
}

/// A block as it is stored: its index entry and coded stream (copied
/// between sets of the same codec and block length, written and loaded).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Raw<'a> {
    pub(crate) first: u32,
    pub(crate) last: u32,
    pub(crate) count: usize,
    pub(crate) form: Form,
    pub(crate) stream: &'a [u8],
}

/// A block's index entry past its first key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Meta {
    /// Its last key.
    pub(crate) last: u32,
    /// The end of its stream in the leaf's bytes.
    pub(crate) end: u32,
    /// Its number of keys, the first included.
    pub(crate) count: u16,
    pub(crate) form: Form,
}

const _: () = assert!(core::mem::size_of::<Meta>() == 12);

#[derive(Clone, Debug, Default)]
pub(crate) struct Leaf {
    pub(crate) firsts: Vec<u32>,
    pub(crate) meta: Vec<Meta>,
    pub(crate) bytes: Vec<u8>,
    pub(crate) len: u32,
}

impl Leaf {
    #[inline]
    pub(crate) fn blocks(&self) -> usize {
        self.firsts.len()
    }

    #[inline]
    pub(crate) fn start(&self, b: usize) -> usize {
        if b == 0 {
            0
        } else {
            self.meta[b - 1].end as usize
        }
    }

    #[inline]
    pub(crate) fn stream(&self, b: usize) -> &[u8] {
        &self.bytes[self.start(b)..self.meta[b].end as usize]
    }

    /// The key count of block `b`.
    #[inline]
    pub(crate) fn count(&self, b: usize) -> usize {
        usize::from(self.meta[b].count)
    }

    /// Block `b` as stored.
    #[inline]
    pub(crate) fn raw(&self, b: usize) -> Raw<'_> {
        let m = self.meta[b];
        Raw {
            first: self.firsts[b],
            last: m.last,
            count: usize::from(m.count),
            form: m.form,
            stream: self.stream(b),
        }
    }

    #[inline]
    pub(crate) fn last(&self) -> u32 {
        self.meta[self.meta.len() - 1].last
    }

    /// The block that would hold `key`: the last whose first key is
    /// `<= key` (block 0 when `key` is below every key).
    #[inline]
    pub(crate) fn block_for(&self, key: u32) -> usize {
        self.firsts.partition_point(|&f| f <= key).saturating_sub(1)
    }

    /// Decodes block `b` into `out`; returns its key count.
    #[inline]
    pub(crate) fn decode<C: SortedCodec>(&self, codec: &C, b: usize, out: &mut [u32]) -> usize {
        let count = self.count(b);
        decode_block(
            codec,
            self.meta[b].form,
            self.stream(b),
            self.firsts[b],
            count,
            out,
        )
        .expect(VALID);
        count
    }

    /// Replaces blocks `b .. b + remove` by one block per non-empty slice of
    /// `parts` (each strictly increasing, at most the block capacity).
    pub(crate) fn replace<C: SortedCodec>(
        &mut self,
        codec: &C,
        b: usize,
        remove: usize,
        parts: &[&[u32]],
    ) {
        let lo = self.start(b);
        let hi = if remove == 0 {
            lo
        } else {
            self.meta[b + remove - 1].end as usize
        };
        let mut coded = Vec::new();
        let mut meta = Vec::with_capacity(parts.len());
        for p in parts {
            let form = encode_block(codec, p, &mut coded);
            meta.push(Meta {
                last: p[p.len() - 1],
                end: u32::try_from(lo + coded.len()).expect("a leaf is under 4 GiB"),
                count: p.len() as u16,
                form,
            });
        }
        let grow = coded.len() as i64 - (hi - lo) as i64;
        self.bytes.splice(lo..hi, coded);
        for m in &mut self.meta[b + remove..] {
            m.end = (i64::from(m.end) + grow) as u32;
        }
        let removed: u32 = self.meta[b..b + remove]
            .iter()
            .map(|m| u32::from(m.count))
            .sum();
        let added: usize = parts.iter().map(|p| p.len()).sum();
        self.meta.splice(b..b + remove, meta);
        self.firsts
            .splice(b..b + remove, parts.iter().map(|p| p[0]));
        self.len = self.len - removed + added as u32;
    }

    /// Appends the block of `keys` (strictly increasing, above every key of
    /// the leaf, at most the block capacity): [`Leaf::replace`] at the end,
    /// coded straight into the leaf's bytes.
    pub(crate) fn push_block<C: SortedCodec>(&mut self, codec: &C, keys: &[u32]) {
        let form = encode_block(codec, keys, &mut self.bytes);
        self.push_meta(keys[0], keys[keys.len() - 1], keys.len(), form);
    }

    /// Appends a block in bitmap form from its words (see
    /// [`bitmap::put_words`]; `len` its stream's length).
    pub(crate) fn push_words(
        &mut self,
        first: u32,
        last: u32,
        count: usize,
        words: &[u64],
        len: usize,
    ) {
        bitmap::put_words(words, len, &mut self.bytes);
        self.push_meta(first, last, count, Form::Bitmap);
    }

    /// Appends a block whose stream is already coded (a validated or copied
    /// block).
    pub(crate) fn push_raw(&mut self, raw: Raw<'_>) {
        let Raw {
            first,
            last,
            count,
            form,
            stream,
        } = raw;
        self.bytes.extend_from_slice(stream);
        self.push_meta(first, last, count, form);
    }

    /// Indexes a block whose stream ends the leaf's bytes.
    fn push_meta(&mut self, first: u32, last: u32, count: usize, form: Form) {
        self.firsts.push(first);
        self.meta.push(Meta {
            last,
            end: u32::try_from(self.bytes.len()).expect("a leaf is under 4 GiB"),
            count: count as u16,
            form,
        });
        self.len += count as u32;
    }

    /// Moves blocks `at..` into a new leaf.
    pub(crate) fn split_off(&mut self, at: usize) -> Leaf {
        let cut = self.start(at);
        let bytes = self.bytes.split_off(cut);
        let mut meta = self.meta.split_off(at);
        for m in &mut meta {
            m.end -= cut as u32;
        }
        let moved: u32 = meta.iter().map(|m| u32::from(m.count)).sum();
        self.len -= moved;
        Leaf {
            firsts: self.firsts.split_off(at),
            meta,
            bytes,
            len: moved,
        }
    }

    /// Appends every block of `other`.
    pub(crate) fn append(&mut self, other: Leaf) {
        let base = self.bytes.len() as u32;
        self.bytes.extend_from_slice(&other.bytes);
        self.meta.extend(other.meta.iter().map(|&m| Meta {
            end: m.end + base,
            ..m
        }));
        self.firsts.extend_from_slice(&other.firsts);
        self.len += other.len;
    }

    /// A copy of this leaf in buffers of exactly its size; empties this
    /// one, which keeps its buffers.
    pub(crate) fn take_exact(&mut self) -> Leaf {
        let leaf = Leaf {
            firsts: self.firsts.as_slice().to_vec(),
            meta: self.meta.as_slice().to_vec(),
            bytes: self.bytes.as_slice().to_vec(),
            len: self.len,
        };
        self.firsts.clear();
        self.meta.clear();
        self.bytes.clear();
        self.len = 0;
        leaf
    }

    /// Room for `blocks` more blocks and `bytes` more stream bytes.
    pub(crate) fn reserve(&mut self, blocks: usize, bytes: usize) {
        self.firsts.reserve_exact(blocks);
        self.meta.reserve_exact(blocks);
        self.bytes.reserve(bytes);
    }

    pub(crate) fn shrink_to_fit(&mut self) {
        self.firsts.shrink_to_fit();
        self.meta.shrink_to_fit();
        self.bytes.shrink_to_fit();
    }

    /// Heap bytes this leaf holds (capacities).
    pub(crate) fn heap_bytes(&self) -> usize {
        self.firsts.capacity() * 4
            + self.meta.capacity() * core::mem::size_of::<Meta>()
            + self.bytes.capacity()
    }
}

/// The leaves of a set. A set of one leaf (up to 64 blocks: most sets)
/// keeps it in the handle, so a query on it makes one dependent load
/// fewer (the leaf's index, not a pointer to it, is in the set); more
/// leaves are on the heap. Reads go through the slice (`Deref`).
#[derive(Clone, Debug)]
pub(crate) enum Leaves {
    Heap(Vec<Leaf>),
    One(Leaf),
}

impl Default for Leaves {
    fn default() -> Self {
        Leaves::Heap(Vec::new())
    }
}

impl core::ops::Deref for Leaves {
    type Target = [Leaf];
    #[inline]
    fn deref(&self) -> &[Leaf] {
        match self {
            Leaves::Heap(v) => v,
            Leaves::One(l) => core::slice::from_ref(l),
        }
    }
}

impl core::ops::DerefMut for Leaves {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Leaf] {
        match self {
            Leaves::Heap(v) => v,
            Leaves::One(l) => core::slice::from_mut(l),
        }
    }
}

impl Leaves {
    /// The leaves on the heap (a set's one leaf moved there first).
    fn heap(&mut self) -> &mut Vec<Leaf> {
        if let Leaves::One(_) = self {
            if let Leaves::One(l) = core::mem::take(self) {
                let mut v = Vec::with_capacity(2);
                v.push(l);
                *self = Leaves::Heap(v);
            }
        }
        match self {
            Leaves::Heap(v) => v,
            Leaves::One(_) => unreachable!("moved to the heap above"),
        }
    }

    /// One leaf back into the handle.
    fn settle(&mut self) {
        if let Leaves::Heap(v) = self {
            if v.len() == 1 {
                if let Some(l) = v.pop() {
                    *self = Leaves::One(l);
                }
            } else if v.is_empty() {
                *self = Leaves::default();
            }
        }
    }

    pub(crate) fn push(&mut self, leaf: Leaf) {
        match self {
            Leaves::Heap(v) if v.is_empty() => *self = Leaves::One(leaf),
            _ => self.heap().push(leaf),
        }
    }

    pub(crate) fn insert(&mut self, i: usize, leaf: Leaf) {
        self.heap().insert(i, leaf);
    }

    pub(crate) fn remove(&mut self, i: usize) -> Leaf {
        let leaf = self.heap().remove(i);
        self.settle();
        leaf
    }

    /// Heap bytes of the leaf array (0 for a leaf in the handle).
    pub(crate) fn heap_bytes(&self) -> usize {
        match self {
            Leaves::Heap(v) => v.capacity() * core::mem::size_of::<Leaf>(),
            Leaves::One(_) => 0,
        }
    }

    pub(crate) fn shrink_to_fit(&mut self) {
        if let Leaves::Heap(v) = self {
            v.shrink_to_fit();
        }
    }
}
