//! Draws a [`SpaceTime`] as the textbook space-time diagram of the cable, to SVG and PNG
//! (`trace.svg`, `trace.png`, staged by [`Staged`]).
//!
//! Position along the segment (metres) runs across, time (µs after the window's start)
//! runs down. Each band of signal is the region `start + d/v <= t <= end + d/v`, `d` the
//! distance from its sender: a chevron whose edges have slope 1/velocity, clipped to the
//! window. Each station is a vertical grey line with its marks: deferral (a thick brown
//! segment over the wait), collision detected (a red ring), each backoff (a bracket beside
//! the line in the station's colour, labelled `#attempt: slots`), a drop (a black square).
//! A collided frame has a red edge, its jam is dark grey, and the frame's vulnerable
//! window (from its start until its signal reaches the far end of the segment: a station
//! there can still start and collide) is shaded light red between the start and the
//! leading edge. A legend beside the plot explains the marks.
//!
//! The drawing is a pure function of the data: the same run gives byte-identical files.
//! Units: x in metres, y in µs (negative down, labelled as positive), pixels for the
//! legend.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::lan::instruments::spacetime::{BandKind, Mark, SpaceTime};
use crate::report::atomic::Staged;
use crate::report::plot::{colour, register_fonts, FONT};
use crate::report::ReportError;

/// Pixel size of the diagram: taller than wide, as time runs down.
pub const TRACE_SIZE: (u32, u32) = (1200, 1400);
/// Width of the legend column on the right, pixels.
const LEGEND_PX: u32 = 330;
/// The grey of the station lines.
pub const STATION_LINE: RGBColor = RGBColor(140, 140, 140);
/// The red of collision marks and collided frames' edges.
pub const COLLISION_RED: RGBColor = RGBColor(220, 0, 0);
/// The jam's fill.
pub const JAM_FILL: RGBColor = RGBColor(60, 60, 60);
/// Deferral marks.
pub const DEFER_BROWN: RGBColor = RGBColor(150, 80, 30);

/// Station `i`'s colour: the palette without its vermillion and black (taken by the
/// collision and jam marks).
pub fn station_colour(i: usize) -> RGBColor {
    const ORDER: [usize; 5] = [0, 2, 3, 5, 4];
    colour(ORDER.get(i).copied().unwrap_or(i + 2))
}

/// A tick label: up to 3 decimals, trailing zeros dropped.
fn tick(v: f64) -> String {
    let s = format!("{:.3}", v + 0.0);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// Clips a polygon (points `(x, t)`) to `t0 <= t <= t1` (Sutherland-Hodgman, two edges).
fn clip(poly: &[(f64, f64)], t0: f64, t1: f64) -> Vec<(f64, f64)> {
    let cut = |pts: &[(f64, f64)], keep: &dyn Fn(f64) -> bool, at: f64| {
        let mut out = Vec::new();
        for i in 0..pts.len() {
            let (p, q) = (pts[i], pts[(i + 1) % pts.len()]);
            if keep(p.1) {
                out.push(p);
            }
            if keep(p.1) != keep(q.1) {
                let f = (at - p.1) / (q.1 - p.1);
                out.push((p.0 + f * (q.0 - p.0), at));
            }
        }
        out
    };
    let a = cut(poly, &|t| t >= t0, t0);
    if a.is_empty() {
        return a;
    }
    cut(&a, &|t| t <= t1, t1)
}

/// Geometry of one diagram: ns relative to the window's start, metres.
struct Geo<'a> {
    st: &'a SpaceTime,
    from_ns: f64,
    span_ns: f64,
    lo: f64,
    hi: f64,
}

impl Geo<'_> {
    fn rel(&self, t: crate::time::SimTime) -> f64 {
        t.as_nanos() as f64 - self.from_ns
    }

    /// The chart's coordinate of `(metres, ns after from)`.
    fn at(&self, x: f64, rel_ns: f64) -> (f64, f64) {
        (x, -rel_ns / 1000.0)
    }

    /// The region covered by a signal sent from `x` during `[a, b]` (ns after from).
    fn chevron(&self, x: f64, a: f64, b: f64) -> Vec<(f64, f64)> {
        let k = self.st.ns_per_m;
        let (dl, dr) = ((x - self.lo) * k, (self.hi - x) * k);
        vec![
            (self.lo, a + dl),
            (x, a),
            (self.hi, a + dr),
            (self.hi, b + dr),
            (x, b),
            (self.lo, b + dl),
        ]
    }

    fn clipped(&self, poly: &[(f64, f64)]) -> Vec<(f64, f64)> {
        clip(poly, 0.0, self.span_ns)
            .into_iter()
            .map(|(x, t)| self.at(x, t))
            .collect()
    }

    fn x(&self, s: usize) -> f64 {
        self.st.positions_m[s]
    }

    /// The bracket side of station `s`: towards the middle of the segment.
    fn side(&self, s: usize) -> f64 {
        if self.x(s) > (self.lo + self.hi) / 2.0 {
            -1.0
        } else {
            1.0
        }
    }
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    st: &SpaceTime,
    title: &str,
) -> Result<(), String> {
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    root.fill(&WHITE).map_err(e)?;
    let body = root.titled(title, (FONT, 24)).map_err(e)?;
    let (w, _) = body.dim_in_pixel();
    let (plot, legend) = body.split_horizontally(w - LEGEND_PX);
    let (lo, hi) = st.extent_m();
    let hi = if hi > lo { hi } else { lo + 1.0 };
    let g = Geo {
        st,
        from_ns: st.window.from().as_nanos() as f64,
        span_ns: st.window.len().as_nanos() as f64,
        lo,
        hi,
    };
    let pad = (hi - lo) * 0.08;
    let span_us = g.span_ns / 1000.0;
    let mut ctx = ChartBuilder::on(&plot)
        .margin(15)
        .top_x_label_area_size(55)
        .y_label_area_size(85)
        .build_cartesian_2d(lo - pad..hi + pad, -span_us..0.0)
        .map_err(e)?;
    ctx.configure_mesh()
        .x_desc("position along the segment (m)")
        .y_desc(format!(
            "time after {} (µs), running down",
            crate::report::units::Unit::Seconds.show(st.window.from().as_secs_f64())
        ))
        .axis_desc_style((FONT, 18))
        .label_style((FONT, 15))
        .x_label_formatter(&|x| tick(*x))
        .y_label_formatter(&|y| tick(-*y))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(e)?;

    // the vulnerable windows of collided frames, under everything else
    let shade = COLLISION_RED.mix(0.12).filled();
    for b in st.bands.iter().filter(|b| b.kind == BandKind::Collided) {
        let (x, a) = (g.x(b.station), g.rel(b.start));
        let k = st.ns_per_m;
        let left = [(lo, a), (x, a), (lo, a + (x - lo) * k)];
        let right = [(x, a), (hi, a), (hi, a + (hi - x) * k)];
        for tri in [&left[..], &right[..]] {
            let p = g.clipped(tri);
            if p.len() >= 3 {
                ctx.draw_series(std::iter::once(Polygon::new(p, shade)))
                    .map_err(e)?;
            }
        }
    }
    // the bands of signal
    for b in &st.bands {
        let c = station_colour(b.station);
        let (fill, edge) = match b.kind {
            BandKind::Frame => (c.mix(0.35).filled(), c.stroke_width(1)),
            BandKind::Collided => (c.mix(0.2).filled(), COLLISION_RED.stroke_width(2)),
            BandKind::Jam => (JAM_FILL.mix(0.75).filled(), JAM_FILL.stroke_width(1)),
        };
        let p = g.clipped(&g.chevron(g.x(b.station), g.rel(b.start), g.rel(b.end)));
        if p.len() < 3 {
            continue;
        }
        let mut ring = p.clone();
        ring.push(p[0]);
        ctx.draw_series(std::iter::once(Polygon::new(p, fill)))
            .map_err(e)?;
        ctx.draw_series(std::iter::once(PathElement::new(ring, edge)))
            .map_err(e)?;
    }
    // the stations: a line each, names at the top (stations at one place share a label)
    for s in 0..st.positions_m.len() {
        let x = g.x(s);
        let line = vec![g.at(x, 0.0), g.at(x, g.span_ns)];
        ctx.draw_series(std::iter::once(PathElement::new(
            line,
            STATION_LINE.stroke_width(2),
        )))
        .map_err(e)?;
    }
    let mut places: Vec<(f64, Vec<usize>)> = Vec::new();
    for (s, &x) in st.positions_m.iter().enumerate() {
        match places.iter_mut().find(|(px, _)| *px == x) {
            Some((_, v)) => v.push(s),
            None => places.push((x, vec![s])),
        }
    }
    for (x, ids) in &places {
        let names: Vec<String> = ids.iter().map(|i| i.to_string()).collect();
        let name = format!("station {}", names.join(", "));
        let style = (FONT, 15)
            .into_font()
            .color(&BLACK)
            .pos(Pos::new(HPos::Center, VPos::Top));
        ctx.draw_series(std::iter::once(Text::new(
            name,
            g.at(*x, g.span_ns * 0.004),
            style,
        )))
        .map_err(e)?;
    }
    // the marks
    let dx = (hi - lo) * 0.025;
    for m in &st.marks {
        match *m {
            Mark::Defer { station, at, until } => {
                let x = g.x(station);
                let seg = [(x, g.rel(at)), (x, g.rel(until))];
                let (a, b) = (seg[0].1.max(0.0), seg[1].1.min(g.span_ns));
                if a < b {
                    let line = vec![g.at(x, a), g.at(x, b)];
                    ctx.draw_series(std::iter::once(PathElement::new(
                        line,
                        DEFER_BROWN.stroke_width(6),
                    )))
                    .map_err(e)?;
                }
            }
            Mark::Collision { station, at } => {
                let p = g.at(g.x(station), g.rel(at));
                ctx.draw_series(std::iter::once(Circle::new(p, 7, COLLISION_RED.stroke_width(3))))
                    .map_err(e)?;
            }
            Mark::Backoff {
                station,
                at,
                until,
                attempt,
                slots,
            } => {
                let (x, side) = (g.x(station), g.side(station));
                let (a, b) = (g.rel(at).max(0.0), g.rel(until).min(g.span_ns));
                let xb = x + side * dx;
                let c = station_colour(station);
                let bracket = vec![g.at(x, a), g.at(xb, a), g.at(xb, b), g.at(x, b)];
                ctx.draw_series(std::iter::once(PathElement::new(bracket, c.stroke_width(2))))
                    .map_err(e)?;
                let h = if side > 0.0 { HPos::Left } else { HPos::Right };
                let style = (FONT, 14).into_font().color(&c).pos(Pos::new(h, VPos::Center));
                let label = format!("#{attempt}: {slots} slot{}", if slots == 1 { "" } else { "s" });
                let y = (a + b) / 2.0;
                ctx.draw_series(std::iter::once(Text::new(
                    label,
                    g.at(xb + side * dx * 0.3, y),
                    style,
                )))
                .map_err(e)?;
            }
            Mark::Drop { station, at, .. } => {
                let (px, py) = g.at(g.x(station), g.rel(at));
                let (hx, hy) = ((hi - lo) * 0.006, span_us * 0.004);
                let sq = Rectangle::new([(px - hx, py - hy), (px + hx, py + hy)], BLACK.filled());
                ctx.draw_series(std::iter::once(sq)).map_err(e)?;
            }
        }
    }
    draw_legend(&legend, st).map_err(e)?;
    root.present().map_err(e)
}

/// One legend entry's sample.
enum Sample {
    Fill(RGBColor, f64, RGBColor),
    Line(RGBColor, u32),
    Ring,
    Bracket,
    Square,
}

fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    st: &SpaceTime,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let mut entries: Vec<(Sample, String)> = Vec::new();
    let mut senders: Vec<usize> = st.bands.iter().map(|b| b.station).collect();
    senders.sort_unstable();
    senders.dedup();
    for s in senders {
        let c = station_colour(s);
        entries.push((Sample::Fill(c, 0.35, c), format!("frame sent by station {s}")));
    }
    let tau_ns = {
        let (lo, hi) = st.extent_m();
        (hi - lo) * st.ns_per_m
    };
    entries.extend([
        (
            Sample::Fill(STATION_LINE, 0.2, COLLISION_RED),
            "frame that collided (red edge)".to_string(),
        ),
        (Sample::Fill(JAM_FILL, 0.75, JAM_FILL), "jam (32 bits)".into()),
        (
            Sample::Fill(COLLISION_RED, 0.12, WHITE),
            format!("vulnerable window of a collided\nframe: end to end {tau_ns:.0} ns"),
        ),
        (Sample::Line(STATION_LINE, 2), "station".into()),
        (Sample::Line(DEFER_BROWN, 6), "deferring: carrier sensed".into()),
        (Sample::Ring, "collision detected".into()),
        (
            Sample::Bracket,
            "backoff #attempt: slots drawn\n(slot = 512 bit times)".into(),
        ),
    ]);
    if st.marks.iter().any(|m| matches!(m, Mark::Drop { .. })) {
        entries.push((Sample::Square, "frame dropped (16 attempts)".into()));
    }
    let font = (FONT, 15).into_font().color(&BLACK);
    let mut y = 70;
    for (sample, text) in &entries {
        let (x0, x1) = (10, 44);
        match *sample {
            Sample::Fill(c, alpha, edge) => {
                area.draw(&Rectangle::new([(x0, y - 8), (x1, y + 8)], c.mix(alpha).filled()))?;
                area.draw(&Rectangle::new([(x0, y - 8), (x1, y + 8)], edge.stroke_width(2)))?;
            }
            Sample::Line(c, w) => area.draw(&PathElement::new(
                vec![(27, y - 10), (27, y + 10)],
                c.stroke_width(w),
            ))?,
            Sample::Ring => area.draw(&Circle::new((27, y), 7, COLLISION_RED.stroke_width(3)))?,
            Sample::Bracket => area.draw(&PathElement::new(
                vec![(20, y - 10), (32, y - 10), (32, y + 10), (20, y + 10)],
                BLACK.stroke_width(2),
            ))?,
            Sample::Square => area.draw(&Rectangle::new([(22, y - 5), (32, y + 5)], BLACK.filled()))?,
        }
        for (i, line) in text.lines().enumerate() {
            let pos = Pos::new(HPos::Left, VPos::Center);
            area.draw(&Text::new(
                line.to_string(),
                (54, y + 18 * i as i32),
                font.clone().pos(pos),
            ))?;
        }
        y += 22 * text.lines().count() as i32 + 14;
    }
    let note = format!(
        "signal speed: {:.1} m/µs\n({:.0} ns per 100 m)",
        1000.0 / st.ns_per_m,
        100.0 * st.ns_per_m
    );
    for (i, line) in note.lines().enumerate() {
        area.draw(&Text::new(
            line.to_string(),
            (10, y + 10 + 18 * i as i32),
            font.clone(),
        ))?;
    }
    Ok(())
}

fn plot_err(what: &str) -> impl Fn(String) -> ReportError + '_ {
    move |message| ReportError::Plot {
        what: what.to_string(),
        message,
    }
}

/// Draws `st` to `trace.svg` and `trace.png`, staged in `out`, with `title` on top.
pub fn write_trace(st: &SpaceTime, title: &str, out: &mut Staged) -> Result<(), ReportError> {
    register_fonts();
    let svg = out.path_for("trace.svg")?;
    {
        let root = SVGBackend::new(&svg, TRACE_SIZE).into_drawing_area();
        draw(&root, st, title).map_err(plot_err("trace.svg"))?;
    }
    let png = out.path_for("trace.png")?;
    {
        let root = BitMapBackend::new(&png, TRACE_SIZE).into_drawing_area();
        draw(&root, st, title).map_err(plot_err("trace.png"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_clip_cuts_a_band_to_the_window() {
        let square = [(0.0, -5.0), (10.0, -5.0), (10.0, 5.0), (0.0, 5.0)];
        let c = clip(&square, 0.0, 2.0);
        assert!(c.iter().all(|p| (0.0..=2.0).contains(&p.1)), "{c:?}");
        assert_eq!(c.len(), 4);
        assert!(clip(&square, 10.0, 20.0).is_empty());
    }

    #[test]
    fn test_tick_labels() {
        assert_eq!(tick(-0.0), "0");
        assert_eq!(tick(12.5), "12.5");
        assert_eq!(tick(100.0), "100");
    }
}
