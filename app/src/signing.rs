//! Signatures with the server's secret (HMAC-SHA256): crowd links and completion codes. A leaf:
//! it knows nothing of the database or the web, only the secret it is given.

use hmac::{Hmac, Mac};
use sha2::Sha256;

// ---------------------------------------------------------------------------------------------
// Crowd links

type HmacSha256 = Hmac<Sha256>;

/// The signature of a campaign's crowd link: HMAC-SHA256 of `campaign-link:{public_id}` with
/// the server's secret, hex.
pub fn link_signature(secret: &[u8], campaign_public_id: &str) -> String {
    let mut mac = match HmacSha256::new_from_slice(secret) {
        Ok(m) => m,
        // HMAC accepts keys of any length; this cannot happen.
        Err(_) => return String::new(),
    };
    mac.update(b"campaign-link:");
    mac.update(campaign_public_id.as_bytes());
    mac.finalize().into_bytes().iter().map(|b| format!("{b:02x}")).collect()
}

/// Checks a crowd link's signature in constant time.
pub fn verify_link(secret: &[u8], campaign_public_id: &str, sig: &str) -> bool {
    let Ok(mut mac) = HmacSha256::new_from_slice(secret) else { return false };
    mac.update(b"campaign-link:");
    mac.update(campaign_public_id.as_bytes());
    let Some(bytes) = decode_hex(sig) else { return false };
    mac.verify_slice(&bytes).is_ok()
}

/// What the database keeps of a crowd worker's client address (`assignments.client_tag`): an
/// HMAC-SHA256 of `client-address:{address}` with the server's secret, its first 16 bytes in
/// hex. The same address gives the same tag on every app server with the same secret, and the
/// address cannot be read back from it.
pub fn client_tag(secret: &[u8], address: &str) -> String {
    let Ok(mut mac) = HmacSha256::new_from_slice(secret) else { return String::new() };
    mac.update(b"client-address:");
    mac.update(address.as_bytes());
    mac.finalize().into_bytes()[..16].iter().map(|b| format!("{b:02x}")).collect()
}

fn decode_hex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok()).collect()
}

// ---------------------------------------------------------------------------------------------
// Completion codes

const CROCKFORD: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// The completion code of an assignment: HMAC-SHA256 of its public id under the server's
/// secret, 100 bits in Crockford base32, as `XXXXX-XXXXX-XXXXX-XXXXX`. Unique per assignment,
/// unguessable without the secret, and recomputable for verification.
pub fn completion_code(secret: &[u8], public_id: &str) -> String {
    let mut mac = match Hmac::<Sha256>::new_from_slice(secret) {
        Ok(m) => m,
        // HMAC accepts keys of any length; this branch cannot be taken.
        Err(_) => return String::new(),
    };
    mac.update(b"assay completion code v1\n");
    mac.update(public_id.as_bytes());
    let digest = mac.finalize().into_bytes();
    // 20 symbols of 5 bits from the first 13 bytes.
    let mut bits: u128 = 0;
    for b in &digest[..13] {
        bits = (bits << 8) | u128::from(*b);
    }
    let mut out = String::with_capacity(23);
    for i in 0..20 {
        if i > 0 && i % 5 == 0 {
            out.push('-');
        }
        let shift = 104 - 5 * (i + 1);
        out.push(CROCKFORD[((bits >> shift) & 31) as usize] as char);
    }
    out
}

/// A code as typed by a person, in canonical form (upper case, Crockford's look-alikes mapped,
/// dashes regrouped); `None` if it cannot be a code.
pub fn normalise_code(input: &str) -> Option<String> {
    let mut symbols = String::new();
    for c in input.chars() {
        let c = c.to_ascii_uppercase();
        let c = match c {
            'O' => '0',
            'I' | 'L' => '1',
            '-' | ' ' => continue,
            c => c,
        };
        if !CROCKFORD.contains(&(c as u32 as u8)) || !c.is_ascii() {
            return None;
        }
        symbols.push(c);
    }
    if symbols.len() != 20 {
        return None;
    }
    let mut out = String::with_capacity(23);
    for (i, c) in symbols.chars().enumerate() {
        if i > 0 && i % 5 == 0 {
            out.push('-');
        }
        out.push(c);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completion_codes_are_per_assignment_and_keyed() {
        let a = completion_code(b"key one", "assignment-a");
        assert_eq!(a.len(), 23);
        assert_eq!(a.matches('-').count(), 3);
        assert_eq!(a, completion_code(b"key one", "assignment-a"));
        assert_ne!(a, completion_code(b"key one", "assignment-b"));
        assert_ne!(a, completion_code(b"key two", "assignment-a"));
        assert!(a.chars().all(|c| c == '-' || CROCKFORD.contains(&(c as u8))));
    }

    #[test]
    fn typed_codes_are_normalised() {
        let code = completion_code(b"k", "x");
        assert_eq!(normalise_code(&code.to_lowercase().replace('-', " ")), Some(code.clone()));
        assert_eq!(normalise_code("ABC"), None);
        assert_eq!(normalise_code("00000-00000-00000-0000U"), None);
        assert_eq!(normalise_code("o0000-00000-00000-0000l").as_deref(), Some("00000-00000-00000-00001"));
    }

    #[test]
    fn link_signatures_verify_and_depend_on_key_and_campaign() {
        let key = [7u8; 32];
        let sig = link_signature(&key, "abc");
        assert_eq!(sig.len(), 64);
        assert!(verify_link(&key, "abc", &sig));
        assert!(!verify_link(&key, "abd", &sig));
        assert!(!verify_link(&[8u8; 32], "abc", &sig));
        assert!(!verify_link(&key, "abc", "zz"));
        assert!(!verify_link(&key, "abc", ""));
    }
}
