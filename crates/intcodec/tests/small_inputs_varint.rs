//! Single varints on small, exact-size inputs, every kernel: sized for
//! Miri (`scripts/miri.sh`), which checks every load and store for bounds.
//! Each buffer is its own allocation of exactly the bytes under test.

use intcodec::varint::{self, Kernel, Varint, Word, PADDING};
use intcodec::DecodeErrorKind;

fn kernels() -> Vec<Varint> {
    let ks: Vec<Varint> = varint::enabled_kernels().collect();
    // scripts/miri.sh names the kernels its build must run.
    if let Ok(want) = std::env::var("INTCODEC_EXPECT_KERNELS_VARINT") {
        let got: Vec<&str> = ks.iter().map(|k| k.kernel().name()).collect();
        assert_eq!(got.join(","), want, "kernels run");
    }
    assert_eq!(ks[0].kernel(), Kernel::Scalar);
    ks
}

fn values<T: Word>() -> Vec<T> {
    let mut v = vec![
        T::from_u64(0),
        T::from_u64(1),
        T::from_u64(127),
        T::from_u64(128),
    ];
    let mut b = 7;
    while b < 64 {
        let x = 1u64 << b;
        if x <= T::MAX_U64 {
            v.push(T::from_u64(x - 1));
            v.push(T::from_u64(x));
        }
        b += 7;
    }
    v.push(T::from_u64(T::MAX_U64));
    v
}

fn one_type<T: Word>(ks: &[Varint]) {
    let vals = values::<T>();
    let mut stream = Vec::new();
    for &v in &vals {
        let (b, n) = varint::encode(v);
        stream.extend_from_slice(&b[..n]);
        for k in ks {
            let mut out = vec![0u8; n];
            assert_eq!(k.encode_to_slice(v, &mut out), Ok(n));
            let exact = out.clone();
            assert_eq!(k.decode::<T>(&exact), Ok((v, n)));
            for cut in 0..n {
                let short = exact[..cut].to_vec();
                assert_eq!(
                    k.decode::<T>(&short).map_err(|e| e.kind()),
                    Err(DecodeErrorKind::Truncated)
                );
            }
            let mut padded = exact.clone();
            padded.resize(PADDING, 0x80);
            // SAFETY: exactly 16 readable bytes.
            assert_eq!(unsafe { k.decode_unchecked::<T>(&padded) }, (v, n));
        }
    }
    // Multi-value on exact-size prefixes of the stream, every kernel.
    for len in 0..stream.len().min(40) {
        let exact = stream[..len].to_vec();
        for k in ks {
            let want8 = k.decode_eight::<T>(&exact);
            let mut seq = Vec::new();
            let mut cur: &[u8] = &exact;
            let seq_result = (0..8).try_for_each(|_| {
                seq.push(k.read::<T>(&mut cur)?);
                Ok::<(), intcodec::DecodeError>(())
            });
            match (want8, seq_result) {
                (Ok((a, n)), Ok(())) => {
                    assert_eq!(&a[..], &seq[..]);
                    assert_eq!(n, exact.len() - cur.len());
                }
                (Err(_), Err(_)) => {}
                (a, b) => panic!("{k:?} eight {a:?} vs sequential {b:?}"),
            }
            let _ = k.decode_two::<T>(&exact);
            let _ = k.decode_four::<T>(&exact);
        }
    }
}

#[test]
fn every_type_every_kernel_small() {
    let ks = kernels();
    let each_type: [fn(&[Varint]); 4] = [
        one_type::<u8>,
        one_type::<u16>,
        one_type::<u32>,
        one_type::<u64>,
    ];
    each_type.iter().for_each(|one_type| one_type(&ks));
}

#[test]
fn eight_u8_values_in_sixteen_bytes() {
    // Eight two-byte u8 values fill 16 bytes exactly: the loop-free path.
    let ks = kernels();
    let mut b = Vec::new();
    for v in [200u8, 128, 255, 129, 130, 131, 250, 200] {
        let (e, n) = varint::encode(v);
        b.extend_from_slice(&e[..n]);
    }
    assert_eq!(b.len(), 16);
    for k in &ks {
        assert_eq!(
            k.decode_eight::<u8>(&b),
            Ok(([200, 128, 255, 129, 130, 131, 250, 200], 16))
        );
    }
    assert_eq!(varint::decode_eight::<u8>(&b).unwrap().1, 16);
}
