/** A clock tests move by hand: session expiry and rate limits depend on it, not on real time. */
export class TestClock {
  private current: number

  constructor(start = '2026-03-01T09:00:00.000Z') {
    this.current = Date.parse(start)
  }

  readonly now = (): Date => new Date(this.current)

  advance(ms: number): void {
    this.current += ms
  }
}
