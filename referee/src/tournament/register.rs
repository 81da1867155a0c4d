//! Creating a tournament, registering its officials and players, and a player's withdrawal.

use crate::event::{
    OfficialRegistered, PlayerRegistered, PlayerWithdrew, RulesetRef, TieBreak, TieBreakChosen,
    TournamentConfigured, TournamentCreated, TournamentEvent,
};
use crate::ids::PlayerId;
use crate::violation::{Violation, Violations};

use super::command::{NewPlayer, NewTournament, Refusal};
use super::ranges::{
    LIMIT, MAX_PLAYER_NAME, MAX_TOURNAMENT_NAME, MAX_WITHDRAW_REASON, STARTING_CHIPS,
};
use super::{slug, Tournament};

impl Tournament {
    /// Refuses any write into a voided tournament.
    pub(super) fn not_voided(&self) -> Result<(), Refusal> {
        match &self.voided {
            Some(reason) => Err(Refusal::Unprocessable(format!(
                "tournament `{}` is voided ({reason}): nothing more is recorded in it",
                self.id
            ))),
            None => Ok(()),
        }
    }

    /// Refuses a command to a tournament that was never created.
    pub(super) fn exists(&self) -> Result<(), Refusal> {
        match self.created {
            Some(_) => Ok(()),
            None => Err(Refusal::NotFound(format!("no tournament `{}`", self.id))),
        }
    }

    pub(super) fn decide_create(
        &self,
        cmd: &NewTournament,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        let mut problems = Violations::new();
        let name = cmd.name.trim();
        if name.is_empty() || name.chars().count() > MAX_TOURNAMENT_NAME {
            problems.push(Violation::new(
                "name",
                format!("the name must be 1–{MAX_TOURNAMENT_NAME} characters"),
            ));
        }
        if let Some(why) = crate::ids::name_problem(name) {
            problems.push(Violation::new("name", why));
        }
        problems
            .0
            .extend(STARTING_CHIPS.violation(cmd.starting_chips));
        problems
            .0
            .extend(cmd.limit.and_then(|l| LIMIT.violation(l)));
        let loaded = match &cmd.ruleset {
            Ok(l) => Some(l),
            Err(v) => {
                problems.0.extend(v.iter().cloned());
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
        if let Err(e) = crate::ids::check_id(&cmd.id()) {
            problems.push(Violation::new("id", e.to_string()));
        }
        let (Some(loaded), true) = (loaded, problems.is_empty()) else {
            return Err(problems.into());
        };
        if self.created.is_some() {
            return Err(Refusal::Conflict(format!(
                "there is already a tournament with the id `{}`: choose another id",
                self.id
            )));
        }
        let mut events = vec![
            TournamentEvent::TournamentCreated(TournamentCreated {
                name: name.to_owned(),
                ruleset: loaded.pinned.name.clone(),
            }),
            TournamentEvent::TournamentConfigured(TournamentConfigured {
                ruleset: RulesetRef {
                    name: loaded.pinned.name.clone(),
                    content_sha256: loaded.pinned.content_sha256.clone(),
                },
                title: loaded.title.clone(),
                house_ruleset: loaded.house_ruleset.clone(),
                limit: cmd.limit.or(loaded.limit),
                starting_chips: cmd.starting_chips,
            }),
        ];
        events.extend(
            tie_break.map(|chain| TournamentEvent::TieBreakChosen(TieBreakChosen { chain })),
        );
        events.extend(
            cmd.officials
                .iter()
                .cloned()
                .map(TournamentEvent::OfficialRegistered),
        );
        Ok(events)
    }

    /// An official created after the tournament: recorded in it as in every other (the
    /// ledger's record of who may write).
    pub(super) fn decide_official(
        &self,
        official: &OfficialRegistered,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        self.exists()?;
        Ok(vec![TournamentEvent::OfficialRegistered(official.clone())])
    }

    pub(super) fn decide_registration(
        &self,
        players: &[NewPlayer],
        labels: &[String],
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        self.exists()?;
        self.not_voided()?;
        let single = players.len() == 1;
        let field = |i: usize, f: &str| match labels.get(i) {
            Some(label) => label.clone(),
            None if single => f.to_owned(),
            None => format!("players[{i}].{f}"),
        };
        let mut problems = Violations::new();
        if players.is_empty() {
            problems.push(Violation::new("players", "no players to register"));
        }
        let mut events = Vec::new();
        let mut ids: Vec<PlayerId> = Vec::new();
        let mut names: Vec<String> = Vec::new();
        for (i, cmd) in players.iter().enumerate() {
            let name = cmd.name.trim();
            let same = same_name(name);
            if !cmd.different_person && !name.is_empty() {
                let registered = self
                    .players
                    .iter()
                    .find(|p| p.voided.is_none() && same_name(&p.name) == same);
                if let Some(p) = registered {
                    problems.push(Violation::new(
                        field(i, "name"),
                        format!(
                            "{name} is already registered (as `{}`): nobody is registered twice; if this is a different person, confirm it",
                            p.id
                        ),
                    ));
                    continue;
                }
                if names.contains(&same) {
                    problems.push(Violation::new(
                        field(i, "name"),
                        format!("{name} is listed twice: if they are different people, confirm it"),
                    ));
                    continue;
                }
            }
            names.push(same);
            if name.is_empty() || name.chars().count() > MAX_PLAYER_NAME {
                problems.push(Violation::new(
                    field(i, "name"),
                    format!("the player's name must be 1–{MAX_PLAYER_NAME} characters"),
                ));
                continue;
            }
            if let Some(why) = crate::ids::name_problem(name) {
                problems.push(Violation::new(field(i, "name"), why));
                continue;
            }
            let id = match &cmd.id {
                Some(id) if !id.trim().is_empty() => id.trim().to_owned(),
                // In a list, an id made from a name that another already took (two Ann
                // Smiths; names without Latin letters, which all make `player`) gets a number.
                _ if !single || cmd.different_person => self.free_id(&slug(name, "player"), &ids),
                _ => slug(name, "player"),
            };
            let player = match PlayerId::new(&id) {
                Ok(p) => p,
                Err(e) => {
                    problems.push(Violation::new(field(i, "id"), format!("id: {e}")));
                    continue;
                }
            };
            if self.player(&player).is_some() {
                problems.push(Violation::new(
                    field(i, "id"),
                    format!(
                        "there is already a player `{player}` in this tournament: give another id"
                    ),
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
            events.push(TournamentEvent::PlayerRegistered(PlayerRegistered {
                player,
                name: name.to_owned(),
                substitute: cmd.substitute,
            }));
        }
        if problems.is_empty() {
            return Ok(events);
        }
        // One player, one problem: said as a sentence; a duplicate is a conflict.
        Err(match (single, problems.0.as_slice()) {
            (true, [v]) if v.message.contains("already") => Refusal::Conflict(v.message.clone()),
            (true, [v]) => Refusal::Unprocessable(v.message.clone()),
            _ => Refusal::Invalid(problems),
        })
    }

    /// `base`, or `base-2`, `base-3` … : the first id neither registered nor among `taken`.
    fn free_id(&self, base: &str, taken: &[PlayerId]) -> String {
        let used = |id: &str| {
            self.players.iter().any(|p| p.id.as_str() == id)
                || taken.iter().any(|p| p.as_str() == id)
        };
        (1..)
            .map(|n| {
                if n == 1 {
                    base.to_owned()
                } else {
                    format!("{base}-{n}")
                }
            })
            .find(|id| !used(id))
            .unwrap_or_else(|| base.to_owned())
    }

    pub(super) fn decide_withdrawal(
        &self,
        player: &str,
        reason: &str,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        self.exists()?;
        self.not_voided()?;
        let reason = reason.trim();
        if reason.is_empty() || reason.chars().count() > MAX_WITHDRAW_REASON {
            return Err(Refusal::Unprocessable(format!(
                "give the reason the player withdrew (1–{MAX_WITHDRAW_REASON} characters)"
            )));
        }
        let Some(p) = self.players.iter().find(|p| p.id.as_str() == player) else {
            return Err(Refusal::NotFound(format!(
                "no player `{player}` in tournament `{}`",
                self.id
            )));
        };
        if let Some(why) = &p.voided {
            return Err(Refusal::Conflict(format!("{} is voided ({why})", p.name)));
        }
        if let Some(earlier) = &p.withdrawn {
            return Err(Refusal::Conflict(format!(
                "{} has already withdrawn ({earlier})",
                p.name
            )));
        }
        Ok(vec![TournamentEvent::PlayerWithdrew(PlayerWithdrew {
            player: p.id.clone(),
            reason: reason.to_owned(),
        })])
    }
}

/// A name as two entries of it are compared: case and runs of spaces aside.
pub fn same_name(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}
