// A `Promise` for lib/promise-chains.js built from a library's defers, for the promise
// libraries whose users make a promise by creating a deferred and resolving it later
// rather than with `new Promise(executor)`: kew and medikoo's deferred. The scenarios
// still write `new Promise(executor)`, `Promise.all` and `Promise.resolve`; here each of
// them is the library's own defer, all and resolved promise, so no native promise is
// involved anywhere.

/**
 * The constructor-shaped stand-in: `defer()` returns `{ promise, resolve, reject }`, `all`
 * joins an array of the library's promises, `resolve(value)` is a promise of the value.
 */
export function promiseOfDefers({ defer, all, resolve }) {
  // A plain function, so that `new` may call it: returning an object (here the library's
  // promise) from a constructor makes that object the result of `new`.
  function DeferPromise(executor) {
    const deferred = defer();
    executor(
      (value) => deferred.resolve(value),
      (err) => deferred.reject(err),
    );
    return deferred.promise;
  }
  DeferPromise.all = all;
  DeferPromise.resolve = resolve;
  return DeferPromise;
}

/**
 * The promise of the next turn of the event loop for a library with defers only: a defer
 * resolved by setImmediate.
 */
export function deferredTurn(defer) {
  return () => {
    const deferred = defer();
    setImmediate(() => deferred.resolve());
    return deferred.promise;
  };
}
