//! The codecs. Each module documents its wire format first.

pub mod bp128;
pub mod frame_of_reference;
pub mod streamvbyte;
pub mod varint;
#[cfg(feature = "g8iu")]
pub mod varint_g8iu;
pub mod varint_gb;
pub mod vbyte;
