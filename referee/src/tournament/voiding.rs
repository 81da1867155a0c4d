//! Voiding a tournament or a player entered by mistake. Nothing is deleted: the voided thing
//! stays in the stream with the reason, shown to officials marked voided and left out of the
//! public's pages ([`super::visibility`]).

use crate::event::{PlayerVoided, TournamentEvent, TournamentVoided};
use crate::ids::PlayerId;

use super::command::Refusal;
use super::ranges::MAX_VOID_REASON;
use super::Tournament;

/// The reason given, trimmed, or the refusal of one empty or too long: what every voiding and
/// undoing asks for (a page asks it before its confirmation, too).
pub fn reason(reason: &str) -> Result<String, Refusal> {
    let reason = reason.trim();
    if reason.is_empty() || reason.chars().count() > MAX_VOID_REASON {
        return Err(Refusal::Unprocessable(format!(
            "reason: say why, in 1 to {MAX_VOID_REASON} characters"
        )));
    }
    Ok(reason.to_owned())
}

impl Tournament {
    pub(super) fn decide_void(&self, why: &str) -> Result<Vec<TournamentEvent>, Refusal> {
        self.exists()?;
        let reason = reason(why)?;
        self.not_voided()?;
        Ok(vec![TournamentEvent::TournamentVoided(TournamentVoided {
            reason,
        })])
    }

    /// A player is voided; one seated at an open table is refused (void or close that table
    /// first, so no open table is left with a voided player in a seat).
    pub(super) fn decide_void_player(
        &self,
        player: &str,
        why: &str,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        self.exists()?;
        let missing = || Refusal::NotFound(format!("no player `{player}` in this tournament"));
        let id = PlayerId::new(player).map_err(|_| missing())?;
        let found = self.player(&id).ok_or_else(missing)?;
        let reason = reason(why)?;
        self.not_voided()?;
        if let Some(earlier) = &found.voided {
            return Err(Refusal::Unprocessable(format!(
                "{} is already voided ({earlier})",
                found.name
            )));
        }
        if let Some(t) = self.seated_at_open_table(&id) {
            return Err(Refusal::Unprocessable(format!(
                "{} sits at table {} (`{}`), which is open: close or void that table first",
                found.name, t.number, t.id
            )));
        }
        Ok(vec![TournamentEvent::PlayerVoided(PlayerVoided {
            player: id,
            reason,
        })])
    }
}
