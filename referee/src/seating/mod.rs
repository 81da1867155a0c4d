//! Seating a club tournament: which players share a table in each session, and in which chair.
//!
//! Issue 14, "Running a club tournament". A [`Plan`] is sessions of tables of players, made by
//! a [`Method`] from a seed (and, for the methods that follow play, the results so far) and
//! recorded with both, so that anyone can make it again:
//!
//! - [`Method::NoRepeat`] — the whole event planned in advance with as few repeated meetings
//!   as possible and chairs balanced ([`no_repeat`]: greedy construction and tabu search);
//! - [`Method::Swiss`] — each session seats players of similar standing together ([`swiss`]);
//! - [`Method::Progressive`] — Babcock's progressive game, pp. 85–86 ([`progressive`]);
//! - [`Method::Random`] — independent shuffles, the baseline ([`random`]).
//!
//! A player count not divisible by four is seated by a [`Remainder`] policy: the books' five-
//! and three-handed games (Code §123–132, Babcock pp. 83–85) or byes ([`layout`]). A plan's
//! [`Meetings`] give its repeated meetings and who sat in which chair how often.
//!
//! Why this lives in `referee`: a plan is a pure function of its request — no clock, no
//! database — so the service, the command line and the tests make the same plan.
//!
//! ```
//! use referee::seating::{plan, Method, PlanRequest, Remainder};
//!
//! let request = PlanRequest::new(16, 5, Method::NoRepeat, 7);
//! let plan = plan(&request).unwrap();
//! assert_eq!(plan.sessions().len(), 5);
//! assert_eq!(plan.meetings().repeats, 0); // 16 players over 5 sessions: nobody meets twice
//! ```

mod chairs;
mod error;
pub mod layout;
mod meetings;
mod method;
pub mod no_repeat;
mod plan;
pub mod progressive;
pub mod random;
mod rng;
pub mod session;
pub mod swiss;

#[cfg(test)]
mod tests;

pub use error::{SeatingError, SeatingProblem};
pub use layout::{Layout, ParseRemainderError, Remainder};
pub use meetings::Meetings;
pub use method::{Method, ParseMethodError};
pub use plan::{Chair, Plan, Player, Session};

/// What to seat: the event's size, the method, the seed, and for Swiss and progressive the
/// results of the sessions played so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanRequest {
    pub players: u64,
    pub sessions: u64,
    pub method: Method,
    pub remainder: Remainder,
    pub seed: u64,
    /// `results[s][p]`: the net of player `p + 1` in session `s + 1`, for the sessions played.
    pub results: Vec<Vec<i64>>,
}

impl PlanRequest {
    /// A request with the default remainder policy and no results.
    pub fn new(players: u64, sessions: u64, method: Method, seed: u64) -> PlanRequest {
        PlanRequest {
            players,
            sessions,
            method,
            remainder: Remainder::Fewest,
            seed,
            results: Vec::new(),
        }
    }
}

/// Makes the plan a request asks for, or lists every problem with the request.
pub fn plan(request: &PlanRequest) -> Result<Plan, SeatingError> {
    let layout = Layout::new(request.players, request.sessions, request.remainder);
    let mut problems = match &layout {
        Ok(_) => Vec::new(),
        Err(e) => e.problems.clone(),
    };
    if request.method == Method::Progressive && request.remainder == Remainder::Byes {
        problems.push(SeatingProblem::ProgressiveByes);
    }
    if !request.results.is_empty() && !request.method.needs_results() {
        problems.push(SeatingProblem::ResultsUnused {
            method: request.method,
        });
    }
    if request.results.len() as u64 > request.sessions {
        problems.push(SeatingProblem::TooManyResults {
            results: request.results.len(),
            sessions: request.sessions,
        });
    }
    for (s, nets) in request.results.iter().enumerate() {
        if nets.len() as u64 != request.players {
            problems.push(SeatingProblem::ResultsLength {
                session: s + 1,
                found: nets.len(),
                expected: request.players,
            });
        }
    }
    let layout = match layout {
        Ok(layout) if problems.is_empty() => layout,
        _ => return Err(SeatingError { problems }),
    };
    let sessions = match request.method {
        Method::NoRepeat => no_repeat::no_repeat(&layout, request.seed),
        Method::Swiss => swiss::swiss(&layout, request.seed, &request.results),
        Method::Progressive => progressive::progressive(&layout, request.seed, &request.results),
        Method::Random => random::random(&layout, request.seed),
    };
    Ok(Plan {
        layout,
        method: request.method,
        seed: request.seed,
        sessions,
    })
}
