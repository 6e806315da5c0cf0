//! What every oracle test shares: our kernels, the random lists and the
//! shared real posting lists it runs on, and the checks of our side against
//! a reference's bytes.

use intcodec::{IntCodec, Isa, KernelChoice};
use intcodec_testkit::SplitMix64;

/// `codec` (its format options) on every kernel this build and CPU run
/// (within `INTCODEC_ISA`), found by asking for each ISA in turn: exactly
/// the kernels [`IntCodec::kernel_isas`] lists, the scalar one among them.
pub fn every_kernel<C: KernelChoice>(codec: C) -> Vec<C> {
    let ks: Vec<C> = Isa::ALL
        .into_iter()
        .filter_map(|isa| codec.with_isa(isa))
        .collect();
    assert!(
        ks.iter().any(|k| k.isa() == Isa::Scalar),
        "a scalar kernel: {codec:?}"
    );
    assert_eq!(ks.len(), codec.kernel_isas().len(), "every enabled kernel");
    ks
}

/// Random lists: every length up to 70, block boundaries and one long list;
/// for each length three families: mixed byte widths, the full range, and
/// sorted (random gaps of 8 to 32 bits). The same lists on every run.
pub fn random_lists(seed: u64) -> Vec<(&'static str, Vec<u32>)> {
    let mut rng = SplitMix64::new(seed);
    let mut lengths: Vec<usize> = (0..=70).collect();
    lengths.extend([
        127, 128, 129, 255, 256, 257, 1000, 4095, 4096, 4097, 100_000,
    ]);
    let mut lists = Vec::new();
    for n in lengths {
        let mixed = (0..n)
            .map(|_| rng.next_u32() >> (8 * (rng.next_u32() % 4)) >> (rng.next_u32() % 8))
            .collect();
        lists.push(("mixed widths", mixed));
        lists.push(("full range", (0..n).map(|_| rng.next_u32()).collect()));
        let mut acc = 0u32;
        let sorted = (0..n)
            .map(|_| {
                acc = acc.wrapping_add(rng.next_u32() >> (8 + rng.next_u32() % 24));
                acc
            })
            .collect();
        lists.push(("sorted", sorted));
    }
    lists
}

/// One file of the shared posting lists.
pub struct PostingFile {
    /// Its name in `intcodec_testkit::shared::POSTINGS`.
    pub name: &'static str,
    /// Its lists (every `step`-th one: see [`posting_files`]).
    pub lists: Vec<Vec<u32>>,
    /// All its lists concatenated, as one long list.
    pub long: Vec<u32>,
}

/// How many of the shared posting lists a test takes: every 16th under an
/// `INTCODEC_ISA` cap (scripts/test.sh runs the suite once per cap; the
/// full set runs once, in the uncapped run), else all.
pub fn list_step(test: &str) -> usize {
    if std::env::var_os("INTCODEC_ISA").is_some() {
        eprintln!("*** {test}: INTCODEC_ISA set: every 16th posting list ***");
        16
    } else {
        1
    }
}

/// Every file of the shared posting lists that is present, each with every
/// `step`-th list and its long list; empty (a loud skip) when the shared
/// data is absent, a failure when it is there without any posting file.
pub fn posting_files(test: &str, step: usize) -> Vec<PostingFile> {
    let Some(dir) = crate::shared_data(test) else {
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
        let long = coll.lists.iter().flatten().copied().collect();
        let lists = coll.lists.into_iter().step_by(step).collect();
        out.push(PostingFile { name, lists, long });
    }
    assert!(!out.is_empty(), "no posting-list file in {}", dir.display());
    out
}

/// Our kernel `k` against a reference's streams of `values`: `theirs`
/// (plain) and `theirs_delta` (delta-coded from `prev`). Our encoders
/// write their bytes and our decoders read their streams back to `values`.
pub fn check_ours_matches<C: IntCodec>(
    k: &C,
    values: &[u32],
    prev: u32,
    theirs: &[u8],
    theirs_delta: &[u8],
    ctx: &str,
) {
    check_plain_matches(k, values, theirs, ctx);
    // ours encode == theirs encode, theirs encode -> ours decode (delta)
    assert_eq!(
        k.encode_delta_to_vec(values, prev),
        theirs_delta,
        "delta encode {ctx}"
    );
    assert_eq!(
        k.decode_delta_to_vec(theirs_delta, values.len(), prev)
            .as_deref(),
        Ok(values),
        "delta decode {ctx}"
    );
}

/// Our kernel `k` against a reference's plain stream `theirs` of `values`:
/// our encoder writes its bytes and our decoder reads it back to `values`.
pub fn check_plain_matches<C: IntCodec>(k: &C, values: &[u32], theirs: &[u8], ctx: &str) {
    // ours encode == theirs encode
    assert_eq!(k.encode_to_vec(values), theirs, "encode {ctx}");
    // theirs encode -> ours decode
    assert_eq!(
        k.decode_to_vec(theirs, values.len()).as_deref(),
        Ok(values),
        "decode {ctx}"
    );
}
