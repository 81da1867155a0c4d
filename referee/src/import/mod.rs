//! Reading another program's record of a game into our events. Reading is pure: the caller
//! reads the files. Each format has its own module, its reader split by the messages it reads.
//!
//! - [`mjs`]: J. C. Bradfield's `mj-server` (Debian `mah-jong`), an independent Code-of-Laws
//!   referee whose robots play whole games offline: its hand histories (`hand-NN.mjs`) and its
//!   server logs, and the cross-check of its scores and settlements with ours.

pub mod mjs;
