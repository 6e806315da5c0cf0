//! The Stream VByte family: ours is [`super::Ours`] over
//! `intcodec::streamvbyte::StreamVByte` (every kernel); its peers are in
//! `crate::peers` (lemire/streamvbyte, `stream-vbyte`, `streamvbyte64`).

/// Family name of ours and the peers.
pub const FAMILY: &str = "streamvbyte";
