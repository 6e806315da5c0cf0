//! A compressed ordered set of u32: build, query, edit, intersect, save and
//! load a `KeySet`.
//!
//! `cargo run --release -p intcodec --example keyset [N]`

use intcodec::bp128::{Bp128, Layout};
use intcodec::keys::KeySet;
use intcodec::streamvbyte::StreamVByte;

fn main() {
    let n: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    // Document ids of two "terms": multiples of 3 and of 5.
    let threes: Vec<u32> = (0..n).map(|i| i * 3).collect();
    let fives: Vec<u32> = (0..n / 2).map(|i| i * 5).collect();

    let mut set = KeySet::from_sorted(Bp128::new(Layout::Lanes4), &threes).expect("sorted");
    println!(
        "{} keys in {} bytes ({:.2} bits/key in memory, {} blocks)",
        set.len(),
        set.memory_bytes(),
        set.memory_bytes() as f64 * 8.0 / set.len() as f64,
        set.block_count()
    );
    assert!(set.contains(300) && !set.contains(301));
    println!("lower_bound(301) = {:?}", set.lower_bound(301));
    println!(
        "rank(3000) = {}, select(1000) = {:?}",
        set.rank(3000),
        set.select(1000)
    );
    println!("range(10..30): {:?}", set.range(10..30).collect::<Vec<_>>());

    set.insert(301);
    set.remove(300);
    let mut cursor = set.cursor();
    println!("cursor.seek(299) -> {:?}", cursor.seek(299));

    // Intersection with another set (another codec) and with a sorted slice.
    let other = KeySet::from_sorted(StreamVByte::new(), &fives).expect("sorted");
    let both = set.intersection(&other);
    println!("multiples of 15 below {}: {}", 5 * (n / 2), both.len());
    assert_eq!(set.intersect_sorted(&fives).len(), both.len());

    // Save and load (checked: corrupted bytes are an error with an offset).
    let bytes = set.to_bytes();
    let back = KeySet::from_bytes(Bp128::new(Layout::Lanes4), &bytes).expect("valid");
    assert!(back == set);
    let mut bad = bytes.clone();
    bad.truncate(bytes.len() - 1);
    match KeySet::from_bytes(Bp128::new(Layout::Lanes4), &bad) {
        Ok(_) => unreachable!("a truncated set never loads"),
        Err(e) => println!("truncated: {e}"),
    }
    println!("serialized: {} bytes", bytes.len());
}
