//! The browser bundle of the studies pages: `pkg/assay-studies.js` and `pkg/assay-studies_bg.wasm`.
#![cfg(target_arch = "wasm32")]

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    app::hydrate::<app::ui::family::Studies>();
}
