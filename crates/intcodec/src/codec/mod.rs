//! The codecs. Each module documents its wire format first.

pub mod streamvbyte;
pub mod vbyte;
