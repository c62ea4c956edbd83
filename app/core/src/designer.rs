//! Which of the campaign designer's fields a task shows, and the hints that depend on it: a
//! property asked of the task's protocol ([`TaskKind::designer`], given by each protocol
//! folder), so that the designer page names no task. Always built: the page reads it in the
//! browser.

use crate::model::TaskKind;
pub use crate::protocol::designer::{DesignerFields, JudgmentTime};

impl TaskKind {
    /// The designer's fields for this task.
    pub fn designer(self) -> DesignerFields {
        crate::protocol::for_task(self).designer()
    }
}

#[cfg(test)]
#[path = "designer_tests.rs"]
mod tests;
