//! Checks an API answer against the OpenAPI document the server serves: the response schema the
//! document gives for (path, method, status), validated with the `jsonschema` crate (OpenAPI 3.1
//! schemas are JSON Schema 2020-12; `#/components/…` references resolve in the document's
//! components, carried beside the schema).

use serde_json::{Value, json};

/// What is wrong with `answer` as the `status` answer of `method path` (empty: nothing).
pub fn violations(doc: &Value, path: &str, method: &str, status: u16, answer: &Value) -> Vec<String> {
    let Some(operation) = doc["paths"][path].get(method) else {
        return vec![format!("{method} {path} is not described")];
    };
    let Some(response) = operation["responses"].get(status.to_string()) else {
        return vec![format!("{method} {path}: status {status} is not described")];
    };
    let Some(schema) = response["content"]["application/json"].get("schema") else {
        return vec![format!("{method} {path} {status}: no JSON schema described")];
    };
    let mut root = json!({ "$schema": "https://json-schema.org/draft/2020-12/schema", "allOf": [schema] });
    root["components"] = doc["components"].clone();
    let validator = match jsonschema::validator_for(&root) {
        Ok(v) => v,
        Err(e) => return vec![format!("{method} {path} {status}: the described schema is invalid: {e}")],
    };
    validator.iter_errors(answer).map(|e| format!("{} at {}", e, e.instance_path())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc() -> Value {
        json!({
            "paths": { "/x": { "get": { "responses": {
                "200": { "content": { "application/json": { "schema": { "$ref": "#/components/schemas/X" } } } }
            } } } },
            "components": { "schemas": { "X": {
                "type": "object", "required": ["n"],
                "properties": { "n": { "type": "integer" }, "s": { "type": ["string", "null"] } }
            } } }
        })
    }

    #[test]
    fn a_matching_answer_has_no_violation_and_a_wrong_one_has() {
        assert!(violations(&doc(), "/x", "get", 200, &json!({ "n": 3, "s": null })).is_empty());
        assert_eq!(violations(&doc(), "/x", "get", 200, &json!({ "n": "3" })).len(), 1);
        assert_eq!(violations(&doc(), "/x", "get", 200, &json!({ "s": "a" })).len(), 1);
        assert!(violations(&doc(), "/x", "get", 404, &json!({}))[0].contains("status 404 is not described"));
        assert!(violations(&doc(), "/y", "get", 200, &json!({}))[0].contains("not described"));
    }
}
