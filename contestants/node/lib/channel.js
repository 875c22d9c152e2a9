// The stand-in for a channel in the promise-based Node contestants' pingpong: Node has no
// channel between tasks of one event loop, so a task waits for a message by awaiting a
// promise that the sender resolves — in effect a oneshot per message, as tokio's own
// ping_pong bench uses. Written against the promise library the contestant measures.

/** An unbounded channel with one receiver, for promises of library `Promise`. */
export class Channel {
  #Promise;
  #messages = [];
  #receiver = null;

  constructor(Promise) {
    this.#Promise = Promise;
  }

  /** Hands `message` to the waiting receiver, or keeps it for the next receive(). */
  send(message) {
    const receiver = this.#receiver;
    if (receiver === null) {
      this.#messages.push(message);
    } else {
      this.#receiver = null;
      receiver(message);
    }
  }

  /** A promise of the next message. */
  receive() {
    if (this.#messages.length > 0) return this.#Promise.resolve(this.#messages.shift());
    return new this.#Promise((resolve) => {
      this.#receiver = resolve;
    });
  }
}
