// The room's screens: one at a time under the round's bar, never a page that scrolls.
//
// The screens (.screen[data-screen]: words, board, report, players, game, settings) lie
// side by side in the stage, each exactly as wide as it; the stage shows one of them
// (its horizontal scroll, which the player never drags: the bar at the foot of the
// screen names them, one tap each). A long list scrolls inside its own screen. The
// round's step decides the screen shown (room.js: the words while playing, the board
// once locked, the result once scored...): when the step changes, the phone goes to
// its screen, at its top; in between, the player may look at any other and come back.
// Anything that brings an element into view (a message, the keyboard's focus, a link
// to a section) brings its screen too, and the bar follows.

export class Screens {
  /** stage: the element holding the screens; nav: the bar of links (a[data-screen]). */
  constructor(stage, nav) {
    this.stage = stage;
    this.nav = nav;
    this.current = null;   // the screen shown
    this.step = null;      // the step's screen
    this.onClick = (e) => {
      const a = e.target.closest("a[data-screen]");
      if (!a) return;
      e.preventDefault();
      this.show(a.dataset.screen, { smooth: true });
    };
    this.onScroll = () => this.follow();
    nav.addEventListener("click", this.onClick);
    stage.addEventListener("scroll", this.onScroll, { passive: true });
    this.resized = new ResizeObserver(() => this.align());
    this.resized.observe(stage);
  }

  close() {
    this.nav.removeEventListener("click", this.onClick);
    this.stage.removeEventListener("scroll", this.onScroll);
    this.resized.disconnect();
  }

  screen(name) {
    return this.stage.querySelector(`.screen[data-screen="${name}"]`);
  }

  /** Which screens (and their links) there are now: {name: bool}. */
  offer(which) {
    for (const [name, on] of Object.entries(which)) {
      const el = this.screen(name);
      if (el) el.hidden = !on;
      for (const a of this.nav.querySelectorAll(`a[data-screen="${name}"]`)) a.hidden = !on;
    }
    if (this.current && !this.isOffered(this.current)) this.current = this.step;
    this.align();
  }

  isOffered(name) {
    const el = this.screen(name);
    return !!el && !el.hidden;
  }

  /**
   * The round's step is at screen `name`; moved: the step changed (a new phase or round):
   * the phone goes there, at its top.
   */
  setStep(name, moved) {
    this.step = name;
    for (const a of this.nav.querySelectorAll("a[data-screen]")) {
      if (a.dataset.screen === name) a.dataset.step = "1"; else delete a.dataset.step;
    }
    if (moved || !this.current) {
      const el = this.screen(name);
      if (el) el.scrollTop = 0;
      this.show(name);
    } else {
      this.mark();
    }
  }

  /** Show screen `name` (smooth: an animated move, unless the phone asks for less motion). */
  show(name, { smooth = false } = {}) {
    const el = this.screen(name);
    if (!el || el.hidden) return;
    this.current = name;
    const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    this.stage.scrollTo({ left: el.offsetLeft, behavior: smooth && !still ? "smooth" : "instant" });
    this.mark();
  }

  /** Keep the screen shown aligned (after a resize: the keyboard, a turned phone). */
  align() {
    const el = this.current && this.screen(this.current);
    if (el && !el.hidden && Math.abs(this.stage.scrollLeft - el.offsetLeft) > 1) {
      this.stage.scrollTo({ left: el.offsetLeft, behavior: "instant" });
    }
  }

  /** The stage moved (a link, the focus, a message brought into view): the bar follows. */
  follow() {
    const x = this.stage.scrollLeft, w = this.stage.clientWidth || 1;
    let best = null;
    for (const el of this.stage.querySelectorAll(".screen:not([hidden])")) {
      if (best === null || Math.abs(el.offsetLeft - x) < Math.abs(best.offsetLeft - x)) best = el;
    }
    if (best && Math.abs(best.offsetLeft - x) < w / 2 && best.dataset.screen !== this.current) {
      this.current = best.dataset.screen;
      this.mark();
    }
  }

  mark() {
    for (const a of this.nav.querySelectorAll("a[data-screen]")) {
      if (a.dataset.screen === this.current) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
    }
    this.stage.dataset.shown = this.current || "";
  }
}
