//! The first DA item before the page's bundle has arrived (issue 18, item 5).
//!
//! On a slow phone the annotation bundle takes seconds to arrive; until it has, nothing on a
//! server-rendered page answers a tap. A DA HIT's page therefore comes with its first item
//! ([`super::WorkState::ahead`], drawn hidden behind the instructions) and with this small
//! script, written into the page's `<head>` (with the page's nonce) before anything else. Until
//! the bundle takes over, the script:
//! - on Start, shows the first item and tells the server (`start_work`: the item's time starts
//!   there, as with the bundle);
//! - moves the slider by pointer and keys as [`super::pages::Slider`] does (the same keys, the
//!   same words for screen readers: [`SLIDER_BANDS`] and the slider's `data-words`), and
//!   enables Next;
//! - keeps Next (or Enter) pressed before the bundle as a wish to send.
//!
//! It only changes attributes and the data of text nodes the server drew, never the tree (not
//! even an emptied text node: hydration expects it), so that the bundle hydrates the page as
//! it was sent. The bundle then takes over ([`take`]): the work
//! page reads what happened (Start, the value, Next), shows the same, and sends the answer.
//! From then on the script does nothing.

/// Where a DA slider's words change, from the low end up: the upper bound of each band and
/// whether it belongs to it. Below the first: "at" the low end; then close to it, leaning to it,
/// the middle, leaning to the high end, close to it; above the last, "at" the high end. Used by
/// [`super::pages::slider_words`] and by the early script.
pub const SLIDER_BANDS: [(f64, bool); 6] = [(3.0, true), (25.0, false), (45.0, false), (55.0, true), (75.0, true), (97.0, false)];

/// The band of a slider value (0 = at the low end … 6 = at the high end).
pub fn slider_band(v: f64) -> usize {
    SLIDER_BANDS.iter().position(|&(bound, inclusive)| if inclusive { v <= bound } else { v < bound }).unwrap_or(SLIDER_BANDS.len())
}

/// The script. `__BANDS__` is replaced by [`SLIDER_BANDS`]. The ids are the work page's:
/// `ahead-start` (the instructions), `ahead-item` (the first item, `data-assignment`), `start`,
/// `score` (the slider, `data-words`: not set, then one text per band), `next`, `next-why`.
const SCRIPT: &str = r#"(() => {
  const E = window.__assayEarly = { started: false, at: 0, value: null, next: false, last: 0, live: false };
  const bands = __BANDS__;
  const $ = (id) => document.getElementById(id);
  const off = () => E.live || !$('ahead-item');
  const words = (t, v) => {
    let w;
    try { w = JSON.parse(t.dataset.words); } catch (_) { return null; }
    if (v === null) return w[0];
    const i = bands.findIndex(([b, inclusive]) => (inclusive ? v <= b : v < b));
    return w[(i < 0 ? bands.length : i) + 1];
  };
  const set = (v) => {
    const t = $('score');
    if (!t) return;
    v = Math.min(100, Math.max(0, v));
    E.value = v;
    const thumb = t.querySelector('.thumb');
    if (thumb) { thumb.classList.remove('unset'); thumb.style.left = v.toFixed(4) + '%'; }
    t.dataset.set = 'true';
    const w = words(t, v);
    if (w) t.setAttribute('aria-valuetext', w);
    const note = t.parentElement && t.parentElement.querySelector('.unset-note');
    if (note) note.hidden = true;
    // The text node itself stays (the bundle hydrates it): only its text goes.
    const why = $('next-why');
    if (why) why.childNodes.forEach((n) => { if (n.nodeType === Node.TEXT_NODE) n.data = ''; });
    const next = $('next');
    if (next && !E.next) next.disabled = false;
  };
  const start = () => {
    const s = $('start'), a = $('ahead-start'), i = $('ahead-item');
    if (E.started || !s || s.disabled || !a || !i || !$('score')) return false;
    E.started = true;
    E.at = E.last = Date.now();
    a.hidden = true;
    i.hidden = false;
    $('score').focus();
    fetch('/api/start_work', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Accept': 'application/json' },
      body: 'assignment=' + encodeURIComponent(i.dataset.assignment || ''),
    }).catch(() => {});
    return true;
  };
  const send = () => {
    const next = $('next');
    if (!E.started || E.value === null || E.next || !next) return;
    E.next = true;
    next.disabled = true;
  };
  let drag = false;
  const fromX = (x) => {
    const r = $('score').getBoundingClientRect();
    if (r.width > 0) set(((x - r.left) / r.width) * 100);
  };
  const on = (type, f) => document.addEventListener(type, (e) => { if (!off()) f(e); }, true);
  on('click', (e) => {
    const t = e.target instanceof Element ? e.target : null;
    if (!t) return;
    if (t.closest('#start')) { if (start()) e.preventDefault(); }
    else if (E.started && t.closest('#next')) { e.preventDefault(); send(); }
  });
  on('pointerdown', (e) => {
    E.last = Date.now();
    const t = e.target instanceof Element ? e.target.closest('#score') : null;
    if (!E.started || !t || e.button !== 0) return;
    e.preventDefault();
    try { t.setPointerCapture(e.pointerId); } catch (_) {}
    t.focus();
    drag = true;
    fromX(e.clientX);
  });
  on('pointermove', (e) => { E.last = Date.now(); if (drag) fromX(e.clientX); });
  on('pointerup', () => { drag = false; });
  on('pointercancel', () => { drag = false; });
  on('keydown', (e) => {
    E.last = Date.now();
    if (!E.started || !(e.target instanceof Element)) return;
    if (e.key === 'Enter' && e.target.closest('.da-screen')) { e.preventDefault(); send(); return; }
    if (!e.target.closest('#score')) return;
    const step = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: 10, PageDown: -10, Home: -1000, End: 1000 }[e.key];
    if (step === undefined) return;
    e.preventDefault();
    set((E.value === null ? 50 : E.value) + step);
  });
})();"#;

/// The script as the page carries it (made once).
pub fn script() -> &'static str {
    static TEXT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        let bands: Vec<String> = SLIDER_BANDS.iter().map(|(b, inclusive)| format!("[{b}, {inclusive}]")).collect();
        SCRIPT.replace("__BANDS__", &format!("[{}]", bands.join(", ")))
    });
    &TEXT
}

/// What the worker did before the bundle took over.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Early {
    /// Start was pressed (the first item is on the screen, the server was told).
    pub started: bool,
    /// When Start was pressed (the browser's clock, ms).
    pub at: f64,
    /// The slider's value, if it was set.
    pub value: Option<f64>,
    /// Next (or Enter) was pressed with the value set.
    pub next: bool,
    /// The last key press or pointer event (the browser's clock, ms).
    pub last: f64,
}

/// Takes over from the script: reads what the worker did and tells the script to stop. `None`
/// when the page has no script (it was not loaded at a work page) or it was already taken.
#[cfg(feature = "hydrate")]
pub fn take() -> Option<Early> {
    use wasm_bindgen::JsValue;
    let state = js_sys::Reflect::get(&leptos::prelude::window(), &JsValue::from_str("__assayEarly")).ok().filter(|v| v.is_object())?;
    let get = |k: &str| js_sys::Reflect::get(&state, &JsValue::from_str(k)).unwrap_or(JsValue::UNDEFINED);
    if get("live").as_bool() == Some(true) {
        return None;
    }
    let _ = js_sys::Reflect::set(&state, &JsValue::from_str("live"), &JsValue::TRUE);
    Some(Early {
        started: get("started").as_bool().unwrap_or(false),
        at: get("at").as_f64().unwrap_or(0.0),
        value: get("value").as_f64().filter(|v| v.is_finite()).map(|v| v.clamp(0.0, 100.0)),
        next: get("next").as_bool().unwrap_or(false),
        last: get("last").as_f64().unwrap_or(0.0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bands_split_the_scale_as_the_words_say() {
        assert_eq!(slider_band(0.0), 0);
        assert_eq!(slider_band(3.0), 0);
        assert_eq!(slider_band(3.5), 1);
        assert_eq!(slider_band(25.0), 2);
        assert_eq!(slider_band(50.0), 3);
        assert_eq!(slider_band(55.0), 3);
        assert_eq!(slider_band(75.0), 4);
        assert_eq!(slider_band(96.9), 5);
        assert_eq!(slider_band(97.0), 6);
        assert_eq!(slider_band(100.0), 6);
    }

    #[test]
    fn the_script_carries_the_bands() {
        let s = script();
        assert!(s.contains("const bands = [[3, true], [25, false], [45, false], [55, true], [75, true], [97, false]];"), "{}", &s[..300]);
        assert!(!s.contains("__BANDS__"));
    }
}
