//! Resources: data a page loads on the server while rendering and hands to the browser in the
//! document.

use leptos::prelude::*;

/// The codec of every resource: JSON read with `serde_json::from_slice`, the reader server
/// function replies use, so that a browser bundle holds one decoder per type instead of two (the
/// default resource codec reads from `&str`, which serde_json compiles separately).
pub struct JsonCodec;

impl<T: serde::Serialize> codee::Encoder<T> for JsonCodec {
    type Error = serde_json::Error;
    type Encoded = String;

    fn encode(value: &T) -> Result<String, serde_json::Error> {
        serde_json::to_string(value)
    }
}

impl<T: serde::de::DeserializeOwned> codee::Decoder<T> for JsonCodec {
    type Error = serde_json::Error;
    type Encoded = str;

    fn decode(text: &str) -> Result<T, serde_json::Error> {
        serde_json::from_slice(text.as_bytes())
    }
}

/// A resource of the app: loaded on the server while rendering, handed to the browser in the page
/// with [`JsonCodec`], reloaded when `source` changes.
#[track_caller]
pub fn resource<T, S, Fut>(
    source: impl Fn() -> S + Send + Sync + 'static,
    fetcher: impl Fn(S) -> Fut + Send + Sync + 'static,
) -> Resource<T, JsonCodec>
where
    T: serde::Serialize + serde::de::DeserializeOwned + Send + Sync + 'static,
    S: Send + Sync + Clone + PartialEq + 'static,
    Fut: std::future::Future<Output = T> + Send + 'static,
{
    Resource::new_with_options(source, fetcher, false)
}

/// [`resource`] that the server waits for before it sends the page's head: for a page whose
/// data decides its status (an unknown campaign, study or HIT in the address, a caller without
/// the role), which its server function sets on the response (`AppError` → `ServerFnError`).
/// The status and headers go out with the first chunk of the stream; a resource that is not
/// blocking may resolve after it (the page then answered 200 with its error text at random).
#[track_caller]
pub fn blocking_resource<T, S, Fut>(
    source: impl Fn() -> S + Send + Sync + 'static,
    fetcher: impl Fn(S) -> Fut + Send + Sync + 'static,
) -> Resource<T, JsonCodec>
where
    T: serde::Serialize + serde::de::DeserializeOwned + Send + Sync + 'static,
    S: Send + Sync + Clone + PartialEq + 'static,
    Fut: std::future::Future<Output = T> + Send + 'static,
{
    Resource::new_with_options(source, fetcher, true)
}

/// [`resource`] for a page's secondary data, whose refusal never decides the page's status: on
/// the server its fetcher runs with a response of its own, so a server function's status goes
/// nowhere. A page with an unknown campaign in its address answers its main resource's status
/// (say 400 from the progress), not whichever of its sections' refusals came last (a HIT
/// inspector's 404).
#[track_caller]
pub fn secondary_resource<T, S, Fut>(
    source: impl Fn() -> S + Send + Sync + 'static,
    fetcher: impl Fn(S) -> Fut + Send + Sync + 'static,
) -> Resource<T, JsonCodec>
where
    T: serde::Serialize + serde::de::DeserializeOwned + Send + Sync + 'static,
    S: Send + Sync + Clone + PartialEq + 'static,
    Fut: std::future::Future<Output = T> + Send + 'static,
{
    #[cfg(feature = "ssr")]
    let fetcher = move |s: S| {
        let owner = leptos::reactive::owner::Owner::new();
        owner.with(|| {
            provide_context(leptos_axum::ResponseOptions::default());
            leptos::reactive::computed::ScopedFuture::new(fetcher(s))
        })
    };
    Resource::new_with_options(source, fetcher, false)
}
