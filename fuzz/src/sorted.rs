//! Select / seek / insert specifics for the `sorted_*` targets: one handle
//! over the five delta-coded byte formats (Stream VByte 1234 and 0124,
//! VByte, VarInt-GB low-first and Lucene) with every kernel, and the model
//! answers computed from a decoded `Vec`.

use crate::{svb, varint_gb, vbyte, DecodeCase, Reader};
use intcodec::streamvbyte::{control_len, StreamVByte};
use intcodec::varint_gb::VarIntGb;
use intcodec::vbyte::VByte;
use intcodec::DecodeError;
use intcodec::{IntCodec, SortedCodec};

/// One kernel of one format.
#[derive(Clone, Copy, Debug)]
pub enum Sorted {
    /// Stream VByte (either variant).
    Svb(StreamVByte),
    /// VByte (u32).
    Vb(VByte),
    /// VarInt-GB (either layout).
    Gb(VarIntGb),
}

/// Every kernel of format `which % 5`, scalar first.
pub fn kernels(which: u8) -> Vec<Sorted> {
    match which % 5 {
        0 | 1 => svb::kernels(svb::variant(which % 5 == 1))
            .iter()
            .map(|&k| Sorted::Svb(k))
            .collect(),
        2 => vbyte::kernels().iter().map(|&k| Sorted::Vb(k)).collect(),
        w => varint_gb::kernels(varint_gb::layout(w == 4))
            .iter()
            .map(|&k| Sorted::Gb(k))
            .collect(),
    }
}

impl Sorted {
    /// `select_delta`.
    pub fn select(
        &self,
        b: &[u8],
        n: usize,
        prev: u32,
        i: usize,
    ) -> Result<Option<u32>, DecodeError> {
        match self {
            Sorted::Svb(k) => k.select(b, n, prev, i),
            Sorted::Vb(k) => k.select(b, n, prev, i),
            Sorted::Gb(k) => k.select(b, n, prev, i),
        }
    }
    /// `seek_delta`.
    pub fn seek(
        &self,
        b: &[u8],
        n: usize,
        prev: u32,
        t: u32,
    ) -> Result<Option<(usize, u32)>, DecodeError> {
        match self {
            Sorted::Svb(k) => k.lower_bound(b, n, prev, t),
            Sorted::Vb(k) => k.lower_bound(b, n, prev, t),
            Sorted::Gb(k) => k.lower_bound(b, n, prev, t),
        }
    }
    /// `insert_delta`.
    pub fn insert(
        &self,
        b: &mut Vec<u8>,
        n: usize,
        prev: u32,
        v: u32,
    ) -> Result<usize, DecodeError> {
        match self {
            Sorted::Svb(k) => k.insert(b, n, prev, v),
            Sorted::Vb(k) => k.insert(b, n, prev, v),
            Sorted::Gb(k) => k.insert(b, n, prev, v),
        }
    }
    /// `encode_delta_to_vec`.
    pub fn encode(&self, v: &[u32], prev: u32) -> Vec<u8> {
        match self {
            Sorted::Svb(k) => k.encode_delta_to_vec(v, prev),
            Sorted::Vb(k) => k.encode_delta_to_vec(v, prev),
            Sorted::Gb(k) => k.encode_delta_to_vec(v, prev),
        }
    }
    /// Decodes `n` values into a buffer of `n` slots: the result and the
    /// buffer (values before a failure are decoded).
    fn decode(&self, b: &[u8], n: usize, prev: u32) -> (Result<usize, DecodeError>, Vec<u32>) {
        let mut out = vec![0u32; n];
        let r = match self {
            Sorted::Svb(k) => k.decode_delta(b, n, prev, &mut out),
            Sorted::Vb(k) => k.decode_delta(b, n, prev, &mut out),
            Sorted::Gb(k) => k.decode_delta(b, n, prev, &mut out),
        };
        (r, out)
    }
}

/// The model: what every select / seek must return on `input`, from a full
/// decode with the scalar kernel. `None` when `n` is too large to decode
/// into memory (then only agreement between kernels is checked).
pub struct Model {
    /// The values known to decode (all `n` on success; those before the
    /// first bad one on failure).
    pub good: Vec<u32>,
    /// The full decode's error, if any.
    pub err: Option<DecodeError>,
    /// The count.
    pub n: usize,
}

impl Model {
    /// Decodes `input` (`n` values from `prev`) with `reference`.
    pub fn new(reference: &Sorted, input: &[u8], n: usize, prev: u32) -> Option<Model> {
        if n > 1 << 20 {
            return None;
        }
        let (r, mut out) = reference.decode(input, n, prev);
        let (good, err) = match r {
            Ok(_) => (n, None),
            Err(e) => {
                // Missing Stream VByte control bytes fail every call.
                let header = matches!(reference, Sorted::Svb(_)) && input.len() < control_len(n);
                let j = if header { 0 } else { e.index().unwrap_or(0) };
                (j.min(n), Some(e))
            }
        };
        out.truncate(good);
        Some(Model { good: out, err, n })
    }

    /// What `select(i)` must return.
    pub fn select(&self, i: usize) -> Result<Option<u32>, DecodeError> {
        if i >= self.n {
            return Ok(None);
        }
        match self.good.get(i) {
            Some(&v) => Ok(Some(v)),
            None => Err(self.err.expect("values missing only after an error")),
        }
    }

    /// What `seek(t)` must return: the first index whose value is `>= t`.
    pub fn seek(&self, t: u32) -> Result<Option<(usize, u32)>, DecodeError> {
        if self.n == 0 {
            return Ok(None);
        }
        match self.good.iter().position(|&v| v >= t) {
            Some(i) => Ok(Some((i, self.good[i]))),
            None => match self.err {
                Some(e) => Err(e),
                None => Ok(None),
            },
        }
    }
}

/// One case of the query targets (`sorted_select`, `sorted_seek`): the
/// count, `prev` and format from a [`DecodeCase`] (flag bits 6-7 and the
/// low bit pick Stream VByte 1234 / 0124, VByte, VarInt-GB low-first /
/// Lucene), every kernel of that format, the stream, and its [`Model`].
pub struct Queries<'a> {
    /// Every kernel of the format, scalar first.
    pub kernels: Vec<Sorted>,
    /// The stream (the whole input after the case bytes).
    pub input: &'a [u8],
    /// The count.
    pub n: usize,
    /// The value before the first.
    pub prev: u32,
    /// The model answers, when `n` is small enough to decode.
    pub model: Option<Model>,
}

impl<'a> Queries<'a> {
    /// The case in `data`, and a reader over its stream for the queries.
    pub fn split(data: &'a [u8]) -> (Self, Reader<'a>) {
        let (case, input) = DecodeCase::split(data, 4);
        let which = case.extra * 2 + case.variant_bit as u8;
        let kernels = kernels(which);
        let (n, prev) = (case.n, case.prev);
        let model = Model::new(&kernels[0], input, n, prev);
        let q = Queries {
            kernels,
            input,
            n,
            prev,
            model,
        };
        (q, Reader::new(input))
    }

    /// Asks `query` of every kernel: each must give the model's answer
    /// (`from_model`), or the scalar kernel's when there is no model.
    pub fn check<T: PartialEq + std::fmt::Debug>(
        &self,
        what: std::fmt::Arguments<'_>,
        from_model: impl FnOnce(&Model) -> T,
        query: impl Fn(&Sorted) -> T,
    ) {
        let want = match &self.model {
            Some(m) => from_model(m),
            None => query(&self.kernels[0]),
        };
        for k in &self.kernels {
            assert_eq!(query(k), want, "{k:?} {what} n={}", self.n);
        }
    }
}
