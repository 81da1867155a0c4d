//! The audit's re-decision of a whole ledger, and its words (the whole report for officials
//! and the command line, a summary for the public).

use ledger::StreamKind;

use super::{Recorded, Redecider};

/// The audit's re-decision: every event of `ledger` but its accounts and checkpoints decided
/// again, in the order recorded, from nothing — each recorder an official, with the role, on
/// the day. A ledger that holds history the service would have refused fails here even when
/// its hash chain is consistent. Every problem, each as "<stream> version <v>: why".
pub fn audit(ledger: &ledger::Ledger) -> ledger::Result<Vec<String>> {
    let mut redecider = Redecider {
        command_line: true,
        ..Redecider::default()
    };
    let mut fresh = Vec::new();
    let replayed = ledger.replay(|e| {
        let position = e.position;
        let recorded = Recorded::from(e);
        match recorded.stream.kind() {
            StreamKind::Accounts => {
                let _ = redecider.fold(position, &recorded);
            }
            StreamKind::Ledger => {}
            _ => fresh.push(recorded),
        }
    });
    match replayed {
        Ok(_) => Ok(redecider.decide(&fresh)),
        // A broken chain is the chain audit's to report, with where; deciding what follows the
        // break would only repeat it.
        Err(ledger::Error::Corrupt { .. }) => {
            let mut problems = redecider.decide(&fresh);
            problems.push(format!(
                "decided again only up to a broken chain ({} events): the audit names where it breaks",
                fresh.len()
            ));
            Ok(problems)
        }
        Err(e) => Err(e),
    }
}

/// [`report`] without the events named: how many the service would have refused (what the
/// public reads).
pub fn summary(refused: &[String]) -> String {
    if refused.is_empty() {
        report(refused)
    } else {
        format!(
            "re-decided: {} event(s) the service would have refused (officials see which)",
            refused.len()
        )
    }
}

/// The audit's re-decision in words: a line when every event stands, else one per event the
/// service would have refused.
pub fn report(refused: &[String]) -> String {
    if refused.is_empty() {
        return "re-decided: every event is what the service would have recorded".to_owned();
    }
    let mut out = format!(
        "re-decided: {} event(s) the service would have refused:",
        refused.len()
    );
    for r in refused {
        out.push_str("\n  ");
        out.push_str(r);
    }
    out
}
