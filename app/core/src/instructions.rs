//! The instructions page an organizer writes (issue 18): plain text with paragraphs and simple
//! lists, never HTML. [`blocks`] is the one reader: the annotation start page and the Mechanical
//! Turk preview draw its blocks as text, so whatever the organizer types (`<script>`, `&amp;`)
//! is shown as typed.

use serde::{Deserialize, Serialize};

/// One block of an instructions page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Block {
    /// A paragraph: consecutive lines joined with a line break kept.
    Paragraph(String),
    /// A list: consecutive lines starting with "- ", "* " or "• " (the marker dropped).
    List(Vec<String>),
}

/// The list marker a line starts with, if any.
fn list_item(line: &str) -> Option<&str> {
    let t = line.trim_start();
    ["- ", "* ", "• "].iter().find_map(|m| t.strip_prefix(m)).map(str::trim)
}

/// Reads an instructions text: blank lines separate paragraphs; a run of lines starting with
/// "- " (or "* ", "• ") is a list, and a line that does not start with a marker right after a
/// list item continues it. Empty blocks are dropped.
pub fn blocks(text: &str) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    // Whether the last block is still open (no blank line since).
    let mut open = false;
    for line in text.replace("\r\n", "\n").replace('\r', "\n").lines() {
        if line.trim().is_empty() {
            open = false;
            continue;
        }
        match (list_item(line), out.last_mut()) {
            (Some(item), Some(Block::List(items))) if open => items.push(item.to_string()),
            (Some(item), _) => out.push(Block::List(vec![item.to_string()])),
            (None, Some(Block::List(items))) if open => {
                if let Some(last) = items.last_mut() {
                    last.push(' ');
                    last.push_str(line.trim());
                }
            }
            (None, Some(Block::Paragraph(p))) if open => {
                p.push('\n');
                p.push_str(line.trim());
            }
            (None, _) => out.push(Block::Paragraph(line.trim().to_string())),
        }
        open = true;
    }
    out.retain(|b| match b {
        Block::Paragraph(p) => !p.is_empty(),
        Block::List(items) => !items.is_empty(),
    });
    out
}

#[cfg(test)]
#[path = "instructions_tests.rs"]
mod tests;
