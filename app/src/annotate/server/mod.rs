//! The domain of annotation (server only): who may work on an assignment, which item is
//! current, storing a judgment exactly once, and completion codes.
//!
//! Rules:
//! - An assignment of an account worker (`workers.user_id`) is only for that account's session;
//!   a crowd assignment is for whoever holds its public id (a 256-bit random token).
//! - Items are answered in order, each once. The current item is `assignments.next_position`;
//!   storing a judgment and advancing the position happen in one transaction, guarded by the
//!   expected position, so two racing requests cannot both answer (or skip) an item.
//! - A retry of a stored answer with the same idempotency key returns the current step again;
//!   any other second answer for the same item is refused.
//! - Every item is loaded with the same one query whatever its type: no extra work, no extra
//!   field, for quality-control items.
//!
//! One job a file, from the bottom up: [`error`] (refusals and their language), [`assignment`]
//! (an assignment as a request finds it), [`validation`] (an answer and its check), [`queue`]
//! (storing an answer; the group commit on SQLite), [`items`] (the HIT's items and what each
//! server keeps of them), [`codes`] (completion codes), [`practice`], [`state`] (the work
//! state and Start), [`submit`] (answers and screens of answers), [`listings`] (assignments,
//! judgments and items for their owners and organizers).

mod assignment;
mod codes;
mod error;
mod items;
mod listings;
mod practice;
mod queue;
mod state;
mod submit;
mod validation;

pub use codes::{CodeClaim, verify_code};
pub use error::{WorkError, interface_lang_of};
pub use items::Work;
pub use listings::{all_assignments, items_of, judgments_of, my_assignments};
pub use practice::{PracticeGiven, practice_answer, practice_answer_in};
pub use state::{start, work_state, work_state_in};
pub use submit::{ScreenAnswer, submit, submit_screen};
pub use validation::{Answer, MAX_TIME_ON_SCREEN_MS};

#[cfg(test)]
mod tests;
