/**
 * The Diff tab's state diff (with microdiff), as a chunk the store loads when a diff is first
 * wanted: the page does not need it to start.
 */
export { diffState } from '../core/debug/diffState'
