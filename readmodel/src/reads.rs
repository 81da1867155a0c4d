//! The read functions, as methods of the ledger: `use readmodel::Reads;` and a page reads
//! `ledger.standings_in(&t, scope)` as it did when they were the ledger's own. Each is one
//! indexed query of the read model's tables (never a replay); the functions themselves live
//! beside the rows they read (`queries.rs`, `hand_queries.rs`, `pages.rs`, `standings.rs`,
//! `sessions.rs`, `status.rs`).
//!
//! A ledger opened without the read model registered has its tables empty or stale: open it
//! with this crate's `open` functions.

use ledger::event::TieBreak;
use ledger::{Ledger, PlayerId, Result, StreamId, TableId};
use referee::BySeat;
use rusqlite::Connection;

use crate::hand_queries::{self, HandPosition, HandSummary, PlayerHand, SettlementRow};
use crate::hand_record::HandRecord;
use crate::pages::{self, Slice};
use crate::queries::{self, PlayerRow, TableRow, TournamentRow};
use crate::sessions::{self, SessionRow};
use crate::standings::{self, Standing, StandingsScope};
use crate::status::{self, Voided};

mod sealed {
    /// Where the read model's tables are read from; only a ledger has them.
    pub trait Db {
        fn db(&self) -> &rusqlite::Connection;
    }
}

impl sealed::Db for Ledger {
    fn db(&self) -> &Connection {
        self.connection()
    }
}

/// The read model's queries, on a [`Ledger`].
pub trait Reads: sealed::Db {
    /// Every tournament, newest first.
    fn tournaments(&self) -> Result<Vec<TournamentRow>> {
        queries::tournaments(self.db())
    }

    /// One tournament.
    fn tournament(&self, stream: &StreamId) -> Result<Option<TournamentRow>> {
        queries::tournament(self.db(), stream)
    }

    /// A tournament's players in order of registration.
    fn players(&self, tournament: &StreamId) -> Result<Vec<PlayerRow>> {
        queries::players(self.db(), tournament)
    }

    /// A tournament's tables by number.
    fn tables(&self, tournament: &StreamId) -> Result<Vec<TableRow>> {
        queries::tables(self.db(), tournament)
    }

    /// One table.
    fn table(&self, table: &TableId) -> Result<Option<TableRow>> {
        queries::table(self.db(), table)
    }

    /// How many tables a tournament has; without the voided ones when `voided` is false.
    fn table_count(&self, tournament: &StreamId, voided: bool) -> Result<u64> {
        pages::table_count(self.db(), tournament, voided)
    }

    /// A slice of a tournament's tables by number; without the voided ones when `voided` is
    /// false (so that a page of the public's list holds a full page of tables it may see).
    fn tables_slice(
        &self,
        tournament: &StreamId,
        voided: bool,
        slice: Slice,
    ) -> Result<Vec<TableRow>> {
        pages::tables_slice(self.db(), tournament, voided, slice)
    }

    /// Every settlement recorded in a hand stream, oldest first (none before it started).
    fn settlements(&self, hand: &StreamId) -> Result<Vec<SettlementRow>> {
        hand_queries::settlements(self.db(), hand)
    }

    /// The summary of a hand stream, once its `HandStarted` is recorded.
    fn hand_summary(&self, hand: &StreamId) -> Result<Option<HandSummary>> {
        hand_queries::hand_summary(self.db(), hand)
    }

    /// A hand's current record.
    fn hand_record(&self, hand: &StreamId) -> Result<Option<HandRecord>> {
        hand_queries::hand_record(self.db(), hand)
    }

    /// The hands played at a table, in the order they started.
    fn table_hands(&self, table: &TableId) -> Result<Vec<HandRecord>> {
        hand_queries::table_hands(self.db(), table)
    }

    /// The last hand started at a table.
    fn last_hand(&self, table: &TableId) -> Result<Option<HandRecord>> {
        hand_queries::last_hand(self.db(), table)
    }

    /// Where each hand of `game` at `table` stood and how it ended (and, with `and_next`, the
    /// first hand of the game after): what the rotation needs, without reading the hands'
    /// sheets and settlements.
    fn game_positions(
        &self,
        table: &TableId,
        game: u32,
        and_next: bool,
    ) -> Result<Vec<HandPosition>> {
        hand_queries::game_positions(self.db(), table, game, and_next)
    }

    /// How many hands were started at a table.
    fn table_hand_count(&self, table: &TableId) -> Result<u64> {
        pages::table_hand_count(self.db(), table)
    }

    /// A slice of a table's hands, in the order they started.
    fn table_hands_slice(&self, table: &TableId, slice: Slice) -> Result<Vec<HandRecord>> {
        pages::table_hands_slice(self.db(), table, slice)
    }

    /// Each seat's (as drawn) net over the first `hands` hands started at a table: where a
    /// later page's running totals start.
    fn table_nets_before(&self, table: &TableId, hands: u64) -> Result<BySeat<i64>> {
        pages::table_nets_before(self.db(), table, hands)
    }

    /// Every hand started in a tournament, in the order they started (so that a player's
    /// running balance follows their play across tables): what the treasurer's books, exports
    /// and score sheets read.
    fn tournament_hands(&self, tournament: &StreamId) -> Result<Vec<HandRecord>> {
        pages::tournament_hands(self.db(), tournament)
    }

    /// The hands a player took part in, in order.
    fn player_hands(&self, tournament: &StreamId, player: &PlayerId) -> Result<Vec<PlayerHand>> {
        hand_queries::player_hands(self.db(), tournament, player)
    }

    /// How many hands a player took part in.
    fn player_hand_count(&self, tournament: &StreamId, player: &PlayerId) -> Result<u64> {
        pages::player_hand_count(self.db(), tournament, player)
    }

    /// A slice of the hands a player took part in, in order; without the hands of sessions
    /// still open when `hide_open_sessions` (the public's view).
    fn player_hands_slice(
        &self,
        tournament: &StreamId,
        player: &PlayerId,
        slice: Slice,
        hide_open_sessions: bool,
    ) -> Result<Vec<PlayerHand>> {
        pages::player_hands_slice(self.db(), tournament, player, slice, hide_open_sessions)
    }

    /// A player's net of each hand they took part in, in order (0 for a hand that does not
    /// count): their chips hand by hand, without reading the hands' records. Without the hands
    /// of sessions still open when `hide_open_sessions` (the public's view).
    fn player_nets(
        &self,
        tournament: &StreamId,
        player: &PlayerId,
        hide_open_sessions: bool,
    ) -> Result<Vec<i64>> {
        pages::player_nets(self.db(), tournament, player, hide_open_sessions)
    }

    /// [`Reads::player_nets`] with each hand's session (0 for a table outside sessions): a
    /// session's chips start where the hands before it left them.
    fn player_nets_by_session(
        &self,
        tournament: &StreamId,
        player: &PlayerId,
        hide_open_sessions: bool,
    ) -> Result<Vec<(u32, i64)>> {
        pages::player_nets_by_session(self.db(), tournament, player, hide_open_sessions)
    }

    /// The tournament's tie-break chain: the one it chose, or the default.
    fn tie_break(&self, tournament: &StreamId) -> Result<TieBreak> {
        standings::tie_break(self.db(), tournament)
    }

    /// A tournament's standings: every registered player (those who have not played yet with
    /// nothing) and anyone else who played in it, best first under its tie-break chain.
    fn standings(&self, tournament: &StreamId) -> Result<Vec<Standing>> {
        standings::standings(self.db(), tournament)
    }

    /// The standings over the hands `scope` takes. Every registered player has a line, except
    /// in one session's standings, which list those who played in it.
    fn standings_in(&self, tournament: &StreamId, scope: StandingsScope) -> Result<Vec<Standing>> {
        standings::standings_in(self.db(), tournament, scope)
    }

    /// A tournament's sessions in order.
    fn sessions(&self, tournament: &StreamId) -> Result<Vec<SessionRow>> {
        sessions::sessions(self.db(), tournament)
    }

    /// The sessions of a tournament still open (their results hidden from the public).
    fn open_sessions(&self, tournament: &StreamId) -> Result<Vec<u32>> {
        sessions::open_sessions(self.db(), tournament)
    }

    /// Everything voided in a tournament (the tournament itself included), in the order voided.
    fn voided(&self, tournament: &StreamId) -> Result<Vec<Voided>> {
        status::voided(self.db(), tournament)
    }

    /// The tables of a tournament whose play is over, in the order closed.
    fn closed_tables(&self, tournament: &StreamId) -> Result<Vec<TableId>> {
        status::closed_tables(self.db(), tournament)
    }

    /// How a table's random seat draw was made (`SeatDrawSeeded.method`), when it was random.
    fn draw_method(&self, table: &TableId) -> Result<Option<String>> {
        status::draw_method(self.db(), table)
    }
}

impl Reads for Ledger {}
