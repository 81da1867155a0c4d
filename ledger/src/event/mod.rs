//! The event vocabulary: every fact the service can know, as one serde-tagged enum.
//!
//! Events are facts in the past tense. Each has a stable wire name (stored in the `event_type`
//! column and used as the serde tag) and a schema version. A payload is stored as the
//! canonical JSON of its struct (serde_json, fields in declaration order, no whitespace); the
//! event type and version live in the envelope, so [`Event::decode`] dispatches on them
//! without buffering. When a payload's shape changes, its version goes up and `decode` keeps
//! reading the old version (an upcaster) — stored events are never rewritten.

mod accounts;
mod checkpoint;
mod upcast;

// The facts of tables and hands belong to the domain; the ledger gives them wire names and
// versions.
pub use referee::event::*;

// The ledger's own streams (its accounts, its checkpoints) have their payloads here, beside the
// rest of the vocabulary: what they mean is for the modules that fold them.
pub use accounts::{AccountChange, AccountChanged};
pub use checkpoint::{Checkpoint, CheckpointSigned};

use serde::{Deserialize, Serialize};

use crate::ids::StreamKind;

pub(crate) use upcast::canonical_older;

/// One entry of the catalogue: an event type's wire name, current schema version and the kind
/// of stream it belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventType {
    pub name: &'static str,
    pub schema_version: u32,
    pub stream_kind: StreamKind,
}

/// Why stored bytes are not an event.
#[derive(Debug, thiserror::Error)]
pub enum DecodeError {
    #[error("unknown event type `{0}`")]
    UnknownType(String),
    #[error("event type `{event_type}` has no schema version {found} (this build reads version {known})")]
    UnknownSchemaVersion {
        event_type: String,
        found: u32,
        known: u32,
    },
    #[error("`{event_type}` version {from} cannot be read as the current version: {why}")]
    Upcast {
        event_type: String,
        from: u32,
        why: String,
    },
    #[error("payload of `{event_type}` does not parse: {source}")]
    Payload {
        event_type: String,
        source: serde_json::Error,
    },
}

macro_rules! catalogue {
    ($( $(#[$doc:meta])* $variant:ident = $wire:literal, v $ver:literal, $kind:ident; )*) => {
        /// Every event the ledger records. Serialized (e.g. in exports and APIs) as
        /// `{"type": <wire name>, "data": <payload>}`.
        // As `referee::event::HandEvent`: a scored hand's sheets are large, and an event is
        // decoded, folded and dropped, so boxing it would only add an allocation.
        #[allow(clippy::large_enum_variant)]
        #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(tag = "type", content = "data")]
        pub enum Event {
            $( $(#[$doc])* #[serde(rename = $wire)] $variant($variant), )*
        }

        /// The whole vocabulary, in the order of the enum.
        pub const CATALOGUE: &[EventType] = &[
            $( EventType { name: $wire, schema_version: $ver, stream_kind: StreamKind::$kind }, )*
        ];

        impl Event {
            /// The stable wire name.
            pub fn event_type(&self) -> &'static str {
                match self { $( Event::$variant(_) => $wire, )* }
            }

            /// The schema version this build writes.
            pub fn schema_version(&self) -> u32 {
                match self { $( Event::$variant(_) => $ver, )* }
            }

            /// The kind of stream the event belongs to.
            pub fn stream_kind(&self) -> StreamKind {
                match self { $( Event::$variant(_) => StreamKind::$kind, )* }
            }

            /// The canonical JSON bytes of the payload, as stored and hashed.
            pub fn to_payload(&self) -> Result<Vec<u8>, serde_json::Error> {
                match self { $( Event::$variant(p) => serde_json::to_vec(p), )* }
            }

            /// Reads a stored payload back into an event.
            pub fn decode(event_type: &str, schema_version: u32, payload: &[u8]) -> Result<Event, DecodeError> {
                if let Some(upcast) = upcast::older(event_type, schema_version, payload) {
                    return upcast;
                }
                match event_type {
                    $( $wire => {
                        if schema_version != $ver {
                            return Err(DecodeError::UnknownSchemaVersion {
                                event_type: event_type.to_owned(), found: schema_version, known: $ver,
                            });
                        }
                        serde_json::from_slice(payload)
                            .map(Event::$variant)
                            .map_err(|source| DecodeError::Payload { event_type: event_type.to_owned(), source })
                    } )*
                    other => Err(DecodeError::UnknownType(other.to_owned())),
                }
            }
        }

        $(
            impl From<$variant> for Event {
                fn from(e: $variant) -> Event { Event::$variant(e) }
            }
        )*
    };
}

catalogue! {
    /// A tournament was created.
    TournamentCreated = "tournament_created", v 1, Tournament;
    /// A player was registered.
    PlayerRegistered = "player_registered", v 1, Tournament;
    /// An official was registered.
    OfficialRegistered = "official_registered", v 1, Tournament;
    /// A table was formed.
    TableFormed = "table_formed", v 1, Tournament;
    /// Seats were drawn at a table (Code §15).
    SeatsDrawn = "seats_drawn", v 1, Tournament;
    /// A game started: ruleset by name and content hash, options, starting chips.
    GameStarted = "game_started", v 1, Table;
    /// A game ended.
    GameEnded = "game_ended", v 1, Table;
    /// A hand started: East, prevailing wind, dice, and the wall or the deal when known.
    HandStarted = "hand_started", v 1, Hand;
    /// A tile was drawn from the live wall.
    TileDrawn = "tile_drawn", v 1, Hand;
    /// A loose tile was drawn.
    LooseTileDrawn = "loose_tile_drawn", v 1, Hand;
    /// A bonus tile was declared.
    BonusTileDeclared = "bonus_tile_declared", v 1, Hand;
    /// A tile was discarded: the tile placed and the tile named (Code §84).
    TileDiscarded = "tile_discarded", v 1, Hand;
    /// A discard was claimed.
    ClaimMade = "claim_made", v 1, Hand;
    /// A seat passed on the live discard.
    ClaimPassed = "claim_passed", v 1, Hand;
    /// The live discard was granted to a claimant (Code §61–65).
    ClaimGranted = "claim_granted", v 1, Hand;
    /// A set completed with a claimed discard was exposed.
    SetExposed = "set_exposed", v 1, Hand;
    /// A discard was taken back (Code §70, §74, §75).
    DiscardTakenBack = "discard_taken_back", v 1, Hand;
    /// A discard was taken into a concealed hand (Code §81).
    DiscardTakenIntoHand = "discard_taken_into_hand", v 1, Hand;
    /// A discard taken into a hand was returned to the table (Code §81).
    DiscardReturned = "discard_returned", v 1, Hand;
    /// A claim was retracted (Code §69–71).
    ClaimRetracted = "claim_retracted", v 1, Hand;
    /// A kong was declared.
    KongDeclared = "kong_declared", v 1, Hand;
    /// An Original Call was announced.
    OriginalCallAnnounced = "original_call_announced", v 1, Hand;
    /// A seat pleaded No Choice for a dangerous discard (Code §95).
    NoChoicePleaded = "no_choice_pleaded", v 1, Hand;
    /// A kong was robbed.
    KongRobbed = "kong_robbed", v 1, Hand;
    /// Mah-Jongg was declared.
    MahJonggDeclared = "mah_jongg_declared", v 1, Hand;
    /// A hand was laid down.
    HandExposed = "hand_exposed", v 1, Hand;
    /// A score was claimed.
    ScoreClaimed = "score_claimed", v 1, Hand;
    /// A dispute was raised. v2: by a seat or an official, who is named; about an event or a
    /// position (v1's seat-only dispute is upcast).
    DisputeRaised = "dispute_raised", v 2, Hand;
    /// A ruling was issued. v2: the official, the finding accepted or overruled, typed
    /// penalties, whether the hand is abandoned (v1's verdict and payments are upcast).
    RulingIssued = "ruling_issued", v 2, Hand;
    /// A ruling was superseded on appeal.
    RulingSuperseded = "ruling_superseded", v 1, Hand;
    /// A correction superseded an earlier event.
    CorrectionRecorded = "correction_recorded", v 1, Hand;
    /// The hand was settled.
    SettlementRecorded = "settlement_recorded", v 1, Hand;
    /// The hand was a wash-out.
    WashOut = "wash_out", v 1, Hand;
    /// The scorer struck his last entry of the play (a slip, not an act of the game).
    EntryStruck = "entry_struck", v 1, Hand;
    /// An organiser opened (or closed) a table's play to the public during its session.
    TableBroadcast = "table_broadcast", v 1, Tournament;
    /// A tournament's ruleset, limit and starting chips were set.
    TournamentConfigured = "tournament_configured", v 1, Tournament;
    /// A random seat draw's seed was recorded.
    SeatDrawSeeded = "seat_draw_seeded", v 1, Tournament;
    /// The hand was scored: itemized sheets, how it was won, penalties. v2: the sheets are the
    /// referee's typed `ScoreSheet` (v1's text values are upcast).
    HandScored = "hand_scored", v 2, Hand;
    /// A tournament entered by mistake was voided.
    TournamentVoided = "tournament_voided", v 1, Tournament;
    /// A table formed by mistake was voided.
    TableVoided = "table_voided", v 1, Tournament;
    /// A player registered by mistake was voided.
    PlayerVoided = "player_voided", v 1, Tournament;
    /// A table's play is over; its players may sit at another table.
    TableClosed = "table_closed", v 1, Tournament;
    /// The tournament chose the tie-break chain of its standings.
    TieBreakChosen = "tie_break_chosen", v 1, Tournament;
    /// A session (round of play) was opened; its tables are formed in the same append.
    SessionOpened = "session_opened", v 1, Tournament;
    /// A session's play is over and its results public.
    SessionClosed = "session_closed", v 1, Tournament;
    /// A player withdrew from the tournament and is not seated again.
    PlayerWithdrew = "player_withdrew", v 1, Tournament;
    /// An organiser opened a closed table again, with why.
    TableReopened = "table_reopened", v 1, Tournament;
    /// An organiser opened a closed session again, with why.
    SessionReopened = "session_reopened", v 1, Tournament;
    /// An organiser undid a voiding (of a table, a player, or the tournament), with why.
    VoidingUndone = "voiding_undone", v 1, Tournament;
    /// An official's account changed: created, password, role, disabled or enabled, an API
    /// token issued or revoked, a session opened or closed (see the accounts module).
    AccountChanged = "account_changed", v 1, Accounts;
    /// A checkpoint of the chain head, signed with the ledger's key (see the signing module).
    CheckpointSigned = "checkpoint_signed", v 1, Ledger;
}

/// The domain's per-stream enums and the ledger's catalogue name the same payloads.
macro_rules! stream_enum {
    ($enum:ident: $($variant:ident),*) => {
        impl From<$enum> for Event {
            fn from(e: $enum) -> Event {
                match e { $( $enum::$variant(p) => Event::$variant(p), )* }
            }
        }

        impl TryFrom<Event> for $enum {
            /// The event back, when it belongs to another kind of stream.
            type Error = Event;
            fn try_from(e: Event) -> Result<$enum, Event> {
                match e {
                    $( Event::$variant(p) => Ok($enum::$variant(p)), )*
                    other => Err(other),
                }
            }
        }
    };
}

stream_enum!(TournamentEvent: TournamentCreated, PlayerRegistered, OfficialRegistered,
    TableFormed, SeatsDrawn, TournamentConfigured, SeatDrawSeeded, TournamentVoided, TableVoided,
    PlayerVoided, TableClosed, TieBreakChosen, SessionOpened, SessionClosed, PlayerWithdrew,
    TableBroadcast, TableReopened, SessionReopened, VoidingUndone);
stream_enum!(TableEvent: GameStarted, GameEnded);
stream_enum!(HandEvent: HandStarted, TileDrawn, LooseTileDrawn, BonusTileDeclared,
    TileDiscarded, ClaimMade, ClaimPassed, ClaimGranted, SetExposed, DiscardTakenBack,
    DiscardTakenIntoHand, DiscardReturned, ClaimRetracted, KongDeclared, OriginalCallAnnounced,
    NoChoicePleaded, KongRobbed, MahJonggDeclared, HandExposed, ScoreClaimed, DisputeRaised,
    RulingIssued, RulingSuperseded, CorrectionRecorded, SettlementRecorded, WashOut, HandScored,
    EntryStruck);

#[cfg(test)]
mod tests {
    use super::*;
    use referee::{Seat, Tile};

    #[test]
    fn wire_names_are_unique_snake_case_and_stable() {
        let mut names: Vec<_> = CATALOGUE.iter().map(|t| t.name).collect();
        assert!(names
            .iter()
            .all(|n| n.chars().all(|c| c.is_ascii_lowercase() || c == '_')));
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), CATALOGUE.len());
        // 25 in the first vocabulary; 3 added with the web service; 4 for closing and voiding;
        // 1 for standings; 5 for recording the play (a pass, a grant, a set exposed, a discard
        // taken back, a discard taken into the hand); 1 for adjudication (a plea of No Choice).
        // 1 for accounts under audit; 1 for signed checkpoints; 3 for sessions and withdrawals;
        // 1 for a discard taken into the hand and returned (§81); 1 for a scorer's slip struck;
        // 1 for a table broadcast; 3 for undoing the night's one-tap actions (a table or a
        // session reopened, a voiding undone).
        assert_eq!(CATALOGUE.len(), 51);
    }

    #[test]
    fn each_stream_kind_has_its_own_domain_enum_with_every_type_of_that_kind() {
        // The domain's enums list 19 tournament, 2 table and 28 hand facts (compile-checked
        // against the payloads by `stream_enum!`); the catalogue must agree on each kind.
        let count = |k: StreamKind| CATALOGUE.iter().filter(|t| t.stream_kind == k).count();
        assert_eq!(count(StreamKind::Tournament), 19);
        assert_eq!(count(StreamKind::Table), 2);
        assert_eq!(count(StreamKind::Hand), 28);
        assert_eq!(count(StreamKind::Accounts), 1);
        assert_eq!(count(StreamKind::Ledger), 1);
        let e = Event::from(WashOut {
            reason: "wall exhausted".into(),
        });
        assert!(TournamentEvent::try_from(e.clone()).is_err());
        assert!(HandEvent::try_from(e).is_ok());
    }

    #[test]
    fn payload_round_trips_through_decode() {
        let e = Event::from(TileDiscarded {
            seat: Seat::South,
            placed: "5p".parse::<Tile>().unwrap(),
            named: "6p".parse().unwrap(),
        });
        let bytes = e.to_payload().unwrap();
        assert_eq!(bytes, br#"{"seat":"south","placed":"5p","named":"6p"}"#);
        assert_eq!(Event::decode(e.event_type(), 1, &bytes).unwrap(), e);
    }

    #[test]
    fn decode_names_what_is_wrong() {
        assert!(matches!(
            Event::decode("tile_teleported", 1, b"{}"),
            Err(DecodeError::UnknownType(_))
        ));
        assert!(matches!(
            Event::decode("wash_out", 9, b"{}"),
            Err(DecodeError::UnknownSchemaVersion { found: 9, .. })
        ));
        let bad_tile = br#"{"seat":"south","placed":"7z","named":"6p"}"#;
        assert!(matches!(
            Event::decode("tile_discarded", 1, bad_tile),
            Err(DecodeError::Payload { .. })
        ));
        let fifth_seat = br#"{"seat":"centre","tile":null}"#;
        assert!(Event::decode("tile_drawn", 1, fifth_seat).is_err());
    }

    #[test]
    fn tagged_serde_form_names_the_type() {
        let e = Event::from(WashOut {
            reason: "wall exhausted".into(),
        });
        let json = serde_json::to_string(&e).unwrap();
        assert_eq!(
            json,
            r#"{"type":"wash_out","data":{"reason":"wall exhausted"}}"#
        );
        assert_eq!(serde_json::from_str::<Event>(&json).unwrap(), e);
    }
}
