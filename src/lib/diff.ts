/** Structural diff of JSON values (microdiff), for the pure core's state diffs. */
export { default as diffValues, type Difference } from 'microdiff'
