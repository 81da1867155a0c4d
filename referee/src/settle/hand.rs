//! Settling a hand under a ruleset: the method, the limit-hand and rounding customs, the
//! Dreamer, and penalties.
//!
//! [`settle`](super::settle) is the Code's arithmetic (§108–109); this module chooses the
//! variant a ruleset plays and applies penalties, which reshape who pays whom:
//!
//! - **Paying for all** — Code §96 (letting off a cannon), Babcock ch. VIII's insurance penalty
//!   in full, Harr's penalty 2: the liable player pays the winner what the other two losers
//!   owed him, as well as his own debt, and the losers do not settle among themselves.
//! - **Paying half for all** — Babcock ch. VIII (p. 75), the dangerous tile punged or chowed and
//!   the hand completed later: the liable player pays his own debt and half of what the other
//!   two owed; they bear the other half. When the hand was completed on a second dangerous
//!   discard, the two discarders each pay half of the whole and the fourth player nothing.
//! - **Abandoning the hand** — a false Mah-Jongg (Code §82–83, Harr, Babcock ch. VIII) or a false
//!   naming claimed for Mah-Jongg (Code §87): no score counts; only the penalty is paid.
//! - **Side payments** — a false naming claimed for chow or pung (Code §85–86, §88): play goes
//!   on, so the penalty is paid on top of the hand's settlement.

use serde::{Deserialize, Serialize};

use super::{
    amount, derive_nets, settle, Outcome, Payment, Settlement, SettlementError, SettlementRules,
    MAX_AMOUNT,
};
use crate::by_seat::{ByWind, Place};
use crate::rules::{FalseMahJonggScheme, LimitShare, Rounding, Ruleset, SettlementMethod};
use crate::tile::Wind;

/// What a claimant of a falsely named discard claimed it for (Code §85–88).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NamingClaim {
    /// §85: claimed for chow.
    Chow,
    /// §86: claimed for pung or kong.
    Pung,
    /// §87(a): claimed for Mah-Jongg, and the named tile would have completed the hand.
    MahJongg,
    /// §87(b): claimed for Mah-Jongg falsely, and another player had laid down tiles.
    FalseMahJongg,
}

/// How much of the others' debt the liable player takes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Liability {
    /// All of it (Code §96, Babcock's full insurance, Harr's penalty 2).
    Full,
    /// Half of it, the rest borne by the others (Babcock p. 75).
    Half,
}

/// A penalty, with the liable player(s): keyed by the winds of the hand while settling
/// (`Penalty`), by the seats as drawn once recorded (`Penalty<Seat>`). The one penalty type from
/// the rules through the ledger to the pages: a rule's penalty names its kind and the ruleset
/// gives the amount; an agreed payment that no rule covers carries its amount and reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "kebab-case",
    deny_unknown_fields,
    bound(serialize = "K: Serialize", deserialize = "K: Deserialize<'de>")
)]
pub enum Penalty<K = Wind> {
    /// One, two or three players called Mah-Jongg falsely and others laid down their hands
    /// (Code §82–83; Harr; Babcock ch. VIII "Incorrect Win"). The hand is abandoned.
    FalseMahJongg { offenders: Vec<K> },
    /// A discard was falsely named and claimed (Code §84–88).
    FalseNaming {
        discarder: K,
        claims: Vec<(K, NamingClaim)>,
    },
    /// The liable player's discard let the winner complete a dangerous hand: Code §96 ("letting
    /// off a cannon"), Babcock's insurance penalties, Harr's penalty 2.
    PaysForAll {
        liable: K,
        liability: Liability,
        /// Babcock p. 75: the player whose later discard completed the hand, sharing the
        /// half-liability; the fourth player then pays nothing.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        second: Option<K>,
    },
    /// A long hand (Code §89(c)): it "may claim no score in respect of that hand, and must pay
    /// the other two losing players according to the full value of their hands" — its score
    /// counts as nothing and the losers settle as usual. It cannot be the winner's (§89(b)).
    LongHand { seat: K },
    /// A player's own count of his hand (Code §110, "each player shall score his own hand"):
    /// below its value, the hand stands at his count ("if he should undervalue his hand, any
    /// other player who draws attention to his error shall reimburse the other players"); above
    /// it, he is corrected to its value. Settles his score as the lower of the two.
    OwnCount { seat: K, counted: u64 },
    /// A payment agreed at the table or ordered by the referee for what no rule prices: paid to
    /// `payee`, or to each other player when `None`, on top of the hand's settlement.
    Agreed {
        payer: K,
        payee: Option<K>,
        amount: i64,
        reason: String,
    },
}

impl<K: Place> Penalty<K> {
    /// The same penalty with every place mapped by `f` (seats as drawn to winds of the hand and
    /// back).
    pub fn map<L>(self, f: impl Fn(K) -> L) -> Penalty<L> {
        match self {
            Penalty::FalseMahJongg { offenders } => Penalty::FalseMahJongg {
                offenders: offenders.into_iter().map(&f).collect(),
            },
            Penalty::FalseNaming { discarder, claims } => Penalty::FalseNaming {
                discarder: f(discarder),
                claims: claims.into_iter().map(|(k, c)| (f(k), c)).collect(),
            },
            Penalty::PaysForAll {
                liable,
                liability,
                second,
            } => Penalty::PaysForAll {
                liable: f(liable),
                liability,
                second: second.map(&f),
            },
            Penalty::LongHand { seat } => Penalty::LongHand { seat: f(seat) },
            Penalty::OwnCount { seat, counted } => Penalty::OwnCount {
                seat: f(seat),
                counted,
            },
            Penalty::Agreed {
                payer,
                payee,
                amount,
                reason,
            } => Penalty::Agreed {
                payer: f(payer),
                payee: payee.map(&f),
                amount,
                reason,
            },
        }
    }
}

/// A finished hand, for settlement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandOutcome {
    /// Each seat's final score (after the limit).
    pub scores: ByWind<u64>,
    pub outcome: Outcome,
    /// The winner's hand was a limit hand.
    pub limit_hand: Option<LimitShare>,
    /// Doubles in the winner's hand (for the Dreamer's payment).
    pub winner_doubles: u32,
    /// Who discarded the winning tile; `None` when it was drawn (New Method).
    pub discarder: Option<Wind>,
    pub penalties: Vec<Penalty>,
    /// Five-handed, with the Dreamer's payment agreed (Code §128 note 2).
    pub dreamer: bool,
}

impl HandOutcome {
    /// A hand with no penalty.
    pub fn new(scores: ByWind<u64>, outcome: Outcome) -> HandOutcome {
        HandOutcome {
            scores,
            outcome,
            limit_hand: None,
            winner_doubles: 0,
            discarder: None,
            penalties: Vec::new(),
            dreamer: false,
        }
    }
}

/// Why a hand cannot be settled as described.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HandSettlementError {
    #[error(transparent)]
    Payment(#[from] SettlementError),
    #[error("a false Mah-Jongg needs one to three offenders, not {0}")]
    Offenders(usize),
    #[error("{0} is named twice among the offenders")]
    RepeatedOffender(Wind),
    #[error("{penalty} needs a Mah-Jongg: there is no winner")]
    NeedsWinner { penalty: &'static str },
    #[error("the winner ({0}) cannot be liable for paying for all")]
    WinnerLiable(Wind),
    #[error("{seat} is named as the second liable player but is the first, or the winner")]
    BadSecond { seat: Wind },
    #[error("{0} cannot claim his own falsely named discard")]
    ClaimsOwnDiscard(Wind),
    #[error("the discarder of the winning tile ({0}) is the winner")]
    DiscarderIsWinner(Wind),
    #[error("this ruleset has no false Mah-Jongg penalty ({cite})")]
    NoSuchPenalty { cite: String },
    #[error("{0} holds a long hand and cannot go Mah-Jongg (Code §89(b))")]
    LongHandWon(Wind),
    #[error("more than one penalty abandons the hand; record them as separate rulings")]
    TwoAbandonments,
    #[error("this ruleset pays no bonus for a new deal ({cite})")]
    NewDealNotPlayed { cite: String },
    #[error("{heads} different heads are too few for a new deal (at least {min})")]
    TooFewHeads { heads: u32, min: u64 },
}

/// A player called for a new deal on a dealt hand with `heads` different single heads (ones,
/// nines, winds, dragons): each other player pays the ruleset's table amount (Babcock p. 80
/// "Nine Mummies"; Harr p. 61 "washing the tiles", where East neither collects nor pays
/// double). No score counts.
pub fn settle_new_deal(
    rules: &Ruleset,
    claimant: Wind,
    heads: u32,
) -> Result<HandSettlement, HandSettlementError> {
    let pen = &rules.penalties;
    if pen.new_deal_heads == 0 || pen.new_deal_payments.is_empty() {
        return Err(HandSettlementError::NewDealNotPlayed {
            cite: pen.cite.clone(),
        });
    }
    let over = u64::from(heads).checked_sub(pen.new_deal_heads).ok_or(
        HandSettlementError::TooFewHeads {
            heads,
            min: pen.new_deal_heads,
        },
    )?;
    let i = usize::try_from(over)
        .unwrap_or(usize::MAX)
        .min(pen.new_deal_payments.len() - 1);
    let amount = amount(pen.new_deal_payments[i], 1, 0)?;
    let mut payments = Vec::new();
    for s in Wind::ALL.into_iter().filter(|&s| s != claimant) {
        push(&mut payments, s, claimant, amount);
    }
    let net = derive_nets(&payments)?;
    Ok(HandSettlement {
        payments,
        to_dreamer: ByWind::default(),
        net,
        dreamer_net: 0,
        abandoned: true,
    })
}

/// The settlement of a hand, with the Dreamer's share when five play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandSettlement {
    /// Payments between the four seats.
    pub payments: Vec<Payment>,
    /// What each seat pays the Dreamer (zero when none).
    pub to_dreamer: ByWind<i64>,
    /// Each seat's net, the Dreamer's payments included: with `dreamer_net` it sums to zero.
    pub net: ByWind<i64>,
    /// The Dreamer's net.
    pub dreamer_net: i64,
    /// The hand was abandoned by a penalty: scores did not count.
    pub abandoned: bool,
}

/// Settles a hand under `rules`.
pub fn settle_hand(
    rules: &Ruleset,
    hand: &HandOutcome,
) -> Result<HandSettlement, HandSettlementError> {
    let winner = match hand.outcome {
        Outcome::MahJongg { winner } => Some(winner),
        Outcome::WashOut => None,
    };
    if let (Some(w), Some(d)) = (winner, hand.discarder) {
        if w == d {
            return Err(HandSettlementError::DiscarderIsWinner(w));
        }
    }
    // §89(c): a long hand scores nothing; the losers then settle as usual, so it pays each the
    // full value of his hand. §110: a hand undervalued by its player's own count stands at it.
    let adjusted;
    let hand = if hand
        .penalties
        .iter()
        .any(|p| matches!(p, Penalty::LongHand { .. } | Penalty::OwnCount { .. }))
    {
        let mut h = hand.clone();
        for p in &hand.penalties {
            match p {
                Penalty::LongHand { seat } => {
                    if winner == Some(*seat) {
                        return Err(HandSettlementError::LongHandWon(*seat));
                    }
                    *h.scores.get_mut(*seat) = 0;
                }
                Penalty::OwnCount { seat, counted } => {
                    let score = h.scores.get_mut(*seat);
                    *score = (*score).min(*counted);
                }
                _ => {}
            }
        }
        adjusted = h;
        &adjusted
    } else {
        hand
    };
    let abandoning: Vec<&Penalty> = hand.penalties.iter().filter(|p| abandons(p)).collect();
    if abandoning.len() > 1 {
        return Err(HandSettlementError::TwoAbandonments);
    }
    let mut payments: Vec<Payment>;
    let abandoned = !abandoning.is_empty();
    if let Some(p) = abandoning.first() {
        payments = abandonment(rules, p)?;
    } else {
        payments = base_payments(rules, hand, winner)?;
        for p in &hand.penalties {
            if let Penalty::PaysForAll {
                liable,
                liability,
                second,
            } = p
            {
                let w = winner.ok_or(HandSettlementError::NeedsWinner {
                    penalty: "paying for all",
                })?;
                payments = pays_for_all(payments, w, *liable, *liability, *second)?;
            }
        }
    }
    // Side payments for false namings claimed for chow or pung (§85, §86, §88).
    for p in &hand.penalties {
        if let Penalty::FalseNaming { discarder, claims } = p {
            if !abandons(p) {
                for &(claimant, claim) in claims {
                    if claimant == *discarder {
                        return Err(HandSettlementError::ClaimsOwnDiscard(claimant));
                    }
                    let amount = match claim {
                        NamingClaim::Chow => rules.penalties.false_naming_chow,
                        _ => rules.penalties.false_naming_pung,
                    };
                    push(&mut payments, *discarder, claimant, amount as i64);
                }
            }
        }
    }
    if rules.settlement.rounding == Rounding::NearestTen {
        for p in &mut payments {
            p.amount = (p.amount + 5) / 10 * 10;
        }
        payments.retain(|p| p.amount > 0);
    }
    // Agreed payments, as agreed (not rounded), whether the hand counted or not.
    for p in &hand.penalties {
        if let Penalty::Agreed {
            payer,
            payee,
            amount,
            ..
        } = p
        {
            if !(0..=MAX_AMOUNT).contains(amount) {
                return Err(HandSettlementError::Payment(
                    SettlementError::AmountTooLarge {
                        index: payments.len(),
                        amount: *amount,
                    },
                ));
            }
            for to in Wind::ALL
                .into_iter()
                .filter(|&w| w != *payer && payee.is_none_or(|p| p == w))
            {
                push(&mut payments, *payer, to, *amount);
            }
        }
    }
    let mut to_dreamer = ByWind::<i64>::default();
    if hand.dreamer && !abandoned && rules.settlement.dreamer_payment {
        if let Some(w) = winner {
            let doubles = if hand.limit_hand.is_some() {
                rules.settlement.dreamer_limit_doubles
            } else {
                hand.winner_doubles
            };
            let base = 2i64.checked_shl(doubles.min(40)).unwrap_or(i64::MAX);
            for seat in Wind::ALL.into_iter().filter(|&s| s != w) {
                let factor = if seat == Wind::East { 2 } else { 1 };
                *to_dreamer.get_mut(seat) = base.saturating_mul(factor);
            }
        }
    }
    let mut net = derive_nets(&payments)?;
    let mut dreamer_net = 0i64;
    for seat in Wind::ALL {
        let d = *to_dreamer.get(seat);
        *net.get_mut(seat) -= d;
        dreamer_net += d;
    }
    Ok(HandSettlement {
        payments,
        to_dreamer,
        net,
        dreamer_net,
        abandoned,
    })
}

impl<K: PartialEq + Copy> Penalty<K> {
    /// For a penalty that finishes the hand with no other score, whether the title of East
    /// passes after it (`east` the player who was East): only if East was an offender — the
    /// false caller (§82–83), the false namer or the false claimant (§87). `None` for a
    /// penalty that leaves the hand to its settlement.
    pub fn abandons_hand(&self, east: K) -> Option<bool> {
        match self {
            Penalty::FalseMahJongg { offenders } => Some(offenders.contains(&east)),
            Penalty::FalseNaming { discarder, claims } => {
                let mahjongg = |c: &NamingClaim| {
                    matches!(c, NamingClaim::MahJongg | NamingClaim::FalseMahJongg)
                };
                claims.iter().any(|(_, c)| mahjongg(c)).then(|| {
                    *discarder == east
                        || claims
                            .iter()
                            .any(|(k, c)| *c == NamingClaim::FalseMahJongg && *k == east)
                })
            }
            Penalty::PaysForAll { .. }
            | Penalty::LongHand { .. }
            | Penalty::OwnCount { .. }
            | Penalty::Agreed { .. } => None,
        }
    }
}

fn abandons(p: &Penalty) -> bool {
    match p {
        Penalty::FalseMahJongg { .. } => true,
        Penalty::FalseNaming { claims, .. } => claims
            .iter()
            .any(|(_, c)| matches!(c, NamingClaim::MahJongg | NamingClaim::FalseMahJongg)),
        Penalty::PaysForAll { .. }
        | Penalty::LongHand { .. }
        | Penalty::OwnCount { .. }
        | Penalty::Agreed { .. } => false,
    }
}

fn push(payments: &mut Vec<Payment>, payer: Wind, payee: Wind, amount: i64) {
    if amount > 0 && payer != payee {
        payments.push(Payment {
            payer,
            payee,
            amount,
        });
    }
}

/// The hand's payments before penalties, by the ruleset's method.
fn base_payments(
    rules: &Ruleset,
    hand: &HandOutcome,
    winner: Option<Wind>,
) -> Result<Vec<Payment>, HandSettlementError> {
    let cancels = rules.settlement.limit_hand_cancels_losers && hand.limit_hand.is_some();
    let losers_settle = rules.settlement.losers_settle && !cancels;
    match rules.settlement.method {
        SettlementMethod::Classic => Ok(settle(
            &hand.scores,
            hand.outcome,
            SettlementRules {
                east_doubles: true,
                losers_settle,
            },
        )?
        .payments),
        SettlementMethod::NewMethod => {
            // Babcock p. 79: East neither pays nor receives double; the discarder of the
            // winning tile pays double; a drawn win is paid double by all; losers settle single.
            let Some(w) = winner else {
                return Ok(Vec::new());
            };
            let mut payments = Vec::new();
            let score = *hand.scores.get(w);
            for loser in Wind::ALL.into_iter().filter(|&s| s != w) {
                let double = hand.discarder.is_none_or(|d| d == loser);
                let amount = amount(score, if double { 2 } else { 1 }, payments.len())?;
                push(&mut payments, loser, w, amount);
            }
            if losers_settle {
                let single = settle(
                    &hand.scores,
                    hand.outcome,
                    SettlementRules {
                        east_doubles: false,
                        losers_settle: true,
                    },
                )?;
                payments.extend(single.payments.into_iter().filter(|p| p.payee != w));
            }
            Ok(payments)
        }
    }
}

/// Reassigns the winner's receipts: the liable player takes on the others' debts (all or half);
/// the losers' settlement among themselves is cancelled.
fn pays_for_all(
    payments: Vec<Payment>,
    winner: Wind,
    liable: Wind,
    liability: Liability,
    second: Option<Wind>,
) -> Result<Vec<Payment>, HandSettlementError> {
    if liable == winner {
        return Err(HandSettlementError::WinnerLiable(winner));
    }
    if let Some(s) = second {
        if s == liable || s == winner || liability == Liability::Full {
            return Err(HandSettlementError::BadSecond { seat: s });
        }
    }
    let owed: ByWind<i64> = {
        let mut o = ByWind::<i64>::default();
        for p in payments.iter().filter(|p| p.payee == winner) {
            *o.get_mut(p.payer) += p.amount;
        }
        o
    };
    let total: i64 = Wind::ALL.iter().map(|&s| *owed.get(s)).sum();
    let mut out = Vec::new();
    match (liability, second) {
        (Liability::Full, _) => push(&mut out, liable, winner, total),
        (Liability::Half, None) => {
            let others: i64 = total - owed.get(liable);
            let half = others / 2;
            push(&mut out, liable, winner, owed.get(liable) + half);
            // The other half is borne by the other two, each half his own debt; an odd point
            // (never arising with even scores) falls to the liable player.
            let mut borne = 0;
            for s in Wind::ALL
                .into_iter()
                .filter(|&s| s != winner && s != liable)
            {
                let share = owed.get(s) / 2;
                borne += share;
                push(&mut out, s, winner, share);
            }
            let rest = others - half - borne;
            if rest > 0 {
                push(&mut out, liable, winner, rest);
            }
        }
        (Liability::Half, Some(second)) => {
            let half = total / 2;
            push(&mut out, liable, winner, half);
            push(&mut out, second, winner, total - half);
        }
    }
    Ok(out)
}

/// The payments of a penalty that abandons the hand.
fn abandonment(rules: &Ruleset, p: &Penalty) -> Result<Vec<Payment>, HandSettlementError> {
    let pen = &rules.penalties;
    let mut out = Vec::new();
    match p {
        Penalty::FalseMahJongg { offenders } => {
            for (i, o) in offenders.iter().enumerate() {
                if offenders[..i].contains(o) {
                    return Err(HandSettlementError::RepeatedOffender(*o));
                }
            }
            if offenders.is_empty() || offenders.len() > 3 {
                return Err(HandSettlementError::Offenders(offenders.len()));
            }
            let innocent: Vec<Wind> = Wind::ALL
                .into_iter()
                .filter(|s| !offenders.contains(s))
                .collect();
            let base = match pen.false_mahjong {
                FalseMahJonggScheme::None => {
                    return Err(HandSettlementError::NoSuchPenalty {
                        cite: pen.cite.clone(),
                    })
                }
                // §83: 150 each from two offenders, 100 each from three.
                FalseMahJonggScheme::Fixed => match offenders.len() {
                    1 => pen.false_mahjong_amount,
                    2 => pen.false_mahjong_two,
                    _ => pen.false_mahjong_three,
                },
                FalseMahJonggScheme::LimitShare => rules.limit_value(LimitShare::HALF),
            } as i64;
            for &o in offenders {
                for &i in &innocent {
                    let amount = match pen.false_mahjong {
                        // Harr: half the limit to each, the full limit to East.
                        FalseMahJonggScheme::LimitShare if i == Wind::East || o == Wind::East => {
                            base * 2
                        }
                        FalseMahJonggScheme::Fixed
                            if pen.false_mahjong_east_double
                                && (i == Wind::East || o == Wind::East) =>
                        {
                            base * 2
                        }
                        _ => base,
                    };
                    push(&mut out, o, i, amount);
                }
            }
        }
        Penalty::FalseNaming { discarder, claims } => {
            let d = *discarder;
            if let Some(&(c, _)) = claims.iter().find(|(c, _)| *c == d) {
                return Err(HandSettlementError::ClaimsOwnDiscard(c));
            }
            let false_claimant = claims
                .iter()
                .find(|(_, k)| *k == NamingClaim::FalseMahJongg)
                .map(|(c, _)| *c);
            match false_claimant {
                // §87(b): discarder and claimant each pay 150 to each of the two others.
                Some(c) => {
                    for s in Wind::ALL.into_iter().filter(|&s| s != d && s != c) {
                        push(&mut out, d, s, pen.false_naming_false_mahjong as i64);
                        push(&mut out, c, s, pen.false_naming_false_mahjong as i64);
                    }
                }
                // §87(a), §88: 300 to each other player, whatever else was claimed.
                None => {
                    for s in Wind::ALL.into_iter().filter(|&s| s != d) {
                        push(&mut out, d, s, pen.false_naming_mahjong as i64);
                    }
                }
            }
        }
        Penalty::PaysForAll { .. }
        | Penalty::LongHand { .. }
        | Penalty::OwnCount { .. }
        | Penalty::Agreed { .. } => {}
    }
    Ok(out)
}

impl HandSettlement {
    /// As the plain four-seat settlement (when no Dreamer was paid).
    pub fn into_settlement(self) -> Settlement {
        Settlement {
            payments: self.payments,
            net: self.net,
        }
    }
}
