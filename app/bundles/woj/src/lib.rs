//! The browser bundle of a word-order HIT's work page: `pkg/assay-woj.js` and `pkg/assay-woj_bg.wasm`.
#![cfg(target_arch = "wasm32")]

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    app::hydrate::<app::ui::family::Woj>();
}
