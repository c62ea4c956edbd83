//! The browser bundle of the accounts pages: `pkg/assay-accounts.js` and `pkg/assay-accounts_bg.wasm`.
#![cfg(target_arch = "wasm32")]

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    app::hydrate::<app::ui::family::Accounts>();
}
