/** The instances `holdShape` keeps, one per class. */
const held: object[] = [];

/**
 * Keeps one instance of a class alive for the life of the process, so that V8 keeps its shape (map).
 *
 * A class's instances get their shape by having their fields added one by one, and V8 holds a shape made
 * that way weakly: a full collection that finds no instance of it left drops it, and with it every piece of
 * optimized code that was compiled for it ("weak objects" deoptimization); the next instance gets a shape
 * anew and that code is compiled again. An object literal's shape is kept by its literal site, so literals
 * never lose theirs. Over the corpus parsed pass after pass, with a full collection between passes (as
 * `npm run bench` measures), the read stage's and the graph's compiled code was thrown away each pass
 * (`push`, `keep`, `parseAround`, `EntrySet.has` and `add`, the references' loop), and the compiler threads
 * worked 120 compiles a pass from the third on, 85 with these classes held.
 *
 * Only for classes of fields of one kind each (a number field that stays a small integer, or a double):
 * a field that changes representation makes a new shape, which the held instance does not keep.
 *
 * @param instance an instance made at module load (its constructor must do no work beyond setting fields)
 */
export function holdShape(instance: object): void {
  held.push(instance);
}
