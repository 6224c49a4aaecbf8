// Live changes of the room: server-sent events (GET /api/rooms/CODE/events, one
// `room` event {version, change} per change, no secrets), with polling every
// POLL_MS while the stream is down or when EventSource is not available.
// The state ("connecting", "live", "reconnecting", "polling", "offline") is shown
// on the page; every change calls onVersion(version) and the page fetches the room.
// A fetch of the room that does not reach the server says the room is out of reach,
// whatever the stream looks like (a stream can stay open while requests fail: the
// Wi-Fi gone, a proxy in front of a server that stopped): the page then says
// "reconnecting" (or "offline"), asks again every POLL_MS, and is live again once a
// fetch gets through.

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
    this.unreached = false;  // the last fetch of the room did not reach the server
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
      if (!this.unreached) {
        this.stopPolling();
        this.setState("live");
      }  // else the stream is back but the room not yet read: live once a fetch gets through (reached)
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
   * The page tells us whether its last fetch of the room reached the server (see
   * reachedServer). Not reached, stream or no stream: "reconnecting" (the server
   * restarting, the Wi-Fi gone a moment), or "offline" when the phone itself says it
   * has no network, and the room is asked for again every POLL_MS. Reached again: the
   * state the stream is in ("live" when it is open).
   */
  reached(ok) {
    if (this.stopped) return;
    if (!ok) {
      this.unreached = true;
      this.setState(navigator.onLine === false ? "offline" : "reconnecting");
      this.startPolling();
      return;
    }
    const was = this.unreached;
    this.unreached = false;
    if (this.es && this.es.readyState === EventSource.OPEN) {
      if (was) {
        this.stopPolling();
        this.setState("live");
      }
    } else if (was || this.state === "offline" || (this.state === "reconnecting" && !this.es)) {
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

/**
 * Did a failed request reach the room's server? Not when the connection failed
 * (status 0) or a proxy in front of the server answered for it (502, 504).
 */
export function reachedServer(err) {
  return ![0, 502, 504].includes(err.status);
}

export const STATE_TEXT = {
  connecting: N_("connecting…"),
  live: N_("live"),
  reconnecting: N_("reconnecting…"),
  polling: N_("polling every 2 s"),
  offline: N_("offline: retrying"),
};
