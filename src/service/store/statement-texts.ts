/**
 * Statement texts built once per variant and then reused as the very same string. The chat's
 * statements are long (CTEs over several tables), and pg-database.ts finds a statement's prepared
 * plan by its text: a text built anew for each request had to be joined up and read whole again
 * to be found, which cost more of a chat request than any other line of ours (`npm run
 * bench:service`, profiled). A string used again keeps its hash, so finding it costs nothing.
 */
export class StatementTexts {
  private readonly texts = new Map<string, string>()

  /**
   * The text of the variant named `key`, built by `build` the first time. A key is short, or is
   * itself a text from a `StatementTexts` (the rate limit's CTE): it must not be built per call.
   */
  text(key: string, build: () => string): string {
    let text = this.texts.get(key)
    if (text === undefined) {
      text = build()
      this.texts.set(key, text)
    }
    return text
  }
}
