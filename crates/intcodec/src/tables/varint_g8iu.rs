//! VarInt-G8IU tables, indexed by the descriptor byte: how many values the
//! block holds, whether the descriptor is one an encoder can write, and the
//! two `pshufb` masks that spread the 8 data bytes into values 0..=3 and
//! 4..=7 (u32 lanes; lanes past the block's values are zero).
//!
//! Descriptor bit `i` (least significant first) belongs to data byte `i`: 0
//! marks the last byte of a value, 1 any other byte of a value or an unused
//! trailing byte. A descriptor is *valid* when every value it describes has
//! 1..=4 bytes, and it describes at least one value: read from bit 0 it is a
//! sequence of runs `1{0,3} 0`, then only ones.

/// Tables for every descriptor.
pub(crate) struct G8iuTables {
    /// Values in the block (zero bits), for valid descriptors; 0 otherwise.
    pub(crate) count: [u8; 256],
    /// Whether the descriptor is valid (see the module docs).
    pub(crate) valid: [bool; 256],
    /// Decode shuffles: `[values 0..=3, values 4..=7]`, each output byte
    /// `4*lane + k` taking data byte `mask[..]` or zero (`0x80`).
    pub(crate) decode: [[[u8; 16]; 2]; 256],
}

/// Builds the tables.
pub(crate) const fn build() -> G8iuTables {
    let mut t = G8iuTables {
        count: [0; 256],
        valid: [false; 256],
        decode: [[[0x80; 16]; 2]; 256],
    };
    let mut desc = 0;
    while desc < 256 {
        // Walk the bits, laying values out as they end.
        let mut valid = true;
        let mut count = 0usize;
        let mut start = 0usize; // first byte of the current value
        let mut bit = 0;
        while bit < 8 {
            if desc & (1 << bit) == 0 {
                let len = bit + 1 - start;
                if len > 4 {
                    valid = false;
                } else {
                    let mut k = 0;
                    while k < len {
                        let out = 4 * count + k;
                        t.decode[desc][out / 16][out % 16] = (start + k) as u8;
                        k += 1;
                    }
                }
                count += 1;
                start = bit + 1;
            }
            bit += 1;
        }
        if count == 0 {
            valid = false;
        }
        if valid {
            t.valid[desc] = true;
            t.count[desc] = count as u8;
        } else {
            t.decode[desc] = [[0x80; 16]; 2];
        }
        desc += 1;
    }
    t
}

/// The G8IU tables.
pub(crate) static TABLES: G8iuTables = build();

#[cfg(test)]
mod tests {
    use super::*;

    /// Naive construction: split each descriptor into values by string
    /// matching on its bits, least significant first.
    #[test]
    fn tables_match_naive_builder() {
        for desc in 0..256usize {
            let bits: String = (0..8)
                .map(|i| if desc >> i & 1 == 1 { '1' } else { '0' })
                .collect();
            // Values are the pieces ending in '0'; what follows the last '0'
            // is unused.
            let body = &bits[..bits.rfind('0').map_or(0, |p| p + 1)];
            let values: Vec<usize> = body.split_inclusive('0').map(str::len).collect();
            let valid = !values.is_empty() && values.iter().all(|&l| l <= 4);
            assert_eq!(TABLES.valid[desc], valid, "{desc:#04x} {bits}");
            if !valid {
                assert_eq!(TABLES.count[desc], 0);
                continue;
            }
            assert_eq!(TABLES.count[desc] as usize, values.len(), "{desc:#04x}");
            let mut mask = [0x80u8; 32];
            let mut pos = 0;
            for (v, &len) in values.iter().enumerate() {
                for k in 0..len {
                    mask[4 * v + k] = (pos + k) as u8;
                }
                pos += len;
            }
            assert_eq!(TABLES.decode[desc][0], mask[..16], "{desc:#04x}");
            assert_eq!(TABLES.decode[desc][1], mask[16..], "{desc:#04x}");
        }
        // Fig. 2 (a): 0x71 holds 1024 (2 bytes), 12, 10, 2^30 (4 bytes).
        assert_eq!(TABLES.count[0x71], 4);
        assert!(!TABLES.valid[0xFF]);
        // Five bytes in one value: 0b1111_0000 is valid (4 one-byte values,
        // 4 unused), 0b0001_1111 is not.
        assert!(TABLES.valid[0xF0]);
        assert!(!TABLES.valid[0x1F]);
        assert_eq!(TABLES.count[0x00], 8);
    }
}
