//! Hand shapes: arrangements of concealed tiles, completeness, waits, and the special shapes.
//!
//! The standard shape is four sets and a pair (Code §122(c)); the special shapes are the named
//! exceptions the rule books allow ([`special`]). Which of them a ruleset admits, and what each
//! scores, is the scoring module's business: here they are only shapes.
//!
//! Fast paths (the [`table`]-driven [`standard_waits`] and [`is_complete`]) are checked against
//! the slow, obviously-correct [`reference`] implementation by property tests.

pub mod arrange;
pub mod only_place;
pub mod reference;
pub mod set;
pub mod special;
pub mod table;
pub mod waits;

pub use arrange::{arrangements, each_arrangement};
pub use only_place::{
    fills_only_place, winning_roles, OnlyPlace, OnlyPlaceError, OnlyPlaceRule, WaitCounts,
    WinningRole,
};
pub use set::{Arrangement, Set, SetKind};
pub use special::SpecialShape;
pub use waits::{is_complete, standard_waits};
