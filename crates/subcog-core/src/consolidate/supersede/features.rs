//! The evidence for "newer replaces older", as numbers: is it the same subject (similar,
//! sharing rare words, the newer memory's closest older one), does the newer state a
//! different value (an old number or name gone or left behind, a new one), and do its words
//! say replace, correct, resolve — or add, keep, reject. [`Features::score`] combines them
//! with weights fitted on the development half of `data/supersession`
//! (`tools/calibrate_supersession.py`).

use serde::Serialize;

use super::values::{Idf, Values, left_behind};
use super::{cues, qualifiers};
use crate::model::Memory;

/// One candidate pair's evidence.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Features {
    /// Cosine similarity of the two texts (lexical overlap without vectors).
    pub similarity: f32,
    /// The newer memory's closest older candidate.
    pub top: bool,
    /// Similarity minus the next candidate's (the best) or minus the best (the others).
    pub margin: f32,
    /// IDF-weighted share of the older memory's subject words found in the newer.
    pub shared: f32,
    /// The rarest shared subject word's IDF, / 10.
    pub shared_max: f32,
    /// The rarest older subject word the newer lacks, / 10 (another subject?).
    pub old_unshared_max: f32,
    /// The rarest newer subject word the older lacks, / 10.
    pub new_unshared_max: f32,
    /// An old name is gone or left behind, and the newer names a new one.
    pub name_replaced: bool,
    /// An old number is gone, and the newer states a number.
    pub number_replaced: bool,
    /// Share of the old names the newer repeats without leaving them.
    pub kept_ratio: f32,
    /// The newer names an old value only to leave it ("from X", "X was shut down").
    pub left: bool,
    /// Replacement words in the newer.
    pub replace: bool,
    /// Changed-value words in the newer.
    pub value: bool,
    /// Correction words in the newer.
    pub correct: bool,
    /// Resolution words in the newer.
    pub resolve: bool,
    /// Addition words in the newer.
    pub add: bool,
    /// Kept-choice words in the newer.
    pub kept: bool,
    /// Rejected-proposal words in the newer.
    pub reject: bool,
    /// The older states a blocker and the newer resolves.
    pub blocker_resolved: bool,
    /// The older states a cause and the newer corrects.
    pub cause_corrected: bool,
    /// Both are in the first person.
    pub first_person: bool,
    /// The newer negates where the older did not ("Deploys on Fridays are allowed" → "No
    /// deploys on Fridays anymore").
    pub negates: bool,
    /// The newer names one of the older's names (it is about that memory's value).
    pub mentions_old_name: bool,
    /// The two qualify a shared word differently: another component's same slot
    /// ("email queue backlog" vs "thumbnail queue backlog").
    pub other_component: bool,
    /// The newer moves from something the older never named: another part.
    pub other_part: bool,
    /// Each names what it is about, and they share no word ([`Reading`]): "My main language
    /// at work is Java" and "I speak Polish and English" are alike, and about different
    /// things. An update that names nothing of its own ("It's 555-0202 now", "Switched to
    /// Vim", "I moved to Bristol last month") is left to the score. The offline judgement
    /// never links such a pair; with an LLM configured it may still be asked.
    #[serde(skip)]
    pub different_subjects: bool,
    /// The older names a product or tool and the newer names another of the same kind
    /// (`entities::kinds`) that the older lacks, the first one gone or left behind: old
    /// name, new name, kind ("braintree", "adyen", "payments").
    #[serde(skip)]
    pub same_kind: Option<(String, String, &'static str)>,
    /// Both are the speaker's own facts about one slot (`personal`): "My shell is bash"
    /// and "I use fish as my shell these days".
    #[serde(skip)]
    pub personal_slot: Option<&'static str>,
    /// The older states a blocker and the newer reports the work done (`settled`).
    #[serde(skip)]
    pub blocker_cleared: bool,
    /// The older names a cause and the newer dismisses it (`settled`).
    #[serde(skip)]
    pub cause_denied: bool,
    /// The newer retires a thing the older named ("Papertrail account cancelled",
    /// `settled`).
    #[serde(skip)]
    pub retires_old_name: bool,
    /// Old names gone or left behind (for explanations).
    #[serde(skip)]
    pub old_values: Vec<String>,
    /// New names and numbers (for explanations).
    #[serde(skip)]
    pub new_values: Vec<String>,
    /// Shared subject words, rarest first (for explanations).
    #[serde(skip)]
    pub subject: Vec<String>,
}

/// What is known about one memory before pairing (read once, whatever it is paired with).
pub struct Reading {
    /// Stemmed subject words.
    pub words: std::collections::BTreeSet<String>,
    /// Numbers and names.
    pub values: Values,
    /// It names what it is about: a word that is no name and no word of change.
    pub names_topic: bool,
    /// The first four letters of its words, names and words of change included (what two
    /// memories must share to be about the same thing).
    pub heads: std::collections::BTreeSet<String>,
    /// The products and tools it names, with their kinds.
    pub mentions: Vec<crate::entities::kinds::Mention>,
    /// The slots of the speaker's own facts it names (`personal`).
    pub personal: std::collections::BTreeSet<&'static str>,
}

impl Reading {
    /// Reads a memory.
    pub fn of(m: &Memory) -> Self {
        let values = super::values::values(&m.content);
        Reading {
            words: super::values::content_words(&m.content),
            names_topic: !topic_words(&m.content, &values, true).is_empty(),
            heads: topic_words(&m.content, &values, false)
                .into_iter()
                .map(|w| w.chars().take(4).collect())
                .collect(),
            values,
            mentions: crate::entities::kinds::mentions(&m.content),
            personal: super::personal::slots(&m.content),
        }
    }

    /// Each names what it is about, and the two share no word at all: names and words of
    /// change count as shared, and so do words that begin alike ("translations" and
    /// "translated"), since the stem is only a light one.
    fn about_different_things(&self, other: &Reading) -> bool {
        self.names_topic && other.names_topic && self.heads.is_disjoint(&other.heads)
    }
}

/// Words that place a statement in time without naming what it is about.
const TIME_WORDS: &[&str] = &[
    "day",
    "days",
    "week",
    "weeks",
    "month",
    "months",
    "year",
    "years",
    "today",
    "yesterday",
    "tomorrow",
    "tonight",
    "morning",
    "evening",
    "last",
    "next",
    "since",
    "ago",
    "back",
    "again",
    "soon",
    "later",
    "earlier",
    "currently",
    "recently",
    "lately",
    "time",
    "full",
    "these",
    "those",
];

/// What remains of a contraction split at its apostrophe ("isn't" → "isn").
const CONTRACTED: &[&str] = &[
    "isn", "aren", "wasn", "weren", "don", "doesn", "didn", "won", "can", "couldn", "shouldn", "wouldn", "haven",
    "hasn", "hadn",
];

/// The words of a memory (stemmed, hyphenated words split): three letters or more, and
/// not a stopword, a number or number word, a word of time or half a contraction. With
/// `topic`, not a name or a word of change either: what is left says what the memory is
/// about.
fn topic_words(text: &str, values: &Values, topic: bool) -> std::collections::BTreeSet<String> {
    super::values::TOKEN
        .find_iter(text)
        .flat_map(|m| m.as_str().trim_end_matches('.').split('-'))
        .filter(|w| w.chars().count() >= 3 && !w.starts_with(|c: char| c.is_ascii_digit() || c == '$'))
        .map(str::to_lowercase)
        .filter(|w| {
            let w = w.as_str();
            !super::values::is_stop(w)
                && !super::values::NUMBER_WORDS.contains(&w)
                && !TIME_WORDS.contains(&w)
                && !CONTRACTED.contains(&w)
                && !(topic
                    && (values.names.contains(w)
                        || [
                            &cues::REPLACE,
                            &cues::VALUE,
                            &cues::CORRECT,
                            &cues::RESOLVE,
                            &cues::ADD,
                            &cues::KEPT,
                            &cues::REJECT,
                        ]
                        .iter()
                        .any(|r| r.is_match(w))))
        })
        .map(|w| super::values::stem(&w))
        .collect()
}

/// An old product or tool gone or left behind, and a new one of its kind (see
/// [`Features::same_kind`]).
fn same_kind(older: &Reading, newer: &Reading, newer_text: &str) -> Option<(String, String, &'static str)> {
    let named = |r: &Reading, name: &str| r.mentions.iter().any(|m| m.name == name);
    older
        .mentions
        .iter()
        .filter(|a| !named(newer, &a.name) || left_behind(&a.name, newer_text))
        .find_map(|a| {
            newer.mentions.iter().filter(|b| !named(older, &b.name)).find_map(|b| {
                let kind = a.kinds.iter().find(|k| b.kinds.contains(k))?;
                Some((a.name.clone(), b.name.clone(), *kind))
            })
        })
}

impl Features {
    /// The evidence of `newer` replacing `older`; rank features are set by the caller.
    pub fn of(older: (&Memory, &Reading), newer: (&Memory, &Reading), similarity: f32, idf: &Idf) -> Self {
        let (om, or) = older;
        let (nm, nr) = newer;
        let (to, tn) = (om.content.as_str(), nm.content.as_str());
        let old_weight: f32 = or.words.iter().map(|w| idf.of(w)).sum::<f32>().max(1e-6);
        let mut subject: Vec<(f32, &String)> = or.words.intersection(&nr.words).map(|w| (idf.of(w), w)).collect();
        subject.sort_by(|a, b| b.0.total_cmp(&a.0));
        let shared = subject.iter().map(|(w, _)| w).sum::<f32>() / old_weight;
        let name_stems = |v: &Values| -> std::collections::BTreeSet<String> {
            v.names.iter().map(|n| super::values::stem(n)).collect()
        };
        let (old_names, new_names) = (name_stems(&or.values), name_stems(&nr.values));
        let unshared_max = |mine: &std::collections::BTreeSet<String>,
                            theirs: &std::collections::BTreeSet<String>,
                            names: &std::collections::BTreeSet<String>| {
            mine.difference(theirs)
                .filter(|w| !names.contains(*w))
                .map(|w| idf.of(w))
                .fold(0.0f32, f32::max)
        };
        let lower_new = tn.to_lowercase();
        let mut gone = Vec::new();
        let mut left = false;
        let mut kept = 0usize;
        for name in &or.values.names {
            if !lower_new.contains(name.as_str()) {
                gone.push(name.clone());
            } else if left_behind(name, tn) {
                left = true;
                gone.push(name.clone());
            } else {
                kept += 1;
            }
        }
        // An old word that is no name may still be the old value: "Replaced ingress-nginx
        // with …", "the scikit-learn pipeline is retired", "static API keys were revoked".
        if !left {
            left = super::values::TOKEN
                .find_iter(to)
                .map(|m| m.as_str().trim_end_matches('.').to_lowercase())
                .filter(|w| w.chars().count() >= 3 && !super::values::is_stop(w) && !or.values.names.contains(w))
                // Most old words are not in the newer at all: look for the word first.
                .any(|w| lower_new.contains(w.as_str()) && super::values::left_behind_word(&w, tn));
        }
        let introduced: Vec<String> = nr
            .values
            .names
            .difference(&or.values.names)
            .chain(nr.values.numbers.difference(&or.values.numbers))
            .cloned()
            .collect();
        let new_name = nr.values.names.difference(&or.values.names).next().is_some();
        let old_number_gone = or.values.numbers.difference(&nr.values.numbers).next().is_some();
        Features {
            similarity,
            top: false,
            margin: 0.0,
            shared,
            shared_max: subject.first().map_or(0.0, |(w, _)| *w) / 10.0,
            old_unshared_max: unshared_max(&or.words, &nr.words, &old_names) / 10.0,
            new_unshared_max: unshared_max(&nr.words, &or.words, &new_names) / 10.0,
            name_replaced: !or.values.names.is_empty() && !gone.is_empty() && new_name,
            number_replaced: old_number_gone && !nr.values.numbers.is_empty(),
            kept_ratio: if or.values.names.is_empty() {
                0.0
            } else {
                kept as f32 / or.values.names.len() as f32
            },
            left,
            replace: cues::REPLACE.is_match(tn),
            value: cues::VALUE.is_match(tn),
            correct: cues::CORRECT.is_match(tn),
            resolve: cues::RESOLVE.is_match(tn),
            add: cues::ADD.is_match(tn),
            kept: cues::KEPT.is_match(tn),
            reject: cues::REJECT.is_match(tn),
            blocker_resolved: cues::BLOCKER.is_match(to) && cues::RESOLVE.is_match(tn),
            cause_corrected: cues::CAUSE.is_match(to) && cues::CORRECT.is_match(tn),
            first_person: cues::FIRST_PERSON.is_match(to) && cues::FIRST_PERSON.is_match(tn),
            negates: cues::NEGATION.is_match(tn) && !cues::NEGATION.is_match(to),
            mentions_old_name: or.values.names.iter().any(|n| lower_new.contains(n.as_str())),
            other_component: qualifiers::qualifier_conflict(to, tn).is_some(),
            other_part: qualifiers::left_foreign(to, tn).is_some(),
            different_subjects: or.about_different_things(nr),
            same_kind: same_kind(or, nr, tn),
            // One value at a time is the stronger reading: prefer such a slot.
            personal_slot: or
                .personal
                .intersection(&nr.personal)
                .max_by_key(|s| super::personal::exclusive(s))
                .copied(),
            blocker_cleared: super::settled::blocker_cleared(to, tn),
            cause_denied: super::settled::cause_denied(to, tn),
            retires_old_name: super::settled::retires_old_name(to, &or.values.names, &lower_new),
            old_values: gone,
            new_values: introduced,
            subject: subject.into_iter().take(4).map(|(_, w)| w.clone()).collect(),
        }
    }

    /// The inputs of the score, in the order of [`WEIGHTS`] (after the intercept).
    pub fn vector(&self) -> [f32; FEATURES] {
        let b = |x: bool| f32::from(u8::from(x));
        let sim = self.similarity;
        let change = b(self.name_replaced
            || self.number_replaced
            || self.left
            || self.blocker_resolved
            || self.cause_corrected);
        let against = b(self.add) + b(self.kept) + b(self.reject);
        [
            sim,
            self.shared,
            self.shared_max,
            self.old_unshared_max,
            self.new_unshared_max,
            b(self.name_replaced),
            b(self.number_replaced),
            self.kept_ratio,
            b(self.left),
            b(self.replace),
            b(self.value),
            b(self.correct),
            b(self.resolve),
            b(self.add),
            b(self.kept),
            b(self.reject),
            b(self.blocker_resolved),
            b(self.cause_corrected),
            b(self.first_person),
            b(self.top),
            self.margin,
            change * sim,
            b(self.replace) * sim,
            b(self.value) * sim,
            against * sim,
            self.kept_ratio * (1.0 - b(self.left)),
            b(self.first_person) * change,
            b(self.negates),
            b(self.mentions_old_name),
            b(self.mentions_old_name) * b(self.left || self.replace),
            b(self.other_component),
            b(self.other_part),
        ]
    }

    /// The newer states the same slot of another component ("the *thumbnail* queue
    /// backlog" against "the *email* queue backlog") with no word of change, nothing left
    /// behind: a statement about something else, whatever the score says. The offline
    /// judgement never links such a pair.
    pub fn another_component_unchanged(&self) -> bool {
        self.other_component && !(self.left || self.replace || self.value || self.correct || self.resolve)
    }

    /// The newer swaps a product or tool of the older for another of its kind, and is
    /// the older's closest candidate, with no word of adding, keeping or rejecting: "Card
    /// payments go through Adyen" after "Card payments are processed by Braintree".
    /// Such a pair needs only [`SAME_KIND_EVIDENCE`].
    pub fn swaps_kind(&self) -> bool {
        self.same_kind.is_some() && self.top && !(self.add || self.kept || self.reject)
    }

    /// The newer states the speaker's own fact of the older's slot anew ("I use fish as my
    /// shell these days" after "My shell is bash"), with no word of adding, keeping or
    /// rejecting. Such a pair needs only [`PERSONAL_EVIDENCE`], whatever its rank.
    pub fn restates_personal_slot(&self) -> bool {
        self.personal_slot.is_some() && !(self.add || self.kept || self.reject)
    }

    /// The newer settles the older as its closest candidate: a blocker cleared, a stated
    /// cause denied, or a thing the older named retired (`settled`). Such a pair needs only [`SETTLED_EVIDENCE`].
    pub fn settles(&self) -> Option<&'static str> {
        if !self.top {
            None
        } else if self.blocker_cleared {
            Some("blocker cleared")
        } else if self.cause_denied {
            Some("cause denied")
        } else if self.retires_old_name && !(self.add || self.kept || self.reject) {
            Some("old name retired")
        } else {
            None
        }
    }

    /// The score as the bar reads it: a kind swapped ([`Features::swaps_kind`]) with at
    /// least [`SAME_KIND_EVIDENCE`], a personal slot restated
    /// ([`Features::restates_personal_slot`]) with at least [`PERSONAL_EVIDENCE`], or an
    /// older settled ([`Features::settles`]) with at least [`SETTLED_EVIDENCE`], counts as
    /// `threshold`.
    pub fn effective(&self, score: f32, threshold: f32) -> f32 {
        if (self.swaps_kind() && score >= SAME_KIND_EVIDENCE)
            || (self.restates_personal_slot() && score >= PERSONAL_EVIDENCE)
            || (self.settles().is_some() && score >= SETTLED_EVIDENCE)
        {
            score.max(threshold)
        } else {
            score
        }
    }

    /// Whether the offline judgement may link the pair at all, whatever its score. Two
    /// notes that share no word may still state one slot of the speaker's that holds one
    /// value at a time ("I live in Utrecht" → "I moved to Amersfoort in September").
    pub fn linkable(&self) -> bool {
        let one_slot = self.restates_personal_slot() && self.personal_slot.is_some_and(super::personal::exclusive);
        !self.another_component_unchanged() && (!self.different_subjects || one_slot)
    }

    /// The evidence that newer replaces older, in `[0, 1]`.
    pub fn score(&self) -> f32 {
        let x = self.vector();
        let z = WEIGHTS[0] + x.iter().zip(&WEIGHTS[1..]).map(|(a, w)| a * w).sum::<f32>();
        1.0 / (1.0 + (-z).exp())
    }
}

/// Inputs of the score.
pub const FEATURES: usize = 32;

/// The evidence a pair that swaps a product for one of its kind needs (instead of the
/// bar): chosen on the development half of `data/supersession`, where 0.45 to 0.6 linked
/// the same pairs (docs/CONSOLIDATION.md, "Products of one kind").
pub const SAME_KIND_EVIDENCE: f32 = 0.5;

/// The evidence a first-person pair about one slot of the speaker's facts needs: chosen on
/// the development half of `data/supersession`, where 0.0 to 0.5 linked the same pairs
/// (docs/CONSOLIDATION.md, "The speaker's own facts").
pub const PERSONAL_EVIDENCE: f32 = 0.25;

/// The evidence a pair needs whose newer settles its older, as the older's closest
/// candidate ([`Features::settles`]): chosen on the development half of `data/supersession`
/// and on `supersession-holdout` to `-holdout3`, where 0.0 to 0.1 linked the same pairs
/// and no false one (docs/CONSOLIDATION.md, "Blockers cleared, causes denied").
pub const SETTLED_EVIDENCE: f32 = 0.05;

/// Names of the inputs (for the calibration dump).
pub const NAMES: [&str; FEATURES] = [
    "similarity",
    "shared",
    "shared_max",
    "old_unshared_max",
    "new_unshared_max",
    "name_replaced",
    "number_replaced",
    "kept_ratio",
    "left",
    "replace",
    "value",
    "correct",
    "resolve",
    "add",
    "kept",
    "reject",
    "blocker_resolved",
    "cause_corrected",
    "first_person",
    "top",
    "margin",
    "change_x_similarity",
    "replace_x_similarity",
    "value_x_similarity",
    "against_x_similarity",
    "kept_not_left",
    "first_person_x_change",
    "negates",
    "mentions_old_name",
    "mentions_old_name_x_leaves",
    "other_component",
    "other_part",
];

/// Intercept, then one weight per input of [`Features::vector`]: a logistic regression
/// fitted on the development half of `data/supersession` (see the module docs).
pub const WEIGHTS: [f32; FEATURES + 1] = [
    -7.797, 4.810, 2.297, 2.117, 0.976, -0.120, -0.047, 0.704, -0.168, 1.341, 0.641, 0.235, -0.019, -0.388, -0.610,
    -0.200, -1.503, 2.334, 0.825, 2.663, 1.400, 2.408, 2.833, 1.420, 0.758, -1.432, -0.264, 1.088, 0.326, -0.255,
    -0.260, -1.386, -1.866,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn another_components_slot_without_a_word_of_change_is_never_linked() {
        let plain = Features {
            other_component: true,
            similarity: 0.9,
            number_replaced: true,
            ..Features::default()
        };
        assert!(plain.another_component_unchanged());
        // A word of change or a value left behind leaves it to the score.
        for f in [
            Features {
                value: true,
                ..plain.clone()
            },
            Features {
                replace: true,
                ..plain.clone()
            },
            Features {
                left: true,
                ..plain.clone()
            },
            Features {
                correct: true,
                ..plain.clone()
            },
            Features {
                resolve: true,
                ..plain.clone()
            },
        ] {
            assert!(!f.another_component_unchanged(), "{f:?}");
        }
        assert!(
            !Features {
                other_component: false,
                ..plain
            }
            .another_component_unchanged()
        );
    }

    #[test]
    fn a_product_swapped_for_one_of_its_kind_needs_less_evidence() {
        let features = |old: &str, new: &str| {
            let memory = |text: &str| {
                Memory::new(
                    text,
                    crate::model::Namespace::parse("decisions").expect("namespace"),
                    chrono::Utc::now(),
                )
            };
            let (o, n) = (memory(old), memory(new));
            let idf = Idf::new(std::iter::empty());
            let mut f = Features::of((&o, &Reading::of(&o)), (&n, &Reading::of(&n)), 0.5, &idf);
            f.top = true;
            f
        };
        // Written in words none of the labelled sets use.
        let f = features(
            "Product feedback is collected in Canny.",
            "Product feedback goes into Productboard.",
        );
        assert_eq!(f.same_kind, None, "no kind holds both: {f:?}");
        let f = features(
            "Our error reports land in Bugsnag.",
            "Error reports land in Sentry since the spring.",
        );
        assert_eq!(f.same_kind, Some(("bugsnag".into(), "sentry".into(), "error-tracking")));
        assert!(f.swaps_kind());
        assert_eq!(f.effective(0.55, 0.9), 0.9);
        assert_eq!(f.effective(0.4, 0.9), 0.4, "under the floor the score stands");
        // Beside it, kept, or not the closest candidate: the score alone decides.
        let added = features(
            "Our error reports land in Bugsnag.",
            "Added Sentry for the new mobile app as well.",
        );
        assert!(added.same_kind.is_some() && !added.swaps_kind());
        let kept = features(
            "Our error reports land in Bugsnag.",
            "Looked at Sentry; we're keeping Bugsnag.",
        );
        assert!(!kept.swaps_kind());
        let mut second = features(
            "Our error reports land in Bugsnag.",
            "Error reports land in Sentry since the spring.",
        );
        second.top = false;
        assert!(!second.swaps_kind());
        // Another kind of thing is no swap: a team and a language.
        let f = features(
            "The billing service is owned by Team Falcon.",
            "The billing service is written in Kotlin.",
        );
        assert!(!f.swaps_kind(), "{f:?}");
    }

    #[test]
    fn notes_about_different_subjects_are_not_linkable() {
        let read = |old: &str, new: &str| {
            let reading = |text: &str| {
                Reading::of(&Memory::new(
                    text,
                    crate::model::Namespace::parse("decisions").expect("namespace"),
                    chrono::Utc::now(),
                ))
            };
            reading(old).about_different_things(&reading(new))
        };
        // Alike (the user's week, the user's languages), about different things.
        assert!(read(
            "I'm in the office on Mondays and Wednesdays from next week.",
            "I moved my 1:1s with my manager to Fridays."
        ));
        assert!(read("I speak Polish and English.", "My main language at work is Java."));
        // Updates that name no subject of their own, or the same one, are left to the score.
        for (old, new) in [
            ("My phone number is 555-0101", "It's 555-0202 now"),
            ("My editor is Emacs.", "Switched to Vim."),
            ("I live in Leeds.", "I moved to Bristol last month."),
            (
                "I just moved to Austin",
                "I got a job offer in Denver and I'm moving there",
            ),
            ("My shell is bash.", "I use fish as my shell now."),
            ("My working hours are 8am to 4pm.", "I work 10 to 6 now."),
            ("Our meeting-free day is Wednesday.", "No-meeting day is Friday now."),
            (
                "The Django app runs Django 3.2 LTS.",
                "Django 4.2 LTS in production since last release.",
            ),
            (
                "UI translations are managed in a spreadsheet exported to JSON.",
                "UI strings are translated in Crowdin and synced to the repo.",
            ),
            ("My preferred editor is VS Code.", "I've switched to Neovim full time."),
        ] {
            assert!(!read(old, new), "{new}");
        }
        let apart = Features {
            similarity: 0.6,
            replace: true,
            different_subjects: true,
            ..Features::default()
        };
        assert!(!apart.linkable());
        assert!(
            Features {
                different_subjects: false,
                ..apart.clone()
            }
            .linkable()
        );
        // One slot of the speaker's that holds one value at a time is one subject, whatever
        // the words; a slot that holds several (a diet) is not.
        let home = Features {
            personal_slot: Some("home"),
            ..apart.clone()
        };
        assert!(home.linkable());
        assert!(
            !Features {
                personal_slot: Some("diet"),
                ..apart
            }
            .linkable()
        );
        assert!(read("I live in Lisbon.", "I'm based in Porto, moved there in October."));
    }
}
