//! Reading lines of untrusted input with a bound on their length: a line longer than
//! [`MAX_LINE`] is refused once that much is read, instead of being buffered however long it
//! grows. Used by the ledger's import and by the command-line tools that read one record a line
//! (`waits`, `score -`), so that they all refuse the same lines with the same words.

use std::io::{self, BufRead, Read};

/// The longest line accepted, in bytes, not counting its line ending: 1 MiB, some hundred times
/// the longest hand record or export line.
pub const MAX_LINE: usize = 1 << 20;

/// Appends the next line of `input` to `buf`, its `\n` included, and returns how many bytes
/// were read (0 at the end of the input). On an error nothing is appended. A line longer than [`MAX_LINE`] is an
/// [`io::ErrorKind::InvalidData`] error saying so; the caller adds the line number.
pub fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<usize> {
    let start = buf.len();
    // A line of MAX_LINE bytes may still carry "\r\n".
    let n = match input
        .by_ref()
        .take(MAX_LINE as u64 + 2)
        .read_until(b'\n', buf)
    {
        Ok(n) => n,
        Err(e) => {
            buf.truncate(start);
            return Err(e);
        }
    };
    let line = &buf[start..];
    let content = line
        .strip_suffix(b"\n")
        .map_or(line, |l| l.strip_suffix(b"\r").unwrap_or(l));
    if content.len() > MAX_LINE {
        buf.truncate(start);
        return Err(too_long());
    }
    Ok(n)
}

/// The error of a line longer than [`MAX_LINE`].
fn too_long() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("the line is longer than {MAX_LINE} bytes (1 MiB); refused rather than buffered"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_up_to_the_bound_are_read_whole() {
        let mut text = vec![b'x'; MAX_LINE];
        text.extend_from_slice(b"\r\nnext");
        let mut input = io::Cursor::new(text);
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut input, &mut buf).unwrap(), MAX_LINE + 2);
        buf.clear();
        assert_eq!(read_line(&mut input, &mut buf).unwrap(), 4);
        assert_eq!(buf, b"next");
        buf.clear();
        assert_eq!(read_line(&mut input, &mut buf).unwrap(), 0);
    }

    #[test]
    fn a_longer_line_is_refused_without_reading_it_all() {
        // An endless line: the reader stops at the bound.
        let mut input = io::BufReader::new(io::repeat(b'x'));
        let mut buf = Vec::new();
        let err = read_line(&mut input, &mut buf).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        assert!(err.to_string().contains("longer than"), "{err}");
        assert!(buf.is_empty());
    }
}
