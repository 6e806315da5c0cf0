//! Datasets: real posting lists read from files, and seeded generators.
//!
//! A benchmark consumes a dataset one length bucket at a time (lists of
//! lengths `2^K ..= 2^(K+1) - 1`), see [`Postings`].

pub use intcodec_testkit::{ds2i, files, rng, synth};

use std::path::{Path, PathBuf};

pub use synth::Model;

/// Where posting lists come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A seeded synthetic collection.
    Synthetic {
        /// The generator model.
        model: Model,
        /// The seed.
        seed: u64,
        /// Document ids are drawn from `[0, universe)`.
        universe: u32,
    },
    /// A file of lists: ds2i `.docs`, a Roaring `.zip`, text or plain
    /// little-endian u32 (see [`files`]).
    File(PathBuf),
    /// Unsorted random u32 by byte width (suite `ints`): "bucket" `w` in
    /// `1..=4` holds values of exactly `w` bytes, bucket 0 values of mixed
    /// widths (see [`synth::unsorted_lists`]).
    Unsorted {
        /// The seed.
        seed: u64,
    },
}

impl Source {
    /// Whether the lists' gaps are unsorted values (no delta coding to
    /// measure).
    pub fn is_unsorted(&self) -> bool {
        matches!(self, Source::Unsorted { .. })
    }
}

/// The bucket (`K`) of a list of length `len > 0`: `floor(log2(len))`.
pub fn bucket_of(len: usize) -> u32 {
    debug_assert!(len > 0);
    usize::BITS - 1 - len.leading_zeros()
}

/// A collection of posting lists, handed out one length bucket at a time.
#[derive(Debug)]
pub struct Postings {
    name: String,
    description: String,
    kind: Kind,
}

#[derive(Debug)]
enum Kind {
    Synthetic {
        model: Model,
        seed: u64,
        universe: u32,
        target: u64,
        ks: Vec<u32>,
    },
    /// Lists already grouped: `(k, lists)`, ascending `k`.
    Loaded(Vec<(u32, Vec<Vec<u32>>)>),
    /// Unsorted values by byte width (`ks` are widths, 0 = mixed).
    Unsorted {
        seed: u64,
        target: u64,
        ks: Vec<u32>,
    },
}

impl Postings {
    /// Plans the buckets `kmin..=kmax` of `source`, with about `target_ints`
    /// values per bucket. Synthetic lists are generated lazily, in
    /// [`Postings::bucket`]. A file is read now; its lists are grouped by
    /// bucket and, per bucket, taken in file order until the bucket holds at
    /// least `target_ints` values (the rest are skipped); empty buckets are
    /// left out.
    pub fn open(source: &Source, kmin: u32, kmax: u32, target_ints: u64) -> Result<Self, String> {
        match source {
            Source::Synthetic {
                model,
                seed,
                universe,
            } => {
                let ks: Vec<u32> = (kmin..=kmax)
                    .filter(|&k| (1u64 << k) <= u64::from(*universe))
                    .collect();
                Ok(Postings {
                    name: model.name().to_string(),
                    description: format!(
                        "synthetic {} (Anh & Moffat model), seed {seed}, doc ids in [0, {universe}), \
                         ~{target_ints} ints per bucket",
                        model.name()
                    ),
                    kind: Kind::Synthetic {
                        model: *model,
                        seed: *seed,
                        universe: *universe,
                        target: target_ints,
                        ks,
                    },
                })
            }
            Source::File(path) => Self::from_file(path, kmin, kmax, target_ints),
            Source::Unsorted { seed } => {
                let ks: Vec<u32> = (kmin..=kmax.min(4)).collect();
                Ok(Postings {
                    name: synth::UNSORTED.to_string(),
                    description: format!(
                        "unsorted random u32 by byte width (1..4 bytes; 0 = a random width per \
                         value), arrays of {} values, seed {seed}, ~{target_ints} ints per width",
                        synth::UNSORTED_ARRAY
                    ),
                    kind: Kind::Unsorted {
                        seed: *seed,
                        target: target_ints,
                        ks,
                    },
                })
            }
        }
    }

    fn from_file(path: &Path, kmin: u32, kmax: u32, target_ints: u64) -> Result<Self, String> {
        let coll = files::read(path)?;
        let total_lists = coll.lists.len();
        let mut groups: Vec<(u32, Vec<Vec<u32>>, u64)> = Vec::new();
        let mut skipped = 0usize;
        for list in coll.lists {
            if list.is_empty() {
                continue;
            }
            let k = bucket_of(list.len());
            if k < kmin || k > kmax {
                skipped += 1;
                continue;
            }
            let at = match groups.binary_search_by_key(&k, |g| g.0) {
                Ok(at) => at,
                Err(at) => {
                    groups.insert(at, (k, Vec::new(), 0));
                    at
                }
            };
            let g = &mut groups[at];
            if g.2 >= target_ints {
                skipped += 1;
                continue;
            }
            g.2 += list.len() as u64;
            g.1.push(list);
        }
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "file".to_string());
        Ok(Postings {
            name,
            description: format!(
                "{} ({}, {} lists, universe {}; {} lists outside buckets {kmin}..={kmax} or \
                 beyond ~{target_ints} ints per bucket skipped)",
                path.display(),
                coll.format,
                total_lists,
                coll.universe,
                skipped
            ),
            kind: Kind::Loaded(groups.into_iter().map(|(k, l, _)| (k, l)).collect()),
        })
    }

    /// Dataset name for reports (`clustered`, `uniform`, `random-bytes`, or
    /// the file stem).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// One line describing the dataset.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The bucket exponents `K` this dataset has, ascending.
    pub fn ks(&self) -> Vec<u32> {
        match &self.kind {
            Kind::Synthetic { ks, .. } | Kind::Unsorted { ks, .. } => ks.clone(),
            Kind::Loaded(groups) => groups.iter().map(|g| g.0).collect(),
        }
    }

    /// The lists of bucket `k` (generated now, or moved out of a loaded
    /// file: each bucket can be taken once).
    pub fn bucket(&mut self, k: u32) -> Vec<Vec<u32>> {
        match &mut self.kind {
            Kind::Synthetic {
                model,
                seed,
                universe,
                target,
                ..
            } => synth::bucket_lists(*model, *seed, k, *target, *universe),
            Kind::Unsorted { seed, target, .. } => synth::unsorted_lists(*seed, k, *target),
            Kind::Loaded(groups) => groups
                .iter_mut()
                .find(|g| g.0 == k)
                .map(|g| std::mem::take(&mut g.1))
                .unwrap_or_default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucketing_by_log2_length() {
        assert_eq!(bucket_of(1), 0);
        assert_eq!(bucket_of(2), 1);
        assert_eq!(bucket_of(3), 1);
        assert_eq!(bucket_of(31), 4);
        assert_eq!(bucket_of(32), 5);
        assert_eq!(bucket_of(63), 5);
        assert_eq!(bucket_of(64), 6);
        assert_eq!(bucket_of((1 << 18) + 5), 18);
    }

    #[test]
    fn file_lists_grouped_and_capped() {
        // [1, U] then lists of lengths 3, 40, 2, 33, 50 (buckets 1, 5, 1, 5, 5).
        let mut words = vec![1u32, 1000];
        for len in [3u32, 40, 2, 33, 50] {
            words.push(len);
            words.extend(0..len);
        }
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let dir = std::env::temp_dir().join(format!("intcodec-bench-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("tiny.docs");
        std::fs::write(&path, bytes).unwrap();
        // Cap 60 ints per bucket: bucket 5 takes 40 then 33 (73 >= 60), skips 50.
        let mut p = Postings::open(&Source::File(path.clone()), 0, 31, 60).unwrap();
        std::fs::remove_dir_all(&dir).ok();
        assert_eq!(p.name(), "tiny");
        assert_eq!(p.ks(), vec![1, 5]);
        let b1 = p.bucket(1);
        assert_eq!(b1.iter().map(Vec::len).collect::<Vec<_>>(), vec![3, 2]);
        let b5 = p.bucket(5);
        assert_eq!(b5.iter().map(Vec::len).collect::<Vec<_>>(), vec![40, 33]);
    }
}
