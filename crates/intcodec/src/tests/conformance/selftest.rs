//! The harness tested on a toy codec (LEB128 varints, plain and delta) with
//! two pseudo-kernels, "scalar" and "sse41" (both portable code: the mock
//! needs no CPU feature). The sse41 one can be switched to a deliberate
//! fault; the harness must pass the correct codec and fail, naming codec,
//! kernel, length and family, on each fault.

use super::*;
use std::panic;
use std::sync::Mutex;

/// What the toy's decoders return: the bytes consumed, or the error.
type Decoded = Result<usize, DecodeError>;

const NAME: &str = "toy-varint";

/// The length at which [`Fault::EncodeFlip`] corrupts the stream.
const FAULTY_N: usize = 77;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    None,
    /// sse41 flips a bit of the first byte of a stream of `FAULTY_N` values.
    EncodeFlip,
    /// sse41 reports a truncated value one byte after its start.
    TruncOffset,
    /// sse41 writes `out[n]` when the buffer has room.
    WritePastN,
    /// Every kernel's `max_values` is half the true bound.
    MaxValuesHalf,
    /// sse41's `lower_bound` finds the first value `> key`.
    LowerBoundUpper,
    /// Every kernel's `encoded_len` is `Ok(input.len())` where decoding
    /// fails.
    EncodedLenLies,
    /// `kernel_isas` lists avx2, which `with_isa` cannot build.
    PhantomKernel,
}

#[derive(Clone, Copy, Debug)]
struct Toy {
    isa: Isa,
    fault: Fault,
}

fn varint_len(x: u32) -> usize {
    match x {
        0..=0x7F => 1,
        0x80..=0x3FFF => 2,
        0x4000..=0x1F_FFFF => 3,
        0x20_0000..=0xFFF_FFFF => 4,
        _ => 5,
    }
}

impl Toy {
    fn new(fault: Fault) -> Self {
        Toy {
            isa: Isa::Sse41,
            fault,
        }
    }

    fn faulty(&self, f: Fault) -> bool {
        self.fault == f && self.isa == Isa::Sse41
    }

    /// What is coded for each value: itself, or its delta from the previous.
    fn codes(values: &[u32], prev: Option<u32>) -> impl Iterator<Item = u32> + '_ {
        let mut last = prev.unwrap_or(0);
        values.iter().map(move |&v| {
            let c = if prev.is_some() {
                v.wrapping_sub(last)
            } else {
                v
            };
            last = v;
            c
        })
    }

    fn len_of(values: &[u32], prev: Option<u32>) -> usize {
        Self::codes(values, prev).map(varint_len).sum()
    }

    fn write(&self, vals: &[u32], prev: Option<u32>, out: &mut [u8]) -> Result<usize, EncodeError> {
        let len = Self::len_of(vals, prev);
        crate::codec::check_room(out.len(), None, || len)?;
        let mut pos = 0;
        for x in Self::codes(vals, prev) {
            pos = crate::codec::vbyte::scalar::put_bytewise(x, out, pos);
        }
        if self.faulty(Fault::EncodeFlip) && vals.len() == FAULTY_N {
            out[0] ^= 1;
        }
        Ok(pos)
    }

    /// Parses up to `n` values, handing each to `emit` (which returns
    /// whether to go on); returns the bytes consumed.
    fn parse(
        &self,
        input: &[u8],
        n: usize,
        prev: Option<u32>,
        mut emit: impl FnMut(usize, u32) -> bool,
    ) -> Result<usize, DecodeError> {
        let mut pos = 0;
        let mut acc = prev.unwrap_or(0);
        for i in 0..n {
            let start = pos;
            let mut x = 0u32;
            for k in 0..5 {
                let Some(&b) = input.get(pos) else {
                    let at = if self.faulty(Fault::TruncOffset) {
                        start + 1
                    } else {
                        start
                    };
                    return Err(DecodeError::new(DecodeErrorKind::Truncated, at, Some(i)));
                };
                pos += 1;
                if k == 4 && b & 0x80 != 0 {
                    return Err(DecodeError::new(DecodeErrorKind::Overlong, start, Some(i)));
                }
                if k == 4 && b > 0x0F {
                    return Err(DecodeError::new(DecodeErrorKind::Overflow, start, Some(i)));
                }
                x |= u32::from(b & 0x7F) << (7 * k);
                if b & 0x80 == 0 {
                    break;
                }
            }
            let v = match prev {
                Some(_) => {
                    acc = acc.wrapping_add(x);
                    acc
                }
                None => x,
            };
            if !emit(i, v) {
                break;
            }
        }
        Ok(pos)
    }

    fn read(&self, bytes: &[u8], n: usize, prev: Option<u32>, out: &mut [u32]) -> Decoded {
        crate::codec::check_out(n, out.len())?;
        let r = self.parse(bytes, n, prev, |i, v| {
            out[i] = v;
            true
        });
        if self.faulty(Fault::WritePastN) && out.len() > n {
            out[n] = 0;
        }
        r
    }
}

impl IntCodec for Toy {
    fn name(&self) -> &'static str {
        NAME
    }

    fn isa(&self) -> Isa {
        self.isa
    }

    fn kernel_isas(&self) -> Vec<Isa> {
        let mut v = vec![Isa::Scalar, Isa::Sse41];
        if self.fault == Fault::PhantomKernel {
            v.push(Isa::Avx2);
        }
        v
    }

    fn with_isa_dyn(&self, isa: Isa) -> Option<Box<dyn IntCodec>> {
        self.with_isa(isa).map(|k| Box::new(k) as Box<dyn IntCodec>)
    }

    fn max_compressed_len(&self, n: usize) -> Option<usize> {
        n.checked_mul(5)
    }

    fn max_values(&self, input_len: usize) -> usize {
        if self.fault == Fault::MaxValuesHalf {
            input_len / 2
        } else {
            input_len
        }
    }

    crate::codec::encoders! {
        len: |_codec, values, prev| Self::len_of(values, prev),
        encode: |codec, values, prev, out| codec.write(values, prev, out),
    }

    fn encoded_len(&self, input: &[u8], n: usize) -> Result<usize, DecodeError> {
        let r = self.parse(input, n, None, |_, _| true);
        if self.fault == Fault::EncodedLenLies {
            return Ok(r.unwrap_or(input.len()));
        }
        r
    }

    crate::codec::decoders!(checked: |codec, input, n, prev, out| codec.read(input, n, prev, out));

    crate::codec::checked_as_unchecked!();
}

impl KernelChoice for Toy {
    fn best() -> Self {
        Toy::new(Fault::None)
    }

    fn with_isa(&self, isa: Isa) -> Option<Self> {
        matches!(isa, Isa::Scalar | Isa::Sse41).then_some(Toy { isa, ..*self })
    }
}

impl SortedCodec for Toy {
    crate::codec::sorted_queries! {
        select: |codec, input, n, prev, i| {
            let mut got = None;
            codec.parse(input, i + 1, Some(prev), |j, v| {
                if j == i {
                    got = Some(v);
                }
                true
            })?;
            Ok(got)
        },
        lower_bound: |codec, input, n, prev, key| {
            let upper = codec.faulty(Fault::LowerBoundUpper);
            let mut got = None;
            codec.parse(input, n, Some(prev), |i, v| {
                if v > key || (v == key && !upper) {
                    got = Some((i, v));
                    return false;
                }
                true
            })?;
            Ok(got)
        },
    }
}

/// Serialises the tests that silence the panic hook (it is process-global).
static HOOK: Mutex<()> = Mutex::new(());

/// Runs `f`, which must panic, with the panic hook silenced (so a passing
/// test prints nothing); returns the panic message.
fn failure_of(f: impl FnOnce()) -> String {
    let _guard = HOOK.lock().unwrap_or_else(|e| e.into_inner());
    let hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    let r = panic::catch_unwind(panic::AssertUnwindSafe(f));
    panic::set_hook(hook);
    match r {
        Ok(()) => panic!("the harness passed a codec it should have failed"),
        Err(p) => p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| (*s).to_string()))
            .unwrap_or_default(),
    }
}

/// `check_codec` on the toy with `fault` fails, naming each of `names`.
fn codec_fails_naming(fault: Fault, names: &[&str]) {
    let msg = failure_of(|| check_codec(&Toy::new(fault)));
    assert_names(&msg, names);
}

fn assert_names(msg: &str, parts: &[&str]) {
    for p in parts {
        assert!(msg.contains(p), "the failure message lacks {p:?}: {msg}");
    }
}

#[test]
fn a_correct_codec_passes() {
    check_codec_generic(Toy::new(Fault::None));
}

#[test]
fn a_correct_sorted_codec_passes() {
    check_sorted(Toy::new(Fault::None));
}

#[test]
fn differing_bytes_fail() {
    codec_fails_naming(
        Fault::EncodeFlip,
        &[
            "codec toy-varint",
            "kernel sse41",
            "n=77",
            "family=zeros",
            "plain",
            "encoded bytes differ from scalar's",
        ],
    );
}

#[test]
fn a_differing_error_offset_fails() {
    // The first check to see it: the empty stream read as one value.
    codec_fails_naming(
        Fault::TruncOffset,
        &[
            "codec toy-varint",
            "kernel sse41",
            "n=1",
            "family=zeros",
            "the stream of 0 values read as 1",
            "decode result differs from scalar's",
        ],
    );
    // The truncation points alone see it too.
    let ks = kernels(&Toy::new(Fault::TruncOffset));
    let at = At::scalar(NAME, 3, "w2", Mode::Delta(5));
    let values = [300, 70_000, 9];
    let stream = ks[0].encode_delta_to_vec(&values, 5);
    let msg = failure_of(|| check_truncations(&ks, &values, &stream, at));
    assert_names(
        &msg,
        &[
            "kernel sse41",
            "n=3",
            "family=w2",
            "delta prev=5",
            "truncated to 0 of",
            "decode result differs from scalar's",
        ],
    );
}

#[test]
fn writing_past_n_fails() {
    codec_fails_naming(
        Fault::WritePastN,
        &[
            "codec toy-varint",
            "kernel sse41",
            "n=0",
            "family=zeros",
            "wrote past n",
        ],
    );
}

#[test]
fn a_max_values_that_is_no_bound_fails() {
    codec_fails_naming(
        Fault::MaxValuesHalf,
        &[
            "codec toy-varint",
            "n=1",
            "family=zeros",
            "max_values(1) = 0",
            "not a bound",
        ],
    );
}

#[test]
fn a_wrong_lower_bound_fails() {
    let msg = failure_of(|| check_sorted(Toy::new(Fault::LowerBoundUpper)));
    assert_names(
        &msg,
        &[
            "codec toy-varint",
            "kernel sse41",
            "family=zeros",
            "lower_bound(0)",
        ],
    );
}

#[test]
fn an_encoded_len_that_accepts_a_broken_stream_fails() {
    codec_fails_naming(
        Fault::EncodedLenLies,
        &[
            "codec toy-varint",
            "n=1",
            "family=zeros",
            "encoded_len is Ok(0) within the 0-byte input but decoding fails",
        ],
    );
}

#[test]
fn a_listed_kernel_that_cannot_be_built_fails() {
    codec_fails_naming(
        Fault::PhantomKernel,
        &[
            "codec toy-varint",
            "kernel_isas() lists avx2 but with_isa_dyn(avx2) is None",
        ],
    );
}

/// The sentinel check also catches the fault through the arbitrary-input
/// path (the larger-buffer check is skipped by starting past it).
#[test]
fn agree_catches_writes_past_n_on_any_input() {
    let ks = kernels(&Toy::new(Fault::WritePastN));
    let at = At::scalar(NAME, 2, "bytes", Mode::Plain);
    let msg = failure_of(|| {
        let _ = agree(&ks, &[1, 2, 3], 2, at, &"three bytes");
    });
    assert_names(&msg, &["kernel sse41", "three bytes", "wrote past n"]);
}
