//! The browser bundle of a contrastive ESA HIT's work page: `pkg/assay-cesa.js` and
//! `pkg/assay-cesa_bg.wasm`.
#![cfg(target_arch = "wasm32")]

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    app::hydrate::<app::ui::family::Contrastive>();
}
