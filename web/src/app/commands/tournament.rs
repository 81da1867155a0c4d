//! Creating a tournament, registering players and officials, forming tables and drawing seats.
//!
//! Each loads the tournament, asks its aggregate (`referee::tournament`) to decide, and appends
//! what it decides at the version it was loaded at. What is decided here is only what the
//! referee cannot know: the ruleset's text loaded and pinned by its hash, the officials'
//! accounts, and a fresh seed for a random draw.

use ledger::event::{OfficialRegistered, PlayerRegistered, RulesetRef};
use ledger::Ledger;
use ledger::{OfficialId, PlayerId, StreamId, TableId};
use readmodel::Reads;
use referee::tournament::{self, LoadedRuleset, SeatDraw, TournamentCommand};
use referee::{Violation, Violations};
use serde::Deserialize;

use crate::app::accounts::officials::OfficialListing;
use crate::app::accounts::roles::Action;
use crate::app::accounts::viewer::Official;
use crate::app::error::AppError;
use crate::app::tournament as loaded;
use crate::rules::{self, RulesError, RulesetSource};

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

fn registered(official: &OfficialListing) -> Option<OfficialRegistered> {
    let role = crate::app::accounts::roles::parse_role(&official.role).ok()?;
    Some(OfficialRegistered {
        official: OfficialId::new(&official.official).ok()?,
        name: official.name.clone(),
        role,
    })
}

/// The ruleset the command names, loaded and pinned; every problem with it as violations.
fn ruleset(cmd: &NewTournament) -> Result<LoadedRuleset, Violations> {
    let house = cmd
        .house_ruleset
        .as_deref()
        .filter(|t| !t.trim().is_empty());
    let source = match (cmd.ruleset.as_deref().filter(|r| !r.is_empty()), house) {
        (_, Some(text)) => RulesetSource::House(text.to_owned()),
        (Some(name), None) => RulesetSource::BuiltIn(name.to_owned()),
        (None, None) => {
            return Err(
                Violation::new("ruleset", "choose a ruleset or upload a house ruleset").into(),
            )
        }
    };
    match rules::load_ruleset(source) {
        Ok(l) => Ok(LoadedRuleset {
            pinned: RulesetRef {
                name: l.name.clone(),
                content_sha256: l.content_sha256.clone(),
            },
            title: l.title.clone(),
            house_ruleset: house.map(str::to_owned),
            limit: l.limit,
        }),
        Err(RulesError::HouseRuleset(lines)) => Err(Violations(
            lines
                .into_iter()
                .map(|(line, what)| Violation::new("house_ruleset", format!("line {line}: {what}")))
                .collect(),
        )),
        Err(e) => Err(Violation::new("ruleset", e.to_string()).into()),
    }
}

/// Creates the tournament with its conditions; every official is registered in it.
pub fn create(
    ledger: &mut Ledger,
    officials: &[OfficialListing],
    by: &Official,
    cmd: &NewTournament,
) -> Result<StreamId, AppError> {
    by.require_role(Action::CreateTournament)?;
    let new = tournament::NewTournament {
        id: cmd.id.clone(),
        name: cmd.name.clone(),
        ruleset: ruleset(cmd),
        limit: cmd.limit,
        starting_chips: cmd.starting_chips,
        tie_break: cmd.tie_break.clone(),
        officials: officials.iter().filter_map(registered).collect(),
    };
    let id = new.id();
    let command = TournamentCommand::Create(new);
    let Ok(stream) = StreamId::tournament(&id) else {
        // An id no stream can have: the decision refuses it with the command's other problems.
        let refused = tournament::Tournament::new(&id).decide(&command).err();
        return Err(refused.map_or_else(
            || AppError::internal(format!("the id `{id}` was accepted but names no stream")),
            AppError::from,
        ));
    };
    let target = loaded::load_stream(ledger, stream)?;
    target
        .run(ledger, &command, &by.id)
        .map_err(|e| match e.kind {
            crate::app::error::ErrorKind::Conflict => AppError::conflict(format!(
                "there is already a tournament with the id `{id}`: choose another id"
            )),
            _ => e,
        })?;
    Ok(target.stream)
}

/// Records a new official in every tournament (the ledger's record of who may write).
pub fn register_official_everywhere(
    ledger: &mut Ledger,
    official: &OfficialListing,
    by: &Official,
) -> Result<(), AppError> {
    let Some(event) = registered(official) else {
        return Ok(());
    };
    for row in ledger.tournaments()? {
        let t = loaded::load_stream(ledger, row.stream)?;
        let events = t
            .state
            .decide(&TournamentCommand::RegisterOfficial(event.clone()))?;
        let new = events.into_iter().map(ledger::NewEvent::new).collect();
        ledger.append(&t.stream, ledger::ExpectedVersion::Any, new, &by.id)?;
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
    /// The organiser confirms this is a different person from a player of the same name
    /// already registered or listed (a name registered twice is refused otherwise).
    #[serde(default)]
    pub different_person: bool,
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
    let t = loaded::existing(ledger, tournament)?;
    let command = registration(cmds, labels);
    Ok(players_registered(t.run(ledger, &command, &by.id)?)
        .into_iter()
        .map(|p| p.player)
        .collect())
}

/// What [`register_players`] would record, decided on the tournament as it stands and
/// recorded nowhere, with the tournament's version it was decided at: the confirmation a page
/// shows before a list is registered.
pub fn preview_registration(
    ledger: &Ledger,
    tournament: &str,
    by: &Official,
    cmds: &[NewPlayer],
    labels: &[String],
) -> Result<(Vec<PlayerRegistered>, u64), AppError> {
    by.require_role(Action::RegisterPlayer)?;
    let t = loaded::existing(ledger, tournament)?;
    Ok((
        players_registered(t.state.decide(&registration(cmds, labels))?),
        t.version,
    ))
}

/// [`register_players`] as confirmed from its preview at the tournament's `version`: refused
/// (409) when anything was recorded in the tournament since — a second tap of the same
/// confirmation, another organiser's registration — so what is registered is what was shown.
pub fn register_previewed(
    ledger: &mut Ledger,
    tournament: &str,
    by: &Official,
    cmds: &[NewPlayer],
    labels: &[String],
    version: u64,
) -> Result<Vec<PlayerId>, AppError> {
    let now = loaded::existing(ledger, tournament)?.version;
    if now != version {
        return Err(AppError::conflict(
            "the tournament changed since this list was shown (it may already be registered): check the list again",
        ));
    }
    register_players(ledger, tournament, by, cmds, labels)
}

fn registration(cmds: &[NewPlayer], labels: &[String]) -> TournamentCommand {
    TournamentCommand::RegisterPlayers {
        players: cmds
            .iter()
            .map(|c| tournament::NewPlayer {
                id: c.id.clone(),
                name: c.name.clone(),
                substitute: c.substitute,
                different_person: c.different_person,
            })
            .collect(),
        labels: labels.to_vec(),
    }
}

fn players_registered(events: Vec<ledger::event::TournamentEvent>) -> Vec<PlayerRegistered> {
    events
        .into_iter()
        .filter_map(|e| match e {
            ledger::event::TournamentEvent::PlayerRegistered(p) => Some(p),
            _ => None,
        })
        .collect()
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
    let t = loaded::existing(ledger, tournament)?;
    let command = TournamentCommand::Withdraw {
        player: player.to_owned(),
        reason: cmd.reason.clone(),
    };
    t.run(ledger, &command, &by.id)?;
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
    let t = loaded::existing(ledger, tournament)?;
    let command = TournamentCommand::FormTable {
        number: cmd.number,
        players: cmd.players.clone(),
        draw: if cmd.random {
            SeatDraw::Random {
                seed: cmd.seed.unwrap_or_else(rand::random),
            }
        } else {
            SeatDraw::AsListed
        },
    };
    t.run(ledger, &command, &by.id)?
        .into_iter()
        .find_map(|e| match e {
            ledger::event::TournamentEvent::TableFormed(f) => Some(f.table),
            _ => None,
        })
        .ok_or_else(|| AppError::internal("a table formed no table"))
}
