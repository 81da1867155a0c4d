//! Test helper for `tests/durability.rs`: appends to a ledger in a loop until it is killed,
//! printing `ack <event id>` for every event only after its append has been acknowledged.
//!
//! Usage: `ledger-crash-writer <db> [<name>]`. Each batch is one hand (start, a few discards, a
//! settlement), so projections are written in the same transactions the kill interrupts. With
//! a name, several writers share the database: each records its own tournament, table and
//! hands (`crash-<name>`), and after each hand registers a player in one shared tournament
//! (`crash-shared`), so the writers contend for the same stream as well as for the file.

use std::io::Write;
use std::process::ExitCode;

use ledger::event::{
    Deal, HandStarted, PlayerRegistered, SeatsDrawn, SettlementRecorded, TableFormed, TileDiscarded,
};
use ledger::{
    BySeat, ExpectedVersion, Ledger, NewEvent, OfficialId, Payment, PlayerId, StreamId, TableId,
};
use referee::{Seat, Tile};

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ledger-crash-writer: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: ledger-crash-writer <db> [<name>]")?;
    let name = std::env::args().nth(2);
    let mut ledger = Ledger::open(&path)?;
    let by = OfficialId::new("crash-writer")?;
    let (tournament, table, prefix) = match &name {
        Some(n) => (
            StreamId::tournament(&format!("crash-{n}"))?,
            TableId::new(&format!("T{n}"))?,
            format!("{n}-"),
        ),
        None => (
            StreamId::tournament("crash")?,
            TableId::new("T1")?,
            String::new(),
        ),
    };
    let shared = StreamId::tournament("crash-shared")?;
    let stdout = std::io::stdout();
    if ledger.stream_version(&tournament)? == 0 {
        let seats = BySeat::from_fn(|w| PlayerId::new(w.name()).expect("wind names are valid ids"));
        let setup = vec![
            NewEvent::new(TableFormed {
                table: table.clone(),
                number: 1,
                session: None,
            }),
            NewEvent::new(SeatsDrawn {
                table: table.clone(),
                seats,
            }),
        ];
        let ids: Vec<_> = setup.iter().map(|e| e.id).collect();
        ledger.append(&tournament, ExpectedVersion::Exact(0), setup, &by)?;
        let mut out = stdout.lock();
        for id in ids {
            writeln!(out, "ack {id}")?;
        }
        out.flush()?;
    }
    let first = ledger.head()?.position;
    for n in first.. {
        let hand = StreamId::hand(&format!("h{prefix}{n}"))?;
        let winner = Seat::from_index((n % 4) as usize);
        let loser = winner.next();
        let tile: Tile = "5p".parse()?;
        let events = vec![
            NewEvent::new(HandStarted {
                table: table.clone(),
                game: 1,
                hand: n as u32,
                east: Seat::East,
                prevailing_wind: referee::Wind::East,
                dice: vec![3, 4],
                deal: Deal::Unknown,
            }),
            NewEvent::new(TileDiscarded {
                seat: loser,
                placed: tile,
                named: tile,
            }),
            NewEvent::new(SettlementRecorded {
                winner: Some(winner),
                scores: BySeat::from_fn(|w| if w == winner { 8 } else { 0 }),
                payments: vec![Payment {
                    payer: loser,
                    payee: winner,
                    amount: 8,
                }],
                nets: BySeat::from_fn(|w| {
                    if w == winner {
                        8
                    } else if w == loser {
                        -8
                    } else {
                        0
                    }
                }),
            }),
        ];
        let mut ids: Vec<_> = events.iter().map(|e| e.id).collect();
        ledger.append(&hand, ExpectedVersion::Exact(0), events, &by)?;
        if name.is_some() {
            let joined = NewEvent::new(PlayerRegistered {
                player: PlayerId::new(&format!("p-{prefix}{n}"))?,
                name: format!("Player {prefix}{n}"),
                substitute: false,
            });
            let id = joined.id;
            ledger.append(&shared, ExpectedVersion::Any, vec![joined], &by)?;
            ids.push(id);
        }
        let mut out = stdout.lock();
        for id in ids {
            writeln!(out, "ack {id}")?;
        }
        out.flush()?;
    }
    Ok(())
}
