//! Readers for the real-data files `intcodec bench --data PATH` takes, by
//! file name:
//!
//! - `*.docs`, `*.pos`: ds2i / PISA collections (see [`crate::ds2i`]): a
//!   document index, or a positional index in the same layout;
//! - `*.zip`: Roaring benchmark sets, one text member per set, each a list
//!   of comma-separated integers (members stored or deflated);
//! - `*.txt` / `*.csv`: text, one list per line (integers separated by
//!   commas or white space); a file with one integer per line is one list;
//! - anything else: plain little-endian u32, one list.
//!
//! Lists are benchmarked as posting lists (delta-coded); they need not be
//! sorted (deltas wrap), but real sets are.

use crate::ds2i;
use std::path::Path;

/// Lists read from a file, with the universe when the format has one.
#[derive(Debug, Default)]
pub struct Lists {
    /// The lists, in file order.
    pub lists: Vec<Vec<u32>>,
    /// The format's name, for the report.
    pub format: &'static str,
    /// Number of documents (ds2i) or, for other formats, the largest value + 1.
    pub universe: u64,
}

/// Reads `path` in the format its name says.
pub fn read(path: &Path) -> Result<Lists, String> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let where_ = |e: String| format!("{}: {e}", path.display());
    if name.ends_with(".docs") || name.ends_with(".pos") {
        let c = ds2i::read(path).map_err(|e| where_(e.to_string()))?;
        return Ok(Lists {
            lists: c.lists,
            format: "ds2i collection",
            universe: u64::from(c.universe),
        });
    }
    let bytes = std::fs::read(path).map_err(|e| where_(e.to_string()))?;
    let (lists, format) = if name.ends_with(".zip") {
        (roaring_zip(&bytes).map_err(where_)?, "Roaring zip")
    } else if name.ends_with(".txt") || name.ends_with(".csv") {
        (text(&bytes).map_err(where_)?, "text")
    } else {
        (vec![le_u32(&bytes).map_err(where_)?], "little-endian u32")
    };
    let universe = lists
        .iter()
        .flat_map(|l| l.iter())
        .map(|&v| u64::from(v) + 1)
        .max()
        .unwrap_or(0);
    Ok(Lists {
        lists,
        format,
        universe,
    })
}

/// Plain little-endian u32 values.
pub fn le_u32(bytes: &[u8]) -> Result<Vec<u32>, String> {
    if !bytes.len().is_multiple_of(4) {
        return Err(format!(
            "length {} is not a multiple of 4 (little-endian u32 values expected; \
             the last value would start at byte offset {})",
            bytes.len(),
            bytes.len() - bytes.len() % 4
        ));
    }
    Ok(bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

/// Text: one list per non-empty line, integers separated by commas or white
/// space; if every line holds one integer, the whole file is one list.
pub fn text(bytes: &[u8]) -> Result<Vec<Vec<u32>>, String> {
    let s = std::str::from_utf8(bytes)
        .map_err(|e| format!("not UTF-8 text (byte offset {})", e.valid_up_to()))?;
    let mut lists = Vec::new();
    for (i, line) in s.lines().enumerate() {
        let mut list = Vec::new();
        for tok in line
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|t| !t.is_empty())
        {
            let v = tok.parse::<u32>().map_err(|_| {
                format!(
                    "line {}: {tok:?} is not an integer in 0..=4294967295",
                    i + 1
                )
            })?;
            list.push(v);
        }
        if !list.is_empty() {
            lists.push(list);
        }
    }
    if lists.len() > 1 && lists.iter().all(|l| l.len() == 1) {
        return Ok(vec![lists.into_iter().map(|l| l[0]).collect()]);
    }
    Ok(lists)
}

fn u16_at(b: &[u8], at: usize) -> Option<usize> {
    Some(usize::from(u16::from_le_bytes(
        b.get(at..at + 2)?.try_into().ok()?,
    )))
}

fn u32_at(b: &[u8], at: usize) -> Option<usize> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?) as usize)
}

/// Members of a zip archive, in central-directory order: (name, contents).
/// Stored and deflated members only; no zip64, no encryption.
pub fn zip_members(b: &[u8]) -> Result<Vec<(String, Vec<u8>)>, String> {
    const EOCD: u32 = 0x0605_4b50;
    const CDH: usize = 0x0201_4b50;
    const LFH: usize = 0x0403_4b50;
    // The end-of-central-directory record is within the last 64 KiB + 22.
    let lo = b.len().saturating_sub(22 + 0xFFFF);
    let eocd = (lo..=b.len().saturating_sub(22))
        .rev()
        .find(|&at| u32_at(b, at) == Some(EOCD as usize))
        .ok_or("not a zip archive (no end-of-central-directory record)")?;
    let bad = |at: usize, what: &str| format!("zip: {what} at byte offset {at}");
    let entries = u16_at(b, eocd + 10).ok_or_else(|| bad(eocd, "truncated record"))?;
    let mut at = u32_at(b, eocd + 16).ok_or_else(|| bad(eocd, "truncated record"))?;
    let mut out = Vec::with_capacity(entries);
    for _ in 0..entries {
        if u32_at(b, at) != Some(CDH) {
            return Err(bad(at, "bad central directory header"));
        }
        let field = |off: usize| u16_at(b, at + off).ok_or_else(|| bad(at, "truncated header"));
        let field32 = |off: usize| u32_at(b, at + off).ok_or_else(|| bad(at, "truncated header"));
        let (method, flags) = (field(10)?, field(8)?);
        let (csize, usize_) = (field32(20)?, field32(24)?);
        let (nlen, xlen, clen) = (field(28)?, field(30)?, field(32)?);
        let local = field32(42)?;
        let name = b
            .get(at + 46..at + 46 + nlen)
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .ok_or_else(|| bad(at, "truncated file name"))?;
        at += 46 + nlen + xlen + clen;
        if flags & 1 != 0 {
            return Err(bad(local, "encrypted member"));
        }
        if u32_at(b, local) != Some(LFH) {
            return Err(bad(local, "bad local file header"));
        }
        let start = local
            + 30
            + u16_at(b, local + 26).ok_or_else(|| bad(local, "truncated header"))?
            + u16_at(b, local + 28).ok_or_else(|| bad(local, "truncated header"))?;
        let data = b
            .get(start..start.saturating_add(csize))
            .ok_or_else(|| bad(start, "member data runs past the end"))?;
        let contents = match method {
            0 => data.to_vec(),
            8 => miniz_oxide::inflate::decompress_to_vec_with_limit(data, usize_)
                .map_err(|e| bad(start, &format!("bad deflate data ({:?})", e.status)))?,
            m => return Err(bad(local, &format!("compression method {m} not supported"))),
        };
        if contents.len() != usize_ {
            return Err(bad(start, "member size differs from its header"));
        }
        if !name.ends_with('/') {
            out.push((name, contents));
        }
    }
    Ok(out)
}

/// A Roaring benchmark zip: every member one list of comma-separated
/// integers.
pub fn roaring_zip(bytes: &[u8]) -> Result<Vec<Vec<u32>>, String> {
    let mut lists = Vec::new();
    for (name, contents) in zip_members(bytes)? {
        let mut list = Vec::new();
        for l in text(&contents).map_err(|e| format!("member {name}: {e}"))? {
            list.extend(l);
        }
        if !list.is_empty() {
            lists.push(list);
        }
    }
    Ok(lists)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A zip with a stored member and a deflated one, built by hand.
    fn zip(members: &[(&str, &[u8], bool)]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut cd = Vec::new();
        for (name, data, deflate) in members {
            let body = if *deflate {
                miniz_oxide::deflate::compress_to_vec(data, 6)
            } else {
                data.to_vec()
            };
            let method: u16 = if *deflate { 8 } else { 0 };
            let local = out.len() as u32;
            let mut h = Vec::new();
            h.extend(0x0403_4b50u32.to_le_bytes());
            h.extend([20, 0, 0, 0]);
            h.extend(method.to_le_bytes());
            h.extend([0u8; 8]); // time, date, crc (not checked)
            h.extend((body.len() as u32).to_le_bytes());
            h.extend((data.len() as u32).to_le_bytes());
            h.extend((name.len() as u16).to_le_bytes());
            h.extend(0u16.to_le_bytes());
            out.extend(&h);
            out.extend(name.as_bytes());
            out.extend(&body);
            cd.extend(0x0201_4b50u32.to_le_bytes());
            cd.extend([20, 0, 20, 0, 0, 0]);
            cd.extend(method.to_le_bytes());
            cd.extend([0u8; 8]);
            cd.extend((body.len() as u32).to_le_bytes());
            cd.extend((data.len() as u32).to_le_bytes());
            cd.extend((name.len() as u16).to_le_bytes());
            cd.extend([0u8; 12]); // extra, comment, disk, attrs
            cd.extend(local.to_le_bytes());
            cd.extend(name.as_bytes());
        }
        let cd_at = out.len() as u32;
        out.extend(&cd);
        out.extend(0x0605_4b50u32.to_le_bytes());
        out.extend([0u8; 4]);
        out.extend((members.len() as u16).to_le_bytes());
        out.extend((members.len() as u16).to_le_bytes());
        out.extend((cd.len() as u32).to_le_bytes());
        out.extend(cd_at.to_le_bytes());
        out.extend([0u8; 2]);
        out
    }

    #[test]
    fn roaring_zips_read_stored_and_deflated_members() {
        let long: String = (0..2000).map(|i| format!("{},", i * 3)).collect();
        let z = zip(&[
            ("a.txt", b"1,5,9\n", false),
            ("b.txt", long.as_bytes(), true),
            ("c.txt", b"7\n", true),
        ]);
        let lists = roaring_zip(&z).unwrap();
        assert_eq!(lists.len(), 3);
        assert_eq!(lists[0], [1, 5, 9]);
        assert_eq!(lists[1], (0..2000).map(|i| i * 3).collect::<Vec<u32>>());
        assert_eq!(lists[2], [7]);
        // Truncations and garbage are errors, never panics.
        for cut in [0, 10, z.len() / 2, z.len() - 1] {
            assert!(roaring_zip(&z[..cut]).is_err(), "cut {cut}");
        }
        let mut bad = z.clone();
        let at = bad.len() / 3;
        bad[at] ^= 0xFF;
        let _ = roaring_zip(&bad);
    }

    #[test]
    fn text_and_u32_formats() {
        assert_eq!(text(b"1\n2\n3\n").unwrap(), vec![vec![1, 2, 3]]);
        assert_eq!(
            text(b"1, 2 3\n\n4,5\n").unwrap(),
            vec![vec![1, 2, 3], vec![4, 5]]
        );
        let e = text(b"1,2\n3,x\n").unwrap_err();
        assert!(e.contains("line 2") && e.contains("\"x\""), "{e}");
        assert!(text(b"4294967296").is_err());
        assert_eq!(le_u32(&[1, 0, 0, 0, 2, 0, 0, 0]).unwrap(), [1, 2]);
        assert!(le_u32(&[1, 0, 0]).unwrap_err().contains("offset 0"));
    }

    /// The shared data sets, when present beside the repository: the ds2i
    /// collections (`.docs`, and `.pos` in the same layout) and the Roaring
    /// sets read with the counts of data/README.md, every list increasing.
    /// Skipped loudly without them (an error under
    /// `INTCODEC_REQUIRE_ORACLES=1`, as scripts/test.sh runs).
    #[test]
    fn shared_data_sets() {
        let Some(root) = crate::shared::shared_data("files::shared_data_sets") else {
            return;
        };
        for (file, format, lists, ints) in [
            (
                "postings/clueweb1k.docs",
                "ds2i collection",
                33_232,
                283_651,
            ),
            (
                "postings/europarl.docs",
                "ds2i collection",
                209_147,
                2_000_826,
            ),
            (
                "postings/europarl.pos",
                "ds2i collection",
                209_147,
                3_036_121,
            ),
            ("roaring/census1881.zip", "Roaring zip", 200, 1_003_861),
            (
                "roaring/wikileaks-noquotes.zip",
                "Roaring zip",
                200,
                275_355,
            ),
            ("roaring/uscensus2000.zip", "Roaring zip", 200, 5_985),
        ] {
            let l = read(&root.join(file)).unwrap();
            assert_eq!(l.format, format, "{file}");
            assert_eq!(l.lists.len(), lists, "{file}");
            assert_eq!(l.lists.iter().map(Vec::len).sum::<usize>(), ints, "{file}");
            assert!(
                l.lists.iter().all(|s| s.windows(2).all(|w| w[0] < w[1])),
                "{file}"
            );
        }
    }
}
