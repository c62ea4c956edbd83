//! English: the source of every translation.

use super::{Msg, Text};

/// Language names as a sentence uses them (en de cs zh ja ar hi fr es ru uk).
pub(super) const NAMES: [&str; 11] =
    ["English", "German", "Czech", "Chinese", "Japanese", "Arabic", "Hindi", "French", "Spanish", "Russian", "Ukrainian"];

pub(super) fn msg(m: Msg) -> &'static str {
    match m {
        Msg::Loading => "Loading…",
        Msg::CannotOpen => "This HIT cannot be opened",
        Msg::KeptAnswer => "Your answer to this item is kept on this page: press the button again to send it.",
        Msg::KeptRanks => "Your ranks on this screen are kept on this page: press the button again to send them.",
        Msg::KeptSpans => "Your errors and score are kept on this page: press the button again to send them.",
        Msg::SliderNotSet => "not set; between “{low}” and “{high}”",
        Msg::SliderAt => "“{end}”",
        Msg::SliderCloseTo => "close to “{end}”",
        Msg::SliderLeaning => "leaning towards “{end}”",
        Msg::SliderMiddle => "in the middle",
        Msg::NotSetYet => "Not set yet",
        Msg::KeysTitle => "Keys:",
        Msg::KeysChooseBox => "choose a box (of the question with the focus, else the first unanswered)",
        Msg::KeysNextQuestion => "next question",
        Msg::KeysGoOn => "go on",
        Msg::KeysToTranslation => "to a translation",
        Msg::KeysItsRank => "its rank (1 is best)",
        Msg::KeysMoveLittle => "move a little",
        Msg::KeysMoveMore => "move more",
        Msg::KeysEnds => "the ends",
        Msg::Progress => "{n} of {total}",
        Msg::ProgressRange => "Translations {from} to {to} of {total}",
        Msg::Instructions => "Instructions",
        Msg::HitSize => "This HIT has {n} items.",
        Msg::PracticeBefore => "Before the HIT: {n} practice items, with feedback after each answer. They are not part of the HIT and are not counted.",
        Msg::PracticeRequired => "At least {required} of the {total} answers must be where a careful reader's would be; otherwise the practice starts over.",
        Msg::PracticeResume => "You are at practice item {n} of {total}.",
        Msg::StartPractice => "Start the practice",
        Msg::Start => "Start",
        Msg::PracticeLabel => "Practice item {n} of {total} · not part of the HIT",
        Msg::PracticeFeedbackLabel => "Practice item {n} of {total} · feedback",
        Msg::StartHit => "Start the HIT",
        Msg::PracticeAgain => "Start the practice again",
        Msg::NextPractice => "Next practice item",
        Msg::WhySlider => "Move the slider to give your rating.",
        Msg::FirstSentence => "First sentence",
        Msg::SecondSentence => "Second sentence",
        Msg::TranslationsFrom => "Both sentences are translations from {source}.",
        Msg::Skip => "Skip this item",
        Msg::WhyBoxesBoth => "Choose a box for both questions to go on.",
        Msg::WhyBoxesFirst => "Choose a box for the first question to go on.",
        Msg::WhyBoxesSecond => "Choose a box for the second question to go on.",
        Msg::WhySlidersBoth => "Move both sliders to give your answers.",
        Msg::WhySliderFirst => "Move the first slider to give your answer.",
        Msg::WhySliderSecond => "Move the second slider to give your answer.",
        Msg::BoxEnd => "box {n} of 5: {end}",
        Msg::BoxN => "box {n} of 5",
        Msg::AllRanked => "Every translation is ranked.",
        Msg::RanksLeftOne => "Rank 1 more translation to go on (1 is best; equal translations may share a rank).",
        Msg::RanksLeft => "Rank {k} more translations to go on (1 is best; equal translations may share a rank).",
        Msg::SentenceNofM => "Sentence {n} of {total}",
        Msg::Sentence => "Sentence",
        Msg::TranslationN => "Translation {n}",
        Msg::RankBest => "rank 1, best",
        Msg::RankWorst => "rank {r}, worst",
        Msg::RankN => "rank {r}",
        Msg::PairTranslationA => "Translation A",
        Msg::PairTranslationB => "Translation B",
        Msg::PairPickA => "A is better",
        Msg::PairPickB => "B is better",
        Msg::PairPickSame => "About the same",
        Msg::PairChoose => "Choose A, B or about the same to go on.",
        Msg::PostEditField => "Your corrected translation",
        Msg::PostEditUnchanged => "No change needed",
        Msg::PostEditKeys => "Ctrl+Enter goes on.",
        Msg::PostEditEmpty => "Write the translation, or press “No change needed”.",
        Msg::ContrastiveSwitch => "Translations to compare",
        Msg::Complete => "Thank you: this HIT is complete",
        Msg::Saved => "Your answers have been saved.",
        Msg::HeldMessage => "The organizer reviews finished HITs before giving out completion codes. Once the review is done, your code will be shown on this page. You do not need to do anything else now.",
        Msg::YourCode => "Your completion code:",
        Msg::ReturnToPlatform => "Return to the study platform",
        Msg::KeepCode => "Keep this code: the organizer may ask for it.",
        Msg::SevMinor => "minor error",
        Msg::SevMajor => "major error",
        Msg::SevCritical => "critical error",
        Msg::SevNeutral => "neutral (not an error)",
        Msg::MarkMinor => "Minor error",
        Msg::MarkMajor => "Major error",
        Msg::MarkCritical => "Critical error",
        Msg::MarkNeutral => "Neutral (not an error)",
        Msg::EsaChooseCategory => "Choose the error's category first.",
        Msg::EsaMaxErrors => "At most {n} errors per segment: keep the most severe.",
        Msg::EsaMarked => "Marked “{text}”: {severity}.",
        Msg::EsaNowMajor => "“{text}” is now a major error.",
        Msg::EsaRemoved => "Removed the error “{text}”.",
        Msg::EsaMissingLabel => "[MISSING]: mark it if something of the source is missing",
        Msg::EsaWordMarked => "{word}, marked: {severity}",
        Msg::EsaHelp => "Select the words of an error (drag, or tap the first and the last word), then choose how bad it is. Click a marked error to change it.",
        Msg::EsaPrefilled => "Some errors are marked already, as suggestions: check each one (keep it, change how bad it is, or remove it) and mark any errors they missed.",
        Msg::EsaToolbar => "Mark the selected words",
        Msg::EsaSelected => "Selected: “{text}”",
        Msg::EsaNothingSelected => "No words selected",
        Msg::EsaCategory => "Category",
        Msg::EsaChoose => "— choose —",
        Msg::Cancel => "Cancel",
        Msg::EsaNoErrors => "No errors marked",
        Msg::EsaOneError => "One error marked",
        Msg::EsaErrorsMarked => "{n} errors marked",
        Msg::MakeMajor => "Make major",
        Msg::MakeMinor => "Make minor",
        Msg::Remove => "Remove",
        Msg::EsaScoreSegment => "Score of this segment's translation",
        Msg::EsaScoreDocument => "Score of the whole document's translation",
        Msg::EsaAnchorSome => "Some meaning preserved",
        Msg::EsaAnchorMost => "Most meaning preserved, few errors",
        Msg::EsaConfirm => "You gave a low score but marked no error. Mark the errors, or press the button again to send the score as it is.",
        Msg::WhyEsaScore => "Move the slider to score the translation.",
        Msg::WhyEsaDocument => "Score the whole document too.",
        Msg::EsaSegmentOf => "Segment {k} of {n} of this document",
        Msg::EsaSoFar => "The document so far",
        Msg::EsaRest => "The rest of the document",
        Msg::KeysToTheTranslation => "to the translation",
        Msg::KeysWords => "words",
        Msg::KeysSelect => "select",
        Msg::KeysMinor => "minor",
        Msg::KeysMajor => "major",
        Msg::KeysChangeError => "on an error: change it",
        Msg::KeysRemove => "remove",
        Msg::KeysElsewhere => "elsewhere: go on",
        Msg::Undo => "Undo",
        Msg::EsaUndone => "Undone: the errors are as they were before the last change.",
        Msg::KeysUndo => "undo",
        Msg::HitScreens => "This HIT has {screens} screens; each sentence on a screen has {outputs} translations to rank, from 1 (best) to {outputs}.",
    }
}

pub(super) fn text(t: Text) -> &'static str {
    match t {
        Text::StatementAdequacy => "Read the text below and rate it by how much you agree that: the black text adequately expresses the meaning of the gray text.",
        Text::StatementFluency => "Read the text below and rate it by how much you agree that: the text is fluent {target}.",
        Text::StatementSource => "Read the text below and rate it by how much you agree that: the black text adequately expresses the meaning of the source text.",
        Text::StatementRanking => "Rank the translations from best to worst (ties are allowed).",
        Text::AnchorLow => "strongly disagree",
        Text::AnchorHigh => "strongly agree",
        Text::WojQuestion1 => "How difficult would it be to grasp the meaning of the second sentence if you were only shown the first?",
        Text::WojQuestion2 => "How much does the ordering of the words on its own cloud the meaning of the first sentence?",
        Text::WojLow1 => "Very difficult",
        Text::WojHigh1 => "Very easy",
        Text::WojLow2 => "Enormously",
        Text::WojHigh2 => "Not at all",
        Text::Next => "Next",
        Text::LabelSource => "Source",
        Text::LabelReference => "Reference",
        Text::LabelCandidate => "Candidate translation",
        Text::InstructionsAdequacy => "You will read pairs of texts, one pair at a time. The gray text (the reference) is a human translation. The black text (the candidate translation) is another translation of the same sentence.

Move the slider to show how much you agree that the black text adequately expresses the meaning of the gray text. Read both texts before you answer, and use the whole length of the slider:
- towards \"strongly agree\" when the black text says everything the gray text says, even in other words;
- towards the middle when part of the meaning is missing or changed;
- towards \"strongly disagree\" when the black text says something else, or very little of the gray text.

Examples, with the gray text \"The meeting was moved to Friday.\":
- \"The meeting has been postponed until Friday.\" says the same in other words: far towards \"strongly agree\".
- \"The meeting was moved.\" leaves out the day: clearly lower.
- \"Friday is a meeting.\" loses the meaning: far towards \"strongly disagree\".

The slider starts empty: click or tap on it, or use the arrow keys, then press the button to go on. You cannot go back to an earlier text.",
        Text::InstructionsFluency => "You will read one text at a time: a translation into {target}.

Move the slider to show how much you agree that the text is fluent {target}: natural, grammatical {target} that a native speaker could have written. Judge the language only; you do not need to know what the original said. Use the whole length of the slider:
- towards \"strongly agree\" when it reads like good {target};
- towards the middle when it can be understood but has clumsy or wrong phrases;
- towards \"strongly disagree\" when it hardly reads as {target} at all.

Examples, in English:
- \"She has lived in Paris for ten years.\" is fluent: far towards \"strongly agree\".
- \"She lives since ten years in Paris.\" is understandable but not natural: lower.
- \"Paris years ten she the lived in in.\" is not fluent: far towards \"strongly disagree\".

The slider starts empty: click or tap on it, or use the arrow keys, then press the button to go on. You cannot go back to an earlier text.",
        Text::InstructionsSource => "You will read pairs of texts, one pair at a time. The first is the source text in {source}; the black text (the candidate translation) is a translation of it into {target}.

Move the slider to show how much you agree that the black text adequately expresses the meaning of the source text. Read both texts before you answer, and use the whole length of the slider:
- towards \"strongly agree\" when the translation says everything the source says;
- towards the middle when part of the meaning is missing or changed;
- towards \"strongly disagree\" when it says something else, or very little of the source.

Examples, for a source meaning \"The meeting was moved to Friday.\":
- a translation that says the same, even in other words: far towards \"strongly agree\";
- a translation that leaves out the day: clearly lower;
- a translation that loses the meaning: far towards \"strongly disagree\".

The slider starts empty: click or tap on it, or use the arrow keys, then press the button to go on. You cannot go back to an earlier text.",
        Text::InstructionsWordOrder => "Each item shows two sentences. The first sentence is a machine translation from {source}; the second is a human translation of the same {source} sentence. Read both, then answer both questions:
- Question 1: how difficult would it be to grasp the meaning of the second sentence if you were only shown the first?
- Question 2: how much does the ordering of the words on its own cloud the meaning of the first sentence? Judge the order only, not the choice of words.

Each question has five boxes, labelled only at the ends; choose one box for each question.

Examples, with the second sentence \"Yesterday I sent the letter.\":
- \"Yesterday I sent the letter.\": the meaning is very easy to grasp and the order does not cloud it at all.
- \"Yesterday I the letter sent.\": easy to grasp; the order clouds the meaning a little.
- \"Letter the yesterday sent I.\": the order clouds the meaning enormously.

You cannot go back to an earlier item.",
        Text::InstructionsRanking => "You are shown a source sentence followed by several candidate translations. Rank the translations from best to worst:
- give the best translation rank 1;
- give translations of equal quality the same rank (ties are allowed);
- every translation needs a rank before you can go on.

Example: if two translations say what the source says and a third leaves out a word, give the first two rank 1 and the third rank 3.

With a keyboard: Tab to a translation, then press its rank (1 for the best); Enter goes on. You cannot go back to an earlier screen.",
        Text::StatementEsa => "Mark every error in the translation (select it, then choose minor or major), then score how much of the meaning it preserves.",
        Text::StatementMqm => "Mark every error in the translation: select it, choose its category, then how severe it is.",
        Text::EsaAnchorLow => "No meaning preserved",
        Text::EsaAnchorHigh => "Perfect translation",
        Text::InstructionsEsa => "You will read documents in {source} with their translation into {target}, one segment at a time; the segments before it are shown above it for context.

First mark the errors of the translation of the segment in the box:
- select the words that are wrong (drag over them, or tap the first word and then the last), then choose Minor or Major;
- a minor error is a wrong word or phrase that does not change what the text means, or a clumsy but understandable phrase;
- a major error changes or loses meaning, or makes the text hard to understand;
- if something of the source is missing from the translation, mark the [MISSING] token at the end;
- click a marked error to change it: minor becomes major, and major is removed.

Then set the slider for the whole segment:
- 0: no meaning preserved; 33: some meaning preserved; 66: most meaning preserved, few errors; 100: perfect translation.

Examples, for a source meaning \"The meeting was moved to Friday.\":
- \"The meeting was moved to Friday.\": no error, the score near 100;
- \"The meeting was move to Friday.\": a minor error on \"move\", the score near 80;
- \"The meeting was cancelled.\": a major error on \"cancelled\" and a [MISSING] Friday, the score near 20.

With a keyboard: Tab into the translation, move between words with the arrow keys, hold Shift with the arrows to extend the selection, press 1 for a minor or 2 for a major error, and Enter on a marked error to change it. You cannot go back to an earlier segment.",
        Text::InstructionsMqm => "You will read documents in {source} with their translation into {target}, one segment at a time; the segments before it are shown above it for context.

Mark every error of the translation of the segment in the box (MQM):
- select the words that are wrong (drag over them, or tap the first word and then the last), choose the error's category from the list, then its severity;
- Minor: a real error that does not change what the text means or stop a reader (a wrong preposition, a missing comma);
- Major: an error that changes or loses meaning, or would mislead or stop a reader;
- Neutral: something worth noting that is not an error;
- if something of the source is missing from the translation, mark the [MISSING] token at the end (category Accuracy/Omission);
- a translation that is not a translation at all (another language, garbage) is one Non-translation error, marked over the whole text;
- at most five errors per segment: keep the most severe.

A segment without errors needs nothing marked: press the button to go on.

With a keyboard: Tab into the translation, move between words with the arrow keys, hold Shift with the arrows to extend the selection, then choose the category and press Minor or Major. You cannot go back to an earlier segment.",
        Text::ErrNotSignedIn => "Please sign in to work on this HIT.",
        Text::ErrNotYours => "This HIT is assigned to someone else.",
        Text::ErrNotFound => "There is no HIT at this address.",
        Text::ErrBlocked => "This worker may no longer take part in this campaign.",
        Text::ErrExpired => "This HIT has expired: its time ran out and it went to another worker.",
        Text::ErrReturned => "This HIT was returned and is no longer assigned to you.",
        Text::ErrFinished => "This HIT is finished; no more answers are taken.",
        Text::ErrNotStarted => "Please read the instructions and press Start first.",
        Text::ErrPracticeFirst => "Please finish the practice items first: the HIT starts after them.",
        Text::ErrReservationGone => "This HIT was held for you for a few minutes only and has gone to another worker. Open your link again for another HIT.",
        Text::ErrPracticeOver => "The practice is over: this HIT has started.",
        Text::ErrPracticeDone => "The practice is done: press Start to begin the HIT.",
        Text::ErrPracticeNotCurrent => "This is not the current practice item (practice item {n} is); reload the page to see it.",
        Text::ErrPracticeAnswered => "This practice item was answered already; reload the page to see the current one.",
        Text::ErrAnsweredAlready => "Item {n} has already been answered; an answer cannot be changed.",
        Text::ErrNotCurrent => "Item {n} is not the current item: answer item {next} next.",
        Text::ErrScreenAnswered => "Items {from} to {to} have already been answered; answers cannot be changed.",
        Text::ErrNotOnScreen => "Item {n} is not on the current screen: answer item {next} next.",
        Text::ErrSameTime => "Another answer for this HIT arrived at the same time; please reload the page.",
        Text::FeedbackHigh => "A careful reader would score this high (towards “{high}”) because {reason}.",
        Text::FeedbackLow => "A careful reader would score this low (towards “{low}”) because {reason}.",
        Text::FeedbackWojHigh => "A careful reader would answer towards “{high1}” and “{high2}” because {reason}.",
        Text::FeedbackWojLow => "A careful reader would answer the second question towards “{low2}” because {reason}.",
        Text::FeedbackSpansHigh => "A careful reader would mark no major error here and score it high (towards “{high}”) because {reason}.",
        Text::FeedbackSpansLow => "A careful reader would mark at least one error here and score it low (towards “{low}”) because {reason}.",
        Text::FeedbackMqmHigh => "A careful reader would mark no major or critical error here because {reason}.",
        Text::FeedbackMqmLow => "A careful reader would mark at least one major error here because {reason}.",
        Text::YourSpans => "Errors you marked: {n}, of them major or critical: {major}.",
        Text::YourRating => "Your rating: {words}.",
        Text::YourAnswers => "Your answers: {first} and {second}.",
        Text::FeedbackPair => "A careful reader would prefer {better} because in {worse}, {reason}.",
        Text::FeedbackRanks => "A careful reader would rank {better} above {worse} because in {worse}, {reason}.",
        Text::YourPick => "Your choice: {choice}.",
        Text::YourRanks => "Your ranks: {ranks}.",
        Text::VerdictIn => "Your answer is where a careful reader's would be.",
        Text::VerdictOut => "Your answer is not where a careful reader's would be.",
        Text::RoundPassed => "Practice done: {matched} of {total} answers were where a careful reader's would be. You can start the HIT now.",
        Text::RoundFailed => "{matched} of {total} answers were where a careful reader's would be; at least {required} are needed. Read the feedback again: the practice starts over.",
        Text::ReasonSame => "the first sentence is the same as the second: its meaning is very easy to grasp and its word order does not cloud it at all",
        Text::ReasonFluent => "it is a human translation written by a fluent speaker: it reads naturally",
        Text::ReasonSourceHuman => "it is a human translation of the source text: it says everything the source says",
        Text::ReasonHuman => "it is a human translation of the same sentence: it says everything the gray text says",
        Text::ReasonMissing => "part of the meaning is missing ({words} left out), so it does not say everything {whose} says",
        Text::ReasonReplaced => "words were replaced by others that change the meaning ({words}), so it does not say what {whose} says",
        Text::ReasonRepeated => "words are repeated where they do not belong ({words}), so it does not read naturally",
        Text::ReasonOrder => "its words are out of order ({words} not where they belong), which clouds its meaning",
        Text::ReasonChanged => "it was changed on purpose to be worse",
        Text::TheSource => "the source",
        Text::TheGrayText => "the gray text",
        Text::CrowdNoWorkTitle => "No work right now",
        Text::CrowdNoWork => "There is no HIT for you in this campaign at the moment. Thank you for your interest.",
        Text::CrowdTooManyTitle => "Too many new workers",
        Text::CrowdTooMany => "Many new workers have started from your network address in the last hour. Please try again later.",
        Text::CrowdHoldsFullTitle => "Too many unstarted HITs from your address",
        Text::CrowdHoldsFull => "Several HITs of this study are already held from your network address without a single answer given. Start one of them, or try again in a few minutes, when unused holds are released.",
        Text::CrowdBusyTitle => "Busy",
        Text::CrowdBusy => "Many people are starting at once; please reload this page in a few seconds.",
        Text::CrowdErrorTitle => "Something went wrong",
        Text::CrowdError => "Please try again in a minute.",
        Text::LinkInvalidTitle => "Link not valid",
        Text::LinkInvalid => "This campaign link is not valid. Please use the link exactly as you received it.",
        Text::CampaignGoneTitle => "No such campaign",
        Text::CampaignGone => "This campaign does not exist any more.",
        Text::NoWorkerIdTitle => "Who are you?",
        Text::NoWorkerId => "This link needs the crowd platform's worker id (workerId for Mechanical Turk, PROLIFIC_PID for Prolific, or worker).",
        Text::PreviewTitle => "Preview",
        Text::PreviewSample => "A sample item (read-only)",
        Text::PreviewAccept => "Accept the HIT to start. You will see one item at a time.",
        Text::WorkTitle => "Judging translations",
        Text::HomeWelcome => "Welcome, {name}",
        Text::HomeRole => "Annotator",
        Text::HomeYourWork => "Your work",
        Text::HomeNoWork => "No HIT is waiting for you. When an organizer assigns you to a campaign, its HITs appear here; each takes about half an hour.",
        Text::HomeMinutesPerHit => "about {minutes} minutes per HIT",
        Text::HomeDone => "{n} done",
        Text::HomeContinue => "Continue",
        Text::HomeStart => "Start a HIT",
        Text::HomeYourHits => "Your HITs",
        Text::HomeLoadingHits => "Loading your HITs…",
        Text::HomeFinished => "finished",
        Text::HomeNotStarted => "{total} items, not started",
        Text::HomeItemsDone => "{answered} of {total} items done",
        Text::HomeNoHits => "You have no HIT in progress. Start one from a campaign above.",
        Text::HomeTaskAdequacy => "adequacy",
        Text::HomeTaskFluency => "fluency",
        Text::HomeTaskSource => "adequacy (source)",
        Text::HomeTaskWordOrder => "word order",
        Text::HomeTaskRanking => "ranking",
        Text::HomeTaskEsa => "error spans",
        Text::HomeTaskMqm => "errors with categories",
        Text::HomeTaskPairwise => "pairwise preference",
        Text::StatementPairwise => "Which translation is better?",
        Text::InstructionsPairwise => "You are shown a sentence in {source} and two translations of it into {target}, side by side (one above the other on a phone). Choose the better translation:
- A: the first translation (on the left, or on top) is better;
- B: the second translation (on the right, or below) is better;
- About the same: neither is clearly better.

A better translation says what the source says, completely and correctly, in natural {target}.

With a keyboard: press 1 for A, 2 for B, 3 for about the same (or the arrow keys to move between the choices); Enter goes on. You cannot go back to an earlier pair.",
        Text::HomeTaskPostEdit => "post-editing",
        Text::StatementPostEdit => "Correct the translation so that it says what the source says, in natural {target}.",
        Text::InstructionsPostEdit => "You are shown a sentence in {source} and a machine translation of it into {target} in a text field. Correct the translation:
- change only what is wrong: meaning, missing or added words, grammar, spelling, punctuation;
- keep what is right, even if you would have said it differently;
- if the translation needs no change, press “No change needed”.

If the field is empty, translate the sentence yourself.

With a keyboard: Tab reaches the field; Ctrl+Enter (or Cmd+Enter) goes on. You cannot go back to an earlier sentence.",
        Text::HomeTaskContrastive => "contrastive error spans",
        Text::StatementContrastive => "Mark every error in each translation (select it, then choose minor or major), then score how much of the meaning each one preserves.",
        Text::InstructionsContrastive => "You are shown a sentence in {source} and two to four translations of it into {target}, side by side (on a phone, one at a time: the buttons “Translation 1”, “Translation 2”, … above them switch between them; the sentence stays at the top).

For each translation:
- mark its errors: select the words that are wrong (drag over them, or tap the first word and then the last), then choose Minor or Major; if something of the sentence is missing, mark [MISSING];
- then give it a score from 0 (no meaning preserved) to 100 (perfect translation).

Compare the translations with each other: a better translation gets a higher score. A low score with no error marked asks you to confirm.

With a keyboard: Tab moves between the translations, their words and their sliders; the arrow keys move a slider. You cannot go back to an earlier sentence.",
        Text::SignOut => "Sign out",
    }
}
