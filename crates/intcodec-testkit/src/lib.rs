//! Support shared by intcodec's tests, benchmarks and oracle tests (not
//! published; it does not depend on intcodec, so the core crate can use it
//! as a dev-dependency).
//!
//! - [`rng`]: the one seeded PRNG, [`SplitMix64`].
//! - [`corpus`]: the lengths and named input families every codec runs on.
//! - [`synth`]: synthetic posting lists (Anh & Moffat's models) and
//!   unsorted values by byte width.
//! - [`ds2i`], [`files`]: readers of ds2i `.docs`/`.pos` collections,
//!   Roaring `.zip` sets, text and raw little-endian u32 files.
//! - [`shared`]: finding the shared real data and optional oracles, with a
//!   loud skip when absent (a failure under `INTCODEC_REQUIRE_ORACLES=1`).

pub mod corpus;
pub mod ds2i;
pub mod files;
pub mod rng;
pub mod shared;
pub mod synth;

pub use rng::SplitMix64;
pub use shared::{require, shared_data};

/// The running sums of `gaps` from `start` (wrapping): the ids whose gaps
/// from `start` are `gaps`.
pub fn running_sums(start: u32, gaps: &[u32]) -> Vec<u32> {
    let mut acc = start;
    gaps.iter()
        .map(|&g| {
            acc = acc.wrapping_add(g);
            acc
        })
        .collect()
}

/// The keys a `lower_bound` test probes in the sorted `values`: every
/// `step`-th value and its two neighbours (wrapping), then 0 and
/// `u32::MAX`.
pub fn probe_keys(values: &[u32], step: usize) -> Vec<u32> {
    let mut keys: Vec<u32> = values
        .iter()
        .step_by(step)
        .flat_map(|&v| [v, v.wrapping_add(1), v.wrapping_sub(1)])
        .collect();
    keys.extend([0, u32::MAX]);
    keys
}
