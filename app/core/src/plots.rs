//! SVG plots as strings: pure functions of plain numbers, so pages and exports share them.
//! Black on white with patterns of grey only, text in the SVG, explicit width/height and a
//! viewBox, so they print as drawn.

use std::fmt::Write;

/// Escapes text for XML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// One point of the z plot: a system's mean z and its interval.
#[derive(Clone, Debug, PartialEq)]
pub struct ZPoint<'a> {
    pub name: &'a str,
    pub z: f64,
    pub ci: Option<(f64, f64)>,
}

fn finite(v: f64) -> f64 {
    if v.is_finite() { v } else { 0.0 }
}

/// Mean z per system (one row per system, best first as given) with its confidence interval as
/// a horizontal bar; the x axis is "mean z (standard deviations of each worker's scores)".
pub fn z_plot(points: &[ZPoint], confidence: Option<f64>) -> String {
    let row = 24.0;
    let label_w = 160.0;
    let plot_w = 400.0;
    let top = 30.0;
    let bottom = 50.0;
    let width = label_w + plot_w + 20.0;
    let height = top + bottom + row * points.len().max(1) as f64;
    // Range covering every point and interval, and zero, rounded out to half units.
    let (mut lo, mut hi) = (0.0f64, 0.0f64);
    for p in points {
        let (a, b) = p.ci.unwrap_or((p.z, p.z));
        for v in [finite(p.z), finite(a), finite(b)] {
            lo = lo.min(v);
            hi = hi.max(v);
        }
    }
    lo = (lo * 2.0).floor() / 2.0;
    hi = (hi * 2.0).ceil() / 2.0;
    if hi - lo < 1.0 {
        lo -= 0.5;
        hi += 0.5;
    }
    let x = |v: f64| label_w + (finite(v) - lo) / (hi - lo) * plot_w;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="plot z-plot" role="img" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = write!(s, "<title>Mean z per system{}</title>", match confidence {
        Some(c) => format!(" with {:.0}% bootstrap intervals", c * 100.0),
        None => String::new(),
    });
    let axis_y = top + row * points.len().max(1) as f64;
    // Ticks every half unit, zero line dashed.
    let mut t = lo;
    while t <= hi + 1e-9 {
        let tx = x(t);
        let _ = write!(s, r##"<line x1="{tx:.1}" y1="{top}" x2="{tx:.1}" y2="{axis_y}" stroke="#ccc" stroke-width="0.5"{}/>"##,
            if t.abs() < 1e-9 { r#" stroke-dasharray="4 2""# } else { "" });
        let _ = write!(s, r#"<text x="{tx:.1}" y="{:.1}" text-anchor="middle">{t:.1}</text>"#, axis_y + 15.0);
        t += 0.5;
    }
    let _ = write!(s, r##"<line class="axis" x1="{label_w}" y1="{axis_y}" x2="{:.1}" y2="{axis_y}" stroke="#000"/>"##, label_w + plot_w);
    let _ = write!(
        s,
        r#"<text class="axis-label" x="{:.1}" y="{:.1}" text-anchor="middle">mean z (standard deviations of each worker's scores)</text>"#,
        label_w + plot_w / 2.0,
        axis_y + 35.0
    );
    for (i, p) in points.iter().enumerate() {
        let cy = top + row * i as f64 + row / 2.0;
        let _ = write!(s, r#"<text class="system-label" x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#, label_w - 8.0, cy + 4.0, escape(p.name));
        if let Some((a, b)) = p.ci {
            let _ = write!(s, r##"<line class="ci" x1="{:.1}" y1="{cy:.1}" x2="{:.1}" y2="{cy:.1}" stroke="#000" stroke-width="2"/>"##, x(a), x(b));
            for v in [a, b] {
                let _ = write!(s, r##"<line x1="{0:.1}" y1="{1:.1}" x2="{0:.1}" y2="{2:.1}" stroke="#000"/>"##, x(v), cy - 5.0, cy + 5.0);
            }
        }
        let _ = write!(
            s,
            r##"<circle class="point" cx="{:.1}" cy="{cy:.1}" r="4" fill="#000"><title>{}: {:.3}</title></circle>"##,
            x(p.z),
            escape(p.name),
            if p.z.is_finite() { format!("{:.3}", p.z) } else { "not computed".into() }
        );
    }
    s.push_str("</svg>");
    s
}

/// Significance level of a one-sided p: 3 (p < 0.001), 2 (< 0.01), 1 (< 0.05) or 0.
pub fn level(p: Option<f64>) -> u8 {
    match p {
        Some(p) if p < 0.001 => 3,
        Some(p) if p < 0.01 => 2,
        Some(p) if p < 0.05 => 1,
        _ => 0,
    }
}

/// Pairwise heatmap: cell (row i, column j) is shaded by the level at which system i is
/// significantly better than system j (Mann–Whitney, one-sided), with the symbol in the cell so
/// it reads without colour.
pub fn heatmap(names: &[&str], p_values: &[Vec<Option<f64>>]) -> String {
    heatmap_titled(names, p_values, "Row system significantly better than column system (one-sided Mann–Whitney)", "Row better than column")
}

/// [`heatmap`] with its own title and legend lead (e.g. metrics and the Williams test).
pub fn heatmap_titled(names: &[&str], p_values: &[Vec<Option<f64>>], title: &str, legend: &str) -> String {
    let cell = 28.0;
    let label_w = 160.0;
    let label_h = 120.0;
    let n = names.len();
    // The column labels lean right (60°): room for the longest past the last column; the
    // legend's lines (about 7 px a character at 12 px) must fit too.
    let longest = names.iter().map(|n| n.chars().count()).max().unwrap_or(0) as f64;
    let legend_w = heatmap_legend(legend).iter().map(|l| l.chars().count()).max().unwrap_or(0) as f64 * 7.0 + 10.0;
    let width = (label_w + cell * n as f64 + (longest * 7.0 * 0.5).max(20.0)).max(legend_w);
    let height = label_h + cell * n as f64 + 74.0;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="plot heatmap" role="img" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = write!(s, "<title>{}</title>", escape(title));
    let order: Vec<usize> = (0..n).collect();
    matrix_labels(&mut s, names, &order, label_w, label_h, cell);
    let fills = ["#ffffff", "#c8c8c8", "#8c8c8c", "#404040"];
    let marks = ["", "*", "**", "***"];
    matrix_cells(&mut s, &order, label_w, label_h, cell, |i, j| {
        let p = p_values.get(i).and_then(|r| r.get(j)).copied().flatten();
        let l = if i == j { 0 } else { level(p) } as usize;
        MatrixCell {
            class: format!("cell level-{l}"),
            fill: if i == j { "#eeeeee".into() } else { fills[l].into() },
            title: match p {
                Some(p) => format!("{} vs {}: p = {p:.4}", names[i], names[j]),
                None => format!("{} vs {}", names[i], names[j]),
            },
            text: (l > 0).then(|| (marks[l].to_string(), if l >= 2 { "#fff" } else { "#000" })),
        }
    });
    let ly = label_h + cell * n as f64 + 20.0;
    for (k, line) in heatmap_legend(legend).iter().enumerate() {
        let _ = write!(s, r#"<text class="legend" x="0" y="{:.1}">{}</text>"#, ly + 17.0 * k as f64, escape(line));
    }
    s.push_str("</svg>");
    s
}

/// The heatmap's legend, a line each (a single line was cut off on a heatmap of few systems):
/// the lead (`Row better than column`), then the marks.
pub fn heatmap_legend(lead: &str) -> [String; 3] {
    [format!("{lead}:"), "* p < 0.05   ** p < 0.01".into(), "*** p < 0.001".into()]
}

/// A time line's point marker (`circle`, `square`, `triangle` or `diamond`) centred at
/// (`cx`, `cy`), with a tooltip when `title` is given.
fn marker(shape: &str, cx: f64, cy: f64, fill: &str, title: Option<&str>) -> String {
    let t = title.map(|t| format!("<title>{}</title>", escape(t))).unwrap_or_default();
    match shape {
        "square" => format!(r##"<rect class="point" x="{:.1}" y="{:.1}" width="8" height="8" fill="{fill}" stroke="#000">{t}</rect>"##, cx - 4.0, cy - 4.0),
        "triangle" => format!(
            r##"<polygon class="point" points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" fill="{fill}" stroke="#000">{t}</polygon>"##,
            cx,
            cy - 5.0,
            cx - 5.0,
            cy + 4.0,
            cx + 5.0,
            cy + 4.0
        ),
        "diamond" => format!(
            r##"<polygon class="point" points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" fill="{fill}" stroke="#000">{t}</polygon>"##,
            cx,
            cy - 5.0,
            cx + 5.0,
            cy,
            cx,
            cy + 5.0,
            cx - 5.0,
            cy
        ),
        _ => format!(r##"<circle class="point" cx="{cx:.1}" cy="{cy:.1}" r="4" fill="{fill}" stroke="#000">{t}</circle>"##),
    }
}

/// A worker's (original, bad reference) score pairs on 0–100 axes with the diagonal: attentive
/// workers' points lie below it (the bad copy scored lower).
pub fn scatter(pairs: &[(f64, f64)]) -> String {
    let size = 120.0;
    let pad = 24.0;
    let full = size + pad + 6.0;
    let x = |v: f64| pad + finite(v).clamp(0.0, 100.0) / 100.0 * size;
    let y = |v: f64| 6.0 + size - finite(v).clamp(0.0, 100.0) / 100.0 * size;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="plot scatter" role="img" width="{full}" height="{full}" viewBox="0 0 {full} {full}" font-family="sans-serif" font-size="9">"#
    );
    let _ = write!(s, "<title>Original (x) against its bad reference (y), {} pairs</title>", pairs.len());
    let _ = write!(s, r##"<rect x="{pad}" y="6" width="{size}" height="{size}" fill="none" stroke="#000"/>"##);
    let _ = write!(s, r##"<line class="diagonal" x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#888" stroke-dasharray="3 2"/>"##, x(0.0), y(0.0), x(100.0), y(100.0));
    let _ = write!(s, r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">original (0–100)</text>"#, pad + size / 2.0, full - 2.0);
    let _ = write!(s, r#"<text x="8" y="{:.1}" text-anchor="middle" transform="rotate(-90 8 {:.1})">bad ref</text>"#, 6.0 + size / 2.0, 6.0 + size / 2.0);
    for &(o, b) in pairs {
        let _ = write!(s, r##"<circle class="pair" cx="{:.1}" cy="{:.1}" r="2.5" fill="none" stroke="#000"/>"##, x(o), y(b));
    }
    s.push_str("</svg>");
    s
}

/// Labelled points (one per system) of `x` against `y`, axes fitted to the data with the
/// names beside the points: a metric's system scores against the humans'.
pub fn labelled_scatter(points: &[(&str, f64, f64)], x_label: &str, y_label: &str) -> String {
    let (w, h, left, bottom, top, right) = (360.0, 240.0, 60.0, 44.0, 12.0, 110.0);
    let fin: Vec<&(&str, f64, f64)> = points.iter().filter(|p| p.1.is_finite() && p.2.is_finite()).collect();
    let range = |f: &dyn Fn(&&(&str, f64, f64)) -> f64| {
        let (lo, hi) = fin.iter().map(f).fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
        if !lo.is_finite() { (0.0, 1.0) } else if hi - lo < 1e-12 { (lo - 0.5, hi + 0.5) } else { let pad = (hi - lo) * 0.08; (lo - pad, hi + pad) }
    };
    let (x0, x1) = range(&|p| p.1);
    let (y0, y1) = range(&|p| p.2);
    let x = |v: f64| left + (v - x0) / (x1 - x0) * w;
    let y = |v: f64| top + h - (v - y0) / (y1 - y0) * h;
    let (width, height) = (left + w + right, top + h + bottom);
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="plot labelled-scatter" role="img" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">"#
    );
    let _ = write!(s, "<title>{} against {}, one point per system</title>", escape(y_label), escape(x_label));
    let _ = write!(s, r##"<rect x="{left}" y="{top}" width="{w}" height="{h}" fill="none" stroke="#000"/>"##);
    for (v, anchor) in [(x0, "start"), (x1, "end")] {
        let _ = write!(s, r#"<text class="tick" x="{:.1}" y="{:.1}" text-anchor="{anchor}">{}</text>"#, x(v), top + h + 14.0, short(v));
    }
    for v in [y0, y1] {
        let _ = write!(s, r#"<text class="tick" x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#, left - 4.0, y(v) + 4.0, short(v));
    }
    let _ = write!(s, r#"<text class="axis-label" x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#, left + w / 2.0, top + h + 34.0, escape(x_label));
    let _ = write!(s, r#"<text class="axis-label" x="14" y="{0:.1}" text-anchor="middle" transform="rotate(-90 14 {0:.1})">{1}</text>"#, top + h / 2.0, escape(y_label));
    for (name, a, b) in fin {
        let _ = write!(
            s,
            r##"<circle class="point" cx="{:.1}" cy="{:.1}" r="3.5" fill="#000"><title>{}: {} against {}</title></circle>"##,
            x(*a),
            y(*b),
            escape(name),
            short(*b),
            short(*a)
        );
        let _ = write!(s, r#"<text class="point-label" x="{:.1}" y="{:.1}">{}</text>"#, x(*a) + 6.0, y(*b) + 4.0, escape(name));
    }
    s.push_str("</svg>");
    s
}

/// A number in 4 significant digits for a plot's text.
fn short(v: f64) -> String {
    if !v.is_finite() {
        return "–".into();
    }
    let digits = (3 - v.abs().max(1e-9).log10().floor() as i32).clamp(0, 6) as usize;
    format!("{v:.digits$}")
}

/// One line of a time-line plot: a system's score at some of the plot's time points.
#[derive(Clone, Debug, PartialEq)]
pub struct Series<'a> {
    pub name: &'a str,
    /// Drawn dashed (e.g. the benchmark system, whose change measures the test sets).
    pub dashed: bool,
    /// (time point index, mean, interval).
    pub points: Vec<(usize, f64, Option<(f64, f64)>)>,
}

/// Scores over time: time points left to right (labelled, e.g. years or campaigns), one line
/// per system with a marker and its interval at every time point it was judged. `y_label`
/// names the score and its unit.
pub fn timeline(times: &[String], series: &[Series], y_label: &str, confidence: Option<f64>) -> String {
    let left = 70.0;
    // Room for the legend: its longest line (about 7 px a character at 12 px).
    let longest = series.iter().map(|s| s.name.chars().count() + 12).max().unwrap_or(0);
    let right = (50.0 + 7.0 * longest as f64).max(170.0);
    let top = 30.0;
    let plot_h = 240.0;
    let bottom = 70.0;
    let step = if times.len() > 1 { (480.0 / (times.len() - 1) as f64).min(200.0) } else { 0.0 };
    let plot_w = (step * times.len().saturating_sub(1) as f64 + 120.0).max(260.0);
    // Time points centred in the plot.
    let first_x = left + (plot_w - step * times.len().saturating_sub(1) as f64) / 2.0;
    let width = left + plot_w + right;
    let height = top + plot_h + bottom;
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for sr in series {
        for &(_, m, ci) in &sr.points {
            let (a, b) = ci.unwrap_or((m, m));
            for v in [m, a, b] {
                if v.is_finite() {
                    lo = lo.min(v);
                    hi = hi.max(v);
                }
            }
        }
    }
    if !lo.is_finite() {
        (lo, hi) = (0.0, 1.0);
    }
    // A tick step of 1, 2, 5 × 10^k giving about 5 ticks.
    let span = (hi - lo).max(1e-6);
    let raw = span / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    let tick = [1.0, 2.0, 5.0, 10.0].into_iter().map(|k| k * mag).find(|t| span / t <= 6.0).unwrap_or(10.0 * mag);
    lo = (lo / tick).floor() * tick;
    hi = (hi / tick).ceil() * tick;
    if hi - lo < tick {
        hi = lo + tick;
    }
    let x = |i: usize| first_x + step * i as f64;
    let y = |v: f64| top + plot_h - (finite(v) - lo) / (hi - lo) * plot_h;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="plot timeline" role="img" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = write!(s, "<title>{} over time{}</title>", escape(y_label), match confidence {
        Some(c) => format!(" with {:.0}% bootstrap intervals", c * 100.0),
        None => String::new(),
    });
    let axis_y = top + plot_h;
    let mut t = lo;
    let digits = if tick >= 1.0 { 0 } else if tick >= 0.1 { 1 } else { 2 };
    while t <= hi + tick * 1e-6 {
        let ty = y(t);
        let _ = write!(s, r##"<line x1="{left}" y1="{ty:.1}" x2="{:.1}" y2="{ty:.1}" stroke="#ccc" stroke-width="0.5"/>"##, left + plot_w);
        let _ = write!(s, r#"<text class="tick" x="{:.1}" y="{:.1}" text-anchor="end">{t:.digits$}</text>"#, left - 6.0, ty + 4.0);
        t += tick;
    }
    let _ = write!(s, r##"<line class="axis" x1="{left}" y1="{top}" x2="{left}" y2="{axis_y}" stroke="#000"/>"##);
    let _ = write!(s, r##"<line class="axis" x1="{left}" y1="{axis_y}" x2="{:.1}" y2="{axis_y}" stroke="#000"/>"##, left + plot_w);
    let _ = write!(
        s,
        r#"<text class="axis-label" x="16" y="{0:.1}" text-anchor="middle" transform="rotate(-90 16 {0:.1})">{1}</text>"#,
        top + plot_h / 2.0,
        escape(y_label)
    );
    for (i, label) in times.iter().enumerate() {
        let _ = write!(s, r#"<text class="time-label" x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#, x(i), axis_y + 18.0, escape(label));
    }
    let _ = write!(s, r#"<text class="axis-label" x="{:.1}" y="{:.1}" text-anchor="middle">time</text>"#, left + plot_w / 2.0, axis_y + 40.0);
    let shapes = ["circle", "square", "triangle", "diamond"];
    for (k, sr) in series.iter().enumerate() {
        let mut pts = sr.points.clone();
        pts.sort_by_key(|p| p.0);
        let path: Vec<String> = pts.iter().map(|&(i, m, _)| format!("{:.1},{:.1}", x(i), y(m))).collect();
        if path.len() > 1 {
            let _ = write!(
                s,
                r##"<polyline class="series-line" points="{}" fill="none" stroke="#000" stroke-width="1.5"{}/>"##,
                path.join(" "),
                if sr.dashed { r#" stroke-dasharray="6 3""# } else { "" }
            );
        }
        let offset = (k as f64 - (series.len() as f64 - 1.0) / 2.0) * 4.0;
        for &(i, m, ci) in &pts {
            let cx = x(i) + offset;
            if let Some((a, b)) = ci {
                let _ = write!(s, r##"<line class="ci" x1="{cx:.1}" y1="{:.1}" x2="{cx:.1}" y2="{:.1}" stroke="#000" stroke-width="1.5"/>"##, y(a), y(b));
                for v in [a, b] {
                    let _ = write!(s, r##"<line x1="{0:.1}" y1="{1:.1}" x2="{2:.1}" y2="{1:.1}" stroke="#000"/>"##, cx - 4.0, y(v), cx + 4.0);
                }
            }
            let cy = y(m);
            let title = format!("{} at {}: {}", sr.name, times.get(i).map_or("", String::as_str), if m.is_finite() { format!("{m:.2}") } else { "not computed".into() });
            let fill = if sr.dashed { "#fff" } else { "#000" };
            s.push_str(&marker(shapes[k % shapes.len()], cx, cy, fill, Some(&title)));
        }
        // Legend on the right.
        let ly = top + 16.0 * k as f64 + 6.0;
        let lx = left + plot_w + 12.0;
        let _ = write!(
            s,
            r##"<line x1="{lx:.1}" y1="{ly:.1}" x2="{:.1}" y2="{ly:.1}" stroke="#000" stroke-width="1.5"{}/>"##,
            lx + 24.0,
            if sr.dashed { r#" stroke-dasharray="6 3""# } else { "" }
        );
        // The series' marker on its legend line: the lines alone look all the same.
        s.push_str(&marker(shapes[k % shapes.len()], lx + 12.0, ly, if sr.dashed { "#fff" } else { "#000" }, None).replace("class=\"point\"", "class=\"legend-marker\""));
        let _ = write!(s, r#"<text class="legend" x="{:.1}" y="{:.1}">{} ({})</text>"#, lx + 30.0, ly + 4.0, escape(sr.name), shapes[k % shapes.len()]);
    }
    if let Some(c) = confidence {
        let _ = write!(s, r#"<text x="{left}" y="{:.1}">Bars: {:.0}% bootstrap intervals (segments resampled)</text>"#, height - 8.0, c * 100.0);
    }
    s.push_str("</svg>");
    s
}

/// One system of a rank-range plot: its name, its 95% rank range (1 = best) and a point rank
/// (for example its rank by expected wins), listed best first.
#[derive(Clone, Debug, PartialEq)]
pub struct RankRange<'a> {
    pub name: &'a str,
    pub lo: usize,
    pub hi: usize,
    pub rank: usize,
}

/// Rank ranges (WMT 2012's "rank range" of expected wins under bootstrap resampling): one row
/// per system, a bar from its best to its worst rank on an axis of ranks 1..n, the point rank
/// marked; overlapping bars are systems the data cannot tell apart.
pub fn rank_range_plot(rows: &[RankRange]) -> String {
    let row = 24.0;
    let label_w = 160.0;
    let n = rows.len().max(1);
    let step = (360.0 / n as f64).clamp(18.0, 40.0);
    let plot_w = step * (n.saturating_sub(1)) as f64;
    let top = 30.0;
    let bottom = 50.0;
    let width = (label_w + plot_w + 40.0).max(420.0);
    let height = top + bottom + row * n as f64;
    let x = |r: usize| label_w + 10.0 + step * (r.max(1) - 1) as f64;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="plot rank-range" role="img" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">"#
    );
    s.push_str("<title>95% rank range of each system (expected wins, bootstrap over blocks); 1 is best</title>");
    let axis_y = top + row * n as f64;
    for r in 1..=n {
        let tx = x(r);
        let _ = write!(s, r##"<line x1="{tx:.1}" y1="{top}" x2="{tx:.1}" y2="{axis_y}" stroke="#ccc" stroke-width="0.5"/>"##);
        let _ = write!(s, r#"<text class="tick" x="{tx:.1}" y="{:.1}" text-anchor="middle">{r}</text>"#, axis_y + 15.0);
    }
    let _ = write!(s, r##"<line class="axis" x1="{:.1}" y1="{axis_y}" x2="{:.1}" y2="{axis_y}" stroke="#000"/>"##, x(1) - 6.0, x(n) + 6.0);
    let _ = write!(
        s,
        r#"<text class="axis-label" x="{:.1}" y="{:.1}" text-anchor="middle">rank (1 = best)</text>"#,
        (x(1) + x(n)) / 2.0,
        axis_y + 35.0
    );
    for (i, r) in rows.iter().enumerate() {
        let cy = top + row * i as f64 + row / 2.0;
        let (lo, hi) = (r.lo.min(r.hi).clamp(1, n), r.hi.max(r.lo).clamp(1, n));
        let _ = write!(s, r#"<text class="system-label" x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#, label_w - 8.0, cy + 4.0, escape(r.name));
        let _ = write!(
            s,
            r##"<rect class="range" x="{:.1}" y="{:.1}" width="{:.1}" height="10" fill="#c8c8c8" stroke="#000"><title>{}: ranks {lo}–{hi}</title></rect>"##,
            x(lo) - 5.0,
            cy - 5.0,
            x(hi) - x(lo) + 10.0,
            escape(r.name)
        );
        let _ = write!(s, r##"<circle class="point" cx="{:.1}" cy="{cy:.1}" r="4" fill="#000"/>"##, x(r.rank.clamp(1, n)));
    }
    s.push_str("</svg>");
    s
}

/// Significance mark of a two-sided sign test in a head-to-head table (as `head-to-head-<lp>.csv`
/// writes it; WMT 2012 used three glyphs whose printed legend is unreliable): `***` p ≤ 0.01,
/// `**` p ≤ 0.05, `*` p ≤ 0.10.
pub fn sign_mark(p: Option<f64>) -> &'static str {
    match p {
        Some(p) if p <= 0.01 => "***",
        Some(p) if p <= 0.05 => "**",
        Some(p) if p <= 0.10 => "*",
        _ => "",
    }
}

/// The head-to-head table as a heatmap (WMT 2012 Appendix A): cell (row i, column j) holds the
/// percentage of comparisons of the two that the column system won, shaded by it, with the sign
/// test's mark (two-sided) in the cell of the system that won more. `order` lists the systems best first.
pub fn head_to_head_plot(names: &[&str], share: &[Vec<Option<f64>>], sign_p: &[Vec<Option<f64>>], order: &[usize]) -> String {
    let cell = 36.0;
    let label_w = 160.0;
    let label_h = 120.0;
    let n = order.len();
    let width = (label_w + cell * n as f64 + 20.0).max(520.0);
    let height = label_h + cell * n as f64 + 60.0;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="plot head-to-head" role="img" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">"#
    );
    s.push_str("<title>Head to head: percentage of comparisons the column system won against the row system</title>");
    matrix_labels(&mut s, names, order, label_w, label_h, cell);
    matrix_cells(&mut s, order, label_w, label_h, cell, |i, j| {
        let v = if i == j { None } else { share.get(i).and_then(|r| r.get(j)).copied().flatten().filter(|v| v.is_finite()) };
        let p = sign_p.get(i).and_then(|r| r.get(j)).copied().flatten();
        // The mark goes where the column system won more, as in the Findings' tables.
        let opposite = share.get(j).and_then(|r| r.get(i)).copied().flatten().unwrap_or(0.0);
        let mark = if v.is_some_and(|v| v > opposite) { sign_mark(p) } else { "" };
        let (fill, ink) = grey(v);
        MatrixCell {
            class: "cell".into(),
            fill,
            title: match v {
                Some(v) => format!("{} beat {} in {:.0}% of their comparisons{}", names[j], names[i], v * 100.0, match p {
                    Some(p) => format!(" (sign test p = {p:.4})"),
                    None => String::new(),
                }),
                None if i == j => names[i].to_string(),
                None => format!("{} and {} were never compared", names[j], names[i]),
            },
            text: v.map(|v| (format!("{:.0}{mark}", v * 100.0), ink)),
        }
    });
    let ly = label_h + cell * n as f64 + 20.0;
    let _ = write!(s, r#"<text x="0" y="{ly:.1}">Percent of comparisons the column system won against the row system.</text>"#);
    let _ = write!(s, r#"<text x="0" y="{:.1}">Sign test, ties excluded: * p ≤ 0.10, ** p ≤ 0.05, *** p ≤ 0.01</text>"#, ly + 18.0);
    s.push_str("</svg>");
    s
}

/// Pairwise preference's win-rate heatmap: cell (row i, column j) holds the share of the
/// judgments between the two that the row system won, a tie counting half (Chatbot Arena's
/// convention), shaded from white (0%) to dark (100%); grey where the two were never compared.
/// `order` lists the systems best first. Its text alternative (`<title>`, `<desc>`) says what the
/// cells hold; each cell's `<title>` says it in words.
pub fn win_rate_heatmap(names: &[&str], win_rate: &[Vec<Option<f64>>], order: &[usize]) -> String {
    let cell = 40.0;
    let label_w = 160.0;
    let label_h = 120.0;
    let n = order.len();
    let width = (label_w + cell * n as f64 + 20.0).max(520.0);
    let height = label_h + cell * n as f64 + 40.0;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="plot win-rate" role="img" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">"#
    );
    s.push_str("<title>Win rate: share of the judgments between two systems that the row system won (a tie counts half)</title>");
    s.push_str("<desc>One row and one column per system, best first; each cell gives the row system's win rate against the column system in percent, grey where the two were never compared.</desc>");
    matrix_labels(&mut s, names, order, label_w, label_h, cell);
    matrix_cells(&mut s, order, label_w, label_h, cell, |i, j| {
        let v = if i == j { None } else { win_rate.get(i).and_then(|r| r.get(j)).copied().flatten().filter(|v| v.is_finite()) };
        let (fill, ink) = grey(v);
        let (ni, nj) = (names.get(i).copied().unwrap_or("?"), names.get(j).copied().unwrap_or("?"));
        MatrixCell {
            class: "cell".into(),
            fill,
            title: match v {
                Some(v) => format!("{ni} won {:.0}% of its judgments against {nj} (a tie counting half)", v * 100.0),
                None if i == j => ni.to_string(),
                None => format!("{ni} and {nj} were never compared"),
            },
            text: v.map(|v| (format!("{:.0}", v * 100.0), ink)),
        }
    });
    let ly = label_h + cell * n as f64 + 20.0;
    let _ = write!(s, r#"<text x="0" y="{ly:.1}">Percent of the judgments between the two that the row system won; a tie counts half.</text>"#);
    s.push_str("</svg>");
    s
}


/// One cell of a system-by-system matrix: its class and shade, what it says in words (its
/// `<title>`), and the text written in it with its ink.
struct MatrixCell {
    class: String,
    fill: String,
    title: String,
    text: Option<(String, &'static str)>,
}

/// The cells of a system-by-system matrix (the significance, head-to-head and win-rate
/// heatmaps), `order`'s systems along both axes, best first: `cell(i, j)` for row system `i`
/// and column system `j`, a square of `size` from (`label_w`, `label_h`).
fn matrix_cells(s: &mut String, order: &[usize], label_w: f64, label_h: f64, size: f64, cell: impl Fn(usize, usize) -> MatrixCell) {
    for (a, &i) in order.iter().enumerate() {
        for (b, &j) in order.iter().enumerate() {
            let (x, y) = (label_w + size * b as f64, label_h + size * a as f64);
            let MatrixCell { class, fill, title, text } = cell(i, j);
            let _ = write!(
                s,
                r##"<rect class="{class}" x="{x:.1}" y="{y:.1}" width="{size}" height="{size}" fill="{fill}" stroke="#999" stroke-width="0.5"><title>{}</title></rect>"##,
                escape(&title)
            );
            if let Some((text, ink)) = text {
                let _ = write!(s, r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" fill="{ink}">{text}</text>"#, x + size / 2.0, y + size / 2.0 + 4.0);
            }
        }
    }
}

/// A share's shade, grey from white (0%) to dark (100%), and the ink that reads on it; light
/// grey where there is none.
fn grey(v: Option<f64>) -> (String, &'static str) {
    match v {
        None => ("#eeeeee".to_string(), "#000"),
        Some(v) => {
            let g = (255.0 - v.clamp(0.0, 1.0) * 191.0).round() as u8;
            (format!("#{g:02x}{g:02x}{g:02x}"), if v > 0.6 { "#fff" } else { "#000" })
        }
    }
}

/// The row and column labels of a system-by-system matrix (the significance, head-to-head and
/// win-rate heatmaps): each system's name left of its row and, turned, above its column.
fn matrix_labels(s: &mut String, names: &[&str], order: &[usize], label_w: f64, label_h: f64, cell: f64) {
    for (k, &i) in order.iter().enumerate() {
        let name = names.get(i).copied().unwrap_or("?");
        let cy = label_h + cell * k as f64 + cell / 2.0 + 4.0;
        let _ = write!(s, r#"<text class="row-label" x="{:.1}" y="{cy:.1}" text-anchor="end">{}</text>"#, label_w - 6.0, escape(name));
        let cx = label_w + cell * k as f64 + cell / 2.0 + 4.0;
        let _ = write!(
            s,
            r#"<text class="col-label" x="{cx:.1}" y="{:.1}" transform="rotate(-60 {cx:.1} {:.1})">{}</text>"#,
            label_h - 6.0,
            label_h - 6.0,
            escape(name)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The win-rate heatmap: one cell per pair of systems in the order given, the row system's
    /// share in the cell, grey where never compared, and a text alternative.
    #[test]
    fn the_win_rate_heatmap_shows_each_pairs_share_in_words_too() {
        let names = ["A<1>", "B", "C"];
        let rate = vec![vec![None, Some(0.75), None], vec![Some(0.25), None, Some(0.5)], vec![None, Some(0.5), None]];
        let svg = win_rate_heatmap(&names, &rate, &[1, 0, 2]);
        assert!(well_formed(&svg), "{svg}");
        assert_eq!(svg.matches("<rect class=\"cell\"").count(), 9);
        assert!(svg.contains("<desc>") && svg.contains("A&lt;1&gt; won 75% of its judgments against B"), "{svg}");
        assert!(svg.contains("A&lt;1&gt; and C were never compared"), "{svg}");
        // Row B comes first (the order given): its first cell is B against itself.
        let first = svg.find("<rect class=\"cell\"").unwrap();
        assert!(svg[first..].starts_with("<rect class=\"cell\" x=\"160.0\" y=\"120.0\"") && svg[first..].split("</rect>").next().unwrap().contains("<title>B</title>"), "{svg}");
    }

    /// Tags balance (every opened element closes, in order) and no raw `<`/`&` in text.
    fn well_formed(svg: &str) -> bool {
        let mut stack: Vec<String> = Vec::new();
        let mut rest = svg;
        while let Some(i) = rest.find('<') {
            let text = &rest[..i];
            if text.contains('>') || text.contains("& ") {
                return false;
            }
            let Some(j) = rest[i..].find('>') else { return false };
            let tag = &rest[i + 1..i + j];
            rest = &rest[i + j + 1..];
            if let Some(name) = tag.strip_prefix('/') {
                if stack.pop().as_deref() != Some(name) {
                    return false;
                }
            } else if !tag.ends_with('/') {
                let name = tag.split_whitespace().next().unwrap_or("").to_string();
                stack.push(name);
            }
        }
        stack.is_empty() && rest.trim().is_empty()
    }

    #[test]
    fn z_plot_has_one_point_per_system_and_escapes_labels() {
        let pts = vec![
            ZPoint { name: "<b>&x", z: 0.4, ci: Some((0.1, 0.7)) },
            ZPoint { name: "B", z: -0.2, ci: Some((-0.5, 0.1)) },
            ZPoint { name: "C", z: -1.3, ci: None },
        ];
        let svg = z_plot(&pts, Some(0.95));
        assert!(well_formed(&svg), "{svg}");
        assert!(svg.starts_with("<svg") && svg.contains("viewBox"));
        assert_eq!(svg.matches(r#"class="point""#).count(), 3);
        assert_eq!(svg.matches(r#"class="ci""#).count(), 2);
        assert!(svg.contains("&lt;b&gt;&amp;x"));
        assert!(!svg.contains("<b>"));
        assert!(svg.contains("mean z"));
        assert!(svg.contains("95%"));
        // Order: best first, drawn top to bottom.
        let a = svg.find(">&lt;b&gt;&amp;x</text>").unwrap();
        let b = svg.find(">B</text>").unwrap();
        assert!(a < b);
        // The range covers -1.3: a -1.5 tick exists.
        assert!(svg.contains(">-1.5</text>"));
    }

    #[test]
    fn z_plot_survives_empty_and_non_finite() {
        assert!(well_formed(&z_plot(&[], None)));
        let svg = z_plot(&[ZPoint { name: "n", z: f64::NAN, ci: Some((f64::NEG_INFINITY, 1.0)) }], None);
        assert!(well_formed(&svg));
        assert!(!svg.contains("NaN") && !svg.contains("inf"));
    }

    #[test]
    fn the_heatmap_legend_fits_however_few_systems() {
        for names in [vec!["A"], vec!["A", "B", "C"], vec!["a rather long system name", "B"]] {
            let p = vec![vec![None; names.len()]; names.len()];
            let svg = heatmap(&names, &p);
            let width: f64 = svg.split("width=\"").nth(1).unwrap().split('"').next().unwrap().parse().unwrap();
            let height: f64 = svg.split("height=\"").nth(1).unwrap().split('"').next().unwrap().parse().unwrap();
            for line in heatmap_legend("Row better than column") {
                assert!(svg.contains(&escape(&line)), "{svg}");
                assert!(line.chars().count() as f64 * 7.0 <= width, "{line} in {width} px");
            }
            let last_y: f64 = svg.rsplit("class=\"legend\" x=\"0\" y=\"").next().unwrap().split('"').next().unwrap().parse().unwrap();
            assert!(last_y + 4.0 <= height, "the last legend line at {last_y} inside {height}");
            let longest = names.iter().map(|n| n.len()).max().unwrap() as f64;
            assert!(160.0 + 28.0 * names.len() as f64 + longest * 7.0 * 0.5 <= width + 0.01, "the leaning column labels fit");
        }
    }

    #[test]
    fn labelled_scatter_places_every_system() {
        let svg = labelled_scatter(&[("A&B", 30.5, 0.2), ("C", 20.0, -0.4), ("D", f64::NAN, 1.0)], "BLEU", "human z");
        assert!(well_formed(&svg), "{svg}");
        assert_eq!(svg.matches("<circle").count(), 2, "the non-finite point is left out");
        assert!(svg.contains("A&amp;B") && svg.contains("human z against BLEU"));
        assert!(well_formed(&labelled_scatter(&[], "x", "y")));
        let titled = heatmap_titled(&["m1", "m2"], &[vec![None, Some(0.01)], vec![Some(0.9), None]], "Williams", "Row metric better");
        assert!(well_formed(&titled) && titled.contains("<title>Williams</title>") && titled.contains("Row metric better:"));
    }

    #[test]
    fn rank_range_plot_draws_a_bar_per_system() {
        let rows = [
            RankRange { name: "A<1>", lo: 1, hi: 2, rank: 1 },
            RankRange { name: "B", lo: 1, hi: 3, rank: 2 },
            RankRange { name: "C", lo: 3, hi: 3, rank: 3 },
        ];
        let svg = rank_range_plot(&rows);
        assert!(well_formed(&svg), "{svg}");
        assert_eq!(svg.matches(r#"class="range""#).count(), 3);
        assert!(svg.contains("B: ranks 1–3") && svg.contains("C: ranks 3–3"));
        assert!(svg.contains("A&lt;1&gt;"));
        // Degenerate: nothing, or ranges out of bounds, still draw.
        assert!(well_formed(&rank_range_plot(&[])));
        assert!(well_formed(&rank_range_plot(&[RankRange { name: "x", lo: 5, hi: 0, rank: 9 }])));
    }

    #[test]
    fn head_to_head_plot_writes_percentages_and_marks() {
        let names = ["A", "B", "C"];
        // share[i][j]: column j beat row i.
        let share = vec![
            vec![None, Some(0.30), None],
            vec![Some(0.70), None, Some(0.45)],
            vec![None, Some(0.55), None],
        ];
        let p = vec![vec![None, Some(0.004), None], vec![Some(0.004), None, Some(0.6)], vec![None, Some(0.6), None]];
        let svg = head_to_head_plot(&names, &share, &p, &[1, 0, 2]);
        assert!(well_formed(&svg), "{svg}");
        assert_eq!(svg.matches(r#"class="cell""#).count(), 9);
        assert!(svg.contains(">70***<") && svg.contains(">30<") && svg.contains(">45<") && svg.contains(">55<"));
        assert!(svg.contains("C and A were never compared"));
        assert_eq!((sign_mark(Some(0.01)), sign_mark(Some(0.05)), sign_mark(Some(0.1)), sign_mark(Some(0.11)), sign_mark(None)), ("***", "**", "*", "", ""));
    }

    #[test]
    fn heatmap_shades_by_level() {
        let names = ["A", "B", "C&D"];
        let p = vec![
            vec![None, Some(0.0004), Some(0.03)],
            vec![Some(0.9), None, Some(0.005)],
            vec![Some(0.99), Some(0.7), None],
        ];
        let svg = heatmap(&names, &p);
        assert!(well_formed(&svg), "{svg}");
        assert_eq!(svg.matches("<rect").count(), 9);
        assert_eq!(svg.matches("level-3").count(), 1);
        assert_eq!(svg.matches("level-2").count(), 1);
        assert_eq!(svg.matches("level-1").count(), 1);
        assert!(svg.contains("C&amp;D") && !svg.contains("C&D"));
        assert_eq!(level(Some(0.05)), 0);
        assert_eq!(level(Some(0.0499)), 1);
        assert_eq!(level(None), 0);
    }

    #[test]
    fn scatter_has_one_circle_per_pair_and_the_diagonal() {
        let svg = scatter(&[(90.0, 20.0), (70.0, 75.0), (150.0, -3.0)]);
        assert!(well_formed(&svg), "{svg}");
        assert_eq!(svg.matches(r#"class="pair""#).count(), 3);
        assert!(svg.contains(r#"class="diagonal""#));
        // Clamped into the frame: x ≤ pad + size.
        assert!(!svg.contains(r#"cx="204"#));
    }

    #[test]
    fn timeline_draws_every_point_interval_and_label() {
        let times = vec!["2007".to_string(), "2012 & later".to_string()];
        let series = vec![
            Series { name: "BEST", dashed: false, points: vec![(0, 53.5, Some((51.0, 56.0))), (1, 58.0, Some((56.5, 59.5)))] },
            Series { name: "bench<x>", dashed: true, points: vec![(0, 64.1, Some((62.0, 66.0))), (1, 58.2, None)] },
            Series { name: "lone", dashed: false, points: vec![(1, f64::NAN, None)] },
        ];
        let svg = timeline(&times, &series, "mean raw score (0–100)", Some(0.95));
        assert!(well_formed(&svg), "{svg}");
        assert_eq!(svg.matches(r#"class="point""#).count(), 5);
        assert_eq!(svg.matches(r#"class="ci""#).count(), 3);
        assert_eq!(svg.matches(r#"class="series-line""#).count(), 2);
        assert_eq!(svg.matches(r#"class="time-label""#).count(), 2);
        // Each series' legend line carries its marker: circle, square, triangle.
        let legend: Vec<&str> = svg
            .match_indices(r#" class="legend-marker""#)
            .map(|(i, _)| svg[..i].rsplit('<').next().unwrap_or(""))
            .collect();
        assert_eq!(legend, ["circle", "rect", "polygon"], "{svg}");
        assert!(svg.contains("2012 &amp; later") && svg.contains("bench&lt;x&gt;"));
        assert!(svg.contains("mean raw score (0–100)") && svg.contains("95%"));
        assert!(svg.contains("stroke-dasharray"));
        assert!(!svg.contains("NaN"));
        assert!(well_formed(&timeline(&[], &[], "z", None)));
    }
}

/// One system's error spans per segment, for [`error_span_plot`].
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorBar<'a> {
    pub name: &'a str,
    /// Minor and major spans per rated segment.
    pub minor: f64,
    pub major: f64,
}

/// Error spans per segment (ESA): one horizontal bar per system, major (dark red, hatched by a
/// border) then minor (amber), in the order given; the figures are written after each bar so
/// the plot reads without colour.
pub fn error_span_plot(rows: &[ErrorBar]) -> String {
    let row = 26.0;
    let label_w = 160.0;
    let plot_w = 320.0;
    let top = 30.0;
    let bottom = 46.0;
    let n = rows.len().max(1);
    let width = label_w + plot_w + 150.0;
    let height = top + bottom + row * n as f64;
    let max = rows.iter().map(|r| r.minor + r.major).fold(0.0f64, f64::max).max(0.5);
    let scale = plot_w / max;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="plot error-spans" role="img" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">"#
    );
    s.push_str("<title>Error spans per segment of each system: major, then minor</title>");
    let axis_y = top + row * n as f64;
    let x0 = label_w + 10.0;
    let _ = write!(s, r##"<line class="axis" x1="{x0}" y1="{axis_y}" x2="{:.1}" y2="{axis_y}" stroke="#000"/>"##, x0 + plot_w);
    for k in 0..=4 {
        let v = max * k as f64 / 4.0;
        let tx = x0 + v * scale;
        let _ = write!(s, r#"<text class="tick" x="{tx:.1}" y="{:.1}" text-anchor="middle">{v:.2}</text>"#, axis_y + 15.0);
    }
    let _ = write!(s, r#"<text class="axis-label" x="{:.1}" y="{:.1}" text-anchor="middle">error spans per segment</text>"#, x0 + plot_w / 2.0, axis_y + 34.0);
    for (i, r) in rows.iter().enumerate() {
        let y = top + row * i as f64 + 5.0;
        let (wm, wn) = (r.major * scale, r.minor * scale);
        let _ = write!(s, r#"<text class="system-label" x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#, label_w - 8.0, y + 12.0, escape(r.name));
        let _ = write!(
            s,
            r##"<rect class="major" x="{x0}" y="{y:.1}" width="{wm:.1}" height="16" fill="#b3261e" stroke="#000" stroke-width="0.5"><title>{}: {:.2} major per segment</title></rect>"##,
            escape(r.name),
            r.major
        );
        let _ = write!(
            s,
            r##"<rect class="minor" x="{:.1}" y="{y:.1}" width="{wn:.1}" height="16" fill="#f2c14e" stroke="#000" stroke-width="0.5"><title>{}: {:.2} minor per segment</title></rect>"##,
            x0 + wm,
            escape(r.name),
            r.minor
        );
        let _ = write!(s, r#"<text class="figures" x="{:.1}" y="{:.1}">{:.2} major, {:.2} minor</text>"#, x0 + wm + wn + 6.0, y + 12.0, r.major, r.minor);
    }
    s.push_str("</svg>");
    s
}
