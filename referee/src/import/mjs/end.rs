//! The messages at the end of the hand: Mah-Jong, each seat's tiles laid down in groups as it
//! scores them (Code §104–105), the server's cannon rulings, a wash-out, the scores and the
//! settlement — kept as the server wrote them, for the comparison of scores.

use crate::by_seat::BySeat;
use crate::event::{
    ClaimGranted, ClaimKind, HandEvent, HandExposed, HandStarted, MahJonggDeclared,
    NoChoicePleaded, WashOut,
};
use crate::hand::ConcealedGroup;
use crate::play::{Play, PlayRules};
use crate::seat::Seat;
use crate::shape::Set;

use super::{MjsError, Reading, ServerCannon, Words};

impl Reading {
    /// `PlayerMahJongs seat tile`: Mah-Jong on a drawn tile, or (`--`) on the last discard.
    pub(super) fn mahjong(&mut self, words: &mut Words) -> Result<(), MjsError> {
        let seat = self.r.seat(words.next())?;
        if self.mahjong_seat == Some(seat) {
            return Ok(());
        }
        self.mahjong_seat = Some(seat);
        match words.next() {
            Some("--") | None => {
                let tile = self
                    .last_discard
                    .ok_or_else(|| self.r.err("Mah-Jong on a discard before any discard"))?;
                if self.claimed_mahjong.contains(&seat) {
                    self.push(HandEvent::ClaimGranted(ClaimGranted {
                        seat,
                        claim: ClaimKind::MahJongg,
                    }));
                }
                self.push(HandEvent::MahJonggDeclared(MahJonggDeclared {
                    seat,
                    winning_tile: tile,
                    self_drawn: false,
                }));
            }
            w => {
                let tile = self.r.tile(w)?;
                self.push(HandEvent::MahJonggDeclared(MahJonggDeclared {
                    seat,
                    winning_tile: tile,
                    self_drawn: true,
                }));
            }
        }
        Ok(())
    }

    /// A group of tiles laid down after Mah-Jong (`PlayerFormsClosedPung seat tile`,
    /// `PlayerChows seat tile position` …). §104: the concealed tiles grouped as the player
    /// scores them; the set or pair a winning discard completes comes first, so it is the one
    /// the winning tile is placed in.
    pub(super) fn laid_group(
        &mut self,
        kind: &str,
        words: &mut Words,
        record: &str,
    ) -> Result<(), MjsError> {
        let seat = self.r.seat(words.next())?;
        self.laid_down.push((seat, record.to_owned()));
        let tile = || self.r.tile(words.clone().next());
        let group = match kind {
            "PlayerFormsClosedPung" | "PlayerPungs" => {
                Some(ConcealedGroup::Set(Set::pung(tile()?)))
            }
            "PlayerFormsClosedPair" | "PlayerPairs" => Some(ConcealedGroup::Pair(tile()?)),
            "PlayerFormsClosedChow" => Some(ConcealedGroup::Set(
                Set::chow(tile()?).ok_or_else(|| self.r.err("no chow begins there"))?,
            )),
            "PlayerChows" => {
                let lowest = self.chow_of(tile()?, words.clone().nth(1))?;
                Some(ConcealedGroup::Set(
                    Set::chow(lowest).ok_or_else(|| self.r.err("no chow begins there"))?,
                ))
            }
            _ => None,
        };
        let line = self.r.line;
        let entry = self.groups[seat].get_or_insert_with(|| (line, Vec::new(), None));
        if let Some(g) = group {
            if matches!(kind, "PlayerPungs" | "PlayerPairs" | "PlayerChows") {
                entry.1.insert(0, g);
                entry.2 = Some(0);
            } else {
                entry.1.push(g);
            }
        }
        Ok(())
    }

    /// `DangerousDiscard discarder serial nochoice`: the server's cannon ruling. The server
    /// excuses a discarder by itself; at a table he shows his tiles and pleads (§95(b)).
    pub(super) fn dangerous_discard(&mut self, words: &mut Words) -> Result<(), MjsError> {
        let discarder = self.r.seat(words.next())?;
        let serial = self.r.number(words.next())?;
        let event = self
            .serials
            .get(&serial)
            .map(|s| s.event())
            .ok_or_else(|| {
                self.r.err(format!(
                    "a dangerous discard of serial {serial}, which no discard or kong has"
                ))
            })?;
        let no_choice = words.next() == Some("1");
        self.dangerous.push(ServerCannon {
            line: self.r.line,
            discarder,
            event,
            no_choice,
        });
        if no_choice {
            self.push(HandEvent::NoChoicePleaded(NoChoicePleaded {
                seat: discarder,
            }));
        }
        Ok(())
    }

    /// `WashOut reason`.
    pub(super) fn washed_out(&mut self, words: &mut Words) -> Result<(), MjsError> {
        let reason = words.collect::<Vec<_>>().join(" ");
        self.push(HandEvent::WashOut(WashOut { reason }));
        Ok(())
    }

    /// `HandScore seat score text`.
    pub(super) fn hand_score(&mut self, words: &mut Words) -> Result<(), MjsError> {
        let seat = self.r.seat(words.next())?;
        let score = words.next().and_then(|w| w.parse().ok()).unwrap_or(0);
        let text: String = words.collect::<Vec<_>>().join(" ");
        self.scores.push((seat, score, text));
        Ok(())
    }

    /// `Settlement e s w n text`: each wind's change, East first.
    pub(super) fn settled(&mut self, words: &mut Words) -> Result<(), MjsError> {
        let mut changes = [0i64; 4];
        for c in &mut changes {
            *c = words
                .next()
                .and_then(|w| w.parse().ok())
                .ok_or_else(|| self.r.err("a settlement without four changes"))?;
        }
        self.settlement = Some((changes, words.collect::<Vec<_>>().join(" ")));
        Ok(())
    }
}

/// A seat's laid-down groups: the line of its first laying-down message, the groups, and the
/// one a winning discard was placed in.
pub(super) type LaidGroups = (usize, Vec<ConcealedGroup>, Option<usize>);

/// The hands as each seat laid them down after the hand (Code §104–105), appended to `events`
/// as `HandExposed`: the play is replayed to learn each seat's tiles, which are then grouped as
/// the seat grouped them. A play that cannot be replayed gets none (its replay will say why).
pub(super) fn lay_down(
    started: &HandStarted,
    events: &mut Vec<(usize, HandEvent)>,
    groups: &BySeat<Option<LaidGroups>>,
) -> Result<(), MjsError> {
    let Ok(mut play) = Play::start(PlayRules::default(), started) else {
        return Ok(());
    };
    if events.iter().any(|(_, e)| play.apply(e).is_err()) {
        return Ok(());
    }
    let state = play.state();
    for seat in Seat::ALL {
        let Some((line, grouped, winning_in)) = &groups[seat] else {
            continue;
        };
        let hand = state
            .hand_grouped(seat, grouped, *winning_in)
            .ok_or_else(|| MjsError {
                line: *line,
                what: format!(
                    "the groups {seat} laid down ({}) are not among its tiles",
                    grouped
                        .iter()
                        .map(|g| g
                            .tiles()
                            .iter()
                            .map(ToString::to_string)
                            .collect::<String>())
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
            })?;
        events.push((*line, HandEvent::HandExposed(HandExposed { seat, hand })));
    }
    Ok(())
}
