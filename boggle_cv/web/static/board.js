// Drawing the board as an SVG: the photo (when there is one), each cell's outline
// and face, doubtful (?), confirmed (✓: said to be right as read) and corrected (✎)
// cells, and one word's path. The drawing's proportions go to the CSS (--aspect), so
// the board takes all the room its screen has without a band around it.
//
// Coordinates: the server's geometry gives cell centres and corners as photo pixels
// (x, y) with cells (row, col) in the board's reading orientation. The board is
// often turned in the photo (the tray has no fixed top), so the picture is turned by
// a multiple of 90 degrees until row 1 runs along the top of the screen: then "Row 1,
// column 1" is the top-left cell on screen, and the letters read upright.
import { t } from "./i18n.js";
import { cellName, faceName } from "./dom.js";
import { byText } from "./cellstate.js";
const SVG = "http://www.w3.org/2000/svg";
export const PATH_COLOUR = "#ff7a00";
const CELL = 100;  // a typed board's cell, in SVG units

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

const pts = (list) => list.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");

/** Geometry of a plain N x N grid (a typed board). */
export function plainGeometry(n) {
  const p = CELL, centres = [], quads = [];
  for (let r = 0; r < n; r++) {
    centres.push([]); quads.push([]);
    for (let c = 0; c < n; c++) {
      centres[r].push([c * p + p / 2, r * p + p / 2]);
      quads[r].push([[c * p + 4, r * p + 4], [c * p + p - 4, r * p + 4], [c * p + p - 4, r * p + p - 4], [c * p + 4, r * p + p - 4]]);
    }
  }
  return { centres, quads, outline: [[0, 0], [n * p, 0], [n * p, n * p], [0, n * p]], pitch: p, view: [0, 0, n * p, n * p] };
}

/**
 * The turn (degrees, a multiple of 90, SVG's clockwise sense) that brings row 1
 * of the board along the top of the screen, from where its first and last cells lie.
 */
export function screenTurn(geometry, n) {
  if (n < 2) return 0;
  const [x0, y0] = geometry.centres[0][0], [x1, y1] = geometry.centres[0][n - 1];
  const angle = Math.atan2(y1 - y0, x1 - x0) * 180 / Math.PI;  // where row 1 runs in the photo
  return ((-Math.round(angle / 90) * 90) % 360 + 360) % 360;
}

function turner(deg) {
  const a = deg * Math.PI / 180, cos = Math.round(Math.cos(a)), sin = Math.round(Math.sin(a));
  return ([x, y]) => [x * cos - y * sin, x * sin + y * cos];
}

function box(points) {
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  const x = Math.min(...xs), y = Math.min(...ys);
  return [x, y, Math.max(...xs) - x, Math.max(...ys) - y];
}

const corners = ([x, y, w, h]) => [[x, y], [x + w, y], [x + w, y + h], [x, y + h]];

/**
 * Draw `model` into `svg`.
 * model: {faces [[str]] (N x N), geometry, photo {url, width, height} | null,
 *         doubtful Set of "r,c", fixed Map "r,c" -> who (corrected), confirmed Map "r,c" -> who
 *         (optional: confirmed as read; who: a player's name, or "host"), bonus Set of "r,c" (red rings),
 *         challenge "r,c" | null (the red challenge cube)}
 * opts: {whole: bool (the whole photo, not just the tray), path: [[r, c], ...] | null,
 *        selected: [r, c] | null, onCell(r, c)}
 */
export function renderBoard(svg, model, opts = {}) {
  const n = model.faces.length;
  const g = model.geometry && model.geometry.centres.length === n ? model.geometry : plainGeometry(n);
  const photo = g === model.geometry ? model.photo : null;
  const turn = photo ? screenTurn(g, n) : 0;
  const T = turner(turn);
  svg.replaceChildren();
  const view = box(corners(opts.whole && photo ? [0, 0, photo.width, photo.height] : g.view).map(T));
  svg.setAttribute("viewBox", view.join(" "));
  svg.style.setProperty("--aspect", String(view[3] > 0 ? view[2] / view[3] : 1));
  svg.classList.toggle("plain", !photo);
  svg.dataset.turn = String(turn);
  svg.dataset.size = String(n);
  if (photo) {
    el("image", { href: photo.url, x: 0, y: 0, width: photo.width, height: photo.height,
                  preserveAspectRatio: "none", transform: `rotate(${turn})` }, svg);
    el("polygon", { points: pts(g.outline.map(T)), class: "outline", "stroke-width": g.pitch * 0.03 }, svg);
  }
  const fontSize = g.pitch * 0.38;
  const labels = [];
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const face = model.faces[r][c], key = `${r},${c}`;
      const doubtful = model.doubtful.has(key), fixedBy = model.fixed.get(key);
      const confirmedBy = !doubtful && !fixedBy && model.confirmed ? model.confirmed.get(key) : undefined;
      const bonus = !!(model.bonus && model.bonus.has(key)), challenge = model.challenge === key;
      const kind = [doubtful ? "doubtful" : "", fixedBy ? "fixed" : "", confirmedBy !== undefined ? "confirmed" : ""].join(" ").trim();
      const marks = [bonus ? "bonus" : "", challenge ? "challenge" : ""].join(" ").trim();
      const selected = opts.selected && opts.selected[0] === r && opts.selected[1] === c;
      const name = `${cellName(r, c)}: ${faceName(face)}` +
                   (doubtful ? t(", doubtful") : "") + (fixedBy ? byText("cellFixed", fixedBy) : "") +
                   (confirmedBy !== undefined ? byText("cellConfirmed", confirmedBy) : "") +
                   (bonus ? t(", bonus cell") : "") + (challenge ? t(", the challenge cube") : "");
      const cell = el("g", { class: `cell ${kind} ${marks} ${selected ? "selected" : ""}`.replace(/\s+/g, " ").trim(),
                             "data-cell": key, "data-face": face, tabindex: 0, role: "button", "aria-label": name }, svg);
      el("polygon", { points: pts(g.quads[r][c].map(T)), "stroke-width": g.pitch * (kind ? 0.05 : 0.02) }, cell);
      if (bonus) {
        const [cx, cy] = T(g.centres[r][c]);
        el("circle", { class: "ring", cx, cy, r: g.pitch * 0.44, "stroke-width": g.pitch * 0.06 }, cell);
      }
      if (opts.onCell) {
        cell.addEventListener("click", () => opts.onCell(r, c));
        cell.addEventListener("keydown", (e) => {
          if (e.key === "Enter" || e.key === " ") { e.preventDefault(); opts.onCell(r, c); }
        });
      }
      labels.push([T(g.centres[r][c]), (face === "#" ? "·" : face) + (doubtful ? "?" : ""), kind,
                   fixedBy ? "✎" : confirmedBy !== undefined ? "✓" : "", challenge]);
    }
  }
  if (opts.path && opts.path.length) {
    const line = opts.path.filter(([r, c]) => r < n && c < n).map(([r, c]) => T(g.centres[r][c]));
    if (line.length) {
      el("polyline", { points: pts(line), class: "path", stroke: PATH_COLOUR, "stroke-width": g.pitch * 0.08 }, svg);
      el("circle", { class: "start", cx: line[0][0], cy: line[0][1], r: g.pitch * 0.12, fill: PATH_COLOUR }, svg);
    }
  }
  for (const [[x, y], label, kind, pen, challenge] of labels) {
    const lab = el("g", { class: `lab ${kind}`.trim() }, svg);
    const w = fontSize * (0.75 + 0.55 * (label.length - 1)) + fontSize * 0.35;
    el("rect", { class: "label", x: x - w / 2, y: y - fontSize * 0.62, width: w, height: fontSize * 1.24,
                 rx: fontSize * 0.25 }, lab);
    el("text", { class: "face", x, y, "font-size": fontSize }, lab).textContent = label;
    if (pen) {
      el("text", { class: pen === "✎" ? "pen" : "ok", x: x + w / 2, y: y - fontSize * 0.55, "font-size": fontSize * 0.6 }, lab)
        .textContent = pen;
    }
    if (challenge) {
      el("text", { class: "star", x: x - w / 2, y: y - fontSize * 0.55, "font-size": fontSize * 0.6 }, lab).textContent = "★";
    }
  }
}
