// Imported for its effect: the store's lazily loaded actions (debugActions, libraryActions,
// runActions, docSyncRare) are in the module cache from the start, so a unit test's first
// call of one does not wait for a cold import (tests that wait a fixed time stay reliable).
// For the unit tests (vite.config.ts's setupFiles); the page fetches them on first use.
import './debugActions'
import './docSyncRare'
import './libraryActions'
import './runActions'
