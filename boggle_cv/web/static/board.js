// Drawing the board as an SVG: the photo (when there is one), each cell's outline
// and face, uncertain and corrected cells, and word paths. Coordinates are photo
// pixels (x, y) from the server's geometry, or a plain grid for a typed board.
const SVG = "http://www.w3.org/2000/svg";
export const PATH_COLOURS = ["#ff7a00", "#d62ad6", "#00b7ff", "#2fd15a", "#ffd400"];

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

const pts = (list) => list.map(([x, y]) => `${x},${y}`).join(" ");

/** Geometry of a plain N x N grid (no photo): 100 units a cell. */
export function plainGeometry(n) {
  const p = 100, centres = [], quads = [];
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
 * Draw `model` into `svg`.
 * model: {faces [[str]], read [[cell]] | null, geometry, photo {url, width, height} | null}
 * opts: {whole: bool, paths: [[[r, c], ...], ...], selected: [r, c] | null, onCell(r, c)}
 */
export function renderBoard(svg, model, opts = {}) {
  const g = model.geometry, n = model.faces.length;
  svg.replaceChildren();
  const view = opts.whole && model.photo ? [0, 0, model.photo.width, model.photo.height] : g.view;
  svg.setAttribute("viewBox", view.join(" "));
  svg.classList.toggle("plain", !model.photo);
  if (model.photo) {
    el("image", { href: model.photo.url, x: 0, y: 0, width: model.photo.width, height: model.photo.height,
                  preserveAspectRatio: "none" }, svg);
    el("polygon", { points: pts(g.outline), class: "outline", "stroke-width": g.pitch * 0.03 }, svg);
  }
  const fontSize = g.pitch * 0.36;
  const labels = [];
  // 1. cells (the tap targets), 2. word paths, 3. faces on top (taps pass through them)
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const face = model.faces[r][c];
      const read = model.read ? model.read[r][c] : null;
      const fixed = read && face !== read.face;
      const doubtful = read && read.flagged && !fixed;
      const kind = [doubtful ? "doubtful" : "", fixed ? "fixed" : ""].join(" ").trim();
      const selected = opts.selected && opts.selected[0] === r && opts.selected[1] === c;
      const cell = el("g", { class: `cell ${kind} ${selected ? "selected" : ""}`.trim(), "data-cell": `${r},${c}`,
                             "data-face": face, tabindex: 0, role: "button",
                             "aria-label": `row ${r + 1}, column ${c + 1}: ${face === "#" ? "blank" : face}` +
                                           (doubtful ? ", uncertain" : "") + (fixed ? ", corrected" : "") }, svg);
      el("polygon", { points: pts(g.quads[r][c]), "stroke-width": g.pitch * (doubtful || fixed ? 0.05 : 0.02) }, cell);
      if (opts.onCell) {
        cell.addEventListener("click", () => opts.onCell(r, c));
        cell.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); opts.onCell(r, c); } });
      }
      labels.push([r, c, face + (doubtful ? "?" : ""), kind]);
    }
  }
  (opts.paths || []).forEach((path, k) => {
    const colour = PATH_COLOURS[k % PATH_COLOURS.length];
    const shift = (k - (opts.paths.length - 1) / 2) * g.pitch * 0.08;
    const line = path.map(([r, c]) => [g.centres[r][c][0] + shift, g.centres[r][c][1] + shift]);
    el("polyline", { points: pts(line), class: "path", stroke: colour, "stroke-width": g.pitch * 0.06 }, svg);
    el("circle", { class: "start", cx: line[0][0], cy: line[0][1], r: g.pitch * 0.09, fill: colour }, svg);
  });
  for (const [r, c, label, kind] of labels) {
    const [x, y] = g.centres[r][c];
    const lab = el("g", { class: `lab ${kind}`.trim() }, svg);
    const w = fontSize * (0.75 + 0.55 * (label.length - 1)) + fontSize * 0.35;
    el("rect", { class: "label", x: x - w / 2, y: y - fontSize * 0.62, width: w, height: fontSize * 1.24,
                 rx: fontSize * 0.25 }, lab);
    const t = el("text", { class: "face", x, y, "font-size": fontSize }, lab);
    t.textContent = label;
  }
}
