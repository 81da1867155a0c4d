//! Adjudication: what a referee must rule on, derived from the replayed play.
//!
//! The play ([`crate::play`]) says what happened and flags each event that broke a rule of
//! play, with the seat that broke it and which rule ([`crate::play::Breach`]). Some rulings need
//! more than one event: whether a discard "let off a cannon" depends on what the dangerous
//! player had displayed when it was made, who claimed it and for what, and how the hand ended,
//! possibly many turns later (Code §90–96). A [`Replay`] is the play with its watchers
//! ([`CannonWatch`], [`Notes`]): each event goes to the play, and the watchers look at the state
//! before and after it, so the findings are there at any moment; [`report`] says what the hand
//! comes to (its report to score and settle, with the penalties its play brings).
//!
//! [`findings`] lists everything a replayed hand gives the referee to rule on, each a typed
//! [`Finding`] with the events it rests on, the seat concerned, the sections it cites, what the
//! Code says follows, and its reasoning in plain words:
//! - a cannon let off, or excused by No Choice (§90–96: [`cannon`]); where the ruleset plays
//!   Babcock's insurance penalties or Harr's penalty 2, the book's finding in its place
//!   ([`insurance`]);
//! - a false call of Mah-Jongg (§82), with two or three false callers on one discard (§83),
//!   or a call by a player who could not make one (§55(b), §89(b)) ([`false_call`]);
//! - each event that broke a rule of play (§31–81, §95: [`irregular`]);
//! - a claim withdrawn (§69–71, §76: [`retraction`]);
//! - a discard falsely named, with the claims of the tile named and the penalty (§84–88:
//!   [`false_naming`]);
//! - an Original Call broken (§55: [`original_call`]);
//! - a long, short or foul hand (§89: [`incorrect_hand`]);
//! - a hand laid down in an arrangement that undervalues it (§104–105), and a player's own
//!   count above or below his hand's value (§110) ([`own_count`]).
//!
//! Where the Code is silent or ambiguous, the reading chosen is written beside the rule it
//! reads ("Interpretation: …", in each module). The points a close reading finds, and where
//! each is decided:
//!
//! | point | reading | where, pinned by |
//! |---|---|---|
//! | a second dangerous discard pleaded as No Choice (§93 with §95) | it still frees the first: §93 looks at which discard the hand was completed with; the plea then excuses the second | [`cannon`] (`CannonWatch::cannon`) |
//! | a false and a genuine Mah-Jongg on the same discard (§82 with §61, §71) | the discard goes to the claim with precedence; a false caller who takes up his hand gives it back, dead but for another player's claim, so the genuine call takes it and no penalty falls | [`false_call`], `false_call_tests::a_genuine_mah_jongg_takes_the_discard_a_false_caller_gave_back` |
//! | who is East after two or three false callers (§83, silent) | §82's rule for each caller: the title passes if any false caller (or, §87(b), the false namer or claimant) was East, else East keeps it | [`crate::settle::Penalty::abandons_hand`], `table::position` tests, `false_call_tests::a_co_offender_who_was_east_gives_up_the_title` |
//! | a rival claimant of the falsely called discard who shows his hand (§83 "the other players … lay down") | he presses his own claim and abandons nothing; only a seat that did not claim the discard for Mah-Jongg abandons the hand by laying down; a genuine rival is no offender, and a false rival behind a genuine call is not penalised | [`false_call`], `false_call_tests::two_false_callers_*` |
//! | the last live tile a bonus tile while the previous discard is claimed (§98 with §64) | §64's claim over the draw stands until the drawer declares the bonus tile (the tile goes back); once declared, §98's wash-out | `play::apply` (`drawn_over`), the replay's wash-out on an empty wall |
//! | whether a long hand's payments to East double (§89(c) with §109) | they double: §89(c) settles as §109 with the long hand scoring nothing | [`incorrect_hand`] |
//! | a Mah-Jongg barred by a broken Original Call (§55(b) with §82) | ruled as a false call | [`false_call`], [`original_call`] |
//! | declaring a concealed kong after an Original Call (§55) | it alters the hand: the call is broken | [`original_call`] |
//! | an undervalued own count pointed out (§110: "shall reimburse the other players for whatever loss they sustain") | the count stands in the settlement until a referee overrules the `undervalued` finding; the ruling then settles the hand's value and orders the reimbursement as an agreed payment | [`own_count`], `own_count_tests` |
//! | a pung or kong claimant discarding before laying his set down (§41 gives the leave to a chow only) | flagged (`discard-before-laying-down`), and play goes on as after a chow: the set stays owed until his next draw or claim | `play::apply::discard`, `turn_tests::a_pung_discarded_before_it_is_laid_down_is_flagged_and_play_goes_on` |
//! | where a claimed tile goes when its set is never laid down (§78) | at the claimant's next draw or claim it joins his concealed hand, which is foul; play goes on and the hand is settled (the set he failed to expose is not struck from his count: the replay has no set to strike, a referee may) | `play::apply::claim::never_laid_down`, `turn_tests::a_set_never_laid_down_makes_the_hand_foul_and_the_hand_is_settled_section_78` |
//! | a discard made without the loose tile owed (§80) | the discard is the seat's in turn, flagged (`replacement-not-drawn`); the hand is found short at that discard; the kong stays and scores | `play::apply::discard`, `turn_tests::a_kong_without_its_loose_tile_plays_on_short_and_keeps_its_kong_section_80` |
//! | how long a plea of No Choice is in time (§95(b) "immediately, before his next draw … and before claiming any subsequent discard") | from the claim of the discard until the discarder's next draw or claim, other players' turns between notwithstanding; a later plea is flagged and excuses nothing | `play::PlayState::no_choice_in_time`, `turn_tests::no_choice_pleaded_before_the_next_draw_excuses_and_after_it_does_not_section_95b` |
//! | a robbing that does not stand (§58; a ruleset without robbing) | the robber takes up his hand and the call of Mah-Jongg with it, without penalty (the Code names none); the kong stays and its owner draws his loose tile | `play::apply::kong::robbed`, `turn_tests::a_robbing_that_does_not_stand_is_taken_up_and_play_goes_on_section_58` |
//! | a claim over a draw, or a robbing over a loose tile, whose tile completes the drawer's hand (§60, §64) | the claim is forfeited (`claim-forfeited`) and changes nothing; the replay takes a drawn tile as not yet in the hand (naming it, §60, §63–64, is not recorded) | `play::apply::claim::reopen`, `turn_tests::a_claim_after_the_next_draw_is_forfeited_*`, `turn_tests::a_kong_may_be_robbed_after_its_loose_tile_*` |
//! | the first of two Mah-Jongg claimants claiming after the second went out (§65) | the second's call is undone as a take-up is (§82) and the claims on the discard open again with both, for the grant; the first renounced it only by drawing over the discard (§64) | `play::Play::prior_claim`, `turn_tests::the_first_in_order_of_two_mah_jongg_claimants_*` |
//! | two tiles discarded together and claimed (§75) | the grant decides which is the discard; the other goes back into the discarder's hand; a grant other than among the claims of the tile claimed by the next in order is flagged as against precedence | `play::Window::weighed`, `turn_tests::of_two_tiles_discarded_together_*` |
//! | the set a called chow displays (§91 for §90(a)) | the chow its held tiles make, or when they are unseen one of its suit: all §90(a) asks of it; for the other signals only once laid down | `watch::called_set`, `turn_tests::a_chow_counts_as_displayed_from_its_call_for_the_one_suit_signal_section_91` |
//! | a kong from the hand straight after claiming a discard (§48, §51) | flagged as a kong out of turn, for the referee to rule whether it stands; never offered as a legal move | `play::PlayState::turn_by_claim`, `turn_tests::no_kong_from_the_hand_straight_after_claiming_a_discard_sections_48_51` |
//! | when a kong is "unmarked" (§52: "once he has discarded he may not remedy the omission") | the record states the fact as it stood at the declarer's discard (`KongDeclared.unmarked`); a concealed kong so left scores as exposed; an annexed kong left unmarked is not modelled | `play::apply::kong`, `turn_tests::a_concealed_kong_left_unmarked_scores_as_exposed_section_52` |
//! | a special limit hand's own count with the roof off (§121) | what needs no set counts: the points for Mah-Jongg and for the tile's source, the bonus tiles and their doubles (§116), the doubles of §117; its pair is not a set and scores no pair points | `score::evaluate::Context::counts_in_special`, `tests/scoring_code.rs` |
//! | others claiming a discard returned from a hand (§81) | §81 bars only the offender from using it: returned (`S:return 5p`, a `DiscardReturned` event) it lies on the table as before — the live discard again if nothing was discarded since, the offender then drawing in his turn — and the others may claim it | [`irregular`], `turn_tests::a_discard_taken_into_the_hand_is_returned_when_demanded_section_81` |

pub mod cannon;
pub mod danger;
pub mod false_call;
#[cfg(test)]
mod false_call_tests;
pub mod false_naming;
pub mod incorrect_hand;
#[cfg(test)]
mod incorrect_hand_tests;
pub mod insurance;
#[cfg(test)]
mod insurance_tests;
pub mod irregular;
#[cfg(test)]
mod irregular_tests;
pub mod notes;
pub mod original_call;
pub mod own_count;
#[cfg(test)]
mod own_count_tests;
pub mod own_hand;
pub mod replay;
pub mod report;
pub mod retraction;
#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod turn_tests;
pub mod watch;

pub use cannon::{cannon_reading, Cannon};
pub use danger::{Book, CannonReading, Danger, NoChoice, Signal};
pub use false_call::{CallBars, FalseCall};
pub use false_naming::{FalseNaming, NamedClaim};
pub use incorrect_hand::{long_hand_payments, Count, Fault, FoulSet, IncorrectHand};
pub use insurance::{Exemption, Insurance, Insured};
pub use irregular::Irregular;
pub use notes::{Barred, Notes, OwnCount};
pub use original_call::{Alteration, BrokenCall};
pub use own_count::{Arrangement, Miscount};
pub use own_hand::{OwnHand, Rank};
pub use replay::{Replay, Replayed};
pub use report::{report, report_as_played, settle};
pub use retraction::Retraction;
pub use watch::CannonWatch;

use crate::play::Breach;
use crate::Seat;

/// One thing a referee must rule on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// A discard that let off a cannon (Code §90–96), or that did but for a plea of No Choice
    /// that stands (§95).
    Cannon(Cannon),
    /// A dangerous discard charged, or exempt, under Babcock's insurance penalties (pp. 75–79)
    /// or Harr's penalty 2 (pp. 68–70), where the ruleset plays them.
    Insurance(Insurance),
    /// A call of Mah-Jongg on a hand that is not complete (Code §82), or by a player who could
    /// not make one (§55(b), §89(b)).
    FalseMahJongg(FalseCall),
    /// An event that broke a rule of play, as the replay flagged it (a draw or discard out of
    /// turn, a claim granted against precedence, a bonus tile declared late …).
    Irregular(Irregular),
    /// A claim of a discard withdrawn (Code §69–71, §76).
    Retraction(Retraction),
    /// A discard falsely named, and the claims of the tile named (Code §84–88).
    FalseNaming(FalseNaming),
    /// An Original Call broken by altering the hand (Code §55(b)).
    BrokenOriginalCall(BrokenCall),
    /// A long, short or foul hand (Code §89).
    IncorrectHand(IncorrectHand),
    /// A player's own count of his hand above or below its value (Code §110).
    Miscount(Miscount),
    /// A hand laid down in an arrangement that scores less than its best (Code §104–105).
    Arrangement(Arrangement),
}

impl Finding {
    /// Its kind, as `adjudicate --json` names it: `cannon`, `no-choice-excused`, `insurance`,
    /// `insurance-exempt`, `harr-penalty`, `harr-penalty-exempt`, `false-mah-jongg`, one of the irregular kinds ([`Breach::kind`]), `retraction`,
    /// `false-naming`, `broken-original-call`, `long-hand`, `short-hand`, `foul-hand`,
    /// `overscored`, `undervalued`, `arrangement-undervalues`, …
    pub fn kind(&self) -> &'static str {
        match self {
            Finding::Cannon(c) => c.kind(),
            Finding::Insurance(i) => i.kind(),
            Finding::FalseMahJongg(f) => f.kind(),
            Finding::Irregular(i) => i.kind(),
            Finding::Retraction(_) => "retraction",
            Finding::FalseNaming(_) => "false-naming",
            Finding::BrokenOriginalCall(_) => "broken-original-call",
            Finding::IncorrectHand(h) => h.kind(),
            Finding::Miscount(m) => m.kind(),
            Finding::Arrangement(_) => "arrangement-undervalues",
        }
    }

    /// The player whose act it concerns, when the finding names one.
    pub fn offender(&self) -> Option<Seat> {
        match self {
            Finding::Cannon(c) => Some(c.discarder),
            Finding::Insurance(i) => Some(i.first.discarder),
            Finding::FalseMahJongg(f) => Some(f.caller),
            Finding::Irregular(i) => i.offender(),
            Finding::Retraction(r) => Some(r.seat),
            Finding::FalseNaming(f) => Some(f.discarder),
            Finding::BrokenOriginalCall(b) => Some(b.seat),
            Finding::IncorrectHand(h) => Some(h.seat),
            Finding::Miscount(m) => Some(m.seat),
            Finding::Arrangement(a) => Some(a.seat),
        }
    }

    /// The event it is about: the dangerous discard, the call, the irregular event, the
    /// retraction, the falsely named discard, the alteration, the event the hand was found
    /// incorrect at.
    pub fn event(&self) -> usize {
        match self {
            Finding::Cannon(c) => c.event,
            Finding::Insurance(i) => i.first.event,
            Finding::FalseMahJongg(f) => f.event,
            Finding::Irregular(i) => i.event,
            Finding::Retraction(r) => r.event,
            Finding::FalseNaming(f) => f.event,
            Finding::BrokenOriginalCall(b) => b.event,
            Finding::IncorrectHand(h) => h.event,
            Finding::Miscount(m) => m.event,
            Finding::Arrangement(a) => a.event,
        }
    }

    /// The events it rests on (the hand's start is event 0).
    pub fn events(&self) -> Vec<usize> {
        match self {
            Finding::Cannon(c) => {
                let mut out = c.freed.clone();
                out.push(c.event);
                out
            }
            Finding::Insurance(i) => i.discards().map(|d| d.event).collect(),
            Finding::FalseMahJongg(f) => f.events(),
            Finding::Irregular(i) => vec![i.event],
            Finding::Retraction(r) => vec![r.event],
            Finding::FalseNaming(f) => f.events(),
            Finding::BrokenOriginalCall(b) => vec![b.called, b.event],
            Finding::IncorrectHand(h) => h.events(),
            Finding::Miscount(m) => vec![m.event],
            Finding::Arrangement(a) => vec![a.event],
        }
    }

    /// The sections it cites.
    pub fn citations(&self) -> Vec<&'static str> {
        match self {
            Finding::Cannon(c) => c.citations(),
            Finding::Insurance(i) => i.citations(),
            Finding::FalseMahJongg(f) => f.citations(),
            Finding::Irregular(i) => i.citations(),
            Finding::Retraction(r) => r.citations(),
            Finding::FalseNaming(f) => f.citations(),
            Finding::BrokenOriginalCall(b) => b.citations(),
            Finding::IncorrectHand(h) => h.citations(),
            Finding::Miscount(_) => vec!["Code §110"],
            Finding::Arrangement(_) => vec!["Code §104", "Code §105"],
        }
    }

    /// The penalty it brings, priced by the ruleset, if any.
    pub fn penalty(&self) -> Option<crate::settle::Penalty<Seat>> {
        match self {
            Finding::Cannon(c) => c.penalty(),
            Finding::Insurance(i) => i.penalty(),
            Finding::FalseMahJongg(f) => f.penalty(),
            Finding::FalseNaming(f) => f.penalty(),
            Finding::Miscount(m) => m.penalty(),
            // §89(c): the long hand scores nothing and pays the others in full.
            Finding::IncorrectHand(h) if h.fault == incorrect_hand::Fault::Long => {
                Some(crate::settle::Penalty::LongHand { seat: h.seat })
            }
            _ => None,
        }
    }
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Finding::Cannon(c) => c.fmt(f),
            Finding::Insurance(i) => i.fmt(f),
            Finding::FalseMahJongg(x) => x.fmt(f),
            Finding::Irregular(i) => i.fmt(f),
            Finding::Retraction(r) => r.fmt(f),
            Finding::FalseNaming(x) => x.fmt(f),
            Finding::BrokenOriginalCall(b) => b.fmt(f),
            Finding::IncorrectHand(h) => h.fmt(f),
            Finding::Miscount(m) => m.fmt(f),
            Finding::Arrangement(a) => a.fmt(f),
        }
    }
}

/// Every finding of a replayed hand under `rules`, in the order of the events they rest on.
pub fn findings(replayed: &Replayed, rules: &crate::Ruleset) -> Vec<Finding> {
    let replay = &replayed.replay;
    let notes = replay.notes();
    let mut out: Vec<Finding> = replayed
        .irregular
        .iter()
        // A false naming is one finding with its claims (below), not one per event.
        .filter(|(_, i)| {
            !matches!(
                i.breach,
                Breach::FalselyNamed { .. } | Breach::NamedTileClaimed { .. }
            )
        })
        .map(|(event, irregularity)| {
            Finding::Irregular(Irregular {
                event: *event,
                irregularity: irregularity.clone(),
            })
        })
        .collect();
    out.extend(notes.retractions.iter().cloned().map(Finding::Retraction));
    out.extend(notes.namings.iter().cloned().map(Finding::FalseNaming));
    out.extend(
        notes
            .broken_calls
            .iter()
            .cloned()
            .map(Finding::BrokenOriginalCall),
    );
    out.extend(notes.incorrect.iter().cloned().map(Finding::IncorrectHand));
    let (false_calls, standing) = replay.false_calls_and_standing(rules);
    // A false call is no Mah-Jongg: no cannon was let off by it.
    // A hand abandoned for a false call is not scored: no own count or arrangement is judged.
    let facts = match standing {
        Some(_) => None,
        None => {
            out.extend(replay.dangerous_discard());
            let long = report::long_hands(replay);
            replay.state().facts_leaving_out(&long)
        }
    };
    out.extend(false_calls.into_iter().map(Finding::FalseMahJongg));
    let (miscounts, arrangements) = own_count::judge(replay, facts, rules);
    out.extend(miscounts.into_iter().map(Finding::Miscount));
    out.extend(arrangements.into_iter().map(Finding::Arrangement));
    out.sort_by_key(Finding::event);
    out
}
