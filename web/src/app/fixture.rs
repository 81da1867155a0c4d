//! Ledgers made through the application's commands, for the unit tests of this crate.

use std::path::Path;

use ledger::StreamId;

use crate::app::commands::tournament::{self as t, NewPlayer, NewTournament};

/// The tournament `spring` in the ledger at `db` (created, with the database, if missing),
/// with `names` registered as its players.
pub fn spring(db: &Path, names: &[&str]) {
    let mut ledger = readmodel::open(db).unwrap();
    let by = crate::app::accounts::store::command_line("loader", "Load fixture");
    if ledger
        .stream_version(&StreamId::tournament("spring").unwrap())
        .unwrap()
        == 0
    {
        let new = NewTournament {
            id: Some("spring".into()),
            name: "Spring Open".into(),
            ruleset: Some("code-of-laws".into()),
            starting_chips: 2000,
            ..Default::default()
        };
        t::create(&mut ledger, &[], &by, &new).unwrap();
    }
    for name in names {
        let p = NewPlayer {
            id: None,
            name: (*name).into(),
            substitute: false,
            different_person: false,
        };
        t::register_player(&mut ledger, "spring", &by, &p).unwrap();
    }
}
