//! Select / seek / insert specifics for the `sorted_*` targets: one handle
//! over the five delta-coded byte formats (Stream VByte 1234 and 0124,
//! VByte, VarInt-GB low-first and Lucene) with every kernel, and the model
//! answers computed from a decoded `Vec`.

use crate::{svb, varint_gb, vbyte, DecodeCase, Reader};
use intcodec::streamvbyte::control_len;
use intcodec::{DecodeError, SortedCodec};

/// One kernel of one format, as the traits every query goes through
/// (`select`, `lower_bound`, `insert`, `encode_delta_to_vec`, `decode_delta`).
pub type Sorted = &'static dyn SortedCodec;

/// Every kernel of format `which % 5`, scalar first.
pub fn kernels(which: u8) -> Vec<Sorted> {
    fn all<C: SortedCodec>(kernels: &'static [C]) -> Vec<Sorted> {
        kernels.iter().map(|k| k as Sorted).collect()
    }
    match which % 5 {
        0 | 1 => all(svb::kernels(svb::variant(which % 5 == 1))),
        2 => all(vbyte::kernels()),
        w => all(varint_gb::kernels(varint_gb::layout(w == 4))),
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
    pub fn new(reference: Sorted, input: &[u8], n: usize, prev: u32) -> Option<Model> {
        if n > 1 << 20 {
            return None;
        }
        let mut out = vec![0u32; n];
        let r = reference.decode_delta(input, n, prev, &mut out);
        let (good, err) = match r {
            Ok(_) => (n, None),
            Err(e) => {
                // Missing Stream VByte control bytes fail every call.
                let svb = reference.name().starts_with("streamvbyte");
                let header = svb && input.len() < control_len(n);
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
        let model = Model::new(kernels[0], input, n, prev);
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
