//! The browser bundle of the results pages: `pkg/assay-results.js` and `pkg/assay-results_bg.wasm`.
#![cfg(target_arch = "wasm32")]

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    app::hydrate::<app::ui::family::Results>();
}
