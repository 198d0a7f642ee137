// The `Client` class of the server entries (./estatekit.node.js, ./estatekit.workerd.js): the
// module's class, with every store it is given (`rateLimit.store`, `ensureWebhook`'s `store`)
// answering through estatekit/store's `checkedStore`. Internal: no entry exports it (browsers
// refuse both stores, and their entry stays without it).
import { checkedStore } from "./store.js";

/**
 * The module's `Client` class of a server entry, whose `rateLimit.store` and `ensureWebhook`'s
 * `store` answer through `checkedStore` (a wrong answer of `take` or `claim` is an error naming
 * it).
 * @template {new (options: any) => object} C
 * @param {C} Client
 * @returns {C}
 */
export function clientWithCheckedStore(Client) {
  const ensure = /** @type {Record<string, unknown>} */ (Client.prototype).ensureWebhook;
  if (typeof ensure === "function") {
    // A subclass would change the class's name and `instanceof` of instances the module makes:
    // the prototype's method is wrapped instead.
    Object.defineProperty(Client.prototype, "ensureWebhook", {
      configurable: true,
      writable: true,
      /** @param {unknown} input @param {unknown} [options] */
      value: function ensureWebhook(input, options) {
        const o = /** @type {Record<string, unknown> | null | undefined} */ (options);
        const checked = o !== null && typeof o === "object" && o.store !== null && typeof o.store === "object" ? { ...o, store: checkedStore(o.store) } : options;
        return arguments.length < 2 ? ensure.call(this, input) : ensure.call(this, input, checked);
      },
    });
  }
  return new Proxy(Client, {
    construct(target, args, newTarget) {
      const [options, ...rest] = args;
      const rate = options?.rateLimit;
      if (rate !== null && typeof rate === "object" && rate.store !== null && typeof rate.store === "object") {
        return Reflect.construct(target, [{ ...options, rateLimit: { ...rate, store: checkedStore(rate.store) } }, ...rest], newTarget);
      }
      return Reflect.construct(target, args, newTarget);
    },
  });
}
