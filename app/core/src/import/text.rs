//! Bounded reading of files: line splitting with CRLF/BOM stripping, per-line UTF-8 checks and
//! the size limits, enforced while streaming (never more than the limit plus one buffer is read).

use std::io::{BufRead, BufReader, Read};

use super::{Errors, ImportError, ImportLimits};

/// Bytes handed out so far in one import, checked against `max_total_bytes`.
#[derive(Debug, Default)]
pub(crate) struct Budget {
    pub(crate) used: u64,
}

/// The lines of a file, without line ends; invalid UTF-8 lines are reported and kept lossily.
pub(crate) struct Lines {
    pub(crate) lines: Vec<String>,
}

fn too_big_file(file: &str, limits: &ImportLimits) -> ImportError {
    ImportError::new(
        file,
        None,
        format!(
            "file is larger than the limit of {} bytes",
            limits.max_file_bytes
        ),
    )
}

fn too_big_total(file: &str, limits: &ImportLimits) -> ImportError {
    ImportError::new(
        file,
        None,
        format!(
            "the import holds more than the limit of {} bytes in total (reached while reading this file)",
            limits.max_total_bytes
        ),
    )
}

/// Reads up to `cap` bytes of one line (up to and including `\n`) into `buf`; returns the bytes read.
fn read_line_capped<R: BufRead>(
    r: &mut R,
    buf: &mut Vec<u8>,
    cap: usize,
) -> std::io::Result<usize> {
    let mut total = 0;
    loop {
        let available = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(total);
        }
        let room = cap.saturating_sub(buf.len());
        let window = &available[..available.len().min(room)];
        let (used, done) = match window.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (window.len(), window.len() == room),
        };
        buf.extend_from_slice(&window[..used]);
        r.consume(used);
        total += used;
        if done {
            return Ok(total);
        }
    }
}

/// Reads a line-based text file under the limits. Returns `None` when reading had to stop (limit
/// or I/O error); per-line problems (invalid UTF-8) are pushed to `errs` and reading goes on.
pub(crate) fn read_lines(
    reader: &mut dyn Read,
    file: &str,
    limits: &ImportLimits,
    budget: &mut Budget,
    errs: &mut Errors,
) -> Option<Lines> {
    let mut r = BufReader::new(reader.take(limits.max_file_bytes.saturating_add(1)));
    let mut lines = Vec::new();
    let mut buf = Vec::new();
    let mut file_bytes: u64 = 0;
    let cap = limits.max_line_bytes.saturating_add(1);
    loop {
        buf.clear();
        let n = match read_line_capped(&mut r, &mut buf, cap) {
            Ok(n) => n,
            Err(e) => {
                errs.push(
                    file,
                    Some(lines.len() + 1),
                    format!("could not be read: {e}"),
                );
                return None;
            }
        };
        if n == 0 {
            break;
        }
        file_bytes += n as u64;
        budget.used += n as u64;
        if file_bytes > limits.max_file_bytes {
            errs.add(too_big_file(file, limits));
            return None;
        }
        if budget.used > limits.max_total_bytes {
            errs.add(too_big_total(file, limits));
            return None;
        }
        let line_no = lines.len() + 1;
        let ended = buf.last() == Some(&b'\n');
        if ended {
            buf.pop();
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
        } else if buf.len() > limits.max_line_bytes {
            errs.push(
                file,
                Some(line_no),
                format!(
                    "line is longer than the limit of {} bytes",
                    limits.max_line_bytes
                ),
            );
            return None;
        } else if buf.last() == Some(&b'\r') {
            buf.pop();
        }
        let bytes: &[u8] = if line_no == 1 && buf.starts_with(&[0xEF, 0xBB, 0xBF]) {
            &buf[3..]
        } else {
            &buf
        };
        if bytes.contains(&0) {
            // PostgreSQL cannot store it, and no text needs it (see `crate::limits`).
            errs.push(file, Some(line_no), crate::limits::TextProblem::Nul.to_string());
        }
        match std::str::from_utf8(bytes) {
            Ok(s) => lines.push(s.to_string()),
            Err(e) => {
                errs.push(
                    file,
                    Some(line_no),
                    format!(
                        "invalid UTF-8 at byte {} of the line (files must be UTF-8)",
                        e.valid_up_to() + 1
                    ),
                );
                lines.push(String::from_utf8_lossy(bytes).into_owned());
            }
        }
    }
    Some(Lines { lines })
}

/// Reads a whole file (for JSON) under the file and total limits.
pub(crate) fn read_all(
    reader: &mut dyn Read,
    file: &str,
    limits: &ImportLimits,
    budget: &mut Budget,
) -> Result<Vec<u8>, ImportError> {
    let mut out = Vec::new();
    let mut r = reader.take(limits.max_file_bytes.saturating_add(1));
    let mut chunk = [0u8; 64 * 1024];
    loop {
        let n = match r.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                return Err(ImportError::new(
                    file,
                    None,
                    format!("could not be read: {e}"),
                ));
            }
        };
        out.extend_from_slice(&chunk[..n]);
        budget.used += n as u64;
        if out.len() as u64 > limits.max_file_bytes {
            return Err(too_big_file(file, limits));
        }
        if budget.used > limits.max_total_bytes {
            return Err(too_big_total(file, limits));
        }
    }
    if out.starts_with(&[0xEF, 0xBB, 0xBF]) {
        out.drain(..3);
    }
    Ok(out)
}

/// True when a line has no text (empty or whitespace only).
pub(crate) fn is_blank(s: &str) -> bool {
    s.trim().is_empty()
}
