//! `readmodel`: what the pages, the JSON API and the commands of mahjong-referee read —
//! tournaments, players, tables and seats, each hand's record, the standings, sessions, and what
//! is voided or closed — kept by the ledger as one projection of its events.
//!
//! **Why a crate of its own** (issue 25, item 4): the ledger is an event store. It keeps its
//! guarantees (append-only, hash-chained, every projection folded in the append's own
//! transaction, rebuilt exactly, compared by the audit) for any projection registered through
//! [`ledger::Projection`], and it knows nothing of what the application reads. The read models
//! are the application's: they change with its pages and rules, and live here, above the store
//! (`readmodel → ledger, referee`; the web crate depends on this one; the ledger never does).
//!
//! **What it gives**: [`ReadModel`], the projection; [`open`], [`open_existing`],
//! [`open_reader`] and [`open_in_memory`], which open a [`Ledger`](ledger::Ledger) with it
//! registered (every program that writes the ledger must, or its appends are refused: the read
//! model would fall behind); [`Reads`], the read functions as an extension of the ledger; and
//! the row types.
//!
//! **How it folds**: one family (issue 9). The tournament's bookkeeping (`fold.rs`: tournaments,
//! players, tables, seats, sessions; `status.rs`: what is voided or closed) and, for each hand,
//! one record folded from its events (`hand_record.rs`: its result is the referee's own fold,
//! `referee::table::ResultRecord`, as the table aggregate keeps it); each seat's share of a
//! hand and the standings are derived from that record alone (`hands.rs`), and so are the
//! settlement rows and hand summaries (`hand_queries.rs`). Seat-to-player bookkeeping comes from the events
//! themselves: `TableFormed` ties a table to its tournament, `SeatsDrawn` puts players in seats,
//! and `HandStarted` snapshots who sits where for that hand. The tables are in `schema.sql`.
//!
//! ```
//! use ledger::event::{PlayerRegistered, TournamentCreated};
//! use ledger::{ExpectedVersion, NewEvent, OfficialId, PlayerId, StreamId};
//! use readmodel::Reads;
//!
//! let mut ledger = readmodel::open_in_memory()?;
//! let spring = StreamId::tournament("spring")?;
//! let events = vec![
//!     NewEvent::new(TournamentCreated { name: "Spring Open".into(), ruleset: "classical".into() }),
//!     NewEvent::new(PlayerRegistered {
//!         player: PlayerId::new("ann")?,
//!         name: "Ann".into(),
//!         substitute: false,
//!     }),
//! ];
//! ledger.append(&spring, ExpectedVersion::Exact(0), events, &OfficialId::new("ref-ann")?)?;
//!
//! // Read in the append's own transaction: no lag, and the audit replays and compares it.
//! assert_eq!(ledger.players(&spring)?[0].name, "Ann");
//! assert_eq!(ledger.standings(&spring)?[0].rank, 1);
//! assert!(ledger.audit()?.is_clean());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod fold;
mod hand_queries;
mod hand_record;
mod hands;
mod open;
mod pages;
mod projection;
mod queries;
mod reads;
mod sessions;
mod sql;
mod standings;
mod status;

pub use hand_queries::{HandPosition, HandSummary, PlayerHand, SettlementRow};
pub use hand_record::{nets_of, Contribution, HandEvent, HandRecord, HandStart};
pub use open::{open, open_existing, open_in_memory, open_reader, projections};
pub use pages::Slice;
pub use projection::ReadModel;
pub use queries::{PlayerRow, TableRow, TournamentRow};
pub use reads::Reads;
pub use sessions::SessionRow;
pub use standings::{Standing, StandingsScope};
pub use status::{Voided, VoidedKind};
