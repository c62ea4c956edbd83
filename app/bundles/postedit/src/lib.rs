//! The browser bundle of a post-editing HIT's work page: `pkg/assay-postedit.js` and
//! `pkg/assay-postedit_bg.wasm`.
#![cfg(target_arch = "wasm32")]

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    app::hydrate::<app::ui::family::PostEdit>();
}
