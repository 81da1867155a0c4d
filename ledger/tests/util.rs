//! Shared helpers: temporary databases and a small tournament written in domain terms. The
//! readmodel crate's tests include this file too (its read models fold the same tournament), so
//! it keeps to the ledger's own API.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use ledger::event::*;
use ledger::{
    BySeat, ExpectedVersion, Ledger, NewEvent, OfficialId, Payment, PlayerId, StreamId, TableId,
};
use referee::{Seat, Tile};

/// A directory under the system temp dir, removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("ledger-test-{}-{tag}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    pub fn db(&self) -> PathBuf {
        self.0.join("ledger.db")
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn referee() -> OfficialId {
    OfficialId::new("ref-ann").unwrap()
}

pub fn tile(s: &str) -> Tile {
    s.parse().unwrap()
}

pub fn tournament() -> StreamId {
    StreamId::tournament("spring").unwrap()
}

pub fn table() -> TableId {
    TableId::new("T1").unwrap()
}

pub fn player(w: Seat) -> PlayerId {
    PlayerId::new(&format!("p-{}", w.name())).unwrap()
}

/// Creates the tournament, registers four players and draws their seats at table T1.
pub fn set_up_tournament(ledger: &mut Ledger) {
    let mut events = vec![NewEvent::new(TournamentCreated {
        name: "Spring Open".into(),
        ruleset: "classical".into(),
    })];
    for w in Seat::ALL {
        events.push(NewEvent::new(PlayerRegistered {
            player: player(w),
            name: format!("Player {w}"),
            substitute: false,
        }));
    }
    events.push(NewEvent::new(TableFormed {
        table: table(),
        number: 1,
        session: None,
    }));
    events.push(NewEvent::new(SeatsDrawn {
        table: table(),
        seats: BySeat::from_fn(player),
    }));
    ledger
        .append(&tournament(), ExpectedVersion::Exact(0), events, &referee())
        .unwrap();
}

/// A settlement where `winner` scored `score` and every other seat paid it `score`.
pub fn settlement(winner: Seat, score: i64) -> SettlementRecorded {
    let payments: Vec<Payment> = Seat::ALL
        .into_iter()
        .filter(|&w| w != winner)
        .map(|w| Payment {
            payer: w,
            payee: winner,
            amount: score,
        })
        .collect();
    let nets = BySeat::from_fn(|w| if w == winner { 3 * score } else { -score });
    let scores = BySeat::from_fn(|w| if w == winner { score } else { 0 });
    SettlementRecorded {
        winner: Some(winner),
        scores,
        payments,
        nets,
    }
}

/// A whole hand at table T1, won by `winner` for `score`, as the events a scorer records.
pub fn hand_events(n: u32, winner: Seat, score: i64) -> Vec<NewEvent> {
    let loser = winner.next();
    vec![
        NewEvent::new(HandStarted {
            table: table(),
            game: 1,
            hand: n,
            east: Seat::East,
            prevailing_wind: referee::Wind::East,
            dice: vec![2, 5],
            deal: Deal::Unknown,
        }),
        NewEvent::new(TileDrawn {
            seat: Seat::East,
            tile: Some(ledger_tile("7s")),
        }),
        NewEvent::new(TileDiscarded {
            seat: loser,
            placed: tile("5p"),
            named: tile("6p"),
        }),
        NewEvent::new(MahJonggDeclared {
            seat: winner,
            winning_tile: tile("5p"),
            self_drawn: false,
        }),
        NewEvent::new(HandExposed {
            seat: winner,
            hand: "123m 456m 789s 5p [EEE] =5p".parse().unwrap(),
        }),
        NewEvent::new(settlement(winner, score)),
    ]
}

fn ledger_tile(s: &str) -> referee::AnyTile {
    s.parse().unwrap()
}

pub fn hand(n: u32) -> StreamId {
    StreamId::hand(&format!("spring-t1-h{n}")).unwrap()
}

/// A tournament with `hands` settled hands, one wash-out and one corrected settlement.
pub fn small_history(ledger: &mut Ledger, hands: u32) {
    set_up_tournament(ledger);
    for n in 1..=hands {
        let winner = Seat::from_index(n as usize % 4);
        ledger
            .append(
                &hand(n),
                ExpectedVersion::Exact(0),
                hand_events(n, winner, 8 * i64::from(n)),
                &referee(),
            )
            .unwrap();
    }
    // Hand 1's settlement is corrected: the winner scored less.
    let first = ledger
        .read_stream(&hand(1), 1)
        .unwrap()
        .into_iter()
        .find(|e| matches!(e.event, Event::SettlementRecorded(_)))
        .unwrap()
        .event_id;
    let v = ledger.stream_version(&hand(1)).unwrap();
    let correction = vec![
        NewEvent::new(CorrectionRecorded {
            supersedes: first,
            reason: "miscounted doubles".into(),
        }),
        NewEvent::new(settlement(Seat::from_index(1), 4)),
    ];
    ledger
        .append(&hand(1), ExpectedVersion::Exact(v), correction, &referee())
        .unwrap();
    let washed = StreamId::hand("spring-t1-wash").unwrap();
    let mut events = hand_events(99, Seat::East, 0);
    events.truncate(3);
    events.push(NewEvent::new(WashOut {
        reason: "wall exhausted".into(),
    }));
    ledger
        .append(&washed, ExpectedVersion::Exact(0), events, &referee())
        .unwrap();
}

/// Opens the database file behind the program's back, as someone with the sqlite3 shell would,
/// with the append-only triggers dropped.
pub fn tamper(path: &Path, f: impl FnOnce(&rusqlite::Connection)) {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.execute_batch("DROP TRIGGER events_no_update; DROP TRIGGER events_no_delete;")
        .unwrap();
    f(&conn);
    // Cover the tracks: put the triggers back, so only the data itself can give it away.
    conn.execute_batch(
        "CREATE TRIGGER events_no_update BEFORE UPDATE ON events BEGIN SELECT RAISE(ABORT, 'no'); END;
         CREATE TRIGGER events_no_delete BEFORE DELETE ON events BEGIN SELECT RAISE(ABORT, 'no'); END;",
    )
    .unwrap();
}
