/** One sample of a Prometheus text exposition: `name{label="value",…} 12`. */
export interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

/** The samples of a `/metrics` answer, read as Prometheus reads the text format. */
export function parseMetrics(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
      if (!match) throw new Error(`not a sample line: ${line}`)
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((label) => [label[1]!, label[2]!]))
      return { name: match[1]!, labels, value: Number(match[3]) }
    })
}

/** The sum of the samples named `name` whose labels include `labels` (0 when there is none). */
export function total(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((sample) => sample.name === name && Object.entries(labels).every(([label, value]) => sample.labels[label] === value))
    .reduce((sum, sample) => sum + sample.value, 0)
}
