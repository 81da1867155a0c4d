//! What each official may do: the whole policy in one table, [`Action::permitted`]; and the
//! roles' names ([`role_name`], [`parse_role`]).
//!
//! Why one table: a rule scattered over handlers as `if` statements is a rule someone forgets
//! on the next route. Every write names its [`Action`] and asks
//! `Official::require_role` (in `viewer`); pages ask `Official::may` to decide which forms to
//! show. The README's
//! "Officials and roles" table says the same in words, and a test walks every pair.
//!
//! The roles are cumulative: each may do all that the one before it may.
//!
//! | role | may |
//! |---|---|
//! | scorer | record hands |
//! | referee | what a scorer may; correct hands, rule on disputes |
//! | organiser | what a referee may; create tournaments, register players, form tables and draw seats, close and void |
//! | administrator | everything, and manage officials |

use ledger::event::OfficialRole;
use referee::table::TableCommand;
use referee::tournament::TournamentCommand;

use crate::app::error::AppError;

/// A write an official asks to make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Record the next hand at a table.
    RecordHand,
    /// Correct a recorded hand.
    CorrectHand,
    /// Raise a dispute about a hand, rule on it, hear an appeal.
    Rule,
    /// Create a tournament (also: load the demo tournament).
    CreateTournament,
    /// Register a player in a tournament.
    RegisterPlayer,
    /// Form a table and draw its seats.
    FormTable,
    /// Close a table whose play is over, freeing its players for another table.
    CloseTable,
    /// Void a mistaken tournament, table or player.
    Void,
    /// Add officials.
    ManageOfficials,
}

impl Action {
    pub const ALL: [Action; 9] = [
        Action::RecordHand,
        Action::CorrectHand,
        Action::Rule,
        Action::CreateTournament,
        Action::RegisterPlayer,
        Action::FormTable,
        Action::CloseTable,
        Action::Void,
        Action::ManageOfficials,
    ];

    /// The least role that may do this; `None` for the administrator's alone.
    pub const fn least(self) -> Option<OfficialRole> {
        use Action::*;
        use OfficialRole::*;
        match self {
            RecordHand => Some(Scorer),
            CorrectHand | Rule => Some(Referee),
            CreateTournament | RegisterPlayer | FormTable | CloseTable | Void => Some(Organiser),
            ManageOfficials => None,
        }
    }

    /// The policy: whether an official of `role` may do this — the roles are cumulative
    /// (organiser ⊇ referee ⊇ scorer). The administrator may do everything and is not asked
    /// here.
    pub const fn permitted(self, role: OfficialRole) -> bool {
        match self.least() {
            Some(least) => rank(role) >= rank(least),
            None => false,
        }
    }

    /// What the action is, for a refusal: "record a hand".
    pub const fn describe(self) -> &'static str {
        match self {
            Action::RecordHand => "record a hand",
            Action::CorrectHand => "correct a hand",
            Action::Rule => "rule on a dispute",
            Action::CreateTournament => "create a tournament",
            Action::RegisterPlayer => "register a player",
            Action::FormTable => "form a table",
            Action::CloseTable => "close a table",
            Action::Void => "void a tournament, table or player",
            Action::ManageOfficials => "manage officials",
        }
    }

    /// Who may, in words: "a referee, an organiser or the administrator".
    pub fn who(self) -> String {
        let roles: Vec<&str> = [
            (OfficialRole::Scorer, "a scorer"),
            (OfficialRole::Referee, "a referee"),
            (OfficialRole::Organiser, "an organiser"),
        ]
        .into_iter()
        .filter(|(r, _)| self.permitted(*r))
        .map(|(_, name)| name)
        .collect();
        match roles.as_slice() {
            [] => "the administrator".to_owned(),
            [one] => format!("{one} or the administrator"),
            [init @ .., last] => format!("{}, {last} or the administrator", init.join(", ")),
        }
    }
}

/// A role's place in the order of roles: each may do all that those below it may.
const fn rank(role: OfficialRole) -> u8 {
    match role {
        OfficialRole::Scorer => 1,
        OfficialRole::Referee => 2,
        OfficialRole::Organiser => 3,
    }
}

/// A role's name as stored and shown.
pub fn role_name(role: OfficialRole) -> &'static str {
    match role {
        OfficialRole::Referee => "referee",
        OfficialRole::Scorer => "scorer",
        OfficialRole::Organiser => "organiser",
    }
}

/// Reads a role name.
pub fn parse_role(s: &str) -> Result<OfficialRole, AppError> {
    match s {
        "referee" => Ok(OfficialRole::Referee),
        "scorer" => Ok(OfficialRole::Scorer),
        "organiser" => Ok(OfficialRole::Organiser),
        other => Err(AppError::bad_request(format!(
            "`{other}` is not a role (referee, scorer, organiser)"
        ))),
    }
}

impl Action {
    /// The action a table command is: what its recorder's role must permit.
    pub fn for_table(command: &TableCommand) -> Action {
        match command {
            TableCommand::RecordHand { .. }
            | TableCommand::StartHand { .. }
            | TableCommand::Play { .. }
            | TableCommand::RecordPlayedHand { .. }
            | TableCommand::Count { .. } => Action::RecordHand,
            TableCommand::CorrectHand { .. } => Action::CorrectHand,
            TableCommand::RaiseDispute { .. }
            | TableCommand::Rule { .. }
            | TableCommand::Appeal { .. } => Action::Rule,
        }
    }

    /// The action a tournament command is.
    pub fn for_tournament(command: &TournamentCommand) -> Action {
        match command {
            TournamentCommand::Create(_) => Action::CreateTournament,
            TournamentCommand::RegisterOfficial(_) => Action::ManageOfficials,
            TournamentCommand::RegisterPlayers { .. } | TournamentCommand::Withdraw { .. } => {
                Action::RegisterPlayer
            }
            TournamentCommand::FormTable { .. }
            | TournamentCommand::OpenSession { .. }
            | TournamentCommand::Broadcast { .. } => Action::FormTable,
            TournamentCommand::CloseSession { .. }
            | TournamentCommand::CloseTable { .. }
            | TournamentCommand::ReopenTable { .. }
            | TournamentCommand::ReopenSession { .. } => Action::CloseTable,
            TournamentCommand::VoidTournament { .. }
            | TournamentCommand::VoidTable { .. }
            | TournamentCommand::VoidPlayer { .. }
            | TournamentCommand::UndoVoid { .. } => Action::Void,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use OfficialRole::*;

    /// The table of the module docs and the README, pair by pair.
    #[test]
    fn the_policy_is_the_documented_table() {
        let table = [
            (Action::RecordHand, [true, true, true]),
            (Action::CorrectHand, [false, true, true]),
            (Action::Rule, [false, true, true]),
            (Action::CreateTournament, [false, false, true]),
            (Action::RegisterPlayer, [false, false, true]),
            (Action::FormTable, [false, false, true]),
            (Action::CloseTable, [false, false, true]),
            (Action::Void, [false, false, true]),
            (Action::ManageOfficials, [false, false, false]),
        ];
        assert_eq!(table.len(), Action::ALL.len());
        for (action, [scorer, referee, organiser]) in table {
            assert_eq!(action.permitted(Scorer), scorer, "{action:?} scorer");
            assert_eq!(action.permitted(Referee), referee, "{action:?} referee");
            assert_eq!(
                action.permitted(Organiser),
                organiser,
                "{action:?} organiser"
            );
        }
    }

    #[test]
    fn refusals_say_who_may() {
        assert_eq!(
            Action::RecordHand.who(),
            "a scorer, a referee, an organiser or the administrator"
        );
        assert_eq!(
            Action::CorrectHand.who(),
            "a referee, an organiser or the administrator"
        );
        assert_eq!(Action::ManageOfficials.who(), "the administrator");
    }

    #[test]
    fn role_names_read_back() {
        for role in [Scorer, Referee, Organiser] {
            assert_eq!(parse_role(role_name(role)), Ok(role));
        }
        let refused = parse_role("admin").unwrap_err();
        assert_eq!(refused.kind, crate::app::error::ErrorKind::BadRequest);
        assert_eq!(
            refused.message,
            "`admin` is not a role (referee, scorer, organiser)"
        );
    }
}
