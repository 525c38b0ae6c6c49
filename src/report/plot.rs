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
    /// Where the legend goes; `None` picks the place that hides the fewest data.
    pub legend: Option<SeriesLabelPosition>,
}

impl Chart {
    /// The corner (or right middle) where the legend covers the fewest data: each candidate
    /// box is scored by the samples of the lines and markers that fall inside it.
    fn legend_position(&self, plot_px: &(u32, u32)) -> SeriesLabelPosition {
        let ((x0, x1), (y0, y1)) = self.ranges();
        let entries =
            self.series.iter().filter(|s| !s.label.is_empty()).count() + self.ceiling.is_some() as usize;
        let longest = self
            .series
            .iter()
            .map(|s| s.label.chars().count())
            .max()
            .unwrap_or(0);
        let w = ((longest as f64 * 9.0 + 60.0) / plot_px.0.max(1) as f64).min(1.0);
        let h = ((entries as f64 * 22.0 + 20.0) / plot_px.1.max(1) as f64).min(1.0);
        let mut samples = Vec::new();
        for s in &self.series {
            if s.mark == Mark::Bar {
                // a bar covers its slot from 0 to its top
                for p in &s.points {
                    samples.extend((0..=10).map(|k| (p.0, p.1 * k as f64 / 10.0)));
                }
                continue;
            }
            for pair in s.points.windows(2) {
                for k in 0..=10 {
                    let t = k as f64 / 10.0;
                    samples.push((
                        pair[0].0 + t * (pair[1].0 - pair[0].0),
                        pair[0].1 + t * (pair[1].1 - pair[0].1),
                    ));
                }
            }
            samples.extend(s.points.iter().map(|p| (p.0, p.1)));
        }
        if let Some((c, _)) = &self.ceiling {
            samples.extend((0..=20).map(|k| (x0 + (x1 - x0) * k as f64 / 20.0, *c)));
        }
        // normalise to [0, 1] with y up
        let norm: Vec<(f64, f64)> = samples
            .iter()
            .map(|&(x, y)| ((x - x0) / (x1 - x0), (y - y0) / (y1 - y0)))
            .collect();
        let candidates = [
            (SeriesLabelPosition::UpperRight, (1.0 - w, 1.0 - h)),
            (SeriesLabelPosition::MiddleRight, (1.0 - w, 0.5 - h / 2.0)),
            (SeriesLabelPosition::LowerRight, (1.0 - w, 0.0)),
            (SeriesLabelPosition::UpperLeft, (0.0, 1.0 - h)),
            (SeriesLabelPosition::LowerLeft, (0.0, 0.0)),
        ];
        let hits = |(bx, by): (f64, f64)| {
            norm.iter()
                .filter(|&&(x, y)| {
                    x >= bx - 0.02 && x <= bx + w + 0.02 && y >= by - 0.02 && y <= by + h + 0.02
                })
                .count()
        };
        let mut best = (usize::MAX, SeriesLabelPosition::LowerRight);
        for (pos, corner) in candidates {
            let n = hits(corner);
            if n < best.0 {
                best = (n, pos);
            }
        }
        best.1
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
        let y1 = match self.y_top {
            Some(top) if top > 0.0 => top,
            _ if y1 > 0.0 => y1 * 1.08,
            _ => 1.0,
        };
        ((x0 - pad, x1 + pad), (0.0, y1))
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

fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, chart: &Chart) -> Result<(), String> {
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    root.fill(&WHITE).map_err(e)?;
    let ((x0, x1), (y0, y1)) = chart.ranges();
    let mut ctx = ChartBuilder::on(root)
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
    mesh.x_desc(&chart.x_label)
        .y_desc(&chart.y_label)
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
    if chart.series.iter().any(|s| !s.label.is_empty()) || chart.ceiling.is_some() {
        let pos = match &chart.legend {
            Some(p) => p.clone(),
            None => chart.legend_position(&ctx.plotting_area().dim_in_pixel()),
        };
        ctx.configure_series_labels()
            .position(pos)
            .label_font((FONT, 15))
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(e)?;
    }
    root.present().map_err(e)
}

/// Draws `chart` to `<stem>.svg` and `<stem>.png`, staged in `out`.
pub fn write_chart(chart: &Chart, out: &mut Staged, stem: &str) -> Result<(), ReportError> {
    register_fonts();
    let svg = out.path_for(&format!("{stem}.svg"))?;
    {
        let root = SVGBackend::new(&svg, SIZE).into_drawing_area();
        draw(&root, chart).map_err(plot_err(&format!("{stem}.svg")))?;
    }
    let png = out.path_for(&format!("{stem}.png"))?;
    {
        let root = BitMapBackend::new(&png, SIZE).into_drawing_area();
        draw(&root, chart).map_err(plot_err(&format!("{stem}.png")))?;
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
