//! The browser bundle of a DA HIT's work page (adequacy, fluency, source-based): `pkg/assay-da.js`
//! and `pkg/assay-da_bg.wasm`.
#![cfg(target_arch = "wasm32")]

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    app::hydrate::<app::ui::family::Da>();
}
