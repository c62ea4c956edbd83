//! The browser bundle of a pairwise-preference HIT's work page: `pkg/assay-pair.js` and
//! `pkg/assay-pair_bg.wasm`.
#![cfg(target_arch = "wasm32")]

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    app::hydrate::<app::ui::family::Pair>();
}
