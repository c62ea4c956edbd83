//! The browser bundle of an error-span HIT's work page (ESA, MQM): `pkg/assay-spans.js` and
//! `pkg/assay-spans_bg.wasm`.
#![cfg(target_arch = "wasm32")]

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    app::hydrate::<app::ui::family::Spans>();
}
