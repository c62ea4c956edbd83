//! Numbers as the files print them: Rust's `Display` at a fraction of its cost, JSON, and R's
//! `print` with a number of significant digits.

/// `v` appended to `out` exactly as `write!(out, "{v}")` writes it (Rust's `Display`: the
/// shortest digits that read back as `v`, never in exponent form; `-0`, `NaN`, `inf`), at a
/// fraction of its cost: whole numbers through `itoa`, others from `zmij`'s shortest digits laid
/// out again. The judgment files write up to four numbers a line, a million lines.
pub fn write_display_f64(out: &mut String, v: f64) {
    if !v.is_finite() {
        use std::fmt::Write as _;
        let _ = write!(out, "{v}");
        return;
    }
    // Whole numbers below 2^53 print as their integer ("69", not "69.0"); -0.0 keeps its sign.
    if v == v.trunc() && v.abs() < 9_007_199_254_740_992.0 {
        if v == 0.0 && v.is_sign_negative() {
            out.push('-');
        }
        out.push_str(itoa::Buffer::new().format(v as i64));
        return;
    }
    // Two shortest forms equally near `v` are broken differently (`Display` rounds half up,
    // zmij to even), and a shorter form on the edge of `v`'s interval is taken or not. Either
    // needs `v`'s exact decimal expansion to have at most 18 digits: such numbers (and larger
    // whole ones) go through `Display`.
    if v.abs() >= 9_007_199_254_740_992.0 || short_exact_expansion(v) {
        use std::fmt::Write as _;
        let _ = write!(out, "{v}");
        return;
    }
    let mut buffer = zmij::Buffer::new();
    let printed = buffer.format_finite(v);
    let (negative, printed) = match printed.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, printed),
    };
    let (mantissa, exponent) = match printed.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.trim_start_matches('+').parse::<i32>().unwrap_or(0)),
        None => (printed, 0),
    };
    // The significant digits (at most 17) and where the decimal point falls among them.
    let mut digits = [0u8; 40];
    let (mut n, mut point) = (0usize, None);
    for b in mantissa.bytes() {
        match b {
            b'.' => point = Some(n),
            b'0'..=b'9' if n < digits.len() => {
                digits[n] = b;
                n += 1;
            }
            _ => {}
        }
    }
    let mut point = point.unwrap_or(n) as i32 + exponent;
    let lead = digits[..n].iter().take_while(|&&d| d == b'0').count();
    point -= lead as i32;
    let mut significant = &digits[lead..n];
    while let [rest @ .., b'0'] = significant {
        significant = rest;
    }
    if negative {
        out.push('-');
    }
    // ASCII digits.
    fn text(d: &[u8]) -> &str {
        std::str::from_utf8(d).unwrap_or_default()
    }
    if significant.is_empty() {
        out.push('0');
    } else if point <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', point.unsigned_abs() as usize));
        out.push_str(text(significant));
    } else if point as usize >= significant.len() {
        out.push_str(text(significant));
        out.extend(std::iter::repeat_n('0', point as usize - significant.len()));
    } else {
        let (whole, fraction) = significant.split_at(point as usize);
        out.push_str(text(whole));
        out.push('.');
        out.push_str(text(fraction));
    }
}

/// Whether finite `v` (not a whole number) is `m / 2^k` with `m · 5^k` (its exact decimal
/// digits) below 10^18.
pub(super) fn short_exact_expansion(v: f64) -> bool {
    let bits = v.to_bits();
    let (biased, fraction) = (((bits >> 52) & 0x7ff) as i32, bits & ((1u64 << 52) - 1));
    let (mut m, mut e) = if biased == 0 { (fraction, -1074) } else { (fraction | (1u64 << 52), biased - 1075) };
    if m == 0 {
        return true;
    }
    let zeros = m.trailing_zeros();
    m >>= zeros;
    e += zeros as i32;
    if e >= 0 {
        return true;
    }
    let k = e.unsigned_abs();
    k <= 26 && u128::from(m) * 5u128.pow(k) < 10u128.pow(18)
}

/// `v` appended to `out` as serde_json writes a number (`1e-5`, `1.0`; `null` when not finite):
/// the JSON Lines file's value, written into the CSV without making a JSON value per row.
pub fn write_json_f64(out: &mut String, v: f64) {
    if v.is_finite() {
        out.push_str(zmij::Buffer::new().format_finite(v));
    } else {
        out.push_str("null");
    }
}

/// A number as R's `print`/`write.table` shows it with `digits` significant digits: the
/// shortest representation up to that precision, fixed notation unless scientific is narrower
/// (R's rule with `scipen = 0`); `NaN`, `Inf`, `-Inf`; no negative zero.
pub fn r_number(x: f64, digits: usize) -> String {
    let mut out = String::with_capacity(24);
    write_r_number(&mut out, x, digits);
    out
}

/// [`r_number`] appended to `out`: one exact formatting of the number (its significant digits
/// and exponent), the fixed or scientific form built from those digits, no allocation for up to
/// 40 significant digits (the per-judgment files write two numbers a line, a million lines).
pub fn write_r_number(out: &mut String, x: f64, digits: usize) {
    if x.is_nan() {
        return out.push_str("NaN");
    }
    if x.is_infinite() {
        return out.push_str(if x > 0.0 { "Inf" } else { "-Inf" });
    }
    if x == 0.0 {
        return out.push('0');
    }
    // `d.ddde±x` with `digits` significant digits, exactly rounded.
    let mut buf = SmallText::default();
    let _ = std::fmt::Write::write_fmt(&mut buf, format_args!("{:.*e}", digits.saturating_sub(1), x.abs()));
    let sci = buf.as_str();
    let (mantissa, exp) = sci.split_once('e').expect("exponent");
    let exp: i32 = exp.parse().expect("integer exponent");
    let neg = x < 0.0;
    // The significant digits without the point, trailing zeros dropped ("0" cannot occur: x ≠ 0).
    let mut sig = [0u8; 48];
    let mut d = 0usize;
    for b in mantissa.bytes().filter(u8::is_ascii_digit) {
        if d < sig.len() {
            sig[d] = b;
            d += 1;
        }
    }
    while d > 1 && sig[d - 1] == b'0' {
        d -= 1;
    }
    let sig = std::str::from_utf8(&sig[..d]).expect("ASCII digits");
    let d = d as i32;
    let sci_width = neg as i32 + d + (d > 1) as i32 + 4;
    let decimals = (d - exp - 1).max(0);
    let int_digits = (exp + 1).max(1);
    let fixed_width = neg as i32 + int_digits + if decimals > 0 { 1 + decimals } else { 0 };
    if neg {
        out.push('-');
    }
    if fixed_width <= sci_width {
        // The same digits in fixed notation (rounding to `decimals` places gives these digits:
        // the number is within half a unit of the 15th digit of them).
        if exp < 0 {
            out.push_str("0.");
            (0..(-exp - 1)).for_each(|_| out.push('0'));
            out.push_str(sig);
        } else {
            let int = (exp + 1) as usize;
            if sig.len() < int {
                // A whole number longer than its significant digits: R prints its own digits
                // (`sprintf("%.0f")`: 1234567890123456 at 15 digits), not zeros.
                let _ = std::fmt::Write::write_fmt(out, format_args!("{:.0}", x.abs()));
            } else if sig.len() == int {
                out.push_str(sig);
            } else {
                out.push_str(&sig[..int]);
                out.push('.');
                out.push_str(&sig[int..]);
            }
        }
    } else {
        out.push_str(&sig[..1]);
        if d > 1 {
            out.push('.');
            out.push_str(&sig[1..]);
        }
        let _ = std::fmt::Write::write_fmt(out, format_args!("e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs()));
    }
}

/// A short text on the stack (a number being formatted); what does not fit is dropped, which
/// [`write_r_number`]'s 40 digits never reach.
pub(super) struct SmallText {
    bytes: [u8; 64],
    len: usize,
}

impl Default for SmallText {
    fn default() -> Self {
        SmallText { bytes: [0; 64], len: 0 }
    }
}

impl SmallText {
    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or_default()
    }
}

impl std::fmt::Write for SmallText {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        if end > self.bytes.len() {
            return Err(std::fmt::Error);
        }
        self.bytes[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

pub(super) fn round_to(x: f64, decimals: i32) -> f64 {
    let f = 10f64.powi(decimals);
    (x * f).round() / f
}
