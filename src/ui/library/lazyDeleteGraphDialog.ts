import { lazy } from 'react'

/** The Delete graph dialog, fetched when it first opens (the top bar renders it in a Suspense). */
export const DeleteGraphDialog = lazy(() =>
  import('./DeleteGraphDialog').then((m) => ({ default: m.DeleteGraphDialog })),
)
