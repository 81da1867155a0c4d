//! The API's own response types: what `GET /api/...` answers, field by field.
//!
//! Why not serialize what the pages show: a page may change its layout (a column, a label, a
//! pre-formatted number) without changing what programs read. Each type here is built from the
//! application's queries (`crate::app::queries`) by `From`, so the two agree where they should,
//! and a change to a query that would change the API shows up as a compile error here rather
//! than as a silent change on the wire. The play API's answer ([`PlayJson`]) is built on the
//! referee's own view of the table, in data rather than words.
//! (The standings answer still serializes the standings view: its order and ranks are being
//! reworked with the tie-break chain, and get their own type with it.)

mod hand;
mod play;
mod table;
mod tournament;

pub use hand::{HandJson, HandSeatJson, HistoryJson, MatrixRowJson, TileGroupJson, TileJson};
pub use play::{irregular_at, IrregularJson, Moment, PlayJson};
pub use table::{NextHandJson, TableHandJson, TableJson};
pub use tournament::{
    PlayerHandJson, PlayerHistoryJson, PlayerJson, SeatJson, TableSummaryJson,
    TournamentDetailJson, TournamentJson,
};

/// Converts each element of a list.
fn all<A, B: From<A>>(list: Vec<A>) -> Vec<B> {
    list.into_iter().map(B::from).collect()
}
