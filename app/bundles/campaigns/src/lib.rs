//! The browser bundle of the campaigns pages: `pkg/assay-campaigns.js` and `pkg/assay-campaigns_bg.wasm`.
#![cfg(target_arch = "wasm32")]

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    app::hydrate::<app::ui::family::Campaigns>();
}
