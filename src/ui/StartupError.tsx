import './startup.css'

/** What the page shows instead of the app when its storage cannot be opened at all. */
export function StartupError({ title, detail }: { title: string; detail: string }) {
  return (
    <main className="startup-error" role="alert" aria-label="Superstep could not start">
      <h1>{title}</h1>
      <p>{detail}</p>
    </main>
  )
}
