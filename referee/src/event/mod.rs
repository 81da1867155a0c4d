//! The facts of tournaments, tables and hands, owned by the domain: one enum per stream kind.
//!
//! Events are facts in the past tense (STYLE.md habit 6). A tournament's stream holds who takes
//! part, its conditions, its tables and seat draws ([`TournamentEvent`]); a table's stream its
//! games ([`TableEvent`]); each hand has its own stream ([`HandEvent`]) from the deal to the
//! settlement and any correction. The table aggregate (the `table` module) decides commands into
//! these events and folds them back into its state; the ledger stores them with a stable wire
//! name and a schema version per type, and reads old versions through its upcasters.
//!
//! Seats in these events are the seats as drawn ([`crate::Seat`]); `HandStarted::east` names
//! the seat whose player is East in that hand.
//!
//! Who emits what. The table aggregate emits `GameStarted`, `GameEnded`, `HandStarted`,
//! `HandExposed`, `MahJonggDeclared`, `WashOut`, `HandScored`, `SettlementRecorded` and
//! `CorrectionRecorded`. The play itself — `TileDrawn`, `LooseTileDrawn`, `BonusTileDeclared`,
//! `TileDiscarded`, `ClaimMade`, `ClaimRetracted`, `KongDeclared`, `OriginalCallAnnounced`,
//! `KongRobbed`, and a plea of No Choice (`NoChoicePleaded`, Code §95) — is recorded play by
//! play (issue 11); `DisputeRaised`, `RulingIssued` and
//! `ScoreClaimed` (a player's own count, against which §105 and §110 judge an undervalued or
//! overvalued declaration) belong to adjudication (issue 12). They are in the vocabulary already
//! so that the wire names are fixed; nothing records them yet.

mod conditions;
mod describe;
mod hand;
mod ruling;
mod scoring;
mod session;
mod table;
mod tie_break;
mod tournament;
mod voiding;

pub use conditions::*;
pub use describe::{describe, signed};
pub use hand::*;
pub use ruling::*;
pub use scoring::*;
pub use session::*;
pub use table::*;
pub use tie_break::*;
pub use tournament::*;
pub use voiding::*;

/// Every fact of a tournament's stream: who takes part, its conditions, its tables and seats,
/// what was closed or voided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TournamentEvent {
    TournamentCreated(TournamentCreated),
    PlayerRegistered(PlayerRegistered),
    OfficialRegistered(OfficialRegistered),
    TableFormed(TableFormed),
    SeatsDrawn(SeatsDrawn),
    TournamentConfigured(TournamentConfigured),
    SeatDrawSeeded(SeatDrawSeeded),
    TournamentVoided(TournamentVoided),
    TableVoided(TableVoided),
    PlayerVoided(PlayerVoided),
    TableClosed(TableClosed),
    TieBreakChosen(TieBreakChosen),
    SessionOpened(SessionOpened),
    SessionClosed(SessionClosed),
    PlayerWithdrew(PlayerWithdrew),
    TableBroadcast(TableBroadcast),
    TableReopened(TableReopened),
    SessionReopened(SessionReopened),
    VoidingUndone(VoidingUndone),
}

/// Every fact of a table's own stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableEvent {
    GameStarted(GameStarted),
    GameEnded(GameEnded),
}

/// Every fact of a hand's stream.
// A scored hand's four sheets dwarf the other facts; events are built once and moved into the
// ledger, so boxing them would only add an allocation per event.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HandEvent {
    HandStarted(HandStarted),
    TileDrawn(TileDrawn),
    LooseTileDrawn(LooseTileDrawn),
    BonusTileDeclared(BonusTileDeclared),
    TileDiscarded(TileDiscarded),
    ClaimMade(ClaimMade),
    ClaimPassed(ClaimPassed),
    ClaimGranted(ClaimGranted),
    SetExposed(SetExposed),
    DiscardTakenBack(DiscardTakenBack),
    DiscardTakenIntoHand(DiscardTakenIntoHand),
    DiscardReturned(DiscardReturned),
    ClaimRetracted(ClaimRetracted),
    KongDeclared(KongDeclared),
    OriginalCallAnnounced(OriginalCallAnnounced),
    NoChoicePleaded(NoChoicePleaded),
    KongRobbed(KongRobbed),
    MahJonggDeclared(MahJonggDeclared),
    HandExposed(HandExposed),
    ScoreClaimed(ScoreClaimed),
    DisputeRaised(DisputeRaised),
    RulingIssued(RulingIssued),
    RulingSuperseded(RulingSuperseded),
    CorrectionRecorded(CorrectionRecorded),
    SettlementRecorded(SettlementRecorded),
    WashOut(WashOut),
    HandScored(HandScored),
    EntryStruck(EntryStruck),
}

impl HandEvent {
    /// An event of the play itself, what `referee::play` replays: the draws, discards, claims,
    /// kongs, the Mah-Jongg or wash-out that ends it, the hands laid down after it (§104–105)
    /// and each player's own count of his hand (§107, §110) — not the start, the score,
    /// settlement and correction that follow from the play, nor a dispute or ruling about it.
    pub fn is_play(&self) -> bool {
        !matches!(
            self,
            HandEvent::HandStarted(_)
                | HandEvent::DisputeRaised(_)
                | HandEvent::RulingIssued(_)
                | HandEvent::RulingSuperseded(_)
                | HandEvent::EntryStruck(_)
        ) && !self.is_result()
    }

    /// The score, settlement or correction that follow from a hand's play (or its report).
    pub fn is_result(&self) -> bool {
        matches!(
            self,
            HandEvent::HandScored(_)
                | HandEvent::SettlementRecorded(_)
                | HandEvent::CorrectionRecorded(_)
        )
    }

    /// The Mah-Jongg or wash-out that ends the play.
    pub fn ends_play(&self) -> bool {
        matches!(self, HandEvent::MahJonggDeclared(_) | HandEvent::WashOut(_))
    }
}

/// Picks the play out of a hand's stream, event by event (`keep`): the events of the play, and
/// the hands laid down only after its end — in a hand recorded at its end the hands shown come
/// before its Mah-Jongg, and are its report, not its play. Once the hand has a result, only
/// the players' own counts follow: a correction states the hands and the end again, as facts,
/// not as play. A scorer's strike (`EntryStruck`) takes the last entry kept back out: read a
/// whole stream with [`PlayPicker`], which does.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlayFilter {
    ended: bool,
    settled: bool,
}

impl PlayFilter {
    /// Is `e` part of the play?
    pub fn keep(&mut self, e: &HandEvent) -> bool {
        if self.settled || e.is_result() {
            self.settled = true;
            return self.ended && matches!(e, HandEvent::ScoreClaimed(_));
        }
        let keep = e.is_play() && (self.ended || !matches!(e, HandEvent::HandExposed(_)));
        self.ended |= keep && e.ends_play();
        keep
    }
}

/// The play of a hand's stream as it stands: [`PlayFilter`]'s events, less each entry a
/// scorer struck (`EntryStruck` strikes the last entry standing while the hand is in play).
/// Each event carries a tag of the caller's (its id, its line) so that what is kept can be
/// named; the strikes themselves are not play and are not kept.
#[derive(Clone, Debug)]
pub struct PlayPicker<T> {
    filter: PlayFilter,
    kept: Vec<(T, HandEvent)>,
    struck: Vec<T>,
}

impl<T> Default for PlayPicker<T> {
    fn default() -> Self {
        PlayPicker {
            filter: PlayFilter::default(),
            kept: Vec::new(),
            struck: Vec::new(),
        }
    }
}

impl<T> PlayPicker<T> {
    /// Takes the next event of the stream; `false` when it is not part of the play.
    pub fn push(&mut self, tag: T, e: HandEvent) -> bool {
        if let HandEvent::EntryStruck(_) = e {
            if self.filter.settled {
                return false;
            }
            if let Some((tag, _)) = self.kept.pop() {
                self.struck.push(tag);
                self.filter.ended = self.kept.iter().any(|(_, e)| e.ends_play());
            }
            return false;
        }
        let keep = self.filter.keep(&e);
        if keep {
            self.kept.push((tag, e));
        }
        keep
    }

    /// The play kept so far, in order.
    pub fn kept(&self) -> &[(T, HandEvent)] {
        &self.kept
    }

    /// The entries struck so far, in the order they were struck.
    pub fn struck(&self) -> &[T] {
        &self.struck
    }

    /// The play, in order.
    pub fn finish(self) -> Vec<(T, HandEvent)> {
        self.kept
    }
}

macro_rules! from_payloads {
    ($enum:ident: $($variant:ident),*) => {$(
        impl From<$variant> for $enum {
            fn from(e: $variant) -> $enum {
                $enum::$variant(e)
            }
        }
    )*};
}

from_payloads!(TournamentEvent: TournamentCreated, PlayerRegistered, OfficialRegistered,
    TableFormed, SeatsDrawn, TournamentConfigured, SeatDrawSeeded, TournamentVoided, TableVoided,
    PlayerVoided, TableClosed, TieBreakChosen, SessionOpened, SessionClosed, PlayerWithdrew,
    TableBroadcast, TableReopened, SessionReopened, VoidingUndone);
from_payloads!(TableEvent: GameStarted, GameEnded);
from_payloads!(HandEvent: HandStarted, TileDrawn, LooseTileDrawn, BonusTileDeclared,
    TileDiscarded, ClaimMade, ClaimPassed, ClaimGranted, SetExposed, DiscardTakenBack,
    DiscardTakenIntoHand, DiscardReturned, ClaimRetracted, KongDeclared, OriginalCallAnnounced,
    NoChoicePleaded, KongRobbed, MahJonggDeclared, HandExposed, ScoreClaimed, DisputeRaised,
    RulingIssued, RulingSuperseded, CorrectionRecorded, SettlementRecorded, WashOut, HandScored,
    EntryStruck);
