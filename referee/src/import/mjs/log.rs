//! A whole mj-server game from its `server.log`: every hand, wash-outs included.
//!
//! The log holds every protocol message of the game. Lines from the server (`>cnxK MSG`) are
//! kept, client lines (`<cnxK …`) dropped; the players, the `Game` line and the game options
//! are sent to each connection, and are kept once. Each hand runs from its `NewHand` to the
//! next (a `NewRound` before a `NewHand` belongs to the hand it opens). The log has no
//! `Wall` line, so each hand's deal is the first 53 draws (`Deal::Hands`), and every later
//! draw names its tile. Each hand is then read as an `.mjs` hand history is ([`read`]).

use crate::ids::TableId;

use super::{read, records, MjsError, MjsHand};

/// The hands of a game's `server.log`, in the order played, as `table`'s game `game`.
pub fn read_log(text: &str, table: &TableId, game: u32) -> Result<Vec<(usize, MjsHand)>, MjsError> {
    let mut header: Vec<String> = Vec::new();
    let mut seen_players = Vec::new();
    let mut seen_options = Vec::new();
    let mut game_line = false;
    // Each hand's messages with their line numbers in the log.
    let mut hands: Vec<Vec<(usize, String)>> = Vec::new();
    let mut round: Option<(usize, String)> = None;
    for (line, record) in records(text) {
        let Some(rest) = record.strip_prefix(">cnx") else {
            continue;
        };
        let Some((_, message)) = rest.split_once(' ') else {
            continue;
        };
        let mut words = message.split_ascii_whitespace();
        match words.next() {
            Some("Player") if hands.is_empty() => {
                let id = words.next().unwrap_or_default().to_owned();
                if !seen_players.contains(&id) {
                    seen_players.push(id);
                    header.push(message.to_owned());
                }
            }
            Some("Game") if !game_line => {
                game_line = true;
                header.push(message.to_owned());
            }
            Some("GameOption") if hands.is_empty() => {
                let name = words.nth(1).unwrap_or_default().to_owned();
                if !seen_options.contains(&name) {
                    seen_options.push(name);
                    header.push(message.to_owned());
                }
            }
            Some("NewRound") => round = Some((line, message.to_owned())),
            Some("NewHand") => {
                let mut hand = Vec::new();
                hand.extend(round.take());
                hand.push((line, message.to_owned()));
                hands.push(hand);
            }
            _ => {
                if let Some(hand) = hands.last_mut() {
                    hand.push((line, message.to_owned()));
                }
            }
        }
    }
    if hands.is_empty() {
        return Err(MjsError {
            line: 0,
            what: "no `NewHand` in the log: not an mj-server game log".into(),
        });
    }
    let mut out = Vec::with_capacity(hands.len());
    let mut prevailing: Option<String> = None;
    for (n, messages) in hands.into_iter().enumerate() {
        let first = messages.first().map_or(0, |(l, _)| *l);
        if let Some((_, r)) = messages.iter().find(|(_, m)| m.starts_with("NewRound")) {
            prevailing = Some(r.clone());
        }
        // The hand as an `.mjs` would hold it: the header, the round it is in, its messages.
        let mut text = header.join("\r\n");
        text.push_str("\r\n");
        if let Some(r) = &prevailing {
            text.push_str(r);
            text.push_str("\r\n");
        }
        // Line numbers in errors are the log's: where each message starts in the hand's text
        // is kept beside its line in the log (a message may run over several lines).
        let mut at = header.len() + usize::from(prevailing.is_some()) + 1;
        let mut starts: Vec<(usize, usize)> = Vec::with_capacity(messages.len());
        for (l, m) in &messages {
            starts.push((at, *l));
            at += 1 + m.matches('\n').count();
            text.push_str(m);
            text.push_str("\r\n");
        }
        let log_line = |l: usize| {
            let i = starts.partition_point(|&(start, _)| start <= l);
            i.checked_sub(1)
                .map(|i| starts[i].1 + (l - starts[i].0))
                .unwrap_or(first)
        };
        let mut hand = read(&text, table.clone(), game, n as u32 + 1).map_err(|e| MjsError {
            line: log_line(e.line),
            what: format!("hand {} of the log: {}", n + 1, e.what),
        })?;
        for (l, _) in &mut hand.events {
            *l = log_line(*l);
        }
        out.push((first, hand));
    }
    Ok(out)
}
