//! Charts as SVG and PNG (lines, markers, grouped bars), with the DejaVu Sans font
//! compiled into the binary.
//!
//! plotters is built without font-kit, so text is laid out with ab_glyph from the font
//! registered by [`register_fonts`] (as family `sans-serif`): no system font or library is
//! needed at build or run time. DejaVu fonts carry the Bitstream Vera licence; see
//! LICENSE-DEJAVU.
//!
//! A [`Chart`] is plain data (series of points, labels); [`write_chart`] draws it once per
//! backend into files staged by [`Staged`], so plotting never reaches into a model.
//! Bars ([`Mark::Bar`]) are for charts whose x values are categories 0, 1, 2...: the bar
//! series share each category's slot side by side, in series order. A point's interval
//! (a confidence interval, or the least and greatest of several runs) is drawn as an
//! error bar.

use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::FontStyle;

use super::atomic::Staged;
use super::ReportError;

/// Font family under which the embedded font is registered.
pub const FONT: &str = "sans-serif";

/// Pixel size of the charts.
pub const SIZE: (u32, u32) = (1200, 800);

/// Registers the embedded DejaVu Sans with plotters (once per process).
pub fn register_fonts() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The bytes are a valid TrueType font compiled in; failure would be a build defect.
        plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular())
            .unwrap_or_else(|_| panic!("embedded DejaVu Sans is not a valid font"));
    });
}

/// Colour `i` of the palette (colour-blind safe Okabe-Ito, then plotters' palette).
pub fn colour(i: usize) -> RGBColor {
    const OKABE_ITO: [RGBColor; 7] = [
        RGBColor(0, 114, 178),
        RGBColor(213, 94, 0),
        RGBColor(0, 158, 115),
        RGBColor(204, 121, 167),
        RGBColor(230, 159, 0),
        RGBColor(86, 180, 233),
        RGBColor(0, 0, 0),
    ];
    if i < OKABE_ITO.len() {
        OKABE_ITO[i]
    } else {
        let c = Palette99::pick(i);
        let (r, g, b) = c.rgb();
        RGBColor(r, g, b)
    }
}

/// How a series is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A line with small dots at the points.
    Line,
    /// Markers only (measured values).
    Markers,
    /// A filled bar from 0 to y, beside the other bar series at the same x.
    Bar,
}

/// A point: x, y and an optional interval `(low, high)` around y drawn as an error bar.
pub type Point = (f64, f64, Option<(f64, f64)>);

/// Share of a category's slot the bars of its group fill together.
const BAR_GROUP_WIDTH: f64 = 0.8;

/// One series of [`Point`]s.
#[derive(Clone, Debug)]
pub struct Series {
    pub label: String,
    pub colour: usize,
    pub mark: Mark,
    pub points: Vec<Point>,
}

impl Series {
    pub fn line(label: &str, colour: usize) -> Self {
        Series {
            label: label.to_string(),
            colour,
            mark: Mark::Line,
            points: Vec::new(),
        }
    }

    pub fn bar(label: &str, colour: usize) -> Self {
        Series {
            mark: Mark::Bar,
            ..Series::line(label, colour)
        }
    }
}

/// A chart as data.
#[derive(Clone, Debug)]
pub struct Chart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    /// Names of the x positions 0, 1, 2... when the x values are not numbers.
    pub x_categories: Option<Vec<String>>,
    pub series: Vec<Series>,
    /// A labelled horizontal line (e.g. the wire's capacity).
    pub ceiling: Option<(f64, String)>,
    /// The top of the y axis; `None`: 8% above the highest value, interval or ceiling.
    pub y_top: Option<f64>,
    /// A chart of simulated (y) against measured (x): the same range on both axes, the
    /// diagonal where they agree, and lines `band` (a fraction) above and below it.
    pub diagonal: Option<f64>,
}

/// Height of one row of the legend strip below a chart, pixels.
const LEGEND_ROW_PX: u32 = 24;
/// Width of an entry's key (line, marker or box) and the gap to its label, pixels.
const LEGEND_KEY_PX: u32 = 34;
/// Gap between two entries on a row, pixels.
const LEGEND_GAP_PX: u32 = 28;
/// Legend text size, pixels; a character is about 0.6 of it wide.
const LEGEND_FONT_PX: u32 = 15;

/// How an entry of the legend is keyed.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Key {
    Line(usize),
    Marker(usize),
    Bar(usize),
    Rule,
}

impl Chart {
    /// The legend's entries: every labelled series, then the ceiling, then the diagonal
    /// and its band.
    fn legend_entries(&self) -> Vec<(String, Key)> {
        let mut v: Vec<(String, Key)> = self
            .series
            .iter()
            .filter(|s| !s.label.is_empty())
            .map(|s| {
                let key = match s.mark {
                    Mark::Line => Key::Line(s.colour),
                    Mark::Markers => Key::Marker(s.colour),
                    Mark::Bar => Key::Bar(s.colour),
                };
                (s.label.clone(), key)
            })
            .collect();
        if let Some((_, label)) = &self.ceiling {
            v.push((label.clone(), Key::Rule));
        }
        if let Some(band) = self.diagonal {
            v.push(("simulated = measured".into(), Key::Rule));
            v.push((
                format!("±{}%", super::fmt_num(band * 100.0)),
                Key::Line(usize::MAX),
            ));
        }
        v
    }

    /// The legend's entries laid out in rows that fit `width` pixels: each row a list of
    /// (x offset, entry index).
    fn legend_rows(&self, width: u32) -> Vec<Vec<(u32, usize)>> {
        let mut rows: Vec<Vec<(u32, usize)>> = Vec::new();
        let mut x = 0u32;
        for (i, (label, _)) in self.legend_entries().iter().enumerate() {
            let w = LEGEND_KEY_PX + (label.chars().count() as f64 * 0.6 * LEGEND_FONT_PX as f64) as u32;
            if rows.is_empty() || (x > 0 && x + w > width) {
                rows.push(Vec::new());
                x = 0;
            }
            rows.last_mut().expect("a row").push((x, i));
            x += w + LEGEND_GAP_PX;
        }
        rows
    }

    /// Legend rows on a canvas of `SIZE` (the number a test can check).
    pub fn legend_row_count(&self) -> usize {
        self.legend_rows(SIZE.0 - 2 * 20).len()
    }

    /// The y axis starts at zero unless every value lies in the top half of the range
    /// (a narrow spread that a zero origin would flatten); then it starts at a round value
    /// below the lowest, which the axis title states. Bars and a ceiling keep zero.
    fn y_origin(&self) -> f64 {
        if self.diagonal.is_some()
            || self.ceiling.is_some()
            || self.series.iter().any(|s| s.mark == Mark::Bar)
        {
            return 0.0;
        }
        let ys = || {
            self.series.iter().flat_map(|s| s.points.iter()).flat_map(|p| {
                let (lo, hi) = p.2.unwrap_or((p.1, p.1));
                [p.1, lo, hi]
            })
        };
        let lo = ys().filter(|y| y.is_finite()).fold(f64::INFINITY, f64::min);
        let hi = ys().filter(|y| y.is_finite()).fold(f64::NEG_INFINITY, f64::max);
        if !(lo.is_finite() && hi > 0.0) || lo < 0.5 * hi {
            return 0.0;
        }
        let step = tick_step(hi - lo);
        ((lo - 0.5 * (hi - lo)) / step).floor().max(0.0) * step
    }

    /// The y axis title, with the origin stated when it is not zero.
    fn y_title(&self) -> String {
        let (_, (from, top)) = self.ranges();
        if from > 0.0 {
            format!(
                "{} (axis from {})",
                self.y_label,
                tick_label(from, top - from, false)
            )
        } else {
            self.y_label.clone()
        }
    }

    /// Per series, the offset of its bars from the category's x and their width (zero for
    /// series that are not bars): the bar series split [`BAR_GROUP_WIDTH`] of the slot
    /// equally, in series order.
    fn bar_slots(&self) -> Vec<(f64, f64)> {
        let n = self.series.iter().filter(|s| s.mark == Mark::Bar).count();
        let width = BAR_GROUP_WIDTH / n.max(1) as f64;
        let mut k = 0;
        self.series
            .iter()
            .map(|s| {
                if s.mark != Mark::Bar {
                    return (0.0, 0.0);
                }
                k += 1;
                (-BAR_GROUP_WIDTH / 2.0 + (k - 1) as f64 * width, width)
            })
            .collect()
    }

    fn ranges(&self) -> ((f64, f64), (f64, f64)) {
        let pts = self
            .series
            .iter()
            .flat_map(|s| s.points.iter())
            .filter(|p| p.0.is_finite() && p.1.is_finite());
        let (mut x0, mut x1, mut y1) = (f64::INFINITY, f64::NEG_INFINITY, 0.0f64);
        for &(x, y, interval) in pts {
            x0 = x0.min(x);
            x1 = x1.max(x);
            y1 = y1.max(interval.map_or(y, |(_, hi)| hi.max(y)));
        }
        if let Some((c, _)) = &self.ceiling {
            y1 = y1.max(*c);
        }
        if !x0.is_finite() {
            (x0, x1) = (0.0, 1.0);
        }
        let pad = if self.x_categories.is_some() || x1 <= x0 {
            0.5
        } else {
            (x1 - x0) * 0.04
        };
        if self.diagonal.is_some() {
            // one range for both axes, from the lowest value of either to the highest
            let all = self.series.iter().flat_map(|s| s.points.iter());
            let (lo, hi) = all
                .flat_map(|p| [p.0, p.1])
                .filter(|v| v.is_finite())
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                    (a.min(v), b.max(v))
                });
            if lo.is_finite() && hi > lo {
                let m = (hi - lo) * 0.08;
                return ((lo - m, hi + m), (lo - m, hi + m));
            }
        }
        let y0 = self.y_origin();
        let y1 = match self.y_top {
            Some(top) if top > 0.0 => top,
            _ if y1 > 0.0 => y1 + (y1 - y0) * 0.08,
            _ => 1.0,
        };
        ((x0 - pad, x1 + pad), (y0, y1))
    }
}

/// The step between the ticks plotters draws on an axis spanning `span` (it aims at about
/// ten labels, each step 1, 2 or 5 times a power of ten).
fn tick_step(span: f64) -> f64 {
    if !(span.is_finite() && span > 0.0) {
        return 1.0;
    }
    let raw = span / 10.0;
    let mag = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|&s| s >= raw * 0.999)
        .unwrap_or(10.0 * mag)
}

/// A tick label with as many decimals as the axis's step needs and no more; on an axis of
/// whole numbers (`integer`), ticks between whole numbers get no label.
pub fn tick_label(v: f64, span: f64, integer: bool) -> String {
    if integer {
        let r = v.round();
        return if (v - r).abs() < 1e-9 * span.max(1.0) {
            format!("{}", r as i64)
        } else {
            String::new()
        };
    }
    let decimals = (-tick_step(span).log10().floor()).clamp(0.0, 9.0) as usize;
    let text = format!("{v:.decimals$}");
    // no "-0"
    if text.trim_start_matches('-').chars().all(|c| c == '0' || c == '.') {
        text.trim_start_matches('-').to_string()
    } else {
        text
    }
}

/// The caption's font size: 26 px, smaller for a title too long to fit the canvas's
/// width (DejaVu Sans averages about 0.6 em a character), at least 14 px.
pub fn title_size(title: &str) -> u32 {
    let room = SIZE.0 as f64 - 60.0;
    let per_px = 0.6 * title.chars().count().max(1) as f64;
    ((room / per_px).floor() as u32).clamp(14, 26)
}

fn plot_err(what: &str) -> impl Fn(String) -> ReportError + '_ {
    move |message| ReportError::Plot {
        what: what.to_string(),
        message,
    }
}

/// Draws the legend strip: each entry's key and label, in the rows of
/// [`Chart::legend_rows`].
fn draw_legend<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, chart: &Chart) -> Result<(), String> {
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    let entries = chart.legend_entries();
    let (w, _) = area.dim_in_pixel();
    for (r, row) in chart.legend_rows(w.saturating_sub(40)).iter().enumerate() {
        for &(x, i) in row {
            let (label, key) = &entries[i];
            let x = 20 + x as i32;
            let y = 12 + (r as u32 * LEGEND_ROW_PX) as i32;
            match *key {
                Key::Line(usize::MAX) => area
                    .draw(&PathElement::new(
                        vec![(x, y), (x + 24, y)],
                        BLACK.mix(0.45).stroke_width(1),
                    ))
                    .map_err(e)?,
                Key::Line(c) => area
                    .draw(&PathElement::new(
                        vec![(x, y), (x + 24, y)],
                        colour(c).stroke_width(3),
                    ))
                    .map_err(e)?,
                Key::Marker(c) => area
                    .draw(&Circle::new((x + 12, y), 6, colour(c).stroke_width(2)))
                    .map_err(e)?,
                Key::Bar(c) => area
                    .draw(&Rectangle::new([(x, y - 7), (x + 24, y + 7)], colour(c).filled()))
                    .map_err(e)?,
                Key::Rule => area
                    .draw(&PathElement::new(
                        vec![(x, y), (x + 24, y)],
                        BLACK.mix(0.6).stroke_width(2),
                    ))
                    .map_err(e)?,
            }
            area.draw(&Text::new(
                label.clone(),
                (x + LEGEND_KEY_PX as i32, y),
                (FONT, LEGEND_FONT_PX)
                    .into_font()
                    .color(&BLACK)
                    .pos(Pos::new(HPos::Left, VPos::Center)),
            ))
            .map_err(e)?;
        }
    }
    Ok(())
}

/// Draws `chart` on `root` and writes it out; `mark` is a line in red above the chart (a
/// what-if's overrides).
fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &Chart,
    mark: Option<&str>,
) -> Result<(), String> {
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    match mark {
        Some(line) => {
            let (_, h) = root.dim_in_pixel();
            let (top, rest) = root.split_vertically(MARK_PX.min(h / 4));
            let size = title_size(line).min(18);
            top.draw(&Text::new(
                line.to_string(),
                (20, (MARK_PX / 2) as i32),
                (FONT, size)
                    .into_font()
                    .color(&RGBColor(180, 30, 30))
                    .pos(Pos::new(HPos::Left, VPos::Center)),
            ))
            .map_err(|e| e.to_string())?;
            draw_into(&rest, chart)?;
        }
        None => draw_into(root, chart)?,
    }
    root.present().map_err(|e| e.to_string())
}

/// Height of the strip above a marked chart, pixels.
const MARK_PX: u32 = 30;

/// Draws `chart` on `root` (a whole canvas or one panel of it), without writing it out.
fn draw_into<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, chart: &Chart) -> Result<(), String> {
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    root.fill(&WHITE).map_err(e)?;
    // the legend goes in a strip below the plot, never over the data
    let (w, h) = root.dim_in_pixel();
    let rows = chart.legend_rows(w.saturating_sub(40)).len() as u32;
    let strip = if rows == 0 { 0 } else { rows * LEGEND_ROW_PX + 8 };
    let (upper, lower) = root.split_vertically(h.saturating_sub(strip).max(h / 2));
    draw_legend(&lower, chart)?;
    let ((x0, x1), (y0, y1)) = chart.ranges();
    let mut ctx = ChartBuilder::on(&upper)
        .caption(&chart.title, (FONT, title_size(&chart.title)))
        .margin(20)
        .x_label_area_size(60)
        .y_label_area_size(90)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(e)?;
    let cats = chart.x_categories.clone();
    let x_integer = chart
        .series
        .iter()
        .flat_map(|s| s.points.iter())
        .all(|p| p.0.fract() == 0.0)
        && x1 - x0 <= 40.0;
    let x_fmt = move |x: &f64| match &cats {
        Some(c) => {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < c.len() {
                c[i as usize].clone()
            } else {
                String::new()
            }
        }
        None => tick_label(*x, x1 - x0, x_integer),
    };
    let y_fmt = move |y: &f64| tick_label(*y, y1 - y0, false);
    let mut mesh = ctx.configure_mesh();
    let y_title = chart.y_title();
    mesh.x_desc(&chart.x_label)
        .y_desc(&y_title)
        .axis_desc_style((FONT, 20))
        .label_style((FONT, 16))
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt);
    if let Some(c) = &chart.x_categories {
        mesh.x_labels(c.len().max(2) * 8);
    }
    if chart.series.iter().any(|s| s.mark == Mark::Bar) {
        // bars stand on categories: vertical grid lines would only cut through them
        mesh.disable_x_mesh();
    }
    mesh.draw().map_err(e)?;

    if let Some((y, label)) = &chart.ceiling {
        let style = ShapeStyle::from(&BLACK.mix(0.6)).stroke_width(2);
        ctx.draw_series(std::iter::once(PathElement::new(vec![(x0, *y), (x1, *y)], style)))
            .map_err(e)?
            .label(label.as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
        let pos = (x0 + (x1 - x0) * 0.02, *y);
        ctx.draw_series(std::iter::once(Text::new(
            label.clone(),
            pos,
            (FONT, 18)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Left, VPos::Bottom)),
        )))
        .map_err(e)?;
    }

    let bars = chart.bar_slots();
    for (i, s) in chart.series.iter().enumerate() {
        let c = colour(s.colour);
        let pts: Vec<(f64, f64)> = s.points.iter().map(|p| (p.0, p.1)).collect();
        let ann = match s.mark {
            Mark::Bar => {
                let (left, width) = bars[i];
                let rects = pts
                    .iter()
                    .map(|&(x, y)| Rectangle::new([(x + left, 0.0), (x + left + width, y)], c.filled()));
                ctx.draw_series(rects)
                    .map_err(e)?
                    .label(s.label.as_str())
                    .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 20, y + 6)], c.filled()));
                continue;
            }
            Mark::Line => {
                let a = ctx
                    .draw_series(LineSeries::new(pts.clone(), c.stroke_width(3)))
                    .map_err(e)?;
                a.label(s.label.as_str())
                    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(3)));
                ctx.draw_series(pts.iter().map(|&p| Circle::new(p, 3, c.filled())))
                    .map_err(e)?;
                continue;
            }
            Mark::Markers => ctx
                .draw_series(pts.iter().map(|&p| Circle::new(p, 6, c.stroke_width(2))))
                .map_err(e)?,
        };
        ann.label(s.label.as_str())
            .legend(move |(x, y)| Circle::new((x + 10, y), 6, c.stroke_width(2)));
    }
    for (i, s) in chart.series.iter().enumerate() {
        // on a bar, the error bar is black at the bar's centre
        let (c, shift) = match s.mark {
            Mark::Bar => (BLACK, bars[i].0 + bars[i].1 / 2.0),
            _ => (colour(s.colour), 0.0),
        };
        let cap = (x1 - x0) * 0.006;
        // an error bar: the interval and a cap at each end
        let intervals = s.points.iter().filter_map(|&(x, _, interval)| {
            interval
                .filter(|(lo, hi)| lo.is_finite() && hi.is_finite())
                .map(|(lo, hi)| (x + shift, lo, hi))
        });
        let lines = intervals.flat_map(|(x, lo, hi)| {
            [
                vec![(x, lo), (x, hi)],
                vec![(x - cap, lo), (x + cap, lo)],
                vec![(x - cap, hi), (x + cap, hi)],
            ]
        });
        ctx.draw_series(lines.map(|l| PathElement::new(l, c.stroke_width(2))))
            .map_err(e)?;
    }
    if let Some(band) = chart.diagonal {
        let (lo, hi) = (x0.max(y0), x1.min(y1));
        let rule = ShapeStyle::from(&BLACK.mix(0.6)).stroke_width(2);
        ctx.draw_series(std::iter::once(PathElement::new(vec![(lo, lo), (hi, hi)], rule)))
            .map_err(e)?;
        let thin = ShapeStyle::from(&BLACK.mix(0.45)).stroke_width(1);
        for f in [1.0 - band, 1.0 + band] {
            // y = f x, clipped to the plot
            let (a, b) = (lo.max(y0 / f), hi.min(y1 / f));
            if b > a {
                ctx.draw_series(std::iter::once(PathElement::new(
                    vec![(a, f * a), (b, f * b)],
                    thin,
                )))
                .map_err(e)?;
            }
        }
    }
    Ok(())
}

/// Draws each chart in its cell of a `grid` (rows, columns) of `root`.
fn draw_panels<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    charts: &[Chart],
    grid: (usize, usize),
) -> Result<(), String> {
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    for (area, chart) in root.split_evenly(grid).iter().zip(charts) {
        draw_into(area, chart)?;
    }
    root.present().map_err(|e| e.to_string())
}

/// Draws `charts` side by side (two to a row) into one image, `<stem>.svg` and
/// `<stem>.png`, staged in `out`; each panel is `SIZE` (the image grows with them).
pub fn write_panels(charts: &[Chart], out: &mut Staged, stem: &str) -> Result<(), ReportError> {
    if charts.len() == 1 {
        return write_chart(&charts[0], out, stem);
    }
    register_fonts();
    let cols = charts.len().clamp(1, 2);
    let rows = charts.len().div_ceil(cols).max(1);
    let size = (SIZE.0 * cols as u32, SIZE.1 * rows as u32);
    let svg = out.path_for(&format!("{stem}.svg"))?;
    draw_panels(
        &SVGBackend::new(&svg, size).into_drawing_area(),
        charts,
        (rows, cols),
    )
    .map_err(plot_err(&format!("{stem}.svg")))?;
    let png = out.path_for(&format!("{stem}.png"))?;
    draw_panels(
        &BitMapBackend::new(&png, size).into_drawing_area(),
        charts,
        (rows, cols),
    )
    .map_err(plot_err(&format!("{stem}.png")))?;
    Ok(())
}

/// Draws `chart` to `<stem>.svg` and `<stem>.png`, staged in `out`.
pub fn write_chart(chart: &Chart, out: &mut Staged, stem: &str) -> Result<(), ReportError> {
    register_fonts();
    let svg = out.path_for(&format!("{stem}.svg"))?;
    {
        let root = SVGBackend::new(&svg, SIZE).into_drawing_area();
        draw(&root, chart, out.marked()).map_err(plot_err(&format!("{stem}.svg")))?;
    }
    let png = out.path_for(&format!("{stem}.png"))?;
    {
        let root = BitMapBackend::new(&png, SIZE).into_drawing_area();
        draw(&root, chart, out.marked()).map_err(plot_err(&format!("{stem}.png")))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_tick_labels_carry_the_decimals_the_step_needs() {
        // 0.1 .. 2.0: steps of 0.2, one decimal
        assert_eq!(tick_label(0.2, 1.9 * 1.08, false), "0.2");
        assert_eq!(tick_label(1.0, 1.9 * 1.08, false), "1.0");
        // 0 .. 1,100,000: whole numbers
        assert_eq!(tick_label(200_000.0, 1.1e6, false), "200000");
        // 0 .. 0.05: steps of 0.005, three decimals
        assert_eq!(tick_label(0.015, 0.05, false), "0.015");
        assert_eq!(tick_label(-0.0, 10.0, false), "0");
    }

    #[test]
    fn test_an_integer_axis_labels_whole_numbers_only() {
        assert_eq!(tick_label(2.0, 4.0, true), "2");
        assert_eq!(tick_label(2.2, 4.0, true), "");
        assert_eq!(tick_label(2.4, 4.0, true), "");
    }

    #[test]
    fn test_a_long_title_gets_a_smaller_font_that_fits() {
        assert_eq!(title_size("Figure 1"), 26);
        let long = "background-load: Access delay with queueing, 99th percentile, µs against Offered load (fraction of the bit rate)";
        let size = title_size(long);
        assert!(size < 26);
        assert!(0.6 * size as f64 * long.chars().count() as f64 <= SIZE.0 as f64 - 60.0);
    }
}
