import './startup.css'

/**
 * What the page shows instead of the app when its storage cannot be opened at all, or can no
 * longer be used (`label` names which; `reload` offers a reload).
 */
export function StartupError({
  title,
  detail,
  label = 'Superstep could not start',
  reload = false,
}: {
  title: string
  detail: string
  label?: string
  reload?: boolean
}) {
  return (
    <main className="startup-error" role="alert" aria-label={label}>
      <h1>{title}</h1>
      <p>{detail}</p>
      {reload && (
        <button type="button" autoFocus onClick={() => location.reload()}>
          Reload
        </button>
      )}
    </main>
  )
}
