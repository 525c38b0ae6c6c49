//! IEEE 802.3 (10 Mb/s, CSMA/CD) constants, in bits or bytes as their names say.
//!
//! Clause numbers refer to IEEE Std 802.3 (Clause 4, the MAC, and its 10 Mb/s
//! parameter table 4.4.2). Times are derived from these with the configured bit time, so
//! they are exact integers of nanoseconds (100 ns per bit at 10 Mb/s).

/// Preamble (7 bytes) + start frame delimiter (1 byte), sent before every frame
/// (4.2.5, 4.2.6).
pub const PREAMBLE_SFD_BITS: u64 = 64;
/// interFrameGap (4.4.2): the idle time a station leaves after the carrier drops.
pub const INTERFRAME_GAP_BITS: u64 = 96;
/// slotTime (4.4.2): the unit of the backoff delay.
pub const SLOT_TIME_BITS: u64 = 512;
/// jamSize (4.4.2): bits sent after a collision is detected.
pub const JAM_BITS: u64 = 32;
/// attemptLimit (4.4.2): transmissions of one frame before it is discarded.
pub const ATTEMPT_LIMIT: u32 = 16;
/// backoffLimit (4.4.2): the exponent of the backoff range stops growing here.
pub const BACKOFF_LIMIT: u32 = 10;
/// minFrameSize (4.4.2), 512 bits: shorter frames are padded to this.
pub const MIN_FRAME_BYTES: u32 = 64;
/// maxUntaggedFrameSize (4.4.2): header 14 + data 1500 + FCS 4.
pub const MAX_FRAME_BYTES: u32 = 1518;
/// Destination, source and length/type fields (3.1.1).
pub const HEADER_BYTES: u32 = 14;
/// Frame check sequence (3.2.9).
pub const FCS_BYTES: u32 = 4;
/// Largest frame the simulator accepts when oversize frames are allowed: the AEX driver
/// accepted PACKET_SIZE up to 4300 data bytes among Artisoft adapters.
pub const MAX_OVERSIZE_FRAME_BYTES: u32 = 4300 + HEADER_BYTES + FCS_BYTES;
/// Speed of light in vacuum, m/s; the cable's velocity factor scales it.
pub const SPEED_OF_LIGHT_M_PER_S: f64 = 299_792_458.0;
/// Velocity factor of thin coax (10BASE2), the default medium.
pub const VELOCITY_FACTOR_THIN: f64 = 0.65;
/// Velocity factor of thick coax (10BASE5).
pub const VELOCITY_FACTOR_THICK: f64 = 0.77;
