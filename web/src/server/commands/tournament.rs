//! Creating a tournament, registering players and officials, forming tables and drawing seats.

use ledger::event::{
    OfficialRegistered, PlayerRegistered, PlayerWithdrew, RulesetRef, SeatDrawSeeded, SeatsDrawn,
    TableFormed, TieBreak, TieBreakChosen, TournamentConfigured, TournamentCreated,
};
use ledger::{BySeat, ExpectedVersion, Ledger, NewEvent, OfficialId, PlayerId, StreamId, TableId};
use readmodel::Reads;
use referee::{Seat, Violation, Violations};
use serde::Deserialize;

use super::ranges::{LIMIT, STARTING_CHIPS, TABLE_NUMBER};
use super::{existing_tournament, slug};
use crate::rules::{self, RulesError, RulesetSource};
use crate::server::auth::{Official, OfficialListing};
use crate::server::draw::{self, registration_order};
use crate::server::error::AppError;
use crate::server::in_play::InPlay;
use crate::server::roles::Action;

/// Create a tournament.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTournament {
    /// The id in URLs; made from the name when absent.
    #[serde(default)]
    pub id: Option<String>,
    pub name: String,
    /// A built-in ruleset by name (see `GET /api/rulesets`).
    #[serde(default)]
    pub ruleset: Option<String>,
    /// Or the text of a house ruleset.
    #[serde(default)]
    pub house_ruleset: Option<String>,
    /// The limit on one hand's score; absent for the ruleset's own.
    #[serde(default)]
    pub limit: Option<u64>,
    pub starting_chips: i64,
    /// How ties in the standings are broken, as key names (`["net", "hands_won", …]`);
    /// absent for the default chain.
    #[serde(default)]
    pub tie_break: Option<Vec<String>>,
}

fn registered(official: &OfficialListing) -> Option<NewEvent> {
    let role = crate::server::auth::parse_role(&official.role).ok()?;
    Some(NewEvent::new(OfficialRegistered {
        official: OfficialId::new(&official.official).ok()?,
        name: official.name.clone(),
        role,
    }))
}

/// Creates the tournament with its conditions; every official is registered in it.
pub fn create(
    ledger: &mut Ledger,
    officials: &[OfficialListing],
    by: &Official,
    cmd: &NewTournament,
) -> Result<StreamId, AppError> {
    by.require_role(Action::CreateTournament)?;
    let mut problems = Violations::new();
    let name = cmd.name.trim();
    if name.is_empty() || name.chars().count() > 200 {
        problems.push(Violation::new("name", "the name must be 1–200 characters"));
    }
    problems
        .0
        .extend(STARTING_CHIPS.violation(cmd.starting_chips));
    problems
        .0
        .extend(cmd.limit.and_then(|l| LIMIT.violation(l)));
    let house = cmd
        .house_ruleset
        .as_deref()
        .filter(|t| !t.trim().is_empty());
    let source = match (cmd.ruleset.as_deref().filter(|r| !r.is_empty()), house) {
        (_, Some(text)) => Some(RulesetSource::House(text.to_owned())),
        (Some(name), None) => Some(RulesetSource::BuiltIn(name.to_owned())),
        (None, None) => {
            problems.push(Violation::new(
                "ruleset",
                "choose a ruleset or upload a house ruleset",
            ));
            None
        }
    };
    let loaded = match source.map(rules::load_ruleset).transpose() {
        Ok(l) => l,
        Err(RulesError::HouseRuleset(lines)) => {
            for (line, what) in lines {
                problems.push(Violation::new(
                    "house_ruleset",
                    format!("line {line}: {what}"),
                ));
            }
            None
        }
        Err(e) => {
            problems.push(Violation::new("ruleset", e.to_string()));
            None
        }
    };
    let tie_break = match cmd.tie_break.as_deref().map(TieBreak::parse).transpose() {
        Ok(t) => t,
        Err(e) => {
            problems.push(Violation::new("tie_break", e.to_string()));
            None
        }
    };
    let id = match &cmd.id {
        Some(id) if !id.trim().is_empty() => id.trim().to_owned(),
        _ => slug(name, "tournament"),
    };
    let stream = StreamId::tournament(&id);
    if let Err(e) = &stream {
        problems.push(Violation::new("id", e.to_string()));
    }
    let (Ok(stream), Some(loaded), true) = (stream, loaded, problems.is_empty()) else {
        return Err(AppError::violations(problems));
    };
    let mut events = vec![
        NewEvent::new(TournamentCreated {
            name: name.to_owned(),
            ruleset: loaded.name.clone(),
        }),
        NewEvent::new(TournamentConfigured {
            ruleset: RulesetRef {
                name: loaded.name.clone(),
                content_sha256: loaded.content_sha256.clone(),
            },
            title: loaded.title.clone(),
            house_ruleset: house.map(str::to_owned),
            limit: cmd.limit.or(loaded.limit),
            starting_chips: cmd.starting_chips,
        }),
    ];
    events.extend(tie_break.map(|chain| NewEvent::new(TieBreakChosen { chain })));
    events.extend(officials.iter().filter_map(registered));
    ledger
        .append(&stream, ExpectedVersion::Exact(0), events, &by.id)
        .map_err(|e| match e {
            ledger::Error::Conflict { .. } => AppError::conflict(format!(
                "there is already a tournament with the id `{id}`: choose another id"
            )),
            other => other.into(),
        })?;
    Ok(stream)
}

/// Records a new official in every tournament (the ledger's record of who may write).
pub fn register_official_everywhere(
    ledger: &mut Ledger,
    official: &OfficialListing,
    by: &Official,
) -> Result<(), AppError> {
    for t in ledger.tournaments()? {
        if let Some(event) = registered(official) {
            ledger.append(&t.stream, ExpectedVersion::Any, vec![event], &by.id)?;
        }
    }
    Ok(())
}

/// Register a player.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewPlayer {
    /// The id in URLs; made from the name when absent.
    #[serde(default)]
    pub id: Option<String>,
    pub name: String,
    /// A substitute: seated in a withdrawn player's place, kept out of the places.
    #[serde(default)]
    pub substitute: bool,
}

/// Registers a player; refuses a duplicate id.
pub fn register_player(
    ledger: &mut Ledger,
    tournament: &str,
    by: &Official,
    cmd: &NewPlayer,
) -> Result<PlayerId, AppError> {
    let mut ids = register_players(ledger, tournament, by, std::slice::from_ref(cmd), &[])?;
    ids.pop()
        .ok_or_else(|| AppError::internal("a registration recorded no player"))
}

/// Registers players all at once (bulk registration): every problem with every player is
/// listed, named by `labels[i]` when given (the line of a pasted list, say) or else as
/// `players[i].field` (from 0), and nobody is registered unless all can be.
pub fn register_players(
    ledger: &mut Ledger,
    tournament: &str,
    by: &Official,
    cmds: &[NewPlayer],
    labels: &[String],
) -> Result<Vec<PlayerId>, AppError> {
    by.require_role(Action::RegisterPlayer)?;
    let stream = existing_tournament(ledger, tournament)?;
    let version = ledger.stream_version(&stream)?;
    InPlay::load(ledger, &stream)?.require_tournament()?;
    let existing = ledger.players(&stream)?;
    let single = cmds.len() == 1;
    let field = |i: usize, f: &str| match labels.get(i) {
        Some(label) => label.clone(),
        None if single => f.to_owned(),
        None => format!("players[{i}].{f}"),
    };
    let mut problems = Violations::new();
    if cmds.is_empty() {
        problems.push(Violation::new("players", "no players to register"));
    }
    let mut events = Vec::new();
    let mut ids: Vec<PlayerId> = Vec::new();
    for (i, cmd) in cmds.iter().enumerate() {
        let name = cmd.name.trim();
        if name.is_empty() || name.chars().count() > 100 {
            problems.push(Violation::new(
                field(i, "name"),
                "the player's name must be 1–100 characters",
            ));
            continue;
        }
        let id = match &cmd.id {
            Some(id) if !id.trim().is_empty() => id.trim().to_owned(),
            // In a list, an id made from a name that another already took (two Ann Smiths;
            // names without Latin letters, which all make `player`) gets a number.
            _ if !single => {
                let base = slug(name, "player");
                let taken = |id: &str| {
                    existing.iter().any(|p| p.player.as_str() == id)
                        || ids.iter().any(|p| p.as_str() == id)
                };
                (1..)
                    .map(|n| {
                        if n == 1 {
                            base.clone()
                        } else {
                            format!("{base}-{n}")
                        }
                    })
                    .find(|id| !taken(id))
                    .unwrap_or(base)
            }
            _ => slug(name, "player"),
        };
        let player = match PlayerId::new(&id) {
            Ok(p) => p,
            Err(e) => {
                problems.push(Violation::new(field(i, "id"), format!("id: {e}")));
                continue;
            }
        };
        if existing.iter().any(|p| p.player == player) {
            problems.push(Violation::new(
                field(i, "id"),
                format!("there is already a player `{player}` in this tournament: give another id"),
            ));
            continue;
        }
        if ids.contains(&player) {
            problems.push(Violation::new(
                field(i, "id"),
                format!("`{player}` is listed twice: give one of them another id"),
            ));
            continue;
        }
        ids.push(player.clone());
        events.push(NewEvent::new(PlayerRegistered {
            player,
            name: name.to_owned(),
            substitute: cmd.substitute,
        }));
    }
    if !problems.is_empty() {
        return Err(if single && problems.0.len() == 1 {
            let v = &problems.0[0];
            if v.message.starts_with("there is already") {
                AppError::conflict(v.message.clone())
            } else {
                AppError::unprocessable(v.message.clone())
            }
        } else {
            AppError::violations(problems)
        });
    }
    ledger.append(&stream, ExpectedVersion::Exact(version), events, &by.id)?;
    Ok(ids)
}

/// A player withdraws from the tournament.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Withdraw {
    pub reason: String,
}

/// Records that a player withdrew: he keeps his results and is not seated again (a table he
/// sits at now plays on until it closes).
pub fn withdraw_player(
    ledger: &mut Ledger,
    tournament: &str,
    player: &str,
    by: &Official,
    cmd: &Withdraw,
) -> Result<(), AppError> {
    by.require_role(Action::RegisterPlayer)?;
    let stream = existing_tournament(ledger, tournament)?;
    let version = ledger.stream_version(&stream)?;
    let in_play = InPlay::load(ledger, &stream)?;
    in_play.require_tournament()?;
    let reason = cmd.reason.trim();
    if reason.is_empty() || reason.chars().count() > 200 {
        return Err(AppError::unprocessable(
            "give the reason the player withdrew (1–200 characters)",
        ));
    }
    let Some(row) = ledger
        .players(&stream)?
        .into_iter()
        .find(|p| p.player.as_str() == player)
    else {
        return Err(AppError::not_found(format!(
            "no player `{player}` in tournament `{tournament}`"
        )));
    };
    if let Some(why) = in_play.player_voided(&row.player) {
        return Err(AppError::conflict(format!(
            "{} is voided ({why})",
            row.name
        )));
    }
    if let Some(earlier) = &row.withdrawn {
        return Err(AppError::conflict(format!(
            "{} has already withdrawn ({earlier})",
            row.name
        )));
    }
    let event = NewEvent::new(PlayerWithdrew {
        player: row.player,
        reason: reason.to_owned(),
    });
    ledger.append(
        &stream,
        ExpectedVersion::Exact(version),
        vec![event],
        &by.id,
    )?;
    Ok(())
}

/// Form a table of four and seat them.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTable {
    /// The table's number; the next free one when absent.
    #[serde(default)]
    pub number: Option<u32>,
    /// The four players; in seat order East, South, West, North unless drawn at random.
    pub players: Vec<String>,
    /// Draw the seats at random (the seed is recorded).
    #[serde(default)]
    pub random: bool,
    /// The seed to draw with; a fresh random one when absent.
    #[serde(default)]
    pub seed: Option<u64>,
}

/// Forms the table and draws its seats (Code §15), all in one append.
pub fn form_table(
    ledger: &mut Ledger,
    tournament: &str,
    by: &Official,
    cmd: &NewTable,
) -> Result<TableId, AppError> {
    by.require_role(Action::FormTable)?;
    let stream = existing_tournament(ledger, tournament)?;
    let version = ledger.stream_version(&stream)?;
    let registered = ledger.players(&stream)?;
    let tables = ledger.tables(&stream)?;
    let in_play = InPlay::load(ledger, &stream)?;
    in_play.require_tournament()?;
    let mut problems = Violations::new();
    if cmd.players.len() != 4 {
        problems.push(Violation::rule(
            "players",
            "Code §15",
            format!("a table seats four players, not {}", cmd.players.len()),
        ));
    }
    let mut players = Vec::new();
    for (i, p) in cmd.players.iter().enumerate() {
        let field = format!("players[{i}]");
        match registered.iter().find(|r| r.player.as_str() == p.trim()) {
            Some(r) if players.contains(&r.player) => {
                problems.push(Violation::new(field, format!("{} is listed twice", r.name)))
            }
            Some(r) => {
                if let Some(reason) = in_play.player_voided(&r.player) {
                    problems.push(Violation::new(
                        field.clone(),
                        format!("{} is voided ({reason})", r.name),
                    ));
                }
                if let Some(reason) = &r.withdrawn {
                    problems.push(Violation::new(
                        field.clone(),
                        format!("{} has withdrawn ({reason})", r.name),
                    ));
                }
                // One open table at a time: the player must leave the other first.
                let seated = tables.iter().find(|t| {
                    in_play.table_open(&t.table)
                        && t.seats
                            .as_ref()
                            .is_some_and(|s| s.iter().any(|(_, p)| *p == r.player))
                });
                if let Some(t) = seated {
                    problems.push(Violation::new(
                        field,
                        format!(
                            "{} already sits at table {} (`{}`), which is open: close or void that table first",
                            r.name, t.number, t.table
                        ),
                    ));
                }
                players.push(r.player.clone());
            }
            None => problems.push(Violation::new(
                field,
                format!("`{p}` is not a registered player"),
            )),
        }
    }
    let number = cmd.number.unwrap_or_else(|| {
        let highest = tables.iter().map(|t| t.number).max().unwrap_or(0);
        highest.saturating_add(1)
    });
    problems.0.extend(TABLE_NUMBER.violation(number));
    if tables.iter().any(|t| t.number == number) {
        problems.push(Violation::new(
            "number",
            format!("there is already a table {number}"),
        ));
    }
    if !problems.is_empty() || players.len() != 4 {
        return Err(AppError::violations(problems));
    }
    let table = TableId::new(&format!("{}-t{number}", stream.id()))
        .map_err(|e| AppError::unprocessable(e.to_string()))?;
    // A table formed by hand while a session is open (a replacement, say) plays in it, so
    // its results are hidden from the public with the session's.
    let session = ledger.open_sessions(&stream)?.last().copied();
    let mut events = vec![NewEvent::new(TableFormed {
        table: table.clone(),
        number,
        session,
    })];
    let listed: [PlayerId; 4] = std::array::from_fn(|i| players[i].clone());
    let seated = if cmd.random {
        let seed = cmd.seed.unwrap_or_else(rand::random);
        events.push(NewEvent::new(SeatDrawSeeded {
            table: table.clone(),
            seed,
            method: draw::METHOD.to_owned(),
        }));
        draw::shuffle(
            seed,
            registration_order(
                listed,
                &registered
                    .iter()
                    .map(|r| r.player.clone())
                    .collect::<Vec<_>>(),
            ),
        )
    } else {
        listed
    };
    let seats = BySeat::from_fn(|s: Seat| seated[s.index()].clone());
    events.push(NewEvent::new(SeatsDrawn {
        table: table.clone(),
        seats,
    }));
    ledger.append(&stream, ExpectedVersion::Exact(version), events, &by.id)?;
    Ok(table)
}
