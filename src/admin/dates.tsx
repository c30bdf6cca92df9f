/** A moment as the console writes it everywhere: the owner's clock, in English words ("Nov 28, 2026, 5:27:13 PM"). */
export const dateTime = (iso: string) => new Date(iso).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'medium' })

/** A moment in a page: machine-readable, and never broken over two lines (`.date` in console.css). */
export function When(props: { iso: string }) {
  return (
    <time class="date" dateTime={props.iso}>
      {dateTime(props.iso)}
    </time>
  )
}
