//! Lasting entities in the database: test sets (segments, references), systems and their
//! outputs. An import is saved in one transaction: all of it or nothing.

use crate::campaign::{SystemInfo, TestSetInfo};
use crate::db::{Db, now_ms};
use crate::error::{AppError, AppResult, StorageContext};
use crate::import::{ImportBundle, LangCode};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, HashSet};

/// What an import added to the database.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct ImportSummary {
    pub test_sets: Vec<ImportedTestSet>,
    /// Systems created by this import.
    pub systems_created: Vec<String>,
    /// Systems that existed already and were reused.
    pub systems_reused: Vec<String>,
    pub outputs_added: usize,
    pub references_added: usize,
    /// The importer's notes (ignored files, …).
    pub notes: Vec<String>,
}

/// One test set touched by an import.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportedTestSet {
    pub id: i64,
    pub name: String,
    pub pair: String,
    pub segments: usize,
    /// False when the test set existed and the import added outputs or references to it.
    pub created: bool,
}

/// What the server was doing when the database failed.
const SAVING: &str = "saving an import";

/// An import that collides with what is stored: wrong input in the uploaded file (nothing is
/// saved; the import is answered 400 like any other bad file).
fn collision(problem: String) -> AppError {
    AppError::invalid("file", problem)
}

/// The key a segment is stored under: its id, or `document/id` when ids repeat across
/// documents of the test set.
fn segment_keys(segments: &[crate::import::Segment]) -> Vec<String> {
    let mut seen = HashSet::new();
    let unique = segments.iter().all(|s| seen.insert(s.id.as_str()));
    segments
        .iter()
        .map(|s| match (&s.document, unique) {
            (Some(d), false) => format!("{d}/{}", s.id),
            _ => s.id.clone(),
        })
        .collect()
}

/// Saves a validated import in one transaction. A test set that exists already (same name and
/// language pair) must have exactly the same segments; the import then adds its new references
/// and system outputs. Systems are found by name ignoring case and reused, so one system's
/// outputs for several test sets belong to one row. Any conflict (a different source text, a
/// different output for a stored one) is an error and nothing is saved.
pub async fn save_import(db: &Db, bundle: &ImportBundle) -> AppResult<ImportSummary> {
    save_import_to(db, bundle, crate::auth::teams::DEFAULT_TEAM).await
}

/// [`save_import`] into a team: its new test sets belong to `team`; a test set of the same name
/// and pair that another team has is refused (names are unique across teams).
pub async fn save_import_to(db: &Db, bundle: &ImportBundle, team: i64) -> AppResult<ImportSummary> {
    if bundle.test_sets.is_empty() {
        return Err(AppError::invalid("file", "the import holds no test set"));
    }
    // Whatever made the bundle: names within their limits, no NUL anywhere (all or nothing).
    if let Err(errors) = crate::import::check_bundle("", bundle) {
        return Err(AppError::invalid("file", errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")));
    }
    let now = now_ms();
    let mut summary = ImportSummary { notes: bundle.notes.clone(), ..Default::default() };
    let mut tx = db.writer.begin().await.context(SAVING)?;

    // Systems: by lower-case name.
    let mut system_ids: HashMap<String, i64> = HashMap::new();
    for system in &bundle.systems {
        let key = system.name.to_lowercase();
        let existing: Option<i64> = sqlx::query_scalar("SELECT id FROM systems WHERE name_key = $1")
            .bind(&key)
            .fetch_optional(&mut *tx)
            .await
            .context(SAVING)?;
        let id = match existing {
            Some(id) => {
                summary.systems_reused.push(system.name.clone());
                id
            }
            None => {
                let id: i64 = sqlx::query_scalar(
                    "INSERT INTO systems (name, name_key, description, year, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id",
                )
                .bind(&system.name)
                .bind(&key)
                .bind(system.description.clone())
                .bind(system.year.map(i64::from))
                .bind(now)
                .fetch_one(&mut *tx)
                .await
                .context(SAVING)?;
                summary.systems_created.push(system.name.clone());
                id
            }
        };
        system_ids.insert(key, id);
    }

    for set in &bundle.test_sets {
        let src = set.pair.source.to_string();
        let tgt = set.pair.target.to_string();
        let label = format!("test set {} ({}-{})", set.name, src, tgt);
        let keys = segment_keys(&set.segments);
        let existing: Option<(i64, i64)> = sqlx::query_as("SELECT id, team_id FROM test_sets WHERE name = $1 AND source_lang = $2 AND target_lang = $3")
            .bind(&set.name)
            .bind(&src)
            .bind(&tgt)
            .fetch_optional(&mut *tx)
            .await
            .context(SAVING)?;
        if existing.is_some_and(|(_, owner)| owner != team) {
            return Err(collision(format!("{label}: the name is taken (by another team's test set); give the new test set another name")));
        }
        let (set_id, created, segment_ids) = match existing.map(|(id, _)| id) {
            Some(id) => {
                let rows: Vec<(i64, String, String)> = sqlx::query_as("SELECT id, segment_key, source FROM segments WHERE test_set_id = $1 ORDER BY position")
                    .bind(id)
                    .fetch_all(&mut *tx)
                    .await
                    .context(SAVING)?;
                if rows.len() != set.segments.len() {
                    return Err(collision(format!(
                        "{label} exists already with {} segments, but this import has {}; give the new test set another name",
                        rows.len(),
                        set.segments.len()
                    )));
                }
                let mut ids = Vec::with_capacity(rows.len());
                for (i, ((id, key, source), seg)) in rows.iter().zip(&set.segments).enumerate() {
                    if *key != keys[i] || *source != seg.source {
                        return Err(collision(format!(
                            "{label} exists already and its segment {} differs from segment {} of this import; give the new test set another name",
                            i + 1,
                            keys[i]
                        )));
                    }
                    ids.push(*id);
                }
                (id, false, ids)
            }
            None => {
                let id: i64 = sqlx::query_scalar(
                    "INSERT INTO test_sets (name, source_lang, target_lang, created_at, team_id) VALUES ($1, $2, $3, $4, $5) RETURNING id",
                )
                .bind(&set.name)
                .bind(&src)
                .bind(&tgt)
                .bind(now)
                .bind(team)
                .fetch_one(&mut *tx)
                .await
                .context(SAVING)?;
                let mut ids = Vec::with_capacity(set.segments.len());
                for (i, seg) in set.segments.iter().enumerate() {
                    let segment: i64 = sqlx::query_scalar(
                        "INSERT INTO segments (test_set_id, position, segment_key, document, domain, source) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
                    )
                    .bind(id)
                    .bind(i as i64 + 1)
                    .bind(&keys[i])
                    .bind(seg.document.clone())
                    .bind(seg.domain.clone())
                    .bind(&seg.source)
                    .fetch_one(&mut *tx)
                    .await
                    .context(SAVING)?;
                    ids.push(segment);
                }
                (id, true, ids)
            }
        };

        // References: new ones are added, the same text again is fine, a different one is an error.
        let mut stored_refs: HashMap<(i64, String), String> = HashMap::new();
        if !created {
            let rows: Vec<(i64, String, String)> = sqlx::query_as(
                "SELECT r.segment_id, r.name, r.text FROM segment_references r JOIN segments s ON s.id = r.segment_id WHERE s.test_set_id = $1",
            )
            .bind(set_id)
            .fetch_all(&mut *tx)
            .await
            .context(SAVING)?;
            for (segment, name, text) in rows {
                stored_refs.insert((segment, name), text);
            }
        }
        for (i, seg) in set.segments.iter().enumerate() {
            for r in &seg.references {
                match stored_refs.get(&(segment_ids[i], r.name.clone())) {
                    Some(text) if *text == r.text => {}
                    Some(_) => {
                        return Err(collision(format!(
                            "{label}: reference {} of segment {} differs from the one stored; references cannot be changed",
                            r.name, keys[i]
                        )));
                    }
                    None => {
                        sqlx::query("INSERT INTO segment_references (segment_id, name, text) VALUES ($1, $2, $3)")
                            .bind(segment_ids[i])
                            .bind(&r.name)
                            .bind(&r.text)
                            .execute(&mut *tx)
                            .await
                            .context(SAVING)?;
                        summary.references_added += 1;
                    }
                }
            }
        }

        // System outputs.
        for out in &set.outputs {
            let key = out.system.to_lowercase();
            let system_id = match system_ids.get(&key) {
                Some(&id) => id,
                None => {
                    // A bundle lists every system with outputs; be safe anyway.
                    return Err(AppError::internal(format!("{label}: system {} is not listed among the import's systems", out.system)));
                }
            };
            let mut stored: BTreeMap<i64, (String, Option<String>)> = BTreeMap::new();
            if !created {
                let rows: Vec<(i64, String, Option<String>)> = sqlx::query_as(
                    "SELECT o.segment_id, o.text, o.spans FROM system_outputs o JOIN segments s ON s.id = o.segment_id WHERE s.test_set_id = $1 AND o.system_id = $2",
                )
                .bind(set_id)
                .bind(system_id)
                .fetch_all(&mut *tx)
                .await
                .context(SAVING)?;
                stored.extend(rows.into_iter().map(|(id, t, sp)| (id, (t, sp))));
            }
            if out.texts.len() != segment_ids.len() {
                return Err(collision(format!(
                    "{label}: system {} has {} outputs for {} segments",
                    out.system,
                    out.texts.len(),
                    segment_ids.len()
                )));
            }
            for (i, text) in out.texts.iter().enumerate() {
                let Some(text) = text else { continue };
                // Pre-filled spans, as JSON of `Span`s (checked against the text by the importer).
                let spans = match out.spans.get(i).and_then(Option::as_ref) {
                    Some(s) => Some(serde_json::to_string(s).map_err(|e| AppError::internal(format!("pre-filled spans: {e}")))?),
                    None => None,
                };
                match stored.get(&segment_ids[i]) {
                    Some((t, old)) if t == text => match (old, &spans) {
                        (_, None) => {}
                        (Some(o), Some(n)) if o == n => {}
                        (Some(_), Some(_)) => {
                            return Err(collision(format!(
                                "{label}: system {} already has different pre-filled spans for segment {}; they cannot be changed",
                                out.system, keys[i]
                            )));
                        }
                        (None, Some(n)) => {
                            // Spans for an output imported without them: added (campaigns launched
                            // before keep what they showed).
                            sqlx::query("UPDATE system_outputs SET spans = $1 WHERE system_id = $2 AND segment_id = $3")
                                .bind(n)
                                .bind(system_id)
                                .bind(segment_ids[i])
                                .execute(&mut *tx)
                                .await
                                .context(SAVING)?;
                        }
                    },
                    Some(_) => {
                        return Err(collision(format!(
                            "{label}: system {} already has a different output for segment {}; outputs cannot be changed",
                            out.system, keys[i]
                        )));
                    }
                    None => {
                        sqlx::query("INSERT INTO system_outputs (system_id, segment_id, text, spans) VALUES ($1, $2, $3, $4)")
                            .bind(system_id)
                            .bind(segment_ids[i])
                            .bind(text)
                            .bind(spans)
                            .execute(&mut *tx)
                            .await
                            .context(SAVING)?;
                        summary.outputs_added += 1;
                    }
                }
            }
        }
        summary.test_sets.push(ImportedTestSet {
            id: set_id,
            name: set.name.clone(),
            pair: format!("{src}-{tgt}"),
            segments: set.segments.len(),
            created,
        });
    }
    tx.commit().await.context(SAVING)?;
    Ok(summary)
}

crate::rows::row! {
    /// A test set as the designer lists it.
    struct TestSetRow {
        id: i64,
        name: String,
        source_lang: String,
        target_lang: String,
        n: i64,
    }
}

/// Every test set with its references and the systems that have outputs for it.
pub async fn list_test_sets(db: &Db) -> AppResult<Vec<TestSetInfo>> {
    const LISTING: &str = "listing the test sets";
    let sets: Vec<TestSetRow> = sqlx::query_as(
        "SELECT t.id, t.name, t.source_lang, t.target_lang, (SELECT COUNT(*) FROM segments s WHERE s.test_set_id = t.id) AS n FROM test_sets t ORDER BY t.name, t.source_lang, t.target_lang",
    )
    .fetch_all(&db.pool)
    .await
    .context(LISTING)?;
    let mut out = Vec::with_capacity(sets.len());
    for TestSetRow { id, name, source_lang, target_lang, n } in sets {
        let references = sqlx::query_scalar(
            "SELECT DISTINCT r.name FROM segment_references r JOIN segments s ON s.id = r.segment_id WHERE s.test_set_id = $1 ORDER BY r.name",
        )
        .bind(id)
        .fetch_all(&db.pool)
        .await
        .context(LISTING)?;
        let english = |code: &str| LangCode::parse(code).map(|c| c.english_name().to_string()).unwrap_or_else(|_| code.to_string());
        out.push(TestSetInfo {
            id,
            name,
            source_name: english(&source_lang),
            target_name: english(&target_lang),
            source_lang,
            target_lang,
            segments: n,
            references,
            systems: systems_of_test_set(db, id).await?,
        });
    }
    Ok(out)
}

crate::rows::row! {
    /// A system with its outputs for one test set.
    struct SystemRow {
        id: i64,
        name: String,
        description: Option<String>,
        year: Option<i64>,
        n: i64,
    }
}

/// The systems with outputs for a test set, by name.
pub async fn systems_of_test_set(db: &Db, test_set_id: i64) -> AppResult<Vec<SystemInfo>> {
    let rows: Vec<SystemRow> = sqlx::query_as(
        "SELECT y.id, y.name, y.description, y.year, COUNT(*) AS n FROM system_outputs o JOIN systems y ON y.id = o.system_id JOIN segments s ON s.id = o.segment_id WHERE s.test_set_id = $1 GROUP BY y.id, y.name, y.description, y.year ORDER BY y.name",
    )
    .bind(test_set_id)
    .fetch_all(&db.pool)
    .await
    .with_context(|| format!("listing the systems of test set {test_set_id}"))?;
    Ok(rows
        .into_iter()
        .map(|SystemRow { id, name, description, year, n }| SystemInfo { id, name, description, year, outputs: n })
        .collect())
}
