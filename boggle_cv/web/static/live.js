// Live changes of the room: server-sent events (GET /api/rooms/CODE/events, one
// `room` event {version, change} per change, no secrets), with polling every
// POLL_MS while the stream is down or when EventSource is not available.
// The state ("connecting", "live", "reconnecting", "polling", "offline") is shown
// on the page; every change calls onVersion(version) and the page fetches the room.

import { N_ } from "./i18n.js";

export const POLL_MS = 2000;
const RETRY_STREAM_MS = 30000;  // after the stream failed for good, try it again this often

export class Live {
  /**
   * code: the room; onVersion(version | null): a change (null: poll, fetch anyway);
   * onState(state): the connection state for the indicator.
   */
  constructor(code, onVersion, onState) {
    this.code = code;
    this.onVersion = onVersion;
    this.onState = onState;
    this.es = null;
    this.pollTimer = null;
    this.retryTimer = null;
    this.state = "";
    this.stopped = false;
  }

  start() {
    this.stopped = false;
    if (typeof window.EventSource !== "function") {
      this.setState("polling");
      this.startPolling();
      return;
    }
    this.open();
  }

  stop() {
    this.stopped = true;
    if (this.es) this.es.close();
    this.es = null;
    clearInterval(this.pollTimer);
    clearTimeout(this.retryTimer);
    this.pollTimer = null;
  }

  open() {
    if (this.es) this.es.close();
    this.setState(this.state === "" ? "connecting" : "reconnecting");
    const es = new EventSource(`/api/rooms/${encodeURIComponent(this.code)}/events`);
    this.es = es;
    es.addEventListener("open", () => {
      this.stopPolling();
      this.setState("live");
      this.onVersion(null);  // changes made while the stream was down
    });
    es.addEventListener("room", (e) => {
      let doc = null;
      try { doc = JSON.parse(e.data); } catch (err) { return; }
      this.onVersion(doc.version);
    });
    es.addEventListener("error", () => {
      if (this.stopped) return;
      if (es.readyState === EventSource.CLOSED) {
        // refused for good (an error status): poll, and try the stream again later
        this.es = null;
        this.setState("polling");
        this.startPolling();
        clearTimeout(this.retryTimer);
        this.retryTimer = setTimeout(() => this.open(), RETRY_STREAM_MS);
      } else {
        // the browser reconnects by itself; poll meanwhile so nothing is missed
        this.setState("reconnecting");
        this.startPolling();
      }
    });
  }

  startPolling() {
    if (this.pollTimer) return;
    this.pollTimer = setInterval(() => this.onVersion(null), POLL_MS);
  }

  stopPolling() {
    clearInterval(this.pollTimer);
    this.pollTimer = null;
  }

  /**
   * The page tells us whether its last request reached the server. Not reached while
   * the stream is down: "reconnecting" (the server restarting, the Wi-Fi gone a
   * moment), or "offline" when the phone itself says it has no network.
   */
  reached(ok) {
    if (!ok && this.state !== "live") this.setState(navigator.onLine === false ? "offline" : "reconnecting");
    else if (ok && (this.state === "offline" || (this.state === "reconnecting" && !this.es))) {
      this.setState(this.es ? "reconnecting" : "polling");
    }
  }

  /** The phone woke up (tab visible again): make sure the stream is there. */
  wake() {
    if (this.stopped) return;
    if (typeof window.EventSource === "function" && (!this.es || this.es.readyState === EventSource.CLOSED)) this.open();
    this.onVersion(null);
  }

  setState(state) {
    if (state === this.state) return;
    this.state = state;
    this.onState(state);
  }
}

export const STATE_TEXT = {
  connecting: N_("connecting…"),
  live: N_("live"),
  reconnecting: N_("reconnecting…"),
  polling: N_("polling every 2 s"),
  offline: N_("offline: retrying"),
};
