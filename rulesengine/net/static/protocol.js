// The protocol of docs/protocol.md, in one module: one WebSocket to the server that served this page,
// one JSON object per frame, the seat's token kept in this browser (localStorage, per table) so a
// reload or a dropped connection comes back to the same seat. It never sends anything but the
// messages of the protocol, and keeps nothing of another seat.

const PAUSES = [250, 500, 1000, 2000, 4000, 8000]; // ms between tries to reconnect, then 8 s each

export function seatKey(table) {
  return `boom.seat.${table}`;
}

export function savedSeat(table) {
  try {
    return JSON.parse(localStorage.getItem(seatKey(table)) || "null");
  } catch {
    return null;
  }
}

export class Link {
  // onMessage(message) for every frame; onStatus("open" | "lost" | "retrying", detail)
  constructor(onMessage, onStatus) {
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.table = null;
    this.token = null;
    this.ref = 0;
    this.tries = 0;
    this.queue = [];
    this.open();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/`;
  }

  open() {
    this.socket = new WebSocket(this.url());
    this.socket.onopen = () => {
      this.tries = 0;
      this.onStatus("open");
      if (this.table && this.token) this.send({ type: "resume", table: this.table, token: this.token, advice: true });
      else if (this.watching) this.send({ type: "watch", table: this.watching });
      for (const message of this.queue.splice(0)) this.send(message);
    };
    this.socket.onmessage = (frame) => {
      const message = JSON.parse(frame.data);
      if (message.type === "joined") this.remember(message);
      this.onMessage(message);
    };
    this.socket.onclose = (event) => {
      if (event.code === 4001) {
        this.onStatus("moved");
        return; // the seat was resumed from another tab: this one stops
      }
      const pause = PAUSES[Math.min(this.tries, PAUSES.length - 1)];
      this.tries += 1;
      this.onStatus("lost", pause);
      setTimeout(() => this.open(), pause);
    };
  }

  send(message) {
    if (this.socket.readyState !== WebSocket.OPEN) {
      if (message.type !== "resume" && message.type !== "watch") this.queue.push(message);
      return;
    }
    this.ref += 1;
    this.socket.send(JSON.stringify({ ...message, ref: this.ref }));
  }

  remember(joined) {
    this.table = joined.table;
    if (joined.token || (this.token && !savedSeat(joined.table))) {
      this.token = joined.token || this.token;
      localStorage.setItem(
        seatKey(joined.table),
        JSON.stringify({ token: this.token, seat: joined.seat, name: joined.name }),
      );
    }
  }

  // clock: seconds a move (0: none); onTime: "bot" or "forfeit" when a seat's clock runs out
  host(edition, players, bots, botKind, clock = 0, onTime = "bot") {
    const timed = clock ? { clock, on_time: onTime } : {};
    this.send({ type: "host", edition, players, bots, bot_kind: botKind, seed: null, ...timed });
  }

  join(table, name) {
    this.send({ type: "join", table, name, advice: true });
  }

  resume(table) {
    const saved = savedSeat(table);
    if (!saved) return false;
    this.table = table;
    this.token = saved.token;
    this.send({ type: "resume", table, token: saved.token, advice: true });
    return true;
  }

  // Watch a table as a spectator: its public view only (never a hand), live or a round behind as its host chose.
  watch(table) {
    this.watching = table;
    this.send({ type: "watch", table });
  }

  // Take one's seat back in this browser with the seat token shown when joining (from another browser).
  resumeWith(table, token) {
    this.table = table;
    this.token = token;
    this.send({ type: "resume", table, token, advice: true });
  }

  forget(table) {
    localStorage.removeItem(seatKey(table));
    this.token = null;
  }

  decide(decision, answer) {
    this.send({
      type: "decide",
      table: this.table,
      token: this.token,
      round: decision.round,
      kind: decision.kind,
      category: decision.category,
      id: decision.id,
      answer,
    });
  }
}
