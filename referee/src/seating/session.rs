//! Seating a tournament's next session from its registered players: which plan the session
//! continues, who fills a withdrawn player's place, and the tables it seats (issue 14).
//!
//! The rules (stated here, in the service's `commands::session` and in the README):
//!
//! - **A seating is a run of a plan.** A plan is made for the sessions that remain, from a
//!   method, a seed and the players present numbered in registration order; each session takes
//!   the plan's next session, so a no-repeat plan made for five sessions is kept for all five,
//!   and Swiss and progressive seat each session from the results of the run so far.
//! - **Substitutes.** In a continuing plan a withdrawn player's place is taken, for the
//!   session, by the first substitute not already seated, in registration order, so no one
//!   else's seating changes.
//! - **Rebalancing.** When there are not enough substitutes, when players were registered
//!   since the plan was made, when the plan is used up or another method is chosen, a new plan
//!   is made over the players present for the sessions that remain.
//! - **Tables seat four** at a tournament: a count not divisible by four is seated with byes
//!   (the players left over sit out the session, in turn); the progressive game, which moves two
//!   players on from every table, needs full tables.
//!
//! Pure: the caller reads the roster, the last session's seating and the results from the
//! ledger, and records what [`seat`] decides (`SessionOpened` with its `SessionSeating`, then
//! each table).

use crate::event::{SessionSeating, Substitution};
use crate::ids::PlayerId;

use super::{plan, Method, PlanRequest, Remainder, SeatingError, SeatingProblem};

/// The tournament's players as they stand before the session.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Roster {
    /// Players who may play (not substitutes, not voided, not withdrawn), in registration order.
    pub present: Vec<PlayerId>,
    /// Substitutes who may sit, in registration order.
    pub substitutes: Vec<PlayerId>,
}

/// The session last opened, and how it was seated.
#[derive(Clone, Copy, Debug)]
pub struct Previous<'a> {
    pub session: u32,
    pub seating: &'a SessionSeating,
}

/// The run of a plan the next session belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    pub method: Method,
    pub seed: u64,
    /// The players as the plan numbers them (plan player `k` is `players[k - 1]`).
    pub players: Vec<PlayerId>,
    /// How many sessions the plan is for, and this session's place in it (from 1).
    pub plan_sessions: u32,
    pub plan_session: u32,
    /// The tournament's sessions this run has already seated (empty for a new plan): whose
    /// results Swiss and progressive take, oldest first.
    pub played: Vec<u32>,
}

/// What was asked for the next session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    /// The session's number in the tournament.
    pub session: u32,
    pub method: Method,
    /// The seed for a new plan (a continuing plan keeps its own).
    pub seed: u64,
    /// How many sessions the event has in all, when a new plan is made; absent, the last
    /// plan's, or just this one.
    pub event_sessions: Option<u32>,
}

/// The most sessions one plan may hold (a tournament may have more, planned again).
pub const MAX_EVENT_SESSIONS: u32 = 100;

/// The run the next session continues, or a new one over the players present.
///
/// A new Swiss plan made after the first session is seated from the standings so far: its
/// run counts every earlier session as played (their results, by the new numbering, are the
/// caller's to give: a player absent from a session scored nothing in it), so the session
/// seats players of similar standing together rather than at random. A new progressive plan
/// starts afresh with a shuffle: its tables move on from the run's own tables, which a new
/// numbering does not have. A new no-repeat plan knows nothing of earlier meetings.
pub fn run(
    request: &Request,
    previous: Option<Previous<'_>>,
    roster: &Roster,
) -> Result<Run, SeatingError> {
    if let Some(run) = previous.and_then(|p| continuation(request, p, roster)) {
        return Ok(run);
    }
    let total = match (request.event_sessions, previous) {
        (Some(total), _) => total,
        (None, Some(p)) => plan_end(p).max(request.session),
        (None, None) => request.session,
    };
    if total < request.session {
        return Err(SeatingError {
            problems: vec![SeatingProblem::EventTooShort {
                sessions: total,
                session: request.session,
            }],
        });
    }
    let remaining = total - request.session + 1;
    // Swiss replays the event from its first session, taking every earlier one as played.
    let history = if request.method == Method::Swiss {
        request.session - 1
    } else {
        0
    };
    let planned = remaining.saturating_add(history);
    if planned > MAX_EVENT_SESSIONS {
        return Err(SeatingError {
            problems: vec![SeatingProblem::TooManySessions {
                sessions: u64::from(planned),
                most: u64::from(MAX_EVENT_SESSIONS),
            }],
        });
    }
    Ok(Run {
        method: request.method,
        seed: request.seed,
        players: roster.present.clone(),
        plan_sessions: planned,
        plan_session: history + 1,
        played: (1..=history).collect(),
    })
}

/// The event's last session by the plan `previous` was seated from.
fn plan_end(previous: Previous<'_>) -> u32 {
    previous
        .session
        .saturating_add(previous.seating.plan_sessions)
        .saturating_sub(previous.seating.plan_session)
}

/// The run the last session's seating continues into the next, if it can: the same method,
/// the plan not used up, no player registered since, and a substitute for every numbered
/// player who is no longer present.
fn continuation(request: &Request, previous: Previous<'_>, roster: &Roster) -> Option<Run> {
    let seating = previous.seating;
    let same_method = seating.method.parse::<Method>().ok()? == request.method;
    let room = seating.plan_session < seating.plan_sessions;
    let newcomers = roster.present.iter().any(|p| !seating.players.contains(p));
    let missing = seating
        .players
        .iter()
        .filter(|p| !roster.present.contains(p))
        .count();
    // An event made longer or shorter is planned again for its sessions that remain.
    let same_length = request
        .event_sessions
        .is_none_or(|t| t == plan_end(previous));
    if !same_method || !room || newcomers || !same_length || missing > roster.substitutes.len() {
        return None;
    }
    let first = previous
        .session
        .saturating_add(1)
        .saturating_sub(seating.plan_session)
        .max(1);
    Some(Run {
        method: request.method,
        seed: seating.seed,
        players: seating.players.clone(),
        plan_sessions: seating.plan_sessions,
        plan_session: seating.plan_session + 1,
        played: (first..=previous.session).collect(),
    })
}

/// The remainder policy at tournament tables, which seat four: tables of four alone when
/// `players` allows, else byes.
pub fn remainder_for(players: u64) -> Remainder {
    if players.is_multiple_of(4) {
        Remainder::Fewest
    } else {
        Remainder::Byes
    }
}

/// A session seated: how (for its `SessionOpened`), and its tables, each four players in
/// seat order East, South, West, North.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seated {
    pub seating: SessionSeating,
    pub tables: Vec<[PlayerId; 4]>,
}

/// Seats the run's session. `results[s][k]`: the net of the place numbered `k + 1` in the
/// run's played session `s` (the substitute's net, for a place he filled; 0 for a bye), as
/// Swiss and progressive need; empty for the other methods.
pub fn seat(run: &Run, roster: &Roster, results: Vec<Vec<i64>>) -> Result<Seated, SeatingError> {
    let n = run.players.len() as u64;
    let remainder = remainder_for(n);
    let request = PlanRequest {
        players: n,
        sessions: u64::from(run.plan_sessions),
        method: run.method,
        remainder,
        seed: run.seed,
        results: if run.method.needs_results() {
            results
        } else {
            Vec::new()
        },
    };
    let plan = plan(&request)?;
    let planned = plan
        .sessions()
        .get(run.plan_session as usize - 1)
        .ok_or_else(|| SeatingError {
            problems: vec![SeatingProblem::TooManyResults {
                results: run.played.len(),
                sessions: u64::from(run.plan_sessions),
            }],
        })?;
    // Who sits in each numbered place: the player, or a substitute for one no longer present.
    let mut free = roster.substitutes.iter();
    let mut substitutions = Vec::new();
    let mut sitters = Vec::with_capacity(run.players.len());
    for p in &run.players {
        if roster.present.contains(p) {
            sitters.push(p.clone());
        } else {
            let sub = free.next().ok_or_else(|| SeatingError {
                problems: vec![SeatingProblem::NoSubstitute { player: p.clone() }],
            })?;
            substitutions.push(Substitution {
                withdrawn: p.clone(),
                substitute: sub.clone(),
            });
            sitters.push(sub.clone());
        }
    }
    let place = |p: &super::Player| sitters[p.index()].clone();
    let mut tables = Vec::with_capacity(planned.tables.len());
    for t in &planned.tables {
        let four: [PlayerId; 4] = match t.as_slice() {
            [e, s, w, n] => [place(e), place(s), place(w), place(n)],
            _ => {
                return Err(SeatingError {
                    problems: vec![SeatingProblem::NoTables {
                        players: n,
                        remainder,
                        why: format!(
                            "a table of {} players; a tournament table seats four",
                            t.len()
                        ),
                    }],
                })
            }
        };
        tables.push(four);
    }
    Ok(Seated {
        seating: SessionSeating {
            method: run.method.name().to_owned(),
            seed: run.seed,
            remainder: remainder.name().to_owned(),
            players: run.players.clone(),
            plan_sessions: run.plan_sessions,
            plan_session: run.plan_session,
            repeats: plan.meetings().repeats,
            byes: planned.byes.iter().map(place).collect(),
            substitutions,
        },
        tables,
    })
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use quickcheck::quickcheck;

    use super::*;

    fn ids(prefix: &str, n: usize) -> Vec<PlayerId> {
        (1..=n)
            .map(|i| PlayerId::new(&format!("{prefix}{i}")).unwrap())
            .collect()
    }

    fn roster(players: usize, substitutes: usize) -> Roster {
        Roster {
            present: ids("p", players),
            substitutes: ids("s", substitutes),
        }
    }

    fn request(session: u32, method: Method) -> Request {
        Request {
            session,
            method,
            seed: 7,
            event_sessions: Some(5),
        }
    }

    fn first(roster: &Roster, method: Method) -> Seated {
        let run = run(&request(1, method), None, roster).unwrap();
        seat(&run, roster, Vec::new()).unwrap()
    }

    #[test]
    fn a_plan_is_kept_session_by_session() {
        let roster = roster(16, 0);
        let one = first(&roster, Method::NoRepeat);
        assert_eq!(
            (one.seating.plan_session, one.seating.plan_sessions),
            (1, 5)
        );
        let previous = Previous {
            session: 1,
            seating: &one.seating,
        };
        let next = run(&request(2, Method::NoRepeat), Some(previous), &roster).unwrap();
        assert_eq!(
            (next.plan_session, next.plan_sessions, next.seed),
            (2, 5, 7)
        );
        assert_eq!(next.played, [1]);
        let two = seat(&next, &roster, Vec::new()).unwrap();
        // 16 players over 5 sessions have a perfect plan: nobody met in session 1 meets again.
        let met: HashSet<(PlayerId, PlayerId)> = pairs(&one.tables);
        assert!(pairs(&two.tables).is_disjoint(&met));
    }

    fn pairs(tables: &[[PlayerId; 4]]) -> HashSet<(PlayerId, PlayerId)> {
        let mut out = HashSet::new();
        for t in tables {
            for (i, a) in t.iter().enumerate() {
                for b in &t[i + 1..] {
                    out.insert((a.clone().min(b.clone()), a.clone().max(b.clone())));
                }
            }
        }
        out
    }

    #[test]
    fn a_substitute_fills_a_withdrawn_place_and_without_one_the_tables_are_rebalanced() {
        let mut roster = roster(8, 1);
        let one = first(&roster, Method::NoRepeat);
        let previous = Previous {
            session: 1,
            seating: &one.seating,
        };
        let gone = roster.present.remove(2);
        let next = run(&request(2, Method::NoRepeat), Some(previous), &roster).unwrap();
        let two = seat(&next, &roster, Vec::new()).unwrap();
        assert_eq!(
            two.seating.substitutions,
            [Substitution {
                withdrawn: gone.clone(),
                substitute: roster.substitutes[0].clone()
            }]
        );
        assert!(two.tables.iter().flatten().all(|p| *p != gone));
        // A second withdrawal and no second substitute: a new plan over the six present.
        roster.present.remove(0);
        let previous = Previous {
            session: 2,
            seating: &two.seating,
        };
        let three = run(&request(3, Method::NoRepeat), Some(previous), &roster).unwrap();
        assert_eq!((three.plan_session, three.plan_sessions), (1, 3));
        assert_eq!(three.players, roster.present);
        let seated = seat(&three, &roster, Vec::new()).unwrap();
        assert_eq!(seated.tables.len(), 1);
        assert_eq!(
            seated.seating.byes.len(),
            2,
            "six players: one table, two sit out"
        );
    }

    #[test]
    fn a_newcomer_or_another_method_makes_a_new_plan() {
        let mut roster = roster(8, 0);
        let one = first(&roster, Method::NoRepeat);
        let previous = Previous {
            session: 1,
            seating: &one.seating,
        };
        // Another method: a new plan (Swiss's replays the event, session 1 as played).
        let random = run(&request(2, Method::Random), Some(previous), &roster).unwrap();
        assert_eq!((random.plan_session, random.seed), (1, 7));
        assert_ne!(random.method, Method::NoRepeat);
        roster.present.push(PlayerId::new("late").unwrap());
        let late = run(&request(2, Method::NoRepeat), Some(previous), &roster).unwrap();
        assert_eq!((late.plan_session, late.players.len()), (1, 9));
    }

    #[test]
    fn a_new_swiss_plan_after_the_first_session_follows_the_standings() {
        let roster = roster(8, 0);
        let one = first(&roster, Method::Random);
        let previous = Previous {
            session: 1,
            seating: &one.seating,
        };
        let swiss = run(&request(2, Method::Swiss), Some(previous), &roster).unwrap();
        assert_eq!((swiss.plan_session, swiss.plan_sessions), (2, 5));
        assert_eq!(swiss.played, [1]);
        // p1–p4 won, p5–p8 lost: Swiss seats the winners together.
        let nets = vec![(0..8)
            .map(|i| if i < 4 { 30 - i } else { -30 + i })
            .collect()];
        let two = seat(&swiss, &roster, nets).unwrap();
        let top: HashSet<PlayerId> = roster.present[..4].iter().cloned().collect();
        assert!(two
            .tables
            .iter()
            .any(|t| t.iter().cloned().collect::<HashSet<_>>() == top));
    }

    #[test]
    fn an_event_made_longer_is_planned_again() {
        let roster = roster(8, 0);
        let one = first(&roster, Method::NoRepeat);
        let previous = Previous {
            session: 1,
            seating: &one.seating,
        };
        let longer = Request {
            event_sessions: Some(7),
            ..request(2, Method::NoRepeat)
        };
        let run2 = run(&longer, Some(previous), &roster).unwrap();
        assert_eq!((run2.plan_session, run2.plan_sessions), (1, 6));
        let same = run(&request(2, Method::NoRepeat), Some(previous), &roster).unwrap();
        assert_eq!((same.plan_session, same.plan_sessions), (2, 5));
        // A weekly league may pass a hundred sessions: only the plan is bounded.
        let late = Request {
            session: 150,
            event_sessions: Some(152),
            ..request(150, Method::Random)
        };
        assert_eq!(run(&late, None, &roster).unwrap().plan_sessions, 3);
    }

    #[test]
    fn an_event_shorter_than_its_sessions_is_refused() {
        let roster = roster(8, 0);
        let r = Request {
            event_sessions: Some(2),
            ..request(3, Method::Random)
        };
        assert!(run(&r, None, &roster).is_err());
    }

    quickcheck! {
        /// Every player present or filling a place sits once; nobody withdrawn sits; a seed
        /// gives the same seating.
        fn everyone_present_sits_once(players: u8, withdrawn: u8, subs: u8, seed: u64) -> bool {
            let n = usize::from(players % 40) + 4;
            let mut roster = Roster { present: ids("p", n), substitutes: ids("s", usize::from(subs % 4)) };
            // Random plans: the property is of the seating, not of the plan's quality.
            let r = Request { seed, ..request(1, Method::Random) };
            let Ok(run1) = run(&r, None, &roster) else { return false };
            let Ok(one) = seat(&run1, &roster, Vec::new()) else { return false };
            let gone: Vec<PlayerId> = roster.present.iter().take(usize::from(withdrawn % 3)).cloned().collect();
            roster.present.retain(|p| !gone.contains(p));
            let previous = Previous { session: 1, seating: &one.seating };
            let r2 = Request { seed, ..request(2, Method::Random) };
            let Ok(run2) = run(&r2, Some(previous), &roster) else { return false };
            let Ok(two) = seat(&run2, &roster, Vec::new()) else { return roster.present.len() < 4 };
            let again = seat(&run2, &roster, Vec::new()).ok();
            let seated: Vec<&PlayerId> = two.tables.iter().flatten().chain(&two.seating.byes).collect();
            let unique: HashSet<&PlayerId> = seated.iter().copied().collect();
            unique.len() == seated.len()
                && seated.iter().all(|p| !gone.contains(p))
                && roster.present.iter().all(|p| unique.contains(p))
                && again.as_ref() == Some(&two)
        }
    }
}
