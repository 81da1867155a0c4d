//! Answering a stream of lines on every core, in order, without holding back an interactive
//! pipe.
//!
//! `score -` spends its time scoring, and scoring one line does not depend on another, so a
//! reader thread cuts the input into chunks of whole lines, worker threads (one per core)
//! answer chunks, and the calling thread writes the answers back in input order. A chunk ends
//! at [`CHUNK_LINES`] lines or wherever the input has nothing more buffered, so a line typed
//! into a pipe is answered at once, and the output is flushed whenever no answer is waiting.
//! Queues are bounded: a slow reader of the output holds the input back instead of filling
//! memory.

use std::collections::BTreeMap;
use std::io::{self, BufReader, Read, Write};
use std::sync::mpsc::{self, Receiver, SyncSender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread;

/// The most lines in one chunk: large enough that handing chunks between threads costs
/// nothing next to scoring them, small enough to keep every worker busy.
pub const CHUNK_LINES: usize = 256;

/// Lines `first_line`, `first_line + 1`, … as read, each with its newline (the last may lack
/// one).
struct Chunk {
    seq: u64,
    first_line: usize,
    text: Vec<u8>,
}

/// A chunk's answers, one line each, and whether any line failed.
struct Answered {
    seq: u64,
    out: Vec<u8>,
    failed: bool,
}

/// Answers every line of `input` on `output`, in order, with `workers` threads. Each worker
/// has its own state from `state` (a cache, say); `answer(state, line, number, out)` appends
/// the answer to line `number` (from 1, without its newline) to `out`, newline included, and
/// returns whether the line failed. Returns whether any line failed.
pub fn answer_lines<R, W, S, F>(
    input: R,
    output: &mut W,
    workers: usize,
    state: impl Fn() -> S + Sync,
    answer: F,
) -> io::Result<bool>
where
    R: Read + Send,
    W: Write,
    F: Fn(&mut S, &[u8], usize, &mut Vec<u8>) -> bool + Sync,
{
    let workers = workers.max(1);
    thread::scope(|scope| {
        let (work_tx, work_rx) = mpsc::sync_channel::<Chunk>(2 * workers);
        let (done_tx, done_rx) = mpsc::sync_channel::<Answered>(4 * workers);
        // Shared by the workers only: when the last one stops, the reader's sends fail and it
        // stops too.
        let work_rx = Arc::new(Mutex::new(work_rx));
        for _ in 0..workers {
            let (work_rx, done_tx) = (Arc::clone(&work_rx), done_tx.clone());
            let (state, answer) = (&state, &answer);
            scope.spawn(move || work(&work_rx, &done_tx, state(), answer));
        }
        drop((work_rx, done_tx));
        let reader =
            scope.spawn(move || read_chunks(BufReader::with_capacity(1 << 16, input), &work_tx));
        let written = write_in_order(&done_rx, output);
        // On a write error the receiver goes, the workers stop, and so does the reader.
        drop(done_rx);
        let read = reader
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the input reader stopped")));
        let failed = written?;
        read?;
        Ok(failed)
    })
}

fn read_chunks<R: Read>(mut input: BufReader<R>, work: &SyncSender<Chunk>) -> io::Result<()> {
    let (mut seq, mut next_line) = (0u64, 1usize);
    loop {
        let mut text = Vec::new();
        let mut lines = 0;
        // A line that cannot be read ends the input; the lines before it are still answered.
        let mut failure = None;
        while lines < CHUNK_LINES {
            let n = next_line + lines;
            match ledger::lines::read_line(&mut input, &mut text) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) => {
                    failure = Some(io::Error::new(e.kind(), format!("line {n}: {e}")));
                    break;
                }
            }
            lines += 1;
            // Whatever is buffered goes out now rather than wait for more input.
            if input.buffer().is_empty() {
                break;
            }
        }
        if lines == 0 {
            return failure.map_or(Ok(()), Err);
        }
        let chunk = Chunk {
            seq,
            first_line: next_line,
            text,
        };
        if work.send(chunk).is_err() {
            // The writer stopped (its error is the one reported).
            return Ok(());
        }
        if let Some(e) = failure {
            return Err(e);
        }
        seq += 1;
        next_line += lines;
    }
}

fn work<S, F>(work: &Mutex<Receiver<Chunk>>, done: &SyncSender<Answered>, mut state: S, answer: &F)
where
    F: Fn(&mut S, &[u8], usize, &mut Vec<u8>) -> bool,
{
    loop {
        let next = work.lock().map_or(None, |rx| rx.recv().ok());
        let Some(chunk) = next else {
            return;
        };
        let mut out = Vec::with_capacity(chunk.text.len() * 8);
        let mut failed = false;
        let body = chunk.text.strip_suffix(b"\n").unwrap_or(&chunk.text);
        for (i, line) in body.split(|&b| b == b'\n').enumerate() {
            failed |= answer(&mut state, line, chunk.first_line + i, &mut out);
        }
        let answered = Answered {
            seq: chunk.seq,
            out,
            failed,
        };
        if done.send(answered).is_err() {
            return;
        }
    }
}

fn write_in_order<W: Write>(done: &Receiver<Answered>, output: &mut W) -> io::Result<bool> {
    let mut waiting = BTreeMap::new();
    let (mut next, mut failed) = (0u64, false);
    loop {
        let answered = match done.try_recv() {
            Ok(a) => a,
            Err(TryRecvError::Empty) => {
                // Nothing ready: what was written goes out before waiting.
                output.flush()?;
                match done.recv() {
                    Ok(a) => a,
                    Err(_) => break,
                }
            }
            Err(TryRecvError::Disconnected) => break,
        };
        waiting.insert(answered.seq, answered);
        while let Some(a) = waiting.remove(&next) {
            output.write_all(&a.out)?;
            failed |= a.failed;
            next += 1;
        }
    }
    output.flush()?;
    Ok(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Echoes each line with its number; a line "bad" fails.
    fn echo(input: &str, workers: usize) -> (String, bool) {
        let mut out = Vec::new();
        let failed = answer_lines(
            input.as_bytes(),
            &mut out,
            workers,
            || (),
            |_, line, n, out| {
                out.extend_from_slice(
                    format!("{n}:{}\n", String::from_utf8_lossy(line)).as_bytes(),
                );
                line == b"bad"
            },
        )
        .unwrap();
        (String::from_utf8(out).unwrap(), failed)
    }

    #[test]
    fn every_line_answered_once_in_order_on_any_number_of_workers() {
        let input: String = (0..5000).map(|i| format!("l{i}\n")).collect();
        let expected: String = (0..5000).map(|i| format!("{}:l{i}\n", i + 1)).collect();
        for workers in [1, 2, 7] {
            assert_eq!(echo(&input, workers), (expected.clone(), false));
        }
    }

    #[test]
    fn blank_lines_a_missing_last_newline_and_failures_are_kept() {
        assert_eq!(
            echo("a\n\nbad\r\nc", 2),
            ("1:a\n2:\n3:bad\r\n4:c\n".to_owned(), false)
        );
        assert_eq!(echo("a\nbad\n", 2), ("1:a\n2:bad\n".to_owned(), true));
        assert_eq!(echo("", 2), (String::new(), false));
    }

    #[test]
    fn an_endless_line_is_an_error_naming_it_after_the_lines_before_it() {
        let mut out = Vec::new();
        let input = (&b"a\nb\n"[..]).chain(io::repeat(b'x'));
        let e = answer_lines(
            input,
            &mut out,
            2,
            || (),
            |_, line, n, out| {
                out.extend_from_slice(
                    format!("{n}:{}\n", String::from_utf8_lossy(line)).as_bytes(),
                );
                false
            },
        )
        .unwrap_err();
        assert!(e.to_string().starts_with("line 3: "), "{e}");
        assert!(e.to_string().contains("longer than"), "{e}");
        assert_eq!(out, b"1:a\n2:b\n");
    }

    #[test]
    fn a_closed_output_stops_everything_with_its_error() {
        struct Closed;
        impl Write for Closed {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let input: String = (0..100_000).map(|i| format!("{i}\n")).collect();
        let e = answer_lines(
            input.as_bytes(),
            &mut Closed,
            2,
            || (),
            |_, _, _, out| {
                out.push(b'\n');
                false
            },
        )
        .unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::BrokenPipe);
    }
}
