//! The hand form (recording and correcting): its fields as typed, and turning them into the
//! command's facts. Shared by the table's record page and the hand's correction page.

use askama::Template;
use ledger::event::{Penalty, WinFrom};
use referee::score::Circumstances;
use referee::table::HandReport;
use referee::{BySeat, Seat, Violation};
use serde::Deserialize;

use super::problems::Problems;
use crate::server::error::AppError;
use crate::server::nav::Nav;

/// The form's fields as typed.
#[derive(Clone, Debug, Default, Deserialize, serde::Serialize)]
pub struct HandForm {
    #[serde(default)]
    pub csrf: String,
    #[serde(default)]
    pub hand: String,
    #[serde(default)]
    pub version: String,
    #[serde(default)]
    pub reason: String,
    #[serde(default)]
    pub hand_east: String,
    #[serde(default)]
    pub hand_south: String,
    #[serde(default)]
    pub hand_west: String,
    #[serde(default)]
    pub hand_north: String,
    #[serde(default)]
    pub winner: String,
    #[serde(default)]
    pub win_from: String,
    #[serde(default)]
    pub discarder: String,
    /// The circumstances' checkboxes (`on` when ticked; see [`CIRCUMSTANCES`]).
    #[serde(default)]
    pub last_tile: String,
    #[serde(default)]
    pub kong_upon_kong: String,
    #[serde(default)]
    pub original_call: String,
    #[serde(default)]
    pub heavens_blessing: String,
    #[serde(default)]
    pub earths_blessing: String,
    #[serde(default)]
    pub penalty_payer: String,
    #[serde(default)]
    pub penalty_payee: String,
    #[serde(default)]
    pub penalty_amount: String,
    #[serde(default)]
    pub penalty_reason: String,
    /// A rule's penalty, priced by the ruleset ([`RULE_PENALTIES`]): its kind, the player
    /// liable (the false caller, the discarder who pays for all, the false namer), and for a
    /// false naming the claimant and what the named tile was claimed for.
    #[serde(default)]
    pub rule_penalty: String,
    #[serde(default)]
    pub rule_by: String,
    #[serde(default)]
    pub rule_claimant: String,
    #[serde(default)]
    pub rule_claim: String,
    /// Set by the correction form's preview button: show, do not record.
    #[serde(default)]
    pub preview: String,
    /// The recorded penalties the form has no fields for (a rule's penalty, a second agreed
    /// payment), as JSON: carried through a correction unchanged, shown read-only.
    #[serde(default)]
    pub kept_penalties: String,
}

/// A checkbox's value: `on` when ticked, absent (empty) when not.
fn tick(on: bool) -> String {
    if on {
        "on".to_owned()
    } else {
        String::new()
    }
}

fn ticked(value: &str) -> bool {
    !value.trim().is_empty()
}

/// A circumstance the form can tick: its input name, its label, and its flag.
type Flag = (&'static str, &'static str, fn(&Circumstances) -> bool);

/// The circumstances a form can tick.
pub const CIRCUMSTANCES: [Flag; 5] = [
    (
        "last_tile",
        "the last tile of the wall, or after it (Code §117(i), (j))",
        |c| c.last_tile,
    ),
    ("kong_upon_kong", "Kong upon Kong (Code §122(f))", |c| {
        c.kong_upon_kong
    }),
    ("original_call", "an original call (Code §117(l))", |c| {
        c.original_call
    }),
    (
        "heavens_blessing",
        "Heaven's Blessing (Code §122(a))",
        |c| c.heavens_blessing,
    ),
    ("earths_blessing", "Earth's Blessing (Code §122(b))", |c| {
        c.earths_blessing
    }),
];

/// The rules' penalties the form can state: (value, label). The amounts are the ruleset's.
pub const RULE_PENALTIES: [(&str, &str); 3] = [
    (
        "false-mah-jongg",
        "a false Mah-Jongg after others laid down (Code §82): the hand is abandoned",
    ),
    (
        "pays-for-all",
        "the discarder pays for all (a cannon, Code §96)",
    ),
    (
        "false-naming",
        "a falsely named discard claimed (Code §85–88)",
    ),
];

/// What a falsely named tile was claimed for: (value, label).
pub const NAMING_CLAIMS: [(&str, &str); 4] = [
    ("chow", "chow (§85)"),
    ("pung", "pung or kong (§86)"),
    (
        "mah-jongg",
        "Mah-Jongg, the named tile completing the hand (§87(a))",
    ),
    (
        "false-mah-jongg",
        "Mah-Jongg falsely, after others laid down (§87(b))",
    ),
];

/// The winner's value for a wash-out, chosen on purpose.
pub const WASH_OUT: &str = "washout";

fn seat(field: &str, value: &str) -> Result<Option<Seat>, AppError> {
    match value.trim() {
        "" => Ok(None),
        v => v
            .parse::<Seat>()
            .map(Some)
            .map_err(|_| AppError::bad_request(format!("{field}: `{v}` is not a seat"))),
    }
}

impl HandForm {
    pub fn hand_text(&self, seat: Seat) -> &str {
        match seat {
            Seat::East => &self.hand_east,
            Seat::South => &self.hand_south,
            Seat::West => &self.hand_west,
            Seat::North => &self.hand_north,
        }
    }

    /// The form filled in with a report (a correction starts from what was recorded).
    pub fn from_report(r: &HandReport) -> HandForm {
        let text = |s: Seat| r.hands[s].clone().unwrap_or_default();
        let seat = |s: Option<Seat>| s.map(|s| s.name().to_owned()).unwrap_or_default();
        // The form edits one agreed payment; every other penalty is kept as recorded.
        let editable = r
            .penalties
            .iter()
            .position(|p| matches!(p, Penalty::Agreed { .. }));
        let penalty = editable.and_then(|i| match &r.penalties[i] {
            Penalty::Agreed {
                payer,
                payee,
                amount,
                reason,
            } => Some((*payer, *payee, *amount, reason.clone())),
            _ => None,
        });
        let rule = r.penalties.iter().position(|p| match p {
            Penalty::FalseMahJongg { offenders } => offenders.len() == 1,
            Penalty::PaysForAll {
                liability, second, ..
            } => *liability == referee::settle::Liability::Full && second.is_none(),
            Penalty::FalseNaming { claims, .. } => claims.len() == 1,
            Penalty::LongHand { .. } | Penalty::OwnCount { .. } | Penalty::Agreed { .. } => false,
        });
        let (rule_penalty, rule_by, rule_claimant, rule_claim) = match rule.map(|i| &r.penalties[i])
        {
            Some(Penalty::FalseMahJongg { offenders }) => (
                "false-mah-jongg",
                seat(offenders.first().copied()),
                String::new(),
                "",
            ),
            Some(Penalty::PaysForAll { liable, .. }) => {
                ("pays-for-all", seat(Some(*liable)), String::new(), "")
            }
            Some(Penalty::FalseNaming { discarder, claims }) => {
                let (claimant, claim) = claims[0];
                let claim = match claim {
                    referee::settle::NamingClaim::Chow => "chow",
                    referee::settle::NamingClaim::Pung => "pung",
                    referee::settle::NamingClaim::MahJongg => "mah-jongg",
                    referee::settle::NamingClaim::FalseMahJongg => "false-mah-jongg",
                };
                (
                    "false-naming",
                    seat(Some(*discarder)),
                    seat(Some(claimant)),
                    claim,
                )
            }
            _ => ("", String::new(), String::new(), ""),
        };
        let kept: Vec<&Penalty<Seat>> = r
            .penalties
            .iter()
            .enumerate()
            .filter(|&(i, _)| Some(i) != editable && Some(i) != rule)
            .map(|(_, p)| p)
            .collect();
        HandForm {
            hand_east: text(Seat::East),
            hand_south: text(Seat::South),
            hand_west: text(Seat::West),
            hand_north: text(Seat::North),
            winner: match r.winner {
                Some(w) => w.name().to_owned(),
                None => WASH_OUT.to_owned(),
            },
            // An older record's fused name (`last-wall-tile`) is shown as its source and flag.
            win_from: r
                .win_from
                .map(|w| w.source().name().to_owned())
                .unwrap_or_default(),
            discarder: seat(r.discarder),
            last_tile: tick(
                r.circumstances.last_tile || r.win_from.is_some_and(WinFrom::implies_last_tile),
            ),
            kong_upon_kong: tick(
                r.circumstances.kong_upon_kong || r.win_from == Some(WinFrom::KongUponKong),
            ),
            original_call: tick(r.circumstances.original_call),
            heavens_blessing: tick(r.circumstances.heavens_blessing),
            earths_blessing: tick(r.circumstances.earths_blessing),
            penalty_payer: seat(penalty.as_ref().map(|p| p.0)),
            penalty_payee: seat(penalty.as_ref().and_then(|p| p.1)),
            penalty_amount: penalty
                .as_ref()
                .map(|p| p.2.to_string())
                .unwrap_or_default(),
            penalty_reason: penalty.map(|p| p.3).unwrap_or_default(),
            rule_penalty: rule_penalty.to_owned(),
            rule_by,
            rule_claimant,
            rule_claim: rule_claim.to_owned(),
            kept_penalties: if kept.is_empty() {
                String::new()
            } else {
                serde_json::to_string(&kept).unwrap_or_default()
            },
            ..HandForm::default()
        }
    }

    /// The penalties carried through the form unchanged.
    fn kept(&self) -> Result<Vec<Penalty<Seat>>, AppError> {
        match self.kept_penalties.trim() {
            "" => Ok(Vec::new()),
            json => serde_json::from_str(json).map_err(|e| {
                AppError::bad_request(format!("the form's recorded penalties do not read: {e}"))
            }),
        }
    }

    /// The rule's penalty the form states, if any.
    fn rule_penalty(&self) -> Result<Option<Penalty<Seat>>, AppError> {
        let kind = self.rule_penalty.trim();
        if kind.is_empty() {
            return Ok(None);
        }
        let missing = |what: &str| {
            AppError::violations(
                Violation::new("penalties.rule", format!("{what} for the rule's penalty")).into(),
            )
        };
        let by = seat("the player liable", &self.rule_by)?
            .ok_or_else(|| missing("name the player liable"))?;
        Ok(Some(match kind {
            "false-mah-jongg" => Penalty::FalseMahJongg {
                offenders: vec![by],
            },
            "pays-for-all" => Penalty::PaysForAll {
                liable: by,
                liability: referee::settle::Liability::Full,
                second: None,
            },
            "false-naming" => {
                let claimant = seat("the claimant", &self.rule_claimant)?
                    .ok_or_else(|| missing("name who claimed the named tile"))?;
                let claim = match self.rule_claim.trim() {
                    "chow" => referee::settle::NamingClaim::Chow,
                    "pung" => referee::settle::NamingClaim::Pung,
                    "mah-jongg" => referee::settle::NamingClaim::MahJongg,
                    "false-mah-jongg" => referee::settle::NamingClaim::FalseMahJongg,
                    "" => return Err(missing("say what the named tile was claimed for")),
                    other => {
                        return Err(AppError::bad_request(format!(
                            "the claim `{other}` is none of chow, pung, mah-jongg, false-mah-jongg"
                        )))
                    }
                };
                Penalty::FalseNaming {
                    discarder: by,
                    claims: vec![(claimant, claim)],
                }
            }
            other => {
                return Err(AppError::bad_request(format!(
                    "the rule's penalty `{other}` is none of false-mah-jongg, pays-for-all, false-naming"
                )))
            }
        }))
    }

    /// The circumstances ticked.
    fn circumstances(&self) -> Circumstances {
        Circumstances {
            last_tile: ticked(&self.last_tile),
            kong_upon_kong: ticked(&self.kong_upon_kong),
            original_call: ticked(&self.original_call),
            heavens_blessing: ticked(&self.heavens_blessing),
            earths_blessing: ticked(&self.earths_blessing),
        }
    }

    /// The winner the form names: a seat, or `washout` (nobody). Left unchosen, it is refused:
    /// a blank or half-filled form is never recorded as a wash-out unless the official says so.
    fn winner(&self) -> Result<Option<Seat>, AppError> {
        match self.winner.trim() {
            WASH_OUT => Ok(None),
            "" => Err(AppError::violations(
                Violation::new(
                    "winner",
                    "say who went Mah-Jongg, or choose “nobody: wash-out” to record a wash-out",
                )
                .into(),
            )),
            w => seat("winner", w),
        }
    }

    /// The report the form states.
    pub fn report(&self) -> Result<HandReport, AppError> {
        // The form's own problems are gathered, so each is shown beside its field at once.
        let mut problems = referee::Violations::new();
        let mut gather = |e: AppError| -> Result<(), AppError> {
            if e.violations.is_empty() {
                return Err(e);
            }
            for v in e.violations {
                problems.push(v);
            }
            Ok(())
        };
        let winner = match self.winner() {
            Ok(w) => w,
            Err(e) => {
                gather(e)?;
                None
            }
        };
        let win_from = match (winner, self.win_from.trim()) {
            (None, _) | (_, "") => None,
            (Some(_), w) => Some(
                w.parse::<WinFrom>()
                    .map_err(|e| AppError::bad_request(e.to_string()))?,
            ),
        };
        let mut penalties = self.kept()?;
        if let Some(payer) = seat("penalty payer", &self.penalty_payer)? {
            let amount = self.penalty_amount.trim().parse::<i64>().map_err(|_| {
                AppError::violations(
                    Violation::new(
                        "penalties[0].amount",
                        format!("`{}` is not a whole number", self.penalty_amount.trim()),
                    )
                    .into(),
                )
            })?;
            penalties.insert(
                0,
                Penalty::Agreed {
                    payer,
                    payee: seat("penalty payee", &self.penalty_payee)?,
                    amount,
                    reason: self.penalty_reason.trim().to_owned(),
                },
            );
        }
        match self.rule_penalty() {
            Ok(p) => penalties.extend(p),
            Err(e) => gather(e)?,
        }
        if !problems.is_empty() {
            return Err(AppError::violations(problems));
        }
        let text = |s: &str| Some(s.to_owned()).filter(|s| !s.trim().is_empty());
        Ok(HandReport {
            discards: Vec::new(),
            short: Vec::new(),
            hands: BySeat::new(
                text(&self.hand_east),
                text(&self.hand_south),
                text(&self.hand_west),
                text(&self.hand_north),
            ),
            winner,
            win_from,
            discarder: seat("discarder", &self.discarder)?,
            circumstances: self.circumstances(),
            penalties,
        })
    }
}

/// One way of winning in the form's list.
#[derive(Clone, Debug)]
pub struct WinFromOption {
    pub name: &'static str,
    pub selected: bool,
}

/// One seat's line on the form.
#[derive(Clone, Debug)]
pub struct FormSeat {
    pub key: &'static str,
    pub label: String,
    /// The seat's wind this hand (`south`), for the live preview's score.
    pub wind: &'static str,
    pub value: String,
    /// Problems with this seat's hand, shown beside it.
    pub problems: Vec<String>,
}

/// A correction's settlement before and after, side by side, for one seat.
#[derive(Clone, Debug)]
pub struct PreviewRow {
    pub label: String,
    pub before: i64,
    pub after: i64,
}

/// The hand form's inputs, by the names its violations are placed at.
const INPUTS: [&str; 10] = [
    "hand_east",
    "hand_south",
    "hand_west",
    "hand_north",
    "winner",
    "win_from",
    "discarder",
    "circumstances",
    "penalty",
    "reason",
];

/// The input that shows a violation of `field`: `hands.south` beside `hand_south`, any
/// penalty's beside the penalty fields.
fn input_of(field: &str) -> String {
    if let Some(seat) = field.strip_prefix("hands.") {
        format!("hand_{seat}")
    } else if field.starts_with("penalties") {
        "penalty".to_owned()
    } else {
        field.to_owned()
    }
}

#[derive(Template)]
#[template(path = "record_hand.html")]
pub struct HandFormPage {
    pub nav: Nav,
    pub heading: String,
    pub context: String,
    pub action: String,
    pub hand_id: String,
    pub version: Option<u64>,
    pub seats: Vec<FormSeat>,
    pub winner: String,
    pub discarder: String,
    pub win_froms: Vec<WinFromOption>,
    /// The circumstances' checkboxes: (name, label, ticked).
    pub circumstances: Vec<(&'static str, &'static str, bool)>,
    pub penalty_payer: String,
    pub penalty_payee: String,
    pub penalty_amount: String,
    pub penalty_reason: String,
    pub rule_penalties: Vec<(&'static str, &'static str, bool)>,
    pub rule_by: String,
    pub rule_claimant: String,
    pub naming_claims: Vec<(&'static str, &'static str, bool)>,
    /// Penalties kept as recorded (JSON for the form, words for the reader).
    pub kept_penalties: String,
    pub kept_described: Vec<String>,
    pub reason: String,
    pub submit: &'static str,
    pub problems: Problems,
    /// A correction previewed: each seat's net before and after.
    pub preview: Vec<PreviewRow>,
    /// A hand to record, previewed: each player's score and net.
    pub settlement: Vec<SettlementRow>,
    /// The table's session clock, counting down while the hand is typed.
    pub clock: Option<crate::app::queries::table::SessionClockView>,
    /// The wind of the round and the tournament: the live preview's context.
    pub prevailing: &'static str,
    pub tournament: String,
}

/// Where the hand stands, for the live preview: who deals, the wind of the round, the
/// tournament whose ruleset scores it.
#[derive(Clone, Debug)]
pub struct PreviewContext {
    pub east: Seat,
    pub prevailing: referee::Wind,
    pub tournament: String,
}

/// A hand to record, previewed: one player's score and what they would pay or receive.
#[derive(Clone, Debug)]
pub struct SettlementRow {
    pub label: String,
    pub score: u64,
    pub net: String,
}

impl HandFormPage {
    /// The page for a form as typed; `labels` name each seat (player, wind this hand).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        nav: Nav,
        heading: String,
        context: String,
        action: String,
        hand_id: String,
        version: Option<u64>,
        labels: [String; 4],
        context_of: PreviewContext,
        form: &HandForm,
        error: Option<AppError>,
    ) -> HandFormPage {
        let problems = Problems::of(error.as_ref(), &INPUTS, input_of);
        let seats_named: [String; 4] =
            std::array::from_fn(|i| labels[i].split(" — ").next().unwrap_or_default().to_owned());
        let seats = Seat::ALL
            .into_iter()
            .zip(labels)
            .map(|(seat, label)| FormSeat {
                key: seat.name(),
                label,
                wind: seat.wind(context_of.east).name(),
                value: form.hand_text(seat).to_owned(),
                problems: problems
                    .at(&format!("hand_{seat}"))
                    .into_iter()
                    .map(str::to_owned)
                    .collect(),
            })
            .collect();
        HandFormPage {
            clock: None,
            nav,
            heading,
            context,
            action,
            hand_id,
            version,
            seats,
            winner: form.winner.clone(),
            discarder: form.discarder.clone(),
            win_froms: WinFrom::ALL
                .iter()
                .filter(|w| w.source() == **w)
                .map(|w| WinFromOption {
                    name: w.name(),
                    selected: w.name() == form.win_from
                        || (form.win_from.is_empty() && *w == WinFrom::Wall),
                })
                .collect(),
            circumstances: {
                let ticked = form.circumstances();
                CIRCUMSTANCES
                    .iter()
                    .map(|&(name, label, flag)| (name, label, flag(&ticked)))
                    .collect()
            },
            penalty_payer: form.penalty_payer.clone(),
            penalty_payee: form.penalty_payee.clone(),
            penalty_amount: form.penalty_amount.clone(),
            penalty_reason: form.penalty_reason.clone(),
            rule_penalties: RULE_PENALTIES
                .iter()
                .map(|&(v, l)| (v, l, form.rule_penalty == v))
                .collect(),
            rule_by: form.rule_by.clone(),
            rule_claimant: form.rule_claimant.clone(),
            naming_claims: NAMING_CLAIMS
                .iter()
                .map(|&(v, l)| (v, l, form.rule_claim == v))
                .collect(),
            kept_penalties: form.kept_penalties.clone(),
            kept_described: {
                // Each seat by its player, as the labels name them ("Ann — East seat, …").
                let who = |seat: Seat| -> String { seats_named[seat.index()].clone() };
                form.kept()
                    .unwrap_or_default()
                    .iter()
                    .map(|p| p.describe(&who))
                    .collect()
            },
            reason: form.reason.clone(),
            submit: if version.is_some() {
                "Record the correction"
            } else {
                "Record the hand"
            },
            problems,
            preview: Vec::new(),
            settlement: Vec::new(),
            prevailing: context_of.prevailing.name(),
            tournament: context_of.tournament,
        }
    }
}
