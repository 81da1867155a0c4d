//! `mahjong-referee waits`: the calling tiles of concealed hands read from standard input.
//!
//! One 13-tile hand per line in; one line out per line in, in the same order: the standard-shape
//! waits as canonical tokens separated by single spaces, or `-` when there are none. With
//! `--shape all` each special shape that has waits follows, as `; <shape>: <tiles>`. A line
//! that is not a valid 13-tile hand prints `error: <reason>` in its place, processing goes on,
//! and the exit status is 2. A line longer than 1 MiB stops the command with an error naming the
//! line (`ledger::lines`), rather than being buffered however long it grows. Output is flushed whenever the input has nothing more buffered,
//! so the command answers interactively and still runs at full speed on a file.

use std::io::{self, BufReader, BufWriter, ErrorKind, Read, Write};
use std::process::ExitCode;

use referee::{parse_counts, standard_waits, SpecialShape, TilesError};

/// Which shapes to report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum Shapes {
    /// Four sets and a pair only.
    #[default]
    Standard,
    /// The standard shape, then every special shape with waits, labelled.
    All,
}

#[derive(clap::Args)]
pub struct Args {
    /// Which shapes' waits to print.
    #[arg(long, value_enum, default_value_t = Shapes::Standard)]
    pub shape: Shapes,
}

/// The number of tiles a concealed hand must have on each line.
const HAND_SIZE: usize = 13;

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let mut input = BufReader::with_capacity(1 << 16, io::stdin().lock());
    let mut output = BufWriter::new(io::stdout().lock());
    match answer(&mut input, &mut output, args.shape) {
        Ok(false) => Ok(ExitCode::SUCCESS),
        Ok(true) => Ok(ExitCode::from(2)),
        // The reader went away (`| head`): not an error of ours.
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) => Err(e.into()),
    }
}

/// Answers every line of `input` on `output`; returns whether any line was invalid.
pub fn answer<R: Read, W: Write>(
    input: &mut BufReader<R>,
    output: &mut W,
    shapes: Shapes,
) -> io::Result<bool> {
    let mut any_invalid = false;
    let mut raw = Vec::new();
    let mut line_out = String::new();
    for n in 1usize.. {
        // Flush before a read that would wait for more input, never between buffered lines.
        if input.buffer().is_empty() {
            output.flush()?;
        }
        raw.clear();
        let read = ledger::lines::read_line(input, &mut raw).map_err(|e| at_line(n, e))?;
        if read == 0 {
            break;
        }
        line_out.clear();
        match std::str::from_utf8(&raw) {
            Err(e) => {
                any_invalid = true;
                line_out.push_str(&format!(
                    "error: byte {}: the line is not valid UTF-8",
                    e.valid_up_to() + 1
                ));
            }
            Ok(text) => {
                let text = text.trim_end_matches(['\n', '\r']);
                if let Err(e) = describe(text, shapes, &mut line_out) {
                    any_invalid = true;
                    line_out.clear();
                    line_out.push_str(&format!("error: {e}"));
                }
            }
        }
        line_out.push('\n');
        output.write_all(line_out.as_bytes())?;
    }
    output.flush()?;
    Ok(any_invalid)
}

/// An input error of line `n`, saying which line (what is answered so far stays answered).
fn at_line(n: usize, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("line {n}: {e}"))
}

fn describe(text: &str, shapes: Shapes, out: &mut String) -> Result<(), TilesError> {
    let hand = parse_counts(text, Some(HAND_SIZE))?;
    out.push_str(&standard_waits(&hand).to_tokens());
    if shapes == Shapes::All {
        for shape in SpecialShape::ALL {
            let waits = shape.waits(&hand);
            if !waits.is_empty() {
                out.push_str(&format!("; {shape}: {}", waits.to_tokens()));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_on(input: &[u8], shapes: Shapes) -> (String, bool) {
        let mut out = Vec::new();
        let invalid = answer(&mut BufReader::new(input), &mut out, shapes).unwrap();
        (String::from_utf8(out).unwrap(), invalid)
    }

    #[test]
    fn one_answer_per_line_in_order() {
        let (out, invalid) = run_on(
            b"123m 456m 789s EE 45p\n1112345678999m\r\n13579m 13579p 135s\n",
            Shapes::Standard,
        );
        assert_eq!(out, "3p 6p\n1m 2m 3m 4m 5m 6m 7m 8m 9m\n-\n");
        assert!(!invalid);
    }

    #[test]
    fn bad_lines_say_why_and_processing_continues() {
        let (out, invalid) = run_on(
            b"123m 456m 789s EE 45x\n123m\n1111m 1m 23456789p\n\n123m 456m 789s E 1f 45p\n\xff\nEE 123m 456m 789s 45p",
            Shapes::Standard,
        );
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 7, "{out}");
        assert!(
            lines[0].starts_with("error: column 21: unknown letter `x`"),
            "{}",
            lines[0]
        );
        assert_eq!(lines[1], "error: expected 13 tiles, found 3");
        assert!(lines[2].contains("fifth `1m`"), "{}", lines[2]);
        assert_eq!(lines[3], "error: expected 13 tiles, found 0");
        assert!(lines[4].contains("`1f` is a bonus tile"), "{}", lines[4]);
        assert!(lines[5].contains("not valid UTF-8"), "{}", lines[5]);
        assert_eq!(lines[6], "3p 6p");
        assert!(invalid);
    }

    #[test]
    fn all_shapes_are_labelled() {
        let (out, _) = run_on(
            b"1188m 55p 33s NN 11p 9s\n19m 19p 19s ESWN RGP\n",
            Shapes::All,
        );
        assert_eq!(
            out,
            "-; seven-twins: 9s\n-; thirteen-unique-wonders: 1m 9m 1p 9p 1s 9s E S W N R G P\n"
        );
    }

    #[test]
    fn a_line_past_the_bound_is_an_error_naming_it() {
        let mut input = b"123m 456m 789s EE 45p\n".to_vec();
        input.extend(std::iter::repeat_n(b' ', ledger::lines::MAX_LINE + 1));
        let mut out = Vec::new();
        let err = answer(&mut BufReader::new(&input[..]), &mut out, Shapes::Standard).unwrap_err();
        assert!(err.to_string().starts_with("line 2: "), "{err}");
        assert_eq!(out, b"3p 6p\n");
    }
}
