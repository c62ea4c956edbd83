//! The browser bundle of the start page, sign-in and invitations: `pkg/assay-annotate.js` and `pkg/assay-annotate_bg.wasm`.
#![cfg(target_arch = "wasm32")]

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    app::hydrate::<app::ui::family::Annotate>();
}
