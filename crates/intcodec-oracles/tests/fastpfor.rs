//! intcodec's VarInt-GB (low-first layout) and VarInt-G8IU against FastPFor's
//! `varintgb` and `varintg8iu` (C++, through PyPI's pyfastpfor), both
//! directions, plain and delta (pyfastpfor's `delta1` / `prefixSum1`), every
//! kernel: random data and every posting list in ../shared/data/postings.
//!
//! FastPFor frames its output in 32-bit words: `varintgb` writes the count
//! as a u32 before the stream, and both codecs pad the stream with zero
//! bytes to a whole word. The framing is added to our streams (and stripped
//! from theirs) here; the streams themselves must match byte for byte.

use intcodec::varint_gb::{Layout, VarIntGb};
use intcodec::KernelChoice;
use intcodec_oracles::fastpfor::{
    bytes_to_words, require_pyfastpfor, words_to_bytes, Mode, PyFastPFor,
};
use intcodec_oracles::harness::{every_kernel, list_step, posting_files, random_lists};

/// Random lists (the harness's), without their family names.
fn random() -> Vec<Vec<u32>> {
    random_lists(0x5EED_1234_ABCD_0001)
        .into_iter()
        .map(|(_, l)| l)
        .collect()
}

/// Every posting list of every file in the shared data (every 16th under an
/// `INTCODEC_ISA` cap: a minute of Python on two cores otherwise), plus
/// each file's lists concatenated; empty if the data is absent.
fn posting_lists(test: &str) -> Vec<(&'static str, Vec<Vec<u32>>)> {
    posting_files(test, list_step(test))
        .into_iter()
        .map(|mut f| {
            f.lists.push(f.long);
            (f.name, f.lists)
        })
        .collect()
}

/// Our stream of `n` values in FastPFor's `varintgb` framing: the count,
/// then the stream in words.
fn frame_gb(stream: &[u8], n: usize) -> Vec<u32> {
    let mut words = vec![n as u32];
    words.extend(bytes_to_words(stream));
    words
}

/// The stream in FastPFor's `varintgb` words of `n` values (their padding
/// is trailing bytes to us).
fn unframe_gb(words: &[u32], n: usize) -> Vec<u8> {
    assert_eq!(words[0] as usize, n, "their count");
    words_to_bytes(&words[1..])
}

/// How FastPFor frames one codec's streams in 32-bit words.
struct Framing {
    /// pyfastpfor's name of the codec.
    name: &'static str,
    /// Our stream of `n` values as their words.
    frame: fn(&[u8], usize) -> Vec<u32>,
    /// Their words of `n` values as a stream of ours.
    unframe: fn(&[u32], usize) -> Vec<u8>,
}

/// Every kernel of `codec` against FastPFor's codec, both directions, plain
/// and delta, on `lists`; returns their plain streams.
fn check_both_ways<C: KernelChoice>(
    py: &PyFastPFor,
    f: &Framing,
    codec: C,
    what: &str,
    lists: &[Vec<u32>],
) -> Vec<Vec<u32>> {
    let theirs = py.run(Mode::Encode, f.name, lists);
    let theirs_d = py.run(Mode::EncodeDelta, f.name, lists);
    for k in every_kernel(codec) {
        for ((list, t), td) in lists.iter().zip(&theirs).zip(&theirs_d) {
            let n = list.len();
            let ctx = format!("{what} n={n} {k:?}");
            // ours encode == theirs encode (framed)
            let ours = k.encode_to_vec(list);
            assert_eq!((f.frame)(&ours, n), *t, "encode {ctx}");
            let ours_d = k.encode_delta_to_vec(list, 0);
            assert_eq!((f.frame)(&ours_d, n), *td, "delta encode {ctx}");
            // theirs encode -> ours decode
            let mut out = vec![0; n];
            let body = (f.unframe)(t, n);
            assert_eq!(k.decode(&body, n, &mut out), Ok(ours.len()), "{ctx}");
            assert_eq!(&out, list, "decode {ctx}");
            let body_d = (f.unframe)(td, n);
            assert_eq!(k.decode_delta(&body_d, n, 0, &mut out), Ok(ours_d.len()));
            assert_eq!(&out, list, "delta decode {ctx}");
        }
    }
    // ours encode -> theirs decode (the default kernel's bytes).
    for (mode, delta) in [(Mode::Decode, false), (Mode::DecodeDelta, true)] {
        let framed: Vec<Vec<u32>> = lists
            .iter()
            .map(|l| {
                let ours = codec.encode_opt_to_vec(l, delta.then_some(0));
                (f.frame)(&ours, l.len())
            })
            .collect();
        assert_eq!(py.run(mode, f.name, &framed), lists, "{what} {mode:?}");
    }
    theirs
}

const VARINTGB: Framing = Framing {
    name: "varintgb",
    frame: frame_gb,
    unframe: unframe_gb,
};

fn check_varintgb(py: &PyFastPFor, what: &str, lists: &[Vec<u32>]) {
    let gb = VarIntGb::new().with_layout(Layout::LowFirst);
    check_both_ways(py, &VARINTGB, gb, what, lists);
}

/// A check of one codec on named lists.
type Check = fn(&PyFastPFor, &str, &[Vec<u32>]);

/// `check` on the random lists (a loud skip without pyfastpfor).
fn on_random(test: &str, check: Check) {
    if let Some(py) = require_pyfastpfor(test) {
        check(&py, "random", &random());
    }
}

/// `check` on each file's posting lists (a loud skip without pyfastpfor
/// or the shared data).
fn on_posting_lists(test: &str, check: Check) {
    let Some(py) = require_pyfastpfor(test) else {
        return;
    };
    for (name, lists) in posting_lists(test) {
        check(&py, name, &lists);
    }
}

#[test]
fn varintgb_random_data_matches_fastpfor() {
    on_random("varintgb_random_data_matches_fastpfor", check_varintgb);
}

#[test]
fn varintgb_real_posting_lists_match_fastpfor() {
    let test = "varintgb_real_posting_lists_match_fastpfor";
    on_posting_lists(test, check_varintgb);
}

#[cfg(feature = "g8iu")]
mod g8iu {
    use super::*;
    use intcodec::varint_g8iu::{VarIntG8iu, BLOCK};

    /// FastPFor stores no count and pads to a word: its words are our
    /// stream.
    const VARINTG8IU: Framing = Framing {
        name: "varintg8iu",
        frame: |stream, _| bytes_to_words(stream),
        unframe: |words, _| words_to_bytes(words),
    };

    fn check_varintg8iu(py: &PyFastPFor, what: &str, lists: &[Vec<u32>]) {
        let theirs = check_both_ways(py, &VARINTG8IU, VarIntG8iu::new(), what, lists);
        // Their whole blocks (their padding is under 9 bytes) hold exactly
        // n values.
        for k in every_kernel(VarIntG8iu::new()) {
            for (list, t) in lists.iter().zip(&theirs) {
                let body = words_to_bytes(t);
                let blocks = &body[..body.len() / BLOCK * BLOCK];
                let n = list.len();
                assert_eq!(k.value_count(blocks), Ok(n), "count {what} n={n} {k:?}");
            }
        }
    }

    #[test]
    fn varintg8iu_random_data_matches_fastpfor() {
        on_random("varintg8iu_random_data_matches_fastpfor", check_varintg8iu);
    }

    #[test]
    fn varintg8iu_real_posting_lists_match_fastpfor() {
        let test = "varintg8iu_real_posting_lists_match_fastpfor";
        on_posting_lists(test, check_varintg8iu);
    }
}
