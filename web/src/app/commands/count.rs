//! A player's own count of his hand (Code §110), recorded on a settled hand. The table decides
//! what it does to the settlement (`referee::table::TableCommand::Count`); this module turns
//! a form or a JSON body into the command and stores what the table decides.

use ledger::{Ledger, StreamId};
use referee::event::ScoreClaimed;
use referee::table::TableCommand;
use referee::Seat;
use serde::Deserialize;

use super::hand::{hand_at, store_with_ids, unchanged_since};
use crate::app::accounts::roles::Action;
use crate::app::accounts::viewer::Official;
use crate::app::error::AppError;

/// Record a player's own count of his hand.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordCount {
    /// The hand stream's version the count was written against.
    pub version: u64,
    pub seat: Seat,
    pub points: i64,
    /// The scoring elements he named, in his words.
    #[serde(default)]
    pub elements: Vec<String>,
}

/// Records `cmd` on hand `hand`; returns the hand's stream.
pub fn record(
    ledger: &mut Ledger,
    hand: &str,
    by: &Official,
    cmd: &RecordCount,
) -> Result<StreamId, AppError> {
    by.require_role(Action::RecordHand)?;
    let (stream, key, ctx) = hand_at(ledger, hand, false)?;
    unchanged_since(ledger, &stream, cmd.version, "recording a count")?;
    ctx.state.may_count()?;
    let decided = ctx.state.decide(
        &ctx.conditions,
        &TableCommand::Count {
            hand: key,
            count: ScoreClaimed {
                seat: cmd.seat,
                points: cmd.points,
                elements: cmd.elements.clone(),
            },
        },
    )?;
    store_with_ids(ledger, &ctx, &stream, cmd.version, decided, by)?;
    Ok(stream)
}
