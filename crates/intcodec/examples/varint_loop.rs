use intcodec::varint;
#[inline(never)]
#[no_mangle]
pub fn loop_u32(input: &[u8], out: &mut [u32]) -> Option<usize> {
    let mut pos = 0;
    for slot in out.iter_mut() {
        let s = input.get(pos..)?;
        let (v, len) = varint::decode::<u32>(s).ok()?;
        *slot = v;
        pos += len;
    }
    Some(pos)
}
#[inline(never)]
#[no_mangle]
pub fn loop_u64(input: &[u8], out: &mut [u64]) -> Option<usize> {
    let mut pos = 0;
    for slot in out.iter_mut() {
        let s = input.get(pos..)?;
        let (v, len) = varint::decode::<u64>(s).ok()?;
        *slot = v;
        pos += len;
    }
    Some(pos)
}
fn main() {
    let b = std::hint::black_box(vec![1u8; 100]);
    let mut o = vec![0u32; 10];
    let mut o2 = vec![0u64; 10];
    println!("{:?} {:?}", loop_u32(&b, &mut o), loop_u64(&b, &mut o2));
}
