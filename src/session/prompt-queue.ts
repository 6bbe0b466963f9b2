/** An entry of a `PromptQueue`: any value with the text it is matched by. */
export interface Queued {
  text: string | undefined;
}

/** One order of entries: an array read from `head`, taken entries skipped as they come up. */
interface Line<T> {
  items: T[];
  head: number;
}

/**
 * The waiting queued prompts of `queuedPrompts`, with every take in amortised constant time: each entry
 * is in the order of all entries, in that of entries that are not task notifications, and in that of
 * its text; a take marks it, and each order skips marked entries once. (An array searched on every take
 * made 40,000 prompts never delivered quadratic.)
 */
export class PromptQueue<T extends Queued> {
  #taken = new WeakSet<T>();
  #all: Line<T> = { items: [], head: 0 };
  #plain: Line<T> = { items: [], head: 0 };
  #byText = new Map<string, Line<T>>();
  readonly #isNotification: (text: string | undefined) => boolean;

  /** @param isNotification whether an entry's text is a task notification (those wait for idle) */
  constructor(isNotification: (text: string | undefined) => boolean) {
    this.#isNotification = isNotification;
  }

  /** Adds an entry at the end. */
  push(entry: T): void {
    this.#all.items.push(entry);
    if (!this.#isNotification(entry.text)) this.#plain.items.push(entry);
    if (entry.text === undefined) return;
    const same = this.#byText.get(entry.text);
    if (same === undefined) this.#byText.set(entry.text, { items: [entry], head: 0 });
    else same.items.push(entry);
  }

  /**
   * Empties the queue.
   * @returns the entries that were waiting, in order
   */
  clear(): T[] {
    const { items, head } = this.#all;
    const cleared = items.slice(head).filter((entry) => !this.#taken.has(entry));
    this.#all = { items: [], head: 0 };
    this.#plain = { items: [], head: 0 };
    this.#byText = new Map();
    return cleared;
  }

  /** Takes the oldest entry with this text; `undefined` when none waits. */
  takeText(text: string): T | undefined {
    const same = this.#byText.get(text);
    return same === undefined ? undefined : this.#takeFirst(same);
  }

  /** Takes the oldest entry that is not a task notification, else the oldest; `undefined` when empty. */
  takeOldest(): T | undefined {
    return this.#takeFirst(this.#plain) ?? this.#takeFirst(this.#all);
  }

  #takeFirst(line: Line<T>): T | undefined {
    while (line.head < line.items.length) {
      const entry = line.items[line.head++] as T;
      if (this.#taken.has(entry)) continue;
      this.#taken.add(entry);
      return entry;
    }
    return undefined;
  }
}
