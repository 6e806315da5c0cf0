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
use intcodec::Isa;
use intcodec::{IntCodec, KernelChoice};
use intcodec_oracles::fastpfor::{
    bytes_to_words, require_pyfastpfor, words_to_bytes, Mode, PyFastPFor,
};
use intcodec_oracles::shared_data;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 16) as u32
    }
}

/// Random lists: every short length and block boundaries, in three families
/// (mixed byte widths, full range, sorted).
fn random_lists() -> Vec<Vec<u32>> {
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    let mut lengths: Vec<usize> = (0..=70).collect();
    lengths.extend([
        127, 128, 129, 255, 256, 257, 1000, 4095, 4096, 4097, 100_000,
    ]);
    let mut lists = Vec::new();
    for &n in &lengths {
        lists.push(
            (0..n)
                .map(|_| rng.next() >> (8 * (rng.next() % 4)) >> (rng.next() % 8))
                .collect(),
        );
        lists.push((0..n).map(|_| rng.next()).collect());
        let mut acc = 0u32;
        lists.push(
            (0..n)
                .map(|_| {
                    acc = acc.wrapping_add(rng.next() >> (8 + rng.next() % 24));
                    acc
                })
                .collect(),
        );
    }
    lists
}

/// Every posting list of every file in the shared data, plus each file's
/// lists concatenated into one long list; empty if the data is absent.
///
/// Under an `INTCODEC_ISA` cap (scripts/test.sh runs the suite once per cap)
/// every 16th list is taken, plus the long one: the full set, a minute of
/// Python on two cores, runs once, in the uncapped run.
fn posting_lists(test: &str) -> Vec<(String, Vec<Vec<u32>>)> {
    let step = if std::env::var_os("INTCODEC_ISA").is_some() {
        eprintln!("*** {test}: INTCODEC_ISA set: every 16th posting list ***");
        16
    } else {
        1
    };
    let Some(dir) = shared_data(test) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for name in intcodec_testkit::shared::POSTINGS {
        let path = dir.join("postings").join(name);
        if !path.exists() {
            eprintln!("*** {test}: {} missing, skipped ***", path.display());
            continue;
        }
        let coll = intcodec_testkit::ds2i::read(&path).expect("valid .docs file");
        assert!(!coll.lists.is_empty(), "{name} has lists");
        let long: Vec<u32> = coll.lists.iter().flatten().copied().collect();
        let mut lists: Vec<Vec<u32>> = coll.lists.into_iter().step_by(step).collect();
        lists.push(long);
        out.push((name.to_string(), lists));
    }
    assert!(!out.is_empty(), "no posting-list file in {}", dir.display());
    out
}

fn gb_kernels() -> Vec<VarIntGb> {
    let ks: Vec<_> = Isa::ALL
        .into_iter()
        .filter_map(|isa| VarIntGb::new().with_layout(Layout::LowFirst).with_isa(isa))
        .collect();
    let enabled = intcodec::varint_gb::VarIntGb::new()
        .kernel_isas()
        .into_iter()
        .filter(|i| i.is_enabled())
        .count();
    assert_eq!(ks.len(), enabled, "every enabled kernel");
    ks
}

/// Our stream in FastPFor's `varintgb` framing.
fn frame_gb(stream: &[u8], n: usize) -> Vec<u32> {
    let mut words = vec![n as u32];
    words.extend(bytes_to_words(stream));
    words
}

fn check_varintgb(py: &PyFastPFor, what: &str, lists: &[Vec<u32>]) {
    let theirs = py.run(Mode::Encode, "varintgb", lists);
    let theirs_d = py.run(Mode::EncodeDelta, "varintgb", lists);
    for k in gb_kernels() {
        for ((list, t), td) in lists.iter().zip(&theirs).zip(&theirs_d) {
            let n = list.len();
            let ctx = format!("{what} n={n} {k:?}");
            // ours encode == theirs encode (framed)
            let ours = k.encode_to_vec(list);
            assert_eq!(frame_gb(&ours, n), *t, "encode {ctx}");
            let ours_d = k.encode_delta_to_vec(list, 0);
            assert_eq!(frame_gb(&ours_d, n), *td, "delta encode {ctx}");
            // theirs encode -> ours decode: the count from their header, the
            // stream after it (their padding is trailing bytes to us).
            assert_eq!(t[0] as usize, n);
            let body = words_to_bytes(&t[1..]);
            let mut out = vec![0; n];
            assert_eq!(k.decode(&body, n, &mut out), Ok(ours.len()), "{ctx}");
            assert_eq!(&out, list, "decode {ctx}");
            let body_d = words_to_bytes(&td[1..]);
            assert_eq!(k.decode_delta(&body_d, n, 0, &mut out), Ok(ours_d.len()));
            assert_eq!(&out, list, "delta decode {ctx}");
        }
    }
    // ours encode -> theirs decode (the default kernel's bytes).
    let k = VarIntGb::new();
    let framed: Vec<Vec<u32>> = lists
        .iter()
        .map(|l| frame_gb(&k.encode_to_vec(l), l.len()))
        .collect();
    assert_eq!(py.run(Mode::Decode, "varintgb", &framed), lists, "{what}");
    let framed_d: Vec<Vec<u32>> = lists
        .iter()
        .map(|l| frame_gb(&k.encode_delta_to_vec(l, 0), l.len()))
        .collect();
    assert_eq!(
        py.run(Mode::DecodeDelta, "varintgb", &framed_d),
        lists,
        "{what}"
    );
}

#[test]
fn varintgb_random_data_matches_fastpfor() {
    let test = "varintgb_random_data_matches_fastpfor";
    let Some(py) = require_pyfastpfor(test) else {
        return;
    };
    check_varintgb(&py, "random", &random_lists());
}

#[test]
fn varintgb_real_posting_lists_match_fastpfor() {
    let test = "varintgb_real_posting_lists_match_fastpfor";
    let Some(py) = require_pyfastpfor(test) else {
        return;
    };
    for (name, lists) in posting_lists(test) {
        check_varintgb(&py, &name, &lists);
    }
}

#[cfg(feature = "g8iu")]
mod g8iu {
    use super::*;
    use intcodec::varint_g8iu::{VarIntG8iu, BLOCK};

    fn kernels() -> Vec<VarIntG8iu> {
        let ks: Vec<_> = Isa::ALL
            .into_iter()
            .filter_map(|isa| VarIntG8iu::new().with_isa(isa))
            .collect();
        let enabled = intcodec::varint_g8iu::VarIntG8iu::new()
            .kernel_isas()
            .into_iter()
            .filter(|i| i.is_enabled())
            .count();
        assert_eq!(ks.len(), enabled, "every enabled kernel");
        ks
    }

    fn check_varintg8iu(py: &PyFastPFor, what: &str, lists: &[Vec<u32>]) {
        let theirs = py.run(Mode::Encode, "varintg8iu", lists);
        let theirs_d = py.run(Mode::EncodeDelta, "varintg8iu", lists);
        for k in kernels() {
            for ((list, t), td) in lists.iter().zip(&theirs).zip(&theirs_d) {
                let n = list.len();
                let ctx = format!("{what} n={n} {k:?}");
                let ours = k.encode_to_vec(list);
                assert_eq!(bytes_to_words(&ours), *t, "encode {ctx}");
                let ours_d = k.encode_delta_to_vec(list, 0);
                assert_eq!(bytes_to_words(&ours_d), *td, "delta encode {ctx}");
                // Theirs -> ours: FastPFor stores no count; the whole blocks
                // (their padding is under 9 bytes) hold exactly n values.
                let body = words_to_bytes(t);
                let blocks = &body[..body.len() / BLOCK * BLOCK];
                assert_eq!(k.value_count(blocks), Ok(n), "count {ctx}");
                let mut out = vec![0; n];
                assert_eq!(k.decode(&body, n, &mut out), Ok(ours.len()), "{ctx}");
                assert_eq!(&out, list, "decode {ctx}");
                let body_d = words_to_bytes(td);
                assert_eq!(k.decode_delta(&body_d, n, 0, &mut out), Ok(ours_d.len()));
                assert_eq!(&out, list, "delta decode {ctx}");
            }
        }
        let k = VarIntG8iu::new();
        let framed: Vec<Vec<u32>> = lists
            .iter()
            .map(|l| bytes_to_words(&k.encode_to_vec(l)))
            .collect();
        assert_eq!(py.run(Mode::Decode, "varintg8iu", &framed), lists, "{what}");
        let framed_d: Vec<Vec<u32>> = lists
            .iter()
            .map(|l| bytes_to_words(&k.encode_delta_to_vec(l, 0)))
            .collect();
        assert_eq!(
            py.run(Mode::DecodeDelta, "varintg8iu", &framed_d),
            lists,
            "{what}"
        );
    }

    #[test]
    fn varintg8iu_random_data_matches_fastpfor() {
        let test = "varintg8iu_random_data_matches_fastpfor";
        let Some(py) = require_pyfastpfor(test) else {
            return;
        };
        check_varintg8iu(&py, "random", &random_lists());
    }

    #[test]
    fn varintg8iu_real_posting_lists_match_fastpfor() {
        let test = "varintg8iu_real_posting_lists_match_fastpfor";
        let Some(py) = require_pyfastpfor(test) else {
            return;
        };
        for (name, lists) in posting_lists(test) {
            check_varintg8iu(&py, &name, &lists);
        }
    }
}
