//! The `keyset` suite: [`intcodec::keys::KeySet`] (compressed ordered set
//! of u32, upscaledb-style leaves) against `roaring::RoaringBitmap` (after
//! `optimize`, run containers), `BTreeSet<u32>` and a sorted `Vec<u32>`.
//!
//! Datasets: the shared Roaring sets (census1881, wikileaks-noquotes,
//! uscensus2000: 200 sets each; intersections and unions of consecutive
//! sets, as in the Roaring papers), the shared posting lists of frequent
//! terms (europarl.docs lists of at least 1024 documents; pairwise
//! intersections and unions of the 24 longest) and a synthetic set (10^7
//! keys uniform in `[0, 2^30)`, intersected with 10^6 more; 10^8 with
//! `--ints 100000000`). Measured per contender: serialized and in-memory size, bulk
//! build, contains, lower_bound (random keys, half present), full
//! iteration, range scans, random insert then remove, intersection and
//! union (producing a set of the same type), and `slice`: the intersection
//! of each pair's first set with the second as a sorted slice (the keys
//! in both, into a `Vec`; a posting list against a query's list), by the
//! set's own method where it has one (`KeySet::intersect_sorted`; a merge
//! for the sorted `Vec`), else a `contains` per key. Every pass is checked
//! against a checksum computed on the sorted source.

use std::collections::BTreeSet;
use std::hint::black_box;
use std::io::Write;
use std::time::Instant;

use intcodec::bp128::{Bp128, Layout};
use intcodec::frame_of_reference::{For, SimdFor};
use intcodec::keys::KeySet;
use intcodec::streamvbyte::StreamVByte;
use intcodec::vbyte::VByte;
use intcodec::{KernelChoice, SortedCodec};
use intcodec_testkit::SplitMix64;

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Small sizes (a few seconds).
    pub quick: bool,
    /// Keys of the synthetic set (10^7; `--ints`).
    pub synthetic: usize,
    /// Timed repetitions (median).
    pub reps: usize,
    /// Queries per contains / lower_bound / range / insert pass.
    pub queries: usize,
    /// Least seconds of one timed repetition (passes repeat until then).
    pub min_time: f64,
    /// Seed.
    pub seed: u64,
}

impl Config {
    /// The default run or `--quick`.
    pub fn new(quick: bool) -> Config {
        Config {
            quick,
            synthetic: if quick { 200_000 } else { 10_000_000 },
            reps: if quick { 2 } else { 5 },
            min_time: if quick { 0.005 } else { 0.05 },
            queries: if quick { 20_000 } else { 200_000 },
            seed: 1,
        }
    }
}

/// A dataset: sets and the pairs to intersect / unite.
pub struct Dataset {
    /// Name.
    pub name: String,
    /// The sets (strictly increasing).
    pub sets: Vec<Vec<u32>>,
    /// Index pairs for intersection and union.
    pub pairs: Vec<(usize, usize)>,
    /// Whether the data is sparse (Roaring holds it in array containers):
    /// the size target is then 0.8x Roaring's.
    pub sparse: bool,
    /// For a synthetic dataset whose keys are drawn uniformly from
    /// `[0, universe)`: the universe, from which the report gives the least
    /// size any encoding of such sets can have ([`min_bits_per_key`]).
    pub universe: Option<u64>,
}

/// The synthetic sets' keys are uniform in `[0, UNIFORM_UNIVERSE)`.
const UNIFORM_UNIVERSE: u64 = 1 << 30;

/// The least mean size, in bits per key, of any encoding of sets of
/// `sizes` keys each drawn uniformly from `[0, universe)`: a set of `n`
/// distinct keys is one of `C(universe, n)`, equally likely, so no code is
/// shorter on average than `log2 C(universe, n)` bits (summed over the sets,
/// divided by their keys). `log2 C(u, n)` is summed as `log2((u - i) / (n -
/// i))` for `i < n`: exact up to rounding, one term a key.
pub fn min_bits_per_key(universe: u64, sizes: &[usize]) -> f64 {
    let (mut bits, mut keys) = (0.0f64, 0usize);
    for &n in sizes {
        let n = n.min(universe as usize);
        bits += (0..n)
            .map(|i| ((universe - i as u64) as f64 / (n - i) as f64).log2())
            .sum::<f64>();
        keys += n;
    }
    if keys == 0 {
        0.0
    } else {
        bits / keys as f64
    }
}

/// One measurement.
#[derive(Clone, Debug)]
pub struct Row {
    /// Dataset.
    pub dataset: String,
    /// Dataset index (the common schema's bucket).
    pub index: u32,
    /// Sets in the dataset.
    pub sets: usize,
    /// `keyset-<codec>` or `peer:<name>`.
    pub codec: String,
    /// Another project's implementation.
    pub peer: bool,
    /// Operation.
    pub op: &'static str,
    /// Keys (or queries) per pass.
    pub ints: u64,
    /// Serialized bits per key.
    pub bits: f64,
    /// In-memory bits per key (estimated for BTreeSet).
    pub mem_bits: f64,
    /// Median seconds per pass (0 for the size rows).
    pub seconds: f64,
}

impl Row {
    /// Millions of keys (or operations) per second.
    pub fn mops(&self) -> f64 {
        self.ints as f64 / self.seconds / 1e6
    }
}

/// The operations every contender offers.
trait Set: Sized {
    /// What a build needs besides the keys (the block codec).
    type Ctx: Copy;
    fn build(ctx: Self::Ctx, keys: &[u32]) -> Self;
    fn bytes(&self) -> usize;
    fn memory(&self) -> usize;
    fn contains(&self, k: u32) -> bool;
    fn lower_bound(&self, k: u32) -> Option<u32>;
    fn sum(&self) -> u64;
    fn range_sum(&self, a: u32, b: u32) -> u64;
    fn insert(&mut self, k: u32) -> bool;
    fn remove(&mut self, k: u32) -> bool;
    fn inter(&self, o: &Self) -> Self;
    /// The keys of the set in the increasing slice `keys`.
    fn inter_slice(&self, keys: &[u32]) -> Vec<u32> {
        keys.iter().copied().filter(|&k| self.contains(k)).collect()
    }
    fn union(&self, o: &Self) -> Self;
    fn len(&self) -> u64;
}

impl<C: SortedCodec + KernelChoice> Set for KeySet<C> {
    type Ctx = C;
    fn build(codec: C, keys: &[u32]) -> Self {
        KeySet::from_sorted(codec, keys).expect("sorted")
    }
    fn bytes(&self) -> usize {
        self.to_bytes().len()
    }
    fn memory(&self) -> usize {
        self.memory_bytes()
    }
    fn contains(&self, k: u32) -> bool {
        KeySet::contains(self, k)
    }
    fn lower_bound(&self, k: u32) -> Option<u32> {
        KeySet::lower_bound(self, k)
    }
    fn sum(&self) -> u64 {
        self.iter().map(u64::from).sum()
    }
    fn range_sum(&self, a: u32, b: u32) -> u64 {
        self.range(a..b).map(u64::from).sum()
    }
    fn insert(&mut self, k: u32) -> bool {
        KeySet::insert(self, k)
    }
    fn remove(&mut self, k: u32) -> bool {
        KeySet::remove(self, k)
    }
    fn inter(&self, o: &Self) -> Self {
        self.intersection(o)
    }
    fn inter_slice(&self, keys: &[u32]) -> Vec<u32> {
        self.intersect_sorted(keys)
    }
    fn union(&self, o: &Self) -> Self {
        KeySet::union(self, o)
    }
    fn len(&self) -> u64 {
        KeySet::len(self) as u64
    }
}

#[cfg(feature = "peer-roaring")]
impl Set for roaring::RoaringBitmap {
    type Ctx = ();
    fn build(_: (), keys: &[u32]) -> Self {
        let mut b = roaring::RoaringBitmap::from_sorted_iter(keys.iter().copied()).expect("sorted");
        b.optimize();
        b
    }
    fn bytes(&self) -> usize {
        self.serialized_size()
    }
    fn memory(&self) -> usize {
        // No in-memory figure in its API: the serialized size is close.
        self.serialized_size()
    }
    fn contains(&self, k: u32) -> bool {
        roaring::RoaringBitmap::contains(self, k)
    }
    fn lower_bound(&self, k: u32) -> Option<u32> {
        let mut it = self.iter();
        it.advance_to(k);
        it.next()
    }
    fn sum(&self) -> u64 {
        self.iter().map(u64::from).sum()
    }
    fn range_sum(&self, a: u32, b: u32) -> u64 {
        self.range(a..b).map(u64::from).sum()
    }
    fn insert(&mut self, k: u32) -> bool {
        roaring::RoaringBitmap::insert(self, k)
    }
    fn remove(&mut self, k: u32) -> bool {
        roaring::RoaringBitmap::remove(self, k)
    }
    fn inter(&self, o: &Self) -> Self {
        self & o
    }
    fn union(&self, o: &Self) -> Self {
        self | o
    }
    fn len(&self) -> u64 {
        roaring::RoaringBitmap::len(self)
    }
}

impl Set for BTreeSet<u32> {
    type Ctx = ();
    fn build(_: (), keys: &[u32]) -> Self {
        keys.iter().copied().collect()
    }
    fn bytes(&self) -> usize {
        self.memory()
    }
    fn memory(&self) -> usize {
        // Estimate (no allocator hook here): std's B-tree nodes hold up to
        // 11 keys; a leaf node of u32 keys is 56 bytes, an internal one 152
        // (plus 12 child pointers); nodes about 3/4 full.
        let leaves = (self.len() as f64 / (11.0 * 0.75)).ceil();
        (leaves * 56.0 + leaves / 8.0 * 152.0) as usize
    }
    fn contains(&self, k: u32) -> bool {
        BTreeSet::contains(self, &k)
    }
    fn lower_bound(&self, k: u32) -> Option<u32> {
        self.range(k..).next().copied()
    }
    fn sum(&self) -> u64 {
        self.iter().map(|&k| u64::from(k)).sum()
    }
    fn range_sum(&self, a: u32, b: u32) -> u64 {
        self.range(a..b).map(|&k| u64::from(k)).sum()
    }
    fn insert(&mut self, k: u32) -> bool {
        BTreeSet::insert(self, k)
    }
    fn remove(&mut self, k: u32) -> bool {
        BTreeSet::remove(self, &k)
    }
    fn inter(&self, o: &Self) -> Self {
        self.intersection(o).copied().collect()
    }
    fn union(&self, o: &Self) -> Self {
        BTreeSet::union(self, o).copied().collect()
    }
    fn len(&self) -> u64 {
        BTreeSet::len(self) as u64
    }
}

/// A sorted, deduplicated vector.
#[derive(Clone)]
struct SortedVec(Vec<u32>);

impl Set for SortedVec {
    type Ctx = ();
    fn build(_: (), keys: &[u32]) -> Self {
        SortedVec(keys.to_vec())
    }
    fn bytes(&self) -> usize {
        self.0.len() * 4
    }
    fn memory(&self) -> usize {
        self.0.capacity() * 4
    }
    fn contains(&self, k: u32) -> bool {
        self.0.binary_search(&k).is_ok()
    }
    fn lower_bound(&self, k: u32) -> Option<u32> {
        self.0.get(self.0.partition_point(|&x| x < k)).copied()
    }
    fn sum(&self) -> u64 {
        self.0.iter().map(|&k| u64::from(k)).sum()
    }
    fn range_sum(&self, a: u32, b: u32) -> u64 {
        let lo = self.0.partition_point(|&x| x < a);
        let hi = self.0.partition_point(|&x| x < b);
        self.0[lo..hi.max(lo)].iter().map(|&k| u64::from(k)).sum()
    }
    fn insert(&mut self, k: u32) -> bool {
        match self.0.binary_search(&k) {
            Ok(_) => false,
            Err(i) => {
                self.0.insert(i, k);
                true
            }
        }
    }
    fn remove(&mut self, k: u32) -> bool {
        match self.0.binary_search(&k) {
            Ok(i) => {
                self.0.remove(i);
                true
            }
            Err(_) => false,
        }
    }
    fn inter(&self, o: &Self) -> Self {
        SortedVec(self.inter_slice(&o.0))
    }
    fn inter_slice(&self, b: &[u32]) -> Vec<u32> {
        let a = &self.0;
        let mut out = Vec::new();
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            let (x, y) = (a[i], b[j]);
            if x == y {
                out.push(x);
            }
            i += usize::from(x <= y);
            j += usize::from(y <= x);
        }
        out
    }
    fn union(&self, o: &Self) -> Self {
        let (a, b) = (&self.0, &o.0);
        let mut out = Vec::with_capacity(a.len() + b.len());
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            let (x, y) = (a[i], b[j]);
            out.push(x.min(y));
            i += usize::from(x <= y);
            j += usize::from(y <= x);
        }
        out.extend_from_slice(&a[i..]);
        out.extend_from_slice(&b[j..]);
        SortedVec(out)
    }
    fn len(&self) -> u64 {
        self.0.len() as u64
    }
}

/// Queries of one dataset, shared by every contender.
struct Queries {
    /// (set, key) for contains / lower_bound: half present keys.
    points: Vec<(usize, u32)>,
    contains: u64,
    lower_bound: u64,
    /// (set, a, b) ranges of about 1000 keys.
    ranges: Vec<(usize, u32, u32)>,
    range_sum: u64,
    range_keys: u64,
    /// (set, key) new keys to insert, then remove.
    inserts: Vec<(usize, u32)>,
    total: u64,
    sum: u64,
    inter: u64,
    union: u64,
    pair_keys: u64,
}

fn queries(d: &Dataset, n: usize, seed: u64) -> Queries {
    let mut rng = SplitMix64::new(seed);
    let nonempty: Vec<usize> = (0..d.sets.len())
        .filter(|&i| !d.sets[i].is_empty())
        .collect();
    let pick = |rng: &mut SplitMix64| nonempty[rng.below(nonempty.len() as u64) as usize];
    let mut points = Vec::with_capacity(n);
    let (mut contains, mut lower_bound) = (0u64, 0u64);
    for q in 0..n {
        let s = pick(&mut rng);
        let set = &d.sets[s];
        let k = if q % 2 == 0 {
            set[rng.below(set.len() as u64) as usize]
        } else {
            let (lo, hi) = (u64::from(set[0]), u64::from(set[set.len() - 1]));
            (lo + rng.below(hi - lo + 1)) as u32
        };
        contains += u64::from(set.binary_search(&k).is_ok());
        lower_bound += set
            .get(set.partition_point(|&x| x < k))
            .map_or(1, |&v| u64::from(v));
        points.push((s, k));
    }
    let mut ranges = Vec::new();
    let (mut range_sum, mut range_keys) = (0u64, 0u64);
    for _ in 0..(n / 100).max(1) {
        let s = pick(&mut rng);
        let set = &d.sets[s];
        let i = rng.below(set.len() as u64) as usize;
        let j = (i + 1000).min(set.len() - 1);
        let (a, b) = (set[i], set[j]);
        range_keys += (j - i) as u64;
        range_sum += set[i..j].iter().map(|&k| u64::from(k)).sum::<u64>();
        ranges.push((s, a, b));
    }
    let mut inserts = Vec::new();
    for _ in 0..n / 4 {
        let s = pick(&mut rng);
        let set = &d.sets[s];
        let (lo, hi) = (u64::from(set[0]), u64::from(set[set.len() - 1]) + 1000);
        let k = (lo + rng.below(hi - lo)).min(u64::from(u32::MAX)) as u32;
        if set.binary_search(&k).is_err() && !inserts.contains(&(s, k)) {
            inserts.push((s, k));
        }
        if inserts.len() >= n / 8 {
            break;
        }
    }
    let total = d.sets.iter().map(|s| s.len() as u64).sum();
    let sum = d.sets.iter().flatten().map(|&k| u64::from(k)).sum();
    let (mut inter, mut union, mut pair_keys) = (0u64, 0u64, 0u64);
    for &(i, j) in &d.pairs {
        let a: BTreeSet<u32> = d.sets[i].iter().copied().collect();
        let c = d.sets[j].iter().filter(|k| a.contains(k)).count() as u64;
        inter += c;
        union += (d.sets[i].len() + d.sets[j].len()) as u64 - c;
        pair_keys += (d.sets[i].len() + d.sets[j].len()) as u64;
    }
    Queries {
        points,
        contains,
        lower_bound,
        ranges,
        range_sum,
        range_keys,
        inserts,
        total,
        sum,
        inter,
        union,
        pair_keys,
    }
}

/// Seconds per pass of `f` (whose result must be `want`): the fastest of
/// `reps` repetitions, each repeating `f` for at least `min_time` seconds.
/// The fastest, not the median: on a shared, loaded machine the scheduler
/// only ever adds time.
fn time(
    reps: usize,
    min_time: f64,
    what: &str,
    want: u64,
    mut f: impl FnMut() -> u64,
) -> Result<f64, String> {
    let mut best = f64::INFINITY;
    for _ in 0..reps {
        let s = Instant::now();
        let mut passes = 0u32;
        loop {
            let got = black_box(f());
            passes += 1;
            if got != want {
                return Err(format!(
                    "keyset suite: {what}: checksum {got}, expected {want}"
                ));
            }
            let e = s.elapsed().as_secs_f64();
            if e >= min_time {
                best = best.min(e / f64::from(passes));
                break;
            }
        }
    }
    Ok(best.max(1e-9))
}

fn measure<S: Set + Clone>(
    ctx: S::Ctx,
    name: &str,
    peer: bool,
    (d, index, q, cfg): (&Dataset, u32, &Queries, &Config),
) -> Result<Vec<Row>, String> {
    let reps = cfg.reps;
    let mt = cfg.min_time;
    let mut sets: Vec<S> = Vec::new();
    let build = time(reps, mt, &format!("{name} build"), q.total, || {
        sets = d.sets.iter().map(|s| S::build(ctx, s)).collect();
        sets.iter().map(S::len).sum()
    })?;
    let bytes: usize = sets.iter().map(S::bytes).sum();
    let mem: usize = sets.iter().map(S::memory).sum();
    let total = q.total.max(1);
    let bits = bytes as f64 * 8.0 / total as f64;
    let mem_bits = mem as f64 * 8.0 / total as f64;
    let row = |op: &'static str, ints: u64, seconds: f64| Row {
        dataset: d.name.clone(),
        index,
        sets: d.sets.len(),
        codec: name.to_string(),
        peer,
        op,
        ints,
        bits,
        mem_bits,
        seconds,
    };
    let mut rows = vec![row("build", q.total, build)];
    let t = time(reps, mt, &format!("{name} contains"), q.contains, || {
        q.points
            .iter()
            .map(|&(s, k)| u64::from(sets[s].contains(k)))
            .sum()
    })?;
    rows.push(row("contains", q.points.len() as u64, t));
    let t = time(
        reps,
        mt,
        &format!("{name} lower_bound"),
        q.lower_bound,
        || {
            q.points
                .iter()
                .map(|&(s, k)| sets[s].lower_bound(k).map_or(1, u64::from))
                .sum()
        },
    )?;
    rows.push(row("lower_bound", q.points.len() as u64, t));
    let t = time(reps, mt, &format!("{name} iterate"), q.sum, || {
        sets.iter().map(S::sum).sum()
    })?;
    rows.push(row("iterate", q.total, t));
    let t = time(reps, mt, &format!("{name} range"), q.range_sum, || {
        q.ranges
            .iter()
            .map(|&(s, a, b)| sets[s].range_sum(a, b))
            .sum()
    })?;
    rows.push(row("range", q.range_keys.max(1), t));
    // Insert and remove: a sorted Vec moves half of a set per operation;
    // it gets fewer operations on large sets.
    let large = d.sets.iter().map(Vec::len).max().unwrap_or(0) > 1_000_000;
    let ops = if !peer || !name.contains("vec") || !large {
        q.inserts.len()
    } else {
        q.inserts.len().min(2000)
    };
    let ins = &q.inserts[..ops];
    // Rounds of inserting the keys then removing them again (the set is
    // back to its start after each): the fastest round of each.
    let mut work = sets.clone();
    // One round of `edit` (`S::insert` or `S::remove`) on every key.
    fn round<S>(
        what: &str,
        ins: &[(usize, u32)],
        work: &mut [S],
        edit: impl Fn(&mut S, u32) -> bool,
    ) -> Result<f64, String> {
        time(1, 0.0, what, ins.len() as u64, || {
            ins.iter()
                .map(|&(s, k)| u64::from(edit(&mut work[s], k)))
                .sum()
        })
    }
    let (mut ti, mut tr) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..reps.max(3) {
        ti = ti.min(round(&format!("{name} insert"), ins, &mut work, S::insert)?);
        tr = tr.min(round(&format!("{name} remove"), ins, &mut work, S::remove)?);
    }
    rows.push(row("insert", ins.len() as u64, ti));
    rows.push(row("remove", ins.len() as u64, tr));
    drop(work);
    if !d.pairs.is_empty() {
        // The sizes of `op` (`S::inter` or `S::union`) of every pair.
        fn pair_sizes<S: Set>(
            sets: &[S],
            pairs: &[(usize, usize)],
            op: impl Fn(&S, &S) -> S,
        ) -> u64 {
            pairs
                .iter()
                .map(|&(i, j)| op(&sets[i], &sets[j]).len())
                .sum()
        }
        let t = time(reps, mt, &format!("{name} intersect"), q.inter, || {
            pair_sizes(&sets, &d.pairs, S::inter)
        })?;
        rows.push(row("intersect", q.pair_keys, t));
        let t = time(reps, mt, &format!("{name} slice"), q.inter, || {
            d.pairs
                .iter()
                .map(|&(i, j)| sets[i].inter_slice(&d.sets[j]).len() as u64)
                .sum()
        })?;
        rows.push(row("slice", q.pair_keys, t));
        let t = time(reps, mt, &format!("{name} union"), q.union, || {
            pair_sizes(&sets, &d.pairs, S::union)
        })?;
        rows.push(row("union", q.pair_keys, t));
    }
    Ok(rows)
}

/// The datasets: shared data when present (skipped with a notice when
/// not), and the synthetic set.
pub fn datasets(cfg: &Config, note: &mut dyn FnMut(String)) -> Vec<Dataset> {
    let mut out = Vec::new();
    let dir = intcodec_testkit::shared::shared_data_dir();
    let roaring_sets: &[&str] = if cfg.quick {
        &["census1881"]
    } else {
        &["census1881", "wikileaks-noquotes", "uscensus2000"]
    };
    for name in roaring_sets {
        let path = dir.join("roaring").join(format!("{name}.zip"));
        match intcodec_testkit::files::read(&path) {
            Ok(l) => {
                let n = l.lists.len();
                out.push(Dataset {
                    name: name.to_string(),
                    sets: l.lists,
                    pairs: (1..n).map(|i| (i - 1, i)).collect(),
                    sparse: *name != "wikileaks-noquotes",
                    universe: None,
                });
            }
            Err(e) => note(format!("keyset: SKIPPED {name}: {e}")),
        }
    }
    let path = dir.join("postings").join("europarl.docs");
    match intcodec_testkit::files::read(&path) {
        Ok(l) => {
            let mut lists: Vec<Vec<u32>> =
                l.lists.into_iter().filter(|s| s.len() >= 1024).collect();
            lists.sort_by_key(|s| std::cmp::Reverse(s.len()));
            if cfg.quick {
                lists.truncate(64);
            }
            let top = if cfg.quick { 6 } else { 24 };
            let top = top.min(lists.len());
            let pairs = (0..top)
                .flat_map(|i| (i + 1..top).map(move |j| (i, j)))
                .collect();
            out.push(Dataset {
                name: "europarl-frequent".to_string(),
                sets: lists,
                pairs,
                sparse: false,
                universe: None,
            });
        }
        Err(e) => note(format!("keyset: SKIPPED europarl.docs: {e}")),
    }
    let n = cfg.synthetic;
    let mut rng = SplitMix64::new(cfg.seed);
    let uniform = |rng: &mut SplitMix64, n: usize| {
        let shift = 32 - UNIFORM_UNIVERSE.trailing_zeros();
        let mut v: Vec<u32> = (0..n).map(|_| rng.next_u32() >> shift).collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let a = uniform(&mut rng, n);
    let b = uniform(&mut rng, n / 10);
    out.push(Dataset {
        name: format!("uniform-{}", a.len()),
        sets: vec![a, b],
        pairs: vec![(0, 1)],
        sparse: true,
        universe: Some(UNIFORM_UNIVERSE),
    });
    out
}

/// Runs the suite.
pub fn run(
    cfg: &Config,
    progress: &mut dyn FnMut(f64, &str),
) -> Result<(Vec<Row>, Vec<String>), String> {
    let mut notes = Vec::new();
    let data = datasets(cfg, &mut |m| notes.push(m));
    let mut rows = Vec::new();
    for (i, d) in data.iter().enumerate() {
        progress(i as f64 / data.len() as f64, &d.name);
        let q = queries(d, cfg.queries, cfg.seed ^ i as u64);
        let index = i as u32;
        let a = (d, index, &q, cfg);
        rows.extend(measure::<KeySet<Bp128>>(
            Bp128::new(Layout::Lanes4),
            "keyset-bp128",
            false,
            a,
        )?);
        rows.extend(measure::<KeySet<StreamVByte>>(
            StreamVByte::new(),
            "keyset-streamvbyte",
            false,
            a,
        )?);
        rows.extend(measure::<KeySet<VByte>>(
            VByte::new(),
            "keyset-vbyte",
            false,
            a,
        )?);
        rows.extend(measure::<KeySet<For>>(For, "keyset-for", false, a)?);
        rows.extend(measure::<KeySet<SimdFor>>(
            SimdFor::best(),
            "keyset-simd-for",
            false,
            a,
        )?);
        #[cfg(feature = "peer-roaring")]
        rows.extend(measure::<roaring::RoaringBitmap>(
            (),
            "peer:roaring",
            true,
            a,
        )?);
        rows.extend(measure::<BTreeSet<u32>>((), "peer:btreeset", true, a)?);
        rows.extend(measure::<SortedVec>((), "peer:vec", true, a)?);
        // Keep the sparse flag for the targets.
        if d.sparse {
            notes.push(format!("sparse:{}", d.name));
        }
        if let Some(u) = d.universe {
            let sizes: Vec<usize> = d.sets.iter().map(Vec::len).collect();
            let bound = min_bits_per_key(u, &sizes);
            notes.push(format!("{MIN_BITS}{}:{bound}", d.name));
        }
    }
    progress(1.0, "done");
    Ok((rows, notes))
}

const OPS: [&str; 10] = [
    "build",
    "contains",
    "lower_bound",
    "iterate",
    "range",
    "insert",
    "remove",
    "intersect",
    "slice",
    "union",
];

/// The suite's rows in the common schema (`bucket` = dataset index, `op`
/// the operation, `ints` keys or operations per pass, `bits_per_int` the
/// serialized bits per key).
pub fn common_rows(rows: &[Row], reps: usize) -> Vec<super::Row> {
    rows.iter()
        .map(|r| super::Row {
            suite: "keyset".to_string(),
            dataset: r.dataset.clone(),
            bucket: r.index,
            lists: r.sets,
            codec: r.codec.clone(),
            kernel: if r.peer {
                "-".to_string()
            } else {
                "best".to_string()
            },
            family: "keyset".to_string(),
            peer: r.peer,
            default_kernel: !r.peer,
            op: crate::measure::Op::Named(r.op),
            ints: r.ints,
            bits_per_int: r.bits,
            seconds: r.seconds,
            seconds_min: r.seconds,
            seconds_max: r.seconds,
            reps,
        })
        .collect()
}

fn find<'a>(rows: &'a [Row], ds: &str, codec: &str, op: &str) -> Option<&'a Row> {
    rows.iter()
        .find(|r| r.dataset == ds && r.codec == codec && r.op == op)
}

/// The terminal report: per dataset, sizes and speeds of every contender,
/// then the targets with a verdict (ours = `keyset-bp128`, the
/// upscaledb configuration; the best keyset codec in brackets).
pub fn table(
    rows: &[Row],
    notes: &[String],
    header: &[String],
    out: &mut dyn Write,
) -> Result<(), String> {
    use std::fmt::Write as _;
    let mut s = super::report_text(header);
    for n in notes
        .iter()
        .filter(|n| !n.starts_with("sparse:") && !n.starts_with(MIN_BITS))
    {
        let _ = writeln!(s, "{n}");
    }
    let datasets = super::first_seen(rows.iter().map(|r| r.dataset.as_str()));
    for ds in &datasets {
        let first = rows.iter().find(|r| r.dataset == *ds).expect("listed");
        let keys = first.ints_total(rows);
        let _ = writeln!(s, "\n== {ds}: {} sets, {keys} keys; sizes in bits/key, speeds in millions of keys or operations/s ==", first.sets);
        let _ = write!(s, "{:<19}{:>6}{:>6}", "contender", "bits", "mem");
        for op in OPS {
            let _ = write!(s, "{:>8}", &op[..op.len().min(7)]);
        }
        let _ = writeln!(s);
        let in_ds = rows.iter().filter(|r| r.dataset == *ds);
        let codecs = super::first_seen(in_ds.map(|r| r.codec.as_str()));
        for c in &codecs {
            let b = find(rows, ds, c, "build").expect("build row");
            let _ = write!(s, "{:<19}{:>6.2}{:>6.1}", c, b.bits, b.mem_bits);
            for op in OPS {
                match find(rows, ds, c, op) {
                    Some(r) => {
                        let _ = write!(s, "{:>8.2}", r.mops());
                    }
                    None => {
                        let _ = write!(s, "{:>8}", "-");
                    }
                }
            }
            let _ = writeln!(s);
        }
        targets(rows, notes, ds, &codecs, &mut s);
    }
    super::write_report(out, &s)
}

impl Row {
    fn ints_total(&self, rows: &[Row]) -> u64 {
        find(rows, &self.dataset, &self.codec, "build").map_or(0, |r| r.ints)
    }
}

/// The note that carries a dataset's [`min_bits_per_key`]:
/// `min-bits:<dataset>:<bits>`.
const MIN_BITS: &str = "min-bits:";

fn targets(rows: &[Row], notes: &[String], ds: &str, codecs: &[&str], s: &mut String) {
    use std::fmt::Write as _;
    let ours = "keyset-bp128";
    let keysets: Vec<&str> = codecs
        .iter()
        .copied()
        .filter(|c| c.starts_with("keyset-"))
        .collect();
    let sparse = notes.iter().any(|n| n == &format!("sparse:{ds}"));
    let verdict = |ok: bool| if ok { "meets" } else { "MISSES" };
    // Speed of `c` over `peer` on `op` (> 1: ours faster).
    let speed = |c: &str, peer: &str, op: &str| -> Option<f64> {
        Some(find(rows, ds, peer, op)?.seconds / find(rows, ds, c, op)?.seconds)
    };
    let best_speed = |peer: &str, op: &str| -> Option<(f64, &str)> {
        keysets
            .iter()
            .filter_map(|c| Some((speed(c, peer, op)?, *c)))
            .max_by(|a, b| a.0.total_cmp(&b.0))
    };
    let _ = writeln!(s, "targets ({ours}; [best keyset codec]):");
    if let Some(roar) = find(rows, ds, "peer:roaring", "build") {
        let limit = if sparse { 0.8 } else { 1.0 };
        if let Some(o) = find(rows, ds, ours, "build") {
            let r = o.bits / roar.bits;
            let best = keysets
                .iter()
                .filter_map(|c| Some((find(rows, ds, c, "build")?.bits / roar.bits, *c)))
                .min_by(|a, b| a.0.total_cmp(&b.0));
            let _ = writeln!(
                s,
                "  size / roaring         {r:>6.2}x  (<= {limit:.1}x{}) {:<6} [{} {:.2}x]",
                if sparse { ", sparse" } else { "" },
                verdict(r <= limit),
                best.map_or("-", |b| b.1),
                best.map_or(f64::NAN, |b| b.0)
            );
        }
        for (op, min) in [
            ("iterate", 1.0),
            ("intersect", 1.0),
            ("slice", 1.0),
            ("contains", 0.5),
            ("lower_bound", 0.5),
        ] {
            if let Some(x) = speed(ours, "peer:roaring", op) {
                let b = best_speed("peer:roaring", op);
                let _ = writeln!(
                    s,
                    "  {op:<11} vs roaring  {x:>6.2}x  (>= {min:.1}x speed) {:<6} [{} {:.2}x]",
                    verdict(x >= min),
                    b.map_or("-", |b| b.1),
                    b.map_or(f64::NAN, |b| b.0)
                );
            }
        }
    } else {
        let _ = writeln!(
            s,
            "  (no roaring peer in this build: the `peer-roaring` feature)"
        );
    }
    for op in ["contains", "lower_bound"] {
        if let Some(x) = speed(ours, "peer:btreeset", op) {
            let b = best_speed("peer:btreeset", op);
            let _ = writeln!(
                s,
                "  {op:<11} vs btreeset {x:>6.2}x  (> 1.0x speed)  {:<6} [{} {:.2}x]",
                verdict(x > 1.0),
                b.map_or("-", |b| b.1),
                b.map_or(f64::NAN, |b| b.0)
            );
        }
    }
    if let (Some(o), Some(t)) = (
        find(rows, ds, ours, "build"),
        find(rows, ds, "peer:btreeset", "build"),
    ) {
        let r = t.mem_bits / o.mem_bits;
        let _ = writeln!(
            s,
            "  memory: btreeset / ours {r:>6.1}x  (>= 10x; btreeset estimated) {}",
            verdict(r >= 10.0)
        );
        let prefix = format!("{MIN_BITS}{ds}:");
        let bound = notes
            .iter()
            .find_map(|n| n.strip_prefix(&prefix)?.parse::<f64>().ok());
        if let Some(b) = bound {
            let _ = writeln!(
                s,
                "    (10x is {:.2} bits/key; uniform random sets of this density need >= {b:.2}: {})",
                t.mem_bits / 10.0,
                if t.mem_bits / 10.0 < b {
                    "unreachable by any encoding"
                } else {
                    "reachable"
                }
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiny_run_measures_every_op_and_prints_targets() {
        let mut cfg = Config::new(true);
        cfg.synthetic = 3000;
        cfg.queries = 400;
        cfg.reps = 1;
        cfg.min_time = 0.0;
        let (rows, notes) = run(&cfg, &mut |_, _| {}).unwrap();
        let last = rows.last().unwrap().dataset.clone();
        assert!(last.starts_with("uniform-"));
        for c in ["keyset-bp128", "keyset-vbyte", "peer:btreeset", "peer:vec"] {
            for op in OPS {
                assert!(find(&rows, &last, c, op).is_some(), "{c} {op}");
            }
        }
        let mut out = Vec::new();
        table(&rows, &notes, &["header".to_string()], &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("targets (keyset-bp128"), "{text}");
        assert!(text.contains("memory: btreeset / ours"), "{text}");
        // The uniform sets' size bound, under their memory line (3000 and
        // 300 keys in 2^30: about log2(2^30 / n) + 1.44 bits a key, 19.9 and
        // 23.2, so 20.2 over both).
        let note = notes
            .iter()
            .find(|n| n.starts_with(MIN_BITS))
            .expect("bound note");
        let bound: f64 = note.rsplit(':').next().unwrap().parse().unwrap();
        assert!((19.5..20.5).contains(&bound), "{note}");
        assert!(
            text.contains("uniform random sets of this density need >= "),
            "{text}"
        );
        assert!(
            !text.contains(MIN_BITS),
            "the note is not printed as such: {text}"
        );
        assert_eq!(common_rows(&rows, 1).len(), rows.len());
    }

    #[test]
    fn min_bits_per_key_is_log2_of_the_binomial() {
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        // C(4, 2) = 6, C(10, 3) = 120, C(10, 2) = 45, C(8, 8) = 1.
        assert!(close(min_bits_per_key(4, &[2]), 6f64.log2() / 2.0));
        assert!(close(min_bits_per_key(10, &[3]), 120f64.log2() / 3.0));
        assert!(close(min_bits_per_key(8, &[8]), 0.0));
        assert_eq!(min_bits_per_key(8, &[]), 0.0);
        // Several sets: their bits summed, over all their keys.
        let both = (45f64.log2() + 120f64.log2()) / 5.0;
        assert!(close(min_bits_per_key(10, &[2, 3]), both));
        // Sparse sets cost about log2(u / n) + log2(e) bits a key.
        let b = min_bits_per_key(1 << 30, &[10_000]);
        let approx = (f64::from(1u32 << 30) / 10_000.0).log2() + std::f64::consts::LOG2_E;
        assert!((b - approx).abs() < 0.01, "{b} {approx}");
    }
}
