//! Upcasters: stored payloads of older schema versions read as the current version.
//!
//! Stored events are never rewritten (their bytes are hashed into the chain), so when a
//! payload's shape changes its type's version goes up and the old shape is kept here, with the
//! function that turns it into the new one. [`Event::decode`](super::Event::decode) asks
//! [`older`] first; the export checker asks [`canonical_older`] whether an old payload is in its
//! own canonical form.
//!
//! - `hand_scored` v1 → v2: v1 stored each sheet line as text (`"text": "Pung of East (EEE)",
//!   "value": "4 points"`); v2 stores the referee's own [`ScoreSheet`], whose values are typed.
//!   A v1 line's value is parsed back from the words the scorer printed; its element id is
//!   unknown (empty) and its tiles stay in the name, as v1 showed them. v1's penalties were
//!   free-form payments only; v2's are the settlement's `Penalty`, of which they are `Agreed`.
//! - `dispute_raised` v1 → v2: v1 named only the seat that raised it; v2 names the official who
//!   recorded it (unknown for v1: empty) and may carry a position.
//! - `ruling_issued` v1 → v2: v1 had a free-text verdict and payments; v2 has the official
//!   (unknown for v1: empty), the decision (a v1 ruling is taken as accepted, its verdict the
//!   reason), typed penalties (v1's payments become `Agreed`, with the verdict as their reason)
//!   and whether the hand is abandoned (v1: never).

use referee::rules::LimitShare;
use referee::score::{LineValue, ScoreSheet, SheetLine};
use referee::{BySeat, Seat};
use serde::{Deserialize, Serialize};

use super::{DecodeError, Event, HandScored, Penalty, RulesetRef, WinContext};

/// `Some` when `(event_type, version)` is an older version this build reads.
pub(super) fn older(
    event_type: &str,
    version: u32,
    payload: &[u8],
) -> Option<Result<Event, DecodeError>> {
    match (event_type, version) {
        ("hand_scored", 1) => Some(
            parse::<HandScoredV1>(event_type, payload)
                .and_then(|v1| v1.upcast().map(Event::HandScored)),
        ),
        ("dispute_raised", 1) => Some(
            parse::<DisputeRaisedV1>(event_type, payload)
                .map(|v1| Event::DisputeRaised(v1.upcast())),
        ),
        ("ruling_issued", 1) => Some(
            parse::<RulingIssuedV1>(event_type, payload).map(|v1| Event::RulingIssued(v1.upcast())),
        ),
        _ => None,
    }
}

/// The canonical bytes of an older payload (re-encoded in its own version's shape).
pub(crate) fn canonical_older(
    event_type: &str,
    version: u32,
    payload: &[u8],
) -> Option<Result<Vec<u8>, DecodeError>> {
    match (event_type, version) {
        ("hand_scored", 1) => Some(
            parse::<HandScoredV1>(event_type, payload).and_then(|v1| canonical(event_type, &v1)),
        ),
        ("dispute_raised", 1) => Some(
            parse::<DisputeRaisedV1>(event_type, payload).and_then(|v1| canonical(event_type, &v1)),
        ),
        ("ruling_issued", 1) => Some(
            parse::<RulingIssuedV1>(event_type, payload).and_then(|v1| canonical(event_type, &v1)),
        ),
        _ => None,
    }
}

fn canonical<T: Serialize>(event_type: &str, v: &T) -> Result<Vec<u8>, DecodeError> {
    serde_json::to_vec(v).map_err(|source| DecodeError::Payload {
        event_type: event_type.to_owned(),
        source,
    })
}

/// `dispute_raised` as stored by schema version 1.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct DisputeRaisedV1 {
    raised_by: Seat,
    about: Option<uuid::Uuid>,
    description: String,
}

impl DisputeRaisedV1 {
    fn upcast(self) -> referee::event::DisputeRaised {
        referee::event::DisputeRaised {
            raised_by: Some(self.raised_by),
            official: String::new(),
            about: self.about,
            description: self.description,
            position: None,
        }
    }
}

/// `ruling_issued` as stored by schema version 1.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RulingIssuedV1 {
    dispute: Option<uuid::Uuid>,
    verdict: String,
    sections: Vec<String>,
    payments: Vec<referee::settle::Payment<Seat>>,
}

impl RulingIssuedV1 {
    fn upcast(self) -> referee::event::RulingIssued {
        referee::event::RulingIssued {
            dispute: self.dispute,
            official: String::new(),
            finding: None,
            decision: referee::event::Decision::Accepted,
            penalties: self
                .payments
                .iter()
                .map(|p| Penalty::Agreed {
                    payer: p.payer,
                    payee: Some(p.payee),
                    amount: p.amount,
                    reason: self.verdict.clone(),
                })
                .collect(),
            reason: self.verdict,
            sections: self.sections,
            withdrawn: Vec::new(),
            abandons: false,
            set_aside: None,
        }
    }
}

fn parse<'a, T: Deserialize<'a>>(event_type: &str, payload: &'a [u8]) -> Result<T, DecodeError> {
    serde_json::from_slice(payload).map_err(|source| DecodeError::Payload {
        event_type: event_type.to_owned(),
        source,
    })
}

/// `hand_scored` as stored by schema version 1.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct HandScoredV1 {
    ruleset: RulesetRef,
    win: Option<WinContext>,
    penalties: Vec<PenaltyV1>,
    sheets: BySeat<SheetV1>,
}

/// v1's only penalty: a free-form payment (now `Penalty::Agreed`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PenaltyV1 {
    payer: Seat,
    payee: Option<Seat>,
    amount: i64,
    reason: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SheetV1 {
    lines: Vec<LineV1>,
    basic: u64,
    doubles: u32,
    raw: u64,
    limited: bool,
    total: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct LineV1 {
    text: String,
    citation: String,
    value: String,
}

impl HandScoredV1 {
    fn upcast(self) -> Result<HandScored, DecodeError> {
        let winner = self.win.as_ref().map(|w| w.winner);
        let ruleset = self.ruleset.name.clone();
        let sheets = self
            .sheets
            .map_with_key(|seat, s| s.upcast(&ruleset, winner == Some(seat)))
            .transpose_result()?;
        Ok(HandScored {
            ruleset: self.ruleset,
            win: self.win,
            penalties: self
                .penalties
                .into_iter()
                .map(|p| Penalty::Agreed {
                    payer: p.payer,
                    payee: p.payee,
                    amount: p.amount,
                    reason: p.reason,
                })
                .collect(),
            sheets: Box::new(sheets),
        })
    }
}

impl SheetV1 {
    fn upcast(self, ruleset: &str, mahjong: bool) -> Result<ScoreSheet, DecodeError> {
        let lines = self
            .lines
            .into_iter()
            .map(|l| {
                let value = line_value(&l.value).ok_or_else(|| DecodeError::Upcast {
                    event_type: "hand_scored".to_owned(),
                    from: 1,
                    why: format!(
                        "sheet line `{}` has a value `{}` that v1 never wrote",
                        l.text, l.value
                    ),
                })?;
                Ok(SheetLine {
                    element: "".into(),
                    name: l.text.into(),
                    tiles: None,
                    cite: l.citation.into(),
                    value,
                })
            })
            .collect::<Result<Vec<_>, DecodeError>>()?;
        let limit_hand = lines
            .iter()
            .filter_map(|l| match l.value {
                LineValue::Limit(s) => Some(s),
                _ => None,
            })
            .min();
        Ok(ScoreSheet {
            ruleset: ruleset.to_owned(),
            mahjong,
            arrangement: String::new(),
            lines,
            basic: self.basic,
            doubles: self.doubles,
            raw: self.raw,
            limited: self.limited,
            total: self.total,
            limit_hand,
        })
    }
}

/// A v1 value as `LineValue`'s `Display` wrote it.
fn line_value(text: &str) -> Option<LineValue> {
    match text {
        "the limit" => return Some(LineValue::Limit(LimitShare::FULL)),
        "half the limit" => return Some(LineValue::Limit(LimitShare::HALF)),
        "a third of the limit" => return Some(LineValue::Limit(LimitShare::THIRD)),
        _ => {}
    }
    let (n, unit) = text.split_once(' ')?;
    match unit {
        "point" | "points" => n.parse().ok().map(LineValue::Points),
        "double" | "doubles" => n.parse().ok().map(LineValue::Doubles),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const V1: &str = r#"{"ruleset":{"name":"code-of-laws","content_sha256":"00"},"win":{"winner":"south","tile":"6p","from":"wall","discarder":null},"penalties":[{"payer":"north","payee":null,"amount":10,"reason":"late"}],"sheets":{"east":{"lines":[{"text":"Pung of East (EEE)","citation":"Code §114(c)","value":"8 points"}],"basic":8,"doubles":0,"raw":8,"limited":false,"total":8},"south":{"lines":[{"text":"Mah-Jongg","citation":"Code §115(a)","value":"10 points"},{"text":"Own wind","citation":"Code §117(b)","value":"1 double"},{"text":"Heaven's Blessing","citation":"Code §122(a)","value":"the limit"}],"basic":10,"doubles":1,"raw":20,"limited":true,"total":1000},"west":{"lines":[{"text":"Hand not laid down: no score","citation":"Code §106","value":"0 points"}],"basic":0,"doubles":0,"raw":0,"limited":false,"total":0},"north":{"lines":[],"basic":0,"doubles":0,"raw":0,"limited":false,"total":0}}}"#;

    #[test]
    fn a_stored_v1_sheet_decodes_into_the_current_version() {
        let e = Event::decode("hand_scored", 1, V1.as_bytes()).unwrap();
        let Event::HandScored(h) = e else {
            panic!("{e:?}")
        };
        let south = &h.sheets[Seat::South];
        assert!(south.mahjong);
        assert_eq!(south.ruleset, "code-of-laws");
        assert_eq!(south.lines[0].value, LineValue::Points(10));
        assert_eq!(south.lines[1].value, LineValue::Doubles(1));
        assert_eq!(south.limit_hand, Some(LimitShare::FULL));
        assert_eq!(south.total, 1000);
        assert_eq!(h.sheets[Seat::West].lines[0].value, LineValue::Points(0));
        assert!(!h.sheets[Seat::East].mahjong);
        assert_eq!(
            h.penalties,
            [Penalty::Agreed {
                payer: Seat::North,
                payee: None,
                amount: 10,
                reason: "late".into()
            }]
        );
        // It re-encodes as the current version, and its own bytes are canonical v1.
        assert_eq!(
            canonical_older("hand_scored", 1, V1.as_bytes())
                .unwrap()
                .unwrap(),
            V1.as_bytes()
        );
        assert_eq!(Event::HandScored(h).schema_version(), 2);
    }

    #[test]
    fn a_v1_value_it_never_wrote_is_an_error_naming_it() {
        let bad = V1.replace("8 points", "eight points");
        let e = Event::decode("hand_scored", 1, bad.as_bytes()).unwrap_err();
        assert!(e.to_string().contains("eight points"), "{e}");
    }

    #[test]
    fn a_stored_v1_dispute_and_ruling_decode_into_the_current_version() {
        let dispute = r#"{"raised_by":"west","about":null,"description":"late pung"}"#;
        let Event::DisputeRaised(d) =
            Event::decode("dispute_raised", 1, dispute.as_bytes()).unwrap()
        else {
            panic!()
        };
        assert_eq!(d.raised_by, Some(Seat::West));
        assert_eq!(d.official, "");
        assert_eq!(d.position, None);
        let ruling = r#"{"dispute":null,"verdict":"pay the table","sections":["Code §96"],"payments":[{"payer":"south","payee":"east","amount":40}]}"#;
        let Event::RulingIssued(r) = Event::decode("ruling_issued", 1, ruling.as_bytes()).unwrap()
        else {
            panic!()
        };
        assert_eq!(r.decision, referee::event::Decision::Accepted);
        assert_eq!(r.reason, "pay the table");
        assert!(!r.abandons);
        assert_eq!(
            r.penalties,
            [Penalty::Agreed {
                payer: Seat::South,
                payee: Some(Seat::East),
                amount: 40,
                reason: "pay the table".into()
            }]
        );
        // Their own bytes are canonical v1.
        for (t, p) in [("dispute_raised", dispute), ("ruling_issued", ruling)] {
            assert_eq!(
                canonical_older(t, 1, p.as_bytes()).unwrap().unwrap(),
                p.as_bytes()
            );
        }
    }
}
