//! A penalty in words: one wording for every page and command that shows one (the hand page,
//! the dispute pages, the result form), so a penalty reads the same wherever it is recorded,
//! shown or ruled on. The wording cites the rule where the sentence itself states a ruling
//! (Code §89(c) for a long hand, §110 for a player's own count).

use super::{Liability, Penalty};

impl<K: Copy> Penalty<K> {
    /// What the entry is, as a heading: a player's own count of his hand (§110) is no
    /// penalty, though it is settled as one.
    pub fn heading(&self) -> &'static str {
        match self {
            Penalty::OwnCount { .. } => "Own count",
            _ => "Penalty",
        }
    }

    /// The penalty in one sentence, each place named by `who`. On a recorded hand the places
    /// are seats as drawn, and `who` names the player sitting there: "North pays" would name the
    /// seat, while that player's card says "East this hand".
    pub fn describe(&self, who: &dyn Fn(K) -> String) -> String {
        match self {
            Penalty::Agreed {
                payer,
                payee,
                amount,
                reason,
            } => {
                let to = payee.map_or_else(|| "each other player".to_owned(), who);
                format!("{} pays {amount} to {to}: {reason}", who(*payer))
            }
            Penalty::FalseMahJongg { offenders } => format!(
                "false Mah-Jongg by {}: the hand is abandoned",
                list(who, offenders.iter().copied())
            ),
            Penalty::FalseNaming { discarder, claims } => format!(
                "{} named a discard falsely; claimed by {}",
                who(*discarder),
                list(who, claims.iter().map(|c| c.0))
            ),
            Penalty::PaysForAll {
                liable, liability, ..
            } => format!(
                "{} pays for all ({})",
                who(*liable),
                match liability {
                    Liability::Full => "in full",
                    Liability::Half => "half",
                }
            ),
            Penalty::LongHand { seat } => format!(
                "{} held a long hand: it scores nothing and pays the other losers in full (Code §89(c))",
                who(*seat)
            ),
            Penalty::OwnCount { seat, counted } => format!(
                "{} counted the hand at {counted}: below its value it stands at that count, above it the value is paid (Code §110)",
                who(*seat)
            ),
        }
    }
}

/// The places, named by `who`, separated by commas.
fn list<K>(who: &dyn Fn(K) -> String, places: impl Iterator<Item = K>) -> String {
    places.map(who).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settle::NamingClaim;
    use crate::tile::Wind;
    use crate::Seat;

    /// The players at the table, as the hand page names them.
    fn player(s: Seat) -> String {
        match s {
            Seat::East => "Ann",
            Seat::South => "Bo",
            Seat::West => "Cy",
            Seat::North => "Di",
        }
        .to_owned()
    }

    fn said(p: Penalty<Seat>) -> String {
        p.describe(&player)
    }

    #[test]
    fn agreed_payments_name_payer_payee_and_reason() {
        assert_eq!(
            said(Penalty::Agreed {
                payer: Seat::South,
                payee: Some(Seat::North),
                amount: 50,
                reason: "exposed a tile".into(),
            }),
            "Bo pays 50 to Di: exposed a tile"
        );
        assert_eq!(
            said(Penalty::Agreed {
                payer: Seat::West,
                payee: None,
                amount: 20,
                reason: "slow play".into(),
            }),
            "Cy pays 20 to each other player: slow play"
        );
    }

    #[test]
    fn false_calls_and_false_namings_list_everyone_concerned() {
        assert_eq!(
            said(Penalty::FalseMahJongg {
                offenders: vec![Seat::North],
            }),
            "false Mah-Jongg by Di: the hand is abandoned"
        );
        assert_eq!(
            said(Penalty::FalseMahJongg {
                offenders: vec![Seat::East, Seat::West],
            }),
            "false Mah-Jongg by Ann, Cy: the hand is abandoned"
        );
        assert_eq!(
            said(Penalty::FalseNaming {
                discarder: Seat::East,
                claims: vec![
                    (Seat::South, NamingClaim::Chow),
                    (Seat::North, NamingClaim::MahJongg)
                ],
            }),
            "Ann named a discard falsely; claimed by Bo, Di"
        );
    }

    #[test]
    fn paying_for_all_says_how_much() {
        let pays = |liability, second| {
            said(Penalty::PaysForAll {
                liable: Seat::West,
                liability,
                second,
            })
        };
        assert_eq!(pays(Liability::Full, None), "Cy pays for all (in full)");
        assert_eq!(pays(Liability::Half, None), "Cy pays for all (half)");
        // The second discarder sharing the half (Babcock p. 75) is not named.
        assert_eq!(
            pays(Liability::Half, Some(Seat::North)),
            "Cy pays for all (half)"
        );
    }

    #[test]
    fn long_hands_and_own_counts_cite_the_code() {
        assert_eq!(
            said(Penalty::LongHand { seat: Seat::South }),
            "Bo held a long hand: it scores nothing and pays the other losers in full (Code §89(c))"
        );
        assert_eq!(
            said(Penalty::OwnCount {
                seat: Seat::North,
                counted: 36,
            }),
            "Di counted the hand at 36: below its value it stands at that count, above it the value is paid (Code §110)"
        );
    }

    #[test]
    fn a_penalty_of_the_hand_names_winds_just_as_well() {
        let p: Penalty = Penalty::LongHand { seat: Wind::West };
        assert_eq!(
            p.describe(&|w: Wind| w.to_string()),
            format!(
                "{} held a long hand: it scores nothing and pays the other losers in full (Code §89(c))",
                Wind::West
            )
        );
    }
}
