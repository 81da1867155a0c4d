//! Adjudication: what a referee must rule on, derived from the replayed play.
//!
//! The replay ([`crate::play`]) says what happened and flags each event that broke a rule of
//! play. Some rulings need more than one event: whether a discard "let off a cannon" depends
//! on what the dangerous player had displayed when it was made, who claimed it and for what,
//! and how the hand ended, possibly many turns later (Code §90–96). This module walks a hand's
//! events once, keeps what those rulings need, and lists its findings, each typed, with the
//! events it rests on, the seats concerned and the sections it cites.
//!
//! So far: letting off a cannon ([`cannon`]). Where the Code is silent or ambiguous, the reading
//! chosen is written beside the rule it reads ("interpretation: …").

pub mod cannon;
#[cfg(test)]
mod tests;

pub use cannon::{cannon, cannon_reading, Cannon, Danger, NoChoice, Reading, Signal};
