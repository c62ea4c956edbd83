//! The browser bundle with every page (`pkg/assay-all.js`): `scripts/run` builds it first on a
//! fresh clone and the server uses it for a family whose own bundle is not built yet.
#![cfg(target_arch = "wasm32")]

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    app::hydrate::<app::ui::Every>();
}
