//! The two migration trees checked against each other: every SQLite migration applied to a
//! fresh SQLite file and every PostgreSQL migration to a fresh PostgreSQL database (both by
//! `app::db::connect`, which runs the embedded migrations), each schema read back from the
//! engine's own catalogue, reduced to engine-neutral facts, and the two sets of facts compared.
//!
//! What is compared, per table: columns (name, type, NOT NULL, default), the primary key,
//! UNIQUE constraints, CHECK constraints, foreign keys (columns → table(columns), ON DELETE,
//! ON UPDATE) and the other indexes (name, columns in order, unique, partial predicate); and
//! the names of views and triggers.
//!
//! How the engines are made comparable:
//! - types are reduced to SQLite's affinities: integer (INTEGER, BIGINT, SMALLINT, SERIAL, …),
//!   real (REAL, DOUBLE PRECISION, FLOAT), text (TEXT, VARCHAR, CHAR, CLOB), blob (BLOB, BYTEA);
//!   anything else is named as the engine names it (PostgreSQL's `boolean` or `numeric` then
//!   differs from SQLite's numeric affinity, as it should: flags are integers here);
//! - a column the database numbers itself is `AUTO` (SQLite's INTEGER PRIMARY KEY, the rowid;
//!   PostgreSQL's identity columns and `nextval` defaults) and counts as NOT NULL;
//! - expressions (CHECKs, index predicates, defaults) are tokenised and normalised: comments
//!   and case outside literals dropped, casts (`::text`, `::double precision`, `::text[]`)
//!   removed, `x = ANY (ARRAY[…])` read as `x IN (…)` (and `<> ALL` as `NOT IN`), and the
//!   parentheses PostgreSQL adds around every comparison removed where they change nothing.
//!
//! A difference fails the test with one line per fact: the fact, SQLite's version and
//! PostgreSQL's. A difference that is known and accepted must be listed in [`ALLOWED`] with
//! the reason; an entry there that no longer matches a difference fails the test too.
//!
//! PostgreSQL also gets a rule of its own (db.rs: integers are BIGINT, reals DOUBLE PRECISION):
//! no INTEGER/SMALLINT or REAL (4-byte) columns, which would overflow on millisecond times or
//! lose the slider's resolution while SQLite, whose integers and reals are always 8 bytes,
//! never shows it.
//!
//! The PostgreSQL part runs when `ASSAY_TEST_POSTGRES_URL` is set; without it the test checks
//! SQLite alone and says so, unless `ASSAY_REQUIRE_POSTGRES` is set, when it fails.

use assay_tests::{Backend, fresh_database_url};
use sqlx::Row;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Known differences between the trees, accepted with a reason:
/// (fact, SQLite's version, PostgreSQL's version, why).
///
/// Both come from the same SQLite quirk: a PRIMARY KEY column that is not an INTEGER PRIMARY
/// KEY accepts NULL unless it says NOT NULL (https://sqlite.org/lang_createtable.html, "due to
/// a bug in some early versions"), while PostgreSQL's primary keys are always NOT NULL. The
/// code never stores a NULL token hash, so nothing reads differently; closing it on SQLite
/// needs a table rebuild in a new migration pair.
const ALLOWED: &[(&str, &str, &str, &str)] = &[
    (
        "column invitations.token_hash",
        "text NULL",
        "text NOT NULL",
        "SQLite: a TEXT PRIMARY KEY without NOT NULL accepts NULL; PostgreSQL's primary key is NOT NULL",
    ),
    (
        "column sessions.token_hash",
        "text NULL",
        "text NOT NULL",
        "SQLite: a TEXT PRIMARY KEY without NOT NULL accepts NULL; PostgreSQL's primary key is NOT NULL",
    ),
];

// ---------------------------------------------------------------------------------------------
// Expressions: a small tokeniser and normaliser shared by both engines.

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    /// A string literal's content ('' unescaped).
    Str(String),
    /// An identifier, keyword or number, lower-cased (quoted identifiers unquoted, case kept).
    Word(String),
    /// An operator or punctuation.
    Punct(String),
}

#[derive(Clone, Debug, PartialEq)]
enum Node {
    Tok(Tok),
    Paren(Vec<Node>),
    Bracket(Vec<Node>),
}

fn tokenize(sql: &str) -> Vec<Tok> {
    let c: Vec<char> = sql.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch.is_whitespace() {
            i += 1;
        } else if ch == '-' && c.get(i + 1) == Some(&'-') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && c.get(i + 1) == Some(&'*') {
            i += 2;
            while i < c.len() && !(c[i] == '*' && c.get(i + 1) == Some(&'/')) {
                i += 1;
            }
            i += 2;
        } else if ch == '\'' {
            let mut s = String::new();
            i += 1;
            while i < c.len() {
                if c[i] == '\'' {
                    if c.get(i + 1) == Some(&'\'') {
                        s.push('\'');
                        i += 2;
                        continue;
                    }
                    break;
                }
                s.push(c[i]);
                i += 1;
            }
            i += 1;
            out.push(Tok::Str(s));
        } else if ch == '"' || ch == '`' {
            let close = ch;
            let mut s = String::new();
            i += 1;
            while i < c.len() && c[i] != close {
                s.push(c[i]);
                i += 1;
            }
            i += 1;
            out.push(Tok::Word(s));
        } else if ch.is_alphanumeric() || ch == '_' || ch == '.' && c.get(i + 1).is_some_and(|d| d.is_ascii_digit()) {
            let mut s = String::new();
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_' || c[i] == '.' || c[i] == '$') {
                s.push(c[i]);
                i += 1;
            }
            out.push(Tok::Word(s.to_lowercase()));
        } else {
            let two: String = c[i..(i + 2).min(c.len())].iter().collect();
            let op = match two.as_str() {
                "::" | "<>" | "<=" | ">=" | "||" => two.clone(),
                "!=" => "<>".into(),
                "==" => "=".into(),
                _ => String::new(),
            };
            if op.is_empty() {
                out.push(Tok::Punct(ch.to_string()));
                i += 1;
            } else {
                out.push(Tok::Punct(op));
                i += 2;
            }
        }
    }
    out
}

/// Groups tokens by parentheses and brackets.
fn tree(toks: &[Tok]) -> Vec<Node> {
    fn group(toks: &[Tok], i: &mut usize, close: Option<&str>) -> Vec<Node> {
        let mut out = Vec::new();
        while *i < toks.len() {
            let t = toks[*i].clone();
            *i += 1;
            match &t {
                Tok::Punct(p) if p == "(" => out.push(Node::Paren(group(toks, i, Some(")")))),
                Tok::Punct(p) if p == "[" => out.push(Node::Bracket(group(toks, i, Some("]")))),
                Tok::Punct(p) if Some(p.as_str()) == close => return out,
                _ => out.push(Node::Tok(t)),
            }
        }
        out
    }
    let mut i = 0;
    group(toks, &mut i, None)
}

fn word(n: &Node) -> Option<&str> {
    match n {
        Node::Tok(Tok::Word(w)) => Some(w),
        _ => None,
    }
}

fn punct(n: &Node) -> Option<&str> {
    match n {
        Node::Tok(Tok::Punct(p)) => Some(p),
        _ => None,
    }
}

const BOOLEAN_WORDS: [&str; 3] = ["and", "or", "not"];
const NUMERIC_TYPES: [&str; 8] = ["integer", "bigint", "smallint", "int", "int4", "int8", "numeric", "real"];

/// Removes casts, rewrites `= ANY (ARRAY[…])` as `IN (…)`, and drops parentheses that change
/// nothing, recursively.
fn normalize_nodes(nodes: Vec<Node>) -> Vec<Node> {
    let nodes: Vec<Node> = nodes
        .into_iter()
        .map(|n| match n {
            Node::Paren(v) => Node::Paren(normalize_nodes(v)),
            Node::Bracket(v) => Node::Bracket(normalize_nodes(v)),
            t => t,
        })
        .collect();

    // Casts: `::type`, `::double precision`, `::character varying(10)`, `::text[]`.
    let mut out: Vec<Node> = Vec::new();
    let mut i = 0;
    while i < nodes.len() {
        if punct(&nodes[i]) == Some("::") {
            i += 1;
            let mut ty = String::new();
            while let Some(w) = nodes.get(i).and_then(word) {
                let more = ty.is_empty() || ["precision", "varying", "with", "without", "time", "zone"].contains(&w);
                if !more {
                    break;
                }
                ty.push_str(w);
                ty.push(' ');
                i += 1;
            }
            while matches!(nodes.get(i), Some(Node::Paren(_)) | Some(Node::Bracket(_))) {
                i += 1;
            }
            let ty = ty.trim();
            if NUMERIC_TYPES.contains(&ty) || ty == "double precision" {
                if let Some(Node::Tok(Tok::Str(s))) = out.last()
                    && s.parse::<f64>().is_ok()
                {
                    let s = s.clone();
                    *out.last_mut().unwrap() = Node::Tok(Tok::Word(s));
                }
            }
            continue;
        }
        out.push(nodes[i].clone());
        i += 1;
    }

    // `x = ANY (ARRAY[a, b])` → `x IN (a, b)`; `x <> ALL (ARRAY[…])` → `x NOT IN (…)`.
    let mut nodes = Vec::new();
    let mut i = 0;
    while i < out.len() {
        if let (Some(op), Some(q), Some(Node::Paren(inner))) = (punct(&out[i]), out.get(i + 1).and_then(word), out.get(i + 2))
            && let [head, Node::Bracket(items)] = inner.as_slice()
            && word(head) == Some("array")
        {
            let words: Option<&[&str]> = match (op, q) {
                ("=", "any") => Some(&["in"]),
                ("<>", "all") => Some(&["not", "in"]),
                _ => None,
            };
            if let Some(words) = words {
                nodes.extend(words.iter().map(|w| Node::Tok(Tok::Word(w.to_string()))));
                nodes.push(Node::Paren(items.clone()));
                i += 3;
                continue;
            }
        }
        nodes.push(out[i].clone());
        i += 1;
    }

    // Parentheses that change nothing: around the whole expression, around a single operand,
    // and around an operand of AND/OR/NOT that has no AND/OR of its own (comparisons bind
    // tighter than the boolean operators in both engines). Never after a word that makes them
    // a call or a list (`lower(…)`, `IN (…)`).
    loop {
        if let [Node::Paren(inner)] = nodes.as_slice() {
            nodes = inner.clone();
            continue;
        }
        let mut changed = false;
        for i in 0..nodes.len() {
            let Node::Paren(inner) = &nodes[i] else { continue };
            let prev = if i == 0 { None } else { Some(&nodes[i - 1]) };
            let next = nodes.get(i + 1);
            let call_or_list = prev.and_then(word).is_some_and(|w| !BOOLEAN_WORDS.contains(&w));
            if call_or_list {
                continue;
            }
            let single = inner.len() == 1;
            let has_boolean = inner.iter().any(|n| word(n).is_some_and(|w| w == "and" || w == "or"));
            let boolean_edge = |n: Option<&Node>| n.is_none() || n.and_then(word).is_some_and(|w| BOOLEAN_WORDS.contains(&w));
            let operand = !has_boolean && boolean_edge(prev) && (next.is_none() || next.and_then(word).is_some_and(|w| w == "and" || w == "or"));
            if single || operand {
                let inner = inner.clone();
                nodes.splice(i..=i, inner);
                changed = true;
                break;
            }
        }
        if !changed {
            break;
        }
    }
    nodes
}

fn render(nodes: &[Node]) -> String {
    let mut s = String::new();
    for n in nodes {
        let piece = match n {
            Node::Tok(Tok::Str(v)) => format!("'{}'", v.replace('\'', "''")),
            Node::Tok(Tok::Word(w)) => w.clone(),
            Node::Tok(Tok::Punct(p)) => p.clone(),
            Node::Paren(v) => format!("({})", render(v)),
            Node::Bracket(v) => format!("[{}]", render(v)),
        };
        if !s.is_empty() && piece != "," {
            s.push(' ');
        }
        s.push_str(&piece);
    }
    s
}

/// An expression in the one form both engines' versions of it reduce to.
fn normalize(expr: &str) -> String {
    render(&normalize_nodes(tree(&tokenize(expr))))
}

fn normalize_nodes_str(nodes: &[Node]) -> String {
    render(&normalize_nodes(nodes.to_vec()))
}

/// Splits a node list at top-level commas.
fn split_commas(nodes: &[Node]) -> Vec<Vec<Node>> {
    let mut parts = vec![Vec::new()];
    for n in nodes {
        if punct(n) == Some(",") {
            parts.push(Vec::new());
        } else {
            parts.last_mut().unwrap().push(n.clone());
        }
    }
    parts
}

// ---------------------------------------------------------------------------------------------
// Engine-neutral schema facts.

/// Facts about a schema: a key naming the thing, and what it is.
type Facts = BTreeMap<String, String>;

fn add(facts: &mut Facts, key: String, value: String) {
    facts.entry(key).and_modify(|v| *v = format!("{v} | {value}")).or_insert(value);
}

/// SQLite's affinity rules (https://sqlite.org/datatype3.html §3.1) on a declared type.
fn sqlite_type(declared: &str) -> String {
    let t = declared.to_uppercase();
    if t.contains("INT") {
        "integer".into()
    } else if t.contains("CHAR") || t.contains("CLOB") || t.contains("TEXT") {
        "text".into()
    } else if t.contains("BLOB") || t.trim().is_empty() {
        "blob".into()
    } else if t.contains("REAL") || t.contains("FLOA") || t.contains("DOUB") {
        "real".into()
    } else {
        format!("numeric ({})", declared.to_lowercase())
    }
}

/// PostgreSQL's `information_schema.columns.data_type`, reduced to the same affinities.
fn postgres_type(data_type: &str) -> String {
    match data_type {
        "bigint" | "integer" | "smallint" => "integer".into(),
        "double precision" | "real" => "real".into(),
        "text" | "character varying" | "character" => "text".into(),
        "bytea" => "blob".into(),
        other => other.into(),
    }
}

fn column_fact(ty: &str, not_null: bool, auto: bool, default: Option<&str>) -> String {
    let mut v = format!("{ty} {}", if not_null || auto { "NOT NULL" } else { "NULL" });
    if auto {
        v.push_str(" AUTO");
    } else if let Some(d) = default {
        v.push_str(&format!(" DEFAULT {}", normalize(d)));
    }
    v
}

fn fk_action(a: &str) -> &str {
    match a {
        "a" => "NO ACTION",
        "r" => "RESTRICT",
        "c" => "CASCADE",
        "n" => "SET NULL",
        "d" => "SET DEFAULT",
        other => other,
    }
}

fn e<T>(what: &str) -> impl FnOnce(sqlx::Error) -> T {
    let what = what.to_string();
    move |err| panic!("{what}: {err}")
}

async fn sqlite_facts(pool: &sqlx::AnyPool) -> Facts {
    let mut facts = Facts::new();
    let tables = sqlx::query("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_sqlx_migrations' ORDER BY name")
        .fetch_all(pool)
        .await
        .unwrap_or_else(e("sqlite_master"));
    for t in tables {
        let table: String = t.get("name");
        let sql: String = t.get("sql");
        facts.insert(format!("table {table}"), "present".into());

        // Columns and the primary key.
        let cols = sqlx::query(r#"SELECT name, type, "notnull" AS nn, dflt_value, pk FROM pragma_table_info($1) ORDER BY cid"#)
            .bind(&table)
            .fetch_all(pool)
            .await
            .unwrap_or_else(e("table_info"));
        let mut pk: Vec<(i64, String)> = cols.iter().filter(|c| c.get::<i64, _>("pk") > 0).map(|c| (c.get("pk"), c.get("name"))).collect();
        pk.sort();
        let rowid_alias = |name: &str, declared: &str| pk.len() == 1 && pk[0].1 == name && declared.eq_ignore_ascii_case("INTEGER");
        for c in &cols {
            let name: String = c.get("name");
            let declared: String = c.get("type");
            let default: Option<String> = c.get("dflt_value");
            let auto = rowid_alias(&name, &declared) && !sql.to_lowercase().contains("without rowid");
            let not_null = c.get::<i64, _>("nn") != 0;
            facts.insert(format!("column {table}.{name}"), column_fact(&sqlite_type(&declared), not_null, auto, default.as_deref()));
        }
        if !pk.is_empty() {
            let names: Vec<String> = pk.into_iter().map(|(_, n)| n).collect();
            facts.insert(format!("primary key {table}"), format!("({})", names.join(", ")));
        }

        // UNIQUE constraints (origin 'u') and indexes made by CREATE INDEX (origin 'c').
        let indexes = sqlx::query(r#"SELECT name, "unique" AS uq, origin, partial FROM pragma_index_list($1) ORDER BY name"#)
            .bind(&table)
            .fetch_all(pool)
            .await
            .unwrap_or_else(e("index_list"));
        for ix in indexes {
            let name: String = ix.get("name");
            let origin: String = ix.get("origin");
            let columns: Vec<Option<String>> = sqlx::query("SELECT name FROM pragma_index_info($1) ORDER BY seqno")
                .bind(&name)
                .fetch_all(pool)
                .await
                .unwrap_or_else(e("index_info"))
                .iter()
                .map(|r| r.get("name"))
                .collect();
            match origin.as_str() {
                "u" => add(&mut facts, format!("unique {table} ({})", columns.iter().flatten().cloned().collect::<Vec<_>>().join(", ")), "present".into()),
                "c" => {
                    let sql: String = sqlx::query("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = $1")
                        .bind(&name)
                        .fetch_one(pool)
                        .await
                        .unwrap_or_else(e("index sql"))
                        .get("sql");
                    let nodes = tree(&tokenize(&sql));
                    // CREATE [UNIQUE] INDEX name ON table (columns) [WHERE predicate]
                    let list = nodes.iter().find_map(|n| if let Node::Paren(v) = n { Some(v.clone()) } else { None }).unwrap_or_default();
                    let parsed = split_commas(&list);
                    let columns: Vec<String> = columns
                        .iter()
                        .enumerate()
                        .map(|(k, c)| c.clone().unwrap_or_else(|| parsed.get(k).map(|p| normalize_nodes_str(p)).unwrap_or_default()))
                        .collect();
                    let predicate = nodes.iter().position(|n| word(n) == Some("where")).map(|w| normalize_nodes_str(&nodes[w + 1..]));
                    facts.insert(format!("index {table}.{name}"), index_fact(ix.get::<i64, _>("uq") != 0, &columns, predicate.as_deref()));
                }
                _ => {} // the primary key's own index
            }
        }

        // CHECK constraints, from the table's SQL (column and table constraints alike; SQLite
        // keeps the text of every ALTER TABLE … ADD COLUMN in it).
        let nodes = tree(&tokenize(&sql));
        let defs = nodes.iter().find_map(|n| if let Node::Paren(v) = n { Some(v.clone()) } else { None }).unwrap_or_default();
        for (k, n) in defs.iter().enumerate() {
            if word(n) == Some("check")
                && let Some(Node::Paren(expr)) = defs.get(k + 1)
            {
                add(&mut facts, format!("check {table}: {}", normalize_nodes_str(expr)), "present".into());
            }
        }

        // Foreign keys.
        let fks = sqlx::query(r#"SELECT id, "table" AS ref_table, "from" AS col, "to" AS ref_col, on_update, on_delete FROM pragma_foreign_key_list($1) ORDER BY id, seq"#)
            .bind(&table)
            .fetch_all(pool)
            .await
            .unwrap_or_else(e("foreign_key_list"));
        let mut grouped: BTreeMap<i64, (Vec<String>, String, Vec<Option<String>>, String, String)> = BTreeMap::new();
        for fk in fks {
            let g = grouped.entry(fk.get("id")).or_insert_with(|| (Vec::new(), fk.get("ref_table"), Vec::new(), fk.get("on_delete"), fk.get("on_update")));
            g.0.push(fk.get("col"));
            g.2.push(fk.get("ref_col"));
        }
        for (_, (cols, ref_table, ref_cols, on_delete, on_update)) in grouped {
            // `REFERENCES t` without columns means t's primary key.
            let ref_cols: Vec<String> = if ref_cols.iter().all(Option::is_none) {
                sqlx::query("SELECT name FROM pragma_table_info($1) WHERE pk > 0 ORDER BY pk")
                    .bind(&ref_table)
                    .fetch_all(pool)
                    .await
                    .unwrap_or_else(e("referenced primary key"))
                    .iter()
                    .map(|r| r.get("name"))
                    .collect()
            } else {
                ref_cols.into_iter().flatten().collect()
            };
            add(&mut facts, format!("foreign key {table} ({})", cols.join(", ")), fk_fact(&ref_table, &ref_cols, &on_delete, &on_update));
        }
    }
    for r in sqlx::query("SELECT type, name, tbl_name FROM sqlite_master WHERE type IN ('view', 'trigger') ORDER BY name")
        .fetch_all(pool)
        .await
        .unwrap_or_else(e("views and triggers"))
    {
        let (kind, name, table): (String, String, String) = (r.get("type"), r.get("name"), r.get("tbl_name"));
        facts.insert(format!("{kind} {name}"), if kind == "trigger" { format!("on {table}") } else { "present".into() });
    }
    facts
}

fn index_fact(unique: bool, columns: &[String], predicate: Option<&str>) -> String {
    let mut v = format!("{}({})", if unique { "UNIQUE " } else { "" }, columns.join(", "));
    if let Some(p) = predicate {
        v.push_str(&format!(" WHERE {p}"));
    }
    v
}

fn fk_fact(ref_table: &str, ref_cols: &[String], on_delete: &str, on_update: &str) -> String {
    format!("-> {ref_table}({}) ON DELETE {} ON UPDATE {}", ref_cols.join(", "), on_delete.to_uppercase(), on_update.to_uppercase())
}

/// The facts of a PostgreSQL schema, and the columns that break the PostgreSQL-only rule
/// (8-byte integers and reals).
async fn postgres_facts(pool: &sqlx::AnyPool) -> (Facts, Vec<String>) {
    let mut facts = Facts::new();
    let mut narrow = Vec::new();
    let tables = sqlx::query(
        "SELECT table_name::text AS name FROM information_schema.tables
         WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> '_sqlx_migrations' ORDER BY 1",
    )
    .fetch_all(pool)
    .await
    .unwrap_or_else(e("information_schema.tables"));
    let tables: Vec<String> = tables.iter().map(|r| r.get("name")).collect();
    for t in &tables {
        facts.insert(format!("table {t}"), "present".into());
    }
    let cols = sqlx::query(
        "SELECT table_name::text AS t, column_name::text AS c, data_type::text AS ty, is_nullable::text AS nullable,
                column_default::text AS dflt, is_identity::text AS ident
         FROM information_schema.columns WHERE table_schema = current_schema() AND table_name <> '_sqlx_migrations'
         ORDER BY table_name, ordinal_position",
    )
    .fetch_all(pool)
    .await
    .unwrap_or_else(e("information_schema.columns"));
    for c in cols {
        let (t, name, ty): (String, String, String) = (c.get("t"), c.get("c"), c.get("ty"));
        if !tables.contains(&t) {
            continue; // a view's columns
        }
        let default: Option<String> = c.get("dflt");
        let auto = c.get::<String, _>("ident") == "YES" || default.as_deref().is_some_and(|d| d.starts_with("nextval("));
        let not_null = c.get::<String, _>("nullable") == "NO";
        if ["integer", "smallint", "real"].contains(&ty.as_str()) {
            narrow.push(format!("{t}.{name} is {ty}"));
        }
        facts.insert(format!("column {t}.{name}"), column_fact(&postgres_type(&ty), not_null, auto, default.as_deref()));
    }

    let constraints = sqlx::query(
        "SELECT cl.relname::text AS t, k.contype::text AS kind, pg_get_constraintdef(k.oid, true) AS def,
                (SELECT string_agg(a.attname::text, ',' ORDER BY u.ord) FROM unnest(k.conkey) WITH ORDINALITY AS u(attnum, ord)
                   JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.attnum) AS cols,
                f.relname::text AS ref_table,
                (SELECT string_agg(a.attname::text, ',' ORDER BY u.ord) FROM unnest(k.confkey) WITH ORDINALITY AS u(attnum, ord)
                   JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = u.attnum) AS ref_cols,
                k.confdeltype::text AS on_delete, k.confupdtype::text AS on_update
         FROM pg_constraint k
         JOIN pg_class cl ON cl.oid = k.conrelid
         JOIN pg_namespace n ON n.oid = cl.relnamespace
         LEFT JOIN pg_class f ON f.oid = k.confrelid
         WHERE n.nspname = current_schema() AND k.contype IN ('p', 'u', 'f', 'c') AND cl.relname <> '_sqlx_migrations'
         ORDER BY 1, 2, 3",
    )
    .fetch_all(pool)
    .await
    .unwrap_or_else(e("pg_constraint"));
    for k in constraints {
        let (t, kind, def): (String, String, String) = (k.get("t"), k.get("kind"), k.get("def"));
        let cols: Vec<String> = k.get::<Option<String>, _>("cols").unwrap_or_default().split(',').map(String::from).collect();
        match kind.as_str() {
            "p" => {
                facts.insert(format!("primary key {t}"), format!("({})", cols.join(", ")));
            }
            "u" => add(&mut facts, format!("unique {t} ({})", cols.join(", ")), "present".into()),
            "f" => {
                let ref_cols: Vec<String> = k.get::<Option<String>, _>("ref_cols").unwrap_or_default().split(',').map(String::from).collect();
                let (on_delete, on_update): (String, String) = (k.get("on_delete"), k.get("on_update"));
                add(
                    &mut facts,
                    format!("foreign key {t} ({})", cols.join(", ")),
                    fk_fact(&k.get::<String, _>("ref_table"), &ref_cols, fk_action(&on_delete), fk_action(&on_update)),
                );
            }
            _ => {
                // `CHECK (expr)` [NOT VALID]
                let nodes = tree(&tokenize(&def));
                let expr = nodes.iter().find_map(|n| if let Node::Paren(v) = n { Some(v.clone()) } else { None }).unwrap_or_default();
                add(&mut facts, format!("check {t}: {}", normalize_nodes_str(&expr)), "present".into());
            }
        }
    }

    let indexes = sqlx::query(
        "SELECT c.relname::text AS t, i.relname::text AS name, CASE WHEN x.indisunique THEN 1 ELSE 0 END AS uq,
                (SELECT string_agg(pg_get_indexdef(x.indexrelid, k, true), chr(31) ORDER BY k)
                   FROM generate_series(1, x.indnkeyatts::int) AS k) AS cols,
                pg_get_expr(x.indpred, x.indrelid, true) AS predicate
         FROM pg_index x
         JOIN pg_class i ON i.oid = x.indexrelid
         JOIN pg_class c ON c.oid = x.indrelid
         JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = current_schema() AND c.relname <> '_sqlx_migrations'
           AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = x.indexrelid AND k.contype IN ('p', 'u', 'x'))
         ORDER BY 1, 2",
    )
    .fetch_all(pool)
    .await
    .unwrap_or_else(e("pg_index"));
    for ix in indexes {
        let (t, name, cols): (String, String, String) = (ix.get("t"), ix.get("name"), ix.get("cols"));
        let cols: Vec<String> = cols.split('\u{1f}').map(normalize).collect();
        let predicate: Option<String> = ix.get("predicate");
        facts.insert(format!("index {t}.{name}"), index_fact(ix.get::<i64, _>("uq") != 0, &cols, predicate.map(|p| normalize(&p)).as_deref()));
    }

    for r in sqlx::query("SELECT table_name::text AS name FROM information_schema.views WHERE table_schema = current_schema()")
        .fetch_all(pool)
        .await
        .unwrap_or_else(e("views"))
    {
        facts.insert(format!("view {}", r.get::<String, _>("name")), "present".into());
    }
    for r in sqlx::query(
        "SELECT DISTINCT trigger_name::text AS name, event_object_table::text AS t FROM information_schema.triggers WHERE trigger_schema = current_schema()",
    )
    .fetch_all(pool)
    .await
    .unwrap_or_else(e("triggers"))
    {
        facts.insert(format!("trigger {}", r.get::<String, _>("name")), format!("on {}", r.get::<String, _>("t")));
    }
    (facts, narrow)
}

/// (fact, SQLite's version, PostgreSQL's version) for every fact that differs; "-" = absent.
fn differences(sqlite: &Facts, postgres: &Facts) -> Vec<(String, String, String)> {
    let mut keys: Vec<&String> = sqlite.keys().chain(postgres.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter_map(|k| {
            let (a, b) = (sqlite.get(k), postgres.get(k));
            (a != b).then(|| (k.clone(), a.cloned().unwrap_or_else(|| "-".into()), b.cloned().unwrap_or_else(|| "-".into())))
        })
        .collect()
}

/// The report of what is wrong: unexplained differences and allow-list entries that no longer
/// match; empty when the trees agree up to [`ALLOWED`].
fn report(diffs: &[(String, String, String)], allowed: &[(&str, &str, &str, &str)]) -> String {
    let mut out = String::new();
    let unexplained: Vec<_> = diffs.iter().filter(|(k, a, b)| !allowed.iter().any(|(ak, aa, ab, _)| ak == k && aa == a && ab == b)).collect();
    if !unexplained.is_empty() {
        out.push_str(&format!("The SQLite and PostgreSQL migration trees differ ({} facts; \"-\" = absent):\n", unexplained.len()));
        for (k, a, b) in unexplained {
            out.push_str(&format!("  {k}\n      SQLite:     {a}\n      PostgreSQL: {b}\n"));
        }
    }
    let stale: Vec<_> = allowed.iter().filter(|(ak, aa, ab, _)| !diffs.iter().any(|(k, a, b)| ak == k && aa == a && ab == b)).collect();
    if !stale.is_empty() {
        out.push_str("Entries of ALLOWED in tests/tests/it/migrations.rs that no longer match a difference (remove or update them):\n");
        for (k, a, b, _) in stale {
            out.push_str(&format!("  {k}\n      SQLite:     {a}\n      PostgreSQL: {b}\n"));
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The tests.

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The migration files of one tree, by name.
fn migration_files(tree: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root().join("migrations").join(tree))
        .unwrap_or_else(|err| panic!("migrations/{tree}: {err}"))
        .map(|e| e.expect("directory entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".sql"))
        .collect();
    names.sort();
    names
}

/// The version a migration file's name starts with (`0004_worker_decisions.sql` → 4).
fn version_of(file: &str) -> i64 {
    file.split('_').next().and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("{file}: the name does not start with a version number"))
}

async fn applied_versions(pool: &sqlx::AnyPool) -> Vec<i64> {
    sqlx::query("SELECT version FROM _sqlx_migrations WHERE success ORDER BY version")
        .fetch_all(pool)
        .await
        .unwrap_or_else(e("_sqlx_migrations"))
        .iter()
        .map(|r| r.get("version"))
        .collect()
}

#[test]
fn every_migration_comes_in_a_pair_and_is_embedded() {
    let sqlite = migration_files("sqlite");
    let postgres = migration_files("postgres");
    assert_eq!(sqlite, postgres, "migrations/sqlite and migrations/postgres must hold the same file names");
    let versions: Vec<i64> = sqlite.iter().map(|f| version_of(f)).collect();
    assert_eq!(versions, (1..=versions.len() as i64).collect::<Vec<_>>(), "versions must be 1, 2, 3, … without gaps: {sqlite:?}");
    // The binary embeds exactly these files (app/build.rs), in this order, with their content.
    let embedded: Vec<(i64, &str)> = app::db::MIGRATIONS.iter().map(|&(v, d, _, _)| (v, d)).collect();
    let expected: Vec<(i64, String)> = sqlite.iter().map(|f| (version_of(f), f.trim_end_matches(".sql").split_once('_').unwrap().1.replace('_', " "))).collect();
    assert_eq!(embedded.iter().map(|&(v, d)| (v, d.to_string())).collect::<Vec<_>>(), expected, "app::db::MIGRATIONS against migrations/");
    for (&(_, _, sqlite_sql, postgres_sql), f) in app::db::MIGRATIONS.iter().zip(&sqlite) {
        for (tree, sql) in [("sqlite", sqlite_sql), ("postgres", postgres_sql)] {
            let on_disk = std::fs::read_to_string(root().join("migrations").join(tree).join(f)).unwrap();
            assert_eq!(sql, on_disk, "migrations/{tree}/{f}: the embedded text differs from the file (rebuild)");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_and_postgres_trees_agree() {
    let expected: Vec<i64> = migration_files("sqlite").iter().map(|f| version_of(f)).collect();

    let dir = tempfile::tempdir().expect("temp dir");
    let url = fresh_database_url(Backend::Sqlite, dir.path()).expect("sqlite url");
    let sqlite = app::db::connect(&url).await.unwrap_or_else(|err| panic!("SQLite migrations: {err}"));
    assert_eq!(applied_versions(&sqlite.pool).await, expected, "SQLite: applied migrations");
    let sqlite_facts = sqlite_facts(&sqlite.pool).await;
    assert!(sqlite_facts.len() > 50, "SQLite's schema read back as only {} facts: {sqlite_facts:#?}", sqlite_facts.len());

    let Some(url) = fresh_database_url(Backend::Postgres, dir.path()) else {
        eprintln!("only the SQLite tree was checked: set ASSAY_TEST_POSTGRES_URL to compare it with the PostgreSQL tree");
        return;
    };
    let postgres = app::db::connect(&url).await.unwrap_or_else(|err| panic!("PostgreSQL migrations: {err}"));
    assert_eq!(applied_versions(&postgres.pool).await, expected, "PostgreSQL: applied migrations");
    let (postgres_facts, narrow) = postgres_facts(&postgres.pool).await;

    let diffs = differences(&sqlite_facts, &postgres_facts);
    let mut problems = report(&diffs, ALLOWED);
    if !narrow.is_empty() {
        problems.push_str(&format!(
            "PostgreSQL columns narrower than the code reads and writes (use BIGINT and DOUBLE PRECISION, see app/src/db.rs):\n  {}\n",
            narrow.join("\n  ")
        ));
    }
    if std::env::var_os("ASSAY_PRINT_SCHEMA").is_some() {
        for (k, v) in &sqlite_facts {
            eprintln!("{k}: {v}");
        }
    }
    assert!(problems.is_empty(), "\n{problems}");
    sqlite.pool.close().await;
    postgres.pool.close().await;
}

// The normaliser on the forms each engine gives back.

#[test]
fn postgres_and_sqlite_spellings_of_an_expression_agree() {
    let same = [
        // A column CHECK as SQLite keeps it and as pg_get_constraintdef gives it.
        (
            "role IN ('admin', 'organizer')",
            "((role = ANY (ARRAY['admin'::text, 'organizer'::text])))",
        ),
        ("status IN ('active','completed')", "(status = ANY (ARRAY['active'::text, 'completed'::text]))"),
        ("kind NOT IN ('a', 'b')", "(kind <> ALL (ARRAY['a'::character varying, 'b'::character varying]::text[]))"),
        ("score >= 0 AND score <= 100", "((score >= (0)::double precision) AND (score <= (100)::double precision))"),
        ("a = 1 OR b IS NULL", "((a = 1) OR (b IS NULL))"),
        ("x != 'y'", "(x <> 'y'::text)"),
        ("'off'", "'off'::text"),
        ("-- a comment (with parentheses)\n n   >  0", "(n > 0)"),
        ("0", "'0'::bigint"),
        ("lower(email)", "lower(email)"),
    ];
    for (sqlite, postgres) in same {
        assert_eq!(normalize(sqlite), normalize(postgres), "{sqlite:?} vs {postgres:?}");
    }
    let different = [
        ("a = 1 AND (b = 2 OR c = 3)", "a = 1 AND b = 2 OR c = 3"),
        ("role IN ('admin')", "role IN ('admin', 'organizer')"),
        ("status IN ('active', 'completed')", "status IN ('completed', 'active')"),
        ("x > 0", "x >= 0"),
    ];
    for (a, b) in different {
        assert_ne!(normalize(a), normalize(b), "{a:?} vs {b:?}");
    }
}

#[test]
fn a_difference_is_reported_precisely_and_allowed_only_exactly() {
    let mut a = Facts::new();
    let mut b = Facts::new();
    a.insert("index t.t_x".into(), "(x)".into());
    a.insert("column t.y".into(), "text NULL".into());
    b.insert("column t.y".into(), "text NOT NULL".into());
    let diffs = differences(&a, &b);
    assert_eq!(diffs.len(), 2);
    let r = report(&diffs, &[]);
    assert!(r.contains("index t.t_x\n      SQLite:     (x)\n      PostgreSQL: -"), "{r}");
    assert!(r.contains("column t.y\n      SQLite:     text NULL\n      PostgreSQL: text NOT NULL"), "{r}");
    let allowed = [("column t.y", "text NULL", "text NOT NULL", "why")];
    let r = report(&diffs, &allowed);
    assert!(!r.contains("column t.y"), "{r}");
    assert!(r.contains("index t.t_x"), "{r}");
    // An allowance that no longer matches is reported too.
    let r = report(&[], &allowed);
    assert!(r.contains("no longer match") && r.contains("column t.y"), "{r}");
}
