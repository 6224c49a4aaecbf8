// The round's timer on every phone, in step: it counts down to the server's
// `deadline` (Unix seconds) on the server's clock, estimated from `server_time`
// in each answer (offset = server time - this phone's time, midpoint of the request).
// At the end: a visual state, a vibration (navigator.vibrate where allowed) and a
// short beep (WebAudio, once the page has been touched: browsers block sound before).
import { t } from "./i18n.js";

const TICK_MS = 200;
const WARN_S = 10;             // the last seconds are shown in the warning colour
const BEEP = { hz: 880, seconds: 0.35, gain: 0.2 };
const VIBRATION_MS = [250, 120, 250];

let audio = null;

/** Call from a user gesture: unlocks sound for the end of the round. */
export function unlockSound() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  try {
    if (!audio) audio = new Ctx();
    if (audio.state === "suspended") audio.resume();
  } catch (e) { audio = null; }
}

function beep() {
  if (!audio || audio.state !== "running") return false;
  const osc = audio.createOscillator(), gain = audio.createGain();
  osc.frequency.value = BEEP.hz;
  gain.gain.setValueAtTime(BEEP.gain, audio.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + BEEP.seconds);
  osc.connect(gain).connect(audio.destination);
  osc.start();
  osc.stop(audio.currentTime + BEEP.seconds);
  return true;
}

export function formatSeconds(s) {
  const whole = Math.max(0, Math.ceil(s));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

export class Timer {
  /** el: where the time is shown; onEnd(): called once when a running round's time is up. */
  constructor(el, onEnd) {
    this.el = el;
    this.onEnd = onEnd;
    this.offset = 0;       // server seconds - local seconds
    this.deadline = null;  // server seconds, or null
    this.key = null;       // the round the deadline belongs to (ends are signalled once per round)
    this.ended = null;
    this.handle = null;
  }

  /** A request sent at t0 and answered at t1 (ms, local) carried server_time. */
  sync(serverTime, t0, t1) {
    if (typeof serverTime === "number") this.offset = serverTime - (t0 + t1) / 2000;
  }

  now() {
    return Date.now() / 1000 + this.offset;
  }

  remaining() {
    return this.deadline === null ? null : this.deadline - this.now();
  }

  /**
   * The round's state: key (which round: an end is signalled once per key),
   * deadline (server seconds, or null: no timer), phase, lockedBy ("timer", "host").
   */
  set(key, deadline, phase, lockedBy) {
    const wasCounting = this.running && this.deadline !== null && this.key === key;
    this.key = key;
    this.running = phase === "playing";
    this.deadline = this.running ? deadline : null;
    this.phase = phase;
    this.lockedBy = lockedBy;
    clearInterval(this.handle);
    this.handle = null;
    if (this.deadline !== null) this.handle = setInterval(() => this.tick(), TICK_MS);
    this.tick();
    if (wasCounting && phase === "locked" && lockedBy === "timer") this.end();  // the server was first
  }

  end() {
    if (this.ended === this.key) return;
    this.ended = this.key;
    this.signal();
    this.onEnd();
  }

  tick() {
    const el = this.el;
    const left = this.remaining();
    if (!this.running) {
      el.hidden = this.phase !== "locked";
      el.dataset.state = this.lockedBy === "timer" ? "up" : "locked";
      el.textContent = this.lockedBy === "timer" ? t("Time's up!") : t("Locked");
      return;
    }
    el.hidden = false;
    if (left === null) {
      el.dataset.state = "untimed";
      el.textContent = t("no timer");
      return;
    }
    if (left > 0) {
      el.dataset.state = left <= WARN_S ? "warn" : "running";
      el.textContent = formatSeconds(left);
      el.setAttribute("aria-label", t("{time} left", { time: formatSeconds(left) }));
      return;
    }
    el.dataset.state = "up";
    el.textContent = t("Time's up!");
    clearInterval(this.handle);
    this.handle = null;
    this.end();
  }

  /** The end of the round: vibration, sound, and a flash of the page. */
  signal() {
    let vibrated = false;
    try { vibrated = !!(navigator.vibrate && navigator.vibrate(VIBRATION_MS)); } catch (e) { vibrated = false; }
    const beeped = beep();
    document.body.dataset.timeUp = [vibrated ? "vibrate" : "", beeped ? "beep" : "", "flash"].filter(Boolean).join(" ");
    document.body.classList.add("time-up");
    setTimeout(() => document.body.classList.remove("time-up"), 2500);
  }
}
