/**
 * Schemas built when they are first used, not when their module loads. Building the operation
 * table's zod schemas (several hundred instances) was most of an action's start-up, and an action
 * uses one or two of them, the n8n trigger a handful.
 */

/** Builds on the first call and returns that value ever after. */
// Free of side effects (so is `lazy`): a bundle that never names a schema drops its code too.
/* @__NO_SIDE_EFFECTS__ */
export function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

/**
 * An exported schema, built on first use: the value stands in for the schema (a Proxy forwarding
 * to it), so `parse`, `.shape`, `.check()`, `z.optional(…)`, `z.toJSONSchema` and `typeof` read as before.
 *
 * Identity: the stand-in and the schema it builds are two objects: a wrapper (`z.optional(standIn)`)
 * holds the stand-in, methods (`.check()`, `.clone()`) return real instances. So inside a schema module, a part that several
 * schemas hold is a `once` builder (each holds the one real instance), and anything keyed by
 * instance (zod's registry, holding the request fields' descriptions) is keyed by what a schema's
 * tree holds, `schema.shape.field`, never by a stand-in.
 */
/* @__NO_SIDE_EFFECTS__ */
export function lazy<T extends object>(build: () => T): T {
  const schema = once(build);
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(schema(), key),
    set: (_, key, value) => Reflect.set(schema(), key, value),
    has: (_, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    // Reported configurable: the stand-in's own (empty) target cannot hold the schema's fixed properties.
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(schema(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(schema(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  });
}
