//! The browser bundle of a relative-ranking HIT's work page: `pkg/assay-rank.js` and
//! `pkg/assay-rank_bg.wasm`.
#![cfg(target_arch = "wasm32")]

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    app::hydrate::<app::ui::family::Rank>();
}
