// The one way estatekit sends a raw command on the app's own Redis connection (estatekit/store,
// estatekit/live): a node-redis v4/v5 client or an ioredis client, told apart by their methods,
// each command bounded by a timeout. Internal: no entry exports it.
import { apiError } from "./api_error.js";

/**
 * Which client `client` is: ioredis (which also has a sendCommand, taking its own Command
 * objects) has `call`; node-redis has `sendCommand`.
 * @param {unknown} client
 * @returns {"ioredis" | "node-redis" | undefined}
 */
export function redisKind(client) {
  const c = /** @type {{ call?: unknown, sendCommand?: unknown } | null} */ (client);
  if (typeof c?.call === "function") return "ioredis";
  if (typeof c?.sendCommand === "function") return "node-redis";
  return undefined;
}

/**
 * A function sending one raw command (`["SET", "k", "v"]`) on `client`, rejecting once
 * `timeoutMs` passed without an answer (a command not sent yet is dropped from node-redis's
 * queue), so that no call waits for ever.
 * @param {unknown} client a node-redis or ioredis client
 * @param {number} timeoutMs
 * @param {string} who the function named in errors (`createRedisStore`)
 * @returns {(args: string[]) => Promise<unknown>}
 */
export function redisSender(client, timeoutMs, who) {
  /** @type {(args: string[], signal: AbortSignal) => Promise<unknown>} */
  let sendRaw;
  const kind = redisKind(client);
  if (kind === "ioredis") {
    // ioredis has no per-command signal: a command queued while Redis is away stays queued (its
    // client's maxRetriesPerRequest / enableOfflineQueue decide), the answer is bounded below.
    const io = /** @type {{ call(command: string, ...args: string[]): Promise<unknown> }} */ (client);
    sendRaw = ([command, ...args]) => io.call(/** @type {string} */ (command), ...args);
  } else if (kind === "node-redis") {
    // node-redis queues a command sent while it is disconnected (its offline queue) until it has
    // reconnected, however long that takes, and then sends it: without a signal, a call made
    // while Redis is away waits as long as the outage, and one its caller gave up on is still
    // sent later. The signal (`abortSignal` of v5, `signal` of v4) takes it out of the queue
    // and rejects it once `timeoutMs` passed.
    const nodeRedis = /** @type {{ sendCommand(args: string[], options?: object): Promise<unknown> }} */ (client);
    sendRaw = (args, signal) => nodeRedis.sendCommand(args, { abortSignal: signal, signal });
  } else {
    throw apiError("invalid_input", `${who}: give a node-redis client (createClient() of the \`redis\` package) or an ioredis client`);
  }
  return (args) => {
    const signal = AbortSignal.timeout(timeoutMs);
    const slow = () => new Error(`${who === "createRedisStore" ? "estatekit/store" : "estatekit/live"}: Redis did not answer ${args[0]} within ${timeoutMs} ms (${who}'s timeoutMs)`);
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const late = new Promise((_, reject) => {
      timer = setTimeout(() => reject(slow()), timeoutMs);
    });
    const sent = sendRaw(args, signal).catch((e) => {
      throw signal.aborted ? slow() : e;
    });
    return Promise.race([sent, late]).finally(() => clearTimeout(timer));
  };
}
